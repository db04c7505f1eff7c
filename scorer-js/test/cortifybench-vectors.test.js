'use strict';
// The shared cases of tests/vectors/cortifybench.json through scorer B's cortifybench script:
// every case's [unit, verdict] rows must be exactly the expected ones, in order.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const C = require('../core.js');
globalThis.TallyCore = globalThis.TallyCore || C;
const cortify = require('../../generator/suites/cortify/scorer.js');

// Read with the exact parser, as the CLI reads its lines.
const parsed = C.parseJSON(fs.readFileSync(path.join(ROOT, 'tests', 'vectors', 'cortifybench.json'), 'utf8'));
assert.ok(parsed.ok, 'the shared cases parse');
const vectors = parsed.value;

test('the vector file names this suite', () => {
  assert.strictEqual(vectors.suite, 'cortifybench');
  assert.ok(vectors.cases.length >= 182);
  assert.strictEqual(C.scorer('cortifybench'), cortify);
});

for (const c of vectors.cases) {
  test('vector ' + c.id, () => {
    const rows = cortify.scoreItem(c.item, c.record, 'vectors', 0);
    assert.deepStrictEqual(rows.map((r) => [r.unit, r.verdict]), c.expected.map((e) => [e[0], e[1]]));
    for (const r of rows) {
      assert.strictEqual(r.points, r.verdict === 'correct' || r.verdict === 'found' ? 1 : 0);
      assert.strictEqual(typeof r.order, 'string');
      if (r.verdict === 'found') assert.match(r.order, /^P[0-9]{2,}$/);
      else assert.strictEqual(r.order, '');
      assert.strictEqual(r.item, c.item.id);
      assert.strictEqual(r.run, 'vectors');
      assert.strictEqual(r.repeat, 0);
    }
  });
}
