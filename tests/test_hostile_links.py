"""Symbolic links and special files in the project's inputs (content/ and results/) are refused by
name before anything is read, on a copy of the example: results/<suite>, a run folder, a
responses.jsonl, content/pages, content/suites/<suite>, an items file, a link that stays inside the
project, a FIFO. The "site is up to date" check never says so while a link is there."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputProblem
from generator.render import up_to_date
from tests.site_support import build, copy_example, make_project

REPO = Path(__file__).resolve().parents[1]
RUN = "acme-lynx-1-cloudco"


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> Path:
    """The example's extracting suite (content and results), copied once; each test puts it back."""
    return copy_example(tmp_path_factory.mktemp("example") / "project", "extracting")


LINKED = [  # the input replaced by a link to a copy outside the project
    "results/extracting",
    f"results/extracting/{RUN}",
    f"results/extracting/{RUN}/responses.jsonl",
    "content/pages",
    "content/suites/extracting",
    "content/suites/extracting/items/receipts.public.jsonl",
]


def _refused(root: Path, shown: str, what: str, command=("rescore", "--skip-scorer-b")) -> None:
    result = CliRunner().invoke(main, [*command, "--root", str(root), "-q"])
    assert result.exit_code == 2, result.output
    assert f"error: {shown}: {what}" in result.output, result.output
    assert "Traceback" not in result.output
    assert not (root / "build" / "rescore").exists() and not (root / "site").exists()


@pytest.mark.parametrize("inside", LINKED)
def test_an_input_that_is_a_link_to_outside_is_refused(example, inside, tmp_path):
    path = example / inside
    outside = tmp_path / "outside" / path.name
    outside.parent.mkdir()
    shutil.move(path, outside)
    path.symlink_to(outside, target_is_directory=outside.is_dir())
    try:
        _refused(example, inside, "is a symbolic link")
    finally:
        path.unlink()
        shutil.move(outside, path)


def test_the_site_build_refuses_a_linked_pages_folder(example, tmp_path):
    pages = example / "content" / "pages"
    shutil.move(pages, tmp_path / "pages")
    pages.symlink_to(tmp_path / "pages", target_is_directory=True)
    try:
        _refused(example, "content/pages", "is a symbolic link", ("site", "build", "--no-cache"))
    finally:
        pages.unlink()
        shutil.move(tmp_path / "pages", pages)


def test_a_link_inside_the_project_and_a_fifo_are_refused_too(example):
    link = example / "content" / "pages" / "copy.md"
    link.symlink_to(example / "content" / "pages" / "statistics.md")
    try:
        _refused(example, "content/pages/copy.md", "is a symbolic link")
    finally:
        link.unlink()
    fifo = example / "results" / "extracting" / RUN / "notes"
    os.mkfifo(fifo)
    try:
        _refused(example, f"results/extracting/{RUN}/notes", "is not a regular file")
    finally:
        fifo.unlink()
    assert CliRunner().invoke(main, ["rescore", "--root", str(example), "-q", "--skip-scorer-b",
                                     "--out", str(example / "build" / "out")]).exit_code == 0  # put back whole


def test_the_up_to_date_check_never_holds_while_a_link_is_there(tmp_path):
    root = make_project(tmp_path / "p")
    first = up_to_date.Inputs(root, {}, {})
    assert up_to_date.Inputs(root, {}, first.files).key == first.key  # nothing changed: the same key
    pages = root / "content" / "pages"
    shutil.move(pages, tmp_path / "pages")
    pages.symlink_to(tmp_path / "pages", target_is_directory=True)
    linked = up_to_date.Inputs(root, {}, first.files)
    assert linked.key != first.key and linked.files == {}  # nothing hashed through the link
    (tmp_path / "pages" / "about.md").write_text("edited through the link\n", encoding="utf-8")
    assert up_to_date.Inputs(root, {}, linked.files).key != linked.key  # never the same twice
    with pytest.raises(InputProblem, match="content/pages: is a symbolic link"):
        build(root, tmp_path / "site")
    assert not (tmp_path / "site").exists()
