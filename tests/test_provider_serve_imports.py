"""`tally provider serve` needs nothing from the example package: the server, its command and its
fault injection live in the harness (generator/harness/simulation.py); the example's simulated models
are imported only to serve them. A suite with its own simulation is served without the example."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.example import simmodels
from generator.harness import simulation

REPO = Path(__file__).resolve().parents[1]

SIMULATION = '''
from generator.harness.simulation import Reply, error_reply


class Echo:
    """A suite's own simulation: one provider, one model, answering every item with {}."""

    def __init__(self, items, messages_of, seed, faults):
        self.items, self.faults, self.seen = items, faults, []

    def providers(self):
        return {"echo": ["echo-1"]}

    def reply(self, provider, raw, repeat, attempt):
        self.seen.append((provider, "echo-1", "", repeat or 0, attempt or 0))
        fault = self.faults.draw(attempt or 0, "echo", repeat)
        if fault == "server_error":
            return error_reply(500, "injected fault", fault)
        return Reply("send", 200, b'{"choices": [{"message": {"content": "{}"}}]}')
'''

SERVE = '''
import json, sys, urllib.request
from pathlib import Path

import generator.harness.commands  # the `tally provider serve` command
from generator.harness.localserver import ServerConfig, build_server
from generator.harness.simulation import Faults

server = build_server(ServerConfig(Path(sys.argv[1]), "demo", faults=Faults(script=("server_error",))))
port = server.start_in_thread()
try:
    answers = []
    for attempt in range(2):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/echo/v1/chat/completions",
                                         data=b'{"model": "echo-1", "messages": []}', method="POST",
                                         headers={"X-Tally-Attempt": str(attempt)})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answers.append(response.status)
        except urllib.error.HTTPError as exc:
            answers.append(exc.code)
finally:
    server.stop_thread()
loaded = sorted(m for m in sys.modules if m == "generator.example" or m.startswith("generator.example."))
print(json.dumps({"answers": answers, "example_modules": loaded}))
'''


def test_a_suite_s_own_simulation_is_served_without_the_example_package(tmp_path):
    root = tmp_path / "p"
    assert CliRunner().invoke(main, ["suite", "new", "demo", "--root", str(root)]).exit_code == 0
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "echo_sim.py").write_text(SIMULATION, encoding="utf-8")
    plugin = root / "plugins" / "demo" / "__init__.py"
    plugin.write_text(plugin.read_text(encoding="utf-8") + '\nDemo.local_simulation = "echo_sim:Echo"\n',
                      encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path / "mods")]))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SERVE), str(root)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["answers"] == [500, 200]  # the injected fault, then the answer
    assert result["example_modules"] == []


def test_the_example_s_simulated_models_use_the_harness_s_parts():
    """One definition of each: what the example's simulations build on is the harness's."""
    assert simmodels.Faults is simulation.Faults and simmodels.Reply is simulation.Reply
    assert simmodels.error_reply is simulation.error_reply and simmodels.DEFAULT_SEED == simulation.DEFAULT_SEED
    # the fault draw and the example's seeded streams are what they always were (its stored results depend on them)
    faults = simulation.Faults(rate_limit=0.3, timeout=0.2, malformed=0.2)
    assert [faults.draw(a, 20261020, "cloudco", "m", "i-1", 0) for a in range(8)] == \
        ["timeout", "timeout", None, None, "timeout", "timeout", None, "timeout"]
    from generator.example.simulate import rng_for

    assert rng_for("a", 1, "x").random() == 0.4298695725470617
