"""Shared page pieces: labels, run links and the tables every leaderboard page shows."""

from __future__ import annotations

import re

from ...inputs.content import FREEZE, POST_FREEZE, PRE_FREEZE
from ...numbers import with_unit
from ...stats.strata import HEADLINE, headline_choices
from ..context import Cell, Column, Table, interval, shown, slug, text
from ..gather import SuiteView

CALL_TEXT = {"better": "better", "worse": "worse", "can't tell apart": "can't tell"}
FLIP = {"better": "worse", "worse": "better"}


def metric_label(sd: SuiteView, metric: str) -> str:
    return sd.declared.label(metric)


def metric_heading(sd: SuiteView, metric: str) -> str:
    """The metric's label with the unit it declares, if any: "(%)" only for a percentage."""
    unit = metric_scale(sd, metric)[1]
    return metric_label(sd, metric) + (f" ({unit})" if unit else "")


def metric_scale(sd: SuiteView, metric: str) -> tuple[float, str]:
    """(scale, unit) for display, as the metric declares."""
    return sd.declared.scale(metric)


def cost_cell(ops: dict) -> Cell:
    """A run's cost per 1,000 documents with its currency ("USD 0.955"); "self-hosted" or "–" without one."""
    cost = ops.get("cost_per_1000_documents")
    if not cost:
        return text("self-hosted" if ops.get("self_hosted") else "\u2013", sort="", export=(("", None),))
    return Cell(with_unit(float(cost), ops.get("currency") or ""), repr(float(cost)), cls="num",
                export=(("", cost), ("currency", ops.get("currency"))))


def metric_order(sd: SuiteView) -> list[str]:
    head = sd.plugin.headline
    return ([head] if head in sd.stats["metrics"] else []) + [m for m in sd.stats["metrics"] if m != head]


def model_path(model: str) -> str:
    return f"models/{slug(model)}.html"


def provider_path(provider: str) -> str:
    return f"providers/{slug(provider)}.html"


def suite_path(sd: SuiteView, rest: str = "index.html") -> str:
    return f"suites/{sd.suite.name}/{rest}"


def stratum_path(sd: SuiteView, key: str) -> str:
    return suite_path(sd, f"strata/{slug(key)}.html")


def item_path(sd: SuiteView, item_id: str) -> str:
    return suite_path(sd, f"items/{item_id}.html")


def stratum_title(key: str) -> str:
    """"all items", "dimension = value", or for a frozen suite's headline stratum
    ("half=private,freeze=post-freeze") "private half, post-freeze"."""
    if key == "all":
        return "all items"
    if key.startswith("half=") and key.endswith(f",{FREEZE}={POST_FREEZE}"):  # a frozen suite's headline stratum
        return f"{key.removeprefix('half=').split(',')[0]} half, {POST_FREEZE}"
    dim, _, value = key.partition("=")
    return f"{dim.replace('_', ' ')} = {value}"


def run_cells(sd: SuiteView, run_id: str) -> list[Cell]:
    """Model, provider and hosting of a run. When another run of the suite shares the model, the model
    cell also carries the provider (or the run id), shown on a phone where the provider column gives way."""
    info = sd.stats["runs"][run_id]
    sim = " (simulated)" if info["simulated"] else ""
    return [text(info["model"] + sim, href=model_path(info["model"]), sort=info["model"], sub=_telling(sd, run_id)),
            text(info["provider"], href=provider_path(info["provider"])),
            text(info["hosting"])]


def _telling(sd: SuiteView, run_id: str) -> str:
    """What tells the run apart from the suite's other runs of the same model ("" when none shares it)."""
    runs = {**sd.stats.get("incomplete_runs", {}), **sd.stats["runs"]}
    info = runs.get(run_id) or sd.stats["runs"][run_id]
    same = [i for r, i in runs.items() if r != run_id and i["model"] == info["model"]]
    if not same:
        return ""
    if any(i["provider"] == info["provider"] for i in same):
        return shown(f"on {info['provider']}, run {run_id}")
    return shown(f"on {info['provider']}")


RUN_COLUMNS = [Column("model", "Model", priority="key"), Column("provider", "Provider", priority="low"),
               Column("hosting", "Hosting", priority="low")]


def ranked_runs(sd: SuiteView, stratum: dict, metric: str) -> list[str]:
    """Runs in the order of the statistics engine's pairwise family (best first), then the rest."""
    ranked = list(stratum.get("pairwise", {}).get(metric, {}).get("order", []))
    return ranked + sorted(r for r in stratum.get("runs", []) if r not in ranked)


LETTERS_HELP = "runs that share a letter are not called different"


def fact_columns(facts: dict | None) -> list[Column]:
    """The model facts as optional columns (shown from the table's column chooser), when there are any."""
    from ..facts import FACT_COLUMNS

    return [Column(k, title, k == "context_window", priority="opt") for k, title in FACT_COLUMNS] if facts else []


def fact_cells(facts: dict | None, model: str, always: bool = False) -> list[Cell]:
    """The model's facts as cells ("–" for unknown); none when there are no facts, unless `always`."""
    from ..facts import FACT_COLUMNS, shown_fact

    if not facts and not always:
        return []
    facts = facts or {}
    f = facts.get(model)
    out = []
    for k, _ in FACT_COLUMNS:
        value = None if f is None else getattr(f, k)
        sort = "" if value is None else (int(value) if isinstance(value, (bool, int)) else value)
        out.append(Cell(shown_fact(f, k), str(sort), cls="num" if k == "context_window" else "",
                        export=(("", value),)))
    return out


def leaderboard(sd: SuiteView, key: str, metric: str, table_id: str, export: str | None,
                facts: dict | None = None) -> Table:
    """One metric's leaderboard in a stratum: rank range and letters, estimate and interval; with `facts`
    (facts.site_facts), each model's facts as optional columns."""
    st = sd.stats["strata"][key]
    fam = st["pairwise"].get(metric, {})
    letters = fam.get("letters", {})
    ranks = fam.get("rank_ranges", {})
    scale, unit = metric_scale(sd, metric)
    table = Table(table_id, f"{metric_label(sd, metric)}, {stratum_title(key)}: estimate and 95% interval",
                  [Column("rank", "Rank range", True), Column("letters", "Letters", help=LETTERS_HELP), *RUN_COLUMNS,
                   Column(metric, metric_heading(sd, metric), True),
                   *fact_columns(facts)],
                  export=export)
    for run in ranked_runs(sd, st, metric):
        lo, hi = ranks.get(run, [None, None])
        rank = "\u2013" if lo is None else (str(lo) if lo == hi else f"{lo}\u2013{hi}")
        table.rows.append([Cell(rank, "" if lo is None else f"{lo}.{hi:04d}", cls="num",
                                export=(("low", lo), ("high", hi))),
                           text(letters.get(run, "\u2013"), sort=letters.get(run, ""), cls="letters"),
                           *run_cells(sd, run),
                           interval(st["metrics"].get(metric, {}).get(run), scale),
                           *fact_cells(facts, sd.stats["runs"][run]["model"])])
    return table


def metrics_table(sd: SuiteView, key: str, table_id: str, export: str | None) -> Table:
    """Every metric of a stratum with its interval, one row per run (headline order)."""
    st = sd.stats["strata"][key]
    head = metric_order(sd)
    table = Table(table_id, f"Every metric, {stratum_title(key)} ({st['items']} items): estimate and 95% interval",
                  [*RUN_COLUMNS] + [Column(m, metric_heading(sd, m), True) for m in head], export=export)
    for run in ranked_runs(sd, st, head[0]):
        table.rows.append([*run_cells(sd, run)] +
                          [interval(st["metrics"].get(m, {}).get(run), metric_scale(sd, m)[0]) for m in head])
    return table


def pairwise_matrix(sd: SuiteView, key: str, metric: str) -> tuple[list[str], list[list[dict]], dict]:
    """(runs in rank order, matrix of {call, title}, family) for the pairwise template."""
    fam = sd.stats["strata"][key]["pairwise"].get(metric, {})
    order = ranked_runs(sd, sd.stats["strata"][key], metric)
    order = [r for r in order if r in fam.get("runs", [])]
    calls = {}
    scale, _ = metric_scale(sd, metric)
    for p in fam.get("pairs", []):
        diff = f"difference {p['diff'] * scale:+.1f} [{p['low'] * scale:.1f}, {p['high'] * scale:.1f}]" \
            if p.get("diff") is not None and p.get("low") is not None else ""
        calls[(p["a"], p["b"])] = (p["call"], diff)
        neg = (f"difference {-p['diff'] * scale:+.1f} [{-p['high'] * scale:.1f}, {-p['low'] * scale:.1f}]"
               if diff else "")
        calls[(p["b"], p["a"])] = (FLIP.get(p["call"], p["call"]), neg)
    matrix = []
    for a in order:
        row = []
        for b in order:
            call, diff = calls.get((a, b), ("", ""))
            row.append({"call": CALL_TEXT.get(call, call), "cls": slug(call) if call else "self", "title": diff})
        matrix.append(row)
    return order, matrix, fam


def run_names(sd: SuiteView) -> dict[str, str]:
    return {r: f"{i['model']} on {i['provider']}" for r, i in sd.stats["runs"].items()}


def headline_key(sd: SuiteView) -> str:
    """The headline's stratum (the suite's headline half; for a suite with a freeze date, without the
    documents published before it), or the next choice when that stratum is too small
    (stats.strata.headline_choices)."""
    return next(k for k in headline_choices(sd.suite) if k in sd.stats["strata"])


def freeze_note(sd: SuiteView, key: str) -> str:
    """For a suite with a freeze date: on its headline stratum, which documents the headline leaves out;
    on the pre-freeze stratum, the contamination note. Empty otherwise."""
    frozen = sd.suite.frozen
    if frozen is None or key not in (f"{FREEZE}={PRE_FREEZE}", headline_key(sd)):
        return ""
    pre = [i for i in sd.result.items if i.strata.get(FREEZE) == PRE_FREEZE]
    if key == f"{FREEZE}={PRE_FREEZE}":
        return (f"Contamination risk: these {len(pre):,} documents were published before the test set was frozen "
                f"on {frozen}, so models may have been trained on them. They never count in the headline; read "
                "their scores apart, never as evidence like the private half's.")
    if key == headline_key(sd) and pre:
        where = f"{FREEZE} = {PRE_FREEZE}"
        return (f"The headline leaves out the {sum(1 for i in pre if i.half == sd.suite.headline_half):,} "
                f"{sd.suite.headline_half} documents published before the test set was frozen on {frozen} "
                f"(shown apart: {where}): models may have been trained on them.")
    return ""


def _natural(value: str) -> tuple:
    """Numbers compared as numbers ("5-8" before "13+"), the rest as text."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", value) if part)


def strata_in_order(sd: SuiteView) -> list[str]:
    """The suite's stratum keys in their natural order: "all", a frozen suite's headline stratum, then each
    dimension as the suite lists its strata; datasets as declared, public before private, values the suite orders in [strata_order] as it
    orders them, any other value by its numbers, then as text."""
    declared = dict(sd.suite.strata_order)
    declared.setdefault("dataset", tuple(d.id for d in sd.suite.datasets))
    declared.setdefault("half", ("public", "private"))
    dims = list(sd.suite.strata)

    def key(k: str) -> tuple:
        st = sd.stats["strata"][k]
        dim, value = st.get("dimension"), st.get("value") or ""
        if dim is None:
            return (-2, 0, ())
        if dim == HEADLINE:  # a frozen suite's headline stratum: right after all items
            return (-1, 0, ())
        rank = declared.get(dim, ())
        return (dims.index(dim) if dim in dims else len(dims),
                rank.index(value) if value in rank else len(rank), _natural(value))

    return sorted(sd.stats["strata"], key=key)
