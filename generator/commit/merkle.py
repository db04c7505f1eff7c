"""RFC 6962 Merkle tree hash, inclusion proofs and their verification (RFC 9162, section 2.1.3.2).

Leaf hash = SHA-256(0x00 || entry), node hash = SHA-256(0x01 || left || right), the empty tree's hash
is SHA-256 of nothing, and a tree of n > 1 entries splits at the largest power of two below n. In a
round the entries are the 32-byte SHA-256 digests of the item files, in SHA256SUMS order, so the
root can be recomputed from SHA256SUMS alone, before any item is revealed.
"""

from __future__ import annotations

import hashlib


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def _root_of_hashes(hashes: list[bytes]) -> bytes:
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return node_hash(_root_of_hashes(hashes[:k]), _root_of_hashes(hashes[k:]))


def root(entries: list[bytes]) -> bytes:
    """MTH(entries): the tree head of the entries in order."""
    if not entries:
        return hashlib.sha256(b"").digest()
    return _root_of_hashes([leaf_hash(e) for e in entries])


def inclusion_proof(entries: list[bytes], index: int) -> list[bytes]:
    """PATH(index, entries): the audit path from entry `index` to the root."""
    if not 0 <= index < len(entries):
        raise IndexError(f"index {index} outside a tree of {len(entries)}")
    hashes = [leaf_hash(e) for e in entries]
    proof: list[bytes] = []
    lo, hi = 0, len(hashes)
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            proof.append(_root_of_hashes(hashes[lo + k:hi]))
            hi = lo + k
        else:
            proof.append(_root_of_hashes(hashes[lo:lo + k]))
            lo = lo + k
    return proof[::-1]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes], expected_root: bytes) -> bool:
    """True when `proof` shows that the leaf hash `leaf` is entry `index` of a tree of `size` with this root."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root
