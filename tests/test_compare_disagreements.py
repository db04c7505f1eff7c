"""The compare page's verdict patterns (render/pages/compare.py), read a bundle of items at a time from
each run (RunScore.first_repeat), are the patterns the rule gives when read item by item from every run's
verdict rows: first repeat only, units and verdicts numbered in order of first appearance (items in id
order, runs in the suite's order), pattern 0 for no response."""

from __future__ import annotations

import json

from generator.render.gather import gather
from generator.render.pages import compare
from generator.render.pages.items import Reader
from tests.site_support import add_run, make_project


def reference(sd, runs: list[str]) -> tuple[list, dict, list]:
    public = sorted(i.id for i in sd.public_items)
    out = {r: [0] * len(public) for r in runs}
    verdicts: list[str] = []
    items = []
    reader = Reader(sd)
    for k, item in enumerate(public):
        units: list[str] = []
        patterns: list[list[int]] = [[]]
        for run, rows in reader.rows(item):
            if run not in out:
                continue
            pattern: list[int] = []
            for v in rows:
                if v.repeat == 0:
                    units += [] if v.unit in units else [v.unit]
                    verdicts += [] if v.verdict in verdicts else [v.verdict]
                    pattern += (units.index(v.unit), verdicts.index(v.verdict))
            patterns += [] if pattern in patterns else [pattern]
            out[run][k] = patterns.index(pattern)
        items.append((item, units, patterns))
    reader.close()
    return items, out, verdicts


def test_patterns_read_by_bundle_are_the_rule_s(tmp_path, monkeypatch):
    root = make_project(tmp_path / "p")
    add_run(root, "mini", new="rules-local-2", model="rules two")
    # a run whose first repeat of one public item is missing: that item's rows are of repeat 1 only
    run = root / "results" / "mini" / "rules-local-2" / "responses.jsonl"
    lines = run.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    lines = [json.dumps(first | {"repeat": 1})] + lines[1:]
    run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(compare, "BUNDLE", 2)  # bundles smaller than the items
    site = gather(root, draft=True, resamples=20)
    sd = next(s for s in site.suites if s.suite.name == "mini")
    runs = [r.run.id for r in sd.result.runs][::-1][:-1]  # not every run, in another order
    got, by_run = compare._disagreements(sd, runs, "suites/mini/compare.html")
    items, want, verdicts = reference(sd, runs)
    assert by_run == want and got["verdicts"] == verdicts
    assert [(i[0], [got["units"][u] for u in i[2]], i[3]) for i in got["list"]] == items
    assert len(items) > compare.BUNDLE and any(p != [0] * len(p) for p in want.values())
