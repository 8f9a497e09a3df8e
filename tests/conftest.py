"""Suite-wide collection checks."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

# The suite's games with people do not wait for their bots (a served pace of 0, inherited by the
# processes tests start); the pace itself is tested where a test sets it (test_bot_pace.py).
os.environ.setdefault("CARDROOM_BOT_PACE_MS", "0")

TESTS = Path(__file__).resolve().parent
# every test in these folders carries these marks, whether its module says so or not:
# ``make unit`` leaves out what needs a real Redis or starts processes
FOLDER_MARKS = {
    "integration": ("integration",),
    "e2e": ("e2e",),
    "browser": ("e2e",),
    "cluster": ("integration", "e2e"),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of the integration and end-to-end folders as such, and refuse two tests
    with one node id: pytest-xdist runs only one of them, silently (a generator that
    parametrizes without ids did that to the API fuzz test)."""
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
        for mark in FOLDER_MARKS.get(folder, ()):
            item.add_marker(mark)
    counts = Counter(item.nodeid for item in items)
    duplicates = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if duplicates:
        shown = "\n  ".join(duplicates[:20])
        raise pytest.UsageError(f"{len(duplicates)} test node id(s) are not unique:\n  {shown}")
