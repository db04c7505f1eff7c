'use strict';
// Scorer B on the shared cases of "Reading a reply" (tests/vectors/reading.json, written from
// content/pages/methodology.md and each suite's rule page): every reading rule through every suite.
// A case's content must give exactly the rows (unit, verdict, points, order) of its `same_as`
// content, or, when `unparseable`, those of an empty content.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const C = require('../core.js');

const ROOT = path.join(__dirname, '..', '..');
require(path.join(ROOT, 'generator', 'suites', 'ledgershield', 'hypotheses.js'));  // loaded before its scorer
for (const s of ['extracting', 'rabench', 'ledgershield', 'cortify', 'aubas']) {
  require(path.join(ROOT, 'generator', 'suites', s, 'scorer.js'));
}
const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'vectors', 'reading.json'), 'utf8'));

function record(content) {
  return {
    item: 'x', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 200, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: content }, finish_reason: 'stop' }] },
    usage: null, latency_ms: 1
  };
}

function unpacked(content) {
  if (typeof content === 'string') return content;
  return content.map((p) => (typeof p === 'string' ? p : p[0].repeat(p[1]))).join('');
}

function rows(shape, content) {
  const entry = doc.items[shape];
  // items pass through scorer B's exact parser, as the CLI reads them
  const item = C.parseJSON(JSON.stringify(entry.item)).value;
  return C.scorer(entry.suite).scoreItem(item, record(content), 'vectors', 0)
    .map((r) => [r.unit, r.verdict, r.points, r.order]);
}

test('every suite is covered and its right answer is read', () => {
  const suites = new Set(Object.values(doc.items).map((e) => e.suite));
  assert.deepEqual([...suites].sort(), ['au-bas', 'cortifybench', 'extracting', 'ledgershield', 'ra-bench']);
  for (const shape of Object.keys(doc.items)) {
    assert.notDeepEqual(rows(shape, doc.items[shape].right), rows(shape, ''), shape);
  }
});

for (const c of doc.cases) {
  test(`reading ${c.id}: ${c.note}`, () => {
    const got = rows(c.item, unpacked(c.content));
    const want = rows(c.item, c.unparseable ? '' : c.same_as);
    assert.deepEqual(got, want);
  });
}
