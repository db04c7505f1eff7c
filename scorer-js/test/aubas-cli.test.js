'use strict';
// The streaming CLI with the au-bas scorer: define an item, then send stored records by reference.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('child_process');
const { CLI, SCRIPTS } = require('./helpers.js');

function runCli(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, SCRIPTS['au-bas']], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', () => {});
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8') }));
    child.stdin.end(input);
  });
}

const ledger = {
  quarter_start: '2026-07-01', quarter_end: '2026-09-30',
  rows: [
    { id: 'T01', date: '2026-07-03', kind: 'sale', counterparty: 'A', invoice: 'INV-1', category: 'consulting', amount: '1100.00', gst: '100.01', abn: '12345678901' },
    { id: 'T02', date: '2026-08-10', kind: 'purchase', counterparty: 'B', invoice: 'S-2', category: 'software', amount: '90.00', gst: '8.18', abn: '' },
    { id: 'T03', date: '2026-09-30', kind: 'sale', counterparty: 'C', invoice: 'INV-1', category: 'export', amount: '50.00', gst: '0.00', abn: '' }
  ]
};
const item = {
  id: 'au-bas-pub-0001', dataset: 'bas', half: 'public', strata: {}, document: { text: '...' }, ledger,
  key: { G1: '1100.00', '1A': '100.00', '1B': '0.00', net: '100.00',
    faults: { T01: ['gst_miscalculated'], T02: ['missing_abn_over_threshold'], T03: ['duplicate_invoice'] } }
};

function record(content, repeat, status) {
  return { item: item.id, repeat, request: {},
    attempts: [{ start: 's', status: status === undefined ? 200 : status, error: null, latency_ms: 1 }],
    response: status === undefined ? { choices: [{ index: 0, message: { role: 'assistant', content } }] } : null };
}

test('define an au-bas item, then score records by reference', async () => {
  const answer = '<answer>{"G1": "$1,100.00", "1A": 1e2, "1B": 0, "net": "100", ' +
    '"faults": {"T01": "gst_miscalculated", "T03": ["duplicate_invoice", "outside_period"]}}</answer>';
  const lines = [
    JSON.stringify({ scorer: 'au-bas', define: item }),
    JSON.stringify({ run: 'r', record: record(answer, 0) }),
    JSON.stringify({ run: 'r', record: record('', 1, 503) }),
    JSON.stringify({ scorer: 'au-bas', define: { ...item, id: 'au-bas-pub-0002', key: { ...item.key, G1: '1150.00' } } })
  ];
  const { code, stdout } = await runCli(lines.join('\n') + '\n');
  assert.equal(code, 0);
  const out = stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(out.length, 4);
  assert.deepEqual(out[0], { defined: 'au-bas-pub-0001' });
  assert.deepEqual(out[1].map((r) => [r.run, r.item, r.repeat, r.unit, r.kind, r.verdict, r.points, r.order]), [
    ['r', 'au-bas-pub-0001', 0, 'G1', 'bas', 'correct', 1, ''],
    ['r', 'au-bas-pub-0001', 0, '1A', 'bas', 'correct', 1, ''],
    ['r', 'au-bas-pub-0001', 0, '1B', 'bas', 'correct', 1, ''],
    ['r', 'au-bas-pub-0001', 0, 'net', 'bas', 'correct', 1, ''],
    ['r', 'au-bas-pub-0001', 0, 'T01:gst_miscalculated', 'fault', 'found', 1, 'gst_miscalculated'],
    ['r', 'au-bas-pub-0001', 0, 'T02:missing_abn_over_threshold', 'fault', 'missed', 0, 'missing_abn_over_threshold'],
    ['r', 'au-bas-pub-0001', 0, 'T03:duplicate_invoice', 'fault', 'found', 1, 'duplicate_invoice'],
    ['r', 'au-bas-pub-0001', 0, 'T03:outside_period', 'fault', 'false_flag', 0, 'outside_period']
  ]);
  assert.deepEqual(out[2].map((r) => [r.repeat, r.unit, r.verdict, r.points]), [
    [1, 'G1', 'failed_call', 0], [1, '1A', 'failed_call', 0], [1, '1B', 'failed_call', 0], [1, 'net', 'failed_call', 0],
    [1, 'T01:gst_miscalculated', 'failed_call', 0], [1, 'T02:missing_abn_over_threshold', 'failed_call', 0],
    [1, 'T03:duplicate_invoice', 'failed_call', 0]
  ]);
  // define itself does not derive the key; scoring a record of that item is rejected.
  assert.deepEqual(out[3], { defined: 'au-bas-pub-0002' });
});

test('a record of an item whose stored key differs is an error line', async () => {
  const bad = { ...item, id: 'au-bas-pub-0002', key: { ...item.key, G1: '1150.00' } };
  const lines = [
    JSON.stringify({ scorer: 'au-bas', define: bad }),
    JSON.stringify({ run: 'r', record: { ...record('<answer>{}</answer>', 0), item: bad.id } })
  ];
  const { code, stdout } = await runCli(lines.join('\n') + '\n');
  assert.equal(code, 2);
  const out = stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(out[0], { defined: 'au-bas-pub-0002' });
  assert.match(out[1].error, /^line 2: .*stored key differs/);
});
