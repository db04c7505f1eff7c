"""Model facts from content/models.toml: who made a model, open weights or not, licence, release date,
context window and a link, shown as optional table columns and on the model's page.

    [models."orbit-medium-3"]
    simulated = true                  # required, and must match the runs' metadata
    organisation = "none: simulated by the Tally example"
    note = "..."

Every key but `simulated` is optional; a fact left out is shown as "–". The file is input like any
other: every problem is reported with the file and the model, and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputProblem
from ..inputs.iso_date import is_iso_date

FILE = ("content", "models.toml")


@dataclass(frozen=True)
class Facts:
    simulated: bool
    organisation: str | None = None
    open_weights: bool | None = None
    licence: str | None = None
    released: str | None = None  # YYYY-MM-DD
    context_window: int | None = None  # tokens
    link: str | None = None  # https:// only
    note: str | None = None


# key -> (type, what the error says it must be)
_KEYS: dict[str, tuple[type, str]] = {
    "simulated": (bool, "true or false"), "organisation": (str, "a string"), "open_weights": (bool, "true or false"),
    "licence": (str, "a string"), "released": (str, "a date (YYYY-MM-DD)"),
    "context_window": (int, "a positive whole number of tokens"), "link": (str, "an https:// address"),
    "note": (str, "a string"),
}


def _problems(name: str, entry: object) -> tuple[list[str], dict]:
    if not isinstance(entry, dict):
        return [f"models.{name} must be a table"], {}
    problems, values = [], {}
    for key, value in entry.items():
        if key not in _KEYS:
            problems.append(f"model {name!r}: unknown key {key!r} (known: {', '.join(_KEYS)})")
            continue
        kind, must = _KEYS[key]
        if key == "released" and isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            value = value.isoformat()
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if ok and key == "released":
            ok = is_iso_date(value)
        if ok and key == "context_window":
            ok = value > 0
        if ok and key == "link":
            ok = value.startswith("https://") and len(value) > 8 and not any(c.isspace() for c in value)
        if not ok:
            problems.append(f"model {name!r}: {key} must be {must}, not {value!r}")
        else:
            values[key] = value
    if "simulated" not in entry:
        problems.append(f"model {name!r}: simulated = true or false is required (does the model exist, or is it "
                        "simulated example data?)")
    return problems, values


def load_facts(root: Path) -> dict[str, Facts]:
    """{model: Facts} from ROOT/content/models.toml ({} when there is no such file)."""
    path = root.joinpath(*FILE)
    if not path.is_file():
        return {}
    if path.is_symlink():
        raise InputProblem(f"{path}: is a symbolic link: content is read from real files only")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputProblem(f"{path}: not valid TOML: {exc}") from None
    problems = [f"unknown top-level key {k!r} (only [models.\"NAME\"] tables)" for k in raw if k != "models"]
    models = raw.get("models", {})
    if not isinstance(models, dict):
        problems.append("models must be a table of [models.\"NAME\"] tables")
        models = {}
    out = {}
    for name, entry in models.items():
        found, values = _problems(name, entry)
        problems += found
        if not found:
            out[name] = Facts(**values)
    if problems:
        raise InputProblem(f"{path}: " + "; ".join(problems))
    return out


def check_against_runs(facts: dict[str, Facts], simulated: dict[str, bool], root: Path) -> None:
    """A model's facts say it is simulated exactly when its runs' metadata does."""
    wrong = [f"model {m!r}: its runs say simulated: {str(simulated[m]).lower()}, its facts say "
             f"simulated = {str(f.simulated).lower()}" for m, f in sorted(facts.items())
             if m in simulated and simulated[m] != f.simulated]
    if wrong:
        raise InputProblem(f"{root.joinpath(*FILE)}: " + "; ".join(wrong))


def site_facts(site) -> dict[str, Facts]:
    """The facts of the models on the site (SiteData), checked against their runs."""
    facts = load_facts(site.root)
    simulated: dict[str, bool] = {}
    for sd in site.suites:
        for info in sd.stats["runs"].values():
            simulated[info["model"]] = simulated.get(info["model"], False) or bool(info["simulated"])
    check_against_runs(facts, simulated, site.root)
    return {m: f for m, f in facts.items() if m in simulated}


FACT_COLUMNS = (("organisation", "Organisation"), ("open_weights", "Open weights"), ("licence", "Licence"),
                ("released", "Released"), ("context_window", "Context window (tokens)"))


def shown_fact(facts: Facts | None, key: str) -> str:
    """A fact as the site shows it: "–" when unknown, yes/no for open weights, thousands separated."""
    value = None if facts is None else getattr(facts, key)
    if value is None:
        return "\u2013"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
