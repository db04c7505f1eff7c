"""The example corpus of CortifyBench: per version, public seeds and a private seed range; the prompt
is written from the Spanish audit manual (content/pages/manual-cortifybench.md), its one source."""

from __future__ import annotations

import json
from pathlib import Path

from ..suites.cortify.files import join_files
from .cortify_files import render
from .cortify_plant import make_case, plan

VERSIONS = ("v0", "v1", "v2")
PUBLIC = range(0, 12)  # public seeds
PRIVATE = range(800_000, 800_012)  # the private seed range (a blind test set; 700,000-700,004 were revealed)
MANUAL_START = "## Archivos"


def _band(n: int) -> str:
    return "1-5" if n <= 5 else "6-10" if n <= 10 else "11-15" if n <= 15 else "16+"


def make_item(version: str, half: str, seed: int, k: int) -> dict:
    case = make_case(seed, version)
    findings = plan(case)
    tag = "pub" if half == "public" else "prv"
    return {"id": f"cortify-{version}-{tag}-{k + 1:03d}", "dataset": version, "half": half,
            "strata": {"injection": "si" if case.injection else "no", "findings": _band(len(findings))},
            "document": {"text": join_files(render(case)), "locale": "es-MX"},
            "hallazgos": findings, "config": {"seed": seed, "version": version}}


def write_items(items_dir: Path) -> list[Path]:
    items_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for version in VERSIONS:
        for half, seeds in (("public", PUBLIC), ("private", PRIVATE)):
            path = items_dir / f"{version}.{half}.jsonl"
            rows = [make_item(version, half, s, k) for k, s in enumerate(seeds)]
            path.write_text("".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows),
                            encoding="utf-8")
            written.append(path)
    return written


def manual_text(pages: Path) -> str:
    text = (pages / "manual-cortifybench.md").read_text(encoding="utf-8")
    return "Eres auditor de compras de un restaurante en México. Aplica este manual.\n\n" \
        + text[text.index(MANUAL_START):].strip() + "\n"


def write_prompt(suite_dir: Path, pages: Path) -> Path:
    system = manual_text(pages)
    body = ("# The prompt of CortifyBench, written by `tally example generate` from the Spanish audit manual\n"
            "# (content/pages/manual-cortifybench.md). {archivos} is filled in per item.\n\n"
            f"system = '''\n{system}'''\n\nuser = '''\nArchivos del restaurante:\n\n{{archivos}}'''\n")
    path = suite_dir / "prompt.toml"
    path.write_text(body, encoding="utf-8")
    return path
