"""How close Tally's LedgerShield grade comes to the reference environment's own `final_score`.

    python bench/ledgershield_reference.py --reference CHECKOUT [--python PY] [--show N] [--json OUT]
                                           [--one-environment]

CHECKOUT is a work tree of LedgerShield's reference environment (the user's own checkout; nothing
of it is copied into the project) and PY a Python that can import it (its dependencies installed;
by default the one running this bench). In a temporary folder outside the project, the bench
plays scripted agents (`ledgershield_reference_agents.py`: careful, hasty, yielding, empty,
sloppy) through the reference environment on the checkout's own fixture cases, one episode file
per (behaviour, case) as the reference harness writes them (each episode in a fresh environment;
with --one-environment one environment per behaviour serves all its cases, so LedgerShield's
state kept across episodes, its institutional loss and its authority gate, carries over);
imports each behaviour's files (one run each: the import orders them by the case counters the
reference recorded and stores in each the state the earlier ones left, rule page section 12) with
`tally import --suite ledgershield --cases CHECKOUT/server/fixtures/cases.json` into a temporary
project; rescores every stored episode with scorer A; and prints how many grades are within 0.01
and 0.05 of the reference's `final_score`, the largest difference, and, per dimension, how many
episodes differ from the reference's `score_breakdown` (by more than 0.0001). A slow check, not
a test: it needs the reference and runs for about a minute.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.suites.ledgershield.episode_view import BREAKDOWN_KEYS  # noqa: E402
from generator.suites.ledgershield.scoring import extract_answer, grade  # noqa: E402

AGENTS = Path(__file__).with_name("ledgershield_reference_agents.py")
PROVIDER = "lsref"
BEHAVIOURS = ("careful", "hasty", "yielding", "empty", "sloppy")


def _project(folder: Path) -> Path:
    """A temporary project holding the ledgershield suite and a provider serving the scripted agents."""
    project = folder / "project"
    (project / "content" / "suites").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / "suites" / "ledgershield", project / "content" / "suites" / "ledgershield")
    items = project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl"
    items.unlink(missing_ok=True)
    lines = [f'[providers.{PROVIDER}]', 'title = "Scripted agents of the reference bench"',
             'base_url = "http://127.0.0.1:9/v1"', 'hosting = "self-hosted"', "concurrency = 1", "timeout_s = 180", ""]
    for behaviour in BEHAVIOURS:
        lines += [f"[providers.{PROVIDER}.models.script-{behaviour}]", "simulated = true", ""]
    (project / "content" / "providers.toml").write_text("\n".join(lines), encoding="utf-8")
    return project


def _import(project: Path, files: list[Path], model: str, cases: Path) -> None:
    cmd = [sys.executable, "-c", "from generator.cli import main; main()", "import", *map(str, files), "--suite", "ledgershield",
           "--model", model, "--provider", PROVIDER, "--root", str(project), "--cases", str(cases)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    if done.returncode != 0:
        raise SystemExit(f"tally import failed for {model}:\n{done.stdout}\n{done.stderr}")


def _rows(project: Path, episodes: Path) -> list[dict]:
    items_path = project / "content" / "suites" / "ledgershield" / "items" / "reference.public.jsonl"
    items = {it["id"]: it for it in map(json.loads, items_path.read_text(encoding="utf-8").splitlines())}
    rows = []
    for behaviour in BEHAVIOURS:
        run = project / "results" / "ledgershield" / f"script-{behaviour}-{PROVIDER}" / "responses.jsonl"
        for record in map(json.loads, run.read_text(encoding="utf-8").splitlines()):
            content = record["response"]["choices"][0]["message"]["content"]
            orders = {u: o for u, _k, _v, _r, o in grade(items[record["item"]], extract_answer(content))}
            source = json.loads((episodes / behaviour / f"{record['item']}.json").read_text(encoding="utf-8"))
            info = source.get("final_info") or {}
            breakdown = info.get("score_breakdown") or {}
            dims = {}
            for key, dim in BREAKDOWN_KEYS.items():
                if key in breakdown and f"dim:{dim}" in orders:
                    dims[dim] = (float(breakdown[key]), int(orders[f"dim:{dim}"]) / 10000)
            rows.append({"model": behaviour, "case": record["item"], "ref": float(info.get("final_score", 0.0)),
                         "tally": int(orders["score"]) / 10**6, "dims": dims,
                         "ref_class": breakdown.get("result_class"), "tally_class": orders.get("cap:result_class")})
    return rows


def report(rows: list[dict], show: int) -> str:
    diffs = [abs(Fraction(str(r["ref"])) - Fraction(str(r["tally"]))) for r in rows]
    n = len(rows)
    out = [f"episodes: {n}",
           f"within 0.01: {sum(d <= Fraction(1, 100) for d in diffs)} of {n}",
           f"within 0.05: {sum(d <= Fraction(5, 100) for d in diffs)} of {n}",
           f"largest difference: {float(max(diffs, default=0)):.4f}", "",
           "per dimension: episodes where Tally's grade differs from the reference's score_breakdown (> 0.0001)"]
    differ: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for r in rows:
        for dim, (theirs, ours) in r["dims"].items():
            seen[dim] += 1
            differ[dim] += abs(theirs - ours) > 0.00011
    for dim in sorted(seen):
        out.append(f"  {dim:15} {differ[dim]:3} of {seen[dim]}")
    out += ["", f"largest {show} differences (behaviour, case, reference, Tally, reference class / Tally class):"]
    for r, d in sorted(zip(rows, diffs), key=lambda x: -x[1])[:show]:
        if d == 0:
            break
        off = ", ".join(f"{k} {a:.4f}/{b:.4f}" for k, (a, b) in r["dims"].items() if abs(a - b) > 0.00011)
        out.append(f"  {r['model']:9} {r['case']:11} {r['ref']:.4f} {r['tally']:.4f} {float(d):.4f} "
                   f"{r['ref_class']} / {r['tally_class']}  {off}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", type=Path, required=True, help="a work tree of LedgerShield's reference")
    ap.add_argument("--python", default=sys.executable, help="a Python that can import the reference")
    ap.add_argument("--show", type=int, default=25, help="how many of the largest differences to list")
    ap.add_argument("--json", type=Path, help="also write every row here")
    ap.add_argument("--one-environment", action="store_true",
                    help="one reference environment per behaviour for all its cases (its state carries over)")
    args = ap.parse_args()
    reference = args.reference.resolve()
    cases = reference / "server" / "fixtures" / "cases.json"
    if not cases.is_file():
        raise SystemExit(f"{cases}: not found (is --reference a checkout of LedgerShield's reference?)")
    with tempfile.TemporaryDirectory(prefix="ls-reference-bench-") as tmp:
        folder = Path(tmp)
        episodes = folder / "episodes"
        extra = ["--one-environment"] if args.one_environment else []
        played = subprocess.run([args.python, str(AGENTS), str(reference), str(episodes), *extra], cwd=folder,
                                capture_output=True, text=True)
        if played.returncode != 0:
            raise SystemExit(f"the reference environment failed:\n{played.stderr[-4000:]}")
        project = _project(folder)
        for behaviour in BEHAVIOURS:
            _import(project, sorted((episodes / behaviour).glob("*.json")), f"script-{behaviour}", cases)
        rows = _rows(project, episodes)
    print(report(rows, args.show))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
