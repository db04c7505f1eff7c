"""Output and cache folders reached through a symbolic link are refused before anything is written or
deleted (a cloned repository can commit `site -> ..`; `.gitignore`'s `/site/` matches folders only)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.atomic import swap_in
from generator.cli import main
from generator.errors import EXIT_INPUT, InputProblem
from generator.folders import refuse_links
from generator.pipeline.cache import Cache
from tests.site_support import make_project


def _outside(tmp_path: Path) -> Path:
    """A folder outside the project holding a file that must survive."""
    victim = tmp_path / "victim"
    (victim / "deep").mkdir(parents=True)
    (victim / "keep.txt").write_text("precious\n")
    (victim / "deep" / "also.txt").write_text("precious too\n")
    return victim


def _intact(victim: Path) -> bool:
    return ((victim / "keep.txt").read_text() == "precious\n"
            and (victim / "deep" / "also.txt").read_text() == "precious too\n"
            and sorted(p.name for p in victim.rglob("*")) == ["also.txt", "deep", "keep.txt"])


def _project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_site_link_to_parent_is_refused_and_nothing_is_deleted(tmp_path):
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "site").symlink_to(victim)
    res = _run("site", "build", "--root", str(root), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert "symbolic link" in res.output and "site" in res.output
    assert _intact(victim)
    assert (root / "site").is_symlink()  # left as it was
    assert not (root / "build").exists()  # nothing written, not even the lock


def test_site_link_to_dotdot_keeps_the_project(tmp_path):
    root = _project(tmp_path)
    (root / "site").symlink_to("..")
    res = _run("site", "build", "--root", str(root), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert (root / "content" / "suites" / "mini" / "suite.toml").is_file()
    assert not any(p.name.startswith(".site-build") for p in tmp_path.iterdir())


def test_site_holding_a_link_is_refused(tmp_path):
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "site" / "static").mkdir(parents=True)
    (root / "site" / "static" / "x").symlink_to(victim)
    res = _run("site", "build", "--root", str(root), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert "holds a symbolic link" in res.output
    assert _intact(victim)


@pytest.mark.parametrize("command", [["site", "build"], ["rescore"], ["stats"]])
def test_linked_build_folder_is_refused(tmp_path, command):
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "build").symlink_to(victim)
    res = _run(*command, "--root", str(root), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert "build folder is a symbolic link" in res.output
    assert _intact(victim)


@pytest.mark.parametrize("command", [["site", "build"], ["rescore"]])
def test_linked_cache_suite_folder_is_not_pruned(tmp_path, command):
    """Pruning build/cache/runs/<suite> through a link deleted every file of the link's target."""
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "build" / "cache" / "runs").mkdir(parents=True)
    (root / "build" / "cache" / "runs" / "mini").symlink_to(victim)
    res = _run(*command, "--root", str(root), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert "holds a symbolic link" in res.output and "runs/mini" in res.output
    assert _intact(victim)


def test_rescore_out_that_is_a_link_is_refused(tmp_path):
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "out").symlink_to(victim)
    res = _run("rescore", "--root", str(root), "--out", str(root / "out"), "-q")
    assert res.exit_code == EXIT_INPUT, res.output
    assert _intact(victim)


def test_seal_into_linked_private_storage_is_refused(tmp_path):
    root = _project(tmp_path)
    victim = _outside(tmp_path)
    (root / "private").symlink_to(victim)
    res = _run("results", "seal", "--all", "--root", str(root))
    assert res.exit_code == EXIT_INPUT, res.output
    assert "private storage lies under a symbolic link" in res.output
    assert _intact(victim)


def test_swap_in_refuses_a_linked_target(tmp_path):
    victim = _outside(tmp_path)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (tmp_path / "target").symlink_to(victim)
    with pytest.raises(InputProblem):
        swap_in(fresh, tmp_path / "target")
    assert _intact(victim) and fresh.is_dir()


def test_cache_refuses_a_link_inside(tmp_path):
    victim = _outside(tmp_path)
    (tmp_path / "cache" / "stats").mkdir(parents=True)
    (tmp_path / "cache" / "stats" / "s").symlink_to(victim)
    with pytest.raises(InputProblem, match="build cache holds a symbolic link"):
        Cache(tmp_path / "cache")


def test_plain_folders_and_missing_ones_pass(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f").write_text("x")
    refuse_links(tmp_path / "a", "output folder", tmp_path)
    refuse_links(tmp_path / "a" / "not-yet", "output folder", tmp_path)


def test_a_link_above_the_folder_inside_the_project_is_refused(tmp_path):
    victim = _outside(tmp_path)
    root = tmp_path / "proj"
    root.mkdir()
    os.symlink(victim, root / "build")
    with pytest.raises(InputProblem, match="lies under a symbolic link"):
        refuse_links(root / "build" / "cache", "build cache", root)
