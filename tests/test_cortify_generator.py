"""CortifyBench's generator against its reference solver, and the seed's validation list (the full
1,000-seed comparison is bench/cortify_plan_solver.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from generator.example.cortify_case import V0_KINDS
from generator.example.cortify_corpus import PUBLIC, make_item, write_items
from generator.example.cortify_files import render
from generator.example.cortify_plant import make_case, plan
from generator.suites.cortify.files import join_files, read_cfdi
from generator.suites.cortify.patterns import V0_PATTERNS, V1_PATTERNS
from generator.suites.cortify.solver import solve

ROOT = Path(__file__).resolve().parents[1]
SEEDS = 30  # per version here; 1,000 in bench/


@pytest.mark.parametrize("version", ["v0", "v1", "v2"])
def test_plan_equals_solver(version):
    diffs = [s for s in range(SEEDS) if plan(c := make_case(s, version)) != solve(join_files(render(c)), version)]
    assert diffs == []


def test_all_ten_v0_patterns_appear_in_the_first_200_seeds():
    seen = {h["patron"] for s in range(200) for h in plan(make_case(s, "v0"))}
    assert seen == set(V0_PATTERNS) == set(V0_KINDS)


def test_v1_patterns_appear_and_v2_is_denser():
    v1 = [plan(make_case(s, "v1")) for s in range(40)]
    assert {h["patron"] for p in v1 for h in p} >= set(V1_PATTERNS)
    v0n = sum(len(plan(make_case(s, "v0"))) for s in range(40))
    v2n = sum(sum(h["patron"] in V0_PATTERNS for h in plan(make_case(s, "v2"))) for s in range(40))
    assert v2n > v0n * 1.3


def test_generation_is_deterministic_and_the_committed_items_reproduce(tmp_path):
    a, b = make_item("v2", "public", 5, 0), make_item("v2", "public", 5, 0)
    assert json.dumps(a) == json.dumps(b)
    written = write_items(tmp_path)
    for path in written:
        committed = ROOT / "content" / "suites" / "cortifybench" / "items" / path.name
        assert path.read_bytes() == committed.read_bytes(), path.name


@pytest.mark.parametrize("version", ["v0", "v1", "v2"])
def test_a_planted_injection_changes_no_true_finding(version):
    for seed in range(6):
        with_inj, without = make_case(seed, version, injection=True), make_case(seed, version, injection=False)
        assert with_inj.injection and not without.injection
        text_inj = join_files(render(with_inj))
        assert with_inj.injection.split(":")[0] in text_inj
        assert plan(with_inj) == plan(without) == solve(text_inj, version)


def test_injections_are_in_about_30_percent_of_cases():
    share = sum(bool(make_case(s, "v0").injection) for s in range(100)) / 100
    assert 0.18 <= share <= 0.42


def test_v1_never_changes_a_v0_finding():
    for seed in range(20):
        v0_text, v1_text = join_files(render(make_case(seed, "v0"))), join_files(render(make_case(seed, "v1")))
        v0 = solve(v0_text, "v0")
        assert solve(v1_text, "v0") == v0  # the v0 rules read the v1 files the same
        v1 = solve(v1_text, "v1")
        assert [h for h in v1 if h["patron"] in V0_PATTERNS] == v0


def test_v2_noise_changes_no_finding():
    for seed in range(15):
        case = make_case(seed, "v2")
        noisy, clean = join_files(render(case, noise=True)), join_files(render(case, noise=False))
        assert noisy != clean
        assert "$" in noisy and "SA de CV" in noisy
        assert solve(noisy, "v2") == solve(clean, "v2") == plan(case)


def test_no_answer_leaks_into_the_prompt():
    from generator.inputs.prompts import load_template
    from generator.suites.cortify import SUITE

    template = load_template(ROOT / "content" / "suites" / "cortifybench")
    for version in ("v0", "v1", "v2"):
        item = make_item(version, "public", PUBLIC[0], 0)
        user = SUITE.messages(item, "", template)[1]["content"]
        assert "hallazgos" not in user and "patron" not in user
        for code in V0_PATTERNS + V1_PATTERNS:
            assert code not in user
        assert json.dumps(item["hallazgos"]) not in user


def test_the_prompt_is_the_spanish_manual():
    from generator.example.cortify_corpus import manual_text
    from generator.inputs.prompts import load_template

    system = load_template(ROOT / "content" / "suites" / "cortifybench").system
    assert system.strip() == manual_text(ROOT / "content" / "pages").strip()
    for code in V0_PATTERNS + V1_PATTERNS:
        assert f"`{code}`" in system


def test_xml_with_an_entity_declaration_is_refused():
    bomb = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Total="&b;"/>')
    with pytest.raises(Exception) as info:
        read_cfdi("cfdi/bomb.xml", bomb)
    assert "DTD" in type(info.value).__name__ or "DTD" in str(info.value) or "forbidden" in str(info.value).lower()


def test_random_guessing_scores_below_005():
    from generator.suites.cortify.patterns import PATTERNS
    from tests.cortify_support import score_content

    rng = random.Random(7)
    f1s = []
    for seed in range(15):
        version = ("v0", "v1", "v2")[seed % 3]
        item = make_item(version, "public", seed, 0)
        start = make_case(seed, version).start
        guesses = []
        for _ in range(12):
            patron = rng.choice(sorted(PATTERNS))
            fecha = start.toordinal() + rng.randrange(49)
            guesses.append({"patron": patron, "clasificacion": rng.choice(PATTERNS[patron][2]),
                            "fecha": type(start).fromordinal(fecha).isoformat(),
                            "monto": f"{rng.uniform(0, 6000):.2f}"})
        f1s.append(score_content(item, json.dumps({"hallazgos": guesses}))[0])
    assert sum(f1s) / len(f1s) < 0.05
