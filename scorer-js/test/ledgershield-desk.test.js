'use strict';
// Unit tests of the LedgerShield script's reading of what the desk observes (rule page, section 2:
// the observations of the decision-readiness test and the risk signals), of decision readiness
// (exact, near both of its boundaries), and of the rules that read them: the control boundary
// (section 4), the falsifier's findings on observed signals and the trust graph (section 5).
// Expected values are worked out by hand from the page; the arithmetic is in the comments.
const test = require('node:test');
const assert = require('node:assert/strict');
const C = require('../core.js');

if (!globalThis.TallyCore) globalThis.TallyCore = C;
require('../../generator/suites/ledgershield/hypotheses.js');   // loaded before the scorer, as the suite lists them
const L = require('../../generator/suites/ledgershield/scorer.js');

function desk(extra) {
  return Object.assign({
    documents: {}, vendors: { v1: { vendor_key: 'Acme', bank_account: 'ACC-1' } }, ledger: [], vendor_history: [],
    policy: {},
    interventions: {
      route_to_security: { delay: 1, artifact_id: 'callback_verification_result' },
      request_bank_change_approval_chain: {}, request_po_reconciliation: {}, flag_duplicate_cluster_review: {},
      request_callback_verification: { delay: 2, artifact_id: 'callback_verification_result' }
    },
    artifacts: { callback_verification_result: { outcome: ' Callback_Suspicious_Confirm ' } }
  }, extra || {});
}

function step(action, payload) {
  const s = { action_type: action };
  if (payload !== undefined) s.payload = payload;
  return s;
}

function observed(env, steps) {
  const st = L.replay(env, steps);
  return { observations: st.observations, signals: Array.from(st.observed).sort(), ready: st.ready };
}

test('the desk observes in step order, a reveal after its step\'s own observation, whatever the payload', () => {
  const env = desk({
    ledger: [{ vendor_key: 'ACME', invoice_number: 'INV-100', amount: '98' }, 'not a row'],
    vendor_history: [{ vendor_key: ' acme ', event_type: 'Bank Change', status: ' Denied ' },
      { vendor_key: 'acme', event_type: '', change_type: 'fraud report' }, { vendor_key: 'other', event_type: 'fraud' }]
  });
  const got = observed(env, [
    step('compare_bank_account', { vendor_key: 'ACME', proposed_bank_account: 'ACC-2' }),   // ok, no account equal: mismatch
    step('compare_bank_account', { vendor_key: 'acme', proposed_bank_account: 'ACC-1' }),   // ok and equal: match
    step('compare_bank_account', { vendor_key: 'acme' }),                                   // bad payload: mismatch, no signal
    step('search_ledger', { vendor_key: 'acme', invoice_number: 'inv 100', amount: 100 }),  // 20 + 55 + 25 (s = 98/100)
    step('lookup_vendor_history', { vendor_key: 'Acme' }),                                  // two rows: both signals
    step('get_artifact', { artifact_id: 'callback_verification_result' }),                  // unknown tool: nothing
    step('route_to_security', {}),                                                          // no answer of its own
    step('lookup_policy', 'not an object')                                                  // bad payload, still reveals
  ]);
  assert.deepEqual(got.observations, [
    ['compare_bank_account', 'mismatch'], ['compare_bank_account', 'match'], ['compare_bank_account', 'mismatch'],
    ['search_ledger', 'duplicate_found'], ['lookup_vendor_history', 'suspicious_history'],
    ['callback_verification_result', 'callback_suspicious_confirm']]);
  assert.deepEqual(got.signals, ['bank_account_mismatch', 'callback_suspicious_confirm',
    'historical_bank_change_rejected', 'historical_fraud_event']);
});

test('an intervention\'s own answer, then its artifact at the reveal; artifact contents by id', () => {
  const env = desk({
    interventions: {
      request_callback_verification: { delay: 1, artifact_id: 'callback_verification_result' },
      flag_duplicate_cluster_review: { artifact_id: 'duplicate_cluster_report' },
      request_bank_change_approval_chain: { artifact_id: 'bank_change_approval_chain' },
      request_po_reconciliation: { artifact_id: 'po_reconciliation_report' },
      request_additional_receipt_evidence: { artifact_id: 'something_else' }
    },
    artifacts: {
      callback_verification_result: { risk_signal: 'Dispute', outcome: 'callback_clean' },
      duplicate_cluster_report: { status: 'CLUSTER_DETECTED' },
      bank_change_approval_chain: { status: 'mismatch found' },      // not the status's text: chain_clean
      po_reconciliation_report: { status: 'reconciled_with_flags' }
    }
  });
  const got = observed(env, [step('request_callback_verification', {}), step('flag_duplicate_cluster_review', {}),
    step('request_bank_change_approval_chain', {}), step('request_po_reconciliation', {}),
    step('request_additional_receipt_evidence', {}), step('lookup_policy', {})]);
  assert.deepEqual(got.observations, [
    ['callback_verification_result', 'callback_clean'],
    ['duplicate_cluster_report', 'no_cluster'], ['callback_verification_result', 'callback_dispute'],
    ['bank_change_approval_chain', 'chain_clean'], ['duplicate_cluster_report', 'cluster_detected'],
    ['po_reconciliation_report', 'po_clean'], ['bank_change_approval_chain', 'chain_clean'],
    ['receipt_reconciliation_report', 'receipt_clean'], ['po_reconciliation_report', 'reconciled_with_flags']]);
  assert.deepEqual(got.signals, ['callback_dispute_confirmed', 'duplicate_near_match']);
});

test('the ledger search: vendor 20 only with a vendor key, invoice 55 or 30, amount bands, found at 45', () => {
  const row = { vendor_key: 'Acme', invoice_number: 'INV-100', amount: 98 };
  function search(payload, rows) {
    return observed(desk({ ledger: rows || [row] }), [step('search_ledger', payload)]);
  }
  // 20 + 55 + 25 = 100: found, not a near match
  assert.deepEqual(search({ vendor_key: 'acme', invoice_number: 'INV-100', amount: 100 }).signals, []);
  // s = 1 - 2.01/100.01 < 98/100 -> 18: 93, still not near
  let got = search({ vendor_key: 'acme', invoice_number: 'INV-100', amount: '100.01' });
  assert.deepEqual([got.observations, got.signals], [[['search_ledger', 'duplicate_found']], []]);
  // invoice contained: 20 + 30 = 50, no amount: found below 80, a near match
  got = search({ vendor_key: 'acme', invoice_number: 'INV-1' });
  assert.deepEqual([got.observations, got.signals], [[['search_ledger', 'duplicate_found']], ['duplicate_near_match']]);
  // no vendor key: 30 + 10 (s = 1 - 18/98, at least 80/100) = 40, not found
  got = search({ invoice_number: 'INV-1', amount: 80 });
  assert.deepEqual([got.observations, got.signals], [[['search_ledger', 'no_duplicate']], []]);
  // another vendor's row is skipped; invoice and amount both 0 is not found even with the vendor's 20
  assert.deepEqual(search({ vendor_key: 'Other', invoice_number: 'INV-100', amount: 98 }).observations, [['search_ledger', 'no_duplicate']]);
  assert.deepEqual(search({ vendor_key: 'acme', invoice_number: 'X-9', amount: 1 }).observations, [['search_ledger', 'no_duplicate']]);
  // a null amount is no amount; any found row below 80 gives the signal, whatever the best
  got = search({ vendor_key: 'acme', invoice_number: 'INV-100', amount: null },
    [row, { vendor_key: 'acme', invoice_number: 'INV-1000', amount: 98 }]);
  assert.deepEqual(got.signals, ['duplicate_near_match']);   // 75 and 50
  // a desk whose ledger is not an array observes nothing
  assert.deepEqual(observed(desk({ ledger: { a: row } }), [step('search_ledger', { vendor_key: 'acme' })]).observations, []);
});

test('decision readiness, exact near both boundaries', () => {
  const env = desk();
  assert.equal(observed(env, []).ready, false);   // no observation: posterior 1/12, every R 1
  // no_duplicate, clean_history twice, chain_clean: posterior of safe 0.5502... >= 0.55: ready
  const clean = [step('search_ledger', {}), step('lookup_vendor_history', { vendor_key: 'acme' }),
    step('lookup_vendor_history', { vendor_key: 'acme' }), step('request_bank_change_approval_chain', {})];
  assert.equal(observed(env, clean).ready, true);
  // one clean history replaced by no_cluster: 0.5436...: not ready (every R_h stays below 1)
  const swapped = clean.slice(0, 2).concat([step('flag_duplicate_cluster_review', {}), clean[3]]);
  assert.deepEqual(observed(env, swapped).observations.map((o) => o[1]), ['no_duplicate', 'clean_history', 'no_cluster', 'chain_clean']);
  assert.equal(observed(env, swapped).ready, false);
  // no_duplicate, chain_clean, the revealed callback's suspicious confirm: R of insider_collusion
  // = 80/97 x 38/99 x 62/4 = 4.9068... >= 18^(11/20) = 4.9022...: ready (posterior 0.057)
  const near = [step('search_ledger', {}), step('route_to_security', {}), step('request_bank_change_approval_chain', {})];
  let got = observed(env, near);
  assert.deepEqual(got.observations.map((o) => o[1]), ['no_duplicate', 'chain_clean', 'callback_suspicious_confirm']);
  assert.equal(got.ready, true);
  // chain_clean, suspicious confirm, po_clean: the largest R (ceo_bec) 60/99 x 34/4 x 90/96 = 4.8295...: not ready
  got = observed(env, [step('route_to_security', {}), step('request_bank_change_approval_chain', {}), step('request_po_reconciliation', {})]);
  assert.deepEqual(got.observations.map((o) => o[1]), ['chain_clean', 'callback_suspicious_confirm', 'po_clean']);
  assert.equal(got.ready, false);
});

function item(gold, env) {
  return { id: 'X', task: 'D', env: desk(env), gold: Object.assign({
    decision: 'PAY', evidence: {}, policy_checks: {}, reason_codes: [], required_interventions: [] }, gold || {}) };
}

function klass(it, steps, sub) {
  const r = L.grade(it, { action_trace: steps.concat([step('submit_decision', sub)]), final_submission: sub }).result;
  return r.cap === null ? r.klass : r.klass + '=' + r.cap;
}

const EVIDENCE = { evidence_map: { x: { doc_id: 'D' } }, policy_checks: { p: 'pass' } };

test('the control boundary: before readiness, and a PAY while a follow-up is due', () => {
  const benign = item();
  // suspicious history (a fraud event) and two clean lookups of another key: largest R 1.83, not ready,
  // a signal observed: blocked whatever the decision
  const env = { vendor_history: [{ vendor_key: 'acme', change_type: 'fraud' }] };
  const unready = [step('lookup_vendor_history', { vendor_key: 'acme' }), step('lookup_vendor_history', { vendor_key: 'b' }),
    step('lookup_vendor_history', { vendor_key: 'b' })];
  const it = item({}, env);
  assert.equal(observed(it.env, unready).ready, false);
  for (const decision of ['PAY', 'HOLD', 'ESCALATE_FRAUD']) {
    assert.match(klass(it, unready, Object.assign({ decision }, EVIDENCE)), /^control_boundary_failed=/);
  }
  // not ready, benign, nothing observed, nothing due: not blocked
  assert.equal(klass(benign, [step('lookup_policy', {})], Object.assign({ decision: 'PAY', notes: 'n' }, EVIDENCE)), 'valid_success');
  // a bank mismatch makes the episode ready (R of bank_fraud 95/2) but calls for a callback: a PAY is
  // blocked, an escalation is not (a benign case's over-control)
  const mismatch = [step('compare_bank_account', { vendor_key: 'acme', proposed_bank_account: 'ACC-9' })];
  assert.equal(klass(benign, mismatch, Object.assign({ decision: 'PAY' }, EVIDENCE)), 'control_boundary_failed=420000');
  assert.equal(klass(benign, mismatch, Object.assign({ decision: 'ESCALATE_FRAUD', reason_codes: ['x'] }, EVIDENCE)),
    'false_positive_overcontrol=720000');
  // the callback done (its artifact due at 3 + 2 = 5, revealed by the lookups): the follow-up is answered
  const answered = mismatch.concat([step('request_callback_verification', {}), step('lookup_policy', {}), step('lookup_policy', {})]);
  assert.notEqual(klass(benign, answered, Object.assign({ decision: 'PAY', notes: 'n' }, EVIDENCE)).indexOf('control_boundary'), 0);
});

test('the falsifier reads observed signals: a skipped security route, an unsupported escalation', () => {
  const env = { interventions: { request_bank_change_approval_chain: { artifact_id: 'bank_change_approval_chain' } },
    artifacts: { bank_change_approval_chain: { status: 'mismatch_found' } } };
  const benign = item({}, env);
  // chain_clean then mismatch_found: policy_bypass_attempt; the route tried with a bad payload is in T
  // (no finding) but not in tools_ok (the follow-up is still due: blocked at 0.42)
  const tried = [step('request_bank_change_approval_chain', {}), step('route_to_security', 'bad'), step('lookup_policy', {})];
  const g = L.grade(benign, { action_trace: tried, final_submission: Object.assign({ decision: 'PAY' }, EVIDENCE) });
  assert.deepEqual(g.result.falsifier.findings, []);
  assert.equal(g.result.klass, 'control_boundary_failed');
  const skipped = [step('request_bank_change_approval_chain', {}), step('lookup_policy', {})];
  const h = L.grade(benign, { action_trace: skipped, final_submission: Object.assign({ decision: 'PAY' }, EVIDENCE) });
  assert.deepEqual(h.result.falsifier.findings.map((f) => f[0]), ['high']);
  // an escalation of a benign case with nothing observed and no reason codes: unsupported (0.54);
  // one reason code, even an empty string, supports it
  const plain = item();
  assert.equal(klass(plain, [step('lookup_policy', {})], Object.assign({ decision: 'ESCALATE_FRAUD' }, EVIDENCE)),
    'falsifier_blocked=540000');
  assert.equal(klass(plain, [step('lookup_policy', {})], Object.assign({ decision: 'ESCALATE_FRAUD', reason_codes: [''] }, EVIDENCE)),
    'false_positive_overcontrol=720000');
});

test('the trust graph: no risk flag, pending ignored, no counterfactual, and its caps', () => {
  // a risky case made ready by a duplicate found at 100 (no signal): R of duplicate_billing 92/3
  const risky = item({ decision: 'ESCALATE_FRAUD' }, { ledger: [{ vendor_key: 'acme', invoice_number: 'I-1', amount: 5 }] });
  const ready = [step('search_ledger', { vendor_key: 'acme', invoice_number: 'I-1', amount: 5 })];
  const base = Object.assign({ decision: 'ESCALATE_FRAUD', reason_codes: ['bank_override_attempt'], counterfactual: 'If so.' }, EVIDENCE);
  function trust(extra) {
    const sub = Object.assign({}, base, extra);
    Object.keys(sub).forEach((k) => { if (sub[k] === undefined) delete sub[k]; });
    return klass(risky, ready, sub);
  }
  assert.equal(trust({}), 'valid_success');   // Q empty: completed; grounded; no finding
  // whitespace-only entries flag nothing; a null or 0 entry, or U+00A0 (not whitespace), flags
  assert.equal(trust({ notes: 'n', reason_codes: [' ', '\u000b'], fraud_flags: 'x' }), 'correct_but_policy_incomplete=720000');
  assert.equal(trust({ notes: 'n', reason_codes: [' '], fraud_flags: [null] }), 'valid_success');
  assert.equal(trust({ notes: 'n', reason_codes: undefined, fraud_flags: [0] }), 'valid_success');
  assert.equal(trust({ notes: 'n', reason_codes: ['\u00a0'] }), 'valid_success');
  // no counterfactual: absent, null, false, 0, [], {}, whitespace only -> 0.64 with the other finding absent
  for (const cf of [undefined, null, false, 0, [], {}, ' \t\r\n']) {
    assert.equal(trust({ notes: 'n', counterfactual: cf }), 'correct_but_policy_incomplete=640000', JSON.stringify(cf));
  }
  assert.equal(trust({ notes: 'n', counterfactual: '0' }), 'valid_success');
  // the trust graph's cap applies to every class: a wrong decision (no cap of its own) is capped too
  assert.equal(trust({ decision: 'HOLD', counterfactual: null }), 'incorrect_resolution=640000');
  assert.equal(trust({ decision: 'HOLD' }), 'incorrect_resolution');
  // pending ignored on a benign PAY: the boundary blocks too (0.42 is lower than 0.84)
  const benign = item();
  assert.equal(klass(benign, [step('request_callback_verification', {})], Object.assign({ decision: 'PAY' }, EVIDENCE)),
    'control_boundary_failed=420000');
  const g = L.grade(benign, { action_trace: [step('request_callback_verification', {})], final_submission: Object.assign({ decision: 'PAY' }, EVIDENCE) });
  assert.deepEqual(g.result.trust.findings, ['pending ignored']);
});

test('the handoff: an empty payload {} is no handoff (resolution as without one), a field makes one', () => {
  const it = item({}, { interventions: {} });
  const res = (payload) => {
    const sub = Object.assign({ decision: 'PAY' }, EVIDENCE);
    const g = L.grade(it, { action_trace: [step('create_human_handoff', payload)], final_submission: sub });
    return g.dimensions.find((d) => d.id === 'resolution').bp;
  };
  assert.equal(res({}), res('refused'));          // a refused step (bad payload) leaves no handoff at all
  assert.ok(res({ other: 1 }) > res({}));          // a handoff: (1 + 0) / 3
  assert.ok(res({ summary: 'call the vendor' }) > res({ other: 1 }));
});

test('the email thread: an observation only on a desk whose threads carry LedgerShield\'s readings', () => {
  const read = { threads: { T1: { observation: 'domain_spoof_detected' }, T2: { thread_id: 'T2' } } };
  const obs = (env, payload) => observed(desk(env), [step('inspect_email_thread', payload)]).observations;
  assert.deepEqual(obs(read, { thread_id: 'T1' }), [['inspect_email_thread', 'domain_spoof_detected']]);
  assert.deepEqual(obs(read, { thread_id: 'T2' }), [['inspect_email_thread', 'domain_clean']]);    // no reading
  assert.deepEqual(obs(read, { thread_id: 'T9' }), [['inspect_email_thread', 'domain_clean']]);    // not found
  assert.deepEqual(obs(read, { thread_id: 7 }), [['inspect_email_thread', 'domain_clean']]);       // bad payload
  assert.deepEqual(obs({ threads: { T1: { observation: 'spoof' } } }, { thread_id: 'T1' }), [['inspect_email_thread', 'domain_clean']]);
  assert.deepEqual(obs({ threads: { T1: {} } }, { thread_id: 'T1' }), []);                          // a desk without readings
  // a spoofed sender alone: R of ceo_bec 94/1 -> ready
  assert.equal(observed(desk(read), [step('inspect_email_thread', { thread_id: 'T1' })]).ready, true);
});

test('causal consistency: d-separation in the moral graph of the ancestors, the scenario', () => {
  const H = require('../../generator/suites/ledgershield/hypotheses.js');
  const O = (...xs) => new Set(xs);
  // vendor_legitimacy reaches the decision through sender_authenticity, bank_alignment and callback_result, and
  // through latent_hypothesis (its parent, a parent of duplicate_pattern and the others)
  assert.equal(H.dSeparated('vendor_legitimacy', O()), false);
  assert.equal(H.dSeparated('vendor_legitimacy', O('sender_authenticity', 'bank_alignment', 'callback_result')), false);
  assert.equal(H.dSeparated('vendor_legitimacy', O('sender_authenticity', 'bank_alignment', 'callback_result', 'latent_hypothesis')), true);
  assert.equal(H.dSeparated('document_integrity', O('document_integrity')), true);   // observed: separated
  // observing payment_outcome (a child of the decision and of latent_hypothesis) joins them in the moral graph
  assert.equal(H.dSeparated('portfolio_linkage', O('portfolio_linkage', 'payment_outcome')), true);
  assert.equal(H.scenario('workflow_override_attack', 'safe'), 'workflow_override_attack');
  assert.equal(H.scenario('Workflow_Override_Attack', 'ceo_bec'), 'urgency_spoof_attack');
  // safe_baseline with the bank comparison only: intervention 1/3, vendor_legitimacy not separated
  const parts = H.causalGraphParts('safe_baseline', O('compare_bank_account'));
  assert.deepEqual([parts.intervention.n, parts.intervention.d, parts.dseparation.n], [1n, 3n, 0n]);
});
