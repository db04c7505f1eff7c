"""Every suite fuzzed through both scorers (generator/fuzz): a seeded 10,000 cases per suite, and the
scaffold of `tally suite new`; plus the engine's own guarantees (deterministic, hostile forms kept,
a planted difference found, a suite without a fuzzcases module still fuzzed).

A suite whose known defects are not fixed on this branch is marked xfail(strict=True) with the defect:
when the fix lands the test passes, the strict xfail turns into a failure, and the mark is removed.
A failing run stops after its first failing batch (the finding is in the assertion message).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from generator.fuzz import Dup, Generator, Num, Raw, dump, find_answer, fuzz_suite, hints_of
from generator.fuzz.engine import Hints
from generator.fuzz.run import stored
from generator.suite.check import scaffold
from generator.suite.plugins import load_registry
from generator.suites.aubas import SUITE as AUBAS
from generator.suites.cortify import SUITE as CORTIFY
from generator.suites.extracting import SUITE as EXTRACTING
from generator.suites.ledgershield import SUITE as LEDGERSHIELD
from generator.suites.rabench import SUITE as RABENCH
from tests.site_support import missing_node

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")

CASES = 10_000
SEED = 20261203

# suite name -> the known defect its fuzz finds (xfail, strict); empty: every suite's fuzz agrees
KNOWN_DEFECTS: dict[str, str] = {}
# LongListBench's suite is an outside plugin folder of the example project (tally.toml), not a built-in suite
LONGLISTBENCH = load_registry(Path(__file__).resolve().parents[1]).get("longlistbench")


def _case(suite):
    reason = KNOWN_DEFECTS.get(suite.name)
    marks = [needs_node] + ([pytest.mark.xfail(strict=True, reason=reason)] if reason else [])
    return pytest.param(suite, id=suite.name, marks=marks)


def _assert_agree(report) -> None:
    assert report.ok, report.summary() + "\n" + "\n".join(f.describe() for f in report.findings)


@pytest.mark.slow
@pytest.mark.parametrize("suite", [_case(s) for s in (EXTRACTING, AUBAS, RABENCH, CORTIFY, LEDGERSHIELD, LONGLISTBENCH)])
def test_every_suite_s_fuzz_agrees(suite):
    report = fuzz_suite(suite, CASES, seed=SEED, batch=100, keep=3, stop_after=1)
    _assert_agree(report)
    # every case scored by both but the few no stored line can carry (refused, as a rescore refuses them)
    assert report.cases == CASES and report.refused < CASES // 100 and report.rows >= CASES - report.refused


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz-scaffold")
    scaffold(root, "demo")
    return load_registry(root).get("demo")


@pytest.mark.slow
@needs_node
def test_the_scaffold_s_fuzz_agrees(demo):
    assert hints_of(demo).answers is not None  # the scaffold's fuzzcases.py, found next to the plugin
    _assert_agree(fuzz_suite(demo, CASES, seed=SEED, batch=100, keep=3, stop_after=1))


@needs_node
def test_a_planted_difference_and_a_crash_are_found(demo):
    """Scorer A changed behind scorer B's back: calls every key correct, and raises on a long reply."""
    cls = type(demo)

    class Lenient(cls):  # type: ignore[misc, valid-type]
        def score(self, item, outcome, run, repeat):
            if isinstance(outcome.answer, dict) and len(json.dumps(outcome.answer, default=str)) > 5000:
                raise ArithmeticError("planted")
            rows = super().score(item, outcome, run, repeat)
            return [r._replace(verdict="correct", points=1) if r.verdict == "wrong" else r for r in rows]

    assert hints_of(Lenient()) == Hints()  # no fuzzcases module next to it: the default generator
    report = fuzz_suite(Lenient(), 2000, seed=SEED, keep=2000)
    assert report.differences > 100 and report.crash_a > 0 and report.crash_b == 0
    kinds = {f.kind for f in report.findings}
    assert {"difference", "crash A"} <= kinds
    crash = next(f for f in report.findings if f.kind == "crash A")
    assert "ArithmeticError: planted" in crash.scorer_a


def test_the_same_seed_gives_the_same_cases_and_another_seed_others():
    def contents(seed):
        return [json.dumps(c.record, sort_keys=True) for c in Generator(AUBAS, seed).cases(300)]
    assert contents(7) == contents(7)
    assert contents(7) != contents(8)


def test_hostile_forms_reach_the_reply_as_written():
    tree = {"a": Num("1e99999999999999999999"), "b": Dup(Num("1"), "x"), "c": Raw("NaN"),
            "d": [Raw("[" * 100_000 + "]" * 100_000)], "e": "\ud800"}
    text = dump(tree)
    assert '"a":1e99999999999999999999' in text and '"b":1,"b":"x"' in text and '"c":NaN' in text
    assert "[" * 100_000 in text and '"e":"\ud800"' in text  # a lone surrogate, kept (sent to B as an escape)
    # deep trees are written without recursion
    deep: object = "x"
    for _ in range(50_000):
        deep = [deep]
    assert dump(deep).count("[") == 50_000


def test_the_answer_is_found_inside_its_wrapper_with_number_texts_kept():
    before, answer, after = find_answer('<answer>{"G1": 110.00, "x": [1.10e2]}</answer>')
    assert before == "<answer>" and after == "</answer>"
    assert answer == {"G1": "110.00", "x": ["1.10e2"]} and isinstance(answer["G1"], Num)
    assert find_answer("no json here") is None


@pytest.mark.parametrize("suite", [EXTRACTING, AUBAS, RABENCH, CORTIFY, LEDGERSHIELD], ids=lambda s: s.name)
def test_every_built_in_suite_has_boundary_answers(suite):
    hints = hints_of(suite)
    assert hints.answers is not None and hints != Hints()
    rnd = random.Random(1)
    made = [a for case in suite.vector_cases()[:40] for a in hints.answers(rnd, case.item)]
    assert made, f"{suite.name}: no boundary answers from its shared cases' items"
    assert all(isinstance(dump(a), str) for a in made)


def test_a_record_is_scored_as_a_results_file_gives_it_back():
    """Both scorers see the record a stored line gives back; one no line can carry is refused."""
    assert stored({"response": {"choices": [{"message": {"content": "{\"a\": 1e400}"}}]}}) == {
        "response": {"choices": [{"message": {"content": "{\"a\": 1e400}"}}]}}
    assert stored({"n": 2**70}) == {"n": float(2**70)}  # the reader's orjson reads it as a binary64
    assert stored({"content": "\ud800\\udd43"}) is None  # a raw lone surrogate, then an escaped one
    assert stored({"content": "\ud800\udd43"}) == {"content": "\U00010143"}  # a pair is one character


@needs_node
def test_records_no_stored_line_can_carry_are_counted_apart(tmp_path):
    """A reply holding a raw lone surrogate cannot be stored: neither scorer sees it, and it is no failure."""
    scaffold(tmp_path, "demo")
    (tmp_path / "plugins" / "demo" / "fuzzcases.py").write_text(
        "from generator.fuzz import Raw\n\n"
        "def answers(rnd, item):\n    return [Raw('{\"x\": \"\\ud800\\\\udd43\"}')] if rnd.random() < 0.2 else []\n",
        encoding="utf-8")
    suite = load_registry(tmp_path).get("demo")
    report = fuzz_suite(suite, 400, seed=SEED, batch=200, keep=1000)
    assert report.refused > 10 and report.ok, report.summary()
    assert "records no stored line can carry" in report.summary()


@needs_node
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the writer's broken pipe
def test_a_reply_that_ends_scorer_b_is_one_crash_and_the_rest_are_scored(tmp_path):
    """Scorer B's process ends on one reply: that case is the crash, and a new process scores the rest."""
    scaffold(tmp_path, "demo")
    script = tmp_path / "plugins" / "demo" / "scorer.js"
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace("var read = C.readRecord(record);", "var read = C.readRecord(record);\n"
                                   "    if (read.content === 'STOP') process.exit(3);"), encoding="utf-8")
    (tmp_path / "plugins" / "demo" / "fuzzcases.py").write_text(
        "def answers(rnd, item):\n    return ['STOP'] if rnd.random() < 0.05 else []\n", encoding="utf-8")
    suite = load_registry(tmp_path).get("demo")
    report = fuzz_suite(suite, 600, seed=SEED, batch=300, keep=1000)
    stops = [f for f in report.findings if f.content == "STOP"]
    assert stops and report.crash_b == len(stops) and all(f.kind == "crash B" for f in stops)
    assert report.rows > 400  # every other case was scored by a scorer B
