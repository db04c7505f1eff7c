'use strict';
// The shared cases of plugins/longlistbench/vectors.json through scorer B's LongListBench script:
// every case's [unit, verdict, order] rows must be exactly the expected ones, in order. Also: the
// file is what make-vectors.js writes, the script loads as a browser loads it (classic script,
// core.js first), and the CLI's line protocol scores and checks items with it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const CORE = path.join(ROOT, 'scorer-js', 'core.js');
const CLI = path.join(ROOT, 'scorer-js', 'cli.js');
const SCRIPT = path.join(ROOT, 'plugins', 'longlistbench', 'scorer.js');
const VECTORS = path.join(ROOT, 'plugins', 'longlistbench', 'vectors.json');

const C = require('../core.js');
globalThis.TallyCore = globalThis.TallyCore || C;
const L = require(SCRIPT);

// Read with the exact parser, as the CLI reads its lines.
const parsed = C.parseJSON(fs.readFileSync(VECTORS, 'utf8'));
assert.ok(parsed.ok, 'the shared cases parse');
const vectors = parsed.value;

test('the case file: at least 40 cases, unique ids, the page\'s format', () => {
  assert.strictEqual(C.scorer('longlistbench'), L);
  assert.ok(vectors.cases.length >= 40);
  const ids = new Set(vectors.cases.map((c) => c.id));
  assert.strictEqual(ids.size, vectors.cases.length);
  for (const c of vectors.cases) {
    assert.deepStrictEqual(L.itemProblems(c.item), [], c.id);
    assert.strictEqual(c.expected.length, 2, c.id);
    assert.deepStrictEqual(c.expected.map((e) => e[0]), ['records', 'fields'], c.id);
  }
});

test('the case file is what make-vectors.js writes', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'plugins', 'longlistbench', 'make-vectors.js'), '--stdout'], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, fs.readFileSync(VECTORS, 'utf8'));
});

for (const c of vectors.cases) {
  test('vector ' + c.id, () => {
    const rows = L.scoreItem(c.item, c.record, 'vectors', 0);
    assert.deepStrictEqual(rows.map((r) => [r.unit, r.verdict, r.order]), c.expected);
    for (const r of rows) {
      assert.strictEqual(r.points, r.verdict === 'correct' ? 1 : 0);
      assert.strictEqual(r.kind, r.unit);
      assert.strictEqual(r.item, c.item.id);
      assert.strictEqual(r.run, 'vectors');
      assert.strictEqual(r.repeat, 0);
      assert.strictEqual(typeof r.reason, 'string');
    }
  });
}

test('loads in a browser-like context after core.js and registers longlistbench', () => {
  const ctx = vm.createContext({});
  vm.runInContext(fs.readFileSync(CORE, 'utf8'), ctx, { filename: 'core.js' });
  vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), ctx, { filename: 'longlistbench.js' });
  assert.strictEqual(vm.runInContext('typeof module', ctx), 'undefined');
  assert.deepStrictEqual(Array.from(vm.runInContext('TallyCore.names()', ctx)), ['longlistbench']);
  const c = vectors.cases.find((x) => x.id === 'inc-canonical-variants');
  ctx.input = C.stringify({ item: c.item, record: c.record });
  const out = vm.runInContext(
    'var req = TallyCore.parseJSON(input).value;' +
    'TallyCore.stringify(TallyCore.scorer("longlistbench").scoreItem(req.item, req.record, "run", 0));', ctx);
  assert.deepStrictEqual(JSON.parse(out).map((r) => [r.unit, r.verdict, r.order]), c.expected);
});

test('without core.js first it throws a clear message', () => {
  const ctx = vm.createContext({});
  assert.throws(() => vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), ctx), /load core\.js \(TallyCore\) first/);
});

test('the CLI scores item lines and checks items with the script', () => {
  const c = vectors.cases.find((x) => x.id === 'rec-greedy-numbers-descending');
  const lines = [
    C.stringify({ scorer: 'longlistbench', item: c.item, record: c.record, run: 'r1', repeat: 2 }),
    C.stringify({ scorer: 'longlistbench', check: c.item }),
    C.stringify({ scorer: 'longlistbench', check: { id: 'bad', gold: [{ a: '1' }, { incident_number: '2' }] } })
  ];
  const r = spawnSync(process.execPath, [CLI, SCRIPT], { input: lines.join('\n') + '\n', encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepStrictEqual(out[0].map((x) => [x.run, x.repeat, x.unit, x.verdict, x.points, x.order]),
    [['r1', 2, 'records', 'wrong', 0, '0 2 2'], ['r1', 2, 'fields', 'wrong', 0, '2 4 3']]);
  assert.deepStrictEqual(out[1], { problems: [] });
  assert.strictEqual(out[2].problems.length, 2);   // both elements are invalid incidents
  assert.match(out[2].problems[0], /^gold\[0\] is not a valid incident/);
});
