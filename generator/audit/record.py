"""`tally audit record FILE`: validate a person's judgments and store them in content/audits/<suite>/;
and the per-model scorer error rates the site shows (share of audited verdicts judged wrong, Wilson).

A stored file keeps who judged, when, the sample's seed and each judgment. The note of a judgment of a
private item is dropped when recording: content/ is published, and a note may describe the document.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path

from ..commit.keys import now_utc
from ..ids import is_safe_id
from ..pipeline import ScoredSuite
from ..stats.wilson import rate
from .sample import COMMON_VERDICTS, JUDGMENTS, JUDGMENTS_FORMAT, AuditError

AUDITS_DIR = ("content", "audits")


def audits_dir(root: Path, suite: str) -> Path:
    return root.joinpath(*AUDITS_DIR, suite)


def read_judgments(path: Path) -> dict:
    """A judgments file as the audit page saves it (JSON), or the workspace's CSV filled in (then the
    suite, seed and auditor come from the options of `tally audit record`)."""
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        return {"format": JUDGMENTS_FORMAT, "judgments": [
            {"id": r.get("id"), "run": r.get("run"), "item": r.get("item"), "repeat": int(r.get("repeat") or 0),
             "unit": r.get("unit"), "verdict": r.get("verdict"), "judgment": (r.get("judgment") or "").strip(),
             "right_verdict": (r.get("right_verdict") or "").strip() or None, "note": r.get("note") or ""}
            for r in rows if (r.get("judgment") or "").strip()]}
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise AuditError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != JUDGMENTS_FORMAT:
        raise AuditError(f"{path}: not a {JUDGMENTS_FORMAT} file (save it from the audit page)")
    return doc


def validate(doc: dict, scored: ScoredSuite) -> tuple[list[dict], list[str]]:
    """The judgments checked against today's verdicts: (clean judgments, problems)."""
    verdicts = {}
    for r in scored.runs:
        t = r.verdicts
        for k in range(len(t)):
            verdicts[(r.run.id, t.item[k], t.repeat[k], t.unit[k])] = t.verdict[k]
    kinds = set(verdicts.values()) | set(COMMON_VERDICTS)
    halves = {i.id: i.half for i in scored.items}
    models = {r.run.id: r.run.model for r in scored.runs}
    out, problems, seen = [], [], set()
    judgments = doc.get("judgments")
    if not isinstance(judgments, list) or not judgments:
        return [], ["no judgments"]
    for n, j in enumerate(judgments, start=1):
        where = f"judgment {n} ({j.get('id') if isinstance(j, dict) else '?'})"
        if not isinstance(j, dict):
            problems.append(f"{where}: not an object")
            continue
        key = (j.get("run"), j.get("item"), j.get("repeat"), j.get("unit"))
        if key not in verdicts:
            problems.append(f"{where}: no verdict {key} in today's scoring")
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
        out.append({"run": key[0], "model": models[key[0]], "item": key[1], "repeat": key[2], "unit": key[3],
                    "verdict": verdicts[key], "judgment": j.get("judgment"),
                    "right_verdict": right if j.get("judgment") == "disagree" else None,
                    "note": "" if private else str(j.get("note") or ""), "half": halves.get(str(key[1]))})
    return out, problems


def record(root: Path, path: Path, scored: ScoredSuite, auditor: str | None = None, seed: int | None = None,
           simulated: bool = False) -> Path:
    doc = read_judgments(path)
    suite = scored.suite
    if doc.get("suite") not in (None, suite.name):
        raise AuditError(f"{path}: judgments of suite {doc.get('suite')!r}, not {suite.name!r}")
    who = (auditor or doc.get("auditor") or "").strip()
    if not who:
        raise AuditError("who judged? the file names no auditor: pass --auditor NAME")
    seed = seed if seed is not None else doc.get("seed")
    if not isinstance(seed, int):
        raise AuditError("the sample's seed is unknown: pass --seed N")
    judgments, problems = validate(doc, scored)
    if problems:
        raise AuditError(f"{path}: nothing recorded:\n  " + "\n  ".join(problems[:20]))
    name = f"seed{seed}-{''.join(c if c.isalnum() else '-' for c in who.lower())[:40]}.json"
    out = audits_dir(root, suite.name) / name
    if not is_safe_id(name) or out.exists():
        raise AuditError(f"{out} already exists: judgments are recorded once")
    stored = {"format": "tally-audit-v1", "suite": suite.name, "suite_version": suite.version, "seed": seed,
              "per_model": doc.get("per_model"), "auditor": who, "simulated": simulated,
              "judged_at": doc.get("judged_at"), "recorded_at": now_utc(), "judgments": judgments}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(stored, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out


def load_audits(root: Path, suite: str) -> list[dict]:
    base = audits_dir(root, suite)
    out = []
    for path in sorted(base.glob("*.json")) if base.is_dir() else []:
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.append(doc | {"file": path.relative_to(root / "content").as_posix()})
    return out


def summary(root: Path, scored: ScoredSuite) -> dict | None:
    """Per model and for the suite: judged wrong / (agree + disagree) with a Wilson interval; unsure
    apart; every disagreement; judgments whose verdict has changed since are counted as stale."""
    audits = load_audits(root, scored.suite.name)
    if not audits:
        return None
    judged = {(j["run"], j["item"], j["repeat"], j["unit"]) for a in audits for j in a["judgments"]}
    runs = {key[0] for key in judged}
    now = {}  # today's verdict of each judged row (the runs' rows read one run at a time, only those kept)
    for r in scored.runs:
        if r.run.id not in runs:
            continue
        t = r.verdicts
        for k in range(len(t)):
            key = (r.run.id, t.item[k], t.repeat[k], t.unit[k])
            if key in judged:
                now[key] = t.verdict[k]
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
                disagreements.append(j | {"auditor": a["auditor"], "simulated": a.get("simulated", False)})
    models = {m: rate(c[0], c[1]) | {"unsure": c[2], "stale": c[3]} for m, c in sorted(counts.items())}
    total = [sum(c[i] for c in counts.values()) for i in range(4)]
    return {"models": models, "suite": rate(total[0], total[1]) | {"unsure": total[2], "stale": total[3]},
            "disagreements": disagreements, "files": [a["file"] for a in audits],
            "auditors": sorted({a["auditor"] + (" (simulated)" if a.get("simulated") else "") for a in audits}),
            "simulated": any(a.get("simulated") for a in audits)}
