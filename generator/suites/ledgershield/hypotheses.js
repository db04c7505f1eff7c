/*
 * Tally scorer B, LedgerShield suite: the twelve hypotheses (rule page
 * content/pages/scoring-ledgershield.md, section 2, decision readiness).
 *
 * LedgerShield's sequential test over twelve hypotheses, in exact arithmetic: the likelihood of
 * each observation the desk makes, the ratios R_h, readiness. A classic script with no
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

  return {
    HYPOTHESES: HYPOTHESES,
    LIKELIHOOD: LIKELIHOOD,
    ratios: ratios,
    isReady: isReady
  };
});
