"""Folders Tally writes to and deletes in (the site, build/, private storage) are never reached through a
symbolic link, and hold none.

A cloned repository can commit a link where a folder is expected: `.gitignore`'s `/site/` matches folders
only, so `site -> ..` survives a clone. Replacing or pruning such a "folder" would replace or prune the
link's target, outside the project. Like pip and git, which do not follow links out of a tree, Tally
refuses: an output or cache folder that is a link, lies under a link inside the project, or holds a link
is an error naming the link, before anything is written or deleted.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import InputProblem, visible


def refuse_links(path: Path, what: str, root: Path | None = None) -> None:
    """Raise InputProblem when `path` (an output or cache folder described by `what`) is a symbolic
    link, when a folder between `root` and it is one (only checked for a `path` inside `root`), or when
    anything inside it is one. A `path` that does not exist yet is fine once its parents are."""
    path = Path(os.path.abspath(path))
    for step in _steps(path, root):
        if step.is_symlink():
            raise InputProblem(_message(step, what, path))
    if path.is_dir():
        inner = _first_link(path)
        if inner is not None:
            raise InputProblem(_message(inner, what, path))


def _steps(path: Path, root: Path | None) -> list[Path]:
    """`path` and each folder above it up to, not including, `root` (just `path` when it is outside)."""
    if root is None:
        return [path]
    base = Path(os.path.abspath(root))
    try:
        parts = path.relative_to(base).parts
    except ValueError:
        return [path]
    return [base.joinpath(*parts[: k + 1]) for k in range(len(parts))]


def _first_link(folder: Path) -> Path | None:
    """The first symbolic link found under `folder` (links are never followed), or None."""
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError:
            continue  # unreadable: whatever writes there reports it
        for entry in entries:
            if entry.is_symlink():
                return Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
    return None


def _message(link: Path, what: str, path: Path) -> str:
    try:
        target = os.readlink(link)
    except OSError:
        target = "?"
    where = "is" if link == path else ("lies under" if path.is_relative_to(link) else "holds")
    return visible(f"{path}: the {what} {where} a symbolic link ({link} -> {target}); Tally never writes or "
                   f"deletes through a link (it could reach outside the project). Remove the link "
                   f"(e.g. `rm {link}`) and run again.")


def check_project_outputs(root: Path, *outs: Path) -> None:
    """Before a command writes anything: the project's build/ folder and each output folder it will
    replace (the site, build/rescore, ...) are neither links nor under one, and hold none."""
    refuse_links(Path(root) / "build", "build folder", root)
    for out in outs:
        refuse_links(out, "output folder", root)
