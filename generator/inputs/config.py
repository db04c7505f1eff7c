"""The project's settings: `tally.toml` at the project root (optional).

`load_config(root)` returns the whole parsed table, with each known section checked; every error
names the file. A section's reader (like `commitments_settings`) returns that section with its
defaults filled in. Sections:

- `[suites]`: `paths`, folders of suite plugins relative to the project (see generator/suite/plugins.py);
- `[commitments]`: `trust`, the SSH SHA256 fingerprint of the pinned root key (the key every later
  signing key must be reached from through signed rotation statements).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from ..errors import InputProblem

CONFIG_FILE = "tally.toml"
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


class ConfigError(InputProblem):
    """tally.toml cannot be read or holds a bad setting; the message names the file."""


def _check_suites(path: Path, section: object) -> None:
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [suites] must be a table")
    paths = section.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) and p.strip() for p in paths):
        raise ConfigError(f"{path}: [suites] paths must be a list of folder names")
    for p in paths:
        if Path(p).is_absolute() or ".." in Path(p).parts:
            raise ConfigError(f"{path}: plugin folder {p!r} must be inside the project (a relative path, no '..')")


def _check_commitments(path: Path, section: object) -> None:
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [commitments] must be a table")
    unknown = sorted(set(section) - {"trust"})
    if unknown:
        raise ConfigError(f"{path}: [commitments] has unknown key(s) {unknown}; known: ['trust']")
    trust = section.get("trust")
    if trust is not None and (not isinstance(trust, str) or not FINGERPRINT.fullmatch(trust)):
        raise ConfigError(f"{path}: [commitments] trust must be an SSH key fingerprint as `ssh-keygen -l` "
                          f"prints it (SHA256: and 43 base64 characters), got {trust!r}")


_SECTIONS = {"suites": _check_suites, "commitments": _check_commitments}


def load_config(root: Path) -> dict[str, Any]:
    """The parsed tally.toml of the project at `root`, or {} when there is none."""
    path = Path(root) / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it: {exc}") from None
    for name, check in _SECTIONS.items():
        if name in config:
            check(path, config[name])
    return config


def commitments_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The [commitments] section with its defaults: {"trust": fingerprint or None}."""
    return {"trust": None} | dict(config.get("commitments", {}))


def is_fingerprint(value: object) -> bool:
    return isinstance(value, str) and FINGERPRINT.fullmatch(value) is not None
