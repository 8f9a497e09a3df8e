"""``cardroom serve`` runs one role with ``--only`` (the Procfile's lines); its web command
writes an access log unless told not to."""

from __future__ import annotations

import pytest

from service.cli import _parser, main
from service.processes import web_command


@pytest.mark.parametrize("role", ["web", "workers"])
def test_one_role_alone_needs_redis_url(
    role: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["serve", "--only", role]) == 2
    assert f"`cardroom serve --only {role}` needs REDIS_URL" in capsys.readouterr().err


def test_the_web_command_logs_each_request_unless_told_not_to() -> None:
    logged = web_command("127.0.0.1", 8000, 2)
    assert logged[logged.index("--access-logfile") + 1] == "-"
    assert "--access-logfile" not in web_command("127.0.0.1", 8000, 2, access_log=False)
    as_json = web_command("127.0.0.1", 8000, 2, json_logs=True)
    assert '"logger": "gunicorn.access"' in as_json[as_json.index("--access-logformat") + 1]


def test_the_web_processes_and_the_access_log_follow_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "5")
    monkeypatch.setenv("CARDROOM_ACCESS_LOG", "0")
    args = _parser().parse_args(["serve"])
    assert args.web_workers == 5 and args.access_log is False
    monkeypatch.delenv("WEB_CONCURRENCY")
    monkeypatch.delenv("CARDROOM_ACCESS_LOG")
    args = _parser().parse_args(["serve"])
    assert args.web_workers == 2 and args.access_log is True
