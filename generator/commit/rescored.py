"""`tally verify`: a revealed round's private responses rescored against what that round published.

A round's responses commitment covers the runs of that round (`"round"` in their run.json). A run id
can be used again by a later round (the runs regenerated over a new private set): then `results/`
holds the later round's run, which that round's own commitment covers (`moved_to`), and the retired
round is checked from its own data only: its revealed items (checked against its SHA256SUMS), its
revealed responses (checked against `file_sha256`) and its signed Merkle roots. The revealed
responses are rescored with the round's own items (not today's items of the suite, which may be a
later private set with the same ids), and each run's sealed records are made again from them, as
`tally results seal` made them: their Merkle root must be the committed one, so the responses give
exactly the verdicts and figures that were published with them. While `results/` still holds the
round's own run, the rescored verdicts are compared with its sealed records, record by record.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from ..inputs.content import Item
from ..inputs.ids import is_safe_id
from ..inputs.stored_files import read_stored, responses_file
from ..sealed_record import SEALED_FORMAT, _answer_classes, answers_of, blind_rows, opened, stub_of
from ..sealing import line_sha256, sealed_info
from . import ITEMS, MANIFEST, RESPONSES_DIR, SUMS
from .canonical import sha256_hex
from .checks import Checks
from .layout import round_dir

V2 = "tally-sealed-record-v2"


def declared_round(root: Path, suite: str, run_id: str) -> object:
    """The round that results/<suite>/<run>/run.json names, or None when it cannot be read."""
    try:
        meta = json.loads((root / "results" / suite / run_id / "run.json").read_bytes())
    except (OSError, ValueError):
        return None
    return meta.get("round") if isinstance(meta, dict) else None


def moved_to(root: Path, suite: str, run_id: str, name: str) -> str | None:
    """The other round whose run results/<suite>/<run> now holds, when that round is a committed round
    of the same benchmark (so its own responses commitment must cover the run, or `tally verify` fails
    for it); else None: the run is checked against round `name`, whatever its run.json says (editing
    `round` never takes a run out of every commitment)."""
    other = declared_round(root, suite, run_id)
    if other == name or not isinstance(other, str) or not is_safe_id(other):
        return None
    folder = round_dir(root, other)
    try:
        manifest = json.loads((folder / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return None
    if not (folder / SUMS).is_file() or not isinstance(manifest, dict) or manifest.get("benchmark") != suite:
        return None
    return other


def round_items(folder: Path, plugin) -> dict[str, Item]:
    """The round's revealed items (its items/ files, checked against SHA256SUMS elsewhere), parsed by the
    suite's scorer; the SHA-256 of each file is its item commitment."""
    out: dict[str, Item] = {}
    base = folder / ITEMS
    for path in sorted(base.glob("*.json")) if base.is_dir() else []:
        try:
            raw = json.loads(path.read_bytes()).get("item")
        except (OSError, ValueError, AttributeError):
            continue
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not isinstance(raw.get("document"), dict):
            continue
        spec, problems = plugin.parse_item(raw)
        if problems:
            continue
        strata = {**{str(k): str(v) for k, v in (raw.get("strata") or {}).items()},
                  "dataset": str(raw.get("dataset")), "half": str(raw.get("half"))}
        out.setdefault(raw["id"], Item(raw["id"], str(raw.get("dataset")), str(raw.get("half")), strata,
                                       raw["document"], spec, f"{folder.name}/{ITEMS}/{path.name}",
                                       orjson.dumps(raw)))
    return out


def item_hashes(folder: Path) -> dict[str, str]:
    """Item id -> SHA-256 of its revealed commitment file."""
    out: dict[str, str] = {}
    base = folder / ITEMS
    for path in sorted(base.glob("*.json")) if base.is_dir() else []:
        data = path.read_bytes()
        try:
            item = json.loads(data).get("item", {})
        except (ValueError, AttributeError):
            continue
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            out.setdefault(item["id"], sha256_hex(data))
    return out


def check_rescored(root: Path, name: str, folder: Path, runs: list[dict], form: object, checks: Checks) -> None:
    """Rescore each revealed response with the suite's scorer and the round's revealed items, and compare
    with what the round published: its sealed records in results/ while they are still there, else its
    committed Merkle roots (see the module docstring)."""
    from ..errors import ErrorLog
    from ..inputs.content import load_suite
    from ..suite.plugins import load_registry as load_installed
    from .responses import RESPONSES_FORMAT, tree_root

    problems: list[str] = []
    compared, moved = 0, []
    installed = load_installed(None)  # the scorers installed with Tally: never the project's plugin folders
    for suite_name in sorted({str(r.get("suite")) for r in runs}):
        config = load_suite(root / "content" / "suites" / suite_name, ErrorLog(root)) if is_safe_id(suite_name) else None
        scorer = config.scorer if config is not None else suite_name
        if scorer not in installed.suites:
            checks.add(name, "responses rescored", True, f"not rescored: suite {suite_name} is scored by "
                       f"{scorer!r}, which is not installed with Tally; `tally verify` never runs code of "
                       "the project it checks (its plugin folders): read the plugin, then run `tally rescore`")
            return
        plugin = installed.suites[scorer]
        items = round_items(folder, plugin)
        hashes = item_hashes(folder)
        for entry in (r for r in runs if r.get("suite") == suite_name):
            revealed = [x for x in (folder / RESPONSES_DIR / f"{entry['run']}.jsonl").read_bytes().split(b"\n")
                        if x.strip()]
            other = moved_to(root, suite_name, entry["run"], name)
            if other is None:
                compared += _compare_with_results(root, suite_name, entry["run"], revealed, items, plugin, problems)
                continue
            moved.append(f"{entry['run']} ({other})")
            if form != RESPONSES_FORMAT:
                continue  # a v1 commitment does not cover the verdicts: nothing published is left to compare
            made = [_sealed_again(revealed, items, hashes, plugin, entry["run"], problems if form == V2 else [], form)
                    for form in (SEALED_FORMAT, V2)]  # the round may have committed to records of format v2
            lines = next((x for x in made if tree_root([line_sha256(y) for y in x]) == entry.get("merkle_root")),
                         made[0])
            compared += len(lines)
            if lines and (len(lines) != entry.get("records") or
                          tree_root([line_sha256(x) for x in lines]) != entry.get("merkle_root")):
                problems.append(f"run {entry['run']}: rescored, the revealed responses do not give the sealed "
                                "records this round committed to (verdicts, figures or call figures differ)")
    note = (f"; results/ now holds later runs with the ids {', '.join(moved[:5])}: compared with this round's "
            "committed Merkle roots") if moved else ""
    checks.add(name, "responses rescored", not problems, "; ".join(problems[:5]) or
               f"all {compared} revealed private responses rescore to the verdicts published with them{note}")


def _compare_with_results(root: Path, suite: str, run_id: str, revealed: list[bytes], items: dict, plugin,
                          problems: list[str]) -> int:
    """Each revealed record rescored and compared with its sealed record in results/; the number compared."""
    from ..parse.response import read_outcome

    stubs = {}
    for line in read_stored(responses_file(root / "results" / suite / run_id)).split(b"\n"):
        if sealed_info(line) is not None:
            stub = json.loads(line)
            stubs[stub["sealed"]["record_sha256"]] = stub
    compared = 0
    for line in revealed:
        record, stub = json.loads(line), stubs.get(line_sha256(line), {})
        item = items.get(record.get("item"))
        if item is None or (record.get("item"), record.get("repeat")) != (stub.get("item"), stub.get("repeat")):
            problems.append(f"run {run_id}: a revealed record is not the one its sealed record names")
            continue
        outcome = read_outcome(record, plugin.extract_answer, plugin.answer_what)
        rows = plugin.score(item, outcome, run_id, record["repeat"])
        if stub["sealed"].get("format") != "tally-sealed-record-v1":  # v2, or v3 with its box opened
            stub = opened(stub, item.line)[0] or {}
            got = blind_rows(plugin, rows)
            same_figures = stub.get("figures") == list(plugin.item_figures(rows))
        else:
            got, same_figures = [[v.unit, v.kind, v.verdict, v.points, v.order] for v in rows], True
        compared += 1
        if got != stub.get("verdicts") or not same_figures or outcome.status != stub.get("outcome"):
            problems.append(f"run {run_id} item {item.id} repeat {record['repeat']}: rescored, the revealed "
                            "response does not give the published verdicts")
    return compared


def _sealed_again(revealed: list[bytes], items: dict, hashes: dict[str, str], plugin, run_id: str,
                  problems: list[str], form: str) -> list[bytes]:
    """The run's sealed record lines made again from its revealed records, in their order (the order of
    the sealed records they were committed as), in format `form`; empty when a record cannot be
    rescored."""
    from ..parse.response import read_outcome

    scored = []
    answers: dict[str, dict[int, tuple[str, ...]]] = {}
    for line in revealed:
        try:
            record = json.loads(line)
        except ValueError:
            problems.append(f"run {run_id}: a revealed record is not JSON")
            return []
        item = items.get(record.get("item")) if isinstance(record, dict) else None
        if item is None or not isinstance(record.get("repeat"), int):
            problems.append(f"run {run_id}: a revealed record names no item of this round")
            return []
        outcome = read_outcome(record, plugin.extract_answer, plugin.answer_what)
        rows = plugin.score(item, outcome, run_id, record["repeat"])
        answers.setdefault(item.id, {})[record["repeat"]] = answers_of(plugin, outcome, rows)
        scored.append((line, record, rows, outcome))
    classes = {item: _answer_classes(a) for item, a in answers.items()}
    return [orjson.dumps(stub_of(record, line, rows, classes[record["item"]][record["repeat"]],
                                 hashes.get(record["item"]), outcome, plugin, items[record["item"]].line, form),
                         option=orjson.OPT_SORT_KEYS)
            for line, record, rows, outcome in scored]
