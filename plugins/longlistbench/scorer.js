/*
 * Tally scorer B, LongListBench suite: how a reply (a long list of records) is scored against a
 * document's gold records.
 *
 * Written from content/pages/scoring-longlistbench.md (the rule page) alone; section numbers in
 * comments refer to that page. One classic script, no build step, loaded after scorer B's core
 * (scorer-js/core.js, the global TallyCore), whose exact JSON parser, decimals, White_Space and
 * case helpers and record reader it uses. It registers itself as 'longlistbench'; under Node it
 * is also a CommonJS module exporting its api.
 *
 * Numbers never pass through binary floating point: they are the core's exact decimals, rounded
 * half-even on digit strings. Record matching (4.2) never loops over every gold x predicted pair:
 * candidates come from an index of field pairs to the predicted records that hold them.
 *
 * Readings where the page leaves room (each also listed in the author's report):
 * - 3.2.4: a change that leaves an empty text (`clause_scope` of "applies within ;x") keeps the
 *   empty text "" (a text, so the key stays and gives a pair); only null drops a key.
 * - 3.2.1: the 10^100 bound of a non-integer number is tested on its value as written, before
 *   the rounding to 6 places.
 * - 3.2.5: object keys are ordered by the code points of the key text itself (not of its escaped
 *   form).
 * - 2.2 and 3.1: the page says "exactly these 23 keys" and "the 19 keys other than bi, pd, lae,
 *   ded", but its table lists 24 keys (14 strings, 5 optional strings, claimants, 4 amounts), as
 *   LongListBench's LossRunIncident has. The listed keys decide: an incident has those 24 keys and
 *   20 of them give one pair each.
 */
(function (root, factory) {
  'use strict';
  var C = root.TallyCore;
  if (!C || typeof C.register !== 'function') {
    throw new Error('the longlistbench scorer needs scorer B\'s core: load core.js (TallyCore) first');
  }
  var api = factory(C);
  C.register('longlistbench', api);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function (C) {
  'use strict';

  var hasOwn = C.hasOwn;
  var isObjectValue = C.isObjectValue;
  var trimWs = C.trimWs;
  var lower14 = C.lower14;

  // ---------------------------------------------------------------------------------------
  // Section 3: terms (whitespace, collapse, decimals, dates, region codes)
  // ---------------------------------------------------------------------------------------

  var WS_RUN = new RegExp('[' + C.WS_CLASS + ']+', 'g');

  /** Printable ASCII words separated by single spaces: already collapsed (a fast path). */
  var COLLAPSED_ASCII = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

  /** Trim, then every run of White_Space to one U+0020. */
  function collapse(s) {
    if (COLLAPSED_ASCII.test(s)) return s;
    return trimWs(s).replace(WS_RUN, ' ');
  }

  /** Compare two strings by Unicode code points (a lone surrogate is its own code point). */
  function compareCodePoints(a, b) {
    if (a === b) return 0;
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n;) {
      var x = a.codePointAt(i);
      var y = b.codePointAt(i);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1;
    }
    return a.length < b.length ? -1 : (a.length > b.length ? 1 : 0);
  }

  /** Decimal canonical form: plain notation, no trailing fraction zeros, zero is "0". */
  function decimalText(d) {
    if (d.coef === '0') return '0';
    var sign = d.neg ? '-' : '';
    var c = d.coef;
    if (d.exp >= 0n) return sign + c + '0'.repeat(Number(d.exp));
    var n = Number(-d.exp);
    if (c.length > n) return sign + c.slice(0, c.length - n) + '.' + c.slice(c.length - n);
    return sign + '0.' + '0'.repeat(n - c.length) + c;
  }

  /** Add one to a string of decimal digits. */
  function incrementDigits(digits) {
    var k = digits.length - 1;
    while (k >= 0 && digits.charCodeAt(k) === 0x39) k--;
    if (k < 0) return '1' + '0'.repeat(digits.length);
    return digits.slice(0, k) + String.fromCharCode(digits.charCodeAt(k) + 1) + '0'.repeat(digits.length - k - 1);
  }

  /** Half-even rounding of an exact decimal to `places` decimal places (section 3, terms). */
  function roundHalfEven(d, places) {
    var p = BigInt(places);
    if (d.exp >= -p) return d;
    var drop = -p - d.exp;                 // digits dropped, > 0
    var c = d.coef;
    var len = BigInt(c.length);
    if (drop > len) return C.decimalFromParts(false, '0', '', 0n);   // below half a unit
    var keepLen = Number(len - drop);
    var kept = keepLen > 0 ? c.slice(0, keepLen) : '0';
    var rest = c.slice(keepLen);           // non-empty; its last digit is not 0
    var first = rest.charCodeAt(0);
    var up;
    if (first !== 0x35) up = first > 0x35;
    else if (rest.length > 1) up = true;   // more than half
    else up = (kept.charCodeAt(kept.length - 1) - 0x30) % 2 === 1;   // a tie: to even
    if (up) kept = incrementDigits(kept);
    return C.decimalFromParts(d.neg, kept, '', -p);
  }

  /** The exact decimal of a JSON number (JsonNumber or plain JS number), null when out of range. */
  function numberDecimal(v) {
    var n = C.asJsonNumber(v);
    return n === null ? null : n.decimal;
  }

  var DATE_FORMS = [
    { re: /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/, y: 3, m: 1, d: 2, short: false },
    { re: /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{2})$/, y: 3, m: 1, d: 2, short: true },
    { re: /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$/, y: 1, m: 2, d: 3, short: false },
    { re: /^([0-9]{4})\/([0-9]{1,2})\/([0-9]{1,2})$/, y: 1, m: 2, d: 3, short: false },
    { re: /^([0-9]{1,2})-([0-9]{1,2})-([0-9]{4})$/, y: 3, m: 1, d: 2, short: false }
  ];

  function daysIn(y, m) {
    if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
    return [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  }

  function pad(n, w) {
    var s = String(n);
    while (s.length < w) s = '0' + s;
    return s;
  }

  /** The date canonical form MM/DD/YYYY of a text in one of the date forms, else null. */
  function dateCanonical(t) {
    var c0 = t.charCodeAt(0);
    if (t.length < 6 || t.length > 10 || c0 < 0x30 || c0 > 0x39) return null;   // no form fits
    for (var i = 0; i < DATE_FORMS.length; i++) {
      var f = DATE_FORMS[i];
      var m = f.re.exec(t);
      if (m === null) continue;
      var y = parseInt(m[f.y], 10);
      if (f.short) y += y <= 68 ? 2000 : 1900;
      var mo = parseInt(m[f.m], 10);
      var d = parseInt(m[f.d], 10);
      if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return null;
      return pad(mo, 2) + '/' + pad(d, 2) + '/' + pad(y, 4);
    }
    return null;
  }

  var REGIONS = {
    'alabama': 'al', 'alaska': 'ak', 'alberta': 'ab', 'arizona': 'az', 'arkansas': 'ar',
    'british columbia': 'bc', 'california': 'ca', 'colorado': 'co', 'connecticut': 'ct',
    'delaware': 'de', 'district of columbia': 'dc', 'florida': 'fl', 'georgia': 'ga',
    'hawaii': 'hi', 'idaho': 'id', 'illinois': 'il', 'indiana': 'in', 'iowa': 'ia',
    'kansas': 'ks', 'kentucky': 'ky', 'louisiana': 'la', 'maine': 'me', 'manitoba': 'mb',
    'maryland': 'md', 'massachusetts': 'ma', 'michigan': 'mi', 'minnesota': 'mn',
    'mississippi': 'ms', 'missouri': 'mo', 'montana': 'mt', 'nebraska': 'ne', 'nevada': 'nv',
    'new brunswick': 'nb', 'new hampshire': 'nh', 'new jersey': 'nj', 'new mexico': 'nm',
    'new york': 'ny', 'newfoundland and labrador': 'nl', 'newfoundland': 'nl',
    'north carolina': 'nc', 'north dakota': 'nd', 'northwest territories': 'nt',
    'nova scotia': 'ns', 'nunavut': 'nu', 'ohio': 'oh', 'oklahoma': 'ok', 'ontario': 'on',
    'oregon': 'or', 'pennsylvania': 'pa', 'prince edward island': 'pe', 'puerto rico': 'pr',
    'quebec': 'qc', 'rhode island': 'ri', 'saskatchewan': 'sk', 'south carolina': 'sc',
    'south dakota': 'sd', 'tennessee': 'tn', 'texas': 'tx', 'utah': 'ut', 'vermont': 'vt',
    'virginia': 'va', 'washington': 'wa', 'washington dc': 'dc', 'west virginia': 'wv',
    'wisconsin': 'wi', 'wyoming': 'wy', 'yukon': 'yt'
  };
  var REGION_PAREN = /\(([a-z]{2})\)$/;

  /** Region code of a lowered, trimmed, non-empty text. */
  function regionCode(t) {
    var m = REGION_PAREN.exec(t);
    if (m !== null) return m[1];
    return hasOwn(REGIONS, t) ? REGIONS[t] : t;
  }

  // ---------------------------------------------------------------------------------------
  // 3.1: canonical incidents
  // ---------------------------------------------------------------------------------------

  var TEXT_KEYS = ['incident_number', 'reference_number', 'company_name', 'division', 'coverage_type',
    'status', 'policy_number', 'policy_state', 'description', 'handler', 'date_of_loss', 'loss_state',
    'date_reported', 'insured'];
  var OPTIONAL_KEYS = ['cause_code', 'unit_number', 'agency', 'driver_name', 'adjuster_notes'];
  var AMOUNT_KEYS = ['bi', 'pd', 'lae', 'ded'];
  var AMOUNT_PARTS = ['reserve', 'paid', 'recovered', 'total_incurred'];
  /** The 20 keys that give one pair each, in a fixed order (the page's "19" miscounts its own table). */
  var PAIR_KEYS = TEXT_KEYS.concat(OPTIONAL_KEYS, ['claimants']);
  var INCIDENT_KEYS = PAIR_KEYS.concat(AMOUNT_KEYS);
  var KEY_PREFIXES = ['incident #', 'incident#', 'incident ', '#', 'inc'];

  /** Why a value is not an incident of rule 2.2, or null when it is one. */
  function incidentProblem(v) {
    if (!isObjectValue(v)) return 'is not an object';
    var keys = Object.keys(v);
    for (var i = 0; i < keys.length; i++) {
      if (INCIDENT_KEYS.indexOf(keys[i]) < 0) return 'has the unknown key ' + JSON.stringify(keys[i]);
    }
    for (i = 0; i < INCIDENT_KEYS.length; i++) {
      if (!hasOwn(v, INCIDENT_KEYS[i])) return 'lacks the key ' + INCIDENT_KEYS[i];
    }
    for (i = 0; i < TEXT_KEYS.length; i++) {
      if (typeof v[TEXT_KEYS[i]] !== 'string') return TEXT_KEYS[i] + ' is not a string';
    }
    for (i = 0; i < OPTIONAL_KEYS.length; i++) {
      var o = v[OPTIONAL_KEYS[i]];
      if (o !== null && typeof o !== 'string') return OPTIONAL_KEYS[i] + ' is neither a string nor null';
    }
    if (!Array.isArray(v.claimants) || !v.claimants.every(function (c) { return typeof c === 'string'; })) {
      return 'claimants is not an array of strings';
    }
    for (i = 0; i < AMOUNT_KEYS.length; i++) {
      var b = v[AMOUNT_KEYS[i]];
      if (!isObjectValue(b) || Object.keys(b).length !== 4) return AMOUNT_KEYS[i] + ' is not an object of the four amounts';
      for (var j = 0; j < AMOUNT_PARTS.length; j++) {
        var a = hasOwn(b, AMOUNT_PARTS[j]) ? b[AMOUNT_PARTS[j]] : undefined;
        if (!C.isNumberValue(a) || numberDecimal(a) === null) {
          return AMOUNT_KEYS[i] + '.' + AMOUNT_PARTS[j] + ' is not a number in range';
        }
      }
    }
    return null;
  }

  /** Trimmed and lowered; null stays null, and empty becomes null when `emptyNull`. */
  function lowerTrim(v, emptyNull) {
    if (v === null) return null;
    var t = lower14(trimWs(v));
    return emptyNull && t === '' ? null : t;
  }

  var TRAILING_DIGITS = /[0-9]{5,}$/;

  /** The canonical value of one of the 20 pair keys of a valid incident (3.1, rules 2-8). */
  function incidentValue(k, v) {
    switch (k) {
      case 'claimants': {
        var out = [];
        v.forEach(function (c) {
          var t = trimWs(c);
          if (t !== '') out.push(lower14(t));
        });
        return out.sort(compareCodePoints);
      }
      case 'date_of_loss':
      case 'date_reported': {
        var t = collapse(v);
        var d = dateCanonical(t);
        return d === null ? t : d;
      }
      case 'description':
        return trimWs(lower14(trimWs(v)).replace(/\.+$/, ''));
      case 'unit_number': {
        var u = lowerTrim(v, true);
        if (u === null) return null;
        var m = TRAILING_DIGITS.exec(u);
        return m === null ? u : m[0];
      }
      case 'policy_state':
      case 'loss_state': {
        var s = lowerTrim(v, true);
        return s === null ? null : regionCode(s);
      }
      default:
        return lowerTrim(v, OPTIONAL_KEYS.indexOf(k) >= 0);
    }
  }

  /** The key of an incident from its canonical incident_number ('' for a key of its own). */
  function incidentKey(number) {
    var k = number;
    KEY_PREFIXES.forEach(function (p) {
      if (k.startsWith(p)) k = k.slice(p.length);
    });
    return trimWs(k);
  }

  function valueTag(v) {
    if (v === null) return 'n';
    if (typeof v === 'string') return 's' + v;
    return 'l' + JSON.stringify(v);          // claimants (an array of strings)
  }

  /**
   * A canonical incident: {key ('' = a key of its own), pairs (pair keys, with repetition),
   * whole (its 24 canonical values as one text, for exact incidents), values}.
   */
  function canonicalIncident(v) {
    var values = Object.create(null);
    PAIR_KEYS.forEach(function (k) { values[k] = incidentValue(k, v[k]); });
    AMOUNT_KEYS.forEach(function (k) {
      AMOUNT_PARTS.forEach(function (p) {
        values[k + '.' + p] = roundHalfEven(numberDecimal(v[k][p]), 2);
      });
    });
    var key = incidentKey(values.incident_number);
    var prefix = key.length + ':' + key;
    var pairs = [];
    var whole = [];
    PAIR_KEYS.forEach(function (k) {
      pairs.push(prefix + k + '\u0000' + valueTag(values[k]));
      whole.push(values[k]);
    });
    AMOUNT_KEYS.forEach(function (k) {
      AMOUNT_PARTS.forEach(function (p) {
        var d = values[k + '.' + p];
        if (!d.isZero()) pairs.push(prefix + k + '.' + p + '\u0000d' + d.key());
        whole.push(d.key());
      });
    });
    return { key: key, pairs: pairs, whole: JSON.stringify(whole), values: values };
  }

  // ---------------------------------------------------------------------------------------
  // 3.2: canonical records
  // ---------------------------------------------------------------------------------------

  var ZERO_PADDED = /^-?0[0-9]+$/;
  var DECIMAL_LIKE = /^-?\$?[0-9][0-9,]*(\.[0-9]+)?$/;
  var PAREN_DECIMAL = /^\( ?\$?-?[0-9][0-9,]*(\.[0-9]+)? ?\)$/;
  var ALL_WS = new RegExp('[' + C.WS_CLASS + ']', 'g');

  /** 3.2.3: a decimal-like string to its decimal canonical form. */
  function decimalLike(t) {
    var negative = t.charCodeAt(0) === 0x28 || t.charCodeAt(0) === 0x2d;   // '(' or '-'
    var digits = t.replace(/[,$() ]/g, '').replace(/^-/, '');
    var d = C.parsePlainDecimal(digits);
    if (d.isZero()) return '0';
    return (negative ? '-' : '') + decimalText(d);
  }

  /** 3.2.2: the canonical value of a string (a text, or null). */
  function canonicalString(s) {
    var t = collapse(s);
    if (t === '') return null;
    var date = dateCanonical(t);
    if (date !== null) return date;
    if (t.indexOf('%') >= 0) return lower14(t.replace(ALL_WS, ''));
    var c0 = t.charCodeAt(0);
    if ((c0 >= 0x30 && c0 <= 0x39) || c0 === 0x2d || c0 === 0x24 || c0 === 0x28) {   // 0-9 - $ (
      if (ZERO_PADDED.test(t)) return t;
      if (DECIMAL_LIKE.test(t) || PAREN_DECIMAL.test(t)) return decimalLike(t);
    }
    return lower14(t);
  }

  /** 3.2.1: the canonical value of a JSON number (a text, or null). */
  function canonicalNumber(v) {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);   // String(-0) is "0"
    if (v instanceof C.JsonNumber && v.integerLiteral && v.decimal !== null) {
      return v.literal === '-0' ? '0' : v.literal;   // a JSON integer literal is already canonical
    }
    var n = C.asJsonNumber(v);
    if (n === null || n.decimal === null) return null;
    var d = n.decimal;
    if (n.integerLiteral) return decimalText(d);
    // |d| >= 10^100 when its leading digit is at 10^100 or above (tested before rounding).
    if (!d.isZero() && BigInt(d.coef.length) - 1n + d.exp >= 100n) return null;
    return decimalText(roundHalfEven(d, 6));
  }

  /** The JSON string of serialisation S (3.2.5): pure ASCII, \\uxxxx lower-case escapes. */
  function serialString(s) {
    if (/^[\x20-\x21\x23-\x5b\x5d-\x7f]*$/.test(s)) return '"' + s + '"';
    var out = '"';
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += '\\\\';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x09) out += '\\t';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0c) out += '\\f';
      else if (c === 0x0d) out += '\\r';
      else if (c >= 0x20 && c <= 0x7f) out += s[i];
      else out += '\\u' + pad(c.toString(16), 4);
    }
    return out + '"';
  }

  var SURROGATE = /[\ud800-\udfff]/;

  function byS(a, b) { return a.s < b.s ? -1 : (a.s > b.s ? 1 : 0); }

  /** S of a canonical object whose entries are [key, {c, s}] (keys in code-point order). */
  function objectS(entries) {
    var surrogates = false;
    for (var i = 0; i < entries.length && !surrogates; i++) surrogates = SURROGATE.test(entries[i][0]);
    // Without surrogates, UTF-16 code unit order is code point order.
    entries.sort(surrogates ? function (a, b) { return compareCodePoints(a[0], b[0]); }
      : function (a, b) { return a[0] < b[0] ? -1 : (a[0] > b[0] ? 1 : 0); });
    var out = '{';
    for (i = 0; i < entries.length; i++) out += (i ? ',' : '') + serialString(entries[i][0]) + ':' + entries[i][1].s;
    return out + '}';
  }

  /** 3.2.1: {c: the canonical value, s: its serialisation S}. */
  function canonicalValue(v) {
    if (v === null || v === undefined) return { c: null, s: 'null' };
    if (v === true || v === false) return { c: v, s: v ? 'true' : 'false' };
    if (typeof v === 'string') {
      var t = canonicalString(v);
      return t === null ? { c: null, s: 'null' } : { c: t, s: serialString(t) };
    }
    if (C.isNumberValue(v)) {
      var n = canonicalNumber(v);
      return n === null ? { c: null, s: 'null' } : { c: n, s: serialString(n) };
    }
    if (Array.isArray(v)) {
      var items = v.map(canonicalValue).sort(byS);
      return { c: items.map(function (x) { return x.c; }), s: '[' + items.map(function (x) { return x.s; }).join(',') + ']' };
    }
    var obj = Object.create(null);
    var entries = Object.keys(v).map(function (k) {
      var x = canonicalValue(v[k]);
      obj[k] = x.c;
      return [k, x];
    });
    return { c: obj, s: objectS(entries) };
  }

  var SCHEDULE = new RegExp('^quarter return(?![' + C.LETTER_NUMBER_14 + '_])', 'u');
  var FUEL_PAREN = /\(([a-z0-9-]+)\)$/;
  var LOB = {
    'bpp': 'bop', 'businessowners': 'bop', 'businessowners policy': 'bop', 'business owners policy': 'bop',
    'commercial general liability': 'cgl',
    'workers compensation': 'wc', 'workers compensation and employers liability': 'wc',
    'workers\' compensation': 'wc', 'workers\' compensation and employers liability': 'wc'
  };
  var PERIOD_DATES = /[0-9]{1,2}\/[0-9]{1,2}\/[0-9]{2,4}|[0-9]{4}[-/][0-9]{1,2}[-/][0-9]{1,2}/g;

  /** 3.2.4: the record-level change of a top-level key's canonical text. */
  function recordField(k, t) {
    switch (k) {
      case 'vehicle':
        return trimWs(t.startsWith('unit ') ? t.slice(5) : t);
      case 'schedule':
        return trimWs(t.replace(SCHEDULE, 'quarterly return'));
      case 'jurisdiction':
      case 'state':
      case 'policy_state':
      case 'loss_state':
        return regionCode(t);
      case 'fuel_type': {
        var m = FUEL_PAREN.exec(t);
        if (m !== null) return m[1];
        return t === 'diesel' ? 'di' : t;
      }
      case 'lob':
        return hasOwn(LOB, t) ? LOB[t] : t;
      case 'policy_period': {
        var found = t.match(PERIOD_DATES);
        if (found === null || found.length !== 2) return t;
        return found.map(function (x) { var d = dateCanonical(x); return d === null ? x : d; }).join(' - ');
      }
      case 'clause_scope': {
        var r = trimWs(t.startsWith('applies within ') ? t.slice(15) : t);
        var semi = r.indexOf(';');
        return trimWs(semi < 0 ? r : r.slice(0, semi));   // may be "": a text, kept (see the top)
      }
      default:
        return t;
    }
  }

  var NO_PAIRS = ['record_type', 'record_id', 'applies_to_record_id', 'lob', 'policy_number',
    'policy_period', 'named_insured'];

  /** 3.2.6: push the pair keys of canonical value c under `path`. */
  function pushPairs(path, c, out) {
    if (c === null) return;
    if (typeof c === 'string') out.push(path.length + ':' + path + 's' + c);
    else if (c === true || c === false) out.push(path.length + ':' + path + 'b' + (c ? '1' : '0'));
    else if (Array.isArray(c)) c.forEach(function (x) { pushPairs(path, x, out); });
    else Object.keys(c).forEach(function (j) { pushPairs(path + '.' + j, c[j], out); });
  }

  /** A canonical record: {s (its S), values, pairs (Map pair key -> count), total (pairs with repetition)}. */
  function canonicalRecord(v) {
    var values = Object.create(null);
    var entries = [];
    var list = [];
    var keys = Object.keys(v);
    for (var i = 0; i < keys.length; i++) {
      var k = keys[i];
      var x = canonicalValue(v[k]);
      if (typeof x.c === 'string') {
        var t = recordField(k, x.c);
        if (t !== x.c) x = { c: t, s: serialString(t) };
      }
      if (x.c === null) continue;            // dropped
      values[k] = x.c;
      entries.push([k, x]);
      if (NO_PAIRS.indexOf(k) < 0) pushPairs(k, x.c, list);
    }
    var pairs = new Map();
    for (i = 0; i < list.length; i++) pairs.set(list[i], (pairs.get(list[i]) || 0) + 1);
    return { s: objectS(entries), values: values, pairs: pairs, total: list.length };
  }

  // ---------------------------------------------------------------------------------------
  // Section 4: the counts of one document
  // ---------------------------------------------------------------------------------------

  function countMap(keys) {
    var m = new Map();
    keys.forEach(function (k) { m.set(k, (m.get(k) || 0) + 1); });
    return m;
  }

  function intersectSize(a, b) {
    var n = 0;
    a.forEach(function (ca, k) {
      var cb = b.get(k);
      if (cb !== undefined) n += Math.min(ca, cb);
    });
    return n;
  }

  /** 4.1: counts of canonical incidents. */
  function countIncidents(gold, pred) {
    function side(list) {
      var pairs = [];
      var wholes = [];
      var total = 0;
      list.forEach(function (x) {
        total += x.pairs.length;
        if (x.key === '') return;             // a key of its own meets nothing
        for (var i = 0; i < x.pairs.length; i++) pairs.push(x.pairs[i]);
        wholes.push(x.whole);
      });
      return { pairs: countMap(pairs), wholes: countMap(wholes), total: total };
    }
    var g = side(gold);
    var p = side(pred);
    return {
      G: gold.length, P: pred.length, GP: g.total, PP: p.total,
      E: intersectSize(g.wholes, p.wholes), F: intersectSize(g.pairs, p.pairs)
    };
  }

  /** 4.2 step 3-4: the fan-out limit. */
  var MAX_FAN_OUT = 250;

  /** 4.2: counts of canonical records, with the matching ({..., matches: [[g, p], ...]} by sorted number). */
  function countRecords(goldIn, predIn) {
    var gold = goldIn.slice().sort(byS);
    var pred = predIn.slice().sort(byS);
    var G = gold.length;
    var P = pred.length;
    var GP = 0;
    var PP = 0;
    gold.forEach(function (r) { GP += r.total; });
    pred.forEach(function (r) { PP += r.total; });
    var gMatched = new Uint8Array(G);
    var pMatched = new Uint8Array(P);
    var matches = [];
    var E = 0;
    var F = 0;

    // Step 2: anchors (the highest-numbered identical prediction still free).
    var byText = new Map();
    pred.forEach(function (r, p) {
      var l = byText.get(r.s);
      if (l === undefined) byText.set(r.s, [p]);
      else l.push(p);
    });
    gold.forEach(function (r, g) {
      var l = byText.get(r.s);
      if (l === undefined || l.length === 0) return;
      var p = l.pop();
      gMatched[g] = 1;
      pMatched[p] = 1;
      matches.push([g, p]);
      E++;
      F += r.total;
    });

    // Step 3: each pair to the free predictions that hold it (p ascending, with its count).
    var index = new Map();
    pred.forEach(function (r, p) {
      if (pMatched[p]) return;
      r.pairs.forEach(function (cnt, x) {
        var l = index.get(x);
        if (l === undefined) index.set(x, [p, cnt]);
        else l.push(p, cnt);
      });
    });

    // Step 4: candidates, from the index (never every gold x prediction).
    var cm = [];
    var co = [];
    var cg = [];
    var cp = [];
    var score = new Float64Array(P);
    gold.forEach(function (r, g) {
      if (gMatched[g]) return;
      var touched = [];
      r.pairs.forEach(function (cnt, x) {
        var l = index.get(x);
        if (l === undefined || l.length / 2 > MAX_FAN_OUT) return;
        for (var i = 0; i < l.length; i += 2) {
          var p = l[i];
          if (score[p] === 0) touched.push(p);
          score[p] += Math.min(cnt, l[i + 1]);
        }
      });
      touched.forEach(function (p) {
        cm.push(score[p]);
        co.push(intersectSize(r.pairs, pred[p].pairs));
        cg.push(g);
        cp.push(p);
        score[p] = 0;
      });
    });

    // Step 5: greedy, descending by (m, o, g, p).
    var ord = new Uint32Array(cm.length);
    for (var i = 0; i < ord.length; i++) ord[i] = i;
    ord.sort(function (a, b) { return (cm[b] - cm[a]) || (co[b] - co[a]) || (cg[b] - cg[a]) || (cp[b] - cp[a]); });
    for (i = 0; i < ord.length; i++) {
      var k = ord[i];
      if (gMatched[cg[k]] || pMatched[cp[k]]) continue;
      gMatched[cg[k]] = 1;
      pMatched[cp[k]] = 1;
      matches.push([cg[k], cp[k]]);
      F += co[k];
    }
    return { G: G, P: P, GP: GP, PP: PP, E: E, F: F, matches: matches };
  }

  // ---------------------------------------------------------------------------------------
  // Section 1: items
  // ---------------------------------------------------------------------------------------

  /** The schema of an item from its gold list: 'records' or 'incidents'. */
  function schemaOf(gold) {
    if (gold.some(function (e) { return isObjectValue(e) && hasOwn(e, 'record_type'); })) return 'records';
    if (gold.length > 0 && !gold.some(function (e) { return isObjectValue(e) && hasOwn(e, 'incident_number'); })) return 'records';
    return 'incidents';
  }

  /** The problems of an item (section 1); [] when it is usable. */
  function itemProblems(item) {
    if (!isObjectValue(item)) return ['the item is not an object'];
    if (!hasOwn(item, 'gold')) return ['gold is missing'];
    var gold = item.gold;
    if (!Array.isArray(gold)) return ['gold is not an array'];
    var out = [];
    gold.forEach(function (e, i) {
      if (!isObjectValue(e)) out.push('gold[' + i + '] is not an object');
    });
    if (out.length || schemaOf(gold) !== 'incidents') return out;
    gold.forEach(function (e, i) {
      var p = incidentProblem(e);
      if (p !== null) out.push('gold[' + i + '] is not a valid incident: ' + p);
    });
    return out;
  }

  var goldCache = typeof WeakMap === 'function' ? new WeakMap() : null;

  /** The item's schema and canonical gold list (cached per item object); throws for an unusable item. */
  function goldOf(item) {
    if (goldCache !== null && isObjectValue(item) && goldCache.has(item)) return goldCache.get(item);
    var problems = itemProblems(item);
    if (problems.length) {
      throw new Error('item ' + JSON.stringify(isObjectValue(item) ? String(item.id) : '?') + ' is unusable: ' + problems.join('; '));
    }
    var schema = schemaOf(item.gold);
    var out = {
      schema: schema,
      list: item.gold.map(schema === 'incidents' ? canonicalIncident : canonicalRecord)
    };
    if (goldCache !== null) goldCache.set(item, out);
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // Section 2: from a stored response to a prediction
  // ---------------------------------------------------------------------------------------

  /**
   * The prediction of a record for a schema: {status: 'failed_call' | 'unparseable', reason} or
   * {status: 'answer', list} (the raw predicted elements).
   */
  function readPrediction(schema, record) {
    var r = C.readRecord(record);
    if (r.status === 'failed_call') return { status: 'failed_call', reason: 'failed call: ' + r.reason };
    if (r.status !== 'content') return { status: 'unparseable', reason: 'no message content: ' + r.reason };
    var parsed = C.readReplyJSON(C.stripFence(r.content));
    if (!parsed.ok) return { status: 'unparseable', reason: 'the reply is not one JSON text' };
    var v = parsed.value;
    var list;
    if (Array.isArray(v)) list = v;
    else if (isObjectValue(v) && schema === 'incidents') {
      var keys = Object.keys(v);
      if (keys.length !== 1 || keys[0] !== 'incidents' || !Array.isArray(v.incidents)) {
        return { status: 'unparseable', reason: 'an object other than {"incidents": [...]}' };
      }
      list = v.incidents;
    } else if (isObjectValue(v) && hasOwn(v, 'records') && Array.isArray(v.records)) {
      list = v.records;
    } else {
      return { status: 'unparseable', reason: 'the reply is ' + C.typeName(v) + ', not a list of ' + schema };
    }
    for (var i = 0; i < list.length; i++) {
      var p = schema === 'incidents' ? incidentProblem(list[i]) : (isObjectValue(list[i]) ? null : 'is not an object');
      if (p !== null) return { status: 'unparseable', reason: 'element ' + i + ' ' + p };
    }
    return { status: 'answer', list: list };
  }

  /** Section 4: the counts of a gold (canonical) and a raw predicted list. */
  function countDocument(schema, goldList, predRaw) {
    if (schema === 'incidents') return countIncidents(goldList, predRaw.map(canonicalIncident));
    return countRecords(goldList, predRaw.map(canonicalRecord));
  }

  // ---------------------------------------------------------------------------------------
  // Section 5: verdict rows
  // ---------------------------------------------------------------------------------------

  function scoreItem(item, record, run, repeat) {
    var gold = goldOf(item);
    var pred = readPrediction(gold.schema, record);
    var n = countDocument(gold.schema, gold.list, pred.status === 'answer' ? pred.list : []);
    var recordsVerdict;
    var fieldsVerdict;
    var recordsReason;
    var fieldsReason;
    if (pred.status !== 'answer') {
      recordsVerdict = fieldsVerdict = pred.status;
      recordsReason = fieldsReason = pred.reason;
    } else {
      recordsVerdict = n.E === n.G && n.G === n.P ? 'correct' : 'wrong';
      fieldsVerdict = n.F === n.GP && n.GP === n.PP ? 'correct' : 'wrong';
      recordsReason = n.E + ' of ' + n.G + ' records exact; ' + (n.P - n.E) + ' of ' + n.P + ' predicted not exact';
      fieldsReason = n.F + ' of ' + n.GP + ' field pairs found; ' + (n.PP - n.F) + ' of ' + n.PP + ' predicted extra';
    }
    function row(unit, verdict, reason, counts) {
      return {
        run: run, item: item.id, repeat: repeat, unit: unit, kind: unit, verdict: verdict,
        points: verdict === 'correct' ? 1 : 0, reason: reason, order: '', counts: counts
      };
    }
    return [
      row('records', recordsVerdict, recordsReason, [n.E, n.G, n.P]),
      row('fields', fieldsVerdict, fieldsReason, [n.F, n.GP, n.PP])
    ];
  }

  // ---------------------------------------------------------------------------------------
  // Section 6 (and 4.3): the per-item figures, read from the two rows' counts
  // ---------------------------------------------------------------------------------------

  /** A whole number of a row's counts: a JavaScript integer >= 0 or an exact JSON integer literal. */
  function wholeNumber(v) {
    if (v instanceof C.JsonNumber) v = /^(0|[1-9][0-9]*)$/.test(v.literal) ? Number(v.literal) : NaN;
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
  }

  /** The three counts of the row for `unit` ([E, G, P] or [F, GP, PP]); throws when it has none. */
  function rowCounts(row, unit) {
    var c = row && row.unit === unit && Array.isArray(row.counts) && row.counts.length === 3
      ? row.counts.map(wholeNumber) : null;
    if (c === null || c.indexOf(null) >= 0) throw new Error('not a ' + unit + ' row with counts [a, b, c] of whole numbers');
    return c;
  }

  /**
   * The per-item figures of section 6 from an item's two rows: exact, gold_records, pred_records,
   * complete, found, gold_pairs, pred_pairs, missed_pairs, extra_pairs, f1 (2F / (GP + PP), 0 when
   * GP + PP = 0), and for item pages precision F/PP and recall F/GP (0 when the denominator is 0)
   * and exact_recall E/G (null when G = 0: the page gives no value for it).
   */
  function figures(rows) {
    var r = rowCounts(rows[0], 'records');
    var f = rowCounts(rows[1], 'fields');
    var E = r[0], G = r[1], P = r[2], F = f[0], GP = f[1], PP = f[2];
    return {
      exact: E, gold_records: G, pred_records: P, complete: E === G && G === P ? 1 : 0,
      found: F, gold_pairs: GP, pred_pairs: PP, missed_pairs: GP - F, extra_pairs: PP - F,
      f1: GP + PP > 0 ? 2 * F / (GP + PP) : 0,
      precision: PP > 0 ? F / PP : 0,
      recall: GP > 0 ? F / GP : 0,
      exact_recall: G > 0 ? E / G : null
    };
  }

  return {
    scoreItem: scoreItem,
    figures: figures,
    itemProblems: itemProblems,
    schemaOf: schemaOf,
    readPrediction: readPrediction,
    countDocument: countDocument,
    countRecords: countRecords,
    countIncidents: countIncidents,
    canonicalIncident: canonicalIncident,
    canonicalRecord: canonicalRecord,
    canonicalValue: canonicalValue,
    canonicalString: canonicalString,
    canonicalNumber: canonicalNumber,
    incidentKey: incidentKey,
    incidentProblem: incidentProblem,
    recordField: recordField,
    dateCanonical: dateCanonical,
    regionCode: regionCode,
    roundHalfEven: roundHalfEven,
    decimalText: decimalText,
    serialString: serialString,
    collapse: collapse,
    compareCodePoints: compareCodePoints,
    MAX_FAN_OUT: MAX_FAN_OUT
  };
});
