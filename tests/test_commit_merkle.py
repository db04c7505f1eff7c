"""RFC 6962 Merkle trees: the published test vectors and inclusion proofs for every leaf of every size."""

from __future__ import annotations

import hashlib

import pytest

from generator.commit import merkle

# The standard test inputs of RFC 6962 implementations (certificate-transparency, transparency-dev):
# eight entries, and the tree head of the first n entries for n = 0..8.
ENTRIES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                      "606162636465666768696a6b6c6d6e6f")]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# Published audit paths in the tree of all eight entries.
PATHS = {
    0: ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"],
    5: ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"],
}


def test_empty_tree_is_sha256_of_nothing():
    assert merkle.root([]).hex() == hashlib.sha256(b"").hexdigest() == ROOTS[0]


@pytest.mark.parametrize("n", range(1, 9))
def test_tree_heads_match_the_published_vectors(n):
    assert merkle.root(ENTRIES[:n]).hex() == ROOTS[n]


def test_domain_separation():
    assert merkle.leaf_hash(b"") == hashlib.sha256(b"\x00").digest()
    a, b = merkle.leaf_hash(ENTRIES[0]), merkle.leaf_hash(ENTRIES[1])
    assert merkle.node_hash(a, b) == hashlib.sha256(b"\x01" + a + b).digest() == bytes.fromhex(ROOTS[2])


@pytest.mark.parametrize("index", sorted(PATHS))
def test_published_audit_paths(index):
    proof = merkle.inclusion_proof(ENTRIES, index)
    assert [p.hex() for p in proof] == PATHS[index]
    assert merkle.verify_inclusion(merkle.leaf_hash(ENTRIES[index]), index, 8, proof, bytes.fromhex(ROOTS[8]))


def _entries(n: int) -> list[bytes]:
    return [hashlib.sha256(i.to_bytes(2, "big")).digest() for i in range(n)]


def test_every_leaf_of_every_tree_up_to_70_verifies_and_nothing_else_does():
    for n in range(1, 71):
        entries = _entries(n)
        head = merkle.root(entries)
        for i, entry in enumerate(entries):
            leaf = merkle.leaf_hash(entry)
            proof = merkle.inclusion_proof(entries, i)
            assert merkle.verify_inclusion(leaf, i, n, proof, head), (n, i)
            assert not merkle.verify_inclusion(merkle.leaf_hash(entry + b"x"), i, n, proof, head)
            # (A proof does not fix the tree size by itself, which is why the manifest signs the size.)
            if n > 1:
                assert not merkle.verify_inclusion(leaf, (i + 1) % n, n, proof, head)
                assert not merkle.verify_inclusion(leaf, i, n, proof[:-1], head)
                bad = list(proof)
                bad[0] = bytes(32)
                assert not merkle.verify_inclusion(leaf, i, n, bad, head)
            assert not merkle.verify_inclusion(leaf, i, n, proof + [bytes(32)], head)


def test_index_outside_the_tree():
    with pytest.raises(IndexError):
        merkle.inclusion_proof(_entries(3), 3)
    assert not merkle.verify_inclusion(merkle.leaf_hash(b""), 0, 0, [], merkle.root([]))
