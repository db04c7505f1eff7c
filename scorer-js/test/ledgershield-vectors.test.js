'use strict';
// Every case of tests/vectors/ledgershield.json through the LedgerShield script: the rows
// (unit, verdict) in order, each row's order text, and the replayed state the case carries.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const C = require('../core.js');

if (!globalThis.TallyCore) globalThis.TallyCore = C;
require('../../generator/suites/ledgershield/hypotheses.js');   // loaded before the scorer, as the suite lists them
const L = require('../../generator/suites/ledgershield/scorer.js');

const FILE = path.join(__dirname, '../../tests/vectors/ledgershield.json');
const parsed = C.parseJSON(fs.readFileSync(FILE, 'utf8'));   // exact parser: numbers stay exact
assert.ok(parsed.ok, 'the vectors file is valid JSON');
const data = parsed.value;

const KINDS = {
  replay: 'replay', 'run_state:in': 'replay', 'run_state:out': 'replay', decision: 'decision', pressure: 'pressure',
  score: 'score'
};
function kindOf(unit) {
  if (C.hasOwn(KINDS, unit)) return KINDS[unit];
  if (unit.startsWith('dim:')) return 'dimension';
  return 'penalty';
}

test('vectors file is for the ledgershield suite, scored by this script', () => {
  assert.equal(data.suite, 'ledgershield');
  assert.equal(C.scorer(data.suite), L);
  assert.ok(Array.isArray(data.cases) && data.cases.length > 0);
  const seen = new Set();
  for (const c of data.cases) {
    assert.ok(!seen.has(c.id), 'duplicate id ' + c.id);
    seen.add(c.id);
  }
});

for (const c of data.cases) {
  test(`vector ${c.id}`, () => {
    const rows = L.scoreItem(c.item, c.record, 'vectors', 0);
    assert.equal(C.stringify(rows.map((r) => [r.unit, r.verdict])), C.stringify(c.expected));
    assert.equal(C.stringify(rows.map((r) => [r.unit, r.order])), C.stringify(c.orders));
    assert.deepEqual(rows.map((r) => r.unit), L.unitsOf(c.item.task).map((u) => u[0]));
    for (const r of rows) {
      assert.equal(r.run, 'vectors');
      assert.equal(r.item, c.item.id);
      assert.equal(r.repeat, 0);
      assert.equal(r.kind, kindOf(r.unit));
      assert.equal(r.points, r.verdict === 'correct' || r.verdict === 'null_ok' ? 1 : 0);
      assert.equal(typeof r.reason, 'string');
    }
    const state = L.stateSummary(c.item, c.record);
    if (c.state === undefined || c.state === null) {
      assert.equal(state, null);
    } else {
      assert.equal(JSON.stringify(state), C.stringify(c.state));
    }
  });
}
