/*
 * Tally scorer B, extracting suite: the scoring rules of the extracting suite in plain JavaScript.
 *
 * Written from content/pages/scoring-extracting.md (the rule book) and docs/formats.md alone.
 * Rule numbers in comments refer to the rule book. One classic script, no build step, loaded
 * after scorer B's core (scorer-js/core.js, the global TallyCore), whose exact JSON parser,
 * decimals and record reader it uses. It registers itself as 'extracting'
 * (TallyCore.scorer('extracting')); under Node it is also a CommonJS module exporting its api.
 *
 * Values never pass through binary floating point: JSON numbers are the core's JsonNumber
 * (the literal text plus an exact decimal), and decimals are compared and rounded on digit
 * strings and BigInt.
 */
(function (root, factory) {
  'use strict';
  var C = root.TallyCore;
  if (!C || typeof C.register !== 'function') {
    throw new Error('the extracting scorer needs scorer B\'s core: load core.js (TallyCore) first');
  }
  var api = factory(C);
  C.register('extracting', api);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function (C) {
  'use strict';

  var JsonNumber = C.JsonNumber;
  var Decimal = C.Decimal;
  var asJsonNumber = C.asJsonNumber;
  var isNumberValue = C.isNumberValue;
  var isObjectValue = C.isObjectValue;
  var hasOwn = C.hasOwn;
  var decimalFromParts = C.decimalFromParts;
  var parsePlainDecimal = C.parsePlainDecimal;
  var trimWs = C.trimWs;
  var typeName = C.typeName;

  // Rule 1.1 (the shared rules of "Reading a reply"): the core's first complete object.
  var MAX_DEPTH = C.REPLY_MAX_DEPTH;
  var MAX_BRACES = C.REPLY_MAX_BRACES;
  var firstObject = C.firstReplyObject;

  // ---------------------------------------------------------------------------------------
  // Whitespace and text (rule 3.3)
  // ---------------------------------------------------------------------------------------

  var WS_RUN = new RegExp('[' + C.WS_CLASS + ']+', 'g');
  var WS_ONLY = new RegExp('^[' + C.WS_CLASS + ']*$');

  function normalizeText(s) {
    // Rule 3.3: NFC and lower case of Unicode 14.0.0, piece by piece (the core's unicode14); a
    // capital sigma is lowered first, by 14.0.0's Final_Sigma condition (the core's finalSigma).
    var nfc = C.unicode14(s, function (piece) { return piece.normalize('NFC'); });
    var t = C.unicode14(C.finalSigma(nfc), function (piece) { return piece.toLowerCase(); });
    return trimWs(t.replace(WS_RUN, ' '));
  }

  // ---------------------------------------------------------------------------------------
  // Locale numbers (rule 3.1)
  // ---------------------------------------------------------------------------------------

  var LOCALES = {
    'en-US': { group: ',', decimal: '.' },
    'en-GB': { group: ',', decimal: '.' },
    'es-MX': { group: ',', decimal: '.' },
    'ja-JP': { group: ',', decimal: '.' },
    'de-DE': { group: '.', decimal: ',' },
    'fr-FR': { group: '\u202F\u00A0\u0020', decimal: ',' }
  };

  function escapeClass(chars) {
    return chars.split('').map(function (ch) {
      return '\\u' + ('0000' + ch.charCodeAt(0).toString(16)).slice(-4);
    }).join('');
  }

  var LOCALE_RE = {};
  Object.keys(LOCALES).forEach(function (loc) {
    var g = '[' + escapeClass(LOCALES[loc].group) + ']';
    var d = escapeClass(LOCALES[loc].decimal);
    LOCALE_RE[loc] = new RegExp('^([-+\\u2212]?)([0-9]+|[0-9]{1,3}(?:' + g + '[0-9]{3})+)(?:' + d +
      '([0-9]+))?$');
  });

  function checkLocale(locale) {
    if (typeof locale !== 'string' || !hasOwn(LOCALES, locale)) {
      throw new Error('unknown locale: ' + JSON.stringify(locale));
    }
  }

  var CURRENCY_MARKERS = ['US$', 'MX$', 'A$', 'C$', 'R$', '$', '\u20AC', '\u00A3', '\u00A5',
    '\uFFE5', '\u5186'];

  /** The grammar of rule 3.1 on an already stripped string; a Decimal or null. */
  function readGrammar(s, locale) {
    var m = LOCALE_RE[locale].exec(s);
    if (!m) return null;
    var intDigits = m[2].replace(/[^0-9]/g, '');
    return decimalFromParts(m[1] === '-' || m[1] === '\u2212', intDigits, m[3] || '', 0n);
  }

  /**
   * Read a model string as a number in the document's locale (rule 3.1).
   * type: 'money' (one currency marker may be removed), 'number' (one trailing % may be
   * removed) or 'count'. Returns a Decimal or null.
   */
  function readLocaleString(raw, locale, type) {
    checkLocale(locale);
    var s = trimWs(raw);
    if (type === 'number' && s.length > 0 && s[s.length - 1] === '%') {
      s = trimWs(s.slice(0, -1));
    }
    var v = readGrammar(s, locale);
    if (v || type !== 'money') return v;
    // One marker at the very start or the very end, with or without whitespace next to it.
    var candidates = [];
    var m3 = /^[A-Z]{3}/.exec(s);
    if (m3) candidates.push(s.slice(3));
    var e3 = /[A-Z]{3}$/.exec(s);
    if (e3) candidates.push(s.slice(0, s.length - 3));
    for (var k = 0; k < CURRENCY_MARKERS.length; k++) {
      var mk = CURRENCY_MARKERS[k];
      if (s.startsWith(mk)) candidates.push(s.slice(mk.length));
      if (s.endsWith(mk)) candidates.push(s.slice(0, s.length - mk.length));
    }
    // Refund notation: a sign right before a marker at the start, as in -$12.00 (the sign stays).
    var sign = s.charAt(0);
    if (sign === '-' || sign === '+' || sign === '\u2212') {
      var rest = s.slice(1);
      var markers = CURRENCY_MARKERS.filter(function (x) { return rest.startsWith(x); });
      if (/^[A-Z]{3}/.test(rest)) markers.push(rest.slice(0, 3));
      markers.forEach(function (x) { candidates.push(sign + trimWs(rest.slice(x.length))); });
    }
    for (var c = 0; c < candidates.length; c++) {
      var r = readGrammar(trimWs(candidates[c]), locale);
      if (r) return r;
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------
  // Reading values by type (rule 3). Each reader returns {ok: true, value} for a value
  // it can read or {ok: false, reason} for a value it cannot.
  // ---------------------------------------------------------------------------------------

  function readNumeric(v, type, locale) {
    var dec;
    if (isNumberValue(v)) {
      dec = asJsonNumber(v).decimal;
      if (dec === null) return { ok: false, reason: 'a number out of range' };   // rule 1.1
    } else if (typeof v === 'string') {
      dec = readLocaleString(v, locale, type);
      if (!dec) return { ok: false, reason: 'not a number in ' + locale };
    } else {
      return { ok: false, reason: 'not a number (' + typeName(v) + ')' };
    }
    return { ok: true, value: dec };
  }

  function readTextLike(v) {
    if (typeof v === 'string') return { ok: true, value: normalizeText(v) };
    if (isNumberValue(v)) {
      var jn = asJsonNumber(v);
      if (jn.integerLiteral) return { ok: true, value: normalizeText(jn.literal) };
      return { ok: false, reason: 'a number that is not an integer literal' };
    }
    return { ok: false, reason: 'not a string (' + typeName(v) + ')' };
  }

  function readDate(v) {
    if (typeof v !== 'string') return { ok: false, reason: 'not an ISO date' };
    var s = trimWs(v);
    if (!C.isIsoDate(s)) return { ok: false, reason: 'not an ISO date' };
    return { ok: true, value: s };
  }

  /** Upper case of Unicode 14.0.0 (rule 3.6). */
  function upper14(s) {
    return C.unicode14(s, function (piece) { return piece.toUpperCase(); });
  }

  function readCurrency(v) {
    if (typeof v !== 'string') return { ok: false, reason: 'not a currency code (' + typeName(v) + ')' };
    return { ok: true, value: upper14(trimWs(v)) };
  }

  /** Read a model value (known not to be null) for a scalar type. */
  function readModel(type, v, locale) {
    switch (type) {
      case 'money':
      case 'count':
      case 'number':
        return readNumeric(v, type, locale);
      case 'text':
      case 'identifier':
        return readTextLike(v);
      case 'date':
        return readDate(v);
      case 'currency':
        return readCurrency(v);
      default:
        throw new Error('unknown field type: ' + JSON.stringify(type));
    }
  }

  /** Read a checked answer (known not to be null) for a scalar type; throws when malformed. */
  function readChecked(type, a, name) {
    function bad() {
      return new Error('field ' + JSON.stringify(name) + ': malformed ' + type + ' answer ' +
        JSON.stringify(a instanceof JsonNumber ? a.literal : a));
    }
    switch (type) {
      case 'money':
      case 'number':
      case 'count': {
        var d = null;
        if (typeof a === 'string') d = parsePlainDecimal(a);
        else if (isNumberValue(a)) d = asJsonNumber(a).decimal;
        if (!d) throw bad();
        return d;
      }
      case 'text':
      case 'identifier':
        if (typeof a === 'string') return normalizeText(a);
        if (isNumberValue(a) && asJsonNumber(a).integerLiteral) return normalizeText(asJsonNumber(a).literal);
        throw bad();
      case 'date': {
        var r = readDate(a);
        if (!r.ok) throw bad();
        return r.value;
      }
      case 'currency':
        if (typeof a !== 'string') throw bad();
        return upper14(trimWs(a));
      default:
        throw new Error('unknown field type: ' + JSON.stringify(type));
    }
  }

  function valueEquals(type, model, checked, places) {
    if (type === 'money' || type === 'count') return model.equals(checked);
    if (type === 'number') {
      var m = places === undefined ? model : model.roundHalfAway(places);
      return m.equals(checked);
    }
    return model === checked;
  }

  /** Rule 1.2: absent, JSON null, and empty or whitespace-only strings are null. */
  function isNullValue(v) {
    if (v === undefined || v === null) return true;
    if (typeof v === 'string') return WS_ONLY.test(v);
    return false;
  }

  function readPlaces(field) {
    var p = field.places;
    if (p === undefined || p === null) {
      if (field.type === 'number') throw new Error('field ' + JSON.stringify(field.name) + ': number without places');
      return undefined;
    }
    var jn = asJsonNumber(p);
    if (!jn || !jn.integerLiteral || jn.decimal.neg) {
      throw new Error('field ' + JSON.stringify(field.name) + ': places must be a non-negative integer');
    }
    return Number(jn.literal);
  }

  // ---------------------------------------------------------------------------------------
  // Lists (rule 3.7)
  // ---------------------------------------------------------------------------------------

  function subKey(type, decOrText) {
    if (decOrText === null) return 'N';
    if (decOrText instanceof Decimal) return 'V' + decOrText.key();
    return 'V' + decOrText;
  }

  function checkedElementKey(el, subFields, name) {
    if (!isObjectValue(el)) throw new Error('field ' + JSON.stringify(name) + ': list answer element is not an object');
    var parts = [];
    for (var k = 0; k < subFields.length; k++) {
      var sf = subFields[k];
      var a = hasOwn(el, sf[0]) ? el[sf[0]] : undefined;
      parts.push(a === null || a === undefined ? 'N' : subKey(sf[1], readChecked(sf[1], a, name + '.' + sf[0])));
    }
    return JSON.stringify(parts);
  }

  /** A key for a model element, or null when the element matches nothing. */
  function modelElementKey(el, subFields, locale) {
    if (!isObjectValue(el)) return null;
    var parts = [];
    for (var k = 0; k < subFields.length; k++) {
      var sf = subFields[k];
      var v = hasOwn(el, sf[0]) ? el[sf[0]] : undefined;
      if (isNullValue(v)) { parts.push('N'); continue; }
      var r = readModel(sf[1], v, locale);
      if (!r.ok) return null;
      parts.push(subKey(sf[1], r.value));
    }
    return JSON.stringify(parts);
  }

  function scoreList(field, value, locale) {
    var itemFields = field.item_fields;
    if (!isObjectValue(itemFields)) throw new Error('field ' + JSON.stringify(field.name) + ': list without item_fields');
    var subFields = Object.keys(itemFields).map(function (k) {
      var t = itemFields[k];
      if (t === 'list') throw new Error('nested lists are not supported');
      return [k, t];
    });
    if (!Array.isArray(field.answer)) throw new Error('field ' + JSON.stringify(field.name) + ': list answer is not an array');
    if (!Array.isArray(value)) {
      return { verdict: 'wrong', reason: 'not a list (' + typeName(value) + ')', order: '' };
    }
    var checkedKeys = field.answer.map(function (el) { return checkedElementKey(el, subFields, field.name); });
    var modelKeys = value.map(function (el) { return modelElementKey(el, subFields, locale); });
    var counts = new Map();
    checkedKeys.forEach(function (k) { counts.set(k, (counts.get(k) || 0) + 1); });
    var extra = 0;
    modelKeys.forEach(function (k) {
      if (k !== null && counts.get(k) > 0) counts.set(k, counts.get(k) - 1);
      else extra++;
    });
    var missing = 0;
    counts.forEach(function (c) { missing += c; });
    if (missing === 0 && extra === 0) {
      var same = true;
      for (var i = 0; i < checkedKeys.length; i++) if (checkedKeys[i] !== modelKeys[i]) { same = false; break; }
      return { verdict: 'correct', reason: '', order: same ? 'same' : 'different' };
    }
    return {
      verdict: 'wrong',
      reason: missing + ' missing, ' + extra + ' extra',
      order: ''
    };
  }

  // ---------------------------------------------------------------------------------------
  // Fields (rules 2 and 3)
  // ---------------------------------------------------------------------------------------

  /**
   * Score one field. `value` is the parsed model value (undefined when the key is absent).
   * Returns {verdict, reason, order}.
   */
  function scoreField(field, value, locale) {
    checkLocale(locale);
    var type = field.type;
    var checkedNull = field.answer === null || field.answer === undefined;
    var modelNull = isNullValue(value);
    if (checkedNull) {
      if (modelNull) return { verdict: 'null_ok', reason: '', order: '' };
      return { verdict: 'invented', reason: 'a value for a field missing from the document', order: '' };
    }
    if (modelNull) return { verdict: 'false_null', reason: 'null for a field in the document', order: '' };
    if (type === 'list') return scoreList(field, value, locale);
    var places = readPlaces(field);
    var checked = readChecked(type, field.answer, field.name);
    var r = readModel(type, value, locale);
    if (!r.ok) return { verdict: 'wrong', reason: r.reason, order: '' };
    if (valueEquals(type, r.value, checked, places)) return { verdict: 'correct', reason: '', order: '' };
    return { verdict: 'wrong', reason: 'differs from checked answer', order: '' };
  }
  // ---------------------------------------------------------------------------------------
  // Items (rule 5): what makes an item usable; an empty list when nothing does
  // ---------------------------------------------------------------------------------------

  var TYPES = ['money', 'count', 'number', 'date', 'text', 'identifier', 'currency', 'list'];
  var KINDS = ['printed', 'computed', 'missing'];
  var SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;
  var CHECKED_DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;

  /** Why a checked answer (not null) is not one of `type` (rule 5), or null when it is one. */
  function checkedAnswerProblem(type, a) {
    switch (type) {
      case 'money':
      case 'number':
        return typeof a === 'string' && CHECKED_DECIMAL.test(a) ? null : 'must be a decimal string like "1234.50"';
      case 'count': {
        var jn = isNumberValue(a) ? asJsonNumber(a) : null;
        return jn && jn.integerLiteral ? null : 'must be a JSON integer';
      }
      case 'date':
        return C.isIsoDate(a) && a.slice(0, 4) !== '0000' ? null : 'must be a date YYYY-MM-DD from 0001-01-01';
      case 'currency':
        return typeof a === 'string' && /^[A-Z]{3}$/.test(a) ? null : 'must be an ISO 4217 code';
      case 'text':
      case 'identifier':
        return typeof a === 'string' && !WS_ONLY.test(a) ? null : 'must be a non-blank string';
      default:
        return 'unknown type';
    }
  }

  function fieldProblems(f, i) {
    if (!isObjectValue(f)) return ['fields[' + i + '] must be an object'];
    var where = typeof f.name === 'string' ? 'field ' + JSON.stringify(f.name) : 'fields[' + i + ']';
    var out = [];
    if (typeof f.name !== 'string' || !SAFE_NAME.test(f.name) || f.name.indexOf('..') >= 0) {
      out.push('fields[' + i + ']: name must be a safe identifier');
    }
    if (TYPES.indexOf(f.type) < 0) return out.concat([where + ': unknown type']);
    if (KINDS.indexOf(f.kind) < 0) out.push(where + ': unknown kind');
    var answer = hasOwn(f, 'answer') ? f.answer : null;
    if ((f.kind === 'missing') !== (answer === null)) out.push(where + ': answer is null exactly when kind is missing');
    if (f.type === 'number') {
      var p = f.places === undefined || f.places === null ? null : asJsonNumber(f.places);
      if (!p || !p.integerLiteral || p.decimal.neg || p.decimal.coef.length > 2 || Number(p.literal) > 10) {
        out.push(where + ': a number needs places, an integer from 0 to 10');
      }
    }
    if (f.type === 'list') {
      var sub = f.item_fields;
      var names = isObjectValue(sub) ? Object.keys(sub) : [];
      var subOk = names.length > 0 && names.every(function (k) {
        return TYPES.indexOf(sub[k]) >= 0 && sub[k] !== 'list' && sub[k] !== 'number';
      });
      if (!subOk) return out.concat([where + ': a list needs item_fields, an object of sub-field types']);
      if (answer === null) return out;
      if (!Array.isArray(answer)) return out.concat([where + ': answer must be an array']);
      answer.forEach(function (el, j) {
        var keys = isObjectValue(el) ? Object.keys(el) : null;
        if (!keys || keys.length !== names.length || !names.every(function (k) { return hasOwn(el, k); })) {
          out.push(where + '[' + j + ']: an object with exactly the keys ' + names.join(', '));
          return;
        }
        names.forEach(function (k) {
          var problem = checkedAnswerProblem(sub[k], el[k]);
          if (problem) out.push(where + '[' + j + '].' + k + ': ' + problem);
        });
      });
      return out;
    }
    if (answer !== null) {
      var problem = checkedAnswerProblem(f.type, answer);
      if (problem) out.push(where + ': answer ' + problem);
    }
    return out;
  }

  /** Rule 5: the problems of an item (its document.locale and fields); [] for a usable item. */
  function itemProblems(item) {
    if (!isObjectValue(item)) return ['an item must be an object'];
    var doc = item.document;
    var locale = isObjectValue(doc) ? doc.locale : undefined;
    var out = [];
    if (typeof locale !== 'string' || !hasOwn(LOCALES, locale)) {
      out.push('document.locale must be one of ' + Object.keys(LOCALES).join(', '));
    }
    var fields = item.fields;
    if (!Array.isArray(fields) || fields.length === 0) return out.concat(['fields must be a non-empty array']);
    var seen = new Set();
    fields.forEach(function (f, i) {
      out = out.concat(fieldProblems(f, i));
      if (isObjectValue(f)) {
        if (seen.has(f.name)) out.push('field names repeat');
        seen.add(f.name);
      }
    });
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // Records (rule 1)
  // ---------------------------------------------------------------------------------------

  /**
   * Rule 1: {status: 'failed_call'|'unparseable'|'answer', answer, reason}. A record without
   * message content (no choices, or content that is not a string) is unparseable.
   */
  function readOutcome(record) {
    var r = C.readRecord(record);
    if (r.status === 'failed_call') return { status: 'failed_call', answer: null, reason: r.reason };
    if (r.status !== 'content') return { status: 'unparseable', answer: null, reason: r.reason };
    var obj = firstObject(r.content);
    if (obj === null) return { status: 'unparseable', answer: null, reason: 'no JSON object in content' };
    return { status: 'answer', answer: obj, reason: '' };
  }

  // ---------------------------------------------------------------------------------------
  // Items
  // ---------------------------------------------------------------------------------------

  /**
   * Score one item's response record. Returns one verdict row per field of item.fields, in
   * order: {run, item, repeat, unit, kind, verdict, points, reason, order}.
   */
  function scoreItem(item, record, run, repeat) {
    var locale = item && item.document ? item.document.locale : undefined;
    checkLocale(locale);
    var fields = item.fields;
    if (!Array.isArray(fields)) throw new Error('item ' + JSON.stringify(item.id) + ': fields is not an array');
    var outcome = readOutcome(record);
    return fields.map(function (field) {
      var res;
      if (outcome.status === 'failed_call' || outcome.status === 'unparseable') {
        res = { verdict: outcome.status, reason: outcome.reason, order: '' };
      } else {
        var ans = outcome.answer;
        var v = hasOwn(ans, field.name) ? ans[field.name] : undefined;
        res = scoreField(field, v, locale);
      }
      return {
        run: run,
        item: item.id,
        repeat: repeat,
        unit: field.name,
        kind: field.kind,
        verdict: res.verdict,
        points: C.points(res.verdict),
        reason: res.reason,
        order: res.order
      };
    });
  }

  return {
    readOutcome: readOutcome,
    firstObject: firstObject,
    scoreField: scoreField,
    scoreItem: scoreItem,
    itemProblems: itemProblems,
    parseJSON: C.parseJSON,
    stringify: C.stringify,
    normalizeText: normalizeText,
    upper14: upper14,
    readLocaleString: readLocaleString,
    parsePlainDecimal: parsePlainDecimal,
    Decimal: Decimal,
    JsonNumber: JsonNumber,
    LOCALES: Object.keys(LOCALES),
    MAX_DEPTH: MAX_DEPTH,
    MAX_BRACES: MAX_BRACES
  };
});
