'use strict';
// Every case of the shared vectors file must get its expected verdict (and order) from scorer B.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { S, C } = require('./helpers.js');
const { loadVectors, runCase, disagreement } = require('../check-vectors.js');

const FILE = path.join(__dirname, '../../tests/vectors/extracting.json');
const data = loadVectors(FILE);

test('vectors file is for the extracting suite', () => {
  assert.equal(data.suite, 'extracting');
  assert.equal(C.scorer(data.suite), S);   // the cases are scored by the extracting script's scoreItem
  assert.ok(Array.isArray(data.cases) && data.cases.length > 0);
});

test('vector case ids are unique', () => {
  const seen = new Set();
  for (const c of data.cases) {
    assert.ok(!seen.has(c.id), 'duplicate id ' + c.id);
    seen.add(c.id);
  }
});

for (const c of data.cases) {
  test(`vector ${c.id} (rule ${c.rule})`, () => {
    const sources = ['answer_json', 'content', 'record'].filter((k) => c[k] !== undefined);
    assert.equal(sources.length, 1, 'exactly one of answer_json, content, record');
    const rows = runCase(data, c);
    assert.equal(rows.length, 1);
    const row = rows[0];
    assert.equal(row.verdict, c.expected, `reason: ${row.reason}`);
    assert.equal(row.points, c.expected === 'correct' || c.expected === 'null_ok' ? 1 : 0);
    if (c.expected_order !== undefined) assert.equal(row.order, c.expected_order);
    else if (row.verdict !== 'correct' || c.field.type !== 'list') assert.equal(row.order, '');
    assert.equal(disagreement(c, rows), null);
  });
}
