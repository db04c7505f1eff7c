'use strict';
// The streaming CLI: one output line per non-blank input line, in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('child_process');
const { CLI, SCRIPTS } = require('./helpers.js');

function runCli(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, SCRIPTS['extracting']], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    if (typeof input === 'function') input(child.stdin);
    else child.stdin.end(input);
  });
}

const item = {
  id: 'invoices-pub-0007', dataset: 'invoices', half: 'public', strata: { locale: 'fr-FR' },
  document: { text: '...', locale: 'fr-FR', currency: 'EUR', reference_date: '2026-10-20' },
  fields: [
    { name: 'total', type: 'money', kind: 'printed', answer: '1234.56' },
    { name: 'count', type: 'count', kind: 'printed', answer: 12345678901234567890 },
    { name: 'growth', type: 'number', kind: 'computed', answer: '12.5', places: 1 },
    { name: 'vat', type: 'identifier', kind: 'missing', answer: null }
  ]
};

function record(content, status) {
  return { item: item.id, repeat: 0, request: {},
    attempts: [{ start: 's', status: status === undefined ? 200 : status, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content } }] } };
}

test('scores lines in order, keeps exact numbers, reports bad lines in place', async () => {
  const good = JSON.stringify({ scorer: 'extracting', item, run: 'run-a', repeat: 1,
    record: record('{"total": "1\u202f234,56 €", "count": "12 345 678 901 234 567 890", "growth": "12,45 %", "vat": null}') });
  // The item's count is written exactly in the line (a JS number would lose digits).
  const exactCount = good.replace(/"answer":12345678901234567000/, '"answer":12345678901234567890');
  assert.notEqual(exactCount, good);
  const status2e2 = JSON.stringify({ scorer: 'extracting', item, run: 'run-b', repeat: 0, record: record('{}') })
    .replace('"status":200', '"status":2e2');
  const lines = [exactCount, '', 'not json', JSON.stringify({ scorer: 'extracting', item: { ...item, document: { locale: 'xx-XX' } }, record: {}, run: 'r', repeat: 0 }), status2e2];
  const { code, stdout } = await runCli(lines.join('\n') + '\n');
  assert.equal(code, 2);
  const out = stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(out.length, 4);
  assert.deepEqual(out[0].map((r) => [r.run, r.item, r.repeat, r.unit, r.kind, r.verdict, r.points, r.order]), [
    ['run-a', 'invoices-pub-0007', 1, 'total', 'printed', 'correct', 1, ''],
    ['run-a', 'invoices-pub-0007', 1, 'count', 'printed', 'correct', 1, ''],
    ['run-a', 'invoices-pub-0007', 1, 'growth', 'computed', 'correct', 1, ''],
    ['run-a', 'invoices-pub-0007', 1, 'vat', 'missing', 'null_ok', 1, '']
  ]);
  assert.match(out[1].error, /^line 3: not valid JSON/);
  assert.match(out[2].error, /^line 4: unknown locale/);
  assert.deepEqual(out[3].map((r) => r.verdict), ['false_null', 'false_null', 'false_null', 'null_ok']);
});

test('all good input exits 0; CRLF line ends are fine', async () => {
  const line = JSON.stringify({ scorer: 'extracting', item, run: 'r', repeat: 0, record: record('x', 503) });
  const { code, stdout } = await runCli(line + '\r\n' + line + '\r\n');
  assert.equal(code, 0);
  const out = stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(out.length, 2);
  assert.deepEqual(out[1].map((r) => r.verdict), Array(4).fill('failed_call'));
});

test('streams many lines', async () => {
  const N = 30000;
  const lines = [];
  for (let i = 0; i < 50; i++) {
    lines.push(JSON.stringify({ scorer: 'extracting', item, run: 'r', repeat: i,
      record: record(i % 2 ? '{"total": 1234.56}' : 'prose {"total": "1234,56", "vat": "FR1"}') }));
  }
  const t0 = Date.now();
  const { code, stdout } = await runCli((stdin) => {
    let i = 0;
    const write = () => {
      while (i < N) {
        const ok = stdin.write(lines[i % lines.length] + '\n');
        i++;
        if (!ok) { stdin.once('drain', write); return; }
      }
      stdin.end();
    };
    write();
  });
  assert.equal(code, 0);
  const out = stdout.trimEnd().split('\n');
  assert.equal(out.length, N);
  for (let i = 0; i < N; i += 997) {
    const rows = JSON.parse(out[i]);
    assert.equal(rows[0].repeat, i % 50);
    assert.equal(rows[0].verdict, 'correct');
    assert.equal(rows[3].verdict, i % 2 ? 'null_ok' : 'invented');
  }
  assert.ok(Date.now() - t0 < 30000);
});
