"""Finding suites: the `tally.suites` entry point group, and the plugin folders a project names in
its `tally.toml` (`[suites] paths = ["plugins"]`), so a benchmark can live in its own repository
with no fork. Each entry point, module (`NAME.py`) or package (`NAME/__init__.py`) provides a
`generator.suite_api.Suite` instance (an entry point names it; a module or package calls it SUITE).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path

from ..errors import TallyError
from ..inputs.config import CONFIG_FILE, load_config
from .api import Suite, declaration_problems
from .requires import import_hint, requirement_problems

GROUP = "tally.suites"


class PluginError(TallyError):
    """A suite plugin could not be loaded, or two plugins share a name (never settled by which one
    is found first: a package installed beside Tally could otherwise replace a built-in suite)."""


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
            first = self.suites[suite.name]
            if first is suite:  # the same object named twice (two entry points for one suite)
                return
            built_in = [o for o, s in ((self.origins[suite.name], first), (origin, suite)) if is_built_in(s)]
            raise PluginError(
                f"two plugins provide the suite {suite.name!r}: {self.origins[suite.name]} and {origin}"
                + (f" (the built-in one is {built_in[0]}: an installed package or plugin folder may not "
                   "replace a built-in suite)" if built_in else "")
                + "; uninstall or remove one of them, or rename its suite")
        self.suites[suite.name] = suite
        self.origins[suite.name] = origin


BUILT_IN = Path(__file__).resolve().parents[1] / "suites"  # the suites that ship with Tally


def is_built_in(suite: object) -> bool:
    """Whether `suite`'s plugin class is defined in Tally's own suites package."""
    try:
        return BUILT_IN in Path(inspect.getfile(type(suite))).resolve().parents
    except (TypeError, OSError):
        return False


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
        dist = getattr(ep, "dist", None)
        origin = f"entry point {ep.name} ({ep.value})" + (f" of the package {dist.name}" if dist is not None else "")
        try:
            suite = ep.load()
        except Exception as exc:  # a broken plugin is reported, not fatal to the others
            reg.problems[origin] = [f"{type(exc).__name__}: {exc}"]
            continue
        reg._add(origin, suite)  # two plugins for one name: PluginError
    for folder in plugin_folders(root) if root is not None else []:
        if not folder.is_dir():
            raise PluginError(f"{CONFIG_FILE}: plugin folder {folder} does not exist")
        for path in sorted(folder.iterdir()):
            is_module = path.suffix == ".py" and path.is_file()
            is_package = path.is_dir() and (path / "__init__.py").is_file()
            if path.name.startswith(("_", ".")) or not (is_module or is_package):
                continue
            origin = f"plugin {path}"
            if needs := requirement_problems(path):  # checked before the plugin's code runs
                reg.problems[origin] = needs
                continue
            try:
                suite = _load_file(path, _module_name(path))
            except Exception as exc:
                reg.problems[origin] = [import_hint(exc, path)]
                continue
            reg._add(origin, suite)
    return reg
