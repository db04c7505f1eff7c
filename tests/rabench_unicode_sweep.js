'use strict';
// Scorer B's side of RA-Bench's code point sweep (tests/test_rabench_unicode.py): every code point,
// lone surrogates included, through the suite's text rules (rule 2's name normalisation, receipt
// numbers' letters and digits, and the keyword and tag boundaries of rule 3.5).
// Only blocks where Unicode 14.0.0 or this runtime assigns something are swept (planes 15 and 16,
// private use in every version, are left out).
//   node tests/rabench_unicode_sweep.js   -> {"K": [normalised, alnum key, boundaries] digests, ...} by block
const path = require('path');
const crypto = require('crypto');
const root = path.join(__dirname, '..');
require(path.join(root, 'scorer-js', 'core.js'));
const R = require(path.join(root, 'generator', 'suites', 'rabench', 'scorer.js'));

const BLOCK = 4096;
const SEP = '\u0378';  // Unicode 14.0.0 does not assign it: it cuts the text into pieces mapped on their own

function sha(s) {
  return crypto.createHash('sha256').update(Buffer.from(s, 'utf16le')).digest('hex');
}

function reason(text) { return R.readReason(text); }

const C = globalThis.TallyCore;

function rich(k) {
  for (let cp = k * BLOCK; cp < (k + 1) * BLOCK; cp++) {
    const c = String.fromCodePoint(cp);
    if (!/^\p{Cn}$/u.test(c) || C.unicode14(c, () => '') === '') return true;
  }
  return false;
}

const out = {};
for (let k = 0; k < 0xF0000 / BLOCK; k++) {
  if (!rich(k)) continue;
  const chars = [];
  let bounds = '';
  for (let cp = k * BLOCK; cp < (k + 1) * BLOCK; cp++) {
    const c = String.fromCodePoint(cp);
    chars.push(c);
    bounds += (R.pointsAt(reason(c + 'total' + c), 'total') ? '1' : '0') + (R.pointsAt(reason('@date' + c), 'date') ? '1' : '0');
  }
  const text = chars.join(SEP);
  out[k] = [sha(R.normalizeName(text)), sha(R.alnumKey(text)), sha(bounds)];
}
process.stdout.write(JSON.stringify(out));
