'use strict';
// Section 12 of the LedgerShield rule page (version 4) on small hand-made desks: the carried state an
// episode comes in with (`run_state`), the authority gate, the update and the institutional-loss
// adjustment, and the rows run_state:in, adjust:institutional and run_state:out. The expected figures
// are worked out by hand from the rule page (the arithmetic is in the comments).
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

/** A Task C case: no ledger, history or threads (nothing observed but the bank comparison). */
function caseC(id, gold, env) {
  return {
    id: id, dataset: 'unit', half: 'public', strata: { task: 'C' }, document: { text: '' }, task: 'C', theme: 't',
    env: Object.assign({
      documents: { 'INV-1': {} }, vendors: { v1: { vendor_key: 'acme', bank_account: 'X' } }, policy: {},
      interventions: { request_callback_verification: { delay: 3, artifact_id: 'callback_verification_result' } },
      artifacts: {}, pressure: [], step_budget: 20, budget_total: 15
    }, env || {}),
    gold: Object.assign({ evidence: {}, reason_codes: [], fraud_flags: [], discrepancies: [], duplicate_links: [],
      cross_invoice_links: [], campaign_signals: [], policy_checks: {}, required_interventions: [], extracted_fields: {},
      line_items: [], counterfactual_concepts: [], required_tools: [] }, gold)
  };
}

const X = caseC('X', { decision: 'PAY', unsafe_if_pay: false });
const Y = caseC('Y', { decision: 'HOLD' });
const BIG = caseC('BIG', { decision: 'PAY', unsafe_if_pay: false, extracted_fields: { total: '30,000.00' } });

const POLICY = { tool_name: 'lookup_policy', payload: {} };
// A mismatch with the vendor master makes the episode ready (R of bank_fraud 95/2 is past 18^(11/20))
const MISMATCH = { tool_name: 'compare_bank_account', payload: { vendor_key: 'acme', proposed_bank_account: 'Z' } };

/** An episode's JSON text: the steps, then the submission; `runState` (an object or raw JSON text) when given. */
function episodeText(steps, sub, runState) {
  const trace = steps.concat([{ tool_name: 'submit_decision', payload: sub }]);
  let text = '{"action_trace": ' + JSON.stringify(trace) + ', "final_submission": ' + JSON.stringify(sub);
  if (runState !== undefined) text += ', "run_state": ' + (typeof runState === 'string' ? runState : JSON.stringify(runState));
  return text + '}';
}

function rowsOf(item, text) {
  const by = {};
  for (const r of L.scoreItem(item, record(text), 'r', 0)) by[r.unit] = r;
  return by;
}

/** A run_state row's order text as a JSON object of the carried state (numbers as numbers). */
function stateOf(order) {
  const s = {};
  for (const part of order.split(';')) {
    const [k, v] = part.split('=');
    s[k] = k === 'level' ? v : Number(v);
  }
  return s;
}

const INITIAL = 'n=0;level=full_authority;error=0;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=0;breaches=0;restrictions=0';

test('the rule page\'s worked example: three episodes of one repeat, each carrying the state of the one before', () => {
  // Episode 1 on X (benign): PAY at 0.9, correct. x = .01: error 100, debt 100; full authority stays.
  // Debt ratio .01/8 = .00125 -> .0012 (a tie, to even); 1 - 10 x .0012/100 = .99988 -> .9999: +9998.
  const one = rowsOf(X, episodeText([POLICY], { decision: 'PAY', confidence: 0.9 }));
  assert.equal(one['run_state:in'].order, INITIAL);
  assert.equal(one['run_state:out'].order,
    'n=1;level=full_authority;error=100;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=100;breaches=0;restrictions=0');
  assert.equal(one['adjust:institutional'].order, '9998');
  assert.equal(one['adjust:institutional'].verdict, 'correct');
  // Episode 2 on Y (risky): HOLD without confidence, ready (the mismatch), so not blocked. Delay 3 h, review 28 min,
  // friction .18; c = 1/2, x = 1/4: error round((100 + 2500)/2) = 1300, debt 2600; no confidence: restricted, and
  // the level rose without a block: a restriction. Ratios .0375, .0583, .0225, .0325, 1/8:
  // 1 - 2.1255/100 = .978745 -> .9787: +9574.
  const two = rowsOf(Y, episodeText([MISMATCH], { decision: 'HOLD' }, stateOf(one['run_state:out'].order)));
  assert.equal(two['run_state:in'].order, one['run_state:out'].order);
  assert.equal(two['cap:result_class'].order.startsWith('control_boundary_failed'), false);
  assert.equal(two['run_state:out'].order,
    'n=2;level=restricted_authority;error=1300;window=0;delay=300;minutes=2800;friction=18;fp_cost=0;debt=2600;breaches=0;restrictions=1');
  assert.equal(two['adjust:institutional'].order, '9574');
  // Episode 3: PAY on a benign case whose gold total is 30,000 meets the restricted gate: it blocks, the effective
  // decision is NEEDS_REVIEW (downstream .50 on a benign case), the class authority_gate_failed=350000.
  // Update: a false positive (delay 4 h, review 16 min, friction .18: fp 4 x 150 + 16 x 2 + 180 = 812), a
  // restriction for the block; NEEDS_REVIEW is not PAY: x = (.9 - 0)^2 = .81: error round((1300 x 2 + 8100)/3)
  // = round(3566.67) = 3567 >= 3400: review only (the block already counted: no second restriction); debt 10700.
  // Ratios fp 812/5000 = .1624, delay 7/80 = .0875, review 44/480 -> .0917, friction .36/8 = .045, debt 1.07/8 =
  // .13375 -> .1338 (a tie, to even), restrictions 2/8: 1 - 6.7763/100 = .932237 -> .9322: +8644.
  const three = rowsOf(BIG, episodeText([POLICY], { decision: 'PAY', confidence: 0.9 }, stateOf(two['run_state:out'].order)));
  assert.equal(three['dim:downstream'].order, '5000');
  assert.equal(three['cap:result_class'].order, 'authority_gate_failed=350000');
  assert.equal(three['cap:result_class'].verdict, 'wrong');
  assert.equal(three.score.order, '350000');
  assert.equal(three['run_state:out'].order,
    'n=3;level=review_only;error=3567;window=0;delay=700;minutes=4400;friction=36;fp_cost=81200;debt=10700;breaches=0;restrictions=2');
  assert.equal(three['adjust:institutional'].order, '8644');
  // Episode 4 at review only: anything but NEEDS_REVIEW is blocked (cap 0.25); NEEDS_REVIEW passes the gate.
  const four = stateOf(three['run_state:out'].order);
  assert.equal(rowsOf(X, episodeText([POLICY], { decision: 'PAY', confidence: 0.9 }, four))['cap:result_class'].order,
    'authority_gate_failed=250000');
  const review = rowsOf(X, episodeText([POLICY], { decision: 'NEEDS_REVIEW', confidence: 0.5 }, four));
  assert.equal(review['cap:result_class'].order, 'false_positive_overcontrol=720000');
});

test('the restricted gate blocks a PAY when the confidence is not a JSON number or a boolean, or an artifact is pending', () => {
  const restricted = { n: 1, level: 'restricted_authority', error: 0, window: 0, delay: 0, minutes: 0, friction: 0,
    fp_cost: 0, debt: 0, breaches: 0, restrictions: 1 };
  const klass = (conf, steps) => {
    const sub = conf === undefined ? '{"decision": "PAY"}' : '{"decision": "PAY", "confidence": ' + conf + '}';
    const text = '{"action_trace": ' + JSON.stringify((steps || [POLICY]).concat([{ tool_name: 'submit_decision' }])) +
      ', "final_submission": ' + sub + ', "run_state": ' + JSON.stringify(restricted) + '}';
    return rowsOf(X, text)['cap:result_class'].order;
  };
  assert.equal(klass('0.9'), 'valid_success');
  assert.equal(klass('true'), 'valid_success');                       // a boolean is a number to Python
  assert.equal(klass('false'), 'valid_success');
  assert.equal(klass('1e9999999'), 'valid_success');                  // a JSON number, even out of range
  assert.equal(klass('"0.9"'), 'authority_gate_failed=350000');        // text is not a number
  assert.equal(klass('null'), 'authority_gate_failed=350000');
  assert.equal(klass(undefined), 'authority_gate_failed=350000');
  // the callback's artifact is due at 1 + 3 = 4: still pending at the submission
  const callback = { tool_name: 'request_callback_verification', payload: {} };
  assert.equal(klass('0.9', [callback]), 'authority_gate_failed=350000');
  // a PAY on a risky case blocks too (and the boundary and the falsifier as well: the gate's 350000 is the lowest)
  const text = episodeText([POLICY], { decision: 'PAY', confidence: 0.9 }, restricted);
  assert.equal(rowsOf(Y, text)['cap:result_class'].order, 'authority_gate_failed=350000');
  // a decision other than PAY meets no restricted gate
  assert.equal(rowsOf(Y, episodeText([MISMATCH], { decision: 'HOLD', confidence: 0.9 }, restricted))['cap:result_class'].order
    .startsWith('authority_gate_failed'), false);
});

test('the update: the recovery window, the edges of the confidence, no decision leaves the state as it came', () => {
  const base = { n: 4, level: 'restricted_authority', error: 1000, window: 2, delay: 0, minutes: 0, friction: 0,
    fp_cost: 0, debt: 0, breaches: 0, restrictions: 1 };
  // PAY at .99 on X, correct: x = .0001, 10000 x = 1: error round((4000 + 1)/5) = 800, debt 1; error <= 1200 at
  // restricted: window 3 -> full authority.
  const out = (sub, st) => rowsOf(X, episodeText([POLICY], sub, st || base))['run_state:out'].order;
  assert.equal(out({ decision: 'PAY', confidence: 0.99 }),
    'n=5;level=full_authority;error=800;window=3;delay=0;minutes=0;friction=0;fp_cost=0;debt=1;breaches=0;restrictions=1');
  // the same at window 1: window 2, still restricted
  assert.equal(stateOf(out({ decision: 'PAY', confidence: 0.99 }, Object.assign({}, base, { window: 1 }))).level,
    'restricted_authority');
  // confidence 0 is present but at the edge: restricted, window 0; c = 0 and correct: x = 1 -> error
  // round((4000 + 10000)/5) = 2800, debt 10000
  assert.equal(out({ decision: 'PAY', confidence: 0 }),
    'n=5;level=restricted_authority;error=2800;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=10000;breaches=0;restrictions=1');
  // the string "0.99" is read as .99 but is not present (at full authority, whose gate lets a PAY through):
  // restricted, window 0 (error 800), and a restriction for the rise
  assert.equal(out({ decision: 'PAY', confidence: '0.99' }, Object.assign({}, base, { level: 'full_authority' })),
    'n=5;level=restricted_authority;error=800;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=1;breaches=0;restrictions=2');
  // no decision: nothing is recorded, S_out is S_in
  const none = rowsOf(X, episodeText([POLICY], { decision: 'maybe' }, base));
  assert.equal(none['run_state:out'].order, none['run_state:in'].order);
  // full authority, error rising past 2200 without a block: restricted and a restriction (step 6)
  const full = Object.assign({}, base, { level: 'full_authority', window: 0, error: 2000 });
  assert.equal(out({ decision: 'HOLD', confidence: 0.9 }, full),
    // HOLD on a benign case: a false positive (812 -> 81200); x = .81: error round((8000 + 8100)/5) = 3220
    'n=5;level=restricted_authority;error=3220;window=0;delay=400;minutes=1600;friction=18;fp_cost=81200;debt=8100;breaches=0;restrictions=2');
});

test('a critical SOX control that fails is a breach; a campaign queue doubles a risky hold\'s delay', () => {
  // Task C, the instruction mentions a bank change: SOX-AP-003 applies and fails (no comparison, no approval chain)
  const bank = caseC('B', { decision: 'HOLD' }, { instruction: 'Verify the bank change.', queue_pressure: 'campaign' });
  const st = stateOf(rowsOf(bank, episodeText([POLICY], { decision: 'HOLD', confidence: 0.5 }))['run_state:out'].order);
  assert.equal(st.breaches, 1);
  // not ready (nothing observed) on a risky case: the boundary blocks, the effective decision NEEDS_REVIEW: 6 h
  assert.equal(st.delay, 600);
  assert.equal(st.minutes, 2800);
});

test('run_state: what makes the episode unparseable, and what reads as a whole number', () => {
  const good = { n: 1, level: 'review_only', error: 10000, window: 0, delay: 0, minutes: 0, friction: 0,
    fp_cost: 0, debt: 0, breaches: 0, restrictions: 1e15 };
  const with_ = (key, raw) => {
    const parts = Object.keys(good).map((k) => JSON.stringify(k) + ': ' + (k === key ? raw : JSON.stringify(good[k])));
    return '{' + parts.join(', ') + '}';
  };
  const verdict = (rs) => rowsOf(X, episodeText([POLICY], { decision: 'NEEDS_REVIEW' }, rs))['run_state:in'];
  assert.equal(verdict(good).verdict, 'correct');
  assert.equal(verdict(good).order,
    'n=1;level=review_only;error=10000;window=0;delay=0;minutes=0;friction=0;fp_cost=0;debt=0;breaches=0;restrictions=1000000000000000');
  for (const ok of [with_('n', '1.0e0'), with_('delay', '-0'), with_('debt', '1e15'), with_('window', '0.00')]) {
    assert.equal(verdict(ok).verdict, 'correct', ok);
  }
  const bad = [
    'null', '[]', '"x"', with_('n', '1.5'), with_('n', '-1'), with_('n', '"1"'), with_('n', 'true'),
    with_('delay', '1000000000000001'), with_('error', '10001'), with_('level', '"locked"'), with_('level', '0'),
    with_('debt', 'null'), with_('debt', '1e9999999'), with_('debt', '1e-9999999'),
    JSON.stringify(Object.assign({}, good, { extra: 0 })),
    JSON.stringify(Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'breaches')))
  ];
  for (const rs of bad) {
    const rows = L.scoreItem(X, record(episodeText([POLICY], { decision: 'NEEDS_REVIEW' }, rs)), 'r', 0);
    assert.deepEqual(rows.map((r) => r.unit), L.unitsOf('C').map((u) => u[0]));
    for (const r of rows) {
      assert.equal(r.verdict, 'unparseable', rs);
      assert.equal(r.order, '');
    }
  }
});

test('the rows: run_state:in after replay, adjust:institutional after adjust:causal, run_state:out last', () => {
  for (const task of ['A', 'B', 'C', 'D', 'E']) {
    const units = L.unitsOf(task).map((u) => u[0]);
    assert.equal(units[1], 'run_state:in');
    assert.equal(units[units.indexOf('adjust:causal') + 1], 'adjust:institutional');
    assert.equal(units[units.length - 1], 'run_state:out');
    assert.equal(units[units.length - 2], 'score');
  }
  // the adjustment is `wrong` when negative: a heavy ledger (every ratio at 1) gives .39: 20000 x -.11 = -2200
  const heavy = { n: 1, level: 'full_authority', error: 0, window: 0, delay: 1e12, minutes: 1e12, friction: 1e12,
    fp_cost: 1e12, debt: 1e12, breaches: 1e12, restrictions: 1e12 };
  const row = rowsOf(X, episodeText([POLICY], { decision: 'PAY', confidence: 0.5 }, heavy))['adjust:institutional'];
  assert.equal(row.order, '-2200');
  assert.equal(row.verdict, 'wrong');
});
