"""The page's table of tamper cases, made real: each case is done to a copy of a project shaped like the
example (r1 committed and revealed by the root key a, a rotation from a to b, r2 committed by b), then
`tally verify --trust PIN --head HEAD` and the page's shell recipe, verbatim, run on it. What each
catches must be what the page's table says, and the table must list exactly these cases."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from nacl.signing import SigningKey
from test_commit_support import (
    PAGE,
    copy_project,
    fingerprint_of,
    invoke,
    items_dir,
    make_project,
    round_dir,
    run_recipe,
)

from generator.commit import namespaces, sshsig
from generator.commit.canonical import canonical, parse_sums, render_sums, sha256_hex
from generator.commit.keyfiles import (
    fingerprint,
    load_private_key,
    pub_line,
    spki_pem,
)
from generator.commit.keys import allowed_signers_line
from tests.test_commit_responses import publish_round_results


@dataclass(frozen=True)
class World:
    root: Path
    key_a: Path
    key_b: Path
    pin: str
    head: str
    base: Path


def _ok(result) -> None:
    assert result.exit_code == 0, result.output


def build_world(base: Path, name: str = "proj") -> World:
    """r1 committed, its private responses committed and both revealed by a (pinned), a rotation a -> b,
    r2 committed by b."""
    root, key_a = make_project(base, n_private=7)
    _ok(invoke("commit", "r1", "--items", items_dir(root), "--key", key_a, "--root", root,
               "--committed-at", "2026-05-01T00:00:00Z"))
    publish_round_results(root, "r1", key_a, "2026-05-15T00:00:00Z", 7)
    _ok(invoke("reveal", "r1", "--from", root / "private/commitments/r1", "--key", key_a, "--root", root,
               "--revealed-at", "2026-06-01T00:00:00Z"))
    key_b = base / "secret" / "test-b.key"
    _ok(invoke("keys", "new", "test-b", "--private-key", key_b, "--root", root))
    _ok(invoke("keys", "rotate", "--old", key_a, "--new", key_b, "--date", "2026-07-01T00:00:00Z", "--root", root))
    _ok(invoke("commit", "r2", "--items", items_dir(root), "--key", key_b, "--root", root,
               "--committed-at", "2026-08-01T00:00:00Z"))
    head = hashlib.sha256((round_dir(root, "r2") / "SHA256SUMS").read_bytes()).hexdigest()
    return World(root, key_a, key_b, fingerprint_of(root, "test-a"), head, base)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    return build_world(tmp_path_factory.mktemp("world"))


def sums_hash(root: Path, name: str, file: str = "SHA256SUMS") -> str:
    return hashlib.sha256((round_dir(root, name) / file).read_bytes()).hexdigest()


def resign(root: Path, name: str, key_path: Path, change) -> str:
    """The key holder edits round `name`'s manifest with `change` and signs it again; returns the new head."""
    folder = round_dir(root, name)
    manifest = json.loads((folder / "manifest.json").read_bytes())
    change(manifest)
    data = canonical(manifest)
    (folder / "manifest.json").write_bytes(data)
    entries, _ = parse_sums((folder / "SHA256SUMS").read_bytes())
    entries[0] = ("manifest.json", sha256_hex(data))
    sums = render_sums(entries)
    key = load_private_key(key_path) if isinstance(key_path, Path) else key_path
    (folder / "SHA256SUMS").write_bytes(sums)
    (folder / "SHA256SUMS.sig").write_text(sshsig.sign(key, sums, manifest["signer"]["namespace"]))
    (folder / "SHA256SUMS.ed25519").write_bytes(base64.b64encode(key.sign(sums).signature) + b"\n")
    return sums_hash(root, name)


def first_item(root: Path) -> Path:
    return min((round_dir(root, "r1") / "items").iterdir())


def new_key(root: Path, where: Path, name: str = "test-c") -> Path:
    key = where / f"{name}.key"
    _ok(invoke("keys", "new", name, "--private-key", key, "--root", root))
    return key


def commit_r3(root: Path, key: Path, date: str = "2026-09-01T00:00:00Z") -> str:
    _ok(invoke("commit", "r3", "--items", items_dir(root), "--key", key, "--root", root, "--committed-at", date))
    return sums_hash(root, "r3")


# --- the cases, named as in the page's table; each returns the head the reader is given (None: the
# --- project's published head) ----------------------------------------------------------------------

def edited_item(root, w, mp):
    path = first_item(root)
    path.write_bytes(path.read_bytes().replace(b'"kind":"printed"', b'"kind":"computed"', 1))


def withheld_one(root, w, mp):
    first_item(root).unlink()


def withheld_all(root, w, mp):
    shutil.rmtree(round_dir(root, "r1") / "items")


def withheld_with_statement(root, w, mp):
    r1 = round_dir(root, "r1")
    shutil.rmtree(r1 / "items")
    (r1 / "reveal.json").unlink()
    (r1 / "reveal.json.sig").unlink()


def extra_item(root, w, mp):
    shutil.copy(first_item(root), round_dir(root, "r1") / "items" / "ffffffffffffffff.json")


def swapped_lines(root, w, mp):
    path = round_dir(root, "r2") / "SHA256SUMS"
    lines = path.read_bytes().split(b"\n")
    lines[1], lines[2] = lines[2], lines[1]
    path.write_bytes(b"\n".join(lines))


def swapped_commitments(root, w, mp):
    path = round_dir(root, "r1") / "SHA256SUMS"
    entries, _ = parse_sums(path.read_bytes())
    (a, da), (b, db) = entries[1], entries[2]
    entries[1], entries[2] = (a, db), (b, da)
    path.write_bytes(render_sums(entries))


def redated_manifest(root, w, mp):
    path = round_dir(root, "r2") / "manifest.json"
    manifest = json.loads(path.read_bytes())
    manifest["committed_at"] = "2026-01-01T00:00:00Z"
    path.write_bytes(canonical(manifest))


def redated_resigned(root, w, mp):
    return resign(root, "r2", w.key_b, lambda m: m.update(committed_at="2026-04-01T00:00:00Z"))


def deleted_manifest(root, w, mp):
    (round_dir(root, "r1") / "manifest.json").unlink()


def removed_newest(root, w, mp):
    shutil.rmtree(round_dir(root, "r2"))


def renamed_folder(root, w, mp):
    round_dir(root, "r1").rename(round_dir(root, "r0"))


def copied_round(root, w, mp):
    shutil.copytree(round_dir(root, "r2"), round_dir(root, "r3"))


def crlf(root, w, mp):
    path = round_dir(root, "r2") / "SHA256SUMS"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def replaced_keys(root, w, mp):
    evil = build_world(w.base / f"evil-{secrets.token_hex(4)}")
    for folder in ("keys", "commitments"):
        shutil.rmtree(root / "content" / folder)
        shutil.copytree(evil.root / "content" / folder, root / "content" / folder)
    return evil.head


def appended_signer(root, w, mp):
    x = SigningKey.generate()
    pub = bytes(x.verify_key)
    keys = root / "content" / "keys"
    with open(keys / "allowed_signers", "a", encoding="utf-8") as f:
        f.write(allowed_signers_line("test-b@tally.example", namespaces("tally.example"), pub))
    (keys / "test-b.pem").write_text(spki_pem(pub))
    registry = json.loads((keys / "keys.json").read_text())
    record = next(r for r in registry["keys"] if r["name"] == "test-b")
    record.update(fingerprint=fingerprint(pub), public_key=pub_line(pub).strip())
    for rot in registry["rotations"]:
        rot["new_fingerprint"] = fingerprint(pub)
    (keys / "keys.json").write_text(json.dumps(registry, indent=2))
    return resign(root, "r2", x, lambda m: m["signer"].update(fingerprint=fingerprint(pub)))


def key_without_rotation(root, w, mp):
    return commit_r3(root, new_key(root, root.parent / "evil"))


def forged_rotation(root, w, mp):
    c_path = new_key(root, root.parent / "evil")
    c = load_private_key(c_path)
    keys = root / "content" / "keys"
    registry = json.loads((keys / "keys.json").read_text())
    who = {r["name"]: {"fingerprint": r["fingerprint"], "name": r["name"], "principal": r["principal"],
                       "public_key": r["public_key"]} for r in registry["keys"]}
    namespace = "tally-key-rotation-v1@tally.example"
    statement = canonical({"format": "tally-key-rotation-v2", "old": who["test-b"], "new": who["test-c"],
                           "date": "2026-08-15T00:00:00Z", "date_is": "the signers' own claim",
                           "namespace": namespace, "reason": ""})
    (keys / "rotations" / "test-b--test-c.json").write_bytes(statement)
    for role in ("old", "new"):
        (keys / "rotations" / f"test-b--test-c.{role}.sig").write_text(sshsig.sign(c, statement, namespace))
    return commit_r3(root, c_path)


def rotation_namespace(root, w, mp):
    return resign(root, "r2", w.key_b, lambda m: m["signer"].update(namespace="tally-key-rotation-v1@tally.example"))


def _revealed_r3(root, w, mp, salt) -> str:
    from generator.commit import rounds

    mp.setattr(rounds, "new_salt", salt)
    mp.setattr(rounds, "salt_problems", lambda salts: [])  # a key holder with a broken or patched Tally
    commit_r3(root, w.key_b)
    # `tally reveal` writes the statement, then its own check fails on the salts (exit status 1).
    revealed = invoke("reveal", "r3", "--from", root / "private/commitments/r3", "--key", w.key_b, "--root", root,
                      "--revealed-at", "2026-09-02T00:00:00Z")
    assert revealed.exit_code == 1 and "salt" in revealed.output, revealed.output
    return sums_hash(root, "r3", "reveal.json")


def zero_salts(root, w, mp):
    return _revealed_r3(root, w, mp, lambda: "00" * 32)


def one_salt(root, w, mp):
    salt = secrets.token_hex(32)
    return _revealed_r3(root, w, mp, lambda: salt)


def wrong_merkle(root, w, mp):
    return resign(root, "r2", w.key_b, lambda m: m["merkle"].update(root="ab" * 32))


def retired_key_signs(root, w, mp):
    path = root / "content/keys/keys.json"
    original = path.read_bytes()
    registry = json.loads(original)
    registry["keys"][0]["status"] = "active"  # so that `tally commit` accepts the retired key
    path.write_text(json.dumps(registry))
    head = commit_r3(root, w.key_a)
    path.write_bytes(original)
    return head


def _response_file(root: Path) -> Path:
    return round_dir(root, "r1") / "responses" / "model-a.jsonl"


def edited_response(root, w, mp):
    path = _response_file(root)
    path.write_bytes(path.read_bytes().replace(b"234.56", b"234.57", 1))


def withheld_responses(root, w, mp):
    _response_file(root).unlink()


def extra_responses(root, w, mp):
    shutil.copy(_response_file(root), _response_file(root).with_name("model-c.jsonl"))


def removed_responses_commitment(root, w, mp):
    for name in ("responses.json", "responses.json.sig"):
        (round_dir(root, "r1") / name).unlink()


def changed_private_verdict(root, w, mp):
    """A wrong sealed verdict made correct, its box closed again (as someone holding the item could)."""
    from tests.test_commit_responses import _changed_stub_verdict

    _changed_stub_verdict(root)


def reused_salts(root, w, mp):
    """A key holder commits and reveals r3 with the salts r1 already revealed."""
    from generator.commit import rounds

    salts = iter([json.loads(p.read_bytes())["salt"] for p in sorted((round_dir(root, "r1") / "items").iterdir())])
    mp.setattr(rounds, "new_salt", lambda: next(salts))
    commit_r3(root, w.key_b)
    _ok(invoke("reveal", "r3", "--from", root / "private/commitments/r3", "--key", w.key_b, "--root", root,
               "--revealed-at", "2026-09-02T00:00:00Z"))
    return sums_hash(root, "r3", "reveal.json")


def replaced_ed25519(root, w, mp):
    other = SigningKey.generate()
    sums = (round_dir(root, "r2") / "SHA256SUMS").read_bytes()
    (round_dir(root, "r2") / "SHA256SUMS.ed25519").write_bytes(base64.b64encode(other.sign(sums).signature) + b"\n")


def hidden_round(root, w, mp):
    shutil.copytree(round_dir(root, "r2"), round_dir(root, "r2").with_name(".r2"))


def uncommitted_results(root, w, mp):
    from tests.test_commit_responses import _answers, _run

    _run(root, "model-c", _answers(7), "r2")
    from click.testing import CliRunner

    from generator.cli import main

    sealed = CliRunner().invoke(main, ["results", "seal", "--all", "--root", str(root)])
    assert sealed.exit_code == 0, sealed.output


def dropped_sealed_record(root, w, mp):
    path = root / "results/extracting/model-a/responses.jsonl"
    lines = path.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if '"sealed"' in line)
    path.write_text("\n".join(lines[:k] + lines[k + 1:]) + "\n")


def _copied_run(root: Path, suite: str, run_id: str, **meta) -> None:
    """model-a's folder (sealed private records and all) copied as run `run_id` of `suite`, its run.json
    changed by `meta` (a value None removes the key)."""
    to = root / "results" / suite / run_id
    shutil.copytree(root / "results/extracting/model-a", to)
    run = json.loads((to / "run.json").read_text()) | {"run_id": run_id, "suite": suite} | meta
    (to / "run.json").write_text(json.dumps({k: v for k, v in run.items() if v is not None}))


def other_suite_results(root, w, mp):
    """Another suite's runs publish sealed records naming r1, which commits extracting's runs only (as
    the example's au-bas, LedgerShield and RA-Bench runs named extracting's round)."""
    _copied_run(root, "other-suite", "model-z")


def roundless_results(root, w, mp):
    _copied_run(root, "extracting", "model-z", round=None)


CASES = {
    "An item of a revealed round edited": edited_item,
    "One item of a revealed round withheld": withheld_one,
    "Every item of a revealed round withheld": withheld_all,
    "A revealed round's items and its reveal statement withheld": withheld_with_statement,
    "An uncommitted item added to a revealed round": extra_item,
    "Two lines of a SHA256SUMS swapped": swapped_lines,
    "The commitments of two items swapped": swapped_commitments,
    "A manifest re-dated": redated_manifest,
    "The newest round re-dated before its predecessor and re-signed (key holder)": redated_resigned,
    "A round's manifest.json deleted": deleted_manifest,
    "The newest round removed": removed_newest,
    "A round folder renamed": renamed_folder,
    "A copy of a round added as another folder": copied_round,
    "Line endings of a SHA256SUMS converted to CRLF": crlf,
    "Both keys replaced and everything re-signed": replaced_keys,
    "An attacker's key added to allowed_signers, keys.json and a .pem, the newest round re-signed with it":
        appended_signer,
    "A new key added without a rotation statement, signing a new round": key_without_rotation,
    "A rotation statement to an attacker's key, signed by the attacker only": forged_rotation,
    "A round signed in the key-rotation namespace (key holder)": rotation_namespace,
    "A round revealed with all-zero salts (key holder)": zero_salts,
    "A round revealed with one salt for every item (key holder)": one_salt,
    "A revealed private response edited": edited_response,
    "A committed run's revealed responses withheld": withheld_responses,
    "An uncommitted response file added to a revealed round": extra_responses,
    "A round's responses commitment removed": removed_responses_commitment,
    "A round revealed with the salts of an earlier revealed round (key holder)": reused_salts,
    "A round's SHA256SUMS.ed25519 replaced": replaced_ed25519,
    "A copy of a round added as a hidden folder": hidden_round,
    "A published private verdict or figure changed, before or after the reveal": changed_private_verdict,
    "A sealed private record dropped from `results/`": dropped_sealed_record,
    "A round's results published with no responses commitment": uncommitted_results,
    "Sealed private records of another suite published under a round that commits this suite's runs":
        other_suite_results,
    "Sealed private records published by a run that names no round": roundless_results,
    "A wrong Merkle root signed (key holder)": wrong_merkle,
    "A round signed by a retired key after its rotation (key holder)": retired_key_signs,
}


def page_table() -> dict[str, tuple[bool, bool]]:
    """The page's table: case -> (caught by tally verify, caught by the stock recipe)."""
    text = PAGE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (.+?) \| (caught|not caught) \| (caught|not caught) \|$", text, flags=re.MULTILINE)
    return {case: (v == "caught", s == "caught") for case, v, s in rows}


def test_the_page_table_lists_exactly_the_tested_cases():
    assert list(page_table()) == list(CASES)


def test_the_untouched_project_passes_both(world, tmp_path):
    root = copy_project(world.root, tmp_path)
    result = invoke("verify", "--root", root, "--trust", world.pin, "--head", world.head)
    assert result.exit_code == 0, result.output
    done = run_recipe(root / "content", world.pin, world.head)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("OK: 2 keys from the pinned key, 4 signed files")


@pytest.mark.parametrize("case", list(CASES))
def test_each_tamper_case_is_caught_as_the_page_says(case, world, tmp_path, monkeypatch):
    root = copy_project(world.root, tmp_path)
    head = CASES[case](root, world, monkeypatch) or world.head
    monkeypatch.undo()
    result = invoke("verify", "--root", root, "--trust", world.pin, "--head", head, "--site", "tally.example")
    assert result.exit_code in (0, 1), result.output
    stock = run_recipe(root / "content", world.pin, head)
    assert stock.returncode in (0, 1), stock.stderr.decode()
    got = (result.exit_code == 1, stock.returncode == 1)
    assert got == page_table()[case], (result.output, stock.stdout.decode(), stock.stderr.decode())
    if stock.returncode:
        assert stock.stderr.decode().splitlines()[-1].startswith("FAILED: ")  # the reason, last


def test_a_project_signed_for_another_site_fails_with_the_published_site_name(world):
    result = invoke("verify", "--root", world.root, "--trust", world.pin, "--head", world.head, "--site", "other.example")
    assert result.exit_code == 1 and "not the published other.example" in result.output
    assert run_recipe(world.root / "content", world.pin, world.head, site="other.example").returncode == 1
    ok = invoke("verify", "--root", world.root, "--trust", world.pin, "--head", world.head, "--site", "tally.example")
    assert ok.exit_code == 0 and "every signature names the published site tally.example" in ok.output
