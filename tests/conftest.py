"""Suite-wide collection checks."""

from __future__ import annotations

from collections import Counter

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse two tests with one node id: pytest-xdist runs only one of them, silently (a
    generator that parametrizes without ids did that to the API fuzz test)."""
    counts = Counter(item.nodeid for item in items)
    duplicates = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if duplicates:
        shown = "\n  ".join(duplicates[:20])
        raise pytest.UsageError(f"{len(duplicates)} test node id(s) are not unique:\n  {shown}")
