"""`tally import` of episodes recorded by LedgerShield's own harness (rule page section 11).

Each file is one JSON document, one episode: `model`, `case_id`, `action_trace`,
`final_submission`, `final_info` (with `final_score` and `score_breakdown`), `error`, ... The
harness made the calls, not Tally: no request is stored (`request` is null), no latency is known,
the run says where the episodes came from, and each record keeps its file's name and SHA-256.
A file that is not one such document gets one error naming the file; a file naming another model
than `--model` is refused. With `--cases`, the operator's own cases (LedgerShield's cases.json
shape) first become the suite's `reference` items.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...harness.importer import BatchImportError, ImportOutcome
from ...harness.plan import load_plan
from ...harness.runner import RunSpec, run_meta
from ...harness.store import RunStore
from ...ids import id_problem
from ...sealing import private_file
from .cases_import import CasesError, read_cases, write_reference_items
from .sequence import OrderError, carried, served_order, stamped, state_after

NOTE = ("not an HTTP call: the episode file of LedgerShield's harness (status 200 stands for a file that holds "
        "an episode)")
MAX_FILE_BYTES = 64 * 1024 * 1024


def _lines(data: bytes) -> list[tuple[int, object]] | None:
    """(line number, value) of every non-blank line when each is one JSON value, else None."""
    out = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            try:
                out.append((number, json.loads(raw.decode("utf-8"))))
            except (UnicodeDecodeError, ValueError, RecursionError):
                return None
    return out


def claims(files: list[Path]) -> bool:
    """Whether these files are LedgerShield episodes (not OpenAI Batch API output, whose lines are
    objects with `custom_id`): any file whose first line is a Batch API line leaves them all."""
    for path in files:
        try:
            with open(path, "rb") as fh:
                head = fh.read(1 << 16)
        except OSError:
            continue  # reported by the import
        first = next((x for x in head.split(b"\n") if x.strip()), b"")
        try:
            value = json.loads(first.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            continue
        if isinstance(value, dict) and "custom_id" in value:
            return False
    return True


SHAPE = ("not a LedgerShield episode file: expected one JSON object with case_id, action_trace and "
         "final_submission, as LedgerShield's harness writes one per episode (or JSON Lines of such objects)")


def _check(episode: object, where: str, accepted: tuple[str, ...]) -> dict:
    if not isinstance(episode, dict) or not isinstance(episode.get("action_trace"), list) \
            or not isinstance(episode.get("case_id"), str):
        raise BatchImportError([f"{where}: {SHAPE}"])
    model = episode.get("model")
    if not isinstance(model, str) or not model:
        raise BatchImportError([f"{where}: the episode names no model (its `model`): it can't be checked "
                                f"against --model {accepted[0]!r}"])
    if model not in accepted:
        raise BatchImportError([f"{where}: the episode is of model {model[:80]!r}, not {accepted[0]!r}"])
    return episode


def read_episodes(path: Path, accepted: tuple[str, ...]) -> list[tuple[dict, str, str]]:
    """(episode, where, sha256) of each episode of a file: the file is one JSON document (one episode),
    or JSON Lines of episodes. A file in another shape is one error naming the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BatchImportError([f"{path}: {exc.strerror or exc}"]) from None
    if len(data) > MAX_FILE_BYTES:
        raise BatchImportError([f"{path}: larger than {MAX_FILE_BYTES // 2**20} MB: {SHAPE}"])
    try:
        whole = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        lines = _lines(data)
        if not lines or not all(isinstance(v, dict) and "action_trace" in v for _n, v in lines):
            raise BatchImportError([f"{path}: {SHAPE} ({exc})"]) from None
        rows = data.split(b"\n")
        return [(_check(v, f"{path}:{n}", accepted), f"{path}:{n}", hashlib.sha256(rows[n - 1]).hexdigest())
                for n, v in lines]
    return [(_check(whole, str(path), accepted), str(path), hashlib.sha256(data).hexdigest())]


def failed(episode: dict) -> bool:
    """An episode whose `error` is a non-empty string: a failed call."""
    error = episode.get("error")
    return isinstance(error, str) and bool(error.strip())


def record(episode: dict, where: str, sha: str, model: str, content: str | None = None) -> dict:
    """The stored record of an episode file; `content` is the episode as stored (with its run_state)."""
    error = episode.get("error")
    attempt: dict = {"start": None, "status": 200, "error": None, "latency_ms": None, "note": NOTE}
    text = content if content is not None else json.dumps(episode, ensure_ascii=False)
    response: dict | None = {"object": "ledgershield.episode", "model": model,
                             "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                 "role": "assistant", "content": text}}]}
    if failed(episode):
        attempt["error"] = f"LedgerShield's harness: {str(error)[:300]}"
        response = None
    return {"item": episode["case_id"], "repeat": 0, "request": None, "attempts": [attempt], "response": response,
            "usage": None, "latency_ms": None, "source": {"file": Path(where).name, "sha256": sha}}


def import_files(spec: RunSpec, files: list[Path], cases_file: Path | None) -> ImportOutcome:
    """Store the episode files as a run (after converting `cases_file` into items, when given)."""
    if (problem := id_problem(spec.id, "run id")) is not None:
        raise BatchImportError([problem + " (choose one with --run-id)"])
    suite_dir = Path(spec.root) / "content" / "suites" / spec.suite
    model = spec.provider.model(spec.model)
    accepted = (spec.model, *model.served_as)
    errors: list[str] = []
    episodes: dict[str, tuple[dict, str, str]] = {}
    for path in files:
        try:
            found = read_episodes(Path(path), accepted)
        except BatchImportError as exc:
            errors += exc.errors
            continue
        for episode, where, sha in found:
            cid = episode["case_id"]
            if cid in episodes:
                errors.append(f"{where}: a second episode of case {cid!r} (first in {episodes[cid][1]})")
                continue
            episodes[cid] = (episode, where, sha)
    items: list[dict] = []
    if cases_file is not None:
        try:
            items = read_cases(cases_file)
        except CasesError as exc:
            errors.append(str(exc))
    given = list(episodes.values())
    try:
        order, one_sequence = served_order([(where, ep, not failed(ep)) for ep, where, _sha in given])
    except OrderError as exc:
        errors.append(str(exc))
    if errors:
        raise BatchImportError(errors)
    if items:
        write_reference_items(suite_dir, items)
    plan = load_plan(spec.root, spec.suite, spec.half)
    known = {i["id"] for i in plan.items}
    missing = [f"{episodes[c][1]}: case {c!r} is not an item of this suite"
               + (" (give LedgerShield's cases with --cases cases.json)" if cases_file is None else "")
               for c in sorted(episodes) if c not in known]
    if missing:
        raise BatchImportError(missing)
    if spec.description is None:
        spec.description = (f"{spec.model} on {spec.provider.title}: episodes recorded by LedgerShield's own harness "
                            "(one JSON file per episode), imported by tally import. That harness made the model "
                            "calls; Tally sent no request and knows no latency; each record keeps its file's name "
                            "and SHA-256, and the harness's own final_score is shown beside Tally's grade.")
    private_items = frozenset(i["id"] for i in plan.items if i.get("half") == "private")
    store = RunStore(Path(spec.root) / "results" / spec.suite / spec.id,
                     private_file(Path(spec.root), spec.suite, spec.id) if private_items else None, private_items)
    meta = run_meta(spec, plan.template.sha256(), plan.suite.version, plan.anchors)
    meta["imported"] = "LedgerShield harness episode files"
    done = store.open(meta)
    by_id = {i["id"]: i for i in plan.items}
    state = carried(by_id, _stored_contents(store.dir / "responses.jsonl")) if one_sequence else None
    fresh = []
    for k in order:  # served order (rule page section 12): each episode carries the state the ones before left
        ep, p, sha = given[k]
        if (ep["case_id"], 0) in done:
            continue
        if state is None or failed(ep):
            fresh.append(record(ep, p, sha, spec.model))
            continue
        content = stamped(ep, state)
        fresh.append(record(ep, p, sha, spec.model, content))
        state = state_after(by_id[ep["case_id"]], content) or state
    try:
        for rec in fresh:
            store.append(rec)
        store.finish()
    finally:
        store.close()
    failures = sum(1 for r in fresh if r["response"] is None)
    return ImportOutcome(spec.id, store.dir, len(episodes), len(fresh), len(episodes) - len(fresh), failures)


def _stored_contents(path: Path) -> list[tuple[str, str | None]]:
    """(item, message content or None) of a run's stored records of repeat 0, in stored order."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict) or rec.get("repeat") != 0:
            continue
        response: object = rec.get("response")
        try:
            content = response["choices"][0]["message"]["content"]  # type: ignore[index]
        except (TypeError, KeyError, IndexError):
            content = None
        out.append((str(rec.get("item")), content if isinstance(content, str) else None))
    return out
