"""Small fields that were accepted silently: a price date that is no date, a run finished in year 9999,
any text as a round (run.json), the same in content/providers.toml; a raw right-to-left mark in chart
labels; an installed package that replaces a built-in suite."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.harness.providers import ProviderError, load_providers
from generator.render import charts
from generator.suite import plugins
from generator.suites.extracting import SUITE as EXTRACTING
from tests.conftest import GOOD, chat_record

REPO = Path(__file__).resolve().parents[1]
PRICES = {"currency": "USD", "input_per_mtok": "0.40", "output_per_mtok": "1.60", "date": "2026-10-15"}
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@pytest.mark.parametrize("meta, message", [
    ({"prices": PRICES | {"date": "x"}}, "prices.date must be the date of the list prices, YYYY-MM-DD, got 'x'"),
    ({"prices": PRICES | {"date": "2026-02-30"}}, "prices.date must be"),
    ({"prices": PRICES | {"date": 20261015}}, "prices.date must be"),
    ({"prices": PRICES | {"currency": "<b>$</b>"}}, "prices.currency must be a currency code"),
    ({"finished": "9999-12-31T23:59:59Z"}, "finished '9999-12-31T23:59:59Z' is in the future"),
    ({"started": "1970-01-01T00:00:00Z"}, "started '1970-01-01T00:00:00Z' is before 2000"),
    ({"started": "2026-11-02T00:00:00Z", "finished": "2026-11-01T00:00:00Z"}, "finished '2026-11-01T00:00:00Z' is before started"),
    ({"round": "any text <b>at all</b>"}, "round 'any text <b>at all</b>' is not a safe identifier"),
    ({"round": 7}, "round must be a string, got int"),
])
def test_run_metadata_fields_are_checked(project, meta, message):
    project.add_run("bad", [chat_record("r-pub-1", GOOD)], **meta)
    result = CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b"])
    assert result.exit_code == 2, result.output
    assert f"error: results/extracting/bad/run.json: {message}" in result.output, result.output
    assert "Traceback" not in result.output


def test_good_run_metadata_still_loads(project):
    project.add_run("good", [chat_record("r-pub-1", GOOD)], prices=PRICES, round="2026-r1",
                    started="2026-11-01T09:00:00", finished="2026-11-01T10:42:10+01:00")
    result = CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("old, new, message", [
    ('prices_date = "2026-10-15"', 'prices_date = "2026-99-99"', "providers.cloudco: prices_date must be a date"),
    ('prices_date = "2026-10-15"', 'prices_date = "x"', "providers.cloudco: prices_date must be a date"),
    ('prices_currency = "USD"', 'prices_currency = "dollars"', "providers.cloudco: prices_currency must be"),
])
def test_provider_prices_are_checked(tmp_path, old, new, message):
    (tmp_path / "content").mkdir()
    text = (REPO / "content" / "providers.toml").read_text(encoding="utf-8")
    assert load_providers(REPO)["cloudco"].prices_date == "2026-10-15"
    (tmp_path / "content" / "providers.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ProviderError) as caught:
        load_providers(tmp_path)
    assert "providers.toml" in str(caught.value) and message in str(caught.value), caught.value


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _no_bidi(chart: dict) -> str:
    texts = "\n".join(_texts(chart))
    assert not any(c in texts for c in BIDI), [t for t in _texts(chart) if any(c in t for c in BIDI)]
    return texts


def test_bidi_controls_never_reach_a_chart_label():
    name = "evil\u202emodel" + BIDI
    texts = _no_bidi(charts.forest("f", f"Score {name}", [(name, 50.0, 40.0, 60.0)], f"points{BIDI}"))
    assert "evil\u27e8U+202E\u27e9model" in texts
    _no_bidi(charts.tradeoff("t", name, [{"run": "r", "label": name, "x": 1.0, "y": 50.0}], name, name,
                             set(), set()))
    spec = SimpleNamespace(x=0, y=1, series=(0,), kind="bar", y_title=name)
    table = SimpleNamespace(chart=spec, rows=[[name, 0.5]], title=name, scale=100, columns=[name, name])
    _no_bidi(charts.report_chart("c", table))
    assert charts.plain("<b>a\u202eb</b>") == "&lt;b&gt;a\u27e8U+202E\u27e9b&lt;/b&gt;"


class _EntryPoint:
    """A fake installed entry point of the group tally.suites."""

    def __init__(self, name: str, suite: object, package: str) -> None:
        self.name, self.value, self.group = name, f"{package.replace('-', '_')}:SUITE", plugins.GROUP
        self.dist = SimpleNamespace(name=package)
        self._suite = suite

    def load(self) -> object:
        return self._suite


class _Impostor(type(EXTRACTING)):  # type: ignore[misc]
    """A suite named like the built-in extracting suite, defined outside Tally."""


def _with(monkeypatch, *fakes) -> None:
    real = list(plugins.entry_points(group=plugins.GROUP))
    monkeypatch.setattr(plugins, "entry_points", lambda group: [*real, *fakes] if group == plugins.GROUP else [])


@pytest.mark.parametrize("order", ["before", "after"])
def test_an_installed_package_can_not_replace_a_built_in_suite(monkeypatch, project, order):
    impostor = _Impostor()
    assert impostor.name == "extracting" and not plugins.is_built_in(impostor) and plugins.is_built_in(EXTRACTING)
    name = "extracting" if order == "after" else "aaa-extracting"  # entry points are read sorted by name
    _with(monkeypatch, _EntryPoint(name, impostor, "evil-pkg"))
    with pytest.raises(plugins.PluginError) as caught:
        plugins.load_registry(None)
    shown = str(caught.value)
    assert "two plugins provide the suite 'extracting'" in shown and "of the package evil-pkg" in shown, shown
    assert "entry point extracting (generator.suites.extracting:SUITE)" in shown, shown
    assert "the built-in one is entry point extracting (generator.suites.extracting:SUITE)" in shown, shown
    project.add_run("ok", [chat_record("r-pub-1", GOOD)])
    result = CliRunner().invoke(main, ["rescore", "--root", str(project.root), "-q", "--skip-scorer-b"])
    assert result.exit_code != 0 and "evil-pkg" in result.output and "Traceback" not in result.output, result.output
    assert not (project.root / "build" / "rescore").exists()


def test_the_same_suite_named_twice_is_not_a_collision(monkeypatch):
    _with(monkeypatch, _EntryPoint("extracting-again", EXTRACTING, "tally"))
    assert plugins.load_registry(None).suites["extracting"] is EXTRACTING


def test_a_plugin_folder_can_not_replace_a_built_in_suite(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "extracting.py").write_text(
        "from generator.suites.extracting import Extracting\n\n\nclass Mine(Extracting):\n    pass\n\n\nSUITE = Mine()\n",
        encoding="utf-8")
    (tmp_path / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    with pytest.raises(plugins.PluginError, match=r"two plugins provide the suite 'extracting'.*plugin .*extracting\.py"):
        plugins.load_registry(tmp_path)
    shutil.rmtree(folder)
