'use strict';
// Scorer B's cortifybench script as a browser loads it: classic scripts in a context without
// `module` or `require`, core.js first; and through the CLI's line protocol.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const CORE = path.join(ROOT, 'scorer-js', 'core.js');
const SCRIPT = path.join(ROOT, 'generator', 'suites', 'cortify', 'scorer.js');

function browserContext() {
  return vm.createContext({});   // a fresh global: no module, no require, no TallyCore
}

const ITEM = {
  id: 'case',
  hallazgos: [
    { patron: 'compra_duplicada', clasificacion: 'duplicidad', fecha: '2026-03-03', monto: '1400.00' },
    { patron: 'diferencia_captura', clasificacion: 'sobrecaptura', fecha: '2026-03-05', monto: '86.40' }
  ]
};
const CONTENT = '```json\n{"hallazgos": [{"patron": "Compra_Duplicada", "clasificacion": "duplicidad", ' +
  '"fecha": "2026-03-03", "monto": "$1,400"}, {"patron": "x", "clasificacion": "y", "fecha": "z", "monto": 1}]}\n```';
const RECORD = {
  item: 'case',
  repeat: 0,
  attempts: [{ status: 200, error: null }],
  response: { choices: [{ message: { role: 'assistant', content: CONTENT } }] }
};
const EXPECTED = [
  ['respuesta', 'correct', 1, ''],
  ['H01:compra_duplicada', 'found', 1, 'P01'],
  ['H02:diferencia_captura', 'missed', 0, ''],
  ['P02', 'false_flag', 0, '']
];

test('loads in a browser-like context after core.js and registers cortifybench', () => {
  const ctx = browserContext();
  vm.runInContext(fs.readFileSync(CORE, 'utf8'), ctx, { filename: 'core.js' });
  vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), ctx, { filename: 'cortifybench.js' });
  assert.strictEqual(vm.runInContext('typeof module', ctx), 'undefined');
  assert.deepStrictEqual(Array.from(vm.runInContext('TallyCore.names()', ctx)), ['cortifybench']);
  ctx.input = JSON.stringify({ item: ITEM, record: RECORD });
  const out = vm.runInContext(
    'var req = TallyCore.parseJSON(input).value;' +
    'TallyCore.stringify(TallyCore.scorer("cortifybench").scoreItem(req.item, req.record, "run", 0));', ctx);
  const rows = JSON.parse(out);
  assert.deepStrictEqual(rows.map((r) => [r.unit, r.verdict, r.points, r.order]), EXPECTED);
});

test('without core.js first it throws a clear message', () => {
  const ctx = browserContext();
  assert.throws(() => vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), ctx), /load core\.js \(TallyCore\) first/);
});

test('the CLI scores an item line with the script', () => {
  const line = JSON.stringify({ scorer: 'cortifybench', item: ITEM, record: RECORD, run: 'cli', repeat: 0 });
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scorer-js', 'cli.js'), path.relative(ROOT, SCRIPT)],
    { cwd: ROOT, input: line + '\n', encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  const rows = JSON.parse(r.stdout.trim());
  assert.deepStrictEqual(rows.map((x) => [x.unit, x.verdict, x.points, x.order]), EXPECTED);
  assert.ok(rows.every((x) => x.run === 'cli' && x.item === 'case' && x.repeat === 0));
});
