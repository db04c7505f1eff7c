'use strict';
// The au-bas script is a classic script: loaded after core.js without `module`, it registers
// itself as TallyCore.scorer('au-bas').
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const vm = require('vm');
const { CORE, SCRIPTS } = require('./helpers.js');

function read(file) { return fs.readFileSync(file, 'utf8'); }

test('loads after core.js in a context without module and registers as au-bas', () => {
  const src = read(SCRIPTS['au-bas']);
  assert.doesNotMatch(src, /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|^\s*(import|export)\b/m);
  const context = vm.createContext({});
  vm.runInContext(read(CORE), context, { filename: 'core.js' });
  vm.runInContext(src, context, { filename: 'au-bas.js' });
  assert.deepEqual(Array.from(context.TallyCore.names()), ['au-bas']);
  const A = context.TallyCore.scorer('au-bas');
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

test('without core.js loaded first it fails loudly', () => {
  const context = vm.createContext({});
  assert.throws(() => vm.runInContext(read(SCRIPTS['au-bas']), context, { filename: 'au-bas.js' }),
    /au-bas scorer needs scorer B's core: load core\.js \(TallyCore\) first/);
});
