"""Finding suites: the `tally.suites` entry point group, and the plugin folders a project names in
its `tally.toml` (`[suites] paths = ["plugins"]`), so a benchmark can live in its own repository
with no fork. Each entry point, module (`NAME.py`) or package (`NAME/__init__.py`) provides a
`generator.suite_api.Suite` instance (an entry point names it; a module or package calls it SUITE).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path

from .config import CONFIG_FILE, load_config
from .errors import TallyError
from .suite_api import Suite, declaration_problems

GROUP = "tally.suites"


class PluginError(TallyError):
    """A suite plugin could not be loaded, or two plugins share a name."""


@dataclass
class Registry:
    suites: dict[str, Suite] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # name -> where it came from
    problems: dict[str, list[str]] = field(default_factory=dict)  # origin -> what is wrong

    def get(self, name: str, where: str = "") -> Suite:
        if name in self.suites:
            return self.suites[name]
        broken = [f"{origin}: {'; '.join(p)}" for origin, p in self.problems.items()]
        known = ", ".join(sorted(self.suites)) or "none"
        raise PluginError(f"{where}no suite plugin named {name!r} (known: {known})"
                          + ("; plugins that failed to load: " + " | ".join(broken) if broken else ""))

    def _add(self, origin: str, suite: object) -> None:
        problems = declaration_problems(suite)
        if problems:
            self.problems[origin] = problems
            return
        assert isinstance(suite, Suite)
        if suite.name in self.suites:
            self.problems[origin] = [f"suite name {suite.name!r} is already provided by {self.origins[suite.name]}"]
            return
        self.suites[suite.name] = suite
        self.origins[suite.name] = origin


def _load_file(path: Path, module_name: str) -> object:
    init = path / "__init__.py" if path.is_dir() else path
    spec = importlib.util.spec_from_file_location(module_name, init,
                                                  submodule_search_locations=[str(path)] if path.is_dir() else None)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    if not hasattr(module, "SUITE"):
        raise ImportError("defines no SUITE (an instance of generator.suite_api.Suite)")
    return module.SUITE


def _module_name(path: Path) -> str:
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()[:12]
    return f"tally_plugin_{digest}_{path.stem.replace('-', '_')}"


def plugin_folders(root: Path) -> list[Path]:
    """The project's plugin folders (tally.toml [suites] paths, relative to the project)."""
    config = load_config(root)
    return [(root / p) for p in config.get("suites", {}).get("paths", [])]


def load_registry(root: Path | None) -> Registry:
    reg = Registry()
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        origin = f"entry point {ep.name} ({ep.value})"
        try:
            reg._add(origin, ep.load())
        except Exception as exc:  # a broken plugin is reported, not fatal to the others
            reg.problems[origin] = [f"{type(exc).__name__}: {exc}"]
    for folder in plugin_folders(root) if root is not None else []:
        if not folder.is_dir():
            raise PluginError(f"{CONFIG_FILE}: plugin folder {folder} does not exist")
        for path in sorted(folder.iterdir()):
            is_module = path.suffix == ".py" and path.is_file()
            is_package = path.is_dir() and (path / "__init__.py").is_file()
            if path.name.startswith(("_", ".")) or not (is_module or is_package):
                continue
            origin = f"plugin {path}"
            try:
                reg._add(origin, _load_file(path, _module_name(path)))
            except Exception as exc:
                reg.problems[origin] = [f"{type(exc).__name__}: {exc}"]
    return reg
