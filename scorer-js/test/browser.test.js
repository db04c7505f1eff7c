'use strict';
// Scorer B's scripts are classic scripts: without `module` (as in a browser), core.js sets the
// global TallyCore and each suite script, loaded after it, registers itself with it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const vm = require('vm');
const { CORE, SCRIPTS } = require('./helpers.js');

const FORBIDDEN = /\beval\s*\(|\bFunction\s*\(|\brequire\s*\(|^\s*(import|export)\b/m;

function load(context, file) {
  vm.runInContext(fs.readFileSync(file, 'utf8'), context, { filename: file });
}

test('core.js and the suite scripts are plain classic scripts', () => {
  for (const file of [CORE, SCRIPTS.extracting, SCRIPTS['au-bas']]) {
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), FORBIDDEN, file);
  }
});

test('core.js then the extracting script: TallyCore.scorer("extracting")', () => {
  const context = vm.createContext({});
  load(context, CORE);
  load(context, SCRIPTS.extracting);
  const T = context.TallyCore;
  assert.equal(typeof T, 'object');
  assert.deepEqual(Array.from(T.names()), ['extracting']);
  const E = T.scorer('extracting');
  const obj = E.firstObject('```json\n{"total": "1.234,50 €"}\n```');
  const r = E.scoreField({ name: 'total', type: 'money', kind: 'printed', answer: '1234.5' }, obj.total, 'de-DE');
  assert.equal(r.verdict, 'correct');
  const record = { attempts: [{ status: 200, error: null }],
    response: { choices: [{ message: { content: '{"total": "1.234,50 €"}' } }] } };
  const item = { id: 'i', document: { locale: 'de-DE' },
    fields: [{ name: 'total', type: 'money', kind: 'printed', answer: '1234.5' }] };
  const rows = E.scoreItem(item, record, 'r', 0);
  assert.deepEqual(rows.map((x) => [x.unit, x.verdict, x.points]), [['total', 'correct', 1]]);
});

test('both suite scripts in one page share one core', () => {
  const context = vm.createContext({});
  load(context, CORE);
  load(context, SCRIPTS.extracting);
  load(context, SCRIPTS['au-bas']);
  const T = context.TallyCore;
  assert.deepEqual(Array.from(T.names()), ['extracting', 'au-bas']);
  assert.notEqual(T.scorer('extracting'), T.scorer('au-bas'));
  assert.throws(() => T.scorer('aubas'), /unknown scorer "aubas" \(registered: extracting, au-bas\)/);
});

test('a suite script loaded without the core fails loudly', () => {
  for (const name of Object.keys(SCRIPTS)) {
    const context = vm.createContext({});
    assert.throws(() => load(context, SCRIPTS[name]), /load core\.js \(TallyCore\) first/, name);
    assert.equal(context.TallyCore, undefined);
  }
});
