"""What a folder plugin needs installed: `requires` in a `plugin.toml` inside its package folder (PEP 508
requirements, as pip takes them: `requires = ["pypdf>=4"]`). Checked before the plugin is imported, so a
missing or too old package is one clear problem naming it and the pip command, not an ImportError from
deep inside the plugin."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

PLUGIN_FILE = "plugin.toml"
KNOWN_KEYS = ("requires",)


def requirement_problems(package: Path) -> list[str]:
    """Problems of a folder plugin's declared requirements: a plugin.toml that can't be read, a
    requirement that is not one, a package not installed or of a version outside the requirement."""
    path = package / PLUGIN_FILE
    if not package.is_dir() or not path.is_file():
        return []
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return [f"{path}: not valid TOML: {exc}"]
    unknown = sorted(set(raw) - set(KNOWN_KEYS))
    if unknown:
        return [f"{path}: unknown key {unknown[0]!r} (known: {', '.join(KNOWN_KEYS)})"]
    requires = raw.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
        return [f"{path}: requires must be a list of requirement strings, such as \"pypdf>=4\""]
    problems = []
    for text in requires:
        try:
            req = Requirement(text)
        except InvalidRequirement as exc:
            problems.append(f"{path}: {text!r} is not a requirement ({exc})")
            continue
        if req.marker is not None and not req.marker.evaluate():
            continue  # not for this interpreter or platform
        try:
            have = version(req.name)
        except PackageNotFoundError:
            problems.append(f"needs {text}, which is not installed (pip install '{text}')")
            continue
        if req.specifier and not req.specifier.contains(have, prereleases=True):
            problems.append(f"needs {text}, but {req.name} {have} is installed (pip install '{text}')")
    return problems


def import_hint(exc: BaseException, package: Path) -> str:
    """A plugin whose import failed on a missing module: say so, and where to declare it."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return (f"imports {exc.name}, which is not installed: install it, and declare it in "
                f"{package / PLUGIN_FILE if package.is_dir() else 'its folder plugin'}'s requires")
    return f"{type(exc).__name__}: {exc}"
