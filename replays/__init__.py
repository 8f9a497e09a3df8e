"""Replay files: write, read, verify (audit) and render any step (docs/replay-format.md).

The functions named like their modules stay in them (``replays.verify.verify``,
``replays.show.show``), so ``replays.verify`` is always the module.
"""

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
from replays.show import render, table_at
from replays.verify import Report, VerificationFailed, check

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
    "table_at",
    "write",
]
