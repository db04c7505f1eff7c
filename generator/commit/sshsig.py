"""SSHSIG signatures (OpenSSH PROTOCOL.sshsig) with Ed25519 keys, and `allowed_signers` checks.

What `sign` writes is byte-identical to `ssh-keygen -Y sign -n NAMESPACE` with the same key (Ed25519
signatures are deterministic), and `verify_allowed` applies the rules `ssh-keygen -Y verify` does.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from .keyfiles import KEY_TYPE, parse_pub_line, pub_from_blob, public_blob
from .sshwire import Reader, armor, string, u32, unarmor

_MAGIC = b"SSHSIG"
_LABEL = "SSH SIGNATURE"
_HASHES = {"sha512": hashlib.sha512, "sha256": hashlib.sha256}


def _signed_data(namespace: str, hash_alg: str, message: bytes) -> bytes:
    digest = _HASHES[hash_alg](message).digest()
    return _MAGIC + string(namespace) + string(b"") + string(hash_alg) + string(digest)


def sign(key: SigningKey, message: bytes, namespace: str) -> str:
    """An armoured SSHSIG over `message` (hash sha512), as `ssh-keygen -Y sign` writes it."""
    sig = key.sign(_signed_data(namespace, "sha512", message)).signature
    blob = (_MAGIC + u32(1) + string(public_blob(bytes(key.verify_key))) + string(namespace)
            + string(b"") + string("sha512") + string(string(KEY_TYPE) + string(sig)))
    return armor(_LABEL, blob)


def verify(armored: str, message: bytes, namespace: str) -> bytes:
    """Check an SSHSIG; return the signer's 32-byte public key. Raises ValueError on any failure."""
    r = Reader(unarmor(_LABEL, armored))
    if r.take(6) != _MAGIC or r.u32() != 1:
        raise ValueError("not an SSHSIG version 1 signature")
    pub = pub_from_blob(r.string())
    ns, _reserved, hash_alg, sigblob = r.string(), r.string(), r.string().decode(), r.string()
    if not r.done():
        raise ValueError("trailing data after the signature")
    if ns != namespace.encode():
        raise ValueError(f"namespace is {ns.decode(errors='replace')!r}, expected {namespace!r}")
    if hash_alg not in _HASHES:
        raise ValueError(f"unsupported hash {hash_alg!r}")
    s = Reader(sigblob)
    if s.string() != KEY_TYPE.encode():
        raise ValueError("signature is not ssh-ed25519")
    sig = s.string()
    try:
        VerifyKey(pub).verify(_signed_data(namespace, hash_alg, message), sig)
    except BadSignatureError:
        raise ValueError("signature does not match the signed data") from None
    return pub


# --- allowed_signers -----------------------------------------------------------------------------

@dataclass(frozen=True)
class AllowedSigner:
    principals: str
    options: dict[str, str | bool]
    pub: bytes
    line: int


def _tokens(line: str) -> list[str]:
    return re.findall(r'(?:"[^"]*"|[^\s"])+', line)


def _options(text: str) -> dict[str, str | bool]:
    out: dict[str, str | bool] = {}
    for part in re.findall(r'(?:"[^"]*"|[^,"])+', text):
        name, eq, value = part.partition("=")
        out[name.lower()] = value.strip('"') if eq else True
    return out


def parse_allowed_signers(text: str) -> list[AllowedSigner]:
    """Parse an allowed_signers file; raises ValueError naming the line of a malformed entry."""
    entries = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        toks = _tokens(line)
        if len(toks) >= 2 and toks[1] == KEY_TYPE:
            principals, opts, rest = toks[0], {}, toks[1:]
        elif len(toks) >= 3:
            principals, opts, rest = toks[0], _options(toks[1]), toks[2:]
        else:
            raise ValueError(f"allowed_signers line {number}: expected principals, options and a key")
        try:
            pub = parse_pub_line(" ".join(rest[:2]))
        except ValueError as exc:
            raise ValueError(f"allowed_signers line {number}: {exc}") from None
        entries.append(AllowedSigner(principals.strip('"'), opts, pub, number))
    return entries


def _glob(pattern: str, value: str) -> bool:
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, value, re.DOTALL) is not None


def match_pattern_list(value: str, patterns: str) -> bool:
    """OpenSSH pattern lists: comma-separated globs; a matching `!pattern` rejects."""
    matched = False
    for pattern in patterns.split(","):
        negated = pattern.startswith("!")
        if _glob(pattern[1:] if negated else pattern, value):
            if negated:
                return False
            matched = True
    return matched


def _ssh_time(value: str) -> dt.datetime:
    v = value.rstrip("Zz")
    fmt = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}.get(len(v))
    if fmt is None:
        raise ValueError(f"bad time {value!r}")
    return dt.datetime.strptime(v, fmt).replace(tzinfo=dt.UTC)


def check_allowed(entries: list[AllowedSigner], principal: str, namespace: str, pub: bytes,
                  now: dt.datetime | None = None) -> str | None:
    """Why `pub` may not sign for `principal` in `namespace`, or None when an entry allows it."""
    now = now or dt.datetime.now(dt.UTC)
    reasons = []
    for e in entries:
        if e.pub != pub or not match_pattern_list(principal, e.principals):
            continue
        if e.options.get("cert-authority"):
            reasons.append(f"line {e.line} is a certificate authority entry")
        elif "namespaces" in e.options and not match_pattern_list(namespace, str(e.options["namespaces"])):
            reasons.append(f"line {e.line} does not allow namespace {namespace!r}")
        elif "valid-before" in e.options and _ssh_time(str(e.options["valid-before"])) < now:
            reasons.append(f"line {e.line} expired (valid-before {e.options['valid-before']})")
        elif "valid-after" in e.options and _ssh_time(str(e.options["valid-after"])) > now:
            reasons.append(f"line {e.line} is not yet valid (valid-after {e.options['valid-after']})")
        else:
            return None
    if reasons:
        return "; ".join(reasons)
    return f"no allowed_signers entry for principal {principal!r} with this key"
