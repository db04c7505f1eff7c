"""Signed commitments to private items, checkable with ssh-keygen, sha256sum and openssl.

A round's folder `content/commitments/<round>/` holds `manifest.json`, `SHA256SUMS` (the one signed
file), `SHA256SUMS.sig` (SSHSIG) and `SHA256SUMS.ed25519` (raw Ed25519, base64), and after reveal
`items/` with the exact committed item files. Public keys live in `content/keys/`.
"""

from __future__ import annotations

ITEM_FORMAT = "tally-commitment-item-v1"
MANIFEST_FORMAT = "tally-commitment-manifest-v1"
ROTATION_FORMAT = "tally-key-rotation-v1"
COMMIT_NAMESPACE = "tally-commitments-v1@{site}"
ROTATION_NAMESPACE = "tally-key-rotation-v1@{site}"
DEFAULT_SITE = "tally.example"

COMMITMENTS_DIR = ("content", "commitments")
KEYS_DIR = ("content", "keys")
PRIVATE_STORAGE = ("private", "commitments")

MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
SUMS_SSHSIG = "SHA256SUMS.sig"
SUMS_ED25519 = "SHA256SUMS.ed25519"
ITEMS = "items"


class CommitError(Exception):
    """A user-facing problem: a refused key file, a bad round name, missing inputs."""
