"""What the site publishes of content/keys/ and content/commitments/: an allow-list of file kinds,
copied with the same layout; and the refusal to build at all when a private key is anywhere under
content/ or results/.

Called by the site build (generator/render/build.py); nothing else in those folders is copied, so a
stray file (a private key, a note, an editor's backup) is never published by accident.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import zlib
from pathlib import Path
from typing import BinaryIO

from ..inputs.ids import is_safe_id
from ..inputs.stored_files import MAX_INFLATED_BYTES, is_compressed
from . import (
    ITEMS,
    MANIFEST,
    RESPONSES,
    RESPONSES_DIR,
    RESPONSES_SIG,
    REVEAL,
    REVEAL_SIG,
    SUMS,
    SUMS_ED25519,
    SUMS_SSHSIG,
    CommitError,
)
from .keys import ALLOWED_SIGNERS, REGISTRY
from .sealed_memo import hashes as remembered
from .trust import ROTATIONS

PRIVATE_KEY = re.compile(rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----")
SCANNED = ("content", "results")
_CHUNK = 1 << 20
# what a file's remembered search found depends on: the pattern and how far a compressed file is inflated
_SEARCHED = "private-key " + hashlib.sha256(PRIVATE_KEY.pattern + str(MAX_INFLATED_BYTES).encode()).hexdigest()[:16]
_ROUND_FILES = {MANIFEST, SUMS, SUMS_SSHSIG, SUMS_ED25519, REVEAL, REVEAL_SIG, RESPONSES, RESPONSES_SIG}


def _named(name: str, suffix: str) -> bool:
    return name.endswith(suffix) and is_safe_id(name[:-len(suffix)])


def publishable(rel: tuple[str, ...]) -> bool:
    """Whether a file at `rel` (parts under content/) is of a kind the site publishes."""
    match rel:
        case ("keys", name):
            return name in (ALLOWED_SIGNERS, REGISTRY) or _named(name, ".pub") or _named(name, ".pem")
        case ("keys", folder, name) if folder == ROTATIONS:
            return any(_named(name, s) for s in (".json", ".old.sig", ".new.sig"))
        case ("commitments", round_name, name):
            return is_safe_id(round_name) and name in _ROUND_FILES
        case ("commitments", round_name, folder, name) if folder == ITEMS:
            return is_safe_id(round_name) and _named(name, ".json")
        case ("commitments", round_name, folder, name) if folder == RESPONSES_DIR:
            return is_safe_id(round_name) and _named(name, ".jsonl")
        case ("prereg", suite, version, name):
            return is_safe_id(suite) and is_safe_id(version) and name in ("prereg.json", "prereg.json.sig")
    return False


def holds_private_key(path: Path) -> bool:
    """Whether the file's bytes hold a PEM private key; a gzip-compressed stored file (.gz, see
    inputs/stored_files.py) is searched as it inflates, up to the most it may inflate to (one that is not
    gzip is searched as it is)."""
    if is_compressed(path):
        try:
            with gzip.open(path, "rb") as f:
                return _holds_key(f, MAX_INFLATED_BYTES)
        except (OSError, EOFError, zlib.error):  # not gzip: the loaders say so; search its bytes
            pass
    with open(path, "rb") as f:
        return _holds_key(f)


def _holds_key(f: BinaryIO | gzip.GzipFile, limit: int | None = None) -> bool:
    tail, read = b"", 0
    while chunk := f.read(_CHUNK):
        if PRIVATE_KEY.search(tail + chunk):
            return True
        tail = chunk[-64:]
        read += len(chunk)
        if limit is not None and read > limit:
            break
    return False


def _found(path: Path) -> list[str]:
    return ["private key"] if holds_private_key(path) else []


def refuse_private_keys(root: Path) -> None:
    """Raise CommitError naming the first file under content/ or results/ that holds a private key. Within
    a site build, a file found clean before and unchanged since is not searched again (sealed_memo.py)."""
    for top in SCANNED:
        base = root / top
        for path in sorted(base.rglob("*")) if base.is_dir() else []:
            if path.is_file() and remembered(path, _SEARCHED, _found):
                raise CommitError(f"refusing to publish: {path.relative_to(root).as_posix()} holds a private key. "
                                  "Move it out of the project (a key that was ever committed or published "
                                  "must be treated as exposed: rotate it)")


def publish_commitment_files(root: Path, target: Path) -> list[str]:
    """Refuse when a private key is under content/ or results/; then copy the publishable files of
    content/keys/ and content/commitments/ into `target` with the same layout. Returns their paths."""
    refuse_private_keys(root)
    content = root / "content"
    copied = []
    for top in ("keys", "commitments", "prereg"):
        base = content / top
        for path in sorted(base.rglob("*")) if base.is_dir() else []:
            rel = path.relative_to(content)
            if path.is_symlink():
                raise CommitError(f"refusing to publish: content/{rel.as_posix()} is a symbolic link")
            if not path.is_file() or not publishable(rel.parts):
                continue
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / rel)
            copied.append(rel.as_posix())
    return copied
