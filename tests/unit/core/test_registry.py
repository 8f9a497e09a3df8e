"""The registry knows every game, whichever game module was imported first."""

from __future__ import annotations

import subprocess
import sys


def _known_after(first_import: str) -> str:
    code = (
        f"import {first_import}\n"
        "from domain.registry import all_games\n"
        "print(','.join(sorted(all_games())))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_every_game_is_known_even_when_one_game_was_imported_first() -> None:
    assert _known_after("domain.games.shithead") == "sheepshead,shithead,sixty_six"


def test_a_missing_game_module_is_an_error_not_a_smaller_registry() -> None:
    code = (
        "import sys\n"
        "sys.modules['domain.games.sixty_six'] = None\n"  # import of it now fails
        "from domain.registry import all_games\n"
        "all_games()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert "domain.games.sixty_six" in done.stderr
