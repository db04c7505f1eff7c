"""Private data is kept outside the project: files that may hold private items (an audit workspace, a
labeller's worksheet, an adjudication sheet) and private signing keys are never written or read inside
it, where they could be committed or published. One guard (`holding_project`) for every command
that handles them, and one default place for the workspaces (`private_home`)."""

from __future__ import annotations

from pathlib import Path


def git_work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding `start` (a folder with `.git`, a folder or a worktree's
    file), or None."""
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def holding_project(path: Path, root: Path) -> Path | None:
    """The project's git work tree (or, when the project is in none, the project folder) when `path`
    lies inside it, else None. Paths are resolved: `..`, symbolic links and the current folder make no
    difference."""
    tree = (git_work_tree(root) or Path(root)).resolve()
    try:
        Path(path).resolve().relative_to(tree)
    except ValueError:
        return None
    return tree


def private_home(*parts: str) -> Path:
    """The default place of a private workspace: in the user's home folder, outside any project."""
    return Path.home().joinpath(".local", "share", "tally", *parts)


def refuse_inside_project(out: Path, root: Path, what: str, error: type[Exception]) -> None:
    """Raise `error` when the folder `out` is inside the project (`holding_project`)."""
    tree = holding_project(out, root)
    if tree is not None:
        raise error(f"{out}: {what} may hold private items: keep it outside the project ({tree}); "
                    "the default is in your home folder")


def write_private(texts: dict[str, str], out: Path, root: Path, what: str, error: type[Exception]) -> list[Path]:
    """Write `texts` (file name -> text) into the folder `out`, outside the project, each file mode
    0600 (the folder 0700 when made); a file there that is a symbolic link is refused, not followed."""
    refuse_inside_project(out, root, what, error)
    out.mkdir(parents=True, exist_ok=True, mode=0o700)
    paths = [out / name for name in texts]
    links = [p for p in paths if p.is_symlink()]
    if links:
        raise error(f"{links[0]}: a symbolic link: {what} is not written through it")
    for path, text in zip(paths, texts.values()):
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
    return paths
