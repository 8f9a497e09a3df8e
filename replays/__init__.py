"""Replay files: write, read, verify (audit) and render any step (docs/replay-format.md)."""

from replays.format import (
    FORMAT,
    VERSION,
    Batch,
    Header,
    RecordedEvent,
    Replay,
    ReplayFormatError,
    build_replay,
    dumps,
    from_dict,
    loads,
    read,
    write,
)
from replays.show import render, show, table_at
from replays.verify import Report, VerificationFailed, check, verify

__all__ = [
    "FORMAT",
    "VERSION",
    "Batch",
    "Header",
    "RecordedEvent",
    "Replay",
    "ReplayFormatError",
    "Report",
    "VerificationFailed",
    "build_replay",
    "check",
    "dumps",
    "from_dict",
    "loads",
    "read",
    "render",
    "show",
    "table_at",
    "verify",
    "write",
]
