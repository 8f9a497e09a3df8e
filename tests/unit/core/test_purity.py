"""House rule 1: domain/ and replays/ use the standard library only, and depend on nothing
of ours but domain."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ALLOWED_OWN = {"domain": {"domain"}, "replays": {"domain", "replays"}}
FORBIDDEN_STDLIB = {"random", "time", "datetime", "secrets", "uuid", "socket", "threading"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED_OWN))
def test_pure_packages_import_only_the_standard_library_and_domain(package: str) -> None:
    offenders = {}
    for path in (ROOT / package).rglob("*.py"):
        bad = {
            name
            for name in _imports(path)
            if name not in sys.stdlib_module_names
            and name not in ALLOWED_OWN[package]
            and name != "__future__"
        }
        if package == "domain":
            bad |= _imports(path) & FORBIDDEN_STDLIB
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert not offenders, f"impure imports: {offenders}"


def test_the_purity_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import redis\nfrom flask import Flask\nimport random\n")
    assert _imports(sample) == {"redis", "flask", "random"}


def test_nothing_in_service_but_the_cli_imports_workers() -> None:
    offenders = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "service").rglob("*.py")
        if path.name != "cli.py" and "workers" in _imports(path)  # function bodies' too
    )
    assert not offenders, f"service modules importing workers: {offenders}"
