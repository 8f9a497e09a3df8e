"""``make unit`` is the fast subset: what needs a real Redis or starts processes lives in the
integration and end-to-end folders, and every test there carries their marks whether its
module says so or not (``tests/conftest.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FOLDER_MARKS, TESTS, pytest_collection_modifyitems


class Item:
    """What the collection hook reads and writes of a collected test."""

    def __init__(self, path: Path) -> None:
        self.path, self.nodeid, self.marks = path, str(path), set[str]()

    def add_marker(self, mark: str) -> None:
        self.marks.add(mark)


@pytest.mark.parametrize("folder", sorted(FOLDER_MARKS))
def test_every_test_module_of_a_process_folder_is_marked(folder: str) -> None:
    items = [Item(path) for path in sorted((TESTS / folder).rglob("test_*.py"))]
    assert items, folder
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    for item in items:
        assert item.marks & {"integration", "e2e"}, item.path


def test_a_unit_test_gets_no_mark() -> None:
    item = Item(TESTS / "unit" / "core" / "test_suite_marks.py")
    pytest_collection_modifyitems([item])  # type: ignore[list-item]
    assert item.marks == set()
