"""Signed commitments to private items, checkable with ssh-keygen, sha256sum and openssl.

A round's folder `content/commitments/<round>/` holds `manifest.json`, `SHA256SUMS` (the signed list),
`SHA256SUMS.sig` (SSHSIG) and `SHA256SUMS.ed25519` (raw Ed25519, base64), and after reveal `items/`
with the exact committed item files and `reveal.json` with `reveal.json.sig` (the signed reveal
statement). Public keys live in `content/keys/`; the root key is pinned by its fingerprint
(`tally verify --trust`, or `trust` in tally.toml) and every later key is handed over by a rotation
statement signed by the old and the new key.

The signed files of all rounds form one chain: each manifest and each reveal statement names the
SHA-256 of the signed file before it (`previous`), and the newest one's SHA-256 is the head.
"""

from __future__ import annotations

ITEM_FORMAT = "tally-commitment-item-v1"
MANIFEST_FORMAT = "tally-commitment-manifest-v2"
ROTATION_FORMAT = "tally-key-rotation-v2"
REVEAL_FORMAT = "tally-reveal-v1"
COMMIT_NAMESPACE = "tally-commitments-v1@{site}"
ROTATION_NAMESPACE = "tally-key-rotation-v1@{site}"
REVEAL_NAMESPACE = "tally-reveal-v1@{site}"
DEFAULT_SITE = "tally.example"

COMMITMENTS_DIR = ("content", "commitments")
KEYS_DIR = ("content", "keys")
PRIVATE_STORAGE = ("private", "commitments")

MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
SUMS_SSHSIG = "SHA256SUMS.sig"
SUMS_ED25519 = "SHA256SUMS.ed25519"
ITEMS = "items"
REVEAL = "reveal.json"
REVEAL_SIG = "reveal.json.sig"
RESPONSES = "responses.json"  # commitment to the round's private responses (responses.py)
RESPONSES_SIG = "responses.json.sig"
RESPONSES_DIR = "responses"


def namespaces(site: str) -> list[str]:
    """A key's namespaces, one per kind of signed file: commitments, key rotations, reveals."""
    return [ns.format(site=site) for ns in (COMMIT_NAMESPACE, ROTATION_NAMESPACE, REVEAL_NAMESPACE)]


def namespace_site(namespace: object, template: str) -> str | None:
    """The site of `namespace` when it is of the kind `template` (e.g. COMMIT_NAMESPACE), else None."""
    prefix = template.split("{", 1)[0]
    if isinstance(namespace, str) and namespace.startswith(prefix) and len(namespace) > len(prefix):
        return namespace[len(prefix):]
    return None


class CommitError(Exception):
    """A user-facing problem: a refused key file, a bad round name, missing inputs."""
