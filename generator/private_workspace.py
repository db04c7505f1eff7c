"""Files that may hold private items (an audit workspace, a labeller's worksheet, an adjudication
sheet) are written only outside the project: inside, they could be committed or published. One guard
for every command that writes them."""

from __future__ import annotations

from pathlib import Path

from .commit.keyfiles import git_work_tree


def refuse_inside_project(out: Path, root: Path, what: str, error: type[Exception]) -> None:
    """Raise `error` when the folder `out` is inside the project's git work tree (or, outside git, the
    project folder). Paths are resolved: `..` and symbolic links make no difference."""
    tree = git_work_tree(root) or Path(root).resolve()
    try:
        Path(out).resolve().relative_to(tree.resolve())
    except ValueError:
        return
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
