'use strict';
// Every case of tests/vectors/au-bas.json: the verdict rows in order and every figure.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const S = require('../scorer.js');
const A = require('../aubas.js');

const FILE = path.join(__dirname, '../../tests/vectors/au-bas.json');
const parsed = S.parseJSON(fs.readFileSync(FILE, 'utf8'));
if (!parsed.ok) throw new Error('au-bas vectors are not valid JSON near offset ' + parsed.pos);
const data = parsed.value;

const TOLERANCE = 1e-12;

function recordWith(content) {
  return {
    item: 'x', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 200, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
    usage: null, latency_ms: 1
  };
}

function itemFor(c) {
  const l = data.ledgers[c.ledger];
  return { id: 'x', dataset: 'vectors', half: 'public', strata: {}, document: { text: '' }, ledger: l.ledger, key: l.key };
}

// A figure of the case file as a JS number (the file is read with the exact parser).
function num(v) {
  return v instanceof S.JsonNumber ? Number(v.literal) : v;
}

test('vectors file is for the au-bas suite', () => {
  assert.equal(data.suite, 'au-bas');
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
    assert.deepEqual(JSON.parse(JSON.stringify(A.deriveKey(l.ledger))), JSON.parse(S.stringify(l.key)), name);
  }
});

for (const c of data.cases) {
  test(`vector ${c.id}: ${c.note}`, () => {
    assert.equal([c.content, c.record].filter((v) => v !== undefined).length, 1, 'exactly one of content, record');
    const record = c.record !== undefined ? c.record : recordWith(c.content);
    const rows = A.scoreItem(itemFor(c), record, 'vectors', 0);
    assert.deepEqual(rows.map((r) => [r.unit, r.verdict]), c.expected.verdicts);
    for (const r of rows) {
      assert.equal(r.run, 'vectors');
      assert.equal(r.item, 'x');
      assert.equal(r.repeat, 0);
      assert.equal(r.order, '');
      assert.equal(r.kind, /:/.test(r.unit) ? 'fault' : 'bas');
      assert.equal(r.points, r.verdict === 'correct' || r.verdict === 'found' ? 1 : 0);
    }
    const got = A.figures(rows);
    const want = c.expected.figures;
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
    for (const k of Object.keys(want)) {
      const w = num(want[k]);
      assert.ok(Math.abs(got[k] - w) <= TOLERANCE, `${k}: got ${got[k]}, expected ${w}`);
    }
  });
}
