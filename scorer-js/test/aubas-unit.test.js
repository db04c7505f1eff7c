'use strict';
// Unit tests of the au-bas scorer: key derivation, reading answers, figures, hostile input.
const test = require('node:test');
const assert = require('node:assert/strict');
const { C, A } = require('./helpers.js');

function row(id, fields) {
  return Object.assign({ id, date: '2026-07-10', kind: 'sale', counterparty: 'X', invoice: 'INV-' + id,
    category: 'consulting', amount: '110.00', gst: '10.00', abn: '12345678901' }, fields);
}
function ledgerOf(rows) { return { quarter_start: '2026-07-01', quarter_end: '2026-09-30', rows }; }

// A ledger with one taxable sale of 110.00 (GST 10.00) and nothing wrong.
const LEDGER = ledgerOf([row('T01')]);
const ITEM = { id: 'i1', ledger: LEDGER, key: A.deriveKey(LEDGER) };

function recordWith(content, attempt) {
  return { item: 'i1', repeat: 0,
    attempts: [Object.assign({ status: 200, error: null }, attempt || {})],
    response: { choices: [{ index: 0, message: { role: 'assistant', content } }] } };
}
function score(content, item) {
  return A.scoreItem(item || ITEM, typeof content === 'string' ? recordWith(content) : content, 'r', 0);
}
function verdicts(rows) { return rows.map((r) => r.unit + '=' + r.verdict); }
function labelVerdict(json) {
  return score('<answer>{"G1": ' + json + ', "1A": "10.00", "1B": "0.00", "net": "10.00"}</answer>')[0].verdict;
}

// ------------------------------------------------------------------------------------------
// Rule 1
// ------------------------------------------------------------------------------------------

test('GST of a price: amount / 11, half a cent rounds away from zero', () => {
  assert.equal(A.gstOf('110.00'), '10.00');
  assert.equal(A.gstOf('0.055'), '0.01');       // 0.005 exactly: up
  assert.equal(A.gstOf('0.054'), '0.00');       // 0.00490...
  assert.equal(A.gstOf('-0.055'), '-0.01');     // away from zero
  assert.equal(A.gstOf('1100.055'), '100.01');  // 100.005 exactly
  assert.equal(A.gstOf('1100.054'), '100.00');
  assert.equal(A.gstOf('100'), '9.09');         // 9.0909...
  assert.equal(A.gstOf('100.10'), '9.10');      // 9.1
  assert.equal(A.gstOf('0.06'), '0.01');        // 0.00545...: over half
  assert.equal(A.gstOf('0.05'), '0.00');        // 0.004545...: under half
  assert.equal(A.gstOf('12345678901234567890.12'), '1122334445566778899.10'); // no float anywhere
});

test('deriveKey: every code, in the rule table order, and the corrected BAS', () => {
  const ledger = ledgerOf([
    row('T01', { category: 'catering', amount: '220.00', gst: '20.00' }),                      // valid sale
    row('T02', { kind: 'purchase', category: 'medical', amount: '99.00', gst: '9.00', abn: '', invoice: 'INV-T01', date: '2026-06-30' }),
    row('T03', { kind: 'purchase', category: 'equipment', amount: '82.50', gst: '7.50', abn: '' }),   // at the threshold: fine
    row('T04', { kind: 'purchase', category: 'equipment', amount: '82.51', gst: '7.51', abn: '' }),   // over: no credit
    row('T05', { kind: 'sale', category: 'export', amount: '500.00', gst: '0', abn: '' }),            // GST-free, counts in G1
    row('T06', { kind: 'sale', category: 'residential_rent', amount: '300.00', gst: '0.00' }),
    row('T07', { kind: 'purchase', category: 'travel', amount: '33.00', gst: '3', date: '2026-09-30' }),
    row('T08', { kind: 'sale', category: 'software', amount: '11.00', gst: '1.00', date: '2026-10-01' }),
    row('T09', { kind: 'purchase', category: 'financial_supply', amount: '1000.00', gst: '0.00', abn: '' })
  ]);
  const key = A.deriveKey(ledger);
  assert.deepEqual(JSON.parse(JSON.stringify(key)), {
    G1: '1020.00', '1A': '20.00', '1B': '10.50', net: '9.50',
    faults: {
      T02: ['gst_on_gst_free', 'duplicate_invoice', 'outside_period', 'missing_abn_over_threshold'],
      T04: ['gst_miscalculated', 'missing_abn_over_threshold'],
      T08: ['outside_period'],
      T09: ['missing_abn_over_threshold']
    }
  });
  assert.deepEqual(Object.keys(key.faults), ['T02', 'T04', 'T08', 'T09']);
});

test('deriveKey: duplicates compare invoice numbers exactly; the first one stays valid', () => {
  const key = A.deriveKey(ledgerOf([
    row('T01', { invoice: 'A-1' }),
    row('T02', { invoice: 'a-1' }),
    row('T03', { invoice: 'A-1 ' }),
    row('T04', { invoice: 'A-1', kind: 'purchase' })
  ]));
  assert.deepEqual(JSON.parse(JSON.stringify(key.faults)), { T04: ['duplicate_invoice'] });
  assert.equal(key.G1, '330.00');
  assert.equal(key['1B'], '0.00');
  assert.equal(key.net, '30.00');
});

test('deriveKey: negative net, recorded GST compared as a decimal', () => {
  const key = A.deriveKey(ledgerOf([
    row('T01', { kind: 'purchase', amount: '220', gst: '20.0' })
  ]));
  assert.equal(key.G1, '0.00');
  assert.equal(key.net, '-20.00');
  assert.deepEqual(Object.keys(key.faults), []);
});

test('deriveKey rejects a malformed ledger', () => {
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { amount: 110 })])), /amount/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { amount: '1,100.00' })])), /amount/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { category: 'toys' })])), /category/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { kind: 'refund' })])), /kind/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { date: '2026-02-30' })])), /date/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01', { abn: '123' })])), /abn/);
  assert.throws(() => A.deriveKey(ledgerOf([row('T01'), row('T01', { invoice: 'other' })])), /repeated/);
  assert.throws(() => A.deriveKey({ quarter_start: '2026-07-01', rows: [] }), /quarter_end/);
});

test('scoreItem throws when the stored key differs from the ledger', () => {
  const rec = recordWith('<answer>{}</answer>');
  assert.throws(() => A.scoreItem({ id: 'i', ledger: LEDGER, key: Object.assign({}, ITEM.key, { G1: '110.01' }) }, rec, 'r', 0), /stored key differs/);
  assert.throws(() => A.scoreItem({ id: 'i', ledger: LEDGER, key: Object.assign({}, ITEM.key, { G1: '110.0' }) }, rec, 'r', 0), /stored key differs/);
  assert.throws(() => A.scoreItem({ id: 'i', ledger: LEDGER, key: Object.assign({}, ITEM.key, { faults: { T01: ['outside_period'] } }) }, rec, 'r', 0), /stored key differs/);
  assert.throws(() => A.scoreItem({ id: 'i', ledger: LEDGER }, rec, 'r', 0), /stored key differs/);
  assert.throws(() => A.scoreItem({ id: 'i', key: ITEM.key }, rec, 'r', 0), /ledger/);
  // A key read by the exact parser (as the CLI reads a defined item) is accepted.
  const exact = C.parseJSON(JSON.stringify(ITEM)).value;
  assert.equal(A.scoreItem(exact, rec, 'r', 0).length, 4);
});

// ------------------------------------------------------------------------------------------
// Rule 2
// ------------------------------------------------------------------------------------------

const GOOD = '{"G1": "110.00", "1A": "10.00", "1B": "0.00", "net": "10.00", "faults": {}}';

test('failed calls: error, status, no body; "" is no error and 200.0 / 2e2 are 200', () => {
  const failed = (att, resp) => {
    const rec = recordWith('<answer>' + GOOD + '</answer>', att);
    if (resp !== undefined) rec.response = resp;
    return score(rec).map((r) => r.verdict).join(' ');
  };
  assert.equal(failed({ status: 500 }), 'failed_call failed_call failed_call failed_call');
  assert.equal(failed({ status: null, error: 'timeout' }), 'failed_call failed_call failed_call failed_call');
  assert.equal(failed({ status: '200' }), 'failed_call failed_call failed_call failed_call');
  assert.equal(failed({ status: 200 }, null), 'failed_call failed_call failed_call failed_call');
  assert.equal(failed({ error: 'x' }), 'failed_call failed_call failed_call failed_call');
  assert.equal(failed({ error: '' }), 'correct correct correct correct');
  assert.equal(failed({ status: 299 }), 'correct correct correct correct');
  assert.equal(failed({ status: 300 }), 'failed_call failed_call failed_call failed_call');
  for (const lit of ['200.0', '2e2', '2.99e2']) {
    const rec = C.parseJSON(JSON.stringify(recordWith('<answer>' + GOOD + '</answer>')).replace('"status":200', '"status":' + lit)).value;
    assert.equal(score(rec)[0].verdict, 'correct', lit);
  }
  const rec = C.parseJSON(JSON.stringify(recordWith('<answer>' + GOOD + '</answer>')).replace('"status":200', '"status":200.5')).value;
  assert.equal(score(rec)[0].verdict, 'failed_call');
  assert.equal(score({ attempts: [], response: {} })[0].verdict, 'failed_call');
  assert.equal(score(null)[0].verdict, 'failed_call');
  // A call that succeeded without a readable content is unparseable, not failed.
  assert.equal(failed({ status: 200 }, { choices: [] }).split(' ')[0], 'unparseable');
});

test('failed and unparseable responses keep one row per true pair', () => {
  const ledger = ledgerOf([row('T02', { gst: '9.99' }), row('T01', { date: '2026-01-01' })]);
  const item = { id: 'i2', ledger, key: A.deriveKey(ledger) };
  assert.deepEqual(verdicts(score('no block at all', item)), ['G1=unparseable', '1A=unparseable', '1B=unparseable',
    'net=unparseable', 'T01:outside_period=unparseable', 'T02:gst_miscalculated=unparseable']);
  const f = A.figures(score('no block', item));
  const perType = {};
  A.CODES.forEach((c) => { perType['true_' + c] = 0; perType['claimed_' + c] = 0; perType['found_' + c] = 0; });
  perType.true_outside_period = 1;
  perType.true_gst_miscalculated = 1;
  assert.deepEqual(f, { bas_correct: 0, fault_audit: 0, bas_label_accuracy: 0, fault_precision: 0,
    fault_recall: 0, num_flagged: 0, parsed: 0, total: 0, failed: 0,
    faulty: 1, total_faulty: 0, clean: 0, audit_clean: 0, ...perType });
  // Also on a ledger without faults: a failed call scores 0 on the audit, and the ledger is clean.
  const rows = score(recordWith('', { status: 502 }));
  assert.deepEqual(verdicts(rows), ['G1=failed_call', '1A=failed_call', '1B=failed_call', 'net=failed_call']);
  assert.equal(A.figures(rows).fault_audit, 0);
  assert.deepEqual([A.figures(rows).faulty, A.figures(rows).clean, A.figures(rows).audit_clean], [0, 1, 0]);
});

test('the last block counts: from the last <answer> to the first </answer> after it', () => {
  assert.equal(A.answerBlock('<answer>1</answer><answer>2</answer>'), '2');
  assert.equal(A.answerBlock('<answer>1</answer> text <answer>2</answer> more </answer>'), '2');
  assert.equal(A.answerBlock('<answer>a <answer>b</answer>'), 'b');
  assert.equal(A.answerBlock('<answer>1</answer> then <answer>never closed'), null);
  assert.equal(A.answerBlock('</answer><answer>'), null);
  assert.equal(A.answerBlock('<Answer>1</Answer>'), null);
  assert.equal(A.answerBlock('<answer >1</answer>'), null);
  assert.equal(A.answerBlock('<answer></answer>'), '');
  // An earlier good block does not rescue a broken last one.
  assert.equal(score('<answer>' + GOOD + '</answer><answer>{"G1": }</answer>')[0].verdict, 'unparseable');
  assert.equal(score('<answer>{"G1": 1}</answer>\n<answer>' + GOOD + '</answer>')[0].verdict, 'correct');
  // A block that is still open at the end: no block, even after a closed one.
  assert.equal(score('<answer>' + GOOD + '</answer><answer>' + GOOD)[0].verdict, 'unparseable');
});

test('fences: ``` or ```json at the start and ``` at the end are removed', () => {
  assert.equal(A.answerBlock('<answer>\n```json\n{}\n```\n</answer>'), '\n{}\n');
  assert.equal(A.answerBlock('<answer>```{}```</answer>'), '{}');
  assert.equal(A.answerBlock('<answer>```json{}```</answer>'), '{}');
  assert.equal(A.answerBlock('<answer>``````</answer>'), '');
  assert.equal(A.answerBlock('<answer>`````</answer>'), '`````');     // too short for two fences
  const ok = (block) => score('<answer>' + block + '</answer>')[0].verdict;
  assert.equal(ok('```json\n' + GOOD + '\n```'), 'correct');
  assert.equal(ok('  \n```\n' + GOOD + '\n```  \n'), 'correct');
  assert.equal(ok('```json ' + GOOD + ' ```'), 'correct');
  assert.equal(ok('```JSON\n' + GOOD + '\n```'), 'unparseable');   // only lower-case json
  assert.equal(ok('```js\n' + GOOD + '\n```'), 'unparseable');
  assert.equal(ok('```json\n' + GOOD), 'unparseable');               // no closing fence
  assert.equal(ok(GOOD + '\n```'), 'unparseable');
  assert.equal(ok('```json\n' + GOOD + '\n```\n```'), 'unparseable');
  assert.equal(ok('\u00a0\u2003' + GOOD + '\u3000'), 'correct');        // Unicode whitespace around
});

test('exactly one strict JSON object', () => {
  const v = (block) => score('<answer>' + block + '</answer>')[0].verdict;
  assert.equal(v(GOOD), 'correct');
  assert.equal(v(GOOD + ' {}'), 'unparseable');
  assert.equal(v('{"G1": "110.00",}'), 'unparseable');
  assert.equal(v("{'G1': '110.00'}"), 'unparseable');
  assert.equal(v('{"G1": Infinity}'), 'unparseable');
  assert.equal(v('"text"'), 'unparseable');
  assert.equal(v('null'), 'unparseable');
  assert.equal(v('{}'), 'wrong');
});

test('faults shapes', () => {
  const v = (faults) => verdicts(score('<answer>{"G1": "110.00", "1A": "10.00", "1B": "0.00", "net": "10.00", "faults": ' + faults + '}</answer>'));
  assert.deepEqual(v('{}'), ['G1=correct', '1A=correct', '1B=correct', 'net=correct']);
  assert.deepEqual(v('{"T01": []}'), ['G1=correct', '1A=correct', '1B=correct', 'net=correct']);
  assert.deepEqual(v('{"T01": "outside_period", "T01": []}'), ['G1=correct', '1A=correct', '1B=correct', 'net=correct']);
  assert.deepEqual(v('{"T01": "x", "T01": ["y"]}').slice(4), ['T01:y=false_flag']);
  for (const bad of ['[]', '1', '"T01"', 'true', '{"T01": null}', '{"T01": 1}', '{"T01": ["a", null]}', '{"T01": [["a"]]}']) {
    assert.equal(v(bad)[0], 'G1=unparseable', bad);
  }
  const rows = score('<answer>{"faults": {"T01": ["b", "a", "b"], "__proto__": "x", "": "y"}}</answer>');
  assert.deepEqual(verdicts(rows).slice(4), [':y=false_flag', 'T01:a=false_flag', 'T01:b=false_flag', '__proto__:x=false_flag']);
  assert.equal(A.figures(rows).num_flagged, 4);
  assert.equal(A.figures(rows).fault_audit, 0);
});

test('pairs are sorted by id, then code, by code points (not UTF-16 code units)', () => {
  // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF5E by code point, before it by code unit.
  const rows = score('<answer>{"faults": {"T\ud83d\ude00": "a", "T\uff5e": "a", "T1": ["z", "\ud83d\ude00", "\uff5e"], "T1:": "a"}}</answer>');
  assert.deepEqual(rows.slice(4).map((r) => r.unit), ['T1:z', 'T1:\uff5e', 'T1:\ud83d\ude00', 'T1::a', 'T\uff5e:a', 'T\ud83d\ude00:a']);
  const cmp = A.compareCodePoints;
  assert.equal(cmp('\uffff', '\ud800\udc00'), -1);
  assert.equal(cmp('\ud800\udc00', '\uffff'), 1);
  assert.equal(cmp('a', 'ab'), -1);
  assert.equal(cmp('ab', 'a'), 1);
  assert.equal(cmp('x\ud83d\ude00', 'x\ud83d\ude01'), -1);
  assert.equal(cmp('\ud83d\ude00', '\ud83d\uffff'), 1);    // U+1F600 vs lone U+D83D then U+FFFF
  assert.equal(cmp('\ud800', '\ue000'), -1);               // lone surrogate by its own value
  assert.equal(cmp('same', 'same'), 0);
});

// ------------------------------------------------------------------------------------------
// Rule 3
// ------------------------------------------------------------------------------------------

test('figures as strings: every $ and , removed, whitespace trimmed, then -?digits(.digits)?', () => {
  for (const s of ['"110.00"', '"110"', '"110.0000"', '"$110.00"', '"$1,10.00"', '"1,1,0"', '"  $ 110.00 "',
    '"110.00$"', '",$,110,$"', '"0110.00"', '"\\u00a0110.00\\n"']) {
    assert.equal(labelVerdict(s), 'correct', s);
  }
  for (const s of ['"+110"', '"1.1e2"', '"110."', '".5"', '"110.001"', '"110.01"', '"1 10"', '"110 AUD"',
    '"A$110"', '"\u2212110"', '""', '"$"', '"١١٠"', '"110.00-"', '"--110"', '"Infinity"']) {
    assert.equal(labelVerdict(s), 'wrong', s);
  }
  // "$-10" and "-$10" both read as -10.
  const rows = score('<answer>{"G1": "110", "1A": "10", "1B": "0", "net": "-$,10"}</answer>');
  assert.equal(rows[3].verdict, 'wrong');    // the key's net is 10.00
  const neg = ledgerOf([row('T01', { kind: 'purchase', amount: '110.00', gst: '10.00' })]);
  const item = { id: 'n', ledger: neg, key: A.deriveKey(neg) };
  for (const s of ['"-10"', '"$-10.00"', '"-$10.00"', '"-1,0"', '-10', '-1e1', '-10.000']) {
    const r = score('<answer>{"G1": 0, "1A": 0, "1B": 10, "net": ' + s + '}</answer>', item);
    assert.deepEqual(r.map((x) => x.verdict), ['correct', 'correct', 'correct', 'correct'], s);
  }
});

test('figures as JSON numbers: their exact decimal value, exponents included', () => {
  for (const n of ['110', '110.0', '110.00000000000000000000001e0', '1.1e2', '1.10E+2', '11000e-2', '0.011e4', '110000000000000000000e-18']) {
    const expected = n === '110.00000000000000000000001e0' ? 'wrong' : 'correct';
    assert.equal(labelVerdict(n), expected, n);
  }
  // Close in binary floating point is not equal.
  assert.equal(labelVerdict('110.00000000000001'), 'wrong');
  assert.equal(labelVerdict('109.99999999999999'), 'wrong');
  // Huge exponents are compared without expanding them.
  assert.equal(labelVerdict('1e999999999'), 'wrong');
  assert.equal(labelVerdict('1e-999999999'), 'wrong');
  // Zero in any form equals 0.00.
  const zero = ledgerOf([]);
  const item = { id: 'z', ledger: zero, key: A.deriveKey(zero) };
  assert.deepEqual(JSON.parse(JSON.stringify(item.key)), { G1: '0.00', '1A': '0.00', '1B': '0.00', net: '0.00', faults: {} });
  const r = score('<answer>{"G1": -0, "1A": 0e5, "1B": "-0.000", "net": "$0"}</answer>', item);
  assert.deepEqual(r.map((x) => x.verdict), ['correct', 'correct', 'correct', 'correct']);
  assert.equal(A.figures(r).total, 1);
});

test('other JSON types and missing labels are wrong', () => {
  for (const v of ['true', 'false', 'null', '[110]', '{"v": 110}', '["110.00"]']) {
    assert.equal(labelVerdict(v), 'wrong', v);
  }
  const rows = score('<answer>{"g1": "110.00", "1A": "10.00", "1B": "0.00", "net": "10.00"}</answer>');
  assert.deepEqual(rows.map((r) => r.verdict), ['wrong', 'correct', 'correct', 'correct']);
  assert.equal(rows[0].reason, 'missing');
});

// ------------------------------------------------------------------------------------------
// Rule 4
// ------------------------------------------------------------------------------------------

test('figures from rows', () => {
  const ledger = ledgerOf([row('T01', { gst: '9.00' }), row('T02', { invoice: 'INV-T01' }), row('T03', { date: '2027-01-01' })]);
  const item = { id: 'f', ledger, key: A.deriveKey(ledger) };
  assert.equal(item.key.G1, '110.00');
  const rows = score('<answer>{"G1": "110.00", "1A": "10.00", "1B": "0", "net": "9.00", ' +
    '"faults": {"T01": "gst_miscalculated", "T02": ["duplicate_invoice", "outside_period"], "T04": "x"}}</answer>', item);
  assert.deepEqual(verdicts(rows), ['G1=correct', '1A=correct', '1B=correct', 'net=wrong',
    'T01:gst_miscalculated=found', 'T02:duplicate_invoice=found', 'T02:outside_period=false_flag',
    'T03:outside_period=missed', 'T04:x=false_flag']);
  const f = A.figures(rows);
  assert.equal(f.parsed, 1);
  assert.equal(f.bas_correct, 0);
  assert.equal(f.bas_label_accuracy, 0.75);
  assert.equal(f.num_flagged, 4);
  assert.ok(Math.abs(f.fault_precision - 2 / 4) < 1e-12);
  assert.ok(Math.abs(f.fault_recall - 2 / 3) < 1e-12);
  assert.ok(Math.abs(f.fault_audit - 4 / 7) < 1e-12);
  assert.ok(Math.abs(f.total - 0.4 * 4 / 7) < 1e-12);
  assert.deepEqual(rows.map((r) => r.points), [1, 1, 1, 0, 1, 1, 0, 0, 0]);
});

// ------------------------------------------------------------------------------------------
// Hostile input
// ------------------------------------------------------------------------------------------

function timed(fn) {
  const t0 = Date.now();
  const out = fn();
  return [out, Date.now() - t0];
}

test('100,000 <answer> tags finish quickly', () => {
  const content = '<answer>'.repeat(100000);
  const [rows, ms] = timed(() => score(content));
  assert.equal(rows[0].verdict, 'unparseable');
  assert.ok(ms < 2000, ms + ' ms');
  const closed = '<answer>'.repeat(100000) + GOOD + '</answer>'.repeat(100000);
  const [rows2, ms2] = timed(() => score(closed));
  assert.equal(rows2[0].verdict, 'correct');
  assert.ok(ms2 < 2000, ms2 + ' ms');
  const pairs = '<answer></answer>'.repeat(100000);
  const [rows3, ms3] = timed(() => score(pairs));
  assert.equal(rows3[0].verdict, 'unparseable');
  assert.ok(ms3 < 2000, ms3 + ' ms');
});

test('a 5 MB block without a close tag, and 5 MB blocks of junk, finish quickly', () => {
  const big = 'x'.repeat(5 * 1024 * 1024);
  for (const content of ['<answer>' + big, '<answer>{"G1": "' + big, '<answer>' + '{'.repeat(5 * 1024 * 1024) + '</answer>',
    '<answer>' + '['.repeat(5 * 1024 * 1024) + '</answer>', '<answer>```' + ' '.repeat(5 * 1024 * 1024) + '</answer>',
    '<answer>' + '<'.repeat(5 * 1024 * 1024), '<answer>' + '</answer'.repeat(600000)]) {
    const [rows, ms] = timed(() => score(content));
    assert.equal(rows[0].verdict, 'unparseable');
    assert.ok(ms < 2000, ms + ' ms');
  }
  // A 5 MB figure string and a 5 MB number are read exactly and quickly.
  const digits = '1' + '0'.repeat(5 * 1024 * 1024);
  const [r1, ms1] = timed(() => score('<answer>{"G1": "$' + digits + '", "G1": ' + digits + '}</answer>'));
  assert.equal(r1[0].verdict, 'wrong');
  assert.ok(ms1 < 2000, ms1 + ' ms');
  const many = '<answer>{"faults": {' + Array.from({ length: 20000 }, (_, i) => '"T' + i + '": ["a", "b", "c"]').join(',') + '}}</answer>';
  const [r2, ms2] = timed(() => score(many));
  assert.equal(r2.length, 4 + 60000);
  assert.ok(ms2 < 2000, ms2 + ' ms');
});
