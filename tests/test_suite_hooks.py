"""The suite interface in three roles (generator/suite/hooks.py): every hook declared once, generic code
reading a suite only through declared names and never probing for one, every suite (the five built-in
ones, LongListBench, the scaffold) on the interface, the docs naming exactly the declared hooks, and a
plugin written against the interface as it was either working or told what to change."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from generator.inputs.results import Run
from generator.suite.api import (
    HOOKS,
    Harness,
    InterfaceChange,
    Pages,
    Rules,
    ScoredRuns,
    Suite,
    declaration_notes,
    declaration_problems,
    implements,
)
from generator.suite.plugins import load_registry
from generator.suite.report import ReportItem, ReportRun

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "generator"
SUITES = GENERATOR / "suites"
PLUGIN_NAMES = {"plugin", "PLUGIN"}  # how generic code names the suite object it holds


def _generic_modules() -> list[Path]:
    return [p for p in GENERATOR.rglob("*.py") if SUITES not in p.parents and p != GENERATOR / "suite" / "hooks.py"]


def _names_a_plugin(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in PLUGIN_NAMES) or \
        (isinstance(node, ast.Attribute) and node.attr in PLUGIN_NAMES)


def test_every_hook_is_declared_once_in_one_role():
    declared = [name for role in (Rules, Pages, Harness)
                for name in set(role.__annotations__) | {n for n, v in vars(role).items()
                                                          if callable(v) and not n.startswith("_")}]
    assert len(declared) == len(set(declared)) == len(HOOKS)
    assert {"episode_view", "import_files", "prepare_page", "order_label", "report_tables"} <= set(HOOKS)
    assert "needs_locale" not in HOOKS and not hasattr(Suite, "needs_locale")
    assert issubclass(Suite, Rules) and issubclass(Suite, Pages) and issubclass(Suite, Harness)
    for name in HOOKS:  # each says when it is called (methods) or what it is (declarations, commented)
        value = getattr(HOOKS[name], name, None)
        if callable(value):
            assert "Called:" in (value.__doc__ or ""), name


def test_generic_code_reads_a_suite_only_through_declared_hooks_and_never_probes():
    read, probes = set(), []
    for path in _generic_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _names_a_plugin(node.value):
                read.add((node.attr, path.relative_to(ROOT).as_posix()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                    and node.args and _names_a_plugin(node.args[0]):
                probes.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert read, "the scan found no reads of a suite: the names it looks for are stale"
    assert sorted((name, where) for name, where in read if name not in HOOKS) == []
    assert probes == []


def test_every_suite_is_on_the_interface_and_optional_hooks_are_told_apart():
    registry = load_registry(ROOT)
    assert {"extracting", "au-bas", "ra-bench", "ledgershield", "cortifybench", "longlistbench"} <= set(registry.suites)
    for suite in registry.suites.values():
        assert declaration_problems(suite, files=True) == [] and declaration_notes(suite) == []
        for cls in type(suite).__mro__:  # nothing a suite defines looks like a hook it is not
            if cls.__module__.startswith(("generator.suites", "tally_plugin")):
                assert not [n for n in vars(cls) if n in ("needs_locale", "episode_views", "import_file")]
    ledger, extracting = registry.suites["ledgershield"], registry.suites["extracting"]
    assert implements(ledger, "episode_view") and implements(ledger, "import_files")
    assert not implements(extracting, "episode_view") and not implements(extracting, "import_files")
    assert extracting.import_files(None, [], None) is None  # the declared default: leave it to the Batch import
    with pytest.raises(NotImplementedError):
        extracting.episode_view({}, None, {})


def test_the_scaffold_is_on_the_interface(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    assert CliRunner().invoke(main, ["suite", "new", "demo", "--root", str(tmp_path)]).exit_code == 0
    suite = load_registry(tmp_path).suites["demo"]
    assert isinstance(suite, Suite) and declaration_problems(suite, files=True) == [] == declaration_notes(suite)


def _guide_tables() -> dict[str, set[str]]:
    """The hooks named in each role's table of the guide's section 3 (role -> names)."""
    text = (ROOT / "docs" / "writing-a-suite.md").read_text(encoding="utf-8")
    section = text[text.index("## 3. The plugin"):text.index("## 4. Metrics")]
    tables = {}
    for role in ("Rules", "Pages", "Harness"):
        start = section.index(f"{role} (`{role}`):\n\n|")
        table = section[start:section.index("\n\n", section.index("|", start))]
        named = {m.group(1) for m in re.finditer(r"^\| `([a-z_]+)[(`]", table, re.M)}
        named |= {m.group(1) for m in re.finditer(r"^\| `[a-z_]+`, `([a-z_]+)`", table, re.M)}
        tables[role] = named
    return tables


def test_the_guide_names_exactly_the_declared_hooks_each_under_its_role():
    tables = _guide_tables()
    assert tables == {role: {hook for hook, owner in HOOKS.items() if owner.__name__ == role} for role in tables}
    assert set().union(*tables.values()) == set(HOOKS)


def _old_style_plugin():
    """A suite written against the interface before its roles were split: `needs_locale`, an
    `episode_view`, and `report_tables` reading the names it read then."""
    from generator.suites.extracting import Extracting

    class Old(Extracting):
        name = "old"
        needs_locale = True

        def episode_view(self, raw, content, orders):
            return {"score": content}

        def report_tables(self, scored):
            from generator.suite.api import ReportTable

            rows = tuple((r.run.id, r.run.simulated, r.responses, len(list(r.verdicts().rows())),
                          len(r.calls()), len(scored.items), float(np.nansum(r.means())), int(r.repeats.sum()))
                         for r in scored.runs)
            return [ReportTable("old", "Old", ("run", "simulated", "n", "rows", "calls", "items", "sum", "reps"), rows)]

    return Old()


class _Handle:
    """A scored run's handle as the pipeline holds it (the parts ReportRun reads)."""

    def __init__(self) -> None:
        self.run = Run("r1", "old", "m", "p", "hosted", True, "public", {"round": "1"}, Path("x"))
        self.responses, self.missing = 2, 0
        self.repeats = np.array([1, 1])

    def verdicts(self):
        return SimpleNamespace(rows=lambda: iter([1, 2, 3]))

    def calls(self):
        return [("r1", "i1"), ("r1", "i2")]

    def means(self):
        return np.array([[1.0], [2.0]])


def _scored() -> ScoredRuns:
    items = tuple(ReportItem(i, "d", "public", {}, None) for i in ("i1", "i2"))
    return ScoredRuns("old", items, (ReportRun(_Handle()),), ("f",), "holm")  # type: ignore[arg-type]


def test_a_plugin_written_the_old_way_keeps_working_and_is_told_what_is_retired():
    old = _old_style_plugin()
    assert declaration_problems(old) == []
    assert declaration_notes(old) == ["needs_locale is no longer part of the suite interface (nothing read it): "
                                      "remove it"]
    assert implements(old, "episode_view") and old.episode_view({}, "x", {}) == {"score": "x"}
    (table,) = old.report_tables(_scored())
    assert table.rows == (("r1", True, 2, 3, 2, 2, 3.0, 2),)


@pytest.mark.parametrize("read, told", [
    (lambda s: s.suite_config, "ScoredRuns.suite_config"),
    (lambda s: s.plugin.figures, "scored.figures"),
    (lambda s: s.runs[0].summary, "compute from means()"),
    (lambda s: s.runs[0].run.responses, "RunInfo.responses"),
    (lambda s: s.items[0].document, "keep what a table needs"),
    (lambda s: s.runs[0].verdicts.rows(), "write r.verdicts()"),
    (lambda s: len(s.runs[0].calls), "write r.calls()"),
    (lambda s: s.runs[0].calls[0], "write r.calls()"),
])
def test_what_the_public_view_does_not_hold_is_named_with_what_to_read_instead(read, told):
    with pytest.raises(InterfaceChange, match=re.escape(told)):
        read(_scored())
    assert issubclass(InterfaceChange, AttributeError)  # hasattr and getattr with a default still work
    assert not hasattr(_scored(), "plugin")
