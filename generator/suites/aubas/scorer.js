/*
 * Tally scorer B, au-bas suite: the rules of the au-bas reconciliation suite.
 *
 * Written from content/pages/scoring-au-bas.md (the rule page) and docs/formats.md alone; rule
 * numbers in comments refer to that page. One classic script, no build step, loaded after
 * scorer B's core (scorer-js/core.js, the global TallyCore), whose exact JSON parser, decimals,
 * text helpers and record reader it uses. It registers itself under the suite's name, 'au-bas'
 * (TallyCore.scorer('au-bas')); under Node it is also a CommonJS module exporting its api.
 *
 * Money never passes through binary floating point: ledger amounts are BigInt counts of a
 * power-of-ten unit, model figures are exact decimals (the core's Decimal / JsonNumber).
 * Only the per-item metrics of rule 4 (ratios) are JavaScript numbers.
 */
(function (root, factory) {
  'use strict';
  var C = root.TallyCore;
  if (!C || typeof C.register !== 'function') {
    throw new Error('the au-bas scorer needs scorer B\'s core: load core.js (TallyCore) first');
  }
  var api = factory(C);
  C.register('au-bas', api);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function (C) {
  'use strict';

  var hasOwn = C.hasOwn;
  var isObjectValue = C.isObjectValue;
  var trimWs = C.trimWs;        // Unicode White_Space: removed around the block and a figure string
  var typeName = C.typeName;

  // ---------------------------------------------------------------------------------------
  // Rule 1: categories, fault codes, labels
  // ---------------------------------------------------------------------------------------

  var TAXABLE = ['office_supplies', 'consulting', 'equipment', 'software', 'travel', 'catering'];
  var GST_FREE = ['basic_food', 'medical', 'education', 'export'];
  var INPUT_TAXED = ['financial_supply', 'residential_rent'];

  /** Fault codes in the order of the rule table (the order of a key's code lists). */
  var CODES = ['gst_on_gst_free', 'gst_miscalculated', 'duplicate_invoice', 'outside_period',
    'missing_abn_over_threshold'];

  /** The four BAS labels, in row order (rule 5). */
  var LABELS = ['G1', '1A', '1B', 'net'];

  var ABN_THRESHOLD = '82.50';

  function q(v) {
    try { return JSON.stringify(v instanceof C.JsonNumber ? v.literal : v); } catch (e) { return String(v); }
  }

  // ---------------------------------------------------------------------------------------
  // Ledger money: a decimal string is {units: BigInt, scale: number} (value = units / 10^scale)
  // ---------------------------------------------------------------------------------------

  var LEDGER_DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

  function ledgerDecimal(v, what) {
    if (typeof v !== 'string') throw new Error(what + ' is not a decimal string: ' + q(v));
    var m = LEDGER_DECIMAL.exec(v);
    if (!m) throw new Error(what + ' is not a decimal string: ' + q(v));
    var frac = m[3] || '';
    var units = BigInt(m[2] + frac);
    return { units: m[1] === '-' ? -units : units, scale: frac.length };
  }

  function rescale(d, scale) {
    return d.units * (10n ** BigInt(scale - d.scale));   // scale >= d.scale
  }

  /** -1, 0 or 1 as a < b, a = b, a > b (exact). */
  function cmpMoney(a, b) {
    var s = Math.max(a.scale, b.scale);
    var x = rescale(a, s);
    var y = rescale(b, s);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** GST of a price: amount / 11 rounded to the cent, half away from zero. */
  function gstOf(amount) {
    var neg = amount.units < 0n;
    var num = (neg ? -amount.units : amount.units) * 100n;
    var den = 11n * (10n ** BigInt(amount.scale));
    var cents = num / den;
    if ((num % den) * 2n >= den) cents += 1n;
    return { units: neg ? -cents : cents, scale: 2 };
  }

  /** Text with at least two decimals (exactly two for cents), e.g. -10.00, 0.00, 1234.50. */
  function formatMoney(d) {
    var scale = Math.max(2, d.scale);
    var u = rescale(d, scale);
    var neg = u < 0n;
    var digits = (neg ? -u : u).toString();
    while (digits.length <= scale) digits = '0' + digits;
    return (neg ? '-' : '') + digits.slice(0, digits.length - scale) + '.' + digits.slice(digits.length - scale);
  }

  function addMoney(a, b) {
    var s = Math.max(a.scale, b.scale);
    return { units: rescale(a, s) + rescale(b, s), scale: s };
  }

  function subMoney(a, b) {
    var s = Math.max(a.scale, b.scale);
    return { units: rescale(a, s) - rescale(b, s), scale: s };
  }

  var ZERO = { units: 0n, scale: 0 };

  // ---------------------------------------------------------------------------------------
  // Dates
  // ---------------------------------------------------------------------------------------

  function isoDate(v, what) {
    if (C.isIsoDate(v)) return v;   // ISO text compares as dates
    throw new Error(what + ' is not an ISO date: ' + q(v));
  }

  // ---------------------------------------------------------------------------------------
  // Rule 1: the answer key
  // ---------------------------------------------------------------------------------------

  /**
   * The answer key of a ledger: {G1, 1A, 1B, net, faults}. Figures are decimal strings with
   * two decimals; faults maps a row id (ledger order) to its codes in the rule table's order,
   * rows without a fault left out. A malformed ledger throws.
   */
  function deriveKey(ledger) {
    if (!isObjectValue(ledger)) throw new Error('ledger is not an object');
    var start = isoDate(ledger.quarter_start, 'quarter_start');
    var end = isoDate(ledger.quarter_end, 'quarter_end');
    if (!Array.isArray(ledger.rows)) throw new Error('ledger rows is not an array');
    var threshold = ledgerDecimal(ABN_THRESHOLD, 'threshold');
    var seenIds = new Set();
    var seenInvoices = new Set();
    var g1 = ZERO;
    var a1 = ZERO;
    var b1 = ZERO;
    var faults = {};
    ledger.rows.forEach(function (row, index) {
      var where = 'ledger row ' + index;
      if (!isObjectValue(row)) throw new Error(where + ' is not an object');
      if (typeof row.id !== 'string' || row.id === '') throw new Error(where + ': id is not a non-empty string');
      where = 'ledger row ' + q(row.id);
      if (seenIds.has(row.id)) throw new Error(where + ': repeated row id');
      seenIds.add(row.id);
      var date = isoDate(row.date, where + ': date');
      if (row.kind !== 'sale' && row.kind !== 'purchase') throw new Error(where + ': kind is not sale or purchase: ' + q(row.kind));
      var cat = row.category;
      var taxable = TAXABLE.indexOf(cat) >= 0;
      var untaxed = GST_FREE.indexOf(cat) >= 0 || INPUT_TAXED.indexOf(cat) >= 0;
      if (typeof cat !== 'string' || (!taxable && !untaxed)) throw new Error(where + ': unknown category ' + q(cat));
      if (typeof row.invoice !== 'string') throw new Error(where + ': invoice is not a string');
      var amount = ledgerDecimal(row.amount, where + ': amount');
      var gst = ledgerDecimal(row.gst, where + ': gst');
      if (typeof row.abn !== 'string' || !/^(?:[0-9]{11})?$/.test(row.abn)) {
        throw new Error(where + ': abn is neither 11 digits nor empty: ' + q(row.abn));
      }
      var corrected = gstOf(amount);

      var has = {};
      has.gst_on_gst_free = untaxed && gst.units !== 0n;
      has.gst_miscalculated = taxable && cmpMoney(gst, corrected) !== 0;
      has.duplicate_invoice = seenInvoices.has(row.invoice);
      seenInvoices.add(row.invoice);
      has.outside_period = date < start || date > end;
      has.missing_abn_over_threshold = row.kind === 'purchase' && cmpMoney(amount, threshold) > 0 && row.abn === '';
      var codes = CODES.filter(function (c) { return has[c]; });
      if (codes.length) faults[row.id] = codes;

      // The corrected BAS counts valid rows: in the period and not a duplicate.
      if (has.outside_period || has.duplicate_invoice) return;
      if (row.kind === 'sale') {
        g1 = addMoney(g1, amount);
        if (taxable) a1 = addMoney(a1, corrected);
      } else if (taxable && !has.missing_abn_over_threshold) {
        b1 = addMoney(b1, corrected);
      }
    });
    return {
      G1: formatMoney(g1),
      '1A': formatMoney(a1),
      '1B': formatMoney(b1),
      net: formatMoney(subMoney(a1, b1)),
      faults: faults
    };
  }

  /** Null when the stored key equals the derived one, else a description of the first difference. */
  function keyDifference(stored, derived) {
    if (!isObjectValue(stored)) return 'the stored key is not an object';
    var names = LABELS.concat(['faults']);
    var extra = Object.keys(stored).filter(function (k) { return names.indexOf(k) < 0; });
    if (extra.length) return 'unexpected key entry ' + q(extra[0]);
    for (var i = 0; i < LABELS.length; i++) {
      var l = LABELS[i];
      if (stored[l] !== derived[l]) return l + ' is ' + q(stored[l]) + ', the ledger gives ' + q(derived[l]);
    }
    var sf = stored.faults;
    if (!isObjectValue(sf)) return 'faults is not an object';
    var df = derived.faults;
    var sIds = Object.keys(sf);
    var dIds = Object.keys(df);
    for (var a = 0; a < dIds.length; a++) {
      if (!hasOwn(sf, dIds[a])) return 'faults of ' + q(dIds[a]) + ' are missing';
    }
    for (var b = 0; b < sIds.length; b++) {
      var id = sIds[b];
      if (!hasOwn(df, id)) return 'faults of ' + q(id) + ' are not the ledger\'s';
      var sc = sf[id];
      var dc = df[id];
      if (!Array.isArray(sc) || sc.length !== dc.length ||
          sc.some(function (c, k) { return c !== dc[k]; })) {
        return 'faults of ' + q(id) + ' are ' + C.stringify(sc) + ', the ledger gives ' + C.stringify(dc);
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------
  // Rule 1: which items are usable ([] when nothing is wrong)
  // ---------------------------------------------------------------------------------------

  var AMOUNT = /^[0-9]+(?:\.[0-9]{1,2})?$/;   // dollars: no sign, no exponent, at most two decimals
  var ROW_KEYS = ['id', 'date', 'kind', 'counterparty', 'invoice', 'category', 'amount', 'gst', 'abn'];

  function isLedgerDate(v) { return C.isIsoDate(v) && v.slice(0, 4) !== '0000'; }

  function rowProblems(row, i, ids) {
    var where = 'ledger.rows[' + i + ']';
    if (!isObjectValue(row)) return [where + ' must be an object'];
    var missing = ROW_KEYS.filter(function (k) { return typeof row[k] !== 'string' || !hasOwn(row, k); });
    if (missing.length) return [where + ': ' + missing.join(', ') + ' must be strings'];
    var out = [];
    if (row.id === '') out.push(where + ': id is empty');
    if (ids.has(row.id)) out.push(where + ': id ' + q(row.id) + ' repeats');
    ids.add(row.id);
    if (!isLedgerDate(row.date)) out.push(where + ': date is not YYYY-MM-DD');
    if (row.kind !== 'sale' && row.kind !== 'purchase') out.push(where + ': kind is neither sale nor purchase');
    if (TAXABLE.indexOf(row.category) < 0 && GST_FREE.indexOf(row.category) < 0 && INPUT_TAXED.indexOf(row.category) < 0) {
      out.push(where + ': unknown category ' + q(row.category));
    }
    if (!AMOUNT.test(row.amount)) out.push(where + ': amount is not dollars with at most two decimals');
    if (!AMOUNT.test(row.gst)) out.push(where + ': gst is not dollars with at most two decimals');
    if (!/^(?:[0-9]{11})?$/.test(row.abn)) out.push(where + ': abn is neither 11 digits nor empty');
    return out;
  }

  /** Rule 1: the problems of an item (its ledger and stored key); [] for a usable item. */
  function itemProblems(item) {
    if (!isObjectValue(item)) return ['an item must be an object'];
    var ledger = item.ledger;
    if (!isObjectValue(ledger)) return ['ledger must be an object'];
    var out = [];
    ['quarter_start', 'quarter_end'].forEach(function (k) {
      if (!isLedgerDate(ledger[k])) out.push('ledger.' + k + ' is not YYYY-MM-DD');
    });
    var rows = ledger.rows;
    if (!Array.isArray(rows) || rows.length < 4) return out.concat(['ledger.rows must be an array of at least 4 rows']);
    var ids = new Set();
    rows.forEach(function (row, i) { out = out.concat(rowProblems(row, i, ids)); });
    if (out.length) return out;
    var diff = keyDifference(item.key, deriveKey(ledger));
    return diff === null ? [] : ['the stored key differs from the ledger\'s: ' + diff];
  }

  // ---------------------------------------------------------------------------------------
  // Code point order (rule 5)
  // ---------------------------------------------------------------------------------------

  function isHigh(c) { return c >= 0xd800 && c <= 0xdbff; }

  /** Compare two strings by Unicode code points (not UTF-16 code units). */
  function compareCodePoints(a, b) {
    if (a === b) return 0;
    var n = Math.min(a.length, b.length);
    var i = 0;
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    // Step back to the start of the code point holding the first difference.
    if (i > 0 && isHigh(a.charCodeAt(i - 1))) i--;
    for (;;) {
      if (i >= a.length) return i >= b.length ? 0 : -1;
      if (i >= b.length) return 1;
      var x = a.codePointAt(i);
      var y = b.codePointAt(i);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Rule 2: from a response to an answer
  // ---------------------------------------------------------------------------------------

  var OPEN = '<answer>';
  var CLOSE = '</answer>';

  /**
   * Rule 2.1 and 2.2: the text of the last answer block, fences removed; null when there is
   * no block. Linear in the content's length.
   */
  function answerBlock(content) {
    var open = content.lastIndexOf(OPEN);
    if (open < 0) return null;
    var from = open + OPEN.length;
    var close = content.indexOf(CLOSE, from);
    if (close < 0) return null;
    return C.stripFence(content.slice(from, close));   // the core's reading rules: White_Space, one code fence
  }

  /**
   * Rule 2.4: the claimed pairs of `faults` as a Map id -> Set of codes, or null when the
   * shape is not allowed.
   */
  function claimedPairs(faults) {
    var claimed = new Map();
    if (faults === undefined || faults === null) return claimed;
    if (!isObjectValue(faults)) return null;
    var ids = Object.keys(faults);
    for (var i = 0; i < ids.length; i++) {
      var v = faults[ids[i]];
      var codes;
      if (typeof v === 'string') codes = [v];
      else if (Array.isArray(v)) codes = v;
      else return null;
      for (var k = 0; k < codes.length; k++) if (typeof codes[k] !== 'string') return null;
      var set = new Set(codes);
      if (set.size) claimed.set(ids[i], set);
    }
    return claimed;
  }

  /**
   * Rule 2: {status: 'failed_call'|'unparseable'|'answer', answer, claimed, reason}.
   */
  function readResponse(record) {
    var r = C.readRecord(record);
    if (r.status === 'failed_call') {
      // The core's failed-call rule (the extracting suite's), with this suite's own wording.
      var reason = r.cause === 'response' ? 'no response body' : r.reason;
      return { status: 'failed_call', answer: null, claimed: null, reason: reason };
    }
    if (r.status !== 'content') {
      return { status: 'unparseable', answer: null, claimed: null, reason: 'no message content' };
    }
    var text = answerBlock(r.content);
    if (text === null) return { status: 'unparseable', answer: null, claimed: null, reason: 'no <answer> block' };
    var parsed = C.readReplyJSON(text);   // the core's reading rules (100 levels at most)
    if (!parsed.ok || !isObjectValue(parsed.value)) {
      return { status: 'unparseable', answer: null, claimed: null, reason: 'the block is not one JSON object' };
    }
    var answer = parsed.value;
    var claimed = claimedPairs(hasOwn(answer, 'faults') ? answer.faults : undefined);
    if (claimed === null) return { status: 'unparseable', answer: null, claimed: null, reason: 'faults has a wrong shape' };
    return { status: 'answer', answer: answer, claimed: claimed, reason: '' };
  }

  // ---------------------------------------------------------------------------------------
  // Rule 3: figures
  // ---------------------------------------------------------------------------------------

  var FIGURE = /^-?[0-9]+(?:\.[0-9]+)?$/;

  /** A model figure as an exact Decimal, or null when it does not read. */
  function readFigure(v) {
    if (v instanceof C.JsonNumber) return v.decimal;    // null when out of range (rule 3)
    if (typeof v === 'number') {
      // Only from callers that parsed with JSON.parse; its shortest text is its JSON value.
      var jn = C.asJsonNumber(v);
      return jn === null ? null : jn.decimal;
    }
    if (typeof v !== 'string') return null;
    var s = trimWs(v.replace(/[$,]/g, ''));
    if (!FIGURE.test(s)) return null;
    return C.parsePlainDecimal(s);
  }

  function scoreLabel(answer, label, keyValue) {
    if (!hasOwn(answer, label)) return { verdict: 'wrong', reason: 'missing' };
    var v = answer[label];
    var d = readFigure(v);
    if (d === null) {
      return { verdict: 'wrong', reason: typeof v === 'string' ? 'not a figure' : 'not a figure (' + typeName(v) + ')' };
    }
    if (d.equals(C.parsePlainDecimal(keyValue))) return { verdict: 'correct', reason: '' };
    return { verdict: 'wrong', reason: 'differs from the key (' + keyValue + ')' };
  }

  // ---------------------------------------------------------------------------------------
  // Rule 5: verdict rows
  // ---------------------------------------------------------------------------------------

  function truePairs(key) {
    var m = new Map();
    Object.keys(key.faults).forEach(function (id) { m.set(id, new Set(key.faults[id])); });
    return m;
  }

  /** [id, code] pairs of the union of the maps, sorted by id and then code (code points). */
  function sortedPairs(maps) {
    var out = [];
    var seen = new Map();
    maps.forEach(function (m) {
      m.forEach(function (codes, id) {
        var s = seen.get(id);
        if (!s) { s = new Set(); seen.set(id, s); }
        codes.forEach(function (c) {
          if (!s.has(c)) { s.add(c); out.push([id, c]); }
        });
      });
    });
    out.sort(function (x, y) { return compareCodePoints(x[0], y[0]) || compareCodePoints(x[1], y[1]); });
    return out;
  }

  function has(m, id, code) {
    var s = m.get(id);
    return s !== undefined && s.has(code);
  }

  /**
   * Score one response record of an au-bas item. Rows
   * {run, item, repeat, unit, kind, verdict, points, reason, order}: the four labels, then one
   * row per pair (rule 5). Throws when the item is malformed or its stored key is not the one
   * its ledger gives.
   */
  function scoreItem(item, record, run, repeat) {
    if (!isObjectValue(item)) throw new Error('item is not an object');
    var itemName = 'item ' + q(item.id);
    var key;
    try {
      key = deriveKey(item.ledger);
    } catch (e) {
      throw new Error(itemName + ': ' + e.message);
    }
    var diff = keyDifference(item.key, key);
    if (diff !== null) throw new Error(itemName + ': stored key differs from the ledger\'s: ' + diff);

    var trueMap = truePairs(key);
    var outcome = readResponse(record);
    var rows = [];
    // A fault row's order is its code when the code is one of the five of rule 1, else empty
    // (rule 5): the per-type figures are read from it.
    function push(unit, kind, verdict, reason, code) {
      rows.push({
        run: run,
        item: item.id,
        repeat: repeat,
        unit: unit,
        kind: kind,
        verdict: verdict,
        points: C.points(verdict),
        reason: reason,
        order: code !== undefined && CODES.indexOf(code) >= 0 ? code : ''
      });
    }
    if (outcome.status !== 'answer') {
      LABELS.forEach(function (l) { push(l, 'bas', outcome.status, outcome.reason); });
      sortedPairs([trueMap]).forEach(function (p) {
        push(p[0] + ':' + p[1], 'fault', outcome.status, outcome.reason, p[1]);
      });
      return rows;
    }
    LABELS.forEach(function (l) {
      var r = scoreLabel(outcome.answer, l, key[l]);
      push(l, 'bas', r.verdict, r.reason);
    });
    var claimed = outcome.claimed;
    sortedPairs([claimed, trueMap]).forEach(function (p) {
      var c = has(claimed, p[0], p[1]);
      var t = has(trueMap, p[0], p[1]);
      if (c && t) push(p[0] + ':' + p[1], 'fault', 'found', '', p[1]);
      else if (t) push(p[0] + ':' + p[1], 'fault', 'missed', 'a fault of the key not claimed', p[1]);
      else push(p[0] + ':' + p[1], 'fault', 'false_flag', 'claimed but not a fault of the key', p[1]);
    });
    return rows;
  }

  // ---------------------------------------------------------------------------------------
  // Rule 4: per-response figures
  // ---------------------------------------------------------------------------------------

  /**
   * The rule-4 figures of ONE response (the rows scoreItem gave for one item and repeat), read
   * from each row's verdict and order alone (what the agreement gate compares):
   * {bas_correct, fault_audit, bas_label_accuracy, fault_precision, fault_recall,
   *  num_flagged, parsed, total, failed, faulty, total_faulty, clean, audit_clean} and, for each
   * code, true_<code>, claimed_<code> and found_<code> (pairs of that code: true, claimed, correct;
   * an unknown code counts in none). A ledger is faulty when its key has a true pair: every true
   * pair has a row (found, missed, failed_call or unparseable, its code as the order).
   */
  function figures(rows) {
    if (!Array.isArray(rows)) throw new Error('rows is not an array');
    var labels = 0;
    var labelsCorrect = 0;
    var found = 0;
    var missed = 0;
    var falseFlag = 0;
    var parsed = 1;
    var failed = 0;
    var perCode = {};
    CODES.forEach(function (c) { perCode['true_' + c] = 0; perCode['claimed_' + c] = 0; perCode['found_' + c] = 0; });
    rows.forEach(function (r) {
      var code = CODES.indexOf(r.order) >= 0 ? r.order : null;
      switch (r.verdict) {
        case 'failed_call':
        case 'unparseable':
          parsed = 0;
          if (r.verdict === 'failed_call') failed = 1;
          if (code) perCode['true_' + code]++;
          break;
        case 'correct': labels++; labelsCorrect++; break;
        case 'wrong': labels++; break;
        case 'found':
          found++;
          if (code) { perCode['true_' + code]++; perCode['claimed_' + code]++; perCode['found_' + code]++; }
          break;
        case 'missed':
          missed++;
          if (code) perCode['true_' + code]++;
          break;
        case 'false_flag':
          falseFlag++;
          if (code) perCode['claimed_' + code]++;
          break;
        default: throw new Error('unknown verdict ' + q(r.verdict));
      }
    });
    var truePairs = 0;  // rows of true pairs: a known code, and a verdict a true pair can have
    rows.forEach(function (r) {
      if (CODES.indexOf(r.order) >= 0 && ['found', 'missed', 'failed_call', 'unparseable'].indexOf(r.verdict) >= 0) {
        truePairs++;
      }
    });
    var out;
    if (!parsed) {
      out = { bas_correct: 0, fault_audit: 0, bas_label_accuracy: 0, fault_precision: 0,
        fault_recall: 0, num_flagged: 0, parsed: 0, total: 0, failed: failed,
        faulty: truePairs > 0 ? 1 : 0, total_faulty: 0, clean: truePairs > 0 ? 0 : 1, audit_clean: 0 };
    } else {
      if (labels !== LABELS.length) throw new Error('expected ' + LABELS.length + ' label rows, got ' + labels);
      var claimed = found + falseFlag;
      var truth = found + missed;
      var basCorrect = labelsCorrect === LABELS.length ? 1 : 0;
      var audit = truth === 0 ? (claimed === 0 ? 1 : 0) : 2 * found / (claimed + truth);
      out = {
        bas_correct: basCorrect,
        fault_audit: audit,
        bas_label_accuracy: labelsCorrect / LABELS.length,
        fault_precision: claimed ? found / claimed : 0,
        fault_recall: truth ? found / truth : 0,
        num_flagged: claimed,
        parsed: 1,
        total: 0.6 * basCorrect + 0.4 * audit,
        failed: 0,
        faulty: truePairs > 0 ? 1 : 0,
        total_faulty: truePairs > 0 ? 0.6 * basCorrect + 0.4 * audit : 0,
        clean: truePairs > 0 ? 0 : 1,
        audit_clean: truePairs > 0 ? 0 : audit
      };
    }
    Object.keys(perCode).forEach(function (k) { out[k] = perCode[k]; });
    return out;
  }

  return {
    scoreItem: scoreItem,
    itemProblems: itemProblems,
    figures: figures,
    deriveKey: deriveKey,
    gstOf: function (amount) { return formatMoney(gstOf(ledgerDecimal(amount, 'amount'))); },
    readResponse: readResponse,
    answerBlock: answerBlock,
    readFigure: readFigure,
    compareCodePoints: compareCodePoints,
    CODES: CODES.slice(),
    LABELS: LABELS.slice()
  };
});
