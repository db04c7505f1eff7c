"""CortifyBench reproduces its seed: the naive auditor's published table over seeds 0-299, v2's density
and size, the seed's commands (`lineas-base`, `generar`) and the blind private headline."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.example.cortify_corpus import PRIVATE, PUBLIC
from generator.example.cortify_files import render
from generator.example.cortify_plant import make_case, plan
from generator.suites.cortify import SUITE
from generator.suites.cortify.baselines import naive
from generator.suites.cortify.commands import baseline_scores
from generator.suites.cortify.files import join_files

ROOT = Path(__file__).resolve().parents[1]
SEED_TABLE = {"v0": 0.311, "v1": 0.241, "v2": 0.276}  # "Naive baseline: 0.311 (v0), 0.241 (v1), 0.276 (v2)"


@pytest.mark.slow
@pytest.mark.parametrize("version", ["v0", "v1", "v2"])
def test_naive_auditor_reproduces_the_seeds_table_over_seeds_0_to_299(version):
    f1, exact, n = baseline_scores("ingenua", version, range(300))
    assert n == 300 and exact == 0
    assert abs(f1 - SEED_TABLE[version]) <= 0.01, f1


def test_empty_scores_0_and_oracle_1_with_every_case_exact():
    for version in ("v0", "v1", "v2"):
        assert baseline_scores("vacia", version, range(20)) == (0.0, 0, 20)
        assert baseline_scores("oraculo", version, range(20)) == (1.0, 20, 20)


def test_the_naive_auditor_reads_v2_folios_spellings_and_amounts_as_the_manual_says():
    # the seed: v2's noise "changes no finding"; the naive auditor applies its three rules to what the
    # files say, so the way a cook wrote a folio or a supplier changes none of its findings either
    for seed in range(12):
        case = make_case(seed, "v2")
        noisy, clean = join_files(render(case, noise=True)), join_files(render(case, noise=False))
        assert noisy != clean
        assert naive(noisy, "v2") == naive(clean, "v2")
        assert len(naive(noisy, "v2")) < 20


def test_v2_has_about_12_findings_110_rows_and_80_xml_files_per_case():
    cases = [make_case(seed, "v2") for seed in range(60)]
    files = [render(c) for c in cases]
    findings = sum(len(plan(c)) for c in cases) / len(cases)
    xml = sum(sum(name.startswith("cfdi/") for name in f) for f in files) / len(files)
    rows = sum(f["compras.csv"].count("\n") - 1 for f in files) / len(files)
    assert 11 <= findings <= 13, findings
    assert 76 <= xml <= 84, xml
    assert 100 <= rows <= 120, rows


def test_lineas_base_prints_the_seeds_table(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    got = CliRunner().invoke(main, ["cortifybench", "lineas-base", "--n", "3", "--version", "v1"])
    assert got.exit_code == 0, got.output
    assert "| baseline | F1 | exact |" in got.output
    assert "| empty answer | 0.000 | 0/3 |" in got.output and "| oracle | 1.000 | 3/3 |" in got.output
    assert "naive auditor (identical rows, unmatched folios, missing photo)" in got.output


def test_generar_writes_n_cases_as_valid_items(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "datos" / "cortifybench_v2.jsonl"
    got = CliRunner().invoke(main, ["cortifybench", "generar", "--n", "2", "--version", "v2", "--salida", str(out)])
    assert got.exit_code == 0, got.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [i["config"]["seed"] for i in items] == [0, 1] and {i["half"] for i in items} == {"public"}
    for item in items:
        spec, problems = SUITE.parse_item(item)
        assert problems == [] and spec == {"hallazgos": item["hallazgos"]}
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    refused = CliRunner().invoke(main, ["cortifybench", "generar", "--n", "1", "--salida", str(link)])
    assert refused.exit_code == 2 and "not a regular file" in refused.output
    assert not (tmp_path / "elsewhere.jsonl").exists()


def test_the_headline_ranks_on_the_blind_private_seed_range_with_a_stratum_per_version():
    suite = tomllib.loads((ROOT / "content" / "suites" / "cortifybench" / "suite.toml").read_text(encoding="utf-8"))
    assert suite["headline_half"] == "private"
    assert len(PRIVATE) >= suite["min_stratum_items"] and min(PRIVATE) >= 10_000 and max(PUBLIC) < 10_000
    for version in ("v0", "v1", "v2"):
        path = ROOT / "content" / "suites" / "cortifybench" / "items" / f"{version}.private.jsonl"
        seeds = [json.loads(line)["config"]["seed"] for line in path.read_text(encoding="utf-8").splitlines()]
        assert seeds == list(PRIVATE)
        assert not set(seeds) & set(range(700_000, 700_005))  # the seeds revealed with round 2026-cortify-r1
