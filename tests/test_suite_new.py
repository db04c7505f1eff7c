"""`tally suite new NAME --plugins FOLDER`: the plugin folder is a relative path inside the project,
checked before anything is written; tally.toml stays valid TOML and names the folder."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main


def tally(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def files(base: Path) -> dict[str, bytes]:
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("folder", ["../../x", "../x", "plugins/../../x", "ABSOLUTE", "a/../b", "", ".", "./p",
                                    'p"]\nevil = ["', "p\\..\\..\\x", "x" * 300])
def test_a_plugin_folder_outside_the_project_or_breaking_tally_toml_is_refused(tmp_path, folder):
    root = tmp_path / "a" / "b" / "proj"
    root.mkdir(parents=True)
    (root / "tally.toml").write_text("# settings\n")
    before = files(tmp_path)
    folder = str(tmp_path / "abs") if folder == "ABSOLUTE" else folder  # a path outside, under the test's folder
    result = tally("suite", "new", "demo", "--root", root, "--plugins", folder)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit) and "nothing was written" in result.output, result.output
    assert files(tmp_path) == before  # nothing inside or outside the project
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "proj", "tally.toml"]


def test_a_plugin_folder_reached_through_a_link_out_is_refused(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "plugins").symlink_to(outside)
    result = tally("suite", "new", "demo", "--root", root)
    assert result.exit_code == 2 and "symbolic link" in result.output and "nothing was written" in result.output
    assert list(outside.iterdir()) == [] and not (root / "content").exists() and not (root / "tally.toml").exists()


def test_a_tally_toml_that_is_a_link_out_is_not_written(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    target = tmp_path / "elsewhere.toml"
    target.write_text("# someone else's file\n")
    (root / "tally.toml").symlink_to(target)
    result = tally("suite", "new", "demo", "--root", root)
    assert result.exit_code == 2 and "symbolic link" in result.output, result.output
    assert target.read_text() == "# someone else's file\n" and not (root / "content").exists()


def test_a_nested_plugin_folder_is_named_in_a_tally_toml_that_parses(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "tally.toml").write_text('[commitments]\ntrust = "SHA256:' + "A" * 43 + '"')  # no final newline
    result = tally("suite", "new", "demo", "--root", root, "--plugins", "src/suites")
    assert result.exit_code == 0, result.output
    config = tomllib.loads((root / "tally.toml").read_text())
    assert config["suites"]["paths"] == ["src/suites"] and config["commitments"]["trust"].startswith("SHA256:")
    assert (root / "src" / "suites" / "demo" / "__init__.py").is_file()
    # a [suites] table listing other folders: refused before any file of the second suite is written
    other = tally("suite", "new", "other", "--root", root, "--plugins", "more")
    assert other.exit_code == 2 and "add 'more' to [suites] paths yourself" in other.output
    assert not (root / "more").exists() and not (root / "content" / "suites" / "other").exists()
