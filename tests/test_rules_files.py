"""The rules files in docs/rules are the shared originals word for word, followed only by the
service's own appended sections (``## ... (service...)``: resignation, refusal reasons); each
file's refusal-reason table lists exactly the registered reasons its game's code names."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from domain.reasons import NARROW

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = ("shithead", "sixty_six", "sheepshead")
# the originals sit beside the checkout (CI) or beside the worktrees folder (a worktree), or
# where CARDROOM_SHARED_RULES points
_CHOSEN = os.environ.get("CARDROOM_SHARED_RULES")
PLACES = (
    (Path(_CHOSEN),) if _CHOSEN
    else (ROOT.parent / "shared" / "rules", ROOT.parent.parent / "shared" / "rules")
)
SHARED = next((p for p in PLACES if p.is_dir()), None)
SERVICE_SECTION = re.compile(r"^## [^\n]*\(service[^)\n]*\)$", re.MULTILINE)
REASONS_HEADING = "## Refusal reasons (service)"


def shared_originals() -> Path:
    """The folder of the shared originals: missing, the test fails in CI (``CI=true``) and is
    skipped elsewhere, saying where it looked."""
    if SHARED is not None:
        return SHARED
    why = (f"the shared rules originals are not at {' nor '.join(map(str, PLACES))} "
           "(set CARDROOM_SHARED_RULES to their folder)")
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def appended(game: str) -> str:
    """What docs/rules adds after the original's text."""
    original = (shared_originals() / f"{game}.md").read_text().rstrip()
    ours = (RULES / f"{game}.md").read_text()
    assert ours.startswith(original), (
        f"docs/rules/{game}.md differs from the shared original before its appended sections; "
        "document a decision in an appended '## ... (service)' section instead of editing it"
    )
    return ours[len(original):].strip()


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_file_is_the_original_plus_service_sections(game: str) -> None:
    extra = appended(game)
    headings = re.findall(r"^## .*$", extra, flags=re.MULTILINE)
    assert extra.startswith("## ") and headings
    assert all(SERVICE_SECTION.match(h) for h in headings), headings
    assert REASONS_HEADING in headings


def _named_reasons(game: str) -> set[str]:
    source = "\n".join(p.read_text() for p in (ROOT / "domain" / "games" / game).rglob("*.py"))
    return set(re.findall(r'"([a-z0-9_]+)"', source)) & set(NARROW)


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_file_lists_the_reasons_its_game_names(game: str) -> None:
    text = (RULES / f"{game}.md").read_text()
    section = text.split(REASONS_HEADING, 1)[1].split("\n## ", 1)[0]
    listed = dict(re.findall(r"^\| `([a-z0-9_]+)` \| (.+) \|$", section, flags=re.MULTILINE))
    assert set(listed) == _named_reasons(game)
    assert listed == {name: NARROW[name] for name in listed}
    assert "(../reasons.md)" in section


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_file_names_exactly_the_kinds_the_default_move_skips(game: str) -> None:
    from domain.registry import get_game

    text = (RULES / f"{game}.md").read_text()
    line = re.search(r"Default-move skips: ([^\n]*(?:\n[^\n—]*)?)—", text)
    assert line is not None, f"docs/rules/{game}.md does not list its default-move skips"
    named = set(re.findall(r"`([a-z_]+)`", line.group(1)))
    assert named == set(get_game(game).default_move_skips)  # type: ignore[attr-defined]
