"""Text equality does not depend on the runtime's Unicode version (rule 3.3 of the extracting page):
both scorers map text as Unicode 14.0.0 does. Every code point (lone surrogates included) goes
through both scorers' NFC + lower case and upper case, alone and in contexts that exercise final
sigma and composition, plus every canonical decomposition either runtime knows; 0 differences."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from generator.parse.text import normalise_text, upper14
from generator.parse.unicode14 import UNASSIGNED
from generator.pipeline.crosscheck import node_version

ROOT = Path(__file__).resolve().parents[1]
SWEEP = Path(__file__).with_name("unicode_sweep.js")
BLOCK = 4096


# Each block of 4096 code points is one string per context, the code points (each in its context)
# joined by U+0378, which Unicode 14.0.0 does not assign: the scorers keep it and map what is between
# on its own, so each code point maps as it would alone (tests/unicode_sweep.js builds the same
# strings). Blocks where Unicode 14.0.0 or Node's Unicode assigns anything get every context.
SEP = "\u0378"
CONTEXTS = (lambda c: c, lambda c: "A\u03a3" + c, lambda c: c + "\u03a3", lambda c: c + "\u0301", lambda c: "e" + c)


def _outputs(s: str) -> list[str]:
    return [normalise_text(s), upper14(s)]


def _block(k: int, rich: bool) -> list[str]:
    return [o for context in (CONTEXTS if rich else CONTEXTS[:1])
            for o in _outputs(SEP.join(context(chr(cp)) for cp in range(k * BLOCK, (k + 1) * BLOCK)))]


def _digest(strings: list[str]) -> str:
    h = hashlib.sha256()
    for s in strings:
        b = s.encode("utf-16-le", "surrogatepass")
        h.update(len(b).to_bytes(4, "little"))
        h.update(b)
    return h.hexdigest()


def _node(*args: str, stdin: str | None = None) -> object:
    path, _ = node_version()
    out = subprocess.run([path, str(SWEEP), *args], input=stdin, capture_output=True, text=True, check=True,
                         encoding="utf-8", errors="surrogatepass")
    return json.loads(out.stdout)


@pytest.mark.slow
def test_every_code_point_maps_the_same_in_both_scorers():
    b = _node("digests")
    rich = set(b["rich"])
    unassigned = {cp for r in "".join(UNASSIGNED).split(",") for cp in range(int(r.split("-")[0], 16), int(r.split("-")[-1], 16) + 1)}
    assigned = {cp // BLOCK for cp in range(0x110000) if cp not in unassigned}
    assert assigned <= rich
    differing = [k for k in range(0x110000 // BLOCK) if _digest(_block(k, k in rich)) != b["digests"][k]]
    details = []
    for k in differing[:3]:
        got = _node("block", str(k), "rich" if k in rich else "-")
        mine = _block(k, k in rich)
        details += [(k, n, x, y) for n in range(len(mine)) for x, y in zip(mine[n].split(SEP), got[n].split(SEP))
                    if x != y][:5]
    assert not differing, details
    mine = {d for cp in range(0x110000) if (d := unicodedata.normalize("NFD", chr(cp))) != chr(cp)}
    nfd = sorted(set(b["nfd"]) | mine)
    got = _node("strings", stdin=json.dumps(nfd))
    diff = [(s, _outputs(s), g) for s, g in zip(nfd, got) if _outputs(s) != g]
    assert not diff, diff[:5]


@pytest.mark.parametrize("checked, reply", [
    ("\u0264a", "\ua7cbA"),  # U+A7CB lowercases to U+0264 only from Unicode 16 on
    ("\U00016d68", "\U00016d63\U00016d67"),  # these compose only from Unicode 16 on
])
def test_characters_unicode_14_does_not_assign_are_kept(checked, reply):
    assert normalise_text(checked) != normalise_text(reply)


def test_the_committed_tables_are_what_the_generator_writes():
    if unicodedata.unidata_version != "14.0.0":
        pytest.skip("the generator needs Python 3.11's Unicode 14.0.0 data")
    out = subprocess.run([sys.executable, str(ROOT / "scorer-js" / "tools" / "unicode_tables.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
