"""Writes tests/vectors/reading.json: the shared cases of "Reading a reply" (content/pages/methodology.md),
through every built-in suite, written from that section and each suite's rule page (where its JSON text
is), not from a scorer. A content holding a run of more than 1,000 of one character is written as a
list of parts: strings, and [character, count] for a run.

Each case is a reply content and what the rules say it must score as: `same_as`, another content that
must give exactly the same verdict rows (unit, verdict, points, order), or `unparseable`: the rows of
an empty content (which every suite reads as unparseable). Both scorers check every case
(tests/test_reading_vectors.py, scorer-js/test/reading-vectors.test.js).

    python -m tests.reading_vectors
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "vectors" / "reading.json"

EXP20 = "1e99999999999999999999"
NOT_A_NUMBER = '"x"'


def _vectors(name: str) -> dict:
    return json.loads((HERE / "vectors" / f"{name}.json").read_text(encoding="utf-8"))


class Shape:
    """Where a suite reads a number from its reply: `content(number, extra, pre, post)` writes the reply
    with `number` (JSON text) at a number the rules read and `extra` (object members, each followed by
    ", ") in the object that holds it, `pre`/`post` around the JSON text. `level`: that object's nesting
    level (the outer value is level 1). `kind`: "whole" (one whole JSON text), "fenced" (one whole JSON
    text after White_Space and one code fence are removed) or "first" (the first complete object)."""

    def __init__(self, suite: str, item: dict, key: str, level: int, kind: str, right: str, right_e: str,
                 write: Callable[[str, str], str], wrap: Callable[[str], str] = lambda j: j):
        self.suite, self.item, self.key, self.level, self.kind = suite, item, key, level, kind
        self.right, self.right_e, self.write, self.wrap = right, right_e, write, wrap

    def content(self, number: str | None = None, extra: str = "", pre: str = "", post: str = "") -> str:
        return self.wrap(pre + self.write(self.right if number is None else number, extra) + post)


def _extracting() -> Shape:
    item = {"id": "x", "document": {"locale": "en-US"},
            "fields": [{"name": "total", "type": "money", "kind": "printed", "answer": "12.00"}]}
    return Shape("extracting", item, "total", 1, "first", "12.00", "1.2e0000001",
                 lambda n, x: '{' + x + '"total": ' + n + '}')


def _rabench() -> Shape:
    case = _vectors("ra-bench")["cases"][0]
    answer = json.loads(case["record"]["response"]["choices"][0]["message"]["content"])
    answer.pop("risk")
    body = json.dumps(answer, ensure_ascii=False)[1:-1]
    return Shape("ra-bench", case["item"], "risk", 1, "first", "0.1", "1e-0000001",
                 lambda n, x: '{' + x + body + ', "risk": ' + n + '}')


def _ledgershield() -> Shape:
    case = next(c for c in _vectors("ledgershield")["cases"] if c["id"] == "TLY-A-001:careful")
    episode = json.loads(case["record"]["response"]["choices"][0]["message"]["content"])
    final = episode["final_submission"]
    episode["final_submission"] = {"@extra@": 0, **{k: ("@number@" if k == "confidence" else v) for k, v in final.items()}}
    text = json.dumps(episode, ensure_ascii=False)
    assert text.count('"@extra@": 0, ') == 1 and text.count('"@number@"') == 1
    return Shape("ledgershield", case["item"], "confidence", 2, "whole", "0.95", "9.5e-0000001",
                 lambda n, x: text.replace('"@extra@": 0, ', x).replace('"@number@"', n))


def _cortify(zero: bool) -> Shape:
    case = _vectors("cortifybench")["cases"][0]
    item = copy.deepcopy(case["item"])
    finding = dict(item["hallazgos"][0], monto="0.00") if zero else item["hallazgos"][0]
    item["hallazgos"] = [finding]
    head = ", ".join(f'"{k}": {json.dumps(finding[k])}' for k in ("patron", "clasificacion", "fecha"))
    right, right_e = ("0", "0e0000005") if zero else ("1400.00", "1.4e0000003")
    return Shape("cortifybench", item, "monto", 3, "fenced", right, right_e,
                 lambda n, x: '{"hallazgos": [{' + x + head + ', "monto": ' + n + '}]}')


def _aubas() -> Shape:
    data = _vectors("au-bas")
    shared = data["ledgers"]["main"]
    item = {"id": "x", "dataset": "vectors", "half": "public", "strata": {}, "document": {"text": ""},
            "ledger": shared["ledger"], "key": shared["key"]}
    content = data["cases"][0]["content"]
    answer = json.loads(content[content.index("<answer>") + 8:content.index("</answer>")])
    answer.pop("G1")
    body = json.dumps(answer, ensure_ascii=False)[1:-1]
    return Shape("au-bas", item, "G1", 1, "fenced", "110.00", "1.1e0000002",
                 lambda n, x: '{' + x + '"G1": ' + n + ', ' + body + '}', lambda j: "<answer>" + j + "</answer>")


def _nest(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def packed(text: str) -> str | list:
    """A content as written in the file: itself, or when it holds a run of more than 1,000 of one
    character, a list of parts, each a string or [character, count] (the run)."""
    parts: list = []
    k = 0
    while k < len(text):
        j = k
        while j < len(text) and text[j] == text[k]:
            j += 1
        if j - k > 1000:
            parts.append([text[k], j - k])
        elif parts and isinstance(parts[-1], str):
            parts[-1] += text[k:j]
        else:
            parts.append(text[k:j])
        k = j
    return parts[0] if len(parts) == 1 and isinstance(parts[0], str) else parts


def unpacked(content: str | list) -> str:
    return content if isinstance(content, str) else "".join(p if isinstance(p, str) else p[0] * p[1] for p in content)


def cases_of(name: str, s: Shape) -> list[dict]:
    bad = "unparseable"
    whole = s.kind in ("whole", "fenced")
    base = s.content()
    out: list[tuple[str, str, str, object]] = [
        ("exp20-unread", "a twenty-digit exponent under a key no rule reads changes nothing (rule 3)",
         s.content(extra=f'"zz": {EXP20}, '), base),
        ("exp20-read", "a twenty-digit exponent where a number is read: out of range, no number (rule 3)",
         s.content(EXP20), s.content(NOT_A_NUMBER)),
        ("exp20-negative", "a negative twenty-digit exponent: out of range (rule 3)",
         s.content("1e-99999999999999999999"), s.content(NOT_A_NUMBER)),
        ("exp-1000001", "0e1000001 is out of range although its value would be 0 (rule 3)",
         s.content("0e1000001"), s.content(NOT_A_NUMBER)),
        ("exp-1000000", "0e1000000 is in range: the value 0 (rule 3)", s.content("0e1000000"), s.content("0")),
        ("exp-minus-1000001", "1e-1000001 is out of range (rule 3)", s.content("1e-1000001"), s.content(NOT_A_NUMBER)),
        ("exp-minus-1000000", "0.0e-1000000 is in range: the value 0 (rule 3)", s.content("0.0e-1000000"),
         s.content("0")),
        ("exp-leading-zeros", "leading zeros of an exponent do not count (rule 3)", s.content(s.right_e), base),
        ("exp-leading-zeros-out", "1e00000001000001: leading zeros aside, 1,000,001: out of range (rule 3)",
         s.content("1e00000001000001"), s.content(NOT_A_NUMBER)),
        ("nesting-100", "arrays and objects nested exactly 100 levels are read (rule 4)",
         s.content(extra=f'"zz": {_nest(100 - s.level)}, '), base),
        ("nesting-101", "101 levels: not accepted (rule 4)", s.content(extra=f'"zz": {_nest(101 - s.level)}, '), bad),
        ("nesting-3000", "3,000 levels: not accepted, no recursion limit reached (rule 4)",
         s.content(extra=f'"zz": {_nest(3000)}, '), bad),
        ("nesting-100000", "100,000 levels: not accepted, no recursion limit reached (rule 4)",
         s.content(extra=f'"zz": {_nest(100000)}, '), bad),
        ("nesting-101-repeated-key", "101 levels under a key repeated later: not accepted, the depth is counted on the "
         "text (rules 4 and 5)", s.content(extra=f'"zz": {_nest(101 - s.level)}, "zz": 0, '), bad),
        ("nesting-101-read-key-repeated", "101 levels under the key read, its last value right: not accepted (rules 4 "
         "and 5)", s.content(extra=f'"{s.key}": {_nest(101 - s.level)}, '), bad),
        ("nesting-100-repeated-key", "100 levels under a key repeated later are read (rules 4 and 5)",
         s.content(extra=f'"{s.key}": {_nest(100 - s.level)}, '), base),
        ("nesting-brackets-in-strings", "brackets inside strings do not nest (rule 4)",
         s.content(extra='"zz": "' + "[{" * 300 + '", '), base),
        ("repeated-key-last", "a repeated key keeps its last value (rule 5)",
         s.content(extra=f'"{s.key}": {NOT_A_NUMBER}, '), base),
        ("repeated-key-last-bad", "a repeated key keeps its last value, the wrong one here (rule 5)",
         s.content(NOT_A_NUMBER, extra=f'"{s.key}": {s.right}, '), s.content(NOT_A_NUMBER)),
        ("lone-surrogate", "an escaped lone surrogate is a code point like another (rule 6)",
         s.content(extra='"zz": "\\ud800 \\udfff", '), base),
        ("surrogate-pair", "an escaped surrogate pair is one character (rule 6)",
         s.content(extra='"zz": "\\ud83d\\ude00", '), base),
        ("nan", "NaN is not JSON (rule 1)", s.content(extra='"zz": NaN, '), bad),
        ("infinity", "-Infinity is not JSON (rule 1)", s.content(extra='"zz": -Infinity, '), bad),
        ("bom", "a byte order mark is not JSON whitespace (rule 1)", s.content(pre="\ufeff"), bad if whole else base),
        ("nbsp", "U+00A0 is White_Space, not JSON whitespace (rules 1 and 7)", s.content(pre="\u00a0"),
         bad if s.kind == "whole" else base),
        ("fence-json", "a code fence with `json` (rule 7)", s.content(pre="```json\n", post="\n```"),
         bad if s.kind == "whole" else base),
        ("fence-plain", "a code fence without a tag (rule 7)", s.content(pre="```\n", post="\n```"),
         bad if s.kind == "whole" else base),
        ("fence-upper", "```JSON leaves text that is not JSON (rule 7)", s.content(pre="```JSON\n", post="\n```"),
         bad if whole else base),
        ("prose-after", "prose after the JSON (rule 7)", s.content(post=" Done."), bad if whole else base),
        ("prose-before", "prose before the JSON (rule 7)", s.content(pre="Answer: "), bad if whole else base),
        ("trailing-comma", "a trailing comma is not JSON (rule 1)", s.content(extra='"zz": [1,], '), bad),
    ]
    return [{"id": f"{name}:{cid}", "suite": s.suite, "item": name, "note": note, "content": packed(content),
             **({"unparseable": True} if want == bad else {"same_as": want})}
            for cid, note, content, want in out]


def build() -> dict:
    shapes = {"extracting": _extracting(), "ra-bench": _rabench(), "ledgershield": _ledgershield(),
              "cortifybench": _cortify(False), "cortifybench-zero": _cortify(True), "au-bas": _aubas()}
    cases = [c for name, s in shapes.items() for c in cases_of(name, s)]
    # the sanity of every shape: its right answer is not read as unparseable
    return {"rules": "content/pages/methodology.md#reading-a-reply", "note": __doc__.split("\n\n")[1].replace("\n", " "),
            "items": {name: {"suite": s.suite, "item": s.item, "right": s.content()} for name, s in shapes.items()},
            "cases": cases}


if __name__ == "__main__":
    doc = build()
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(doc['cases'])} cases)")
