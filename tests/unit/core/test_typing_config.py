"""mypy --strict (run by `make test`) covers every package the project ships."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())


def test_mypy_strict_checks_every_shipped_package() -> None:
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    shipped = {p.rstrip("*") for p in include}
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["strict"] is True
    assert shipped and shipped <= set(mypy["files"])
