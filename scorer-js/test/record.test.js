'use strict';
// Rule 1: from a stored response record to an answer; rows of scoreItem.
const test = require('node:test');
const assert = require('node:assert/strict');
const { S, val } = require('./helpers.js');

function rec(over) {
  const r = {
    item: 'i1', repeat: 0, request: {},
    attempts: [{ start: 's', status: 200, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: '{"total": "12.00", "tax_id": null}' } }] }
  };
  return Object.assign(r, over);
}

const ITEM = {
  id: 'receipts-pub-0001', document: { locale: 'de-DE' },
  fields: [
    { name: 'total', type: 'money', kind: 'printed', answer: '12.00' },
    { name: 'tax_id', type: 'identifier', kind: 'missing', answer: null },
    { name: 'date', type: 'date', kind: 'printed', answer: '2026-03-14' },
    { name: 'lines', type: 'list', kind: 'printed', item_fields: { description: 'text', amount: 'money' },
      answer: [{ description: 'A', amount: '1.00' }, { description: 'B', amount: '2.00' }] }
  ]
};

test('failed calls', () => {
  const st = (r) => S.readOutcome(r).status;
  assert.equal(st(rec()), 'answer');
  assert.equal(st(rec({ attempts: [{ status: 200, error: 'timeout' }] })), 'failed_call');
  assert.equal(st(rec({ attempts: [{ status: 200, error: false }] })), 'failed_call');
  assert.equal(st(rec({ attempts: [{ status: 200, error: 0 }] })), 'failed_call');
  assert.equal(st(rec({ attempts: [{ status: 200, error: '' }] })), 'answer');
  assert.equal(st(rec({ attempts: [{ status: 200 }] })), 'answer');
  assert.equal(st(rec({ attempts: [{ status: 200, error: null }, { status: 500, error: null }] })), 'failed_call');
  assert.equal(st(rec({ attempts: [{ status: 429, error: null }, { status: 299, error: null }] })), 'answer');
  for (const s of [199, 300, null, '200', true, 200.5]) {
    assert.equal(st(rec({ attempts: [{ status: s, error: null }] })), 'failed_call', String(s));
  }
  assert.equal(st(rec({ attempts: [{ status: val('200.0'), error: null }] })), 'answer');
  assert.equal(st(rec({ attempts: [{ status: val('2e2'), error: null }] })), 'answer');
  assert.equal(st(rec({ attempts: [{ status: val('200.5'), error: null }] })), 'failed_call');
  assert.equal(st(rec({ attempts: [] })), 'failed_call');
  assert.equal(st(rec({ attempts: undefined })), 'failed_call');
  assert.equal(st(rec({ response: null })), 'failed_call');
  assert.equal(st(rec({ response: [] })), 'failed_call');
  assert.equal(st(null), 'failed_call');
});

test('unparseable responses', () => {
  const st = (response) => S.readOutcome(rec({ response })).status;
  assert.equal(st({}), 'unparseable');
  assert.equal(st({ choices: [] }), 'unparseable');
  assert.equal(st({ choices: {} }), 'unparseable');
  assert.equal(st({ choices: [null] }), 'unparseable');
  assert.equal(st({ choices: [{}] }), 'unparseable');
  assert.equal(st({ choices: [{ message: { content: null, refusal: 'no' } }] }), 'unparseable');
  assert.equal(st({ choices: [{ message: { content: [{ type: 'text', text: '{}' }] } }] }), 'unparseable');
  assert.equal(st({ choices: [{ message: { content: 'none' } }] }), 'unparseable');
  assert.equal(st({ choices: [{ message: { content: '{"a": 1' } }] }), 'unparseable');
  assert.equal(st({ choices: [{ message: { content: '{}' } }] }), 'answer');
});

test('scoreItem rows', () => {
  const content = '```json\n{"total": "12,00 €", "tax_id": "", "date": "14.03.2026", ' +
    '"lines": [{"description": "b", "amount": "2,00"}, {"description": "a", "amount": 1}]}\n```';
  const rows = S.scoreItem(ITEM, rec({ response: { choices: [{ message: { content } }] } }), 'run-1', 2);
  assert.deepEqual(rows.map((r) => [r.unit, r.kind, r.verdict, r.points, r.order]), [
    ['total', 'printed', 'correct', 1, ''],
    ['tax_id', 'missing', 'null_ok', 1, ''],
    ['date', 'printed', 'wrong', 0, ''],
    ['lines', 'printed', 'correct', 1, 'different']
  ]);
  for (const r of rows) {
    assert.equal(r.run, 'run-1');
    assert.equal(r.item, 'receipts-pub-0001');
    assert.equal(r.repeat, 2);
    assert.deepEqual(Object.keys(r), ['run', 'item', 'repeat', 'unit', 'kind', 'verdict', 'points', 'reason', 'order']);
  }
  assert.equal(rows[2].reason, 'not an ISO date');
  const failed = S.scoreItem(ITEM, rec({ attempts: [{ status: 503, error: null }], response: null }), 'r', 0);
  assert.deepEqual(failed.map((r) => [r.verdict, r.points]), Array(4).fill(['failed_call', 0]));
  const unp = S.scoreItem(ITEM, rec({ response: { choices: [{ message: { content: 'sorry' } }] } }), 'r', 0);
  assert.deepEqual(unp.map((r) => [r.verdict, r.points]), Array(4).fill(['unparseable', 0]));
});

test('the answer object is read by own keys only', () => {
  const content = '{"toString": 1, "constructor": "x"}';
  const item = { id: 'i', document: { locale: 'en-US' }, fields: [
    { name: 'constructor', type: 'text', kind: 'printed', answer: 'X' },
    { name: 'valueOf', type: 'text', kind: 'missing', answer: null },
    { name: '__proto__', type: 'text', kind: 'missing', answer: null }] };
  const rows = S.scoreItem(item, rec({ response: { choices: [{ message: { content } }] } }), 'r', 0);
  assert.deepEqual(rows.map((r) => r.verdict), ['correct', 'null_ok', 'null_ok']);
});
