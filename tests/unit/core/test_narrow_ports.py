"""Issue 35 §4: each consumer of the store is given the ports it uses (``service.store.port``) by
a composition root; none reaches for the whole store through another object's ``store``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("domain", "replays", "service", "workers")
# The store's own package, and GameService keeping the store it is made from (tests read it)
ALLOWED = {("service/games.py", "self")}


def _reaches(path: Path) -> list[str]:
    """Where a module reads an attribute ``store`` of anything, as ``line: owner``: ``x.store``,
    and ``getattr(x, "store")`` (or ``hasattr``, ``setattr``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        owner = None
        if isinstance(node, ast.Attribute) and node.attr == "store":
            owner = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "store"
        ):
            owner = node.args[0]
        if owner is not None:
            found.append((node.lineno, ast.unparse(owner)))
    return [f"{line}: {owner}" for line, owner in sorted(found)]


def test_nothing_outside_the_store_reaches_for_the_whole_store() -> None:
    offenders = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith("service/store/"):
                continue
            offenders += [f"{name}:{place}" for place in _reaches(path)
                          if (name, place.split(": ")[1]) not in ALLOWED]  # fmt: skip
    assert not offenders, f"the whole store reached through .store (give the ports): {offenders}"


def test_the_check_sees_the_store_reached_for(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text(
        "svc.store.purge(game_id)\n"
        "get_service().store.logged(game_id)\n"
        "client = getattr(service.store, 'client', None)\n"
        "getattr(service, 'store')\n"
        "store.purge(game_id)\n"  # a port given by name is fine
    )
    assert _reaches(sample) == ["1: svc", "2: get_service()", "3: service", "4: service"]
