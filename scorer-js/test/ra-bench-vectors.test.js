'use strict';
// Every case of tests/vectors/ra-bench.json through the ra-bench script: the [unit, verdict] rows
// in order, the order texts the file gives, and the fields every row must carry.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const C = require('../core.js');
const R = require('../../generator/suites/rabench/scorer.js');

const FILE = path.join(__dirname, '../../tests/vectors/ra-bench.json');
const parsed = C.parseJSON(fs.readFileSync(FILE, 'utf8'));   // exact: a status 200.0 stays 200.0
assert.ok(parsed.ok, 'vectors file is valid JSON');
const data = parsed.value;

const KIND = { line_items: 'line_items', decision: 'decision', edited_field: 'evidence', proof: 'evidence' };
function kindOf(unit) {
  if (unit.startsWith('field:')) return 'field';
  if (unit.startsWith('check:')) return 'check';
  if (unit.startsWith('duplicate:')) return 'duplicate';
  return KIND[unit];
}

test('the vectors file is for ra-bench, scored by this script', () => {
  assert.equal(data.suite, 'ra-bench');
  assert.equal(C.scorer('ra-bench'), R);
  assert.ok(Array.isArray(data.cases) && data.cases.length > 0);
  const ids = new Set();
  for (const c of data.cases) {
    assert.ok(!ids.has(c.id), 'duplicate id ' + c.id);
    ids.add(c.id);
  }
});

for (const c of data.cases) {
  test('vector ' + c.id, () => {
    const rows = R.scoreItem(c.item, c.record, 'vectors', 0);
    assert.deepEqual(rows.map((r) => [r.unit, r.verdict]), c.expected);
    const orders = c.orders || {};
    for (const unit of Object.keys(orders)) {
      const row = rows.find((r) => r.unit === unit);
      assert.ok(row, 'no row ' + unit);
      assert.equal(row.order, orders[unit], 'order of ' + unit);
    }
    for (const r of rows) {
      assert.equal(r.run, 'vectors');
      assert.equal(r.item, c.item.id);
      assert.equal(r.repeat, 0);
      assert.equal(r.kind, kindOf(r.unit), 'kind of ' + r.unit);
      assert.equal(r.points, ['correct', 'null_ok', 'found'].includes(r.verdict) ? 1 : 0);
      assert.equal(typeof r.reason, 'string');
      assert.equal(typeof r.order, 'string');
      if (r.unit !== 'field:total' && r.unit !== 'line_items' && r.unit !== 'decision') assert.equal(r.order, '');
    }
  });
}
