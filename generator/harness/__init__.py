"""The harness: run models on a suite over OpenAI-compatible chat-completions APIs and store every
request and response (`tally run`), import batch output (`tally import`), and a local simulation
server speaking the same API (`tally provider serve`).

providers.py  content/providers.toml
plan.py       items, prompt, repeats and anchors of a run
client.py     one call: retries, pinning, timeouts, every attempt recorded
store.py      run.json and the append-only responses.jsonl; resume and torn-line repair
runner.py     the run: workers, records, progress
agent_loop.py  one tool-calling episode of a suite with a tool environment
turnlog.py    turns.jsonl: every turn of those episodes, append-only
progress.py   the progress line on stderr
importer.py   OpenAI Batch API output -> a stored run
simulation.py what a simulation server's answers are made of: replies, error bodies, injected faults
server.py     the simulation server's HTTP plumbing
localserver.py  start it in a child process or a thread
example.py    the example results, made by running the harness against it
commands.py   the click commands
"""
