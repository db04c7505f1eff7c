"""The project's settings: `tally.toml` at the project root (optional).

    [suites]
    paths = ["plugins"]   # folders of suite plugins, relative to the project
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import InputProblem

CONFIG_FILE = "tally.toml"


def load_config(root: Path) -> dict[str, Any]:
    """The whole table of ROOT/tally.toml ({} when there is none), with its known sections checked."""
    path = Path(root) / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputProblem(f"{path}: not valid TOML: {exc}") from None
    suites = config.get("suites", {})
    paths = suites.get("paths", []) if isinstance(suites, dict) else None
    if not isinstance(paths, list) or not all(isinstance(p, str) and p.strip() for p in paths):
        raise InputProblem(f"{path}: [suites] paths must be a list of folder names")
    for p in paths:
        if Path(p).is_absolute() or ".." in Path(p).parts:
            raise InputProblem(f"{path}: plugin folder {p!r} must be inside the project (a relative path, no '..')")
    return config
