"""`tally run` end to end: jobs, run.json, progress, anchors, repeats, rescoring the stored run."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_harness_support import LiveServer, harness_project, records  # noqa: F401

from generator.cli import main
from generator.example.simmodels import Faults
from generator.harness.commands import provider, run
from generator.harness.plan import PlanError, load_plan, sample_ids
from generator.harness.providers import ProviderError, load_providers


def invoke(command, args: list[str]):
    return CliRunner().invoke(command, args, catch_exceptions=False)


@pytest.mark.slow
def test_run_stores_every_job_once_with_its_metadata(harness_project):
    root = harness_project
    args = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--limit", "20",
            "--repeats", "3", "--repeat-sample", "every:5", "--anchors", "--round", "2026-r9"]
    faults = Faults(rate_limit=0.1, server_error=0.05)
    with LiveServer(root, faults=faults, scale=0.0) as server:
        result = invoke(run, [*args, "--base-url", server.url()])
        again = invoke(run, [*args, "--base-url", server.url()])
    assert result.exit_code == 0, result.output
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    meta = json.loads((run_dir / "run.json").read_text())
    plan = load_plan(root, "extracting", "public")
    first20 = [i["id"] for i in plan.items[:20]]
    expected = {(a, 0) for a in plan.anchors} | {(i, 0) for i in first20} | \
        {(i, r) for i in sample_ids(first20, "every:5") for r in (1, 2)}
    got = records(run_dir)
    assert len(got) == len(expected) == len({(r["item"], r["repeat"]) for r in got})
    assert {(r["item"], r["repeat"]) for r in got} == expected
    assert {r["item"] for r in got[: len(plan.anchors) // 2]} <= set(plan.anchors)  # the block runs first
    assert meta["anchors"] == plan.anchors and len(plan.anchors) == 12 and meta["half"] == "public"
    assert meta["prices"] == {"currency": "USD", "input_per_mtok": "1.00", "output_per_mtok": "2.00",
                              "date": "2026-11-01"}
    assert meta["prompt_sha256"] == plan.template.sha256() and meta["simulated"] is True
    assert meta["round"] == "2026-r9" and meta["started"] <= meta["finished"]
    assert "done" in result.stderr and "retried" in result.stderr and "failed" in result.stderr
    assert f"0 call(s) stored, {len(expected)} already stored" in again.output
    for r in got:
        assert r["request"]["model"] == "clean-1" and r["request"]["temperature"] == 0
        assert r["latency_ms"] == r["attempts"][-1]["latency_ms"]
    assert any(len(r["attempts"]) > 1 for r in got)
    rescored = invoke(main, ["rescore", "--root", str(root), "-q", "--out", str(root / "out")])
    assert rescored.exit_code == 0, rescored.output


def test_resuming_with_other_settings_is_refused(harness_project):
    root = harness_project
    base = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--limit", "3", "-q"]
    with LiveServer(root, scale=0.0) as server:
        assert invoke(run, [*base, "--base-url", server.url()]).exit_code == 0
        other = invoke(run, [*base, "--base-url", server.url(), "--half", "both"])
    assert other.exit_code == 2 and "other settings (half differ)" in other.stderr


def test_unknown_provider_model_or_run_id_is_an_error(harness_project):
    root = harness_project
    base = ["extracting", "--root", str(root), "-q"]
    r = invoke(run, [*base, "--model", "clean-1", "--provider", "nope"])
    assert r.exit_code == 2 and "unknown provider 'nope'" in r.stderr
    r = invoke(run, [*base, "--model", "gpt-x", "--provider", "testprov"])
    assert r.exit_code == 2 and "does not serve model 'gpt-x'" in r.stderr
    r = invoke(run, [*base, "--model", "clean-1", "--provider", "testprov", "--run-id", "../up"])
    assert r.exit_code == 2 and "not a safe identifier" in r.stderr
    r = invoke(run, [*base, "--model", "clean-1", "--provider", "keyed"])
    assert r.exit_code == 2 and "TALLY_TEST_API_KEY" in r.stderr


def test_repeat_samples():
    ids = [f"a-{i:03d}" for i in range(25)]
    assert sample_ids(ids, "every:10") == ["a-000", "a-010", "a-020"]
    assert sample_ids(ids, "all") == ids and sample_ids(ids, "none") == []
    with pytest.raises(PlanError):
        sample_ids(ids, "some")


GOOD_PROVIDER = """
[providers.p]
base_url = "http://127.0.0.1:9/v1"
hosting = "hosted"
prices_date = "2026-11-01"
{extra}
[providers.p.models.m]
input_per_mtok = "1.00"
output_per_mtok = "2.00"
"""


@pytest.mark.parametrize("old, new, message", [
    ("", 'api_key_env = "sk-live-1234"', "NAME of an environment variable"),
    ('input_per_mtok = "1.00"', "input_per_mtok = 2.5", "decimal string"),
    ('input_per_mtok = "1.00"', "", "a hosted model needs its list prices"),
    ('hosting = "hosted"', 'hosting = "cloud"', "hosting must be"),
    ('prices_date = "2026-11-01"', "", "needs prices_date"),
    ("", "concurrency = 0", "concurrency must be"),
])
def test_providers_file_is_validated(tmp_path, old, new, message):
    (tmp_path / "content").mkdir()
    text = GOOD_PROVIDER.replace("{extra}", new) if not old else GOOD_PROVIDER.replace(old, new).replace("{extra}", "")
    (tmp_path / "content" / "providers.toml").write_text(text)
    with pytest.raises(ProviderError, match=message):
        load_providers(tmp_path)
    (tmp_path / "content" / "providers.toml").write_text(GOOD_PROVIDER.replace("{extra}", ""))
    assert load_providers(tmp_path)["p"].timeout_s == 180


def test_the_example_providers_match_the_profiles():
    from test_harness_support import ROOT

    from generator.example.profiles import PROFILES

    providers = load_providers(ROOT)
    for p in PROFILES:
        prices = providers[p.provider].prices(p.model)
        assert (prices and (prices["input_per_mtok"], prices["output_per_mtok"], prices["date"])) == \
            ((*p.prices, p.price_date) if p.prices else None)
        assert providers[p.provider].hosting == p.hosting and providers[p.provider].model(p.model).simulated


def test_provider_serve_help_and_bad_fault():
    assert "serve" in invoke(provider, ["--help"]).output
    r = invoke(provider, ["serve", "--suite", "extracting", "--fault", "meteor=0.5"])
    assert r.exit_code == 2 and "unknown fault 'meteor'" in r.stderr


@pytest.mark.slow
def test_provider_serve_answers_on_a_free_port_and_stops(harness_project):
    import signal
    import subprocess
    import sys

    import httpx

    code = "from generator.harness.commands import provider; provider()"
    proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--suite", "extracting", "--root", str(harness_project), "--port", "0",
                             "--scale", "0", "--fault", "rate_limit=0.5"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline().split()[0]  # http://127.0.0.1:PORT/budgetapi/v1
        assert first.startswith("http://127.0.0.1:") and first.endswith("/budgetapi/v1")
        plan = load_plan(harness_project, "extracting", "public")
        body = {"model": "pebble-mini", "messages": plan.messages(plan.items[0])}
        statuses = {httpx.post(f"{first}/chat/completions", json=body, headers={"x-tally-attempt": str(n)}).status_code
                    for n in range(12)}
        assert statuses == {200, 429}
        assert httpx.get(first.rsplit("/", 2)[0] + "/budgetapi/v1/models").json()["data"][0]["id"] == "acme-lynx-1"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)  # generous: on a saturated machine stopping took more than 30 s once
        except subprocess.TimeoutExpired:
            proc.kill()  # never leave the server running
            proc.wait()
    assert proc.returncode == 0, f"provider serve did not stop cleanly on SIGINT (exit {proc.returncode})"


def test_anchors_only_runs_the_anchor_block_and_nothing_else(harness_project):
    root = harness_project
    args = ["extracting", "--model", "clean-1", "--provider", "testprov", "--root", str(root), "--anchors-only",
            "--round", "2026-r9", "-q"]
    plan = load_plan(root, "extracting", "public")
    with LiveServer(root, scale=0.0) as server:
        result = invoke(run, [*args, "--base-url", server.url()])
        assert result.exit_code == 0, result.output
        refused = invoke(run, [*args, "--limit", "3", "--base-url", server.url()])
        (root / "content" / "suites" / "extracting" / "anchors.toml").unlink()
        none = invoke(run, [*args, "--run-id", "no-block", "--base-url", server.url()])
    run_dir = root / "results" / "extracting" / "clean-1-testprov"
    got = records(run_dir)
    assert sorted((r["item"], r["repeat"]) for r in got) == sorted((a, 0) for a in plan.anchors) and len(got) == 12
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["anchors"] == plan.anchors and meta["half"] == "public"
    assert refused.exit_code != 0 and "leave out --limit" in refused.output
    assert none.exit_code != 0 and "no anchor block (anchors.toml)" in none.output
    assert not (root / "results" / "extracting" / "no-block" / "responses.jsonl").exists()
