"""Shared by the site tests: a tiny fixture project (with hostile responses), the example site, and
the tools the browser tests need (Chromium, Node packages, Java). Regenerate the golden site with
`python -m tests.site_support --golden`."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.shared_builds import once

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden" / "site"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
VNU = REPO / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
EPOCH = "1793491200"  # 2026-11-01

SUITE_TOML = """\
name = "mini"
title = "Mini"
version = "0.1"
scorer = "extracting"
reference_date = "2026-10-20"
headline = "index"
headline_half = "private"
comparison = "holm"
min_stratum_items = 2
resamples = 200
strata = ["dataset", "half", "locale"]
description = "A tiny suite for the site tests."

[[datasets]]
id = "receipts"
title = "Receipts"

[[datasets]]
id = "invoices"
title = "Invoices"
"""

MEGABYTE = "lorem ipsum dolor sit amet " * 40000  # about 1 MB of text
HOSTILE = [
    '<script>window.__pwned = 1; fetch("https://evil.example/s")</script>',
    '<img src="https://evil.example/x.png" onerror="window.__pwned = 2">',
    '<a href="javascript:window.__pwned = 3">click me</a> <svg onload="window.__pwned = 4"></svg>',
    '</textarea></pre></script></code></details><!-- an unclosed comment <b>bold</b>',
    '<style>body { display: none }</style><link rel="stylesheet" href="https://evil.example/x.css">',
    '<meta http-equiv="refresh" content="0;url=https://evil.example/"><iframe src="https://evil.example/"></iframe>',
    "\u202e\u0000 right-to-left override and a NUL",
]


def _item(item_id: str, dataset: str, half: str, locale: str) -> dict:
    return {"id": item_id, "dataset": dataset, "half": half, "strata": {"locale": locale},
            "document": {"text": "Total 1,234.56\nDate 14 March 2026\n<script>alert(1)</script>", "locale": locale,
                         "currency": "USD", "reference_date": "2026-10-20"},
            "fields": [{"name": "total", "type": "money", "kind": "printed", "answer": "1234.56"},
                       {"name": "date", "type": "date", "kind": "computed", "answer": "2026-03-14"},
                       {"name": "tax_id", "type": "identifier", "kind": "missing", "answer": None}]}


ITEMS = {
    "receipts.public": [_item("r-pub-1", "receipts", "public", "en-US"),
                        _item("r-pub-2", "receipts", "public", "en-US")],
    "receipts.private": [_item("r-prv-1", "receipts", "private", "en-US"),
                         _item("r-prv-2", "receipts", "private", "de-DE")],
    "invoices.public": [_item("i-pub-1", "invoices", "public", "de-DE"),
                        _item("i-pub-2", "invoices", "public", "en-US")],
    "invoices.private": [_item("i-prv-1", "invoices", "private", "de-DE"),
                         _item("i-prv-2", "invoices", "private", "en-US")],
}


def _record(item: str, content: str | None, latency: float, repeat: int = 0, status: int = 200,
            error: str | None = None) -> dict:
    response = None if error else {
        "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}}
    return {"item": item, "repeat": repeat, "request": {"model": "m", "messages": [{"role": "user", "content": "x"}]},
            "attempts": [{"start": "2026-11-01T00:00:00Z", "status": None if error else status, "error": error,
                          "latency_ms": latency}],
            "response": response, "usage": None if error else {"prompt_tokens": 120, "completion_tokens": 30},
            "latency_ms": None if error else latency}


GOOD = '{"total": 1234.56, "date": "2026-03-14", "tax_id": null}'
SLIP = '{"total": "1234,56", "date": "2026-03-14", "tax_id": "X-1"}'


PROMPT_TOML = """\
system = '''
You read receipts. Answer with one JSON object {{"total": number}} and nothing else.
<script>window.__pwned = 5</script>'''

user = '''
Reference date: {reference_date}. Fields: {field_list}.
<<<
{document}
>>>'''
"""


def prompt_sha256() -> str:
    """The SHA-256 of the fixture's prompt template, as a run.json records it."""
    import tomllib

    from generator.inputs.prompts import Template

    data = tomllib.loads(PROMPT_TOML)
    return Template(data["system"], data["user"]).sha256()


def _runs(huge: bool) -> dict[str, tuple[dict, list[dict]]]:
    ids = sorted(i["id"] for rows in ITEMS.values() for i in rows)
    prices = {"currency": "USD", "input_per_mtok": "1.00", "output_per_mtok": "4.00", "date": "2026-10-15"}
    base = {"format": 1, "suite": "mini", "suite_version": "0.1", "half": "both", "round": "2026-r1",
            "started": "2026-11-01T00:00:00Z", "finished": "2026-11-01T01:00:00Z"}
    runs = {
        "careful-cloud": ({"model": "careful", "provider": "cloud", "hosting": "hosted", "simulated": True,
                           "prices": prices, "description": "Simulated: always right.",
                           "prompt_sha256": prompt_sha256()},
                          [_record(i, GOOD, 400.0 + 10 * k) for k, i in enumerate(ids)]),
        "careful-other": ({"model": "careful", "provider": "other <b>cloud</b>",
                           "hosting": "hosted",
                           "simulated": True, "prices": prices | {"input_per_mtok": "2.00"}, "prompt_sha256": "0" * 64,
                           "description": "Simulated: the same model elsewhere, one timeout."},
                          [_record(i, GOOD if k % 3 else SLIP, 900.0 + k, error="timeout" if k == 5 else None)
                           for k, i in enumerate(ids)]),
        "hostile-cloud": ({"model": "hostile <script>x</script>", "provider": "cloud", "hosting": "hosted",
                           "simulated": True, "prices": prices,
                           "description": "Simulated: answers wrapped in hostile markup."},
                          [_record(i, HOSTILE[k % len(HOSTILE)] + "\n" + (GOOD if k % 2 else SLIP) +
                                   ("\n" + "x" * 200000 if huge and k == 2 else "") +
                                   ("\n" + MEGABYTE if huge and k == 3 else ""),
                                   700.0 + k) for k, i in enumerate(ids)]),
        "rules-local": ({"model": "rules", "provider": "local", "hosting": "self-hosted", "simulated": False,
                         "description": "A baseline."},
                        [_record(i, SLIP if k % 2 else GOOD, 1.0) for k, i in enumerate(ids)]),
    }
    runs["careful-cloud"][1].append(_record(ids[0], GOOD, 410.0, repeat=1))
    return {rid: (base | {"run_id": rid} | meta, records) for rid, (meta, records) in runs.items()}


PAGES = {
    "how-to-read.md": "---\ntitle: How to read this\n---\n\n# How to read this\n\nEach number has a **95% interval**; "
                      "see [the method](method.md).\n",
    "method.md": "---\ntitle: Method\n---\n\n# Method\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\ntally site build\n```\n"
                 "\nBack to [reading](how-to-read.md#how-to-read-this).\n\n## Calls\n\nPairs are called by *Holm's* "
                 "step-down procedure.\n",
}


def make_project(root: Path, huge: bool = False) -> Path:
    """Write the fixture project (content/ and results/) under root; returns root. With `huge`, two
    public items' hostile responses also hold a 200,000-character line and 1 MB of text."""
    suite = root / "content" / "suites" / "mini"
    (suite / "items").mkdir(parents=True)
    (suite / "suite.toml").write_text(SUITE_TOML, encoding="utf-8")
    (suite / "prompt.toml").write_text(PROMPT_TOML, encoding="utf-8")
    for stem, rows in ITEMS.items():
        (suite / "items" / f"{stem}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (root / "content" / "pages").mkdir(parents=True)
    for name, text in PAGES.items():
        (root / "content" / "pages" / name).write_text(text, encoding="utf-8")
    for rid, (meta, records) in _runs(huge).items():
        d = root / "results" / "mini" / rid
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        (d / "responses.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                                           encoding="utf-8")
    return root


def build(root: Path, out: Path, **kw):
    from generator.render.build import build_site

    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        return build_site(root, out, **kw)
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


def _make_fixture_site(root: Path) -> None:
    make_project(root, huge=True)
    build(root, root / "site")


def fixture_site() -> Path:
    """The fixture project (with its huge hostile responses) as a site; built once per test session."""
    return once("site-fixture", _make_fixture_site) / "site"


def copy_example(root: Path, suite: str | None = None) -> Path:
    """A copy of the example project at `root` (made if absent): its content, results, tally.toml (the
    pinned key of its commitments, the plugin folders it names) and those plugin folders; with `suite`,
    only that suite's content and results. Returns `root`."""
    other = [p.name for p in (REPO / "content" / "suites").iterdir() if suite is not None and p.name != suite]
    shutil.copytree(REPO / "content", root / "content", ignore=lambda d, names: other if d.endswith("suites") else [])
    if suite is None:
        shutil.copytree(REPO / "results", root / "results")
    else:
        shutil.copytree(REPO / "results" / suite, root / "results" / suite)
    shutil.copy(REPO / "tally.toml", root / "tally.toml")
    shutil.copytree(REPO / "plugins", root / "plugins")
    return root


def _example_builder(suite: str | None, resamples: int = 1000) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        copy_example(root, suite)
        build(root, root / "site", resamples=resamples, jobs=2)
    return make


_EXAMPLE_BUILDERS = {suite: _example_builder(suite) for suite in ("extracting", "au-bas", None)}


def example_site() -> Path:
    """The example project's extracting suite as a site (1,000 resamples to keep the tests fast), built
    from a copy (other suites are left out: their engines are tested on their own); once per test session."""
    return once("site-example", _EXAMPLE_BUILDERS["extracting"]) / "site"


def aubas_site() -> Path:
    """The example project's au-bas suite (two rounds, anchor runs) as a site, 1,000 resamples, from a
    copy; once per test session."""
    return once("site-aubas", _EXAMPLE_BUILDERS["au-bas"]) / "site"


def full_example_site() -> Path:
    """The whole example project (every suite) as a site, 1,000 resamples, built from a copy; once per
    test session."""
    return once("site-full-example", _EXAMPLE_BUILDERS[None]) / "site"


def versions() -> str:
    import jinja2
    import markdown
    import numpy
    import plotly

    return (f"numpy {numpy.__version__}\nplotly {plotly.__version__}\njinja2 {jinja2.__version__}\n"
            f"markdown {markdown.__version__}\n")


def missing_node() -> str | None:
    return None if shutil.which("node") else "Node.js is not installed (scorer B, the agreement gate)"


def missing_browser() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return "Debian's chromium is not installed (apt-get install chromium)"
    return missing_node()


def regenerate_golden() -> None:
    """Rebuild tests/golden/site from the fixture project (run after an intended change)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        build(root, root / "site")
        shutil.rmtree(GOLDEN.parent, ignore_errors=True)
        GOLDEN.parent.mkdir(parents=True)
        shutil.copytree(root / "site", GOLDEN, ignore=shutil.ignore_patterns("plotly-*"))
        (GOLDEN.parent / "VERSIONS").write_text(versions(), encoding="utf-8")
        from tests.test_site_golden import digests

        (GOLDEN.parent / "SHA256SUMS").write_text(
            "".join(f"{h}  {p}\n" for p, h in sorted(digests(root / "site").items())), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--golden"]:
        regenerate_golden()
        print(f"wrote {GOLDEN}")
    else:
        sys.exit("usage: python -m tests.site_support --golden")


def add_run(root: Path, suite: str, source: str = "rules-local", new: str = "rules-local-2",
            model: str = "rules two") -> None:
    """A new run of `suite`: a copy of run `source` under the id `new`, answered by model `model`."""
    run = root / "results" / suite / source
    shutil.copytree(run, run.with_name(new))
    meta = run.with_name(new) / "run.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"run_id": new, "model": model}), encoding="utf-8")
