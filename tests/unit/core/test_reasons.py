"""Reason codes are registered once (domain.reasons), documented (docs/reasons.md) and passed
by keyword; an unregistered one is refused when the error is made."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.errors import DomainError, IllegalAction, InvalidAction
from domain.reasons import REASONS

DOC = Path(__file__).parents[3] / "docs" / "reasons.md"


def test_every_error_class_code_is_a_registered_reason() -> None:
    classes: list[type[DomainError]] = [DomainError]
    for cls in classes:
        classes.extend(cls.__subclasses__())
    assert {cls.code for cls in classes} <= set(REASONS)


def test_an_unregistered_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="not registered"):
        IllegalAction("no", reason="made_up_on_the_spot")
    assert IllegalAction("no", reason="too_low").reason == "too_low"
    assert InvalidAction("no").reason == "invalid_action"


def test_a_reason_is_passed_by_keyword_only() -> None:
    with pytest.raises(TypeError):
        IllegalAction("no", "too_low")  # type: ignore[misc]


def test_the_reasons_document_lists_exactly_the_registry() -> None:
    documented = re.findall(r"^\| `([a-z0-9_]+)` \| (.+) \|$", DOC.read_text(), flags=re.M)
    assert dict(documented) == REASONS
