'use strict';
// Scorer B's side of the code point sweep (tests/test_unicode.py): every code point, lone
// surrogates included, through the extracting scorer's text normalisation (rule 3.3: NFC, lower
// case) and currency upper case (rule 3.6), in the contexts the sweep defines.
//   node tests/unicode_sweep.js digests   -> {"digests": [hex per block of 4096 code points], "nfd": [...], "rich": [blocks]}
//   node tests/unicode_sweep.js block K [rich] -> the outputs of block K, as a JSON array
//   node tests/unicode_sweep.js strings   -> stdin: a JSON array of strings; stdout: their outputs
const path = require('path');
const crypto = require('crypto');
const fs = require('fs');
const root = path.join(__dirname, '..');
require(path.join(root, 'scorer-js', 'core.js'));
const S = require(path.join(root, 'generator', 'suites', 'extracting', 'scorer.js'));

const BLOCK = 4096;
// Each block of 4096 code points is one string per context, the code points (each in its
// context) joined by U+0378, which Unicode 14.0.0 does not assign: the scorers keep it and map
// what is between on its own, so each code point maps as it would alone. Blocks where Unicode
// 14.0.0 or this runtime assigns anything get every context; the others the first alone.
const SEP = '\u0378';
const CONTEXTS = [(c) => c, (c) => 'A\u03a3' + c, (c) => c + '\u03a3', (c) => c + '\u0301', (c) => 'e' + c];
const outputs = (s) => [S.normalizeText(s), S.upper14(s)];
const C = globalThis.TallyCore;

function richBlock(k) {
  for (let cp = k * BLOCK; cp < (k + 1) * BLOCK; cp++) {
    const c = String.fromCodePoint(cp);
    if (!/^\p{Cn}$/u.test(c) || C.unicode14(c, () => '') === '') return true;
  }
  return false;
}

function blockOutputs(k, rich) {
  const out = [];
  for (const context of rich ? CONTEXTS : CONTEXTS.slice(0, 1)) {
    const parts = [];
    for (let cp = k * BLOCK; cp < (k + 1) * BLOCK; cp++) parts.push(context(String.fromCodePoint(cp)));
    out.push(...outputs(parts.join(SEP)));
  }
  return out;
}

function digest(strings) {
  const h = crypto.createHash('sha256');
  for (const s of strings) {
    const b = Buffer.from(s, 'utf16le');
    const n = Buffer.alloc(4);
    n.writeUInt32LE(b.length);
    h.update(n);
    h.update(b);
  }
  return h.digest('hex');
}

const mode = process.argv[2];
if (mode === 'digests') {
  const digests = [];
  const nfd = [];
  const rich = [];
  for (let k = 0; k < 0x110000 / BLOCK; k++) {
    if (richBlock(k)) rich.push(k);
    digests.push(digest(blockOutputs(k, rich.includes(k))));
  }
  for (let cp = 0; cp < 0x110000; cp++) {
    const c = String.fromCodePoint(cp);
    const d = c.normalize('NFD');
    if (d !== c) nfd.push(d);
  }
  process.stdout.write(JSON.stringify({ digests, nfd, rich }));
} else if (mode === 'block') {
  process.stdout.write(JSON.stringify(blockOutputs(Number(process.argv[3]), process.argv[4] === 'rich')));
} else if (mode === 'strings') {
  const strings = JSON.parse(fs.readFileSync(0, 'utf8'));
  process.stdout.write(JSON.stringify(strings.map(outputs)));
}
