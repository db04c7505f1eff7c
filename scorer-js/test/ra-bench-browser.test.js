'use strict';
// The ra-bench script is a classic script: loaded after core.js in a context without `module`
// (as a browser's <script> tags do), it registers itself as TallyCore.scorer('ra-bench').
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const ROOT = path.join(__dirname, '..', '..');
const CORE = path.join(ROOT, 'scorer-js', 'core.js');
const SCRIPT = path.join(ROOT, 'generator', 'suites', 'rabench', 'scorer.js');
function read(file) { return fs.readFileSync(file, 'utf8'); }

test('loads after core.js in a context without module and registers as ra-bench', () => {
  const src = read(SCRIPT);
  assert.doesNotMatch(src, /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|^\s*(import|export)\b|\brequire\s*\(/m);
  const context = vm.createContext({});
  vm.runInContext(read(CORE), context, { filename: 'core.js' });
  vm.runInContext(src, context, { filename: 'ra-bench.js' });
  assert.deepEqual(Array.from(context.TallyCore.names()), ['ra-bench']);
  const R = context.TallyCore.scorer('ra-bench');
  assert.equal(typeof R.scoreItem, 'function');
  const item = { id: 'i', label: { fields: { total: '10.80', merchant: 'Café Rosé' }, adds_up: true, fake: true,
    fake_class: 'inpainted', edited_field: 'total', provenance: 'none', lineage: null, hard_negative: false } };
  const record = { attempts: [{ status: 200, error: null }], response: { choices: [{ message: { content:
    'Sure: {"fields": {"merchant": "CAFE ROSE", "total": "$10.8"}, "risk": 0.70, ' +
    '"reasons": [{"kind": "totals_add_up", "text": "sum", "detail": "10.00 + 0.80 != 11.80"}]}' } }] } };
  const rows = R.scoreItem(item, record, 'r', 0);
  assert.deepEqual(Array.from(rows, (r) => r.unit + '=' + r.verdict + (r.order ? '@' + r.order : '')), [
    'field:merchant=correct', 'field:total=correct@10.8', 'check:totals_add_up=not_run',
    'decision=caught@0.7', 'edited_field=named', 'proof=proof']);
});

test('without core.js loaded first it fails loudly', () => {
  const context = vm.createContext({});
  assert.throws(() => vm.runInContext(read(SCRIPT), context, { filename: 'ra-bench.js' }),
    /ra-bench scorer needs scorer B's core: load core\.js \(TallyCore\) first/);
});
