'use strict';
// The shared cases of plugins/longlistbench/vectors.json (written beside scorer B) and
// vectors-a.json (written beside scorer A) through scorer B's LongListBench script: every case's
// [unit, verdict, order, counts] rows must be exactly the expected ones, in order. Also: the file is
// what make-vectors.js writes, the script loads as a browser loads it (classic script, core.js
// first), and the CLI's line protocol scores and checks items with it.
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
const VECTORS_A = path.join(ROOT, 'plugins', 'longlistbench', 'vectors-a.json');

const C = require('../core.js');
globalThis.TallyCore = globalThis.TallyCore || C;
const L = require(SCRIPT);
const { rowsDisagree } = require('../check-vectors.js');

// Read with the exact parser, as the CLI reads its lines.
function load(file) {
  const parsed = C.parseJSON(fs.readFileSync(file, 'utf8'));
  assert.ok(parsed.ok, 'the shared cases parse: ' + file);
  return parsed.value;
}
const vectors = load(VECTORS);
const vectorsA = load(VECTORS_A);

/** The page's form of every expected row: [unit, verdict, "", [three whole numbers]]. */
function assertFourElementRows(c) {
  assert.strictEqual(c.expected.length, 2, c.id);
  assert.deepStrictEqual(c.expected.map((e) => e[0]), ['records', 'fields'], c.id);
  for (const e of c.expected) {
    assert.strictEqual(e.length, 4, c.id);
    assert.strictEqual(e[2], '', c.id);
    assert.strictEqual(e[3].length, 3, c.id);
    for (const n of e[3]) assert.ok(n instanceof C.JsonNumber && /^(0|[1-9][0-9]*)$/.test(n.literal), c.id);
  }
}

/** Scorer B's rows of a case: exactly the expected ones, counts included, and well formed. */
function checkCase(c) {
  const rows = L.scoreItem(c.item, c.record, 'vectors', 0);
  assert.strictEqual(rowsDisagree(rows, c.expected), null, c.id + ': ' + C.stringify(rows.map((r) => [r.unit, r.verdict, r.order, r.counts, r.reason])));
  for (const r of rows) {
    assert.strictEqual(r.points, r.verdict === 'correct' ? 1 : 0);
    assert.strictEqual(r.kind, r.unit);
    assert.strictEqual(r.item, c.item.id);
    assert.strictEqual(r.run, 'vectors');
    assert.strictEqual(r.repeat, 0);
    assert.strictEqual(typeof r.reason, 'string');
    assert.strictEqual(r.order, '');
    assert.ok(r.counts.every((n) => Number.isSafeInteger(n) && n >= 0));
  }
}

test('the case file: at least 40 cases, unique ids, the page\'s format', () => {
  assert.strictEqual(C.scorer('longlistbench'), L);
  assert.ok(vectors.cases.length >= 40);
  const ids = new Set(vectors.cases.map((c) => c.id));
  assert.strictEqual(ids.size, vectors.cases.length);
  for (const c of vectors.cases) {
    assert.deepStrictEqual(L.itemProblems(c.item), [], c.id);
    assertFourElementRows(c);
  }
});

test('scorer A\'s case file: unique ids, the page\'s format', () => {
  assert.ok(vectorsA.cases.length >= 40);
  assert.strictEqual(new Set(vectorsA.cases.map((c) => c.id)).size, vectorsA.cases.length);
  for (const c of vectorsA.cases) {
    assert.deepStrictEqual(L.itemProblems(c.item), [], c.id);
    assertFourElementRows(c);
  }
});

test('the case file is what make-vectors.js writes', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'plugins', 'longlistbench', 'make-vectors.js'), '--stdout'], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, fs.readFileSync(VECTORS, 'utf8'));
});

for (const c of vectors.cases) test('vector ' + c.id, () => checkCase(c));
for (const c of vectorsA.cases) test('vector (scorer A\'s file) ' + c.id, () => checkCase(c));

test('expected rows compare counts exactly: the same integers, as many', () => {
  const c = vectors.cases.find((x) => x.id === 'inc-exact');
  const rows = L.scoreItem(c.item, c.record, 'vectors', 0);
  assert.strictEqual(rowsDisagree(rows, [['records', 'correct', '', [1, 1, 1]], ['fields', 'correct', '', [22, 22, 22]]]), null);
  assert.strictEqual(rowsDisagree(rows, [['records', 'correct', ''], ['fields', 'correct']]), null);   // 3- and 2-element rows
  for (const counts of [[1, 1], [1, 1, 1, 0], [1, 1, 2], []]) {
    assert.notStrictEqual(rowsDisagree(rows, [['records', 'correct', '', counts], ['fields', 'correct', '', [22, 22, 22]]]), null, C.stringify(counts));
  }
  const oneDotZero = C.parseJSON('[["records", "correct", "", [1, 1.0, 1]], ["fields", "correct", "", [22, 22, 22]]]').value;
  assert.throws(() => rowsDisagree(rows, oneDotZero), /not \[unit, verdict\]/);
  assert.notStrictEqual(rowsDisagree(rows, [['records', 'correct', '1 1 1'], ['fields', 'correct', '']]), null);   // order is ""
  assert.notStrictEqual(rowsDisagree(rows, [['records', 'correct', '', [1, 1, 1]]]), null);   // one row too few
});

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
  assert.strictEqual(rowsDisagree(JSON.parse(out), c.expected), null);
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
  assert.deepStrictEqual(out[0].map((x) => [x.run, x.repeat, x.unit, x.verdict, x.points, x.order, x.counts]),
    [['r1', 2, 'records', 'wrong', 0, '', [0, 2, 2]], ['r1', 2, 'fields', 'wrong', 0, '', [2, 4, 3]]]);
  assert.deepStrictEqual(out[1], { problems: [] });
  assert.strictEqual(out[2].problems.length, 2);   // both elements are invalid incidents
  assert.match(out[2].problems[0], /^gold\[0\] is not a valid incident/);
});

test('the CLI\'s run digest of LongListBench rows has their counts as a seventh element', () => {
  const c = vectors.cases.find((x) => x.id === 'rec-greedy-numbers-descending');
  const stored = Object.assign({}, c.record, { item: c.item.id, repeat: 1 });
  const lines = [
    C.stringify({ scorer: 'longlistbench', define: c.item }),
    JSON.stringify({ begin_run: 'r1' }),
    '{"run":"r1","record":' + C.stringify(stored) + '}',
    JSON.stringify({ end_run: 'r1' })
  ];
  const r = spawnSync(process.execPath, [CLI, SCRIPT], { input: lines.join('\n') + '\n', encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const id = JSON.stringify(c.item.id);
  const text = '[' + id + ',1,"records","wrong",0,"",[0,2,2]]\n[' + id + ',1,"fields","wrong",0,"",[2,4,3]]\n';
  const digest = require('crypto').createHash('sha256').update(text).digest('hex');
  assert.deepStrictEqual(out[2], { run: 'r1', digest: digest, records: 1, rows: 2 });
});
