"""Fuzz both scorers with random and mutated replies and item files (default 100,000 cases), through one
Node process: 0 crashes and 0 disagreements expected.

    python bench/fuzz.py [--cases 100000] [--seed 1] [--batch 2000]

A case is one of: an extracting reply (the adversarial generator's, then mutated: out-of-range and
huge exponents, deep nesting, code points), an au-bas reply (the differential test's, mutated the
same way), or an item (a shared item case of tests/vectors/items.json, mutated) that both scorers'
item checks must accept or reject alike. Text cases carry 11 consecutive code points each, walking
every code point of Unicode (lone surrogates included) across 100,000 cases. A crash is scorer A
raising or scorer B answering with an error line. Prints the counts and the first failures.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.inputs.content import Item
from generator.parse.response import read_outcome
from generator.pipeline.crosscheck import ScorerBProcess
from generator.suites.aubas import SUITE as AUBAS
from generator.suites.extracting import SUITE as EXTRACTING
from tests.adversarial import make_case
from tests.test_differential_aubas import ITEMS as AU_ITEMS
from tests.test_differential_aubas import _reply as au_reply

SUITES = {"extracting": EXTRACTING, "au-bas": AUBAS}
ITEM_CASES = json.loads((ROOT / "tests" / "vectors" / "items.json").read_text(encoding="utf-8"))["cases"]
NUMBERS = ("0e1000000000000000000", "1.1e99999999999999999999", "1e1000000", "1e1000001", "-0E-1000001",
           "12.00e0", "1e-0000000000000000000000000002", "9" * 400, "1" + "0" * 30 + "e-30")


def _codepoints(k: int) -> str:
    return "".join(chr((k * 11 + j) % 0x110000) for j in range(11))


def _mutate_text(rnd: random.Random, text: str, k: int) -> str:
    """Splice an odd number, deep brackets or the case's code points into a JSON text."""
    roll = rnd.random()
    if roll < 0.3:
        return text.replace("12", rnd.choice(NUMBERS), 1) if "12" in text else text + rnd.choice(NUMBERS)
    if roll < 0.45:
        depth = rnd.choice((98, 99, 100, 101, 1000, 5000))
        at = text.find("{")
        return text if at < 0 else text[:at + 1] + '"deep": ' + "[" * depth + "]" * depth + ", " + text[at + 1:]
    if roll < 0.7:
        at = rnd.randint(0, len(text))
        return text[:at] + _codepoints(k) + text[at:]
    if roll < 0.85:
        return text.replace('"', '"' + _codepoints(k), 1)
    return text


def _extracting(rnd: random.Random, k: int) -> tuple[dict, dict]:
    item, record = make_case(rnd, k)
    message = record["response"]["choices"][0]["message"]
    message["content"] = _mutate_text(rnd, message["content"], k)
    field = item["fields"][0]
    if field["type"] in ("text", "identifier") and field["answer"] is not None and rnd.random() < 0.5:
        text = _codepoints(k).replace("\ud800", "")  # a checked answer is valid UTF-8
        if text.strip() and all(not 0xD800 <= ord(c) <= 0xDFFF for c in text):
            field["answer"] = text
            message["content"] = json.dumps({field["name"]: text.upper() if rnd.random() < 0.5 else text},
                                            ensure_ascii=rnd.random() < 0.5)
    return item, record


def _aubas(rnd: random.Random, k: int) -> tuple[dict, dict]:
    item = rnd.choice(AU_ITEMS)
    content = au_reply(rnd, item)
    a, b = content.rfind("<answer>"), content.rfind("</answer>")
    if 0 <= a < b:
        content = content[:a + 8] + _mutate_text(rnd, content[a + 8:b], k) + content[b:]
    record = {"item": item["id"], "repeat": 0, "attempts": [{"status": 200, "error": None}],
              "response": {"choices": [{"message": {"content": content}}]}}
    return item, record


def _mutate_item(rnd: random.Random, k: int) -> tuple[str, dict]:
    case = rnd.choice(ITEM_CASES)
    item = copy.deepcopy(case["item"])
    for _ in range(rnd.randint(0, 3)):
        targets = item["ledger"]["rows"] if case["suite"] == "au-bas" else item["fields"]
        target = rnd.choice(targets) if targets else None
        if not isinstance(target, dict) or not target:
            continue
        key = rnd.choice(sorted(target))
        target[key] = rnd.choice((None, 0, 3, 3.0, True, "", " ", "-55.00", "55.001", "1.1e2", "20260703",
                                  "2026-W27-5", "2026-07-03", "0000-01-01", "EUR", "pt-BR", _codepoints(k), [], {},
                                  "110.00", "12.5", "INV-1", "sale", "consulting", "12345678901"))
    if rnd.random() < 0.1:
        item["document"]["locale"] = rnd.choice(("pt-BR", "en-US", "de-DE", "fr-FR", "xx", ""))
    return case["suite"], item


def _score_a(suite, item: dict, record: dict) -> list[tuple]:
    spec, problems = suite.parse_item(item)
    assert not problems, problems
    obj = Item(item["id"], "d", "public", {}, item["document"], spec)
    rows = suite.score(obj, read_outcome(record, suite.extract_answer, suite.answer_what), "r", 0)
    return [(r.unit, r.verdict, r.points, r.order) for r in rows]


def _score_b(process: ScorerBProcess, lines: list[bytes]) -> list[object]:
    """ScorerBProcess.score, read with json (scorer B writes a lone surrogate as a \\u escape, which
    orjson refuses)."""
    writer = threading.Thread(target=process._write, args=(lines,), daemon=True)
    writer.start()
    out = [json.loads(process._proc.stdout.readline() or b"null") for _ in lines]
    writer.join()
    return out


def run_batch(process: ScorerBProcess, rnd: random.Random, start: int, n: int, stats: dict, found: list) -> None:
    cases, lines = [], []
    for k in range(start, start + n):
        roll = rnd.random()
        if roll < 0.45:
            item, record = _extracting(rnd, k)
            cases.append(("score", "extracting", item, record))
        elif roll < 0.8:
            item, record = _aubas(rnd, k)
            cases.append(("score", "au-bas", item, record))
        else:
            suite, item = _mutate_item(rnd, k)
            cases.append(("check", suite, item, None))
    for kind, suite, item, record in cases:
        if kind == "score":
            request = {"scorer": suite, "item": item, "record": record, "run": "r", "repeat": 0}
        else:
            request = {"scorer": suite, "check": item}
        lines.append(json.dumps(request).encode())  # ASCII: lone surrogates as \u escapes
    for (kind, suite, item, record), out_b in zip(cases, _score_b(process, lines)):
        stats[kind] += 1
        try:
            if kind == "score":
                a: object = _score_a(SUITES[suite], item, record)
                b: object = [(r["unit"], r["verdict"], r["points"], r["order"]) for r in out_b] \
                    if isinstance(out_b, list) else out_b
            else:
                a = not SUITES[suite].parse_item(item)[1]
                b = not out_b["problems"] if isinstance(out_b, dict) and "problems" in out_b else out_b
        except Exception as exc:  # noqa: BLE001 - a crash of scorer A is what is counted
            stats["crash_a"] += 1
            found.append({"crash": "A", "error": repr(exc)[:300], "suite": suite, "item": item, "record": record})
            continue
        if isinstance(out_b, dict) and "error" in out_b:
            stats["crash_b"] += 1
            found.append({"crash": "B", "error": out_b["error"][:300], "suite": suite})
        elif a != b:
            stats["disagree"] += 1
            found.append({"kind": kind, "suite": suite, "a": a, "b": b, "item": item, "record": record})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=2000)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    stats = {"score": 0, "check": 0, "crash_a": 0, "crash_b": 0, "disagree": 0}
    found: list[dict] = []
    start = time.perf_counter()
    with ScorerBProcess(list(SUITES.values())) as process:
        done = 0
        while done < args.cases:
            n = min(args.batch, args.cases - done)
            run_batch(process, rnd, done, n, stats, found)
            done += n
            print(f"\r{done:,} cases, {stats['crash_a'] + stats['crash_b']} crashes, {stats['disagree']} disagreements",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.cases:,} cases (seed {args.seed}) in {time.perf_counter() - start:.0f} s: {stats['score']:,} replies, "
          f"{stats['check']:,} items; crashes: scorer A {stats['crash_a']}, scorer B {stats['crash_b']}; "
          f"disagreements: {stats['disagree']}")
    for f in found[:10]:
        print(json.dumps(f, ensure_ascii=True, default=str)[:1500])
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
