'use strict';
// Every case of tests/vectors/au-bas.json: the verdict rows in order and every figure.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { C, A } = require('./helpers.js');
const { loadVectors, runCase } = require('../check-vectors.js');

const FILE = path.join(__dirname, '../../tests/vectors/au-bas.json');
const data = loadVectors(FILE);

const TOLERANCE = 1e-12;

// A figure of the case file as a JS number (the file is read with the exact parser).
function num(v) {
  return v instanceof C.JsonNumber ? Number(v.literal) : v;
}

test('vectors file is for the au-bas suite', () => {
  assert.equal(data.suite, 'au-bas');
  assert.equal(C.scorer(data.suite), A);   // the cases are scored by the au-bas script's scoreItem
  assert.ok(Array.isArray(data.cases) && data.cases.length > 0);
  const seen = new Set();
  for (const c of data.cases) {
    assert.ok(!seen.has(c.id), 'duplicate id ' + c.id);
    seen.add(c.id);
  }
});

test('every ledger of the file derives its stored key', () => {
  for (const name of Object.keys(data.ledgers)) {
    const l = data.ledgers[name];
    assert.deepEqual(JSON.parse(JSON.stringify(A.deriveKey(l.ledger))), JSON.parse(C.stringify(l.key)), name);
  }
});

for (const c of data.cases) {
  test(`vector ${c.id}: ${c.note}`, () => {
    assert.equal([c.content, c.record].filter((v) => v !== undefined).length, 1, 'exactly one of content, record');
    const rows = runCase(data, c);
    assert.deepEqual(rows.map((r) => [r.unit, r.verdict]), c.expected.verdicts);
    for (const r of rows) {
      assert.equal(r.run, 'vectors');
      assert.equal(r.item, 'x');
      assert.equal(r.repeat, 0);
      assert.ok(r.order === '' || (r.kind === 'fault' && A.CODES.includes(r.order) && r.unit.endsWith(':' + r.order)), r.unit);
      assert.equal(r.kind, /:/.test(r.unit) ? 'fault' : 'bas');
      assert.equal(r.points, r.verdict === 'correct' || r.verdict === 'found' ? 1 : 0);
    }
    const got = A.figures(rows);
    const want = c.expected.figures;
    for (const k of Object.keys(want)) assert.ok(k in got, k);
    for (const k of Object.keys(want)) {
      const w = num(want[k]);
      assert.ok(Math.abs(got[k] - w) <= TOLERANCE, `${k}: got ${got[k]}, expected ${w}`);
    }
  });
}
