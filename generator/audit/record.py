"""`tally audit record FILE`: validate a person's judgments and store them in content/audits/<suite>/;
and the per-model scorer error rates the site shows (share of audited verdicts judged wrong, Wilson).

A stored file keeps who judged, when, the sample's seed and each judgment. The note of a judgment of a
private item is dropped when recording: content/ is published, and a note may describe the document.
Its unit, verdict and right verdict are stored sealed (`sealed_value`: a keyed hash whose key is the
item's own line, as a sealed record's box): a unit can name a part of the answer key (a transaction and
the fault found in it) and a verdict its class (a false flag says the item was genuine), so whoever
lacks the item reads neither, while today's verdict of the same unit, sealed the same way, still tells
whether the judgment is stale.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import defaultdict
from pathlib import Path

from ..commit.keys import now_utc
from ..inputs.ids import id_problem, is_safe_id
from ..inputs.untrusted_files import cut
from ..pipeline.stages import ScoredSuite
from ..sealed_box import item_key
from ..stats.wilson import rate
from .files import STORED_FORMAT, read_judgments, read_stored, shown_note
from .sample import COMMON_VERDICTS, JUDGMENTS, AuditError, drawn

AUDITS_DIR = ("content", "audits")


def audits_dir(root: Path, suite: str) -> Path:
    return root.joinpath(*AUDITS_DIR, suite)


SEALED_PREFIX = "sealed:"


def sealed_value(key: bytes, *parts: str) -> str:
    """A private judgment's unit (parts: the unit) or verdict (the unit and the verdict) as stored;
    `key` is the item's box key (`sealed_box.item_key` of its line)."""
    mac = hmac.new(key, "\x00".join(("tally-audit-v1",) + parts).encode(), hashlib.sha256)
    return SEALED_PREFIX + mac.hexdigest()[:32]


def validate(doc: dict, scored: ScoredSuite, drawn_keys: set[tuple] | None = None) -> tuple[list[dict], list[str]]:
    """The judgments checked against today's verdicts and, given `drawn_keys` ((run, item, repeat,
    unit) of the seeded sample), against the sample: (clean judgments, problems)."""
    verdicts = {}
    for r in scored.runs:
        t = r.verdicts()
        for k in range(len(t)):
            verdicts[(r.run.id, t.item[k], t.repeat[k], t.unit[k])] = t.verdict[k]
    kinds = set(verdicts.values()) | set(COMMON_VERDICTS)
    halves = {i.id: i.half for i in scored.items}
    lines = {i.id: i.line for i in scored.items}
    models = {r.run.id: r.run.model for r in scored.runs}
    out, problems, seen = [], [], set()
    judgments = doc.get("judgments")
    if not isinstance(judgments, list) or not judgments:
        return [], ["no judgments"]
    for n, j in enumerate(judgments, start=1):
        where = f"judgment {n} ({cut(j.get('id')) if isinstance(j, dict) else '?'})"
        if not isinstance(j, dict):
            problems.append(f"{where}: not an object")
            continue
        key = (j.get("run"), j.get("item"), j.get("repeat"), j.get("unit"))
        if key not in verdicts:
            problems.append(f"{where}: no verdict {_key(key)} in today's scoring")
            continue
        if drawn_keys is not None and key not in drawn_keys:
            problems.append(f"{where}: {_key(key)} is not in the sample drawn with seed {doc.get('seed')} and "
                            f"{doc.get('per_model')} per model"
                            f"{' from every run of today' if doc.get('runs') is None else ''}: only judgments "
                            "of that sample are recorded")
            continue
        if key in seen:
            problems.append(f"{where}: judged twice")
        seen.add(key)
        if j.get("verdict") != verdicts[key]:
            problems.append(f"{where}: the scorer's verdict is now {verdicts[key]!r}, not {j.get('verdict')!r}")
        if j.get("judgment") not in JUDGMENTS:
            problems.append(f"{where}: judgment must be one of {', '.join(JUDGMENTS)}")
        right = j.get("right_verdict")
        if j.get("judgment") == "disagree" and (not is_safe_id(right) or right == verdicts[key]):
            problems.append(f"{where}: a disagreement names the right verdict (one of {', '.join(sorted(kinds))}, "
                            "or another verdict name), other than the scorer's")
        private = halves.get(str(j.get("item"))) == "private"
        unit, verdict, right = key[3], verdicts[key], right if j.get("judgment") == "disagree" else None
        if private:
            box = item_key(lines[str(key[1])])
            unit, verdict = sealed_value(box, key[3]), sealed_value(box, key[3], verdict)
            right = None if right is None else sealed_value(box, key[3], str(right))
        out.append({"run": key[0], "model": models[key[0]], "item": key[1], "repeat": key[2], "unit": unit,
                    "verdict": verdict, "judgment": j.get("judgment"), "right_verdict": right,
                    "note": "" if private else str(j.get("note") or ""), "half": halves.get(str(key[1]))})
    return out, problems


def _key(key: tuple) -> str:
    return "(run {}, item {}, repeat {}, unit {})".format(*(cut(k) for k in key))


def record(root: Path, path: Path, scored: ScoredSuite, auditor: str | None = None, seed: int | None = None,
           simulated: bool = False, per_model: int | None = None) -> Path:
    """Check a judgments file against today's verdicts and the sample it was drawn from (the same
    seed and sample size draw the same sample), then store it; nothing is written on a problem."""
    doc = read_judgments(path)
    suite = scored.suite
    if doc.get("suite") not in (None, suite.name):
        raise AuditError(f"{path}: judgments of suite {cut(doc.get('suite'))!r}, not {suite.name!r}")
    who = (auditor or doc.get("auditor") or "").strip()
    if not who:
        raise AuditError(f"{path}: who judged? the file names no auditor: pass --auditor NAME")
    seed = seed if seed is not None else doc.get("seed")
    if not isinstance(seed, int):
        raise AuditError(f"{path}: the sample's seed is unknown: pass --seed N")
    per_model = per_model if per_model is not None else doc.get("per_model")
    if not isinstance(per_model, int):
        raise AuditError(f"{path}: the sample's size is unknown: pass --per-model N (as given to `tally audit sample`)")
    if per_model < 1:
        raise AuditError(f"{path}: per_model must be at least 1, not {per_model}")
    doc = doc | {"seed": seed, "per_model": per_model}
    runs = doc.get("runs")  # the runs the sample was drawn from (an older file: every run of today)
    keys = {(run, item, repeat, unit) for _, (run, item, repeat, unit, _) in drawn(scored, per_model, seed, runs)[1]}
    judgments, problems = validate(doc, scored, keys)
    if not judgments and not problems:
        problems.append("no judgments")
    if problems:
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise AuditError(f"{path}: nothing recorded:\n  " + "\n  ".join(problems[:20]) + more)
    name = f"seed{seed}-{''.join(c if c.isalnum() and c.isascii() else '-' for c in who.lower())[:40]}.json"
    out = audits_dir(root, suite.name) / name
    if (p := id_problem(name, "file name")) is not None:
        raise AuditError(f"{path}: {p}")
    links = [p for p in (root / "content", out.parent.parent, out.parent) if p.is_symlink()]
    if links:
        raise AuditError(f"{links[0]}: a symbolic link: audits are not written through it (nothing was recorded)")
    if out.exists() or out.is_symlink():
        raise AuditError(f"{out} already exists: judgments are recorded once")
    stored = {"format": STORED_FORMAT, "suite": suite.name, "suite_version": suite.version, "seed": seed,
              "per_model": per_model, **({"runs": runs} if runs is not None else {}), "auditor": who,
              "simulated": simulated,
              "judged_at": doc.get("judged_at"), "recorded_at": now_utc(), "judgments": judgments}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(stored, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out


def load_audits(root: Path, suite: str) -> list[dict]:
    base = audits_dir(root, suite)
    out = []
    for path in sorted(base.glob("*.json")) if base.is_dir() else []:
        out.append(read_stored(path) | {"file": path.relative_to(root / "content").as_posix()})
    return out


def summary(root: Path, scored: ScoredSuite) -> dict | None:
    """Per model and for the suite: judged wrong / (agree + disagree) with a Wilson interval; unsure
    apart; every disagreement; judgments whose verdict has changed since are counted as stale."""
    audits = load_audits(root, scored.suite.name)
    if not audits:
        return None
    judged = {(j["run"], j["item"], j["repeat"], j["unit"]) for a in audits for j in a["judgments"]}
    runs = {key[0] for key in judged}
    private = {i.id: i.line for i in scored.items if i.half == "private"}
    keys: dict[str, bytes] = {}  # a private item's box key, made once
    now = {}  # today's verdict of each judged row (the runs' rows read one run at a time, only those kept)
    for r in scored.runs:
        if r.run.id not in runs:
            continue
        t = r.verdicts()
        for k in range(len(t)):
            key = (r.run.id, t.item[k], t.repeat[k], t.unit[k])
            if key in judged:
                now[key] = t.verdict[k]
            line = private.get(t.item[k])
            if line is not None:  # a private item's judgment stores its unit and verdict sealed
                box = keys.get(t.item[k]) or keys.setdefault(t.item[k], item_key(line))
                key = (r.run.id, t.item[k], t.repeat[k], sealed_value(box, t.unit[k]))
                if key in judged:
                    now[key] = sealed_value(box, t.unit[k], t.verdict[k])
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # wrong, judged, unsure, stale
    disagreements = []
    for a in audits:
        for j in a["judgments"]:
            c = counts[j["model"]]
            if now.get((j["run"], j["item"], j["repeat"], j["unit"])) != j["verdict"]:
                c[3] += 1
                continue
            if j["judgment"] == "unsure":
                c[2] += 1
                continue
            c[1] += 1
            if j["judgment"] == "disagree":
                c[0] += 1
                disagreements.append(j | {"auditor": a["auditor"], "simulated": a.get("simulated", False),
                                          "note": shown_note(j.get("note") or "", f"content/{a['file']}")})
    models = {m: rate(c[0], c[1]) | {"unsure": c[2], "stale": c[3]} for m, c in sorted(counts.items())}
    total = [sum(c[i] for c in counts.values()) for i in range(4)]
    return {"models": models, "suite": rate(total[0], total[1]) | {"unsure": total[2], "stale": total[3]},
            "disagreements": disagreements, "files": [a["file"] for a in audits],
            "auditors": sorted({a["auditor"] + (" (simulated)" if a.get("simulated") else "") for a in audits}),
            "simulated": any(a.get("simulated") for a in audits)}
