'use strict';
// aubas.js is a classic script: loaded after scorer.js without `module`, it sets TallyScorerAubas.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const vm = require('vm');

function read(name) { return fs.readFileSync(path.join(__dirname, '..', name), 'utf8'); }

test('loads after scorer.js in a context without module and sets TallyScorerAubas', () => {
  const src = read('aubas.js');
  assert.doesNotMatch(src, /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|^\s*(import|export)\b/m);
  const context = vm.createContext({});
  vm.runInContext(read('scorer.js'), context, { filename: 'scorer.js' });
  vm.runInContext(src, context, { filename: 'aubas.js' });
  const A = context.TallyScorerAubas;
  assert.equal(typeof A, 'object');
  assert.equal(typeof A.scoreItem, 'function');
  const ledger = { quarter_start: '2026-07-01', quarter_end: '2026-09-30', rows: [
    { id: 'T01', date: '2026-07-03', kind: 'sale', counterparty: 'A', invoice: 'I1', category: 'travel', amount: '110.00', gst: '10.00', abn: '' }
  ] };
  const key = A.deriveKey(ledger);
  assert.equal(key.G1, '110.00');
  const record = { attempts: [{ status: 200, error: null }],
    response: { choices: [{ message: { content: '<answer>```json\n{"G1": "$110", "1A": 10, "1B": "0", "net": "10.00"}\n```</answer>' } }] } };
  const rows = A.scoreItem({ id: 'i', ledger, key }, record, 'r', 0);
  assert.equal(rows.map((r) => r.verdict).join(' '), 'correct correct correct correct');
  assert.equal(A.figures(rows).total, 1);
});

test('without TallyScorer loaded first it fails loudly', () => {
  const context = vm.createContext({});
  assert.throws(() => vm.runInContext(read('aubas.js'), context, { filename: 'aubas.js' }), /scorer\.js/);
});
