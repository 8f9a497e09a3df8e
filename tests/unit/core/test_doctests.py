"""The examples in the docstrings of card parsing and the shuffle, and the shuffle's reference
implementation in docs/shuffle.md (with its example and the pinned vectors), run as tests."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from domain import cards, shuffle
from domain.cards import deck_52

ROOT = Path(__file__).parents[3]
SHUFFLE_DOC = ROOT / "docs" / "shuffle.md"


@pytest.mark.parametrize("module", [cards, shuffle], ids=lambda m: m.__name__)
def test_the_module_s_examples_hold(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2
    assert result.failed == 0


def _reference() -> dict[str, Any]:
    (block,) = re.findall(r"```python\n(.*?)```", SHUFFLE_DOC.read_text(), flags=re.S)
    scope: dict[str, Any] = {}
    exec(compile(block, str(SHUFFLE_DOC), "exec"), scope)  # the documented reference, as is
    return scope


def test_the_documented_example_holds_for_the_reference() -> None:
    scope = _reference()
    parser = doctest.DocTestParser()
    test = parser.get_doctest(SHUFFLE_DOC.read_text(), scope, "shuffle.md", str(SHUFFLE_DOC), 0)
    assert test.examples, "docs/shuffle.md shows an example"
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
    assert result.failed == 0


def test_the_reference_gives_the_pinned_vectors() -> None:
    shuffle_ref = _reference()["shuffle"]
    vectors = json.loads((ROOT / "tests" / "vectors" / "shuffle.json").read_text())["shuffles"]
    checked = 0
    for vector in vectors:
        if vector["deck"] == "52":
            assert vector["canonical"] == list(deck_52())
        got = shuffle_ref(vector["canonical"], vector["seed"], vector["label"])
        assert got == vector["shuffled"], vector["seed"]
        checked += 1
    assert checked >= 5
