"""A folder plugin declares what it needs installed (`requires` in its plugin.toml); a missing or too old
package is one problem naming it and the pip command, found before the plugin's code runs; an undeclared
missing import says which module and where to declare it."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.suite.plugins import PluginError, load_registry

MARKER = "executed.txt"


def _project(tmp_path: Path, plugin_toml: str | None, body: str = "") -> Path:
    (tmp_path / "tally.toml").write_text('[suites]\npaths = ["plugins"]\n', encoding="utf-8")
    pkg = tmp_path / "plugins" / "needy"
    pkg.mkdir(parents=True)
    marker = tmp_path / MARKER
    (pkg / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n{body}", encoding="utf-8")
    if plugin_toml is not None:
        (pkg / "plugin.toml").write_text(plugin_toml, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("requires, message", [
    ('requires = ["no-such-package-tally-test>=1"]',
     "needs no-such-package-tally-test>=1, which is not installed (pip install 'no-such-package-tally-test>=1')"),
    ('requires = ["numpy>=999"]', "needs numpy>=999, but numpy "),
    ('requires = ["numpy >= = 1"]', "is not a requirement"),
    ('requires = "numpy"', "requires must be a list of requirement strings"),
    ('require = ["numpy"]', "unknown key 'require'"),
])
def test_a_missing_or_bad_requirement_is_one_problem_and_the_plugin_is_not_run(tmp_path, requires, message):
    root = _project(tmp_path, requires)
    reg = load_registry(root)
    (problems,) = reg.problems.values()
    assert len(problems) == 1 and message in problems[0], problems
    assert not (root / MARKER).exists()  # checked before any of the plugin's code ran
    with pytest.raises(PluginError, match="plugins that failed to load"):
        reg.get("needy")


def test_met_requirements_and_markers_that_do_not_apply_let_the_plugin_load(tmp_path):
    root = _project(tmp_path, 'requires = ["numpy>=1", "no-such-package-tally-test; python_version < \'3\'"]')
    reg = load_registry(root)
    assert (root / MARKER).exists()
    assert "needs" not in " ".join(p for ps in reg.problems.values() for p in ps)  # fails later: it defines no SUITE


def test_an_undeclared_missing_import_names_the_module_and_where_to_declare_it(tmp_path):
    root = _project(tmp_path, None, "import no_such_module_tally_test\n")
    (problems,) = load_registry(root).problems.values()
    assert problems == [f"imports no_such_module_tally_test, which is not installed: install it, and declare it "
                        f"in {root / 'plugins' / 'needy' / 'plugin.toml'}'s requires"]
