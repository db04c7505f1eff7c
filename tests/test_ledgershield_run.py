"""`tally run ledgershield`: tool-calling episodes against the local server's scripted agents, rescored
to the agents' own grades; malformed tool calls, retries, the step limit and resume."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.example.ledgershield_agents import AGENTS
from generator.example.ledgershield_sim import ScriptedAgents, scripted_episode
from generator.example.simmodels import Faults
from generator.harness.agent_loop import Episode
from generator.harness.plan import load_plan
from generator.harness.providers import load_providers
from generator.harness.runner import RunSpec, execute
from generator.harness.server import SimServer
from generator.parse.response import ANSWER, FAILED, read_outcome
from generator.suites.ledgershield import SUITE, desk
from generator.suites.ledgershield.replay import replay
from generator.suites.ledgershield.run_state import INITIAL
from generator.suites.ledgershield.sequence import state_after
from tests.test_harness_support import make_project, records

SEED = 20261020


class AgentServer:
    def __init__(self, root: Path, faults: Faults = Faults()):
        plan = load_plan(root, "ledgershield", "both")
        self.items = {i["id"]: i for i in plan.items}
        self.server = SimServer(ScriptedAgents(plan.items, plan.messages, SEED, faults), hang_s=5.0)

    def __enter__(self) -> "AgentServer":
        self.port = self.server.start_in_thread()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop_thread()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/local/v1"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("ledger"))


def verdicts(item: dict, record: dict) -> list[tuple]:
    from generator.inputs.content import Item

    it = Item(item["id"], item["dataset"], item["half"], item.get("strata", {}), json.dumps(item), item)
    outcome = read_outcome(record, SUITE.extract_answer, SUITE.answer_what)
    return [(v.unit, v.kind, v.verdict, v.reason, v.order) for v in SUITE.score(it, outcome, "r", 0)]


def run_cli(project: Path, url: str, model: str, run_id: str, *extra: str):
    result = CliRunner().invoke(main, ["run", "ledgershield", "--model", model, "--provider", "local", "--root",
                                       str(project), "--base-url", url, "--run-id", run_id, "-q", *extra])
    assert result.exit_code == 0, result.output
    assert " episode(s) stored, " in result.output
    return project / "results" / "ledgershield" / run_id


@pytest.mark.slow
def test_scripted_agents_through_tool_calls_rescore_to_their_own_grades(project):
    with AgentServer(project) as server:
        dirs = {a: run_cli(project, server.url, f"script-{a}", f"t-{a}") for a in AGENTS}
    fired = slipped = 0
    for agent, run_dir in dirs.items():
        meta = json.loads((run_dir / "run.json").read_text())
        assert meta["simulated"] is True and meta["tools"]["sha256"] == desk.tools_sha256()
        stored = records(run_dir)
        assert len(stored) == 50  # the public half
        turns = [json.loads(line) for line in (run_dir / "turns.jsonl").read_text().splitlines()]
        assert len(turns) == sum(r["turns"] for r in stored)
        chain = INITIAL  # rule page section 12: each stored episode carries the state the ones before it left
        for record in stored:
            item = server.items[record["item"]]
            assert record["request"]["tools"] == list(desk.TOOL_DEFINITIONS)
            assert read_outcome(record, SUITE.extract_answer).status == ANSWER
            planned = scripted_episode(item, agent, SEED) if agent == "careful" else AGENTS[agent](item)
            planned["run_state"] = chain.as_json()
            expected = {"attempts": [{"status": 200, "error": None}], "response": {"choices": [{"message": {
                "content": json.dumps(planned)}}]}}
            assert verdicts(item, record) == verdicts(item, expected), (agent, item["id"])
            episode = json.loads(record["response"]["choices"][0]["message"]["content"])
            assert episode["run_state"] == chain.as_json()
            after = state_after(item, record["response"]["choices"][0]["message"]["content"])
            assert after is not None and after.n == chain.n + 1  # every scripted episode submits a decision
            chain = after
            if agent == "yielding" and episode["final_submission"]["decision"] != item["gold"]["decision"]:
                fired += 1
            if agent == "careful" and any(s["tool_error"] == "unknown_tool" for s in episode["action_trace"]):
                slipped += 1
    assert fired >= 1 and slipped >= 1  # the pressure message reached the agent; a slip was answered


def test_each_turn_resends_the_conversation_with_tool_answers(project):
    with AgentServer(project) as server:
        run_dir = run_cli(project, server.url, "script-careful", "t-turns", "--limit", "3")
    turns = [json.loads(line) for line in (run_dir / "turns.jsonl").read_text().splitlines()]
    first = [t for t in turns if t["item"] == turns[0]["item"]]
    assert [m["role"] for m in first[0]["sent"]] == ["system", "user"]
    for prev, turn in zip(first, first[1:]):
        call = prev["response"]["choices"][0]["message"]["tool_calls"][0]
        assert turn["sent"][0]["tool_calls"] == [call]
        assert turn["sent"][1]["role"] == "tool" and turn["sent"][1]["tool_call_id"] == call["id"]
        assert json.loads(turn["sent"][1]["content"])["outcome"] in ("ok", "unknown_tool", "not_ready")


def test_malformed_tool_calls_are_answered_as_the_desk_would(project):
    item = load_plan(project, "ledgershield", "both").items[0]
    body = {"choices": [{"message": {"role": "assistant", "content": "x", "tool_calls": [
        {"id": "a", "function": {"name": "lookup_vendor", "arguments": "{not json"}},
        {"id": "b", "function": {"name": 7, "arguments": "{}"}},
        "not a call",
        {"id": "d", "function": {"name": "lookup_everything", "arguments": "{}"}},
        {"id": "e", "function": {"name": "lookup_policy", "arguments": "[]"}},
        {"id": "f", "function": {"name": "lookup_policy", "arguments": '{"x": NaN}'}}]}}]}
    episode = Episode(item["env"], desk, 40, [])
    sent = episode.take(body, 0)
    assert [m.get("tool_call_id") for m in sent[1:]] == ["a", "b", "call_0_2", "d", "e", "f"]
    outcomes = [json.loads(m["content"])["outcome"] for m in sent[1:]]
    assert outcomes == ["bad_payload", "unknown_tool", "unknown_tool", "unknown_tool", "bad_payload", "bad_payload"]
    assert episode.trace[0]["payload"] == "{not json" and episode.ended is None
    assert episode.trace[5]["payload"] == '{"x": NaN}'  # not JSON: kept as sent
    state = replay(item["env"], episode.trace)
    assert [s.outcome for s in state.timeline] == outcomes and state.refused == 6
    assert episode.take({"choices": [{"message": {"role": "assistant", "content": "done"}}]}, 1) == []
    assert episode.ended == "no_tool_call" and "final_submission" not in episode.document(item["id"])


def test_calls_after_submit_decision_are_answered_but_are_not_steps(project):
    item = load_plan(project, "ledgershield", "both").items[0]
    calls = [{"id": "p", "function": {"name": "lookup_policy", "arguments": "{}"}},
             {"id": "s", "function": {"name": "submit_decision", "arguments": '{"decision": "HOLD"}'}},
             {"id": "v", "function": {"name": "lookup_policy", "arguments": "{}"}}]
    episode = Episode(item["env"], desk, 40, [])
    sent = episode.take({"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}]}, 0)
    assert [s["tool_name"] for s in episode.trace] == ["lookup_policy", "submit_decision"]
    assert episode.ended == "submitted" and episode.final == {"decision": "HOLD"}
    assert json.loads(sent[-1]["content"]) == {"outcome": "not_processed"} and sent[-1]["tool_call_id"] == "v"


def test_a_pressure_message_follows_every_tool_message_of_its_turn(project):
    item = next(i for i in load_plan(project, "ledgershield", "both").items if i["env"]["pressure"])
    after = item["env"]["pressure"][0]["after_step"]
    calls = [{"id": f"c{k}", "function": {"name": "lookup_policy", "arguments": "{}"}} for k in range(after + 1)]
    episode = Episode(item["env"], desk, 40, [])
    sent = episode.take({"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}]}, 0)
    assert [m["role"] for m in sent] == ["assistant"] + ["tool"] * (after + 1) + ["user"]
    assert sent[-1]["content"].startswith(f"[pressure event {item['env']['pressure'][0]['id']}] ")


def test_step_limit_ends_the_episode_without_a_submission(project):
    with AgentServer(project) as server:
        run_dir = run_cli(project, server.url, "script-careful", "t-limit", "--limit", "6", "--max-steps", "3")
    limited = 0
    for record in records(run_dir):
        episode = json.loads(record["response"]["choices"][0]["message"]["content"])
        planned = scripted_episode(server.items[record["item"]], "careful", SEED)["action_trace"]
        if len(planned) > 3:
            limited += 1
            assert record["ended"] == "step_limit" and len(episode["action_trace"]) == 3
            assert "final_submission" not in episode
        else:
            assert record["ended"] == "submitted" and len(episode["action_trace"]) == len(planned)
    assert limited >= 1


def _spec(project: Path, url: str, run_id: str, limit: int) -> RunSpec:
    provider = load_providers(project)["local"]
    # backoff sped up 1,000 times; the per-attempt timeout scaled to 30 s, not 0.18 s, so that a loaded machine's
    # slow local answer is never a timeout (an extra attempt the retry test would count)
    return RunSpec(project, "ledgershield", "script-careful", provider, run_id=run_id, limit=limit, base_url=url,
                   time_scale=0.001, timeout_s=30_000)


def test_transport_failures_are_retried_and_a_refusal_is_not(project):
    with AgentServer(project, Faults(script=("server_error", None))) as server:
        outcome = asyncio.run(execute(_spec(project, server.url, "t-retry", 2)))
    assert outcome.failed == 0
    turns = [json.loads(line) for line in (outcome.run_dir / "turns.jsonl").read_text().splitlines()]
    assert turns and all([a["status"] for a in t["attempts"]] == [500, 200] for t in turns)
    with AgentServer(project, Faults(script=("bad_request",))) as server:
        outcome = asyncio.run(execute(_spec(project, server.url, "t-refused", 1)))
    record = records(outcome.run_dir)[0]
    assert record["ended"] == "failed_call" and record["response"] is None
    assert [a["status"] for a in record["attempts"]] == [400]  # not retried
    assert read_outcome(record, SUITE.extract_answer).status == FAILED


def test_an_interrupted_episode_resumes_from_its_last_stored_turn(project):
    with AgentServer(project) as server:
        first = asyncio.run(execute(_spec(project, server.url, "t-resume", 6)))
        run_dir = first.run_dir
        whole = {r["item"]: r for r in records(run_dir)}
        victim = max(whole.values(), key=lambda r: r["turns"])
        assert victim["turns"] > 4
        lines = (run_dir / "turns.jsonl").read_bytes().splitlines(keepends=True)
        kept = [ln for ln in lines if json.loads(ln)["item"] != victim["item"]]
        partial = [ln for ln in lines if json.loads(ln)["item"] == victim["item"]][:3]
        (run_dir / "turns.jsonl").write_bytes(b"".join(kept + partial) + b'{"item": "torn')
        stored = (run_dir / "responses.jsonl").read_bytes().splitlines(True)
        (run_dir / "responses.jsonl").write_bytes(b"".join(ln for ln in stored
                                                           if json.loads(ln)["item"] != victim["item"]))
        before = server.server.requests
        again = asyncio.run(execute(_spec(project, server.url, "t-resume", 6)))
        calls = server.server.requests - before
    assert again.skipped == 5 and again.stored == 1 and again.torn_bytes == len('{"item": "torn')
    assert calls == victim["turns"] - 3  # only the turns that were not stored
    resumed = {r["item"]: r for r in records(run_dir)}[victim["item"]]
    assert resumed["response"] == victim["response"] and resumed["turns"] == victim["turns"]
    assert (run_dir / "turns.jsonl.torn").read_bytes() == b'{"item": "torn\n'


@pytest.mark.slow
def test_private_items_conversations_go_to_private_storage(project):
    with AgentServer(project) as server:
        run_dir = run_cli(project, server.url, "script-careful", "t-halves", "--half", "both", "--limit", "200")
    private_ids = {i["id"] for i in load_plan(project, "ledgershield", "both").items if i["half"] == "private"}
    public_turns = [json.loads(line) for line in (run_dir / "turns.jsonl").read_text().splitlines()]
    assert public_turns and not {t["item"] for t in public_turns} & private_ids
    published = [json.loads(line) for line in (run_dir / "responses.jsonl").read_text().splitlines()]
    assert published and not {r["item"] for r in published} & private_ids
    assert {r["item"] for r in records(run_dir)} >= private_ids  # as rescore reads the run: both parts
    private_dir = project / "private" / "results" / "ledgershield" / "t-halves"
    hidden = [json.loads(line) for line in (private_dir / "turns.jsonl").read_text().splitlines()]
    assert {t["item"] for t in hidden} == private_ids
    assert {json.loads(line)["item"] for line in (private_dir / "responses.jsonl").read_text().splitlines()} == private_ids
    assert (private_dir / "turns.jsonl").stat().st_mode & 0o777 == 0o600
    # an episode's stored turns are found again in either file: rerunning resumes with nothing to do
    with AgentServer(project) as server:
        result = CliRunner().invoke(main, ["run", "ledgershield", "--model", "script-careful", "--provider", "local",
                                           "--root", str(project), "--base-url", server.url, "--run-id", "t-halves",
                                           "-q", "--half", "both", "--limit", "200"])
    assert result.exit_code == 0, result.output
    assert len(hidden) == len((private_dir / "turns.jsonl").read_text().splitlines())


def test_the_generic_harness_names_no_suite():
    """The local server finds a suite's own simulation through the suite interface, not by name."""
    import generator.harness as harness_package
    from generator.harness.localserver import load_simulation

    assert SUITE.local_simulation is not None and load_simulation(SUITE.local_simulation) is ScriptedAgents
    folder = Path(harness_package.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert "ledgershield" not in text, path.name
    with pytest.raises(ValueError, match="can't be loaded"):
        load_simulation("generator.example.no_such_module:Thing")
