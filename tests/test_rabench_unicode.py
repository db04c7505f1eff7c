"""RA-Bench's text rules do not depend on the runtime's Unicode version (rule 2 of its rule page): both
scorers read categories, NFKD and lower case of Unicode 14.0.0. Every code point (lone surrogates
included) goes through both scorers' name normalisation, receipt-number key and keyword and tag
boundaries; 0 differences. Letters later versions added (Unicode 15's U+11F04, 16's U+1C89) are no
letters under 14.0.0 in either scorer."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from generator.parse.unicode14 import LETTER_NUMBER, NONSPACING_MARK
from generator.pipeline.crosscheck import node_version
from generator.suites.rabench.rules import alnum, normalise, points_at

ASSIGNED = LETTER_NUMBER + "," + NONSPACING_MARK  # ranges of code points 14.0.0 assigns (letters, numbers, marks)


def _pairs(ranges: str) -> list[tuple[int, int]]:
    return [(int(r.split("-")[0], 16), int(r.split("-")[-1], 16)) for r in ranges.split(",")]

SWEEP = Path(__file__).with_name("rabench_unicode_sweep.js")
BLOCK = 4096
SEP = "\u0378"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-16-le", "surrogatepass")).hexdigest()


def _reason(text: str) -> tuple[str, None, str]:
    return (text, None, "")


def _block(k: int) -> list[str]:
    chars = [chr(cp) for cp in range(k * BLOCK, (k + 1) * BLOCK)]
    bounds = "".join(f"{points_at(_reason(c + 'total' + c), 'total'):d}{points_at(_reason('@date' + c), 'date'):d}"
                     for c in chars)
    text = SEP.join(chars)
    return [_sha(normalise(text)), _sha(alnum(text)), _sha(bounds)]


@pytest.mark.slow
def test_every_code_point_reads_the_same_in_both_scorers():
    path, _ = node_version()
    got = json.loads(subprocess.run([path, str(SWEEP)], capture_output=True, text=True, check=True).stdout)
    assigned = {cp // BLOCK for a, b in _pairs(ASSIGNED) for cp in range(a, b + 1) if cp < 0xF0000}
    assert assigned <= {int(k) for k in got}  # every block 14.0.0 assigns anything in is swept
    differing = [k for k in got if _block(int(k)) != got[k]]
    assert not differing, [hex(int(k) * BLOCK) for k in differing[:10]]


@pytest.mark.parametrize("letter", ["\U00011f04", "\u1c89"])  # KAWI LETTER A (Unicode 15.0), CYRILLIC CAPITAL TJE (16.0)
def test_a_letter_a_later_unicode_added_is_no_letter_in_either_scorer(letter):
    assert alnum(f"A{letter}1") == "a1"
    assert normalise(f"Caf{letter}e") == "cafe"
    assert points_at(_reason(f"total{letter}"), "total")  # no letter: "total" stands as a whole word
    path, _ = node_version()
    script = ("require('./scorer-js/core.js'); const R = require('./generator/suites/rabench/scorer.js');"
              "const l = String.fromCodePoint(Number(process.argv[1]));"
              "process.stdout.write(JSON.stringify([R.alnumKey('A' + l + '1'), R.normalizeName('Caf' + l + 'e'),"
              "R.pointsAt(R.readReason('total' + l), 'total')]))")
    out = subprocess.run([path, "-e", script, str(ord(letter))], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    assert json.loads(out) == ["a1", "cafe", True]
