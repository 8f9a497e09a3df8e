"""Every numbered rule of a game's rules file is named by at least one test of that game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = {"shithead": "shithead.md", "sixty_six": "sixty_six.md", "sheepshead": "sheepshead.md"}
RULE_ID = re.compile(r"^\s*-?\s*\*{0,2}(R\d+(?:\.\d+)*[a-z]?)\*{0,2}\b", re.MULTILINE)


def rule_ids(text: str) -> list[str]:
    return sorted(set(RULE_ID.findall(text)))


def _test_sources(game: str) -> str:
    folder = ROOT / "tests" / "unit" / game
    return "\n".join(p.read_text() for p in folder.rglob("test_*.py"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_numbered_rule_has_a_test_that_names_it(game: str) -> None:
    if not (ROOT / "domain" / "games" / f"{game}.py").exists() and not (
        ROOT / "domain" / "games" / game
    ).is_dir():
        pytest.skip(f"{game} is not implemented yet")
    ids = rule_ids((RULES / GAMES[game]).read_text())
    assert ids, "the rules file lists numbered rules"
    names = set(re.findall(r"def (test_R[\w]+)", _test_sources(game)))
    tagged = " ".join(names)
    missing = [r for r in ids if f"test_{r.replace('.', '_')}_" not in tagged]
    assert not missing, f"rules with no test named after them: {', '.join(missing)}"
