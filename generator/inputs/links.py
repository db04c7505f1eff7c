"""The project's inputs are its own regular files and folders: a symbolic link anywhere in content/
or results/ (a suite folder, an items file, content/pages, results/<suite>, a run folder, a
responses.jsonl), or a file that is not a regular file (a FIFO, a socket, a device), is refused by
name before anything is read. A link would publish files from outside the project, and edits
through it would escape the checks that compare what a site was built from; a FIFO would hang the
build. Links are refused even when they point inside the project: one rule, nothing to resolve.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

INPUT_FOLDERS = ("content", "results")
LINK = "is a symbolic link: the project's inputs (content/ and results/) are read from real files and folders only"
SPECIAL = "is not a regular file (a FIFO, socket or device): the project's inputs are regular files only"


def input_problems(root: Path) -> Iterator[tuple[Path, str]]:
    """(path, problem) for every symbolic link and special file in the project's input folders,
    in a stable order; links are listed, never followed."""
    for name in INPUT_FOLDERS:
        top = Path(root) / name
        if top.is_symlink():
            yield top, LINK
            continue
        for folder, dirs, files in os.walk(top):  # os.walk does not descend into linked folders
            dirs.sort()
            base = Path(folder)
            for entry in sorted(dirs + files):
                path = base / entry
                try:
                    mode = path.lstat().st_mode
                except OSError:  # gone since it was listed: whoever reads it says so
                    continue
                if stat.S_ISLNK(mode):
                    yield path, LINK
                elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    yield path, SPECIAL
