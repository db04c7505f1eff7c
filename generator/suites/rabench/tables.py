"""RA-Bench's own tables (rule page section 5): every task, its strata, the cost sweep and the
benchmark's findings rule. Computed from the verdict rows, the item labels and the stored calls."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from ...money import read_price
from ...stats.quantiles import nearest_rank
from ...stats.wilson import wilson
from ...suite_api import Estimate, ReportCell, ReportChart, ReportTable
from . import measure as m

NS = "not supported"
MIN_N = 10
SWEEP: tuple[tuple[str, dict[str, float]], ...] = (("defaults", {}), ("fakes 0.1%", {"p": 0.001}), ("fakes 5%", {"p": 0.05}),
         ("missed fake $32", {"c_miss": 32.0}), ("missed fake $182", {"c_miss": 182.0}),
         ("review $8", {"c_review": 8.0}), ("review $73", {"c_review": 73.0}))


class Target:
    def __init__(self, run_score, items) -> None:
        self.id = run_score.run.id
        target = run_target(run_score.run.meta)
        self.kind = target.get("kind", "diy")
        tasks = target.get("tasks")
        self.tasks = set(tasks) if isinstance(tasks, list) and all(isinstance(t, str) for t in tasks) else \
            {"extraction", "authenticity", "decisions", "operations"}
        self.meta = run_score.run.meta
        self.hosting = run_score.run.meta.get("hosting", "hosted")
        self.latency = latency_kind(target)
        self.calls = run_score.calls()
        runs = m.case_runs(run_score)
        self.base = {i.id: runs[i.id] for i in items if i.spec["lineage"] is None and i.id in runs}
        self.transforms = [runs[i.id] for i in items if i.spec["lineage"] is not None and i.id in runs]


def run_target(meta: dict) -> dict:
    """run.json's `target` object (kind, tasks, latency); {} (the defaults) when it is absent or not an object."""
    target = meta.get("target")
    return target if isinstance(target, dict) else {}


def latency_kind(target: dict) -> str:
    """How a run's latencies were obtained (run.json `target.latency`): "measured" (the default: the harness
    times every call) or what the run says instead, such as "nominal" (a fixed figure); shown as given."""
    kind = target.get("latency", "measured")
    return kind[:40] if isinstance(kind, str) and kind.strip() else "unstated"


def _strata(items, extra: Callable[[object], list[str]] = lambda i: []) -> dict[str, list[str]]:
    """stratum -> base case ids (all, every item tag, and `extra` groups), kept when >= MIN_N cases."""
    out: dict[str, list[str]] = {"all": []}
    for i in items:
        if i.spec["lineage"] is not None:
            continue
        out["all"].append(i.id)
        for key in [f"{d}={v}" for d, v in i.strata.items() if d not in ("dataset", "half")] + extra(i):
            out.setdefault(key, []).append(i.id)
    return {k: v for k, v in sorted(out.items(), key=lambda kv: (kv[0] != "all", kv[0])) if len(v) >= MIN_N}


def extraction(targets, items) -> ReportTable:
    rows: list[tuple[ReportCell, ...]] = []
    for t in targets:
        for stratum, ids in _strata(items).items():
            cases = [t.base[c] for c in ids if c in t.base]
            label = {i.id: i.spec for i in items}
            fakes = [t.base[c] for c in ids if c in t.base and label[c]["fake"]]
            genuine = [t.base[c] for c in ids if c in t.base and not label[c]["fake"]]
            fields = [u for u in ("field:" + f for f in m_fields())]
            all_right = m.rate(cases, lambda r: all(r[u][0] in ("correct", "null_ok") for u in fields if u in r))
            valid = m.rate(cases, lambda r: r["check:totals_add_up"][0] not in
                           ("failed_call", "unparseable"))
            f1 = m.line_f1(fakes, genuine, "line_item_f1", t.id, stratum)
            rows.append((t.id, stratum, len(cases), all_right, f1, valid))
    return ReportTable("extraction", "Extraction (base cases)", ("Target", "Stratum", "n", "All fields right",
                                                                 "Line-item F1", "Valid output"), tuple(rows),
                       "Rates: 95% Wilson over cases; line-item F1: 95% bootstrap, 2,000 resamples, fakes and genuine "
                       "receipts resampled separately.", scale=100)


def m_fields() -> tuple[str, ...]:
    from .rules import FIELDS
    return FIELDS


def checks(targets, items) -> ReportTable:
    label = {i.id: i.spec for i in items}
    rows: list[tuple[ReportCell, ...]] = []
    for t in targets:
        if "checks" not in t.tasks:
            rows.append((t.id, "all", None, NS, NS, NS, NS))
            continue
        for stratum, ids in _strata(items).items():
            cases = [(c, t.base[c]) for c in ids if c in t.base]
            pos = [r for c, r in cases if not label[c]["adds_up"]]
            neg_genuine = [r for c, r in cases if label[c]["adds_up"] and not label[c]["fake"]]
            def verdict(r: dict) -> str:
                return r["check:totals_add_up"][0]
            recall = m.rate(pos, lambda r: verdict(r) == "found")
            precision = m.rate([r for _c, r in cases], lambda r: verdict(r) == "found",
                               lambda r: verdict(r) in ("found", "false_flag"))
            alarms = m.rate(neg_genuine, lambda r: verdict(r) == "false_flag")
            coverage = m.rate([r for _c, r in cases], lambda r: verdict(r) not in ("not_run", "failed_call",
                                                                                      "unparseable"))
            rows.append((t.id, stratum, len(cases), recall, precision, alarms, coverage))
    return ReportTable("checks", "Checks: totals_add_up (a positive is a document whose amounts don't add up)",
                       ("Target", "Stratum", "n", "Recall", "Precision", "False alarms", "Coverage"), tuple(rows),
                       "95% Wilson over cases. Targets without deterministic checks: not supported.", scale=100)


def _auth_groups(i) -> list[str]:
    s = i.spec
    out = [f"provenance={s['provenance']}"] if "provenance" not in i.strata else []
    if s["fake"]:
        out += [f"class={s['fake_class']}"] if "class" not in i.strata else []
        out.append("arithmetic=" + ("consistent" if s["adds_up"] else "inconsistent"))
    return out


def authenticity(targets, items) -> tuple[ReportTable, ReportTable]:
    label = {i.id: i.spec for i in items}
    strata = _strata(items, _auth_groups)
    genuine_all = [i.id for i in items if i.spec["lineage"] is None and not i.spec["fake"]]
    ranks, rates = [], []
    for t in targets:
        for stratum, ids in strata.items():
            fake_ids = [c for c in ids if label[c]["fake"]]
            # class and arithmetic groups hold fakes only: each is compared with every genuine receipt
            gen_ids = genuine_all if stratum.startswith(("class=", "arithmetic=")) else \
                [c for c in ids if not label[c]["fake"]]
            fakes, genuine = [t.base[c] for c in fake_ids if c in t.base], [t.base[c] for c in gen_ids if c in t.base]
            if not fakes or not genuine:
                continue
            r = m.rank_estimates(fakes, genuine, "rank", t.id, stratum)
            ranks.append((t.id, stratum, len(fakes), len(genuine), r["auc"], r["det_0.01"], r["det_0.05"],
                          r["det_0.1"]))
            rates.append((t.id, stratum, len(fakes), len(genuine), m.rate(fakes, m.flagged),
                          m.rate(genuine, m.flagged), m.rate(fakes, lambda x: m.flagged(x, "0.7")),
                          m.rate(genuine, lambda x: m.flagged(x, "0.7"))))
    note = ("Each case's score is the mean risk of its runs with a risk (0.5 without). AUC counts ties half; "
            "detection at a false-flag rate uses the lowest threshold flagging at most that share of genuine "
            "receipts, ties at the threshold flagged. 95% bootstrap, 2,000 resamples, stratified.")
    return (ReportTable("authenticity-rank", "Authenticity: ROC AUC and detection at a fixed false-flag rate",
                        ("Target", "Stratum", "Fakes", "Genuine", "ROC AUC", "Detection at 1%", "Detection at 5%",
                         "Detection at 10%"), tuple(ranks), note, scale=1, digits=3),
            ReportTable("authenticity-thresholds", "Authenticity at the documented thresholds",
                        ("Target", "Stratum", "Fakes", "Genuine", "Detection (risk >= 0.5)", "False flags (>= 0.5)",
                         "Detection (>= 0.7)", "False flags (>= 0.7)"), tuple(rates),
                        "A result without a risk is never flagged. 95% Wilson over cases.", scale=100))


def duplicates(targets, items) -> ReportTable:
    rows: list[tuple[ReportCell, ...]] = []
    for t in targets:
        if "duplicates" not in t.tasks:
            rows.append((t.id, None, NS, NS, NS, NS))
            continue
        unit = "duplicate:transform"
        hard = [r for r in t.base.values() if "duplicate:hard_negative" in r[0]]
        other = [r for r in t.base.values() if "duplicate:genuine" in r[0]]
        rows.append((t.id, len(t.transforms),
                     m.rate(t.transforms, lambda r: r[unit][0] in ("exact_match", "match")),
                     m.rate(t.transforms, lambda r: r[unit][0] == "exact_match"),
                     m.rate(hard, lambda r: r["duplicate:hard_negative"][0] == "false_match"),
                     m.rate(other, lambda r: r["duplicate:genuine"][0] == "false_match")))
    return ReportTable("duplicates", "Duplicates", ("Target", "Transforms", "Recall", "Exact recall",
                                                    "False matches (hard negatives)", "False matches (other genuine)"),
                       tuple(rows), "95% Wilson over cases. Targets without memory across checks: not supported.",
                       scale=100)


def decisions(targets, items) -> tuple[ReportTable, ReportTable]:
    label = {i.id: i.spec for i in items}
    rows, costs = [], []
    p0 = {"p": 0.01, "c_miss": 100.0, "c_review": 17.0}
    for t in targets:
        twice = [r for r in t.base.values() if len(r) >= 2]
        with_total = [r for r in twice if "field:total" in r[0]]
        risks = [(risk, label[c]["fake"]) for c, runs in t.base.items() for r in runs
                 if (risk := m.risk_of(r)) is not None]
        e = m.ece(risks)
        rows.append((t.id, _share(twice, m.consistent_decision),
                     _share(with_total, m.consistent_total), Estimate(e, n=len(risks))))
        fakes = [r for c, r in t.base.items() if label[c]["fake"]]
        genuine = [r for c, r in t.base.items() if not label[c]["fake"]]
        for at in ("0.5", "0.7"):
            det = m.rate(fakes, lambda x: m.flagged(x, at)).value or 0.0
            ffr = m.rate(genuine, lambda x: m.flagged(x, at)).value or 0.0
            for name, change in SWEEP:
                costs.append((t.id, f"assumption={name}" if change else "defaults", f"risk >= {at}",
                              m.expected_cost(ffr, det, **(p0 | change))))
    for name, change in SWEEP:
        a = p0 | change
        costs.append(("approve everything", f"assumption={name}" if change else "defaults", "none",
                      1000 * a["p"] * a["c_miss"]))
    return (ReportTable("decisions", "Decisions: consistency and calibration",
                        ("Target", "Consistency", "Total consistency", "Calibration error (ECE)"), tuple(rows),
                        "Consistency over base cases run at least twice (95% Wilson). ECE: 10 equal-width bins over "
                        "every run with a risk, weighted by run count (lower is better; no interval).", scale=100),
            ReportTable("cost", "Expected cost per 1,000 receipts (USD) and the one-at-a-time sweep",
                        ("Target", "Assumptions", "Threshold", "Expected cost"), tuple(costs),
                        "1000 x ((1 - p) x false-flag rate x C_review + p x (1 - detection) x C_miss); defaults "
                        "p = 1%, C_miss = $100, C_review = $17. A detector above 'approve everything' loses money "
                        "under those assumptions. Counts only mistakes; no interval. Each figure's source (or "
                        "'assumption') is listed on the rule page, section 5.6.", scale=1, digits=0,
                        chart=ReportChart("bar", x=1, y=3, series=(0, 2), y_title="Expected cost per 1,000 (USD)")))


def _share(cases, pred) -> Estimate:
    """The share of cases (not runs) for which `pred` holds, with its Wilson interval."""
    k, n = sum(map(pred, cases)), len(cases)
    ci = wilson(k, n)
    return Estimate(k / n, ci[0], ci[1], n) if ci else Estimate(None, n=0)


def evidence(targets, items) -> ReportTable:
    label = {i.id: i.spec for i in items}
    rows: list[tuple[ReportCell, ...]] = []
    for t in targets:
        if "evidence" not in t.tasks:
            rows.append((t.id, NS, NS, NS))
            continue
        edited = [r for c, r in t.base.items() if label[c]["fake"] and label[c]["edited_field"]]
        fakes = [r for c, r in t.base.items() if label[c]["fake"]]
        genuine = [r for c, r in t.base.items() if not label[c]["fake"]]
        rows.append((t.id, m.rate(edited, lambda r: r["edited_field"][0] == "named"),
                     m.rate(fakes, lambda r: r["decision"][0] == "caught" and r["proof"][0] == "proof"),
                     m.rate(genuine, lambda r: r["proof"][0] == "proof")))
    return ReportTable("evidence", "Evidence", ("Target", "Edited field named", "Fakes caught with proof",
                                                "Genuine receipts with proof (lower is better)"), tuple(rows),
                       "95% Wilson over cases. Plain prompts return opinions: not supported.", scale=100)


def operations(targets) -> tuple[ReportTable, ReportTable, dict]:
    rows, rates, values = [], [], {}
    for t in targets:
        ok = [c for c in t.calls if c[3] != "failed_call"]
        lat = [float(c[8]) for c in ok if c[8] != ""]
        prices = t.meta.get("prices") or {}
        pin = read_price(prices.get("input_per_mtok")) or Decimal(0)
        pout = read_price(prices.get("output_per_mtok")) or Decimal(0)
        model = [(Decimal(c[9] or 0) * pin + Decimal(c[10] or 0) * pout) / 1_000_000 for c in ok]
        model_cost = float(sum(model) / len(model)) if model else None
        per_check = read_price(t.meta.get("price_per_check"))
        cost = float(per_check) if per_check is not None else model_cost
        p = [nearest_rank(lat, q) for q in (50, 95, 99)]
        hosting = t.meta.get("hosting", "hosted")
        latency = getattr(t, "latency", None) or latency_kind(run_target(t.meta))
        shown = "measured by the harness" if latency == "measured" else f"{latency}: not compared"
        rows.append((t.id, len(t.calls), *p, cost, model_cost, hosting, shown))
        n = len(t.calls)

        def r(k: int) -> Estimate:
            ci = wilson(k, n)
            return Estimate(k / n, ci[0], ci[1], n) if ci else Estimate(None, n=0)
        err = r(sum(c[3] == "failed_call" for c in t.calls))
        rates.append((t.id, n, err, r(sum(c[12] == 1 for c in t.calls)), r(sum(c[4] == "timeout" for c in t.calls))))
        values[t.id] = {"latency p50": (p[0], len(lat)), "cost per check": (cost, len(ok)), "error rate": err}
    return (ReportTable("operations", "Operations: latency (ms) and cost per check (USD)",
                        ("Target", "Calls", "Latency p50", "p95", "p99", "Cost per check", "Model cost per check",
                         "Hosting", "Latency"),
                        tuple(rows), "Final attempt of each successful call, nearest-rank quantiles; cost averaged over "
                        "successful calls; no interval. The example engine calls no model: its model cost is 0. "
                        "Self-hosted runs are never ranked on speed or cost, and a latency the harness did not "
                        "measure (run.json target.latency, such as nominal) is shown but never compared.",
                        scale=1, digits=4),
            ReportTable("operations-rates", "Operations: error, refusal and timeout rates",
                        ("Target", "Calls", "Errors", "Refusals", "Timeouts"), tuple(rates),
                        "95% Wilson over calls.", scale=100), values)
