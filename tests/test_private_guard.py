"""One guard keeps private data outside the project (generator/private_workspace.py): audit workspaces,
labellers' worksheets and adjudication sheets, and private signing keys are refused by the same check,
whatever path leads inside (`..`, a symbolic link), and the workspaces' default is in the home folder."""

from __future__ import annotations

import pytest

from generator.commit.keyfiles import CommitError
from generator.commit.keyfiles import refuse_inside_project as refuse_key
from generator.private_workspace import holding_project, private_home
from generator.private_workspace import refuse_inside_project as refuse_workspace


@pytest.fixture()
def project(tmp_path):
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / "content").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "into").symlink_to(root / "content")
    return root


def test_every_path_into_the_project_is_refused_by_both_guards(project):
    base = project.parent
    inside = [project / "private", project / "content" / ".." / "x", base / "into" / "audit", base / "elsewhere" / ".." /
              "project" / "k"]
    outside = [base / "elsewhere" / "audit", base / "project-2", project / ".." / "elsewhere"]
    for path in inside:
        assert holding_project(path, project) == project.resolve(), path
        with pytest.raises(CommitError, match="must not be inside the project's git work tree"):
            refuse_key(path, project)
        with pytest.raises(ValueError, match="may hold private items: keep it outside the project"):
            refuse_workspace(path, project, "an audit workspace", ValueError)
    for path in outside:
        assert holding_project(path, project) is None, path
        refuse_key(path, project)
        refuse_workspace(path, project, "an audit workspace", ValueError)


def test_outside_git_the_project_folder_is_what_is_guarded(tmp_path):
    root = tmp_path / "plain"
    root.mkdir()
    assert holding_project(root / "a" / "b", root) == root.resolve() and holding_project(tmp_path / "c", root) is None
    with pytest.raises(CommitError, match="the project folder"):
        refuse_key(root / "key", root)


def test_the_workspaces_default_is_in_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert private_home("audits", "s-seed1") == tmp_path / ".local" / "share" / "tally" / "audits" / "s-seed1"
    from generator.audit.sample import default_workspace
    from generator.labels.sheet import default_workspace as labels_workspace

    assert default_workspace("s", 1) == private_home("audits", "s-seed1")
    assert labels_workspace("s") == private_home("labels", "s")
