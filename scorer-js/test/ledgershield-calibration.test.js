'use strict';
// Unit tests of the LedgerShield scripts' proper score (rule page, section 4, `calibration`) and
// resolution's numeric readiness (`resolution`): log10 in integers, the posterior as the grader
// gets it, the distribution, the truth, and the dimension worked out by hand (arithmetic in the
// comments; a float only where the comment says so, far from any rounding boundary).
const test = require('node:test');
const assert = require('node:assert/strict');
const C = require('../core.js');

if (!globalThis.TallyCore) globalThis.TallyCore = C;
const H = require('../../generator/suites/ledgershield/hypotheses.js');
const L = require('../../generator/suites/ledgershield/scorer.js');

function f(n, d) { return { n: BigInt(n), d: BigInt(d) }; }
function same(a, b) { return a.n * b.d === b.n * a.d; }
function bp(v) { return L.basisPoints(v).toString(); }

test('log10 truncated to 12 decimals, in integers', () => {
  const cases = [[f(1, 1), f(0, 1)], [f(2, 1), f(301029995663n, 10n ** 12n)],   // 0.30102999566398...
    [f(10, 1), f(1, 1)], [f(1000000000, 1), f(9, 1)], [f(18, 1), f(1255272505103n, 10n ** 12n)],   // 1.25527250510330...
    [f(100, 99), f(4364805402n, 10n ** 12n)], [f(10, 9), f(45757490560n, 10n ** 12n)]];            // 0.00436480540245, 0.04575749056067
  for (const [x, want] of cases) assert.ok(same(H.log10Truncated(x), want), x.n + '/' + x.d);
  // beyond 10^40 (forty bank mismatches: R of bank_fraud 47.5^40): log10(3 x 10^50) = 50.47712125471966...
  assert.ok(same(H.log10Truncated(f(3n * 10n ** 50n, 1n)), f(50477121254719n, 10n ** 12n)));
  assert.ok(same(H.log10Truncated(f(10n ** 60n, 7n)), f(59154901959985n, 10n ** 12n)));   // 60 - 0.84509804001425...
  const forty = Array.from({ length: 40 }, () => ['compare_bank_account', 'mismatch']);
  assert.ok(same(H.numericReadiness(forty), f(1, 1)));
});

test('the posterior as the grader gets it: rounded to four decimals, renormalized, at least 10^-9', () => {
  // no observation: 1/12 each -> 0.0833 each, sum 0.9996, each 0.0833 / 0.9996 = 1/12
  for (const p of H.posterior([])) assert.ok(same(p, f(1, 12)));
  // a bank mismatch: pi_safe = 2 / (2 + 616) = 0.00323... -> 0.0032; pi_bank_fraud = 95/618 = 0.15372... -> 0.1537
  const p = H.posterior([['compare_bank_account', 'mismatch']]);
  const sum = [2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16].reduce((a, b) => a + b, 0);
  assert.equal(sum, 618);
  const rounded = [2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16].map((x) => Math.round(x / sum * 10000));
  const total = rounded.reduce((a, b) => a + b, 0);   // no value lies near a tie here (checked below)
  [2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16].forEach((x) => assert.ok(Math.abs(x / sum * 10000 % 1 - 0.5) > 0.01));
  p.forEach((x, h) => assert.ok(same(x, f(rounded[h], total)), String(h)));
});

test('resolution\'s numeric readiness: 1 - the nearest boundary, each distance rounded to four decimals', () => {
  // nothing observed: safe's distance 11/12 = 0.91666 -> 0.9167; every R_h = 1: distance 1 -> readiness 0.0833
  assert.ok(same(H.numericReadiness([]), f(833, 10000)));
  // callback_clean alone: every R_h below 1; pi_safe = 94/567 = 0.16578...: distance 0.8342, readiness 0.1658
  assert.ok(same(H.numericReadiness([['callback_verification_result', 'callback_clean']]), f(1658, 10000)));
  // suspicious history: R of phantom_vendor 82/10; 1 - log10(8.2)/log10(18) = 1 - 0.91381/1.25527 = 0.27202 -> 0.2720,
  // nearer than bank_fraud's 7.4 (0.3075) and safe's 1 - 10/589 (0.9830): readiness 0.7280
  assert.ok(same(H.numericReadiness([['lookup_vendor_history', 'suspicious_history']]), f(7280, 10000)));
  // a bank mismatch: R of bank_fraud 47.5 > 18: distance max(0, 1 - 1.6767/1.2553) = 0: readiness 1
  assert.ok(same(H.numericReadiness([['compare_bank_account', 'mismatch']]), f(1, 1)));
});

test('the truth: the gold\'s hypothesis, else the first rule that holds on the codes', () => {
  const t = (codes, hyp) => H.truth(hyp, new Set(codes));
  assert.equal(t(['bank_override_attempt'], 'ceo_bec'), 'ceo_bec');
  assert.equal(t(['bank_override_attempt'], 'Ceo_Bec'), 'bank_fraud');   // not one of the twelve as written
  assert.equal(t(['shared_bank_account', 'coordinated_timing', 'vendor_account_takeover_suspected']), 'multi_entity_layering');
  assert.equal(t(['coordinated_timing', 'vendor_account_takeover_suspected']), 'campaign_fraud');
  assert.equal(t(['vendor_account_takeover_suspected', 'bank_override_attempt', 'sender_domain_spoof']), 'supply_chain_compromise');
  assert.equal(t(['policy_bypass_attempt', 'approval_threshold_evasion', 'duplicate_near_match']), 'insider_collusion');
  assert.equal(t(['urgent_payment_pressure', 'vendor_account_takeover_suspected']), 'ceo_bec');
  assert.equal(t(['vendor_account_takeover_suspected', 'duplicate_near_match']), 'vendor_takeover');
  assert.equal(t(['duplicate_near_match', 'approval_threshold_evasion']), 'split_payment');
  assert.equal(t(['approval_threshold_evasion', 'bank_override_attempt']), 'threshold_evasion');
  assert.equal(t(['duplicate_near_match', 'bank_override_attempt']), 'duplicate_billing');
  assert.equal(t(['bank_override_attempt']), 'bank_fraud');
  assert.equal(t(['vendor_name_spoof']), 'safe');
});

function item(gold) {
  return { id: 'X', task: 'A', env: { documents: {} }, gold: Object.assign({ decision: 'PAY', evidence: {} }, gold || {}) };
}

function calibration(sub, gold) {
  const g = L.grade(item(gold), { action_trace: [{ action_type: 'zoom', payload: { doc_id: 'D' } }], final_submission: sub });
  return g.dimensions.find((d) => d.id === 'calibration').bp.toString();
}

test('the calibration dimension worked by hand', () => {
  // PAY at 0.9, nothing observed, truth safe: p_safe 0.9, each risky 0.1 x (1/12) / (11/12) = 1/110;
  // B = 1 - 0.01 - 11/110^2 = 0.989090..., Lambda = 1 + 0.045757490560/9 = 1.0050841656...,
  // Q = B: 0.7 x 0.989090909 + 0.3 x 1.005084166 = 0.9938888... -> 9939
  assert.equal(calibration({ decision: 'PAY', confidence: 0.9 }), '9939');
  // at 0.99: B = 1 - 0.0001 - 0.0001/11, Lambda = 1 + 0.004364805402/9: 0.6999236 + 0.3001455 = 1.0000691 -> 10001
  // (the logarithmic part lies between 1 and 2, so the score can pass 1)
  assert.equal(calibration({ decision: 'PAY', confidence: '0.99' }), '10001');
  // HOLD at 0.9 against the truth safe: p_safe 0.1, each risky 0.9/11; B = 1 - 0.81 - 11 x (0.9/11)^2 = 0.116363...,
  // Lambda = 1 + 1/9, Q = B - 0.3 x max(0, 0.9/11 - 0.1) = B: 0.7 x 0.1163636 + 0.3 x 1.1111111 = 0.4147879 -> 4148
  assert.equal(calibration({ decision: 'HOLD', confidence: 0.9 }), '4148');
  // predicted probabilities, half on ceo_bec (the gold's hypothesis): p 0.5, 0.5 and 10^-9 for the ten others;
  // B = 0.5 - 10^-17, Lambda = 1 + 0.301029995663/9, Q = B: 0.35 + 0.3100343332 = 0.6600343 -> 6600
  assert.equal(calibration({ decision: 'PAY', predicted_probabilities: { safe: 0.5, ceo_bec: '0.5', other: 'x' } },
    { hypothesis: 'ceo_bec' }), '6600');
  // every predicted value 0 (or absent): 1/12 each; truth safe: B = 1 - 121/144 - 11/144 = 1/12,
  // Lambda = 1 + 1.079181246047/9: 0.7/12 + 0.3 x 1.1199090273 = 0.3943060 -> 3943
  assert.equal(calibration({ decision: 'PAY', predicted_probabilities: { safe: 0, bank_fraud: null } }), '3943');
  // a confidence above 1 is 1 (the clamp comes before the bound); p_safe 1: B = 1 - 11 x 10^-18, Lambda 1 -> 10000
  assert.equal(calibration({ decision: 'PAY', confidence: 7.12345 }), '10000');
  assert.equal(calibration({ decision: 'PAY', confidence: 1e10 }), '10000');
  // unreadable or beyond four decimals: 0; a predicted value beyond the bound: 0, even below 0
  assert.equal(calibration({ decision: 'PAY', confidence: 'abc' }), '0');
  assert.equal(calibration({ decision: 'PAY', confidence: 0.12345 }), '0');
  assert.equal(calibration({ decision: 'PAY', predicted_probabilities: { safe: -0.00001 } }), '0');
  assert.equal(calibration({ decision: 'PAY', predicted_probabilities: { safe: 1000000001 } }), '0');
  assert.equal(calibration({ decision: 'PAY', predicted_probabilities: { safe: [1] } }), '0');
  assert.equal(bp(f(1, 1)), '10000');
});
