"""Model facts (content/models.toml): validated with clear errors, checked against the runs' metadata,
shown as optional leaderboard columns, on the models page and on each model's page."""

from __future__ import annotations

import json
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.errors import InputProblem
from generator.render.facts import Facts, check_against_runs, load_facts
from tests.site_support import REPO, build, make_project, missing_node


def _write(root: Path, text: str) -> Path:
    (root / "content").mkdir(parents=True, exist_ok=True)
    (root / "content" / "models.toml").write_text(text, encoding="utf-8")
    return root


def test_no_file_no_facts(tmp_path):
    assert load_facts(tmp_path) == {}


def test_facts_are_read(tmp_path):
    _write(tmp_path, '[models."m-1"]\nsimulated = false\norganisation = "Org"\nopen_weights = true\n'
                     'licence = "MIT"\nreleased = 2025-03-01\ncontext_window = 128000\nlink = "https://example.org/m"\n')
    assert load_facts(tmp_path) == {"m-1": Facts(False, "Org", True, "MIT", "2025-03-01", 128000,
                                                 "https://example.org/m")}


@pytest.mark.parametrize("body, message", [
    ('[models."m"]\nsimulated = true\ncolour = "red"', "unknown key 'colour'"),
    ('[models."m"]\nsimulated = true\nreleased = "2025-13-01"', "released must be a date"),
    ('[models."m"]\nsimulated = true\ncontext_window = -5', "context_window must be a positive whole number"),
    ('[models."m"]\nsimulated = true\ncontext_window = true', "context_window must be a positive whole number"),
    ('[models."m"]\nsimulated = true\nlink = "javascript:alert(1)"', "link must be an https:// address"),
    ('[models."m"]\nsimulated = true\nopen_weights = "yes"', "open_weights must be true or false"),
    ('[models."m"]\norganisation = "Org"', "simulated = true or false is required"),
    ('models = 3', "models must be a table"),
    ('[other]\nx = 1', "unknown top-level key 'other'"),
    ('[models."m"\n', "not valid TOML"),
])
def test_bad_facts_are_refused_with_the_file_and_model(tmp_path, body, message):
    _write(tmp_path, body)
    with pytest.raises(InputProblem, match="models.toml") as err:
        load_facts(tmp_path)
    assert message in str(err.value)


def test_facts_must_say_simulated_as_the_runs_do(tmp_path):
    with pytest.raises(InputProblem, match="its runs say simulated: true, its facts say simulated = false"):
        check_against_runs({"m": Facts(False)}, {"m": True}, tmp_path)
    check_against_runs({"m": Facts(True), "unused": Facts(False)}, {"m": True}, tmp_path)


def test_the_example_facts_match_the_example_runs():
    facts = load_facts(REPO)
    simulated: dict[str, bool] = {}
    for path in (REPO / "results").glob("*/*/run.json"):
        meta = json.loads(path.read_text(encoding="utf-8"))
        simulated[meta["model"]] = simulated.get(meta["model"], False) or bool(meta.get("simulated"))
    assert set(simulated) <= set(facts), set(simulated) - set(facts)
    check_against_runs(facts, simulated, REPO)
    for model, f in facts.items():  # simulated: no invented real-world fact
        if f.simulated:
            assert (f.open_weights, f.licence, f.released, f.context_window, f.link) == (None,) * 5, model


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.th: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._in: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "th":
            self._in = dict(attrs)
            self._buf: list[str] = []

    def handle_data(self, data):
        self.text.append(data)
        if self._in is not None:
            self._buf.append(data)

    def handle_endtag(self, tag):
        if tag == "th" and self._in is not None:
            self.th.append(("".join(self._buf).strip(), self._in.get("class") or ""))
            self._in = None


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_facts_on_the_built_site():
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        _write(root, '[models."careful"]\nsimulated = true\norganisation = "none: simulated <b>here</b>"\n'
                     '[models."rules"]\nsimulated = false\norganisation = "Tally"\ncontext_window = 8192\n')
        build(root, root / "site")
        home = _Cells()
        home.feed((root / "site" / "index.html").read_text(encoding="utf-8"))
        heads = dict(home.th)
        assert "col-opt" in heads["Organisation"] and "col-opt" in heads["Context window (tokens)"]
        page = (root / "site" / "index.html").read_text(encoding="utf-8")
        assert "none: simulated &lt;b&gt;here&lt;/b&gt;" in page and "<b>here" not in page
        rules = (root / "site" / "models" / "rules.html").read_text(encoding="utf-8")
        assert "<dt>Context window (tokens)</dt><dd>8,192</dd>" in rules
        careful = (root / "site" / "models" / "careful.html").read_text(encoding="utf-8")
        assert "Simulated model (example data)" in careful
        models = json.loads((root / "site" / "downloads" / "models.json").read_text(encoding="utf-8"))
        rows = models["rows"] if isinstance(models, dict) else models
        assert {r["model"]: r["context_window"] for r in rows}["rules"] == 8192
        _write(root, '[models."careful"]\nsimulated = false\n')  # its runs are simulated
        with pytest.raises(InputProblem, match="careful"):
            build(root, root / "site2")
