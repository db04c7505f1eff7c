'use strict';
// scorer.js is one classic script: without `module` it sets the global TallyScorer.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const vm = require('vm');

test('loads as a classic script and sets TallyScorer', () => {
  const src = fs.readFileSync(path.join(__dirname, '..', 'scorer.js'), 'utf8');
  assert.doesNotMatch(src, /\beval\s*\(|\bFunction\s*\(|\brequire\s*\(|^\s*(import|export)\b/m);
  const context = vm.createContext({});
  vm.runInContext(src, context, { filename: 'scorer.js' });
  const T = context.TallyScorer;
  assert.equal(typeof T, 'object');
  const obj = T.firstObject('```json\n{"total": "1.234,50 €"}\n```');
  const r = T.scoreField({ name: 'total', type: 'money', kind: 'printed', answer: '1234.5' }, obj.total, 'de-DE');
  assert.equal(r.verdict, 'correct');
});
