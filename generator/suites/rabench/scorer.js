/*
 * Tally scorer B, RA-Bench suite: receipt extraction, checks, fake detection, evidence and
 * duplicates.
 *
 * Written from content/pages/scoring-ra-bench.md (the rule page) alone, with rules 1 and 3.3 of
 * content/pages/scoring-extracting.md that it refers to (reading a record, the JSON object that
 * counts, White_Space); rule numbers in comments refer to the RA-Bench page unless they say
 * otherwise. One classic script, no build step, loaded after scorer B's core
 * (scorer-js/core.js, the global TallyCore), whose exact JSON parser, decimals, whitespace
 * helpers and record reader it uses. It registers itself under the suite's name, 'ra-bench'
 * (TallyCore.scorer('ra-bench')); under Node it is also a CommonJS module exporting its api.
 *
 * Amounts and risks never pass through binary floating point: they are the core's exact
 * decimals, compared on BigInt and digit strings.
 */
(function (root, factory) {
  'use strict';
  var C = root.TallyCore;
  if (!C || typeof C.register !== 'function') {
    throw new Error('the ra-bench scorer needs scorer B\'s core: load core.js (TallyCore) first');
  }
  var api = factory(C);
  C.register('ra-bench', api);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function (C) {
  'use strict';

  var hasOwn = C.hasOwn;
  var isObjectValue = C.isObjectValue;
  var trimWs = C.trimWs;
  var Decimal = C.Decimal;

  /** The scalar fields in row order (3.1). */
  var FIELDS = ['merchant', 'date', 'subtotal', 'tax_total', 'total', 'currency', 'receipt_number'];
  var AMOUNT_FIELDS = { subtotal: true, tax_total: true, total: true };

  /** Reasons' proof kinds (3.6). */
  var PROOF_KINDS = ['ai_generator_tag', 'ai_source_type', 'generator_tag', 'pdf_modified',
    'thumbnail_mismatch', 'capture_before_purchase', 'totals_add_up', 'duplicate_match'];

  /** The fields a deterministic check's kind points at (3.5, 2). */
  var CHECK_KINDS = {
    totals_add_up: ['total', 'subtotal'],
    tax_rate: ['tax_total'],
    receipt_age: ['date'],
    currency: []
  };

  /** Keywords per field (3.5, 3), exactly these. */
  var KEYWORDS = {
    total: ['total', 'amount due'],
    subtotal: ['subtotal'],
    tax_total: ['tax', 'vat', 'gst'],
    date: ['date'],
    merchant: ['merchant', 'store', 'vendor', 'logo', 'name'],
    line_items: ['item', 'line', 'quantity', 'price']
  };

  /** Beyond this many digits of span an amount comparison is not attempted (see withinCent). */
  var MAX_SPAN = 100000;

  function q(v) {
    try { return C.stringify(v); } catch (e) { return String(v); }
  }

  // ---------------------------------------------------------------------------------------
  // Exact decimals: comparisons and the canonical text (rule 2)
  // ---------------------------------------------------------------------------------------

  var ZERO = C.parsePlainDecimal('0');
  var CENT = C.parsePlainDecimal('0.01');
  var HALF = C.parsePlainDecimal('0.5');
  var SEVENTY = C.parsePlainDecimal('0.7');
  var ONE = C.parsePlainDecimal('1');

  /** Position of the leading digit: a non-zero value lies in [10^(top-1), 10^top). */
  function topOf(d) { return BigInt(d.coef.length) + d.exp; }

  /** Compare magnitudes of two non-zero decimals: -1, 0, 1. */
  function cmpAbs(a, b) {
    var ta = topOf(a);
    var tb = topOf(b);
    if (ta !== tb) return ta < tb ? -1 : 1;
    // Same leading position: compare the digit strings left-aligned.
    var n = Math.max(a.coef.length, b.coef.length);
    var x = a.coef + '0'.repeat(n - a.coef.length);
    var y = b.coef + '0'.repeat(n - b.coef.length);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** Exact comparison of two decimals: -1, 0, 1. */
  function cmp(a, b) {
    if (a.isZero() && b.isZero()) return 0;
    if (a.isZero()) return b.neg ? 1 : -1;
    if (b.isZero()) return a.neg ? -1 : 1;
    if (a.neg !== b.neg) return a.neg ? -1 : 1;
    var c = cmpAbs(a, b);
    return a.neg ? -c : c;
  }

  /** A decimal as a BigInt count of 10^scale (scale <= d.exp). */
  function scaled(d, scale) {
    var v = BigInt(d.coef) * (10n ** (d.exp - scale));
    return d.neg ? -v : v;
  }

  /**
   * |a - b| <= 0.01, exactly. The difference is computed on BigInt at the finest exponent of
   * the two values and of 0.01. Values so far apart in scale that this would need more than
   * MAX_SPAN digits are decided by their leading positions alone (only absurd exponents get
   * there).
   */
  function withinCent(a, b) {
    if (a.equals(b)) return true;
    var lo = a.exp < b.exp ? a.exp : b.exp;
    if (lo > CENT.exp) lo = CENT.exp;
    var hi = 0n;
    if (!a.isZero() && topOf(a) > hi) hi = topOf(a);
    if (!b.isZero() && topOf(b) > hi) hi = topOf(b);
    if (hi - lo > BigInt(MAX_SPAN)) {
      // One value is astronomically large or has an astronomically long fraction: decide by size.
      // Two values of one sign (or zero) both smaller than 0.01 are within it; any other pair
      // this far apart in scale is not (only absurd exponents get here).
      var big = a.isZero() ? b : b.isZero() ? a : (cmpAbs(a, b) >= 0 ? a : b);
      var oneSign = a.isZero() || b.isZero() || a.neg === b.neg;
      return oneSign && topOf(big) <= -2n;
    }
    var diff = scaled(a, lo) - scaled(b, lo);
    if (diff < 0n) diff = -diff;
    return diff <= scaled(CENT, lo);
  }

  /** Canonical decimal text (rule 2): no exponent, no trailing fraction zeros, "0" for zero. */
  function canonical(d) {
    if (d.isZero()) return '0';
    var sign = d.neg ? '-' : '';
    var c = d.coef;       // no leading or trailing zeros (the core normalises)
    if (d.exp >= 0n) return sign + c + '0'.repeat(Number(d.exp));
    var frac = Number(-d.exp);
    if (c.length > frac) return sign + c.slice(0, c.length - frac) + '.' + c.slice(c.length - frac);
    return sign + '0.' + '0'.repeat(frac - c.length) + c;
  }

  // ---------------------------------------------------------------------------------------
  // Values (rule 2): null, amount, risk
  // ---------------------------------------------------------------------------------------

  /** A field value that is absent, JSON null or a string empty once trimmed. */
  function isNull(v) {
    return v === undefined || v === null || (typeof v === 'string' && trimWs(v) === '');
  }

  var AMOUNT_STRIP = new RegExp('[,$\\u20ac\\u00a3' + C.WS_CLASS + ']', 'g');
  var AMOUNT_TEXT = /^-?[0-9]+(?:\.[0-9]+)?$/;

  /** The exact decimal of an amount, or null when the value is not an amount. */
  function readAmount(v) {
    if (C.isNumberValue(v)) {
      var n = C.asJsonNumber(v);
      return n === null ? null : n.decimal;
    }
    if (typeof v !== 'string') return null;
    var s = v.replace(AMOUNT_STRIP, '');
    if (!AMOUNT_TEXT.test(s)) return null;
    return C.parsePlainDecimal(s);
  }

  /** The risk of an answer (a JSON number whose value lies in [0, 1]) as a decimal, or null for no risk. */
  function readRisk(answer) {
    if (answer === null || !hasOwn(answer, 'risk')) return null;
    var v = answer.risk;
    if (!C.isNumberValue(v)) return null;
    var n = C.asJsonNumber(v);
    if (n === null) return null;
    var d = n.decimal;
    if (d === null) return null;   // out of range: a number with no value is no risk
    if (cmp(d, ZERO) < 0 || cmp(d, ONE) > 0) return null;
    return d;
  }

  // ---------------------------------------------------------------------------------------
  // Text (rule 2): name normalisation, similarity; receipt numbers (3.1)
  // ---------------------------------------------------------------------------------------

  // Every text rule is of Unicode 14.0.0, the core's pinned version (rule 2): its categories L*, N*
  // and Mn (C.LETTER_NUMBER_14, C.NONSPACING_MARK_14), its NFKD and lower case (C.nfkd14, C.lower14).
  var LN = C.LETTER_NUMBER_14;
  var MN = new RegExp('[' + C.NONSPACING_MARK_14 + ']', 'gu');
  var NOT_LNW = new RegExp('[^' + LN + C.WS_CLASS + ']', 'gu');
  var WS_RUN = new RegExp('[' + C.WS_CLASS + ']+', 'g');
  var NOT_LN = new RegExp('[^' + LN + ']', 'gu');

  /** Name normalisation of merchant names and line-item descriptions. */
  function normalizeName(s) {
    var t = C.lower14(C.nfkd14(s).replace(MN, ''));
    t = t.replace(/&/g, ' and ').replace(NOT_LNW, '').replace(WS_RUN, ' ');
    return trimWs(t);
  }

  /** Letters and digits only, lower-cased (receipt numbers). */
  function alnumKey(s) {
    return C.lower14(s.replace(NOT_LN, ''));
  }

  /**
   * Levenshtein distance over code points, or limit + 1 as soon as it must exceed `limit`
   * (a band of width 2 * limit + 1 around the diagonal is enough for that decision).
   */
  function levenshteinUpTo(a, b, limit) {
    var n = a.length;
    var m = b.length;
    if (Math.abs(n - m) > limit) return limit + 1;
    if (n === 0) return m;
    if (m === 0) return n;
    var INF = limit + 1;
    var prev = new Array(m + 1);
    var cur = new Array(m + 1);
    for (var j = 0; j <= m; j++) prev[j] = j <= limit ? j : INF;
    for (var i = 1; i <= n; i++) {
      var from = Math.max(1, i - limit);
      var to = Math.min(m, i + limit);
      cur[0] = i <= limit ? i : INF;
      for (var k = 1; k < from; k++) cur[k] = INF;
      var best = cur[0];
      for (j = from; j <= to; j++) {
        var v = prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
        if (prev[j] + 1 < v) v = prev[j] + 1;
        if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
        if (v > INF) v = INF;
        cur[j] = v;
        if (v < best) best = v;
      }
      for (k = to + 1; k <= m; k++) cur[k] = INF;
      if (best > limit) return INF;
      var t = prev; prev = cur; cur = t;
    }
    return prev[m] > limit ? INF : prev[m];
  }

  /**
   * Similarity >= num/den (num/den in lowest terms, 9/10 or 4/5), exactly:
   * den * (m - d) >= num * m with m the longer length in code points (two empty strings pass).
   */
  function similarAtLeast(x, y, num, den) {
    var a = Array.from(x);
    var b = Array.from(y);
    var m = Math.max(a.length, b.length);
    if (m === 0) return true;
    // the largest d with den * (m - d) >= num * m
    var limit = Math.floor(((den - num) * m) / den);
    var d = levenshteinUpTo(a, b, limit);
    return den * (m - d) >= num * m;
  }

  /** Full Levenshtein distance over code points (exported for tests and reasons). */
  function levenshtein(x, y) {
    var a = Array.from(x);
    var b = Array.from(y);
    return levenshteinUpTo(a, b, Math.max(a.length, b.length));
  }

  // ---------------------------------------------------------------------------------------
  // From a response to an answer (rule 2, rule 1 of the extracting page)
  // ---------------------------------------------------------------------------------------

  // The first complete JSON object (rule 1.1 of the extracting page): the core's, by the shared rules.
  var firstObject = C.firstReplyObject;

  /**
   * {status: 'failed_call' | 'unparseable' | 'answer', answer, reason}. An answer is a JSON
   * object whose `fields` member is a JSON object.
   */
  function readOutcome(record) {
    var r = C.readRecord(record);
    if (r.status === 'failed_call') return { status: 'failed_call', answer: null, reason: 'failed call: ' + r.reason };
    if (r.status !== 'content') return { status: 'unparseable', answer: null, reason: 'unparseable: ' + r.reason };
    var obj = firstObject(r.content);
    if (obj === null) return { status: 'unparseable', answer: null, reason: 'unparseable: no JSON object' };
    if (!hasOwn(obj, 'fields') || !isObjectValue(obj.fields)) {
      return { status: 'unparseable', answer: null, reason: 'unparseable: fields is not an object' };
    }
    return { status: 'answer', answer: obj, reason: '' };
  }

  function member(obj, key) {
    return isObjectValue(obj) && hasOwn(obj, key) ? obj[key] : undefined;
  }

  // ---------------------------------------------------------------------------------------
  // 3.1 Fields
  // ---------------------------------------------------------------------------------------

  function fieldMatches(name, A, label) {
    if (name === 'merchant') {
      return typeof A === 'string' && typeof label === 'string' &&
        similarAtLeast(normalizeName(A), normalizeName(label), 9, 10);
    }
    if (name === 'date' || name === 'currency') return typeof A === 'string' && A === label;
    if (AMOUNT_FIELDS[name]) {
      var a = readAmount(A);
      var l = readAmount(label);
      return a !== null && l !== null && withinCent(a, l);
    }
    // receipt_number
    return typeof A === 'string' && typeof label === 'string' && alnumKey(A) === alnumKey(label);
  }

  /** {verdict, reason, order} of one field row. */
  function scoreField(name, outcome, label) {
    var order = '';
    if (outcome.status !== 'answer') return { verdict: outcome.status, reason: outcome.reason, order: order };
    var fields = outcome.answer.fields;
    var A = hasOwn(fields, name) ? fields[name] : undefined;
    if (name === 'total') {
      var amt = readAmount(A);
      if (amt !== null) order = canonical(amt);
    }
    if (isNull(label)) {
      if (isNull(A)) return { verdict: 'null_ok', reason: 'not shown, not given', order: order };
      return { verdict: 'invented', reason: 'not shown, given ' + q(A), order: order };
    }
    if (isNull(A)) return { verdict: 'false_null', reason: 'shown, not given', order: order };
    if (fieldMatches(name, A, label)) return { verdict: 'correct', reason: 'matches ' + q(label), order: order };
    return { verdict: 'wrong', reason: q(A) + ' does not match ' + q(label), order: order };
  }

  // ---------------------------------------------------------------------------------------
  // 3.2 Line items: maximum one-to-one matching
  // ---------------------------------------------------------------------------------------

  /** Size of a maximum matching; adj[i] lists the right vertices left vertex i may pair with. */
  function maxMatching(adj, rightCount) {
    var matchRight = new Array(rightCount).fill(-1);
    var size = 0;
    for (var u = 0; u < adj.length; u++) {
      var seen = new Array(rightCount).fill(false);
      if (augment(u, adj, matchRight, seen)) size++;
    }
    return size;
  }

  /** Kuhn's augmenting path from left vertex u, written with an explicit stack. */
  function augment(u, adj, matchRight, seen) {
    // stack frames: [left vertex, next index in its adjacency, right vertex taken to get here]
    var stack = [[u, 0, -1]];
    while (stack.length) {
      var top = stack[stack.length - 1];
      var list = adj[top[0]];
      if (top[1] >= list.length) { stack.pop(); continue; }
      var v = list[top[1]++];
      if (seen[v]) continue;
      seen[v] = true;
      if (matchRight[v] === -1) {
        // flip the path: each frame's left vertex takes the right vertex chosen from it
        matchRight[v] = top[0];
        for (var k = stack.length - 2; k >= 0; k--) {
          var via = stack[k + 1][2];
          matchRight[via] = stack[k][0];
        }
        return true;
      }
      stack.push([matchRight[v], 0, v]);
    }
    return false;
  }

  /** {tp, fp, fn} of an extracted list against the labelled one. */
  function countLineItems(labelled, extracted) {
    var L = labelled.map(function (li) {
      var desc = isObjectValue(li) && typeof li.description === 'string' ? normalizeName(li.description) : null;
      var tot = isObjectValue(li) ? readAmount(li.total) : null;
      return { desc: desc, total: tot };
    });
    var E = extracted.map(function (e) {
      if (!isObjectValue(e)) return null;
      var d = member(e, 'description');
      var t = readAmount(member(e, 'total'));
      if (typeof d !== 'string' || t === null) return null;
      return { desc: normalizeName(d), total: t };
    });
    var adj = L.map(function (l) {
      var out = [];
      if (l.desc === null || l.total === null) return out;
      for (var j = 0; j < E.length; j++) {
        var e = E[j];
        if (e !== null && withinCent(l.total, e.total) && similarAtLeast(l.desc, e.desc, 4, 5)) out.push(j);
      }
      return out;
    });
    var tp = maxMatching(adj, E.length);
    return { tp: tp, fp: E.length - tp, fn: L.length - tp };
  }

  // ---------------------------------------------------------------------------------------
  // 3.5 and 3.6 Reasons
  // ---------------------------------------------------------------------------------------

  /** A reason read as {text, kind, detail, inert}: kind null when it has none. */
  function readReason(el) {
    if (typeof el === 'string') return { text: el, kind: null, detail: '', inert: false };
    if (isObjectValue(el)) {
      var text = member(el, 'text');
      var kind = member(el, 'kind');
      var detail = member(el, 'detail');
      return {
        text: typeof text === 'string' ? text : '',
        kind: typeof kind === 'string' ? kind : null,
        detail: typeof detail === 'string' ? detail : '',
        inert: false
      };
    }
    return { text: '', kind: null, detail: '', inert: true };
  }

  function reasonsOf(answer) {
    var list = answer === null ? undefined : member(answer, 'reasons');
    return Array.isArray(list) ? list.map(readReason) : [];
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

  var TAG_RE = {};
  var KEYWORD_RE = {};
  Object.keys(KEYWORDS).forEach(function (f) {
    TAG_RE[f] = new RegExp('@' + escapeRe(f) + '(?![' + LN + '_])', 'u');
    KEYWORD_RE[f] = new RegExp('(?<![' + LN + '])(?:' + KEYWORDS[f].map(escapeRe).join('|') +
      ')(?![' + LN + '])', 'u');
  });

  /** True when the reason points at field f (3.5: tag, deterministic check, keyword). */
  function pointsAt(reason, f) {
    if (reason.inert) return false;
    if (TAG_RE[f].test(reason.text)) return true;
    if (reason.kind !== null) {
      var fs = hasOwn(CHECK_KINDS, reason.kind) ? CHECK_KINDS[reason.kind] : [];
      return fs.indexOf(f) >= 0;
    }
    return KEYWORD_RE[f].test(C.lower14(reason.text));
  }

  var ASCII_DIGIT = /[0-9]/;

  function isProof(reason) {
    if (reason.kind === null || PROOF_KINDS.indexOf(reason.kind) < 0) return false;
    if (trimWs(reason.detail) === '') return false;
    if (reason.kind === 'totals_add_up' && !ASCII_DIGIT.test(reason.detail)) return false;
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // Rows
  // ---------------------------------------------------------------------------------------

  function isBase(label) {
    return !isObjectValue(label) || label.lineage === null || label.lineage === undefined;
  }

  /**
   * The verdict rows of one response (rule 3): a base case gives 3.1 to 3.7, a transform
   * only 3.8.
   */
  function scoreItem(item, record, run, repeat) {
    if (!isObjectValue(item)) throw new Error('item is not an object');
    var label = item.label;
    if (!isObjectValue(label)) throw new Error('item ' + q(item.id) + ' has no label object');
    var outcome = readOutcome(record);
    var answer = outcome.answer;
    var rows = [];
    function row(unit, kind, verdict, reason, order) {
      rows.push({ run: run, item: item.id, repeat: repeat, unit: unit, kind: kind, verdict: verdict,
        points: C.points(verdict), reason: reason, order: order === undefined ? '' : order });
    }
    var failed = outcome.status !== 'answer';
    var dup = answer === null ? undefined : member(answer, 'duplicate');
    var seen = isObjectValue(dup) && member(dup, 'seen_before') === true;

    if (!isBase(label)) {
      // 3.8
      if (seen && member(dup, 'match') === 'exact') row('duplicate:transform', 'duplicate', 'exact_match', 'seen before, exact');
      else if (seen) row('duplicate:transform', 'duplicate', 'match', 'seen before');
      else row('duplicate:transform', 'duplicate', 'missed', failed ? outcome.reason : 'not seen before');
      return rows;
    }

    // 3.1
    var fields = isObjectValue(label.fields) ? label.fields : {};
    FIELDS.forEach(function (name) {
      if (!hasOwn(fields, name)) return;
      var r = scoreField(name, outcome, fields[name]);
      row('field:' + name, 'field', r.verdict, r.reason, r.order);
    });

    // 3.2
    if (Array.isArray(label.line_items)) {
      var n = label.line_items.length;
      if (failed) {
        row('line_items', 'line_items', outcome.status, outcome.reason, '0 0 ' + n);
      } else {
        var li = member(answer, 'line_items');
        var c = countLineItems(label.line_items, Array.isArray(li) ? li : []);
        row('line_items', 'line_items', 'counted', c.tp + ' matched, ' + c.fp + ' extra, ' + c.fn + ' missing',
          c.tp + ' ' + c.fp + ' ' + c.fn);
      }
    }

    // 3.3
    var positive = label.adds_up === false;
    if (failed) {
      row('check:totals_add_up', 'check', outcome.status, outcome.reason);
    } else {
      var checks = member(answer, 'checks');
      var cv = isObjectValue(checks) ? member(checks, 'totals_add_up') : undefined;
      if (cv === 'failed') row('check:totals_add_up', 'check', positive ? 'found' : 'false_flag', 'check failed');
      else if (cv === 'passed') row('check:totals_add_up', 'check', positive ? 'missed' : 'cleared', 'check passed');
      else row('check:totals_add_up', 'check', 'not_run', 'check not run: ' + q(cv === undefined ? null : cv));
    }

    // 3.4
    var risk = failed ? null : readRisk(answer);
    var flagged = risk !== null && cmp(risk, HALF) >= 0;
    var fake = label.fake === true;
    var decision = fake ? (flagged ? 'caught' : 'missed') : (flagged ? 'false_flag' : 'cleared');
    row('decision', 'decision', decision,
      risk === null ? (failed ? outcome.reason : 'no risk') : 'risk ' + canonical(risk) +
        (cmp(risk, SEVENTY) >= 0 ? ' (flagged at 0.7)' : ''),
      risk === null ? '' : canonical(risk));

    // 3.5
    var reasons = failed ? [] : reasonsOf(answer);
    var edited = label.edited_field;
    if (fake && edited !== null && edited !== undefined) {
      if (!flagged) {
        row('edited_field', 'evidence', 'not_flagged', 'not flagged');
      } else {
        var first3 = reasons.slice(0, 3);
        var named = typeof edited === 'string' && hasOwn(KEYWORDS, edited) &&
          first3.some(function (r) { return pointsAt(r, edited); });
        row('edited_field', 'evidence', named ? 'named' : 'not_named',
          (named ? 'a first-3 reason points at ' : 'no first-3 reason points at ') + edited);
      }
    }

    // 3.6
    var proof = reasons.some(isProof);
    row('proof', 'evidence', proof ? 'proof' : 'no_proof', proof ? 'a reason is a proof' : 'no proof');

    // 3.7
    if (!fake) {
      var unit = label.hard_negative === true ? 'duplicate:hard_negative' : 'duplicate:genuine';
      row(unit, 'duplicate', seen ? 'false_match' : 'no_match', seen ? 'seen before' : 'not seen before');
    }
    return rows;
  }

  return {
    scoreItem: scoreItem,
    readOutcome: readOutcome,
    firstObject: firstObject,
    scoreField: scoreField,
    readAmount: readAmount,
    readRisk: readRisk,
    canonical: canonical,
    withinCent: withinCent,
    compareDecimals: cmp,
    normalizeName: normalizeName,
    alnumKey: alnumKey,
    levenshtein: levenshtein,
    similarAtLeast: similarAtLeast,
    countLineItems: countLineItems,
    readReason: readReason,
    pointsAt: pointsAt,
    isProof: isProof,
    FIELDS: FIELDS,
    KEYWORDS: KEYWORDS,
    PROOF_KINDS: PROOF_KINDS,
    Decimal: Decimal
  };
});
