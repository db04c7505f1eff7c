"""`tally suite check` and `tally suite new`: what a suite lacks, its shared cases through both
scorers, and a scaffold of a working minimal suite."""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from ..errors import ErrorLog, InputProblem, TallyError, visible
from ..inputs.content import Item, headline_problem, load_items, load_suite
from ..inputs.ids import id_problem
from ..inputs.prompts import TEMPLATE_FILE
from ..parse.response import read_outcome
from ..pipeline.crosscheck import ScorerBProcess
from .api import Suite, case_rows, declaration_notes, declaration_problems

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
SHOWN = 10  # disagreeing cases listed per scorer
FUZZ_CASES = 500  # cases of the short fuzz (generator/fuzz) a check runs through both scorers
FUZZ_SEED = 1


@dataclass
class Report:
    name: str
    problems: list[str] = field(default_factory=list)  # each one fails the check
    notes: list[str] = field(default_factory=list)  # worth knowing, not failures
    cases: int = 0
    fuzzed: int = 0  # generated cases both scorers scored alike

    @property
    def ok(self) -> bool:
        return not self.problems


def check_suite(root: Path, plugin: Suite, content_name: str | None, node: bool = True,
                fuzz: int = FUZZ_CASES) -> Report:
    report = Report(content_name or plugin.name)
    report.problems += declaration_problems(plugin, files=True)
    report.notes += declaration_notes(plugin)
    if report.problems:
        return report
    if content_name is not None:
        _check_content(root, plugin, content_name, report)
    cases = plugin.vector_cases()
    report.cases = len(cases)
    if not cases:
        report.problems.append("no shared cases: declare `vectors` (a case file both scorers must pass)")
        return report
    _check_a(plugin, cases, report)
    if node:
        _check_b(plugin, cases, report)
        _check_fuzz(plugin, report, fuzz)
    else:
        report.notes.append("scorer B not run (--skip-scorer-b), nor the fuzz")
    return report


def _check_content(root: Path, plugin: Suite, name: str, report: Report) -> None:
    log = ErrorLog(root)
    suite = load_suite(root / "content" / "suites" / name, log)
    if suite is not None and not headline_problem(suite, plugin.headline, log):
        items = load_items(suite, plugin.parse_item, log)
        report.notes.append(f"{len(items)} items ({sum(i.half == 'public' for i in items)} public) "
                            f"in {len(suite.datasets)} dataset(s) are valid" if not log.errors else "")
        if not (suite.root / TEMPLATE_FILE).is_file():
            report.notes.append(f"no {TEMPLATE_FILE}: `tally run` needs one (the prompt)")
    report.problems += [str(e) for e in log.errors]
    page = root / "content" / "pages" / f"scoring-{name}.md"
    if not page.is_file():
        report.problems.append(f"no rule page {page.relative_to(root)}: the rules both scorers are written from")
    report.notes = [n for n in report.notes if n]


def _case_item(plugin: Suite, raw: dict) -> Item:
    spec, problems = plugin.parse_item(raw)
    if problems:
        raise InputProblem(f"the case's item is invalid: {'; '.join(problems)}")
    return Item(raw["id"], raw.get("dataset", "cases"), raw.get("half", "public"), {}, raw.get("document", {}), spec)


def _check_a(plugin: Suite, cases, report: Report) -> None:
    bad = []
    for case in cases:
        try:
            item = _case_item(plugin, case.item)
            outcome = read_outcome(case.record, plugin.extract_answer, plugin.answer_what)
            rows = plugin.score(item, outcome, "case", 0)
            got = case_rows(case.expected, [(v.unit, v.verdict, v.order, v.counts) for v in rows])
            counted = {len(v.counts) for v in rows} - {0, len(plugin.counts)}
            if counted:
                bad.append(f"{case.id}: scorer A gives a row {min(counted)} counts; the suite names {len(plugin.counts)}")
        except Exception as exc:  # a case that crashes scorer A is a failed case, reported
            got = (("<error>", f"{type(exc).__name__}: {exc}"),)
        if got != case.expected:
            bad.append(f"{case.id}: expected {list(case.expected)}, scorer A gave {list(got)}")
    if bad:
        report.problems.append(f"scorer A fails {len(bad)} of {len(cases)} shared cases: " + "; ".join(bad[:SHOWN]))


def _check_b(plugin: Suite, cases, report: Report) -> None:
    name = orjson.dumps(plugin.scorer_b.name)
    lines = [b'{"scorer":' + name + b',"run":"case","repeat":0,"item":' + orjson.dumps(c.item) + b',"record":'
             + orjson.dumps(c.record) + b"}" for c in cases]
    try:
        with ScorerBProcess([plugin]) as b:
            outputs = b.score(lines)
    except TallyError as exc:
        report.problems.append(f"scorer B could not run: {exc}")
        return
    bad = []
    for case, out in zip(cases, outputs):
        got = (case_rows(case.expected, [(r["unit"], r["verdict"], r.get("order", ""), _counts(r)) for r in out])
               if isinstance(out, list) else (("<error>", str(out)),))
        if got != case.expected:
            bad.append(f"{case.id}: expected {list(case.expected)}, scorer B gave {list(got)}")
    if bad:
        report.problems.append(f"scorer B fails {len(bad)} of {len(cases)} shared cases: " + "; ".join(bad[:SHOWN]))


def _counts(row: dict) -> object:
    counts = row.get("counts", [])
    return tuple(counts) if isinstance(counts, list) else counts


def _check_fuzz(plugin: Suite, report: Report, cases: int) -> None:
    """A short seeded fuzz of both scorers (generator/fuzz): cases derived from the shared cases (and
    the suite's `fuzzcases` module, when it has one); every difference or crash is a problem."""
    if cases <= 0:
        return
    from ..fuzz import fuzz_suite

    try:
        fuzzed = fuzz_suite(plugin, cases, seed=FUZZ_SEED, batch=cases, keep=3)
    except TallyError as exc:
        report.problems.append(f"the fuzz could not run: {exc}")
        return
    report.fuzzed = fuzzed.cases
    if not fuzzed.ok:
        shown = "; ".join(f.describe().replace("\n", " ") for f in fuzzed.findings)
        report.problems.append(f"the fuzz of both scorers failed: {fuzzed.summary()}. First: {shown}")


# ---------------------------------------------------------------- tally suite new

def plugin_folder(root: Path, folder: str) -> Path:
    """The plugin folder of `tally suite new`: a relative path inside the project, each part a safe
    name (no `..`, no absolute path), not reached through a symbolic link that leads out."""
    parts = folder.replace("\\", "/").split("/")
    if not folder or Path(folder).is_absolute() or folder.startswith("/"):
        raise InputProblem(f"--plugins {folder!r}: the plugin folder must be a relative path inside the project "
                           "(nothing was written)")
    for part in parts:
        if (p := id_problem(part, "a part of the plugin folder")) is not None:
            raise InputProblem(f"--plugins {visible(folder[:80])!r}: {p}; it must be a relative path inside the "
                               "project (nothing was written)")
    return root.joinpath(*parts)


def _inside(root: Path, path: Path) -> bool:
    """Whether `path` (its existing part, links followed) stays inside the project folder."""
    return path.resolve().is_relative_to(root.resolve())


def scaffold(root: Path, name: str, plugins: str = "plugins") -> list[Path]:
    """A working minimal suite NAME in the project at `root`; returns the files written. Every check
    (the name, the plugin folder, tally.toml) comes before the first file is written."""
    if (p := id_problem(name, "suite name")) is not None:
        raise InputProblem(p)
    folder = "/".join(plugin_folder(root, plugins).relative_to(root).parts)
    date = dt.date.today().isoformat()
    targets = {
        root / folder / name / "__init__.py": "plugin__init__.py.tmpl",
        root / folder / name / "scorer.js": "scorer.js.tmpl",
        root / folder / name / "vectors.json": "vectors.json.tmpl",
        root / folder / name / "fuzzcases.py": "fuzzcases.py.tmpl",
        root / "content" / "suites" / name / "suite.toml": "suite.toml.tmpl",
        root / "content" / "suites" / name / "prompt.toml": "prompt.toml.tmpl",
        root / "content" / "suites" / name / "items" / "main.public.jsonl": "items.public.jsonl.tmpl",
        root / "content" / "pages" / f"scoring-{name}.md": "scoring.md.tmpl",
        root / "results" / name / "example-echo" / "run.json": "run.json.tmpl",
        root / "results" / name / "example-echo" / "responses.jsonl": "responses.jsonl.tmpl",
    }
    outside = [str(t.relative_to(root)) for t in targets if not _inside(root, t)]
    if outside:
        raise InputProblem(f"{outside[0]}: reached through a symbolic link that leads out of the project "
                           "(nothing was written)")
    existing = [str(t.relative_to(root)) for t in targets if t.exists() or t.is_symlink()]
    if existing:
        raise InputProblem(f"suite {name!r} exists already: {', '.join(existing)} (nothing was written)")
    config = root / "tally.toml"
    config_text = _with_plugin_folder(root, config, folder)
    for target, template in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (SCAFFOLD / template).read_text(encoding="utf-8")
        target.write_text(text.replace("__NAME__", name).replace("__DATE__", date), encoding="utf-8")
    written = list(targets)
    if config_text is not None:
        config.write_text(config_text, encoding="utf-8")
        written.append(config)
    return written


def _with_plugin_folder(root: Path, config: Path, folder: str) -> str | None:
    """tally.toml's new text naming the plugin folder (None: named already), checked to parse and to
    name it; refused when [suites] lists other folders (add it there yourself) or tally.toml leads out."""
    from ..inputs.config import load_config

    if config.is_symlink() or (config.exists() and not _inside(root, config)):
        raise InputProblem(f"{config}: a symbolic link: tally.toml is not written through it (nothing was written)")
    settings = load_config(root)
    paths = settings.get("suites", {}).get("paths", [])
    if folder in paths:
        return None
    if "suites" in settings:
        raise InputProblem(f"{config}: add {folder!r} to [suites] paths yourself (it lists {paths}), then run "
                           "this again (nothing was written)")
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    new = text + ("\n" if text and not text.endswith("\n") else "") + f"[suites]\npaths = {json.dumps([folder])}\n"
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:  # tally.toml parsed before: only a bug could get here
        raise InputProblem(f"{config}: adding the plugin folder would break it ({exc}); nothing was written") from None
    assert parsed["suites"]["paths"] == [folder]
    return new
