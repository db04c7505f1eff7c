"""verdicts-public.csv.gz as one gzip member of each run's compressed piece (render/verdict_pieces.py): a
standard gzip file (Python, zlib and Node read it whole), holding exactly the public rows the filter of
verdicts.csv gives; its CRC-32 combined from the pieces'; a run added compresses that run's piece alone,
and the file is the same bytes with the cache and without it."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
import zlib

import pytest

from generator.render import verdict_pieces
from generator.render.downloads import public_verdicts
from generator.render.verdict_pieces import crc32_combine, piece, write_member
from tests.site_support import add_run, build, missing_node
from tests.test_cache import project

needs_node = pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")


def test_crc32_combine_is_the_crc_of_the_joined_bytes():
    rng = random.Random(5)
    for _ in range(300):
        a, b = os.urandom(rng.randrange(0, 40)), os.urandom(rng.choice([0, 1, 3, 7, 64, 1000, 70000]))
        assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
    assert crc32_combine(0, 0, 0) == 0 and crc32_combine(123, 0, 0) == 123


def test_the_pieces_make_one_valid_gzip_member(tmp_path):
    rng = random.Random(9)
    parts = [b"run,item\n", b"", b"r1,pub-1,x\n" * 5000, bytes(rng.randrange(256) for _ in range(3000)), b"", b"end\n"]
    target = tmp_path / "v.csv.gz"
    write_member(target, [piece(p) for p in parts])
    data = target.read_bytes()
    assert gzip.decompress(data) == b"".join(parts)
    d = zlib.decompressobj(31)  # strictly one member: nothing after it, its checksum and length checked
    assert d.decompress(data) == b"".join(parts) and d.eof and d.unused_data == b""
    assert data[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name, no time
    if shutil.which("node"):
        script = "const z=require('zlib');process.stdout.write(z.gunzipSync(require('fs').readFileSync(process.argv[1])))"
        assert subprocess.run(["node", "-e", script, str(target)], capture_output=True, check=True).stdout \
            == b"".join(parts)
    write_member(target, [])
    assert gzip.decompress(target.read_bytes()) == b""


@needs_node
def test_a_run_added_compresses_its_piece_alone(tmp_path, monkeypatch):
    root = project(tmp_path)
    made: list[int] = []
    real = verdict_pieces.piece

    def counted(rows: bytes):
        made.append(len(rows))
        return real(rows)

    monkeypatch.setattr(verdict_pieces, "piece", counted)
    first = build(root, tmp_path / "first").out
    runs = len(list((root / "results" / "twin").iterdir()))
    suites = [d for d in (root / "results").iterdir() if d.is_dir()]
    assert len(made) == sum(1 + len(list(d.iterdir())) for d in suites)  # per suite its header's and its runs'
    rescored = root / "build" / "rescore" / "twin" / "verdicts.csv"
    whole = tmp_path / "whole.csv"
    public = {json.loads(line)["id"] for path in (root / "content" / "suites" / "twin" / "items").glob("*.public.jsonl")
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    public_verdicts(rescored, whole, public)  # the filter over the whole file, uncompressed
    assert public and whole.read_bytes().count(b"\n") > 10
    assert gzip.decompress((first / "downloads" / "twin" / "verdicts-public.csv.gz").read_bytes()) \
        == whole.read_bytes()
    made.clear()
    add_run(root, "twin")
    added = build(root, tmp_path / "added").out
    assert len(made) == len(suites) + 1  # each suite's header's, and the new run's
    clean = build(root, tmp_path / "clean", cache=False).out
    name = "downloads/twin/verdicts-public.csv.gz"
    assert (added / name).read_bytes() == (clean / name).read_bytes()
    assert gzip.decompress((added / name).read_bytes()).count(b"rules-local-2,") > 0
    entries = root / "build" / "cache" / verdict_pieces.KIND / "twin"
    assert len(list(entries.iterdir())) == runs + 1
    shutil.rmtree(root / "results" / "twin" / "rules-local-2")
    build(root, tmp_path / "removed")
    assert len(list(entries.iterdir())) == runs  # the removed run's piece pruned
