"""suite.toml: unknown keys and bad values are errors naming the file, the key and its line (no silent
fallback: `comparison = "holmes"` is not Holm); `headline`, when written, must be the plugin's headline
metric; every built-in suite.toml and the scaffold's are valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ErrorLog, InputProblem
from generator.inputs.content import load_suite
from generator.pipeline.stages import load
from tests.conftest import SUITE_TOML

ROOT = Path(__file__).resolve().parents[1]


def _errors(tmp_path: Path, text: str) -> list[str]:
    folder = tmp_path / "content" / "suites" / "extracting"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "suite.toml").write_text(text, encoding="utf-8")
    log = ErrorLog(tmp_path)
    config = load_suite(folder, log)
    assert (config is None) == bool(log.errors)
    return [str(e) for e in log.errors]


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize("extra, key, message", [
    ('comparison = "holmes"', "comparison", "comparison must be one of 'holm', 'max-t', 'overlap', got 'holmes'"),
    ('headlin = "index"', "headlin", "unknown key 'headlin'"),
    ('headline_half = "both"', "headline_half", "headline_half must be 'public' or 'private'"),
    ("description = 3", "description", "description must be a string"),
    ("headline = 3", "headline", "headline must be a string"),
])
def test_an_unknown_key_or_a_bad_value_is_an_error_naming_file_key_and_line(tmp_path, extra, key, message):
    head, _, rest = SUITE_TOML.partition("strata =")
    text = head + extra + "\nstrata =" + rest
    errors = _errors(tmp_path, text)
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"content/suites/extracting/suite.toml:{_line(text, extra)}: {message}"), errors
    assert key in errors[0]


def test_an_unknown_key_of_a_dataset_names_its_line(tmp_path):
    text = SUITE_TOML.replace('title = "Invoices"', 'title = "Invoices"\nweight = 2')
    errors = _errors(tmp_path, text)
    assert len(errors) == 1 and errors[0].startswith(f"content/suites/extracting/suite.toml:{_line(text, 'weight')}: ")
    assert "unknown key 'weight' in [[datasets]]" in errors[0]


def test_strata_must_be_a_list_of_distinct_strings(tmp_path):
    text = SUITE_TOML.replace('strata = ["dataset", "half", "locale"]', 'strata = ["dataset", "dataset"]')
    assert _errors(tmp_path, text) == [f"content/suites/extracting/suite.toml:{_line(text, 'strata')}: "
                                       "strata must be a list of distinct strings"]


def test_a_headline_that_is_not_the_plugins_is_an_error(project):
    text = (project.suite_dir / "suite.toml").read_text(encoding="utf-8")
    (project.suite_dir / "suite.toml").write_text(text.replace("strata =", 'headline = "accuracy"\nstrata ='),
                                                  encoding="utf-8")
    with pytest.raises(InputProblem, match=r"suite\.toml:6: headline 'accuracy' is not the headline metric of "
                                           r"scorer 'extracting' \('index'\)"):
        load(project.root)
    (project.suite_dir / "suite.toml").write_text(text.replace("strata =", 'headline = "index"\nstrata ='),
                                                  encoding="utf-8")
    assert [ls.suite.headline for ls in load(project.root)] == ["index"]


def test_every_built_in_suite_toml_and_the_scaffold_are_valid(tmp_path):
    for folder in sorted((ROOT / "content" / "suites").iterdir()):
        log = ErrorLog(ROOT)
        assert load_suite(folder, log) is not None and not log.errors, (folder.name, [str(e) for e in log.errors])
    scaffold = (ROOT / "generator" / "suite" / "scaffold" / "suite.toml.tmpl").read_text(encoding="utf-8")
    text = scaffold.replace("__NAME__", "extracting").replace("__DATE__", "2026-10-20")
    assert _errors(tmp_path, text) == []


def test_suite_check_names_a_headline_that_is_not_the_plugins(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    root = tmp_path / "fresh"
    root.mkdir()
    assert CliRunner().invoke(main, ["suite", "new", "demo", "--root", str(root)]).exit_code == 0
    toml = root / "content" / "suites" / "demo" / "suite.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("strata =", 'headline = "f1"\nstrata ='), encoding="utf-8")
    checked = CliRunner().invoke(main, ["suite", "check", "demo", "--root", str(root), "--skip-scorer-b"])
    assert checked.exit_code != 0
    assert "suite.toml:" in checked.output and "headline 'f1' is not the headline metric of scorer 'demo' ('accuracy')" \
        in checked.output, checked.output
