"""The example's label agreement on its real documents (example data).

First labeller: the published SROIE labels and Tally's labeller rules, exactly as the items hold
them (real, not simulated), with the receipts whose published labels failed a machine check listed
as flagged. Second labeller and adjudicator: simulated people. The simulated second labeller answers
every requested field; a seeded 8 % of its answers are wrong (a missed value, a nearby value, day
and month swapped, a word dropped, a value where the document shows none). The simulated adjudicator
works through the blind sheet and, in this simulation, takes the first labeller's machine-checked
answer as the right one: so the example's label error rate is 0 by construction, and only the
agreement figures vary.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from ..labels.agreement import canon, compare, mismatches
from ..labels.files import CONFIG, FLAGGED, Labels, load_config, read_labels, write_labels
from ..labels.sample import draw, write_sample
from ..labels.sheet import cases, decisions, record, to_csv
from ..labels.worksheet import record_worksheet
from ..labels.worksheet import to_csv as worksheet_csv
from . import real_sroie

FIRST, SECOND, ADJUDICATOR = "published-and-rules", "second-labeller-sim", "adjudicator-sim"
SEED, SHARE, WRONG = 20261130, 0.3, 0.08
NOTE = ("Example data: the first labels are the published SROIE labels and Tally's labeller rules; the second "
        "labeller and the adjudicator are simulated people. The simulated adjudicator takes the first labeller's "
        "machine-checked answer as right, so the label error rate is 0 by construction.")
CONFIG_TEXT = f'''# Who labelled the extracting suite's real documents (docs/formats.md, Label files).
first = "{FIRST}"
second = "{SECOND}"
adjudicator = "{ADJUDICATOR}"
share = {SHARE}
seed = {SEED}
simulated = ["{SECOND}", "{ADJUDICATOR}"]
note = "{NOTE}"
'''


def _wrong(answer, ftype: str, rng: random.Random):
    """A plausible labelling mistake."""
    if answer is None:
        return {"money": "0.00", "number": 0, "count": 0}.get(ftype, "-")
    if rng.random() < 1 / 3:
        return None
    if ftype == "money" and isinstance(answer, str):
        return f"{Decimal(answer) + Decimal('0.01'):.2f}" if "." in answer else answer + "0"
    if ftype == "date" and isinstance(answer, str):
        try:
            d = dt.date.fromisoformat(answer)
            return dt.date(d.year, d.day, d.month).isoformat() if d.day != d.month else (d + dt.timedelta(days=1)).isoformat()
        except ValueError:
            return None
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return answer + 1
    if isinstance(answer, str) and len(answer.split()) > 1:
        return " ".join(answer.split()[:-1])
    if isinstance(answer, str) and answer[-1:].isdigit():
        return answer[:-1] + str((int(answer[-1]) + 1) % 10)
    return None


def write_example_labels(suite_dir: Path, items: list[dict]) -> list[Path]:
    """Write labels/ of the example's real documents; the items' checked answers stay the adjudicated ones."""
    folder = suite_dir / "labels"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*/*.jsonl"):
        old.unlink()
    (folder / CONFIG).write_text(CONFIG_TEXT, encoding="utf-8", newline="\n")
    config = load_config(suite_dir)
    assert config is not None
    real = [i for i in items if i["strata"].get("source") == "real"]
    raw = {i["id"]: i for i in real}
    rows: dict[tuple[str, str], dict[str, dict]] = defaultdict(dict)
    for i in real:
        rows[(i["dataset"], i["half"])][i["id"]] = {f["name"]: f.get("answer") for f in i["fields"]}
    written = write_labels(folder, FIRST, rows)
    written.append(_write_flagged(folder / FIRST / FLAGGED, suite_dir / "real_labels.json"))
    first = read_labels(folder, FIRST)
    sample = draw(config, first, raw)
    written.append(write_sample(config, sample))
    documents = {i["id"]: i["document"]["text"] for i in real}
    written += record_worksheet(config, _second_labeller(worksheet_csv(sample, documents), first), sample).paths
    compared = compare(sample, first, read_labels(folder, SECOND), Labels(ADJUDICATOR))
    sheet = cases(compared, SEED, documents)
    chosen, problems = decisions(_adjudicate(to_csv(sheet), first), compared)
    assert not problems, problems
    written += record(config, Labels(ADJUDICATOR), first, chosen).paths
    final = compare(sample, first, read_labels(folder, SECOND), read_labels(folder, ADJUDICATOR))
    wrong = mismatches(raw, first, final)
    assert not wrong, wrong  # the items' checked answers are the adjudicated ones
    return written


def _second_labeller(worksheet: str, first: Labels) -> str:
    """The simulated second labeller fills in the worksheet: the right answer, or a seeded 8 % mistake."""
    rows = list(csv.DictReader(io.StringIO(worksheet)))
    for row in rows:
        answer = first.answers[(row["item"], row["field"])]
        rng = random.Random(f"{SEED}:{SECOND}:{row['item']}:{row['field']}")
        if rng.random() < WRONG:
            answer = _wrong(answer, row["type"], rng)
        row["answer"] = json.dumps(answer, ensure_ascii=False)
    return _csv(rows)


def _csv(rows: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["item"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def _adjudicate(sheet_csv: str, first: Labels) -> str:
    """The simulated adjudicator fills in the blind sheet: the answer equal to the first labeller's."""
    rows = list(csv.DictReader(io.StringIO(sheet_csv)))
    for row in rows:
        right = canon(first.answers[(row["item"], row["field"])], row["type"])
        row["decision"] = "1" if canon(json.loads(row["answer_1"]), row["type"]) == right else "2"
    return _csv(rows)


def _write_flagged(path: Path, report: Path) -> Path:
    """The SROIE receipts whose published labels failed a machine check (left out of the items)."""
    left = json.loads(report.read_text(encoding="utf-8"))["left_out"] if report.is_file() else []
    lines = [json.dumps({"dataset": e["dataset"], "origin": e["origin"], "reasons": e["reasons"],
                         "attribution": real_sroie.ATTRIBUTION}, ensure_ascii=False, sort_keys=True)
             for e in left if e["origin"].startswith("SROIE") and not any(r.startswith("odd one out") for r in e["reasons"])]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8", newline="\n")
    return path
