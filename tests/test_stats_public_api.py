"""Code outside the statistics package uses only its public names (RA-Bench's rank measures once
imported the private helpers of stats/rank.py)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def private_stats_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        parts = node.module.split(".")
        if "stats" in parts:
            found += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_the_checker_finds_a_private_import(tmp_path):
    sample = tmp_path / "measure.py"
    sample.write_text("from ...stats.rank import _levels, roc_auc\nfrom .x import _y\n", encoding="utf-8")
    assert private_stats_imports(sample) == ["measure.py: stats.rank._levels"]


def test_no_private_statistics_helper_is_used_outside_the_package():
    outside = [p for p in PACKAGE.rglob("*.py") if PACKAGE / "stats" not in p.parents]
    assert len(outside) > 50
    assert [f for p in outside for f in private_stats_imports(p)] == []
