/*
 * Tally scorer B, LedgerShield suite: the twelve hypotheses (rule page
 * content/pages/scoring-ledgershield.md, section 2, decision readiness).
 *
 * LedgerShield's sequential test over twelve hypotheses, in exact arithmetic: the likelihood of
 * each observation the desk makes, the ratios R_h, readiness, and the calibration dimension's
 * proper score over the hypotheses (section 4: the posterior as the grader gets it, the
 * distribution, the truth, log10 in integers), resolution's numeric readiness and the causal
 * consistency's graph (section 5: scenarios, confounders, evidence nodes, d-separation). A classic script with no
 * dependency, loaded before the suite's scorer.js (which reads it from the global
 * TallyLedgerShieldParts.hypotheses); under Node it is also a CommonJS module exporting its api.
 */
(function (root, factory) {
  'use strict';
  var api = factory();
  var parts = root.TallyLedgerShieldParts || (root.TallyLedgerShieldParts = {});
  parts.hypotheses = api;
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  /** The hypotheses, in the page's order: `safe` first, then the eleven risky ones. */
  var HYPOTHESES = ['safe', 'bank_fraud', 'duplicate_billing', 'vendor_takeover', 'ceo_bec', 'phantom_vendor',
    'supply_chain_compromise', 'insider_collusion', 'multi_entity_layering', 'campaign_fraud', 'split_payment',
    'threshold_evasion'];

  /** Likelihoods (hundredths) of each observation "channel key", hypotheses in the order above. */
  var LIKELIHOOD = {
    'compare_bank_account mismatch': [2, 95, 5, 88, 72, 60, 84, 46, 68, 64, 18, 16],
    'compare_bank_account match': [98, 5, 95, 12, 28, 40, 16, 54, 32, 36, 82, 84],
    'search_ledger duplicate_found': [3, 10, 92, 14, 8, 6, 16, 20, 72, 80, 88, 74],
    'search_ledger no_duplicate': [97, 90, 8, 86, 92, 94, 84, 80, 28, 20, 12, 26],
    'inspect_email_thread domain_spoof_detected': [1, 78, 5, 92, 94, 62, 87, 55, 50, 67, 18, 24],
    'inspect_email_thread domain_clean': [99, 22, 95, 8, 6, 38, 13, 45, 50, 33, 82, 76],
    'lookup_vendor_history suspicious_history': [10, 74, 18, 70, 30, 82, 78, 60, 52, 48, 35, 32],
    'lookup_vendor_history clean_history': [90, 26, 82, 30, 70, 18, 22, 40, 48, 52, 65, 68],
    'callback_verification_result callback_dispute': [1, 88, 4, 85, 36, 66, 82, 40, 46, 40, 10, 8],
    'callback_verification_result callback_clean': [94, 5, 90, 8, 32, 24, 15, 55, 40, 44, 78, 82],
    'callback_verification_result callback_suspicious_confirm': [4, 8, 6, 20, 34, 12, 28, 62, 36, 28, 10, 12],
    'duplicate_cluster_report cluster_detected': [2, 6, 95, 10, 4, 6, 12, 18, 76, 82, 90, 78],
    'duplicate_cluster_report no_cluster': [98, 94, 5, 90, 96, 94, 88, 82, 24, 18, 10, 22],
    'bank_change_approval_chain mismatch_found': [1, 92, 5, 78, 40, 55, 84, 62, 48, 44, 8, 6],
    'bank_change_approval_chain chain_clean': [99, 8, 95, 22, 60, 45, 16, 38, 52, 56, 92, 94],
    'po_reconciliation_report reconciled_with_flags': [4, 8, 70, 12, 10, 74, 34, 58, 22, 24, 42, 46],
    'po_reconciliation_report po_clean': [96, 92, 30, 88, 90, 26, 66, 42, 78, 76, 58, 54],
    'receipt_reconciliation_report reconciled_with_flags': [6, 10, 62, 14, 10, 70, 30, 50, 20, 20, 38, 40],
    'receipt_reconciliation_report receipt_clean': [94, 90, 38, 86, 90, 30, 70, 50, 80, 80, 62, 60]
  };

  /**
   * The ratios of the observations ([channel, key] pairs): {n, d}, R_h = n[h - 1] / d for each
   * risky hypothesis h (in order), every ratio sharing d, the product of L(safe).
   */
  function ratios(observations) {
    var d = 1n;
    var n = HYPOTHESES.slice(1).map(function () { return 1n; });
    observations.forEach(function (o) {
      var l = LIKELIHOOD[o[0] + ' ' + o[1]];
      if (l === undefined) throw new Error('no likelihood for the observation ' + o[0] + ' ' + o[1]);
      d *= BigInt(l[0]);
      for (var h = 1; h < HYPOTHESES.length; h++) n[h - 1] *= BigInt(l[h]);
    });
    return { n: n, d: d };
  }

  /**
   * Ready when the posterior of `safe`, 1 / (1 + sum of R_h), is at least 55/100, or some R_h
   * has R_h^20 >= 18^11.
   */
  function isReady(observations) {
    var r = ratios(observations);
    var sum = r.n.reduce(function (s, x) { return s + x; }, 0n);
    // 1 / (1 + sum/d) >= 55/100  <=>  100 d >= 55 (d + sum)  <=>  45 d >= 55 sum
    if (45n * r.d >= 55n * sum) return true;
    var bound = (18n ** 11n) * (r.d ** 20n);
    return r.n.some(function (x) { return x ** 20n >= bound; });
  }

  // ---------------------------------------------------------------------------------------
  // Section 4, calibration: LedgerShield's proper score over the twelve hypotheses, exact
  // ---------------------------------------------------------------------------------------

  function frac(n, d) { return { n: BigInt(n), d: BigInt(d) }; }
  var ZERO = frac(0, 1);
  var ONE = frac(1, 1);
  var FLOOR = frac(1, 1000000000);   // 10^-9
  function gcd(a, b) {
    if (a < 0n) a = -a;
    while (b !== 0n) { var t = a % b; a = b; b = t; }
    return a;
  }
  function reduce(a) {
    var g = gcd(a.n, a.d);
    return g > 1n ? { n: a.n / g, d: a.d / g } : a;
  }
  function add(a, b) { return reduce({ n: a.n * b.d + b.n * a.d, d: a.d * b.d }); }
  function sub(a, b) { return reduce({ n: a.n * b.d - b.n * a.d, d: a.d * b.d }); }
  function mul(a, b) { return reduce({ n: a.n * b.n, d: a.d * b.d }); }
  function div(a, b) { return reduce(b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n } : { n: a.n * b.d, d: a.d * b.n }); }
  function cmp(a, b) {
    var x = a.n * b.d;
    var y = b.n * a.d;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function max(a, b) { return cmp(a, b) >= 0 ? a : b; }

  /** n / d (d > 0, n >= 0) rounded to four decimals, a tie to even: a fraction over 10000. */
  function roundFour(a) {
    var num = a.n * 10000n;
    var q = num / a.d;
    var r = num - q * a.d;
    if (2n * r > a.d || (2n * r === a.d && q % 2n === 1n)) q += 1n;
    return reduce({ n: q, d: 10000n });
  }

  /**
   * The posterior of the test as LedgerShield hands it to its grader: pi_safe = 1 / (1 + sum R),
   * pi_h = R_h / (1 + sum R), each rounded to four decimals (a tie to even), each then divided by
   * the sum of the twelve rounded values and raised to at least 10^-9. Fractions, in order.
   */
  function posterior(observations) {
    var r = ratios(observations);
    var total = r.n.reduce(function (s, x) { return s + x; }, r.d);   // d (1 + sum R)
    var rounded = [r.d].concat(r.n).map(function (x) { return roundFour({ n: x, d: total }); });
    var sum = rounded.reduce(add, ZERO);
    return rounded.map(function (x) { return max(FLOOR, div(x, sum)); });
  }

  /**
   * The distribution p over the hypotheses: from v (twelve non-negative fractions) when given,
   * else spread by the posterior: on PAY v_safe = c, v_h = (1 - c) pi_h / S, otherwise
   * v_safe = 1 - c, v_h = c pi_h / S, S the sum of the risky pi_h. T = sum v: T <= 0 -> 1/12 each;
   * else p_h = max(10^-9, v_h / T).
   */
  function distribution(v, c, pay, observations) {
    if (v === null) {
      var pi = posterior(observations);
      var s = pi.slice(1).reduce(add, ZERO);
      var risky = pay ? sub(ONE, c) : c;
      v = [pay ? c : sub(ONE, c)].concat(pi.slice(1).map(function (x) { return div(mul(risky, x), s); }));
    }
    var t = v.reduce(add, ZERO);
    if (cmp(t, ZERO) <= 0) return v.map(function () { return frac(1, 12); });
    return v.map(function (x) { return max(FLOOR, div(x, t)); });
  }

  /** The truth: the gold's hypothesis when it is one of the twelve, else the rules on the code set G. */
  function truth(hypothesis, codes) {
    if (typeof hypothesis === 'string' && HYPOTHESES.indexOf(hypothesis) >= 0) return hypothesis;
    function has(c) { return codes.has(c); }
    if (has('shared_bank_account') && has('coordinated_timing') && has('vendor_account_takeover_suspected')) {
      return 'multi_entity_layering';
    }
    if (has('shared_bank_account') || has('coordinated_timing')) return 'campaign_fraud';
    if (has('vendor_account_takeover_suspected') && has('bank_override_attempt')) return 'supply_chain_compromise';
    if (has('policy_bypass_attempt') && has('approval_threshold_evasion')) return 'insider_collusion';
    if (has('urgent_payment_pressure') || has('sender_domain_spoof')) return 'ceo_bec';
    if (has('sender_domain_spoof') || has('vendor_account_takeover_suspected')) return 'vendor_takeover';
    if (has('duplicate_near_match') && has('approval_threshold_evasion')) return 'split_payment';
    if (has('approval_threshold_evasion')) return 'threshold_evasion';
    if (has('duplicate_near_match')) return 'duplicate_billing';
    if (has('bank_override_attempt')) return 'bank_fraud';
    return 'safe';
  }

  function digits(n) { return n.toString().length; }

  /**
   * D = log10(x) truncated to 12 decimals, for a fraction x >= 1, in integers: k with
   * 10^k <= x < 10^(k+1), Y = floor(x 10^(40 - k)), then 12 times Y := floor(Y^10 / 10^360),
   * the next decimal d = digits(Y) - 41, Y := floor(Y / 10^d). A fraction over 10^12.
   */
  function log10Truncated(x) {
    // 10^(len(n) - 1) <= n < 10^len(n), the same for d: k is len(n) - len(d) or one less
    var k = BigInt(digits(x.n) - digits(x.d));
    if (x.n < x.d * 10n ** k) k -= 1n;
    var y = k <= 40n ? x.n * 10n ** (40n - k) / x.d : x.n / (x.d * 10n ** (k - 40n));
    var out = k;
    for (var i = 0; i < 12; i++) {
      y = y ** 10n / 10n ** 360n;
      var d = BigInt(digits(y) - 41);
      y = y / 10n ** d;
      out = out * 10n + d;
    }
    return reduce({ n: out, d: 10n ** 12n });
  }

  /**
   * The proper score of the distribution p (fractions, in order) against the truth t:
   * 4/10 B + 3/10 Lambda + 3/10 Q (Lambda = 1 + D / 9 lies between 1 and 2, so the score can pass 1).
   */
  function properScore(p, t) {
    var ti = HYPOTHESES.indexOf(t);
    var squares = ZERO;
    var other = null;
    p.forEach(function (x, h) {
      var e = h === ti ? sub(x, ONE) : x;
      squares = add(squares, mul(e, e));
      if (h !== ti) other = other === null ? x : max(other, x);
    });
    var brier = max(ZERO, sub(ONE, squares));
    var pt = p[ti];
    var lambda = add(ONE, div(log10Truncated(div(ONE, max(pt, FLOOR))), frac(9, 1)));
    var penalized = max(ZERO, sub(brier, mul(frac(3, 10), max(ZERO, sub(other, pt)))));
    return add(add(mul(frac(4, 10), brier), mul(frac(3, 10), lambda)), mul(frac(3, 10), penalized));
  }

  /** log10(18) truncated to 12 decimals. */
  var LOG18 = null;

  /**
   * Section 4, resolution: the numeric readiness, 1 - the smallest of the distances, each rounded
   * to four decimals (a tie to even): safe's, 1 - pi_safe, and each risky hypothesis's with
   * R_h >= 1, max(0, 1 - log10(R_h) / log10(18)), the logarithms truncated to 12 decimals.
   */
  function numericReadiness(observations) {
    if (LOG18 === null) LOG18 = log10Truncated(frac(18, 1));
    var r = ratios(observations);
    var total = r.n.reduce(function (s, x) { return s + x; }, r.d);
    var nearest = roundFour({ n: total - r.d, d: total });   // 1 - pi_safe
    r.n.forEach(function (x) {
      if (x < r.d) return;   // R_h < 1: farther than safe's distance, which is below 1
      var distance = max(ZERO, sub(ONE, div(log10Truncated({ n: x, d: r.d }), LOG18)));
      var rounded = roundFour(distance);
      if (cmp(rounded, nearest) < 0) nearest = rounded;
    });
    return sub(ONE, nearest);
  }

  // ---------------------------------------------------------------------------------------
  // Section 5, causal consistency: the scenario's causal graph, its confounders and evidence
  // ---------------------------------------------------------------------------------------

  /** Each node's parents. */
  var PARENTS = {
    latent_hypothesis: [],
    vendor_legitimacy: ['latent_hypothesis'],
    sender_authenticity: ['latent_hypothesis', 'vendor_legitimacy'],
    bank_alignment: ['latent_hypothesis', 'vendor_legitimacy'],
    callback_result: ['latent_hypothesis', 'vendor_legitimacy'],
    document_integrity: ['latent_hypothesis'],
    approval_chain_integrity: ['latent_hypothesis'],
    portfolio_linkage: ['latent_hypothesis'],
    duplicate_pattern: ['latent_hypothesis', 'document_integrity'],
    decision: ['sender_authenticity', 'bank_alignment', 'duplicate_pattern', 'approval_chain_integrity',
      'portfolio_linkage', 'callback_result'],
    payment_outcome: ['decision', 'latent_hypothesis']
  };

  /** The nodes a tool in tools_ok observes. */
  var OBSERVES = {
    inspect_email_thread: ['sender_authenticity', 'approval_chain_integrity'],
    compare_bank_account: ['bank_alignment'],
    search_ledger: ['duplicate_pattern', 'portfolio_linkage'],
    flag_duplicate_cluster_review: ['duplicate_pattern', 'portfolio_linkage'],
    lookup_vendor_history: ['vendor_legitimacy'],
    request_callback_verification: ['callback_result'],
    request_bank_change_approval_chain: ['approval_chain_integrity', 'bank_alignment'],
    request_po_reconciliation: ['document_integrity'],
    request_additional_receipt_evidence: ['document_integrity'],
    route_to_security: ['payment_outcome']
  };

  /** scenario -> [confounders, evidence nodes]. */
  var SCENARIOS = {
    safe_baseline: [['vendor_legitimacy'], ['bank_alignment', 'sender_authenticity']],
    bank_override_attack: [['vendor_legitimacy', 'approval_chain_integrity'], ['bank_alignment', 'callback_result', 'approval_chain_integrity']],
    vendor_takeover_attack: [['vendor_legitimacy', 'sender_authenticity'], ['sender_authenticity', 'callback_result', 'bank_alignment']],
    ceo_fraud_attack: [['sender_authenticity', 'approval_chain_integrity'], ['sender_authenticity', 'approval_chain_integrity', 'callback_result']],
    domain_typosquat_attack: [['sender_authenticity'], ['sender_authenticity', 'bank_alignment']],
    near_duplicate_invoice_attack: [['document_integrity'], ['duplicate_pattern', 'document_integrity']],
    fake_receipt_attack: [['document_integrity', 'approval_chain_integrity'], ['document_integrity', 'approval_chain_integrity']],
    phantom_vendor_attack: [['vendor_legitimacy', 'document_integrity'], ['vendor_legitimacy', 'document_integrity', 'callback_result']],
    inflated_line_items_attack: [['document_integrity'], ['document_integrity', 'approval_chain_integrity']],
    urgency_spoof_attack: [['sender_authenticity', 'approval_chain_integrity'], ['sender_authenticity', 'approval_chain_integrity']],
    approval_threshold_evasion_attack: [['approval_chain_integrity'], ['approval_chain_integrity', 'duplicate_pattern']],
    workflow_override_attack: [['approval_chain_integrity', 'sender_authenticity'], ['approval_chain_integrity', 'sender_authenticity', 'callback_result']],
    split_payment_attack: [['duplicate_pattern', 'approval_chain_integrity'], ['duplicate_pattern', 'portfolio_linkage', 'approval_chain_integrity']],
    coordinated_campaign_attack: [['portfolio_linkage', 'duplicate_pattern'], ['portfolio_linkage', 'duplicate_pattern', 'bank_alignment']],
    supply_chain_compromise_attack: [['vendor_legitimacy', 'bank_alignment'], ['vendor_legitimacy', 'bank_alignment', 'callback_result']],
    insider_collusion_attack: [['approval_chain_integrity'], ['approval_chain_integrity', 'callback_result']],
    multi_entity_layering_attack: [['portfolio_linkage', 'vendor_legitimacy'], ['portfolio_linkage', 'bank_alignment', 'callback_result']]
  };

  /** The scenario the calibration's truth names. */
  var SCENARIO_OF_TRUTH = {
    safe: 'safe_baseline', bank_fraud: 'bank_override_attack', vendor_takeover: 'domain_typosquat_attack',
    ceo_bec: 'urgency_spoof_attack', duplicate_billing: 'inflated_line_items_attack',
    phantom_vendor: 'phantom_vendor_attack', threshold_evasion: 'approval_threshold_evasion_attack',
    insider_collusion: 'insider_collusion_attack', split_payment: 'split_payment_attack',
    campaign_fraud: 'coordinated_campaign_attack', supply_chain_compromise: 'supply_chain_compromise_attack',
    multi_entity_layering: 'multi_entity_layering_attack'
  };

  /** The scenario: the gold's attack when it is one of the table's, else the one the truth names. */
  function scenario(attack, truthName) {
    if (typeof attack === 'string' && Object.prototype.hasOwnProperty.call(SCENARIOS, attack)) return attack;
    return SCENARIO_OF_TRUTH[truthName];
  }

  /** The nodes the tools in tools_ok (a Set) observe. */
  function observedNodes(toolsOk) {
    var out = new Set();
    Object.keys(OBSERVES).forEach(function (t) {
      if (toolsOk.has(t)) OBSERVES[t].forEach(function (n) { out.add(n); });
    });
    return out;
  }

  /**
   * decision and c d-separated given the set O: in the moral graph of the ancestors of
   * {decision, c} and O, with the nodes of O removed, no path joins them (c in O: separated).
   */
  function dSeparated(c, observed) {
    if (observed.has(c) || observed.has('decision')) return true;
    var keep = new Set();
    var stack = ['decision', c].concat(Array.from(observed));
    while (stack.length > 0) {
      var n = stack.pop();
      if (keep.has(n)) continue;
      keep.add(n);
      PARENTS[n].forEach(function (p) { stack.push(p); });
    }
    var adj = {};
    keep.forEach(function (n) { adj[n] = new Set(); });
    function join(a, b) { adj[a].add(b); adj[b].add(a); }
    keep.forEach(function (n) {
      var ps = PARENTS[n];
      ps.forEach(function (p, i) {
        join(n, p);
        for (var j = i + 1; j < ps.length; j++) join(p, ps[j]);
      });
    });
    var seen = new Set(['decision']);
    var queue = ['decision'];
    while (queue.length > 0) {
      var m = queue.shift();
      if (m === c) return false;
      adj[m].forEach(function (x) {
        if (!seen.has(x) && !observed.has(x)) { seen.add(x); queue.push(x); }
      });
    }
    return true;
  }

  /**
   * The causal parts that read the graph: {intervention, dseparation} (fractions) for the
   * scenario and the tools in tools_ok.
   */
  function causalGraphParts(name, toolsOk) {
    var sc = SCENARIOS[name];
    var observed = observedNodes(toolsOk);
    var evidence = sc[1];
    var needed = Object.keys(OBSERVES).filter(function (t) {
      return OBSERVES[t].some(function (n) { return evidence.indexOf(n) >= 0; });
    });
    var intervention = needed.length === 0 ? ONE
      : reduce(frac(needed.filter(function (t) { return toolsOk.has(t); }).length, needed.length));
    var separated = sc[0].filter(function (c) { return dSeparated(c, observed); }).length;
    return { intervention: intervention, dseparation: reduce(frac(separated, sc[0].length)) };
  }

  /** A fraction rounded to four decimals, a tie to even (negative values included). */
  function roundFourSigned(a) {
    if (a.n >= 0n) return roundFour(a);
    var r = roundFour({ n: -a.n, d: a.d });
    return { n: -r.n, d: r.d };
  }

  return {
    HYPOTHESES: HYPOTHESES,
    SCENARIOS: SCENARIOS,
    scenario: scenario,
    observedNodes: observedNodes,
    dSeparated: dSeparated,
    causalGraphParts: causalGraphParts,
    roundFour: roundFourSigned,
    numericReadiness: numericReadiness,
    LIKELIHOOD: LIKELIHOOD,
    ratios: ratios,
    isReady: isReady,
    posterior: posterior,
    distribution: distribution,
    truth: truth,
    log10Truncated: log10Truncated,
    properScore: properScore
  };
});
