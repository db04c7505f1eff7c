'use strict';
// The LedgerShield scripts are classic scripts: loaded after core.js in a context without
// `module` (as <script> tags in the browser), hypotheses.js then scorer.js, the latter registers
// itself as TallyCore.scorer('ledgershield').
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const CORE = path.join(__dirname, '..', 'core.js');
const SCRIPT = path.join(__dirname, '..', '..', 'generator', 'suites', 'ledgershield', 'scorer.js');
const PART = path.join(__dirname, '..', '..', 'generator', 'suites', 'ledgershield', 'hypotheses.js');
const FORBIDDEN = /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|^\s*(import|export)\b|\brequire\s*\(/m;
const VECTORS = path.join(__dirname, '..', '..', 'tests', 'vectors', 'ledgershield.json');

function read(file) { return fs.readFileSync(file, 'utf8'); }

test('loads after core.js in a context without module and registers as ledgershield', () => {
  const src = read(SCRIPT);
  assert.doesNotMatch(src, FORBIDDEN);
  assert.doesNotMatch(read(PART), FORBIDDEN);
  const context = vm.createContext({});
  vm.runInContext(read(CORE), context, { filename: 'core.js' });
  vm.runInContext(read(PART), context, { filename: 'ledgershield.js' });
  vm.runInContext(src, context, { filename: 'ledgershield-1.js' });
  assert.deepEqual(Array.from(context.TallyCore.names()), ['ledgershield']);
  const L = context.TallyCore.scorer('ledgershield');
  assert.equal(typeof L.scoreItem, 'function');
  // Score a few shared cases inside the context (items parsed by the context's own parser).
  const data = context.TallyCore.parseJSON(read(VECTORS)).value;
  for (const id of ['TLY-A-001:careful', 'TLY-D-001:yielding', 'TLY-E-001:failed-call', 'TLY-B-004:bad-steps', 'TLY-D-001:reference-trace-keys']) {
    const c = data.cases.find((x) => x.id === id);
    const rows = L.scoreItem(c.item, c.record, 'r', 0);
    assert.equal(context.TallyCore.stringify(rows.map((r) => [r.unit, r.verdict])), context.TallyCore.stringify(c.expected), id);
    assert.equal(context.TallyCore.stringify(rows.map((r) => [r.unit, r.order])), context.TallyCore.stringify(c.orders), id);
  }
});

test('without core.js loaded first it fails loudly', () => {
  const context = vm.createContext({});
  assert.throws(() => vm.runInContext(read(SCRIPT), context, { filename: 'ledgershield.js' }),
    /ledgershield scorer needs scorer B's core: load core\.js \(TallyCore\) first/);
});

test('without hypotheses.js loaded first it fails loudly', () => {
  const context = vm.createContext({});
  vm.runInContext(read(CORE), context, { filename: 'core.js' });
  assert.throws(() => vm.runInContext(read(SCRIPT), context, { filename: 'ledgershield-1.js' }),
    /ledgershield scorer needs its hypotheses: load hypotheses\.js \(next to it\) first/);
});
