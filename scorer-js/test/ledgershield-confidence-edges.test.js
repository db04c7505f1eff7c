'use strict';
// Section 12, step 5 of the LedgerShield rule page: the confidence that updates the carried state, at its
// edges. The note after "Computing it:" lets a clamped c strictly between 0 and 10^-40 be read at 10^-40,
// one strictly between 1 - 10^-40 and 1 at 1 - 10^-40, and a value past 10^40 or a non-zero one below
// 10^-40 in size (before clamping) at those distances, signs kept: the figures are the rule's, and no
// power of ten of a million digits is built. The expected states are worked out by hand in the comments;
// the last test also checks the note against plain exact arithmetic on the unsubstituted values.
const test = require('node:test');
const assert = require('node:assert/strict');
const C = require('../core.js');

if (!globalThis.TallyCore) globalThis.TallyCore = C;
require('../../generator/suites/ledgershield/hypotheses.js');   // loaded before the scorer, as the suite lists them
const L = require('../../generator/suites/ledgershield/scorer.js');

function record(content) {
  return {
    item: 'x', repeat: 0, request: {},
    attempts: [{ start: '2026-04-01T00:00:00Z', status: 200, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: content } }] }
  };
}

/** A Task C case X, benign, gold PAY, with nothing on its desk but a policy. */
const X = {
  id: 'X', dataset: 'unit', half: 'public', strata: { task: 'C' }, document: { text: '' }, task: 'C', theme: 't',
  env: {
    documents: { 'INV-1': {} }, vendors: { v1: { vendor_key: 'acme', bank_account: 'X' } }, policy: {},
    interventions: {}, artifacts: {}, pressure: [], step_budget: 20, budget_total: 15
  },
  gold: { decision: 'PAY', unsafe_if_pay: false, evidence: {}, reason_codes: [], fraud_flags: [], discrepancies: [],
    duplicate_links: [], cross_invoice_links: [], campaign_signals: [], policy_checks: {}, required_interventions: [],
    extracted_fields: {}, line_items: [], counterfactual_concepts: [], required_tools: [] }
};

/** A state at full authority after `n` episodes with running error `error` (every other count 0). */
function stateAt(n, error) {
  return { n: n, level: 'full_authority', error: error, window: 0, delay: 0, minutes: 0, friction: 0, fp_cost: 0,
    debt: 0, breaches: 0, restrictions: 0 };
}

/**
 * S_out (as an object of strings) of one episode on X: one lookup_policy, then `decision` with the
 * confidence written as the raw JSON text `confidence` (a literal, so 5e-1000000 reaches the scorer as written).
 */
function stateOut(decision, confidence, sIn) {
  const sub = '{"decision": "' + decision + '", "confidence": ' + confidence + '}';
  const trace = '[{"tool_name": "lookup_policy", "payload": {}}, {"tool_name": "submit_decision", "payload": ' + sub + '}]';
  const text = '{"action_trace": ' + trace + ', "final_submission": ' + sub + ', "run_state": ' + JSON.stringify(sIn) + '}';
  const rows = L.scoreItem(X, record(text), 'r', 0);
  const out = rows.find((r) => r.unit === 'run_state:out');
  assert.ok(out, 'no run_state:out row');
  const s = {};
  for (const part of out.order.split(';')) {
    const [k, v] = part.split('=');
    s[k] = v;
  }
  return s;
}

/** The value updateConfidence reads (before clamping) as plain text, and its clamped c as n/d. */
function reading(json) {
  const parsed = C.readReplyJSON('{"confidence": ' + json + '}');
  assert.ok(parsed.ok, json);
  const r = L.updateConfidence(parsed.value.confidence);
  return { present: r.present, atEdge: r.atEdge, value: r.value === null ? null : r.value.toString(),
    c: r.c.n.toString() + '/' + r.c.d.toString() };
}

const NINES = (k) => '9'.repeat(k);
const E40 = '1' + '0'.repeat(40);                     // 10^40 as toString writes it
const EM40 = '0.' + '0'.repeat(39) + '1';              // 10^-40

test('the value read: past 10^40 and non-zero below 10^-40 in size at those distances, signs kept', () => {
  assert.deepEqual(reading('1e-41'), { present: true, atEdge: false, value: EM40, c: '1/' + E40 });
  assert.deepEqual(reading('5e-1000000'), { present: true, atEdge: false, value: EM40, c: '1/' + E40 });
  assert.deepEqual(reading('-1e-41'), { present: true, atEdge: true, value: '-' + EM40, c: '0/1' });
  assert.deepEqual(reading('-5e-1000000'), { present: true, atEdge: true, value: '-' + EM40, c: '0/1' });
  assert.deepEqual(reading('1e41'), { present: true, atEdge: true, value: E40, c: '1/1' });
  assert.deepEqual(reading('7e999999'), { present: true, atEdge: true, value: E40, c: '1/1' });
  assert.deepEqual(reading('-7e999999'), { present: true, atEdge: true, value: '-' + E40, c: '0/1' });
  assert.deepEqual(reading('0e-1000000'), { present: true, atEdge: true, value: '0', c: '0/1' });
  // strictly between 1 - 10^-40 and 1: read at 1 - 10^-40 = 0.(40 nines)
  const nearOne = { present: true, atEdge: false, value: '0.' + NINES(40), c: NINES(40) + '/' + E40 };
  assert.deepEqual(reading('0.' + NINES(41)), nearOne);
  assert.deepEqual(reading('0.' + NINES(40) + '8'), nearOne);                   // 1 - 2 x 10^-41
  assert.deepEqual(reading('0.' + NINES(1000) + '7'), nearOne);
  assert.deepEqual(reading('"0.' + NINES(41) + '"'), Object.assign({}, nearOne, { present: false }));   // a numeral
  assert.deepEqual(reading('"5e-1000000"'), { present: false, atEdge: false, value: EM40, c: '1/' + E40 });
  // at the distances themselves, or inside them, the value is read as written
  assert.deepEqual(reading('1e-40'), { present: true, atEdge: false, value: EM40, c: '1/' + E40 });
  assert.deepEqual(reading('0.' + NINES(40)), nearOne);
  assert.equal(reading('0.' + NINES(39) + '89').value, '0.' + NINES(39) + '89');   // below 1 - 10^-40
  assert.equal(reading('1e40').value, E40);
  assert.equal(reading('1.5e40').value, E40);
  assert.equal(reading('9.99e39').value, '999' + '0'.repeat(37));
  assert.equal(reading('1.5e-40').value, '0.' + '0'.repeat(39) + '15');
  assert.equal(reading('0.9').value, '0.9');
  // no value: c is 1/2, nothing is read
  assert.deepEqual(reading('1e-1000001'), { present: false, atEdge: false, value: null, c: '1/2' });
  assert.deepEqual(reading('"1e-1000001"'), { present: false, atEdge: false, value: null, c: '1/2' });
});

test('hand-worked states: a confidence within 10^-40 of 0 or 1 and a new error on a rounding tie', () => {
  // From n = 1 to n = 2 the new error is (error_old + 10000 x) / 2. With 10000 x = 10000 - d or d (0 < d tiny)
  // and error_old odd, the exact quotient is a half-integer minus or plus d/2: no tie, it rounds away from it.
  //
  // 1e-41 (read at 1e-40), PAY, correct: 10000 x = 10000 (1 - 10^-40)^2 = 10000 - d. error_old 3:
  // (10003 - d)/2 = 5001.5 - d/2 -> 5001 (c = 0 would give the tie 5001.5 -> 5002, to even). debt += round(10000 - d)
  // = 10000. Present, 0 < value < 1; 5001 >= 3400: review only, window 0, and the level rose without a block:
  // a restriction.
  const reviewOnly = { n: '2', level: 'review_only', error: '5001', window: '0', delay: '0', minutes: '0', friction: '0',
    fp_cost: '0', debt: '10000', breaches: '0', restrictions: '1' };
  for (const conf of ['1e-41', '5e-1000000', '1e-40', '0.' + '0'.repeat(50) + '3']) {
    assert.deepEqual(stateOut('PAY', conf, stateAt(1, 3)), reviewOnly, conf);
  }
  // The same confidence as text is not present: restricted authority, window 0, a restriction; the same figures.
  assert.deepEqual(stateOut('PAY', '"5e-1000000"', stateAt(1, 3)),
    Object.assign({}, reviewOnly, { level: 'restricted_authority' }));
  // 1e-41, HOLD (wrong: gold PAY): 10000 x = 10000 (10^-40)^2 = d. error_old 1: (1 + d)/2 = 0.5 + d/2 -> 1 (c = 0
  // would give the tie 0.5 -> 0). debt += round(d) = 0. 1 <= 1200 at full authority: unchanged. HOLD on a benign
  // case is a false positive: delay 4 h, review 16 min, friction 18/100: fp 4 x 15000 + 16 x 200 + 18 x 1000 = 81200.
  const holdOne = { n: '2', level: 'full_authority', error: '1', window: '0', delay: '400', minutes: '1600',
    friction: '18', fp_cost: '81200', debt: '0', breaches: '0', restrictions: '0' };
  for (const conf of ['1e-41', '5e-1000000', '1e-40']) assert.deepEqual(stateOut('HOLD', conf, stateAt(1, 1)), holdOne, conf);
  // "0." + 41 nines (read at 1 - 10^-40), PAY, correct: 10000 x = 10000 (10^-40)^2 = d: error_old 1 -> 1, debt 0,
  // full authority unchanged.
  const payOne = { n: '2', level: 'full_authority', error: '1', window: '0', delay: '0', minutes: '0', friction: '0',
    fp_cost: '0', debt: '0', breaches: '0', restrictions: '0' };
  for (const conf of ['0.' + NINES(41), '0.' + NINES(40), '0.' + NINES(5000) + '1']) {
    assert.deepEqual(stateOut('PAY', conf, stateAt(1, 1)), payOne, conf.slice(0, 50));
  }
  // ... and HOLD, wrong: 10000 (1 - 10^-40)^2 = 10000 - d: error_old 3 -> 5001, debt 10000, review only (a restriction).
  for (const conf of ['0.' + NINES(41), '0.' + NINES(40)]) {
    assert.deepEqual(stateOut('HOLD', conf, stateAt(1, 3)), Object.assign({}, holdOne,
      { level: 'review_only', error: '5001', debt: '10000', restrictions: '1' }), conf);
  }
  // -1e-41 (read at -1e-40, clamped to c = 0 exactly), PAY, correct: 10000 x = 10000 exactly. error_old 3:
  // 10003/2 = 5001.5, a tie -> 5002 (even); debt 10000. Present and <= 0: restricted authority, window 0, a
  // restriction (the level rose, no block). 0e-1000000 is 0: the same (present, at the edge).
  const atZero = { n: '2', level: 'restricted_authority', error: '5002', window: '0', delay: '0', minutes: '0',
    friction: '0', fp_cost: '0', debt: '10000', breaches: '0', restrictions: '1' };
  for (const conf of ['-1e-41', '-5e-1000000', '0e-1000000', '0', '-7e999999']) {
    assert.deepEqual(stateOut('PAY', conf, stateAt(1, 3)), atZero, conf);
  }
  // 1e41 and 7e999999 (read at 1e40, clamped to c = 1), PAY, correct: x = 0. error_old 1: 1/2, a tie -> 0 (even);
  // error_old 3: 3/2 -> 2. debt 0. Present and >= 1: restricted authority, a restriction.
  const atOne = (error) => ({ n: '2', level: 'restricted_authority', error: error, window: '0', delay: '0',
    minutes: '0', friction: '0', fp_cost: '0', debt: '0', breaches: '0', restrictions: '1' });
  for (const conf of ['1e41', '7e999999', '1e40', '1']) {
    assert.deepEqual(stateOut('PAY', conf, stateAt(1, 1)), atOne('0'), conf);
    assert.deepEqual(stateOut('PAY', conf, stateAt(1, 3)), atOne('2'), conf);
  }
  // ... HOLD, wrong: x = 1: error_old 1: 10001/2, a tie -> 5000 (even); debt 10000; the edge rule comes first:
  // restricted authority (not review only, though 5000 >= 3400), a restriction.
  assert.deepEqual(stateOut('HOLD', '7e999999', stateAt(1, 1)), Object.assign({}, holdOne,
    { level: 'restricted_authority', error: '5000', debt: '10000', restrictions: '1' }));
});

// ---------------------------------------------------------------------------------------------------------
// The note against plain exact arithmetic: step 5 computed on the value as written (small exponents only)
// ---------------------------------------------------------------------------------------------------------

/** A decimal literal with a small exponent as an exact fraction [n, d]. */
function exactValue(text) {
  const dec = C.asJsonNumber(C.readReplyJSON('{"v": ' + text + '}').value.v).decimal;
  let n = BigInt(dec.coef) * (dec.neg ? -1n : 1n);
  if (dec.exp >= 0n) return [n * 10n ** dec.exp, 1n];
  return [n, 10n ** -dec.exp];
}

/** n/d (d > 0) rounded to an integer, a tie to even. */
function roundEven(n, d) {
  let q = n / d;
  let r = n - q * d;
  if (r < 0n) { q -= 1n; r += d; }
  if (2n * r > d || (2n * r === d && q % 2n !== 0n)) q += 1n;
  return q;
}

/** Step 5 as written: c clamped, x = (c - correct)^2, the new error and the debt added; and whether it tied. */
function plainStep(text, correct, nOld, errorOld) {
  let [cn, cd] = exactValue(text);
  if (cn < 0n) cn = 0n;
  if (cn > cd) cn = cd;
  const m = cn - (correct ? cd : 0n);
  const xn = 10000n * m * m;                 // 10000 x = xn / xd
  const xd = cd * cd;
  const nNew = BigInt(nOld) + 1n;
  const num = BigInt(errorOld) * BigInt(nOld) * xd + xn;
  const den = nNew * xd;
  // a tie of the error: 2 num / den an odd integer
  const tie = (2n * num) % den === 0n && ((2n * num) / den) % 2n === 1n;
  return { error: roundEven(num, den).toString(), debt: roundEven(xn, xd).toString(), tie: tie };
}

test('the note against plain exact arithmetic on states whose quotient A / n is a tie', () => {
  // Values within 10^-40 of 0 or 1 (or past the distances) written with small exponents, so that the plain
  // arithmetic is cheap; states n_old from 1 to 5 and 10^15, error_old 0 to 12: the ones where the substituted
  // d meets a half-integer A / n are the cases the proof is about.
  const values = ['1e-41', '3e-45', '1e-80', '9.99e-41', '-1e-41', '-2e-60', '1e41', '2.5e60', '-1e41',
    '0.' + NINES(41), '0.' + NINES(40) + '1', '0.' + NINES(60) + '5', '0.' + NINES(40), '1e-40', '0.5'];
  let ties = 0;
  let checked = 0;
  for (const nOld of [1, 2, 3, 5, 1e15]) {
    for (let errorOld = 0; errorOld <= 12; errorOld++) {
      for (const text of values) {
        for (const [decision, correct] of [['PAY', true], ['HOLD', false]]) {
          const want = plainStep(text, correct, nOld, errorOld);
          const got = stateOut(decision, text, stateAt(nOld, errorOld));
          assert.equal(got.error, want.error, text + ' ' + decision + ' n ' + nOld + ' error ' + errorOld);
          assert.equal(got.debt, want.debt, text + ' ' + decision);
          checked++;
          // A / n at a tie while the exact quotient is not one (A = error_old n_old + round(10000 x): 10000 x
          // is within d of 0 or 10000 for every value but 0.5, whose 2500 is exact)
          const a = BigInt(errorOld) * BigInt(nOld) + BigInt(want.debt);
          const nNew = BigInt(nOld) + 1n;
          if ((2n * a) % nNew === 0n && ((2n * a) / nNew) % 2n === 1n && !want.tie) ties++;
        }
      }
    }
  }
  assert.equal(checked, 5 * 13 * values.length * 2);
  assert.ok(ties >= 50, 'the states meet ties of A / n: ' + ties);
});
