"""Commitments to a round's private responses.

When a round's results are published, `tally commit-responses ROUND` signs `responses.json` in the
round's folder: for every run of the round (`"round"` in its run.json) with sealed private records
(generator/sealing.py), the number of records, the RFC 6962 Merkle root over their SHA-256s (the
`record_sha256` of each sealed record in results/, in file order) and the SHA-256 of the file those
full records make, one line each in that order. It names the round's SHA256SUMS and takes the next
place on the chain of signed files, in the commitments namespace (its `format` keeps it apart from a
SHA256SUMS). `tally reveal` then publishes each run's file as `responses/<run>.jsonl`, and the reveal
statement names `responses.json`: anyone can check the files against the commitment, and rescoring
reads them in place of the sealed records, re-deriving the formerly private scores. A run id used
again by a later committed round is that round's (generator/commit/rescored.py): `tally verify` checks
the earlier round from its own revealed files and signed roots.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..inputs.ids import is_safe_id
from ..inputs.stored_files import read_stored, responses_file
from ..sealing import line_sha256, may_hold_sealed, private_file, sealed_info
from . import RESPONSES, RESPONSES_DIR, RESPONSES_SIG, SUMS, CommitError
from .canonical import canonical, parse_canonical, sha256_hex
from .checks import Checks
from .layout import private_round_dir, read_manifest, round_dir
from .merkle import root as merkle_root
from .rescored import check_rescored, item_hashes, moved_to
from .sealed_memo import hashes as memo_hashes

RESPONSES_FORMAT_V1 = "tally-response-commitment-v1"  # leaves: the full records' SHA-256s (still verified)
RESPONSES_FORMAT = "tally-response-commitment-v2"  # leaves: the sealed records' SHA-256s, verdicts included
RESPONSES_FORMATS = (RESPONSES_FORMAT_V1, RESPONSES_FORMAT)
DATE_CLAIM = "the signer's own claim; only an external timestamp could prove it"


def item_commitments(root: Path, round_name: str) -> dict[str, str]:
    """Item id -> SHA-256 of its salted commitment file, from the round's private storage or its
    revealed items; empty when neither is here."""
    if not is_safe_id(round_name):
        return {}
    out: dict[str, str] = {}
    for folder in (private_round_dir(root, round_name), round_dir(root, round_name)):
        for item, digest in item_hashes(folder).items():
            out.setdefault(item, digest)
    return out


def revealed_file(root: Path, round_name: str, run_id: str) -> Path:
    return round_dir(root, round_name) / RESPONSES_DIR / f"{run_id}.jsonl"


def round_runs(root: Path, suite: str, round_name: str) -> list[Path]:
    """The run folders of `suite` whose run.json names `round_name`."""
    base = root / "results" / suite
    out = []
    for run_dir in sorted(base.iterdir()) if base.is_dir() else []:
        try:
            meta = json.loads((run_dir / "run.json").read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and meta.get("round") == round_name and is_safe_id(run_dir.name):
            out.append(run_dir)
    return out


def covering_commitments(root: Path, suite: str, run_ids: list[str]) -> dict[str, str | None]:
    """Run id -> the site path of the signed responses.json that commits to its sealed records (the one
    of the round its run.json names, when that lists it), or None: what the suite page shows beside
    the private scores (`tally verify` checks that the records are the committed ones)."""
    out: dict[str, str | None] = {}
    for run_id in run_ids:
        out[run_id] = None
        try:
            round_name = json.loads((root / "results" / suite / run_id / "run.json").read_bytes()).get("round")
        except (OSError, ValueError, AttributeError):
            continue
        folder = round_dir(root, round_name) if is_safe_id(round_name) else None
        if folder is not None and (folder / RESPONSES).is_file() and \
                any(r.get("run") == run_id and r.get("suite") == suite for r in statement_runs(folder)):
            out[run_id] = f"commitments/{round_name}/{RESPONSES}"
    return out


def sealed_hashes(responses: Path) -> list[str]:
    """The record_sha256 of each sealed record of a results/ file, in file order (within a site build,
    from the build cache's record of an unchanged file: sealed_memo.py)."""
    return memo_hashes(responses, "records", _record_hashes)


def _record_hashes(responses: Path) -> list[str]:
    out: list[str] = []
    data = read_stored(responses)
    if not may_hold_sealed(data):  # no line can be a sealed record: not split into lines
        return out
    for line in data.split(b"\n"):
        info = sealed_info(line)
        if info is not None:
            out.append(str(info.get("record_sha256")))
    return out


def sealed_line_hashes(responses: Path) -> list[str]:
    """The SHA-256 of each sealed record line of a results/ file (without its newline), in file order:
    the leaves of a v2 commitment, which so covers each record's verdicts, figures and `record_sha256`."""
    return memo_hashes(responses, "lines", _line_hashes)


def _line_hashes(responses: Path) -> list[str]:
    data = read_stored(responses)
    if not may_hold_sealed(data):
        return []
    return [line_sha256(line) for line in data.split(b"\n") if sealed_info(line) is not None]


def leaves(responses: Path, form: object) -> list[str]:
    return sealed_line_hashes(responses) if form == RESPONSES_FORMAT else sealed_hashes(responses)


def tree_root(hashes: list[str]) -> str:
    try:
        return merkle_root([bytes.fromhex(h) for h in hashes]).hex()
    except ValueError:
        return "not hex"


def full_file(root: Path, suite: str, run_dir: Path, hashes: list[str]) -> bytes:
    """The run's full private records in sealed order, from private storage; CommitError when one is
    missing or a private record has no sealed record."""
    path = private_file(root, suite, run_dir.name)
    lines = {line_sha256(x): x for x in path.read_bytes().split(b"\n") if x.strip()} if path.is_file() else {}
    missing = [h for h in hashes if h not in lines]
    if missing:
        raise CommitError(f"{path}: {len(missing)} sealed record(s) of run {run_dir.name} have no full record here")
    extra = set(lines) - set(hashes)
    if extra:
        raise CommitError(f"run {run_dir.name}: {len(extra)} private record(s) not sealed in results/: run "
                          f"`tally results seal {suite}` first")
    return b"".join(lines[h] + b"\n" for h in hashes)


def run_entries(root: Path, suite: str, round_name: str) -> list[dict]:
    """Per run of the round with sealed records: their count, the Merkle root over the sealed lines and
    the SHA-256 of the full records' file (null when private storage does not hold them: they can then
    never be revealed, and each revealed record would still be checked against its `record_sha256`)."""
    entries = []
    for run_dir in round_runs(root, suite, round_name):
        hashes = sealed_hashes(responses_file(run_dir))
        if not hashes:
            if private_file(root, suite, run_dir.name).is_file():
                raise CommitError(f"run {run_dir.name}: private records not sealed: run `tally results seal "
                                  f"{suite}` first")
            continue
        kept = private_file(root, suite, run_dir.name).is_file()
        data = full_file(root, suite, run_dir, hashes) if kept else None
        lines = sealed_line_hashes(responses_file(run_dir))
        entries.append({"suite": suite, "run": run_dir.name, "records": len(hashes),
                        "merkle_root": tree_root(lines), "file_sha256": sha256_hex(data) if data is not None else None})
    return entries


def commit_responses(root: Path, round_name: str, key_path: Path, committed_at: str | None = None) -> dict:
    """Sign responses.json for ROUND (see the module docstring)."""
    from .chain import head_link
    from .keyfiles import fingerprint, load_private_key
    from .keys import find_key, load_registry, now_utc
    from .rounds import is_utc_time
    from .sshsig import sign

    out = round_dir(root, round_name)
    if not is_safe_id(round_name) or not (out / SUMS).is_file():
        raise CommitError(f"no committed round {round_name!r} in content/commitments/")
    if (out / RESPONSES).exists():
        raise CommitError(f"{out / RESPONSES} already exists: a commitment is never rewritten")
    if committed_at is not None and not is_utc_time(committed_at):
        raise CommitError(f"--committed-at {committed_at!r} must look like 2026-10-30T09:00:00Z")
    manifest = read_manifest(root, round_name) or {}
    suite = str(manifest.get("benchmark", ""))
    key = load_private_key(key_path, root)
    record = find_key(load_registry(root), fingerprint_=fingerprint(bytes(key.verify_key)))
    if record is None or record.get("status") != "active":
        raise CommitError(f"key {fingerprint(bytes(key.verify_key))} is not an active key in content/keys/keys.json")
    entries = run_entries(root, suite, round_name)
    if not entries:
        raise CommitError(f"no run of round {round_name} in results/{suite}/ has sealed private records")
    statement = canonical({
        "format": RESPONSES_FORMAT, "round": round_name, "benchmark": suite,
        "sha256sums_sha256": hashlib.sha256((out / SUMS).read_bytes()).hexdigest(),
        "committed_at": committed_at or now_utc(), "committed_at_is": DATE_CLAIM,
        "merkle": {"tree": "RFC 6962, SHA-256", "entries": "SHA-256 of each sealed record line in the run's "
                   "results/ file (without the newline), in file order: its verdicts, figures and the SHA-256 "
                   "of its full private record"},
        "runs": entries, "records": sum(e["records"] for e in entries),
        "signer": {"key": record["name"], "principal": record["principal"], "namespace": record["namespaces"][0],
                   "fingerprint": record["fingerprint"]},
        "previous": head_link(root),
    })
    (out / RESPONSES_SIG).write_bytes(sign(key, statement, record["namespaces"][0]).encode())
    (out / RESPONSES).write_bytes(statement)
    return {"runs": len(entries), "records": sum(e["records"] for e in entries), "path": out / RESPONSES}


def statement_runs(folder: Path) -> list[dict]:
    stmt, _ = parse_canonical((folder / RESPONSES).read_bytes())
    runs = stmt.get("runs") if isinstance(stmt, dict) else None
    return [r for r in runs if isinstance(r, dict) and is_safe_id(r.get("run"))] if isinstance(runs, list) else []


def reveal_files(root: Path, round_name: str, withheld: str | None = None) -> dict[str, bytes]:
    """At reveal: the file of each committed run, from private storage, checked against the commitment.
    `withheld`: why they are not revealed (the reveal statement says it); then nothing is read."""
    folder = round_dir(root, round_name)
    if not (folder / RESPONSES).is_file() or withheld:
        return {}
    out, errors = {}, []
    for entry in statement_runs(folder):
        if entry.get("file_sha256") is None:
            errors.append(f"run {entry['run']}: its full private records were not kept when they were committed: "
                          "reveal the items with --responses-withheld REASON")
            continue
        run_dir = root / "results" / str(entry.get("suite")) / entry["run"]
        try:
            data = full_file(root, str(entry.get("suite")), run_dir, sealed_hashes(responses_file(run_dir)))
        except (CommitError, OSError) as exc:
            errors.append(str(exc))
            continue
        if sha256_hex(data) != entry.get("file_sha256"):
            errors.append(f"run {entry['run']}: the private records differ from their commitment")
        out[f"{RESPONSES_DIR}/{entry['run']}.jsonl"] = data
    if errors:
        raise CommitError("nothing revealed:\n  " + "\n  ".join(errors) + "\n(to reveal the items without the "
                          "committed responses, say why with --responses-withheld REASON)")
    return out


# ------------------------------------------------------------------ tally verify


def check_responses(root: Path, name: str, folder: Path, manifest: dict, trust, checks: Checks) -> None:
    """responses.json of a round: form, binding to the round, signature, the sealed records in
    results/, and after the reveal the published files."""
    from . import COMMIT_NAMESPACE, REVEAL
    from .trust import parse_time
    from .verify import check_signature

    data = (folder / RESPONSES).read_bytes()
    stmt, problem = parse_canonical(data)
    stmt = stmt if isinstance(stmt, dict) else {}
    problems = [problem] if problem else []
    expected = {"round": name, "benchmark": manifest.get("benchmark"),
                "sha256sums_sha256": hashlib.sha256((folder / SUMS).read_bytes()).hexdigest()}
    if stmt.get("format") not in RESPONSES_FORMATS:
        problems.append(f"format is {stmt.get('format')!r}, expected one of {', '.join(RESPONSES_FORMATS)}")
    problems += [f"{k} is {stmt.get(k)!r}, expected {v!r}" for k, v in expected.items() if stmt.get(k) != v]
    when, committed = parse_time(stmt.get("committed_at")), parse_time(manifest.get("committed_at"))
    if when is None:
        problems.append("committed_at is not an ISO 8601 time with a zone")
    elif committed is not None and when < committed:
        problems.append(f"committed_at {stmt.get('committed_at')} is before the round's items were committed")
    runs = statement_runs(folder)
    if len(runs) != len(stmt.get("runs") or []) or sum(int(r.get("records", 0)) for r in runs) != stmt.get("records"):
        problems.append("runs must be objects with a safe run id, and records their total")
    checks.add(name, "responses statement", not problems, "; ".join(problems) or
               f"{RESPONSES} commits to {stmt.get('records')} private responses of {len(runs)} runs on "
               f"{stmt.get('committed_at')} (the signer's claim)")
    signer: dict = stmt["signer"] if isinstance(stmt.get("signer"), dict) else {}
    key = check_signature(name, "responses signature", folder / RESPONSES_SIG, data, signer, COMMIT_NAMESPACE,
                          trust, checks)
    if key is not None and (why := trust.when_not_active(key, stmt.get("committed_at"))):
        checks.add(name, "responses signer", False, f"the responses statement is {why}")
    form = stmt.get("format")
    _check_results(root, name, runs, str(manifest.get("benchmark")), form, checks)
    if (folder / REVEAL).is_file():
        if _check_revealed_responses(root, name, folder, data, runs, form, checks):
            check_rescored(root, name, folder, runs, form, checks)
    elif (folder / RESPONSES_DIR).exists():
        checks.add(name, "revealed responses", False, f"{RESPONSES_DIR}/ is published without a signed reveal statement")


def check_uncommitted(root: Path, name: str, manifest: dict, checks: Checks) -> None:
    """A round whose results are published (runs naming it hold sealed private records) must have a
    signed commitment to them: without one its private scores could be changed without a trace."""
    runs = [d.name for d in round_runs(root, str(manifest.get("benchmark")), name)
            if sealed_hashes(responses_file(d))]
    checks.add(name, "responses commitment", not runs, f"{len(runs)} run(s) of this round publish sealed private "
               f"records in results/ ({', '.join(runs[:3])}), but no signed {RESPONSES} commits to them: their "
               "private scores could be changed without a trace (`tally commit-responses`)" if runs
               else "no run of this round publishes sealed private records yet")


def _check_results(root: Path, name: str, runs: list[dict], suite: str, form: object, checks: Checks) -> None:
    problems, moved = [], []
    for entry in runs:
        path = responses_file(root / "results" / str(entry.get("suite")) / entry["run"])
        if (other := moved_to(root, str(entry.get("suite")), entry["run"], name)) is not None:
            moved.append(f"{entry['run']} ({other})")  # that round's own commitment covers it
            continue
        if not path.is_file():
            problems.append(f"run {entry['run']}: not in results/")
            continue
        hashes = leaves(path, form)
        if len(hashes) != entry.get("records") or tree_root(hashes) != entry.get("merkle_root"):
            problems.append(f"run {entry['run']}: the sealed records in results/ are not the committed ones "
                            f"({len(hashes)} records, root {tree_root(hashes)[:16]}...)")
    listed = {r["run"] for r in runs}
    problems += [f"run {d.name} of this round has sealed private records that are not committed"
                 for d in round_runs(root, suite, name) if d.name not in listed and sealed_hashes(responses_file(d))]
    what = "verdicts and all" if form == RESPONSES_FORMAT else "their full records; their verdicts are not covered"
    note = (f"; {len(moved)} committed run id(s) now hold runs of another committed round, checked against "
            f"that round's commitment, not this one: {', '.join(moved[:5])}") if moved else ""
    here = len(runs) - len(moved)
    checks.add(name, "sealed results", not problems, "; ".join(problems[:5]) or
               (f"the sealed private records of {here} runs in results/ are the committed ones ({what})" if here
                else "no run of this round is in results/ now") + note)


def _check_revealed_responses(root: Path, name: str, folder: Path, data: bytes, runs: list[dict], form: object,
                              checks: Checks) -> bool:
    from . import REVEAL

    reveal, _ = parse_canonical((folder / REVEAL).read_bytes())
    problems = []
    if not isinstance(reveal, dict) or reveal.get("responses_sha256") != sha256_hex(data):
        problems.append(f"the reveal statement does not name this {RESPONSES}")
    listed = {f"{r['run']}.jsonl": r for r in runs}
    base = folder / RESPONSES_DIR
    present = {p.name for p in base.iterdir()} if base.is_dir() else set()
    withheld = reveal.get("responses_withheld") if isinstance(reveal, dict) else None
    if isinstance(withheld, str) and withheld:
        checks.add(name, "revealed responses", not present, f"{RESPONSES_DIR}/ is published though the reveal "
                   "statement withholds the responses" if present else "not revealed; the signed reveal statement "
                   f"says why: {withheld}")
        return False
    problems += [f"{RESPONSES_DIR}/{f}: published but not committed" for f in sorted(present - set(listed))]
    for fname, entry in sorted(listed.items()):
        if fname not in present:
            problems.append(f"{RESPONSES_DIR}/{fname}: withheld, though the round is revealed")
            continue
        raw = (base / fname).read_bytes()
        hashes = [line_sha256(x) for x in raw.split(b"\n") if x.strip()]
        if form == RESPONSES_FORMAT and moved_to(root, str(entry.get("suite")), entry["run"], name) is not None:
            # results/ holds a later round's run: the signed file hash and count; rescoring checks the root
            same = sha256_hex(raw) == entry.get("file_sha256") and len(hashes) == entry.get("records")
        elif form == RESPONSES_FORMAT:
            path = responses_file(root / "results" / str(entry.get("suite")) / entry["run"])
            same = path.is_file() and hashes == sealed_hashes(path) and sha256_hex(raw) == entry.get("file_sha256")
        else:
            same = sha256_hex(raw) == entry.get("file_sha256") and tree_root(hashes) == entry.get("merkle_root")
        if not same:
            problems.append(f"{RESPONSES_DIR}/{fname}: differs from its commitment")
    return checks.add(name, "revealed responses", not problems, "; ".join(problems[:5]) or
                      f"the private responses of all {len(listed)} committed runs are published and match")
