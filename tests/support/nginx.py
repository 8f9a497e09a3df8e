"""nginx of the test's own, running a configuration block taken word for word from
docs/operations.md (between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``), with only its
addresses, ports and file paths replaced. Debian's /usr/sbin/nginx (or nginx on PATH); the
tests never skip in CI: .ci/run installs it."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from benchmarks.servers import nginx_conf
from tests.support.processes import tool

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "operations.md"

def executable() -> str:
    return tool("nginx", "nginx-light")


def doc_block(name: str) -> str:
    """The fenced block between the ``name`` markers of docs/operations.md."""
    found = re.search(
        rf"<!-- {name}:start -->\n```nginx\n(.*?)```\n<!-- {name}:end -->",
        OPERATIONS.read_text(),
        re.S,
    )
    assert found, f"docs/operations.md has no {name} block"
    return found.group(1)


class Nginx:
    """``block`` (http context) run by nginx under ``tmp``; stopped by ``stop``."""

    def __init__(self, block: str, tmp: Path) -> None:
        tmp.mkdir(parents=True, exist_ok=True)
        self.tmp = tmp
        conf = tmp / "nginx.conf"
        conf.write_text(nginx_conf(tmp, block))  # its own pid, logs and temp files
        tested = subprocess.run([executable(), "-t", "-c", str(conf), "-p", str(tmp)],
                                capture_output=True, text=True)  # fmt: skip
        assert tested.returncode == 0, tested.stderr
        self.process = subprocess.Popen([executable(), "-c", str(conf), "-p", str(tmp)])

    def wait_listening(self, port: int) -> None:
        import socket

        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    return
            assert self.process.poll() is None, (self.tmp / "error.log").read_text()
            time.sleep(0.05)
        raise AssertionError(f"nginx does not listen on {port}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(15)
