"""The base install's dependencies (pyproject.toml) are what the package imports: none declared that
nothing uses (each one is installed on every machine, and its licence and updates are ours to follow)."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def imported_modules(folder: Path) -> set[str]:
    """The top-level names of every module imported by the Python files under `folder` (absolute imports)."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_declared_dependency_is_imported_by_the_package():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    distributions = {normalized(re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0]) for spec in declared}
    provided: dict[str, set[str]] = {}  # distribution -> the top-level modules it installs
    for module, dists in packages_distributions().items():
        for dist in dists:
            provided.setdefault(normalized(dist), set()).add(module)
    imported = imported_modules(REPO / "generator")
    unused = sorted(d for d in distributions if not provided.get(d, set()) & imported)
    assert unused == [], f"declared in pyproject.toml but imported by nothing in generator/: {unused}"
