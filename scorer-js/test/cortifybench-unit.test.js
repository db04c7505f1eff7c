'use strict';
// Unit tests of scorer B's cortifybench script: answer reading, the hit rule's tolerance at its
// edges (exactly 1.00 MXN, exactly 1%), exotic amounts, and the matching (maximum, not greedy,
// with the rule page's tie rule, checked against a literal reading of the rule on random graphs).
const test = require('node:test');
const assert = require('node:assert');

const C = require('../core.js');
globalThis.TallyCore = globalThis.TallyCore || C;
const S = require('../../generator/suites/cortify/scorer.js');

function dec(text) {
  const r = C.parseJSON(text);
  assert.ok(r.ok && r.value instanceof C.JsonNumber, 'a JSON number: ' + text);
  return r.value.decimal;
}

/** The hit rule's amount test for a true amount (string) and a predicted JSON number literal. */
function hits(trueMonto, literal) {
  const h = S.trueFindings({ id: 't', hallazgos: [{ patron: 'x', clasificacion: 'y', fecha: '2026-03-05', monto: trueMonto }] })[0];
  return S.amountHits(h.cents, dec(literal));
}

function record(content) {
  return {
    attempts: [{ status: 200, error: null }],
    response: { choices: [{ message: { role: 'assistant', content: content } }] }
  };
}

function finding(monto, extra) {
  return Object.assign({ patron: 'diferencia_captura', clasificacion: 'sobrecaptura', fecha: '2026-03-05', monto: monto }, extra || {});
}

function item(montos) {
  return { id: 'case', hallazgos: montos.map((m) => finding(m)) };
}

function units(rows) { return rows.map((r) => [r.unit, r.verdict, r.order]); }

test('tolerance: exactly 1.00 MXN is a hit, one cent (or less) more is not', () => {
  assert.strictEqual(hits('50.00', '51.00'), true);
  assert.strictEqual(hits('50.00', '49.00'), true);
  assert.strictEqual(hits('50.00', '51.01'), false);
  assert.strictEqual(hits('50.00', '48.99'), false);
  assert.strictEqual(hits('50.00', '51.0000000000000000000001'), false);
  assert.strictEqual(hits('50.00', '50.9999999999999999999999'), true);
  assert.strictEqual(hits('50.00', '48.9999999999999999999999'), false);
  assert.strictEqual(hits('100.00', '101'), true);          // 1% and 1.00 coincide at 100.00
  assert.strictEqual(hits('100.00', '98.99'), false);
  assert.strictEqual(hits('99.99', '100.99'), true);        // 1.00 beats 0.9999
  assert.strictEqual(hits('99.99', '101.00'), false);
});

test('tolerance: exactly 1% of the true amount is a hit, beyond is not', () => {
  assert.strictEqual(hits('500.00', '505.00'), true);
  assert.strictEqual(hits('500.00', '495'), true);
  assert.strictEqual(hits('500.00', '505.01'), false);
  assert.strictEqual(hits('500.00', '505.0000001'), false);
  assert.strictEqual(hits('500.00', '494.9999999'), false);
  assert.strictEqual(hits('1234.56', '1246.9056'), true);   // 1% = 12.3456, not rounded
  assert.strictEqual(hits('1234.56', '1246.9057'), false);
  assert.strictEqual(hits('1234.56', '1222.2144'), true);
  assert.strictEqual(hits('1234.56', '1222.2143'), false);
  assert.strictEqual(hits('100.01', '101.0101'), true);
  assert.strictEqual(hits('100.01', '101.0102'), false);
  assert.strictEqual(hits('250000.00', '2.525e5'), true);
  assert.strictEqual(hits('250000.00', '252500.01'), false);
});

test('tolerance: a true amount of 0.00 hits -1.00 to 1.00', () => {
  assert.strictEqual(hits('0.00', '1'), true);
  assert.strictEqual(hits('0.00', '-1.00'), true);
  assert.strictEqual(hits('0.00', '-0'), true);
  assert.strictEqual(hits('0.00', '1.01'), false);
  assert.strictEqual(hits('0.00', '-1.0000001'), false);
  assert.strictEqual(hits('0.00', '1e-999999'), true);
  assert.strictEqual(hits('0.00', '-1e-999999'), true);
  assert.strictEqual(hits('86.40', '-86.40'), false);
});

test('tolerance: extreme exponents are decided without building huge numbers', () => {
  assert.strictEqual(hits('50.00', '1e999999'), false);
  assert.strictEqual(hits('50.00', '-1e999999'), false);
  assert.strictEqual(hits('50.00', '5e1'), true);
  assert.strictEqual(hits('50.00', '5000e-2'), true);
  assert.strictEqual(hits('50.00', '0.0000049e7'), true);   // 49: exactly 1.00 below
  assert.strictEqual(hits('50.00', '1e-999999'), false);
  assert.strictEqual(hits('1.00', '1e-999999'), true);   // 0 < p < 1e-4: |p - 1| < 1
  assert.strictEqual(hits('1.00', '-1e-999999'), false); // just beyond 1.00 below
  assert.strictEqual(hits('1.00', '0'), true);
  // beyond an exponent of +-1,000,000 a number is out of range (the core's rule): it reads as no amount
  assert.strictEqual(dec('1e1000001'), null);
});

test('monto strings: $ and , removed, then White_Space; the plain grammar only', () => {
  assert.strictEqual(S.readMonto('$1,400.00').toString(), '1400');
  assert.strictEqual(S.readMonto(' \u00a0$ 1400 ').toString(), '1400');
  assert.strictEqual(S.readMonto('1,400').toString(), '1400');
  assert.strictEqual(S.readMonto('1400,50').toString(), '140050');
  assert.strictEqual(S.readMonto('-0.50').toString(), '-0.5');
  for (const bad of ['1400 MXN', '+1400', '1.4e3', '', '.', '1.', '.5', '$', '1 400', 'NaN']) {
    assert.strictEqual(S.readMonto(bad), null, bad);
  }
  assert.strictEqual(S.readMonto(true), null);
  assert.strictEqual(S.readMonto(null), null);
  assert.strictEqual(S.readMonto(1400).toString(), '1400');   // a plain JS number (JSON.parse input)
});

test('codes: White_Space trimmed, ASCII capitals lowered, nothing else', () => {
  assert.strictEqual(S.readCode('\u3000Compra_DUPLICADA\u2003'), 'compra_duplicada');
  assert.strictEqual(S.readCode('ÁLZA'), 'Álza');
  assert.strictEqual(S.readCode('\u0130'), '\u0130');          // no Unicode case folding
  assert.strictEqual(S.readCode('a\u00a0b'), 'a\u00a0b');
  assert.strictEqual(S.readCode(3), null);
});

test('answer reading: fences, shapes, the 500 bound', () => {
  assert.strictEqual(S.stripFence(' ```json\n[]\n``` '), '\n[]\n');
  assert.strictEqual(S.stripFence('```JSON\n[]\n```'), 'JSON\n[]\n');
  assert.strictEqual(S.stripFence('`````'), '`````');
  assert.strictEqual(S.stripFence('``````'), '');
  assert.strictEqual(S.readResponse(record('``````')).status, 'unparseable');
  assert.strictEqual(S.readResponse(record('```json[]```')).status, 'answer');
  assert.strictEqual(S.readResponse(record('```jsonjson[]```')).status, 'unparseable');
  assert.strictEqual(S.readResponse(record('{"hallazgos": []}')).status, 'answer');
  assert.strictEqual(S.readResponse(record('{"hallazgos": [], "hallazgos": {}}')).status, 'unparseable');
  assert.strictEqual(S.readResponse(record('{"Hallazgos": []}')).status, 'unparseable');
  assert.strictEqual(S.readResponse(record('[' + Array(500).fill('1').join(',') + ']')).status, 'answer');
  assert.strictEqual(S.readResponse(record('[' + Array(501).fill('1').join(',') + ']')).status, 'unparseable');
  assert.strictEqual(S.readResponse(record('[]\u00a0')).status, 'answer');        // step 1 trims it
  assert.strictEqual(S.readResponse(record('```\u00a0[]```')).status, 'unparseable');
  assert.strictEqual(S.readResponse({ attempts: [{ status: 200, error: null }] }).status, 'failed_call');
  assert.strictEqual(S.readResponse({ attempts: [{ status: 503, error: null }], response: {} }).status, 'failed_call');
  assert.strictEqual(S.readResponse({ attempts: [{ status: 200, error: null }], response: { choices: [] } }).status, 'unparseable');
});

test('labels have at least two digits', () => {
  assert.strictEqual(S.label('H', 0), 'H01');
  assert.strictEqual(S.label('P', 8), 'P09');
  assert.strictEqual(S.label('P', 9), 'P10');
  assert.strictEqual(S.label('H', 99), 'H100');
});

test('rows: order names the matched prediction, points 1 for correct and found', () => {
  const it = item(['50.00', '500.00']);
  const content = JSON.stringify([finding('499'), finding('51.00'), finding('51.00'), 'x']);
  const rows = S.scoreItem(it, record(content), 'r', 2);
  assert.deepStrictEqual(rows.map((r) => [r.unit, r.kind, r.verdict, r.points, r.order]), [
    ['respuesta', 'reply', 'correct', 1, ''],
    ['H01:diferencia_captura', 'finding', 'found', 1, 'P02'],
    ['H02:diferencia_captura', 'finding', 'found', 1, 'P01'],
    ['P03', 'prediction', 'false_flag', 0, ''],
    ['P04', 'prediction', 'false_flag', 0, '']
  ]);
  rows.forEach((r) => { assert.strictEqual(r.run, 'r'); assert.strictEqual(r.repeat, 2); assert.strictEqual(r.item, 'case'); });
  const failed = S.scoreItem(it, { attempts: [{ status: 500, error: 'boom' }] }, 'r', 0);
  assert.deepStrictEqual(failed.map((r) => [r.unit, r.verdict, r.points, r.order]), [
    ['respuesta', 'failed_call', 0, ''],
    ['H01:diferencia_captura', 'failed_call', 0, ''],
    ['H02:diferencia_captura', 'failed_call', 0, '']
  ]);
  const figs = S.figures(S.scoreItem(it, record(content), 'r', 0));
  assert.deepStrictEqual([figs.tp, figs.fp, figs.fn, figs.predicted, figs.exact], [2, 2, 0, 4, 0]);
});

test('matching is maximum, not greedy', () => {
  // P01 can hit H01 (50.00) and H02 (50.80); P02 only H01.
  const rows = S.scoreItem(item(['50.00', '50.80']), record(JSON.stringify([finding('50.50'), finding('49.50')])), 'r', 0);
  assert.deepStrictEqual(units(rows).slice(1), [
    ['H01:diferencia_captura', 'found', 'P02'],
    ['H02:diferencia_captura', 'found', 'P01']
  ]);
});

test('tie rule: lowest prediction for H01, then H02, ... among maximum matchings', () => {
  // adjacency by hand: adj[h] = predictions that can hit h
  assert.deepStrictEqual(S.chooseMatching([[0, 1], [0, 1]], 2), [0, 1]);
  assert.deepStrictEqual(S.chooseMatching([[0, 1, 2]], 3), [0]);
  assert.deepStrictEqual(S.chooseMatching([[0, 1], [0]], 2), [1, 0]);
  assert.deepStrictEqual(S.chooseMatching([[0, 2], [0, 1], [1]], 3), [2, 0, 1]);
  assert.deepStrictEqual(S.chooseMatching([[0], [0], [0, 1]], 2), [0, -1, 1]);
  assert.deepStrictEqual(S.chooseMatching([[], [0]], 1), [-1, 0]);
  assert.deepStrictEqual(S.chooseMatching([[0, 2], [0], [0, 1]], 3), [2, 0, 1]);
  assert.deepStrictEqual(S.chooseMatching([], 3), []);
  assert.deepStrictEqual(S.chooseMatching([[], []], 0), [-1, -1]);
});

// A literal reading of the tie rule, with a brute-force maximum matching, for random graphs.
function maxMatch(adj, hs, taken) {
  // Kuhn's algorithm on the findings hs (indices) and predictions not in `taken`.
  const mateR = new Map();
  function tryKuhn(h, seen) {
    for (const p of adj[h]) {
      if (taken.has(p) || seen.has(p)) continue;
      seen.add(p);
      if (!mateR.has(p) || tryKuhn(mateR.get(p), seen)) { mateR.set(p, h); return true; }
    }
    return false;
  }
  let n = 0;
  for (const h of hs) if (tryKuhn(h, new Set())) n++;
  return n;
}

function literalRule(adj) {
  const nTrue = adj.length;
  const all = [...Array(nTrue).keys()];
  const M = maxMatch(adj, all, new Set());
  const taken = new Set();
  const out = [];
  let pairs = 0;
  for (let h = 0; h < nTrue; h++) {
    let chosen = -1;
    for (const p of adj[h]) {
      if (taken.has(p)) continue;
      const t2 = new Set(taken); t2.add(p);
      if (pairs + 1 + maxMatch(adj, all.slice(h + 1), t2) === M) { chosen = p; break; }
    }
    out.push(chosen);
    if (chosen !== -1) { taken.add(chosen); pairs++; }
  }
  return out;
}

test('tie rule equals its literal reading on 3000 random small graphs', () => {
  let seed = 12345;
  function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }
  for (let k = 0; k < 3000; k++) {
    const nTrue = rnd(7);
    const nPred = rnd(8);
    const density = 1 + rnd(4);
    const adj = [];
    for (let h = 0; h < nTrue; h++) {
      const row = [];
      for (let p = 0; p < nPred; p++) if (rnd(5) < density) row.push(p);
      adj.push(row);
    }
    assert.deepStrictEqual(S.chooseMatching(adj, nPred), literalRule(adj), JSON.stringify(adj));
  }
});

test('500 identical predictions against 40 identical findings stay fast', () => {
  const montos = Array(40).fill('100.00');
  const list = Array(500).fill(finding('100.50'));
  const t0 = Date.now();
  const rows = S.scoreItem(item(montos), record(JSON.stringify(list)), 'r', 0);
  assert.ok(Date.now() - t0 < 5000);
  assert.strictEqual(rows.filter((r) => r.verdict === 'found').length, 40);
  assert.strictEqual(rows[1].order, 'P01');
  assert.strictEqual(rows[40].order, 'P40');
  assert.strictEqual(rows[41].unit, 'P41');
});

test('a malformed item is an error, not a verdict', () => {
  assert.throws(() => S.scoreItem({ id: 'x' }, record('[]'), 'r', 0), /hallazgos/);
  assert.throws(() => S.scoreItem({ id: 'x', hallazgos: [finding('1400')] }, record('[]'), 'r', 0), /monto/);
  assert.throws(() => S.scoreItem({ id: 'x', hallazgos: [finding(1400)] }, record('[]'), 'r', 0), /monto/);
});

test('exactness: 30 or more significant digits are not rounded away (section 3: exact arithmetic)', () => {
  assert.strictEqual(hits('4702.20', '4749.222'), true);                               // exactly 1%
  assert.strictEqual(hits('4702.20', '4749.222000000000000000000000000001'), false);
  assert.strictEqual(hits('68.40', '67.40'), true);                                    // exactly 1.00
  assert.strictEqual(hits('68.40', '67.399999999999999999999999999999'), false);
  assert.strictEqual(hits('3985.56', '3945.704399999999999999999999999999'), false);
  assert.strictEqual(hits('1248.00', '1260.480000000000000000000000000000000000000000000000000000000001'), false);
  assert.strictEqual(hits('0.00', '1.00000000000000000000000000000000000001'), false);
  // the same through a whole reply, the amount once as a JSON number and once as a string
  const it = { id: 'x', hallazgos: [finding('68.40')] };
  const rows = S.scoreItem(it, record('[' + JSON.stringify(finding('x')).replace('"x"', '67.399999999999999999999999999999') +
    ', ' + JSON.stringify(finding('67.399999999999999999999999999999')) + ']'), 'r', 0);
  assert.deepStrictEqual(units(rows), [
    ['respuesta', 'correct', ''],
    ['H01:diferencia_captura', 'missed', ''],
    ['P01', 'false_flag', ''],
    ['P02', 'false_flag', '']
  ]);
});

test('an amount of 1e1000000 or 1e-1000000 is read and decided, not an error', () => {
  const it = { id: 'x', hallazgos: [finding('50.00'), finding('0.00')] };
  const list = '[' + ['1e1000000', '-1e1000000', '1e-1000000'].map((lit) =>
    JSON.stringify(finding('x')).replace('"x"', lit)).join(', ') + ']';
  const rows = S.scoreItem(it, record(list), 'r', 0);
  assert.deepStrictEqual(units(rows), [
    ['respuesta', 'correct', ''],
    ['H01:diferencia_captura', 'missed', ''],
    ['H02:diferencia_captura', 'found', 'P03'],
    ['P01', 'false_flag', ''],
    ['P02', 'false_flag', '']
  ]);
});
