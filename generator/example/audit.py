"""The example's completed verdict audit: judgments by a simulated person, marked as example data.

The simulated auditor agrees with the scorers except on a few fixed verdicts it calls wrong (and a few
it is unsure of), so that the site shows an error rate with its interval and linked disagreements.
No real person judged these verdicts.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ..audit.record import audits_dir
from ..audit.sample import sample
from ..pipeline.stages import load_and_score

SUITE = "extracting"
SEED = 20261201
AUDITOR = "simulated-auditor"
NOTE = "Example data: a simulated person's judgment, not a real check."


def write_example_audit(root: Path, per_model: int = 50) -> Path:
    scored = load_and_score(root, [SUITE], 1, False)[0]
    doc = sample(scored, per_model, SEED)
    rng = random.Random(f"{SEED}/simulated-auditor")
    judgments = []
    for e in doc["entries"]:
        roll = rng.random()
        judgment = "disagree" if roll < 0.02 and e["half"] == "public" else "unsure" if roll < 0.03 else "agree"
        right = None
        if judgment == "disagree":
            right = "correct" if e["verdict"] != "correct" else "wrong"
        judgments.append({"run": e["run"], "model": e["model"], "item": e["item"], "repeat": e["repeat"],
                          "unit": e["unit"], "verdict": e["verdict"], "judgment": judgment, "right_verdict": right,
                          "note": NOTE if judgment != "agree" and e["half"] == "public" else "",
                          "half": e["half"]})
    out = audits_dir(root, SUITE) / f"seed{SEED}-{AUDITOR}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    stored = {"format": "tally-audit-v1", "suite": SUITE, "suite_version": scored.suite.version, "seed": SEED,
              "per_model": per_model, "auditor": AUDITOR, "simulated": True,
              "description": "Example data: every judgment here was made by a simulated person.",
              "judged_at": "2026-12-01T10:00:00Z", "recorded_at": "2026-12-01T10:00:00Z", "judgments": judgments}
    out.write_text(json.dumps(stored, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out
