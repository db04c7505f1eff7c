"""Ed25519 key files: OpenSSH public key lines, SPKI PEM, unencrypted OpenSSH private keys, fingerprints."""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import stat
from pathlib import Path

from nacl.signing import SigningKey

from ..private_workspace import git_work_tree, holding_project
from . import CommitError
from .sshwire import Reader, armor, string, u32, unarmor

KEY_TYPE = "ssh-ed25519"
_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")  # SubjectPublicKeyInfo for Ed25519 (RFC 8410)
_MAGIC = b"openssh-key-v1\x00"


def public_blob(pub: bytes) -> bytes:
    return string(KEY_TYPE) + string(pub)


def pub_from_blob(blob: bytes) -> bytes:
    r = Reader(blob)
    if r.string() != KEY_TYPE.encode():
        raise ValueError("not an ssh-ed25519 key")
    pub = r.string()
    if len(pub) != 32 or not r.done():
        raise ValueError("bad ssh-ed25519 key blob")
    return pub


def fingerprint(pub: bytes) -> str:
    """The fingerprint exactly as `ssh-keygen -l` prints it."""
    digest = hashlib.sha256(public_blob(pub)).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def pub_line(pub: bytes, comment: str = "") -> str:
    line = f"{KEY_TYPE} {base64.b64encode(public_blob(pub)).decode()}"
    return f"{line} {comment}".rstrip() + "\n"


def parse_pub_line(line: str) -> bytes:
    parts = line.split()
    if len(parts) < 2 or parts[0] != KEY_TYPE:
        raise ValueError("not an ssh-ed25519 public key line")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except ValueError:
        raise ValueError("bad base64 in public key line") from None
    return pub_from_blob(blob)


def spki_pem(pub: bytes) -> str:
    text = base64.b64encode(_SPKI_PREFIX + pub).decode()
    return f"-----BEGIN PUBLIC KEY-----\n{text}\n-----END PUBLIC KEY-----\n"


def parse_spki_pem(text: str) -> bytes:
    der = unarmor("PUBLIC KEY", text)
    if len(der) != len(_SPKI_PREFIX) + 32 or not der.startswith(_SPKI_PREFIX):
        raise ValueError("not an Ed25519 SubjectPublicKeyInfo")
    return der[len(_SPKI_PREFIX):]


def private_key_text(key: SigningKey, comment: str) -> str:
    """An unencrypted OpenSSH private key ("openssh-key-v1"), as `ssh-keygen -N ''` writes one."""
    pub = bytes(key.verify_key)
    check = secrets.token_bytes(4)
    body = (check + check + string(KEY_TYPE) + string(pub) + string(bytes(key) + pub) + string(comment))
    body += bytes(range(1, 1 + (-len(body) % 8)))
    blob = (_MAGIC + string("none") + string("none") + string(b"") + u32(1)
            + string(public_blob(pub)) + string(body))
    return armor("OPENSSH PRIVATE KEY", blob)


def parse_private_key(text: str) -> SigningKey:
    r = Reader(unarmor("OPENSSH PRIVATE KEY", text))
    if r.take(len(_MAGIC)) != _MAGIC:
        raise ValueError("not an OpenSSH private key")
    cipher, kdf, _ = r.string(), r.string(), r.string()
    if cipher != b"none" or kdf != b"none":
        raise ValueError("passphrase-protected keys are not supported; keep the key file offline instead")
    if r.u32() != 1:
        raise ValueError("expected exactly one key")
    pub = pub_from_blob(r.string())
    p = Reader(r.string())
    if p.take(4) != p.take(4):
        raise ValueError("corrupt private key (check bytes differ)")
    if p.string() != KEY_TYPE.encode() or p.string() != pub:
        raise ValueError("private key does not match its public key")
    secret = p.string()
    if len(secret) != 64 or secret[32:] != pub:
        raise ValueError("bad ssh-ed25519 private key")
    key = SigningKey(secret[:32])
    if bytes(key.verify_key) != pub:
        raise ValueError("private key does not match its public key")
    return key


def refuse_inside_project(path: Path, root: Path) -> None:
    """A private key must be outside the project's git work tree (or, when the project is not in
    one, outside the project folder): there it could be committed, published or deleted by a build.
    Paths are resolved, so `..`, symbolic links and the current folder make no difference."""
    tree = git_work_tree(root)
    where = f"the project's git work tree {tree}" if tree else f"the project folder {Path(root).resolve()}"
    if holding_project(path, root) is not None:
        raise CommitError(f"{path}: a private key must not be inside {where}: it could be committed "
                          "or published. Keep it outside, for example in a folder of your home directory")


def write_private_key(path: Path, key: SigningKey, comment: str, root: Path) -> None:
    """Write the key with mode 0600, never inside the project and never over an existing file."""
    refuse_inside_project(path, root)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CommitError(f"{path}: already exists; refusing to overwrite a key") from None
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, private_key_text(key, comment).encode())
    finally:
        os.close(fd)


def load_private_key(path: Path, root: Path | None = None) -> SigningKey:
    """Read a private key, refusing one that group or others may access (as ssh does), and one inside
    the project at `root` (when given)."""
    if root is not None:
        refuse_inside_project(path, root)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise CommitError(f"{path}: no such key file") from None
    if not stat.S_ISREG(mode):
        raise CommitError(f"{path}: not a regular file")
    if mode & 0o077:
        raise CommitError(f"{path}: private key is accessible by group or others (mode {stat.S_IMODE(mode):04o}); "
                          f"refusing to use it. Run: chmod 600 {path}")
    try:
        return parse_private_key(Path(path).read_text(encoding="ascii"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CommitError(f"{path}: {exc}") from None
