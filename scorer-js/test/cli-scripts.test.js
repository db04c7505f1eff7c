'use strict';
// cli.js is generic: suite scripts come from its arguments and every item names its scorer.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { runCli, ROOT, SCRIPTS } = require('./helpers.js');

const ITEM = { id: 'inv-1', document: { locale: 'en-US' },
  fields: [{ name: 'total', type: 'money', kind: 'printed', answer: '12.00' }] };
const RECORD = { item: 'inv-1', repeat: 3, attempts: [{ status: 200, error: null }],
  response: { choices: [{ message: { content: '{"total": "$12"}' } }] } };

function lines(list) { return list.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n'; }
function parse(stdout) { return stdout.trimEnd().split('\n').map((l) => JSON.parse(l)); }

test('an unknown or missing scorer name is an error line, exit status 2', async () => {
  const { code, stdout } = await runCli([SCRIPTS.extracting], lines([
    { scorer: 'nope', item: ITEM, record: RECORD, run: 'r', repeat: 0 },
    { scorer: 'aubas', define: ITEM },
    { item: ITEM, record: RECORD, run: 'r', repeat: 0 },
    { define: ITEM },
    { scorer: 'extracting', item: ITEM, record: RECORD, run: 'r', repeat: 0 }
  ]));
  assert.equal(code, 2);
  const out = parse(stdout);
  assert.equal(out.length, 5);
  assert.deepEqual(out[0], { error: 'line 1: unknown scorer "nope" (registered: extracting)' });
  assert.deepEqual(out[1], { error: 'line 2: unknown scorer "aubas" (registered: extracting)' });
  assert.match(out[2].error, /^line 3: "scorer" is missing.*registered: extracting/);
  assert.match(out[3].error, /^line 4: "scorer" is missing/);
  assert.deepEqual(out[4].map((r) => [r.unit, r.verdict]), [['total', 'correct']]);
});

test('with no scripts every line is still answered, in order', async () => {
  const { code, stdout } = await runCli([], lines([
    { scorer: 'extracting', item: ITEM, record: RECORD, run: 'r', repeat: 0 },
    { scorer: 'extracting', define: ITEM },
    '',
    { begin_run: 'r' },
    '{"run":"r","record":' + JSON.stringify(RECORD) + '}',
    { end_run: 'r' },
    { item_id: 'inv-1', record: RECORD, run: 'r' },
    'not json'
  ]));
  assert.equal(code, 2);
  const out = parse(stdout);
  assert.equal(out.length, 7);
  assert.deepEqual(out[0], { error: 'line 1: unknown scorer "extracting" (no suite scorer is loaded)' });
  assert.deepEqual(out[1], { error: 'line 2: unknown scorer "extracting" (no suite scorer is loaded)' });
  assert.deepEqual(out[2], { begun: 'r' });
  assert.deepEqual(out[3], { error: 'line 5: item "inv-1" was not defined', run: 'r' });  // a stored record's run
  assert.deepEqual(out[4].records, 0);
  assert.deepEqual(out[5], { error: 'line 7: item "inv-1" was not defined' });
  assert.match(out[6].error, /^line 8: not valid JSON/);
});

test('scripts load in order, resolved against the current directory', async () => {
  const rel = (f) => path.relative(ROOT, f);
  const { code, stdout } = await runCli([rel(SCRIPTS['au-bas']), rel(SCRIPTS.extracting)], lines([
    { scorer: 'extracting', define: ITEM },
    '{"run":"r","record":' + JSON.stringify(RECORD) + '}',
    { scorer: 'x', define: ITEM }
  ]), { cwd: ROOT });
  assert.equal(code, 2);
  const out = parse(stdout);
  assert.deepEqual(out[0], { defined: 'inv-1' });
  assert.deepEqual(out[1].map((r) => [r.item, r.repeat, r.verdict]), [['inv-1', 3, 'correct']]);
  assert.deepEqual(out[2], { error: 'line 3: unknown scorer "x" (registered: au-bas, extracting)' });
});

test('a script that cannot be loaded stops the CLI before any input', async () => {
  const missing = path.join(ROOT, 'no-such-scorer.js');
  const r = await runCli([SCRIPTS.extracting, missing], lines([{ scorer: 'extracting', define: ITEM }]));
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^scorer-js\/cli\.js: cannot load .*no-such-scorer\.js: /);
});

test('a stored record that cannot be scored names its run and line; a suite that throws gives unparseable and a warning', async () => {
  const broken = path.join(require('os').tmpdir(), 'tally-broken-' + process.pid + '.js');
  require('fs').writeFileSync(broken, "TallyCore.register('broken', { scoreItem: function (item, record) {" +
    " if (record.response.choices[0].message.content !== null) throw new Error('forced failure');" +
    " return [{ unit: 'u', verdict: 'unparseable' }]; } });\n");
  try {
    const { code, stdout, stderr } = await runCli([SCRIPTS.extracting, broken], lines([
      { scorer: 'broken', define: { id: 'b-1' } },
      { scorer: 'extracting', define: ITEM },
      '{"run":"r","line":7,"record":' + JSON.stringify(Object.assign({}, RECORD, { item: 'b-1' })) + '}',
      '{"run":"r","line":9,"record":' + JSON.stringify(Object.assign({}, RECORD, { item: 'nope' })) + '}'
    ]));
    assert.equal(code, 2);
    const out = parse(stdout);
    assert.deepEqual(out[2], [{ unit: 'u', verdict: 'unparseable', counts: [] }]);   // a row without counts gets []
    assert.deepEqual(out[3], { error: 'line 4: item "nope" was not defined', run: 'r', line: 9 });
    const warning = JSON.parse(stderr.trim().split('\n')[0]);
    assert.equal(warning.run, 'r');
    assert.equal(warning.line, 7);
    assert.match(warning.warning, /forced failure.*scored as unparseable/);
  } finally {
    require('fs').unlinkSync(broken);
  }
});

// A suite whose rows have counts, empty counts, no counts, or (for item "bad") counts that are not integers.
const COUNTED = "TallyCore.register('counted', { scoreItem: function (item, record, run, repeat) {" +
  " function row(unit, verdict, order, counts) { var r = { run: run, item: item.id, repeat: repeat, unit: unit, kind: unit," +
  " verdict: verdict, points: verdict === 'correct' ? 1 : 0, reason: 'r', order: order };" +
  " if (counts !== undefined) r.counts = counts; return r; }" +
  " if (item.id === 'bad') return [row('a', 'wrong', '', [1, 2.5])];" +
  " return [row('a', 'wrong', '', [1157, 1159, 1160]), row('b', 'correct', 'x'), row('c', 'correct', '', [])]; } });\n";

function sha256(text) { return require('crypto').createHash('sha256').update(text).digest('hex'); }

test('every row has counts; the digest line has the counts as a seventh element only when there are any', async () => {
  const script = path.join(require('os').tmpdir(), 'tally-counted-' + process.pid + '.js');
  require('fs').writeFileSync(script, COUNTED);
  const rec = (repeat) => '{"run":"r","record":' + JSON.stringify(Object.assign({}, RECORD, { item: 'i', repeat: repeat })) + '}';
  try {
    const { code, stdout } = await runCli([script], lines([
      { scorer: 'counted', item: { id: 'i' }, record: RECORD, run: 'r', repeat: 0 },
      { scorer: 'counted', define: { id: 'i' } },
      { begin_run: 'r' }, rec(1), rec(0), { end_run: 'r' },
      { begin_run: 'r2' }, rec(0), { end_run: 'r2' },
      { scorer: 'counted', item: { id: 'bad' }, record: RECORD, run: 'r', repeat: 0 }
    ]));
    assert.equal(code, 2);
    const out = parse(stdout);
    assert.deepEqual(out[0].map((r) => [r.unit, r.order, r.counts]), [['a', '', [1157, 1159, 1160]], ['b', 'x', []], ['c', '', []]]);
    assert.deepEqual(Object.keys(out[0][1]), ['run', 'item', 'repeat', 'unit', 'kind', 'verdict', 'points', 'reason', 'order', 'counts']);
    // The lines of one record, written out by hand: 7 elements for the row with counts, 6 for the others.
    const one = (repeat) =>
      '["i",' + repeat + ',"a","wrong",0,"",[1157,1159,1160]]\n' +
      '["i",' + repeat + ',"b","correct",1,"x"]\n' +
      '["i",' + repeat + ',"c","correct",1,""]\n';
    assert.deepEqual(out[3], { run: 'r', digest: sha256(one(0) + one(1)), records: 2, rows: 6 });
    assert.deepEqual(out[5], { run: 'r2', digest: sha256(one(0)), records: 1, rows: 3 });
    assert.deepEqual(out[6], { error: 'line 10: the counts of row "a" are not an array of integers' });
  } finally {
    require('fs').unlinkSync(script);
  }
});
