"""The package's layout: the modules plugins import by their old top-level path (the built-in suites,
the fuzz harness, third-party plugins) re-export everything public of the module that moved, as the
same objects; the rest of the package imports the moved modules where they are."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "generator"
# old path -> where the module lives
STABLE = {"generator.suite_api": "generator.suite.api", "generator.crosscheck": "generator.pipeline.crosscheck",
          **{f"generator.{name}": f"generator.inputs.{name}"
             for name in ("content", "ids", "jsonl", "prompts", "page_images", "iso_date", "money")}}
# folders whose bytes a fuzz run and signed preregistrations hash: they keep importing the old paths
FROZEN = ("suites", "parse", "score", "fuzz")


def _public(module_name: str) -> set[str]:
    """The names a module defines at its top level, leading underscore aside (its __all__ when it has one)."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return set(module.__all__)
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("old,new", sorted(STABLE.items()))
def test_an_old_path_re_exports_the_moved_module(old, new):
    shim, moved = importlib.import_module(old), importlib.import_module(new)
    assert set(shim.__all__) == _public(new), old
    for name in shim.__all__:
        assert getattr(shim, name) is getattr(moved, name), f"{old}.{name}"
    body = ast.parse(Path(shim.__file__ or "").read_text(encoding="utf-8")).body
    assert all(isinstance(n, (ast.Expr, ast.ImportFrom, ast.Assign)) for n in body), f"{old} holds code of its own"


def test_the_rest_of_the_package_imports_modules_where_they_are():
    """Only the frozen folders (and the stable paths' own docs) go through the old paths."""
    olds = {old.split(".")[1] for old in STABLE}
    found = []
    for path in sorted(GENERATOR.rglob("*.py")):
        rel = path.relative_to(GENERATOR)
        if rel.parts[0] in FROZEN or rel.with_suffix("").as_posix() in olds:
            continue
        package = ["generator", *rel.parts[:-1]]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] + [f"{target}.{a.name}" for a in node.names]
                found += [f"{rel}:{node.lineno} {n}" for n in names if n in STABLE]
    assert not found, found
