/*
 * Tally scorer B: the extracting suite's scoring rules in plain JavaScript.
 *
 * Written from content/pages/scoring-extracting.md (the rule book) and docs/formats.md alone.
 * One classic script, no dependencies, no build step: under Node it is a CommonJS module, in a
 * browser it sets the global `TallyScorer`. Rule numbers in comments refer to the rule book.
 *
 * Values never pass through binary floating point: JSON numbers are parsed into JsonNumber
 * (the literal text plus an exact decimal), and decimals are compared and rounded on digit
 * strings and BigInt.
 */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module && module.exports) {
    module.exports = api;
  } else {
    root.TallyScorer = api;
  }
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  var MAX_DEPTH = 100;        // rule 1.1: the outer object is level 1
  var MAX_BRACES = 1000;      // rule 1.1: only the first 1,000 '{' are tried

  // ---------------------------------------------------------------------------------------
  // Exact decimals
  // ---------------------------------------------------------------------------------------

  /**
   * An exact decimal: (-1)^neg * coef * 10^exp, with coef a string of ASCII digits without
   * leading or trailing zeros (zero is coef "0", exp 0n, neg false) and exp a BigInt.
   */
  function Decimal(neg, coef, exp) {
    this.neg = neg;
    this.coef = coef;
    this.exp = exp;
  }

  Decimal.prototype.isZero = function () { return this.coef === '0'; };

  Decimal.prototype.equals = function (other) {
    return this.neg === other.neg && this.coef === other.coef && this.exp === other.exp;
  };

  /** True when the value is a whole number. */
  Decimal.prototype.isInteger = function () { return this.exp >= 0n; };

  /** Plain decimal text; only for reasons and tests (the exponent is kept when it is large). */
  Decimal.prototype.toString = function () {
    var sign = this.neg ? '-' : '';
    var c = this.coef;
    var e = this.exp;
    if (e >= 0n) {
      if (e > 40n) return sign + c + 'e' + e.toString();
      return sign + c + '0'.repeat(Number(e));
    }
    var fracLen = -e;
    if (fracLen > 40n + BigInt(c.length)) return sign + c + 'e' + e.toString();
    var n = Number(fracLen);
    if (c.length > n) return sign + c.slice(0, c.length - n) + '.' + c.slice(c.length - n);
    return sign + '0.' + '0'.repeat(n - c.length) + c;
  };

  /** A key that is equal for equal values (used for multiset matching of list elements). */
  Decimal.prototype.key = function () {
    return (this.neg ? '-' : '+') + this.coef + 'e' + this.exp.toString();
  };

  /**
   * Round half away from zero to `places` decimal places (rule 3.2, type number).
   */
  Decimal.prototype.roundHalfAway = function (places) {
    var p = BigInt(places);
    if (this.exp >= -p) return this;
    var drop = -p - this.exp;           // number of digits dropped, > 0
    var c = this.coef;
    var len = BigInt(c.length);
    var kept;
    var first;
    if (drop > len) {
      return makeDecimal(false, '0', 0n);
    } else if (drop === len) {
      kept = '0';
      first = c.charCodeAt(0);
    } else {
      var keepLen = c.length - Number(drop);
      kept = c.slice(0, keepLen);
      first = c.charCodeAt(keepLen);
    }
    if (first >= 0x35) kept = incrementDigits(kept);   // '5'..'9': away from zero
    return makeDecimal(this.neg, kept, -p);
  };

  /** Add one to a string of decimal digits (linear, whatever its length). */
  function incrementDigits(digits) {
    var k = digits.length - 1;
    while (k >= 0 && digits.charCodeAt(k) === 0x39) k--;
    if (k < 0) return '1' + '0'.repeat(digits.length);
    return digits.slice(0, k) + String.fromCharCode(digits.charCodeAt(k) + 1) + '0'.repeat(digits.length - k - 1);
  }

  /** Normalising constructor: strips leading and trailing zeros; zero has one form. */
  function makeDecimal(neg, digits, exp) {
    var i = 0;
    while (i < digits.length - 1 && digits.charCodeAt(i) === 0x30) i++;
    if (i > 0) digits = digits.slice(i);
    if (/^0*$/.test(digits)) return new Decimal(false, '0', 0n);
    var j = digits.length;
    while (digits.charCodeAt(j - 1) === 0x30) j--;
    if (j < digits.length) {
      exp += BigInt(digits.length - j);
      digits = digits.slice(0, j);
    }
    return new Decimal(neg, digits, exp);
  }

  /** sign (boolean negative), integer digits, fraction digits, exponent (BigInt). */
  function decimalFromParts(neg, intDigits, fracDigits, exp) {
    return makeDecimal(neg, intDigits + fracDigits, (exp || 0n) - BigInt(fracDigits.length));
  }

  var PLAIN_DECIMAL = /^([+-]?)([0-9]+)(?:\.([0-9]+))?$/;

  /** Parse a plain decimal string such as "1234.56" or "-3" (checked answers). */
  function parsePlainDecimal(s) {
    var m = PLAIN_DECIMAL.exec(s);
    if (!m) return null;
    return decimalFromParts(m[1] === '-', m[2], m[3] || '', 0n);
  }

  // ---------------------------------------------------------------------------------------
  // JSON numbers kept exactly
  // ---------------------------------------------------------------------------------------

  /** A JSON number: its literal text, its exact value, and whether it is an integer literal. */
  function JsonNumber(literal, decimal, integerLiteral) {
    this.literal = literal;
    this.decimal = decimal;
    this.integerLiteral = integerLiteral;
  }
  JsonNumber.prototype.toString = function () { return this.literal; };
  JsonNumber.prototype.toJSON = function () { return this.literal; };

  var NUMBER_RE = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

  function jsonNumberFromLiteral(text) {
    var m = NUMBER_RE.exec(text);
    if (!m) throw new Error('not a JSON number: ' + text);
    var dec = decimalFromParts(m[1] === '-', m[2], m[3] || '', m[4] !== undefined ? BigInt(m[4]) : 0n);
    return new JsonNumber(text, dec, m[3] === undefined && m[4] === undefined);
  }

  /**
   * Accept a number from either source: a JsonNumber (exact parse) or a plain JS number
   * (from JSON.parse of trusted files such as items). A JS number that is a safe integer is
   * an integer literal; any other JS number is taken from its shortest round-trip text.
   */
  function asJsonNumber(v) {
    if (v instanceof JsonNumber) return v;
    if (typeof v === 'number' && isFinite(v)) {
      if (Number.isSafeInteger(v)) return jsonNumberFromLiteral(String(v));
      var t = String(v);
      var m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:e([+-]?[0-9]+))?$/.exec(t);
      if (!m) return null;
      return new JsonNumber(t, decimalFromParts(m[1] === '-', m[2], m[3] || '',
        m[4] !== undefined ? BigInt(m[4]) : 0n), false);
    }
    return null;
  }

  function isNumberValue(v) {
    return v instanceof JsonNumber || (typeof v === 'number' && isFinite(v));
  }

  function isObjectValue(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
  }

  function hasOwn(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  // ---------------------------------------------------------------------------------------
  // Strict JSON parser (RFC 8259), iterative, depth-bounded
  // ---------------------------------------------------------------------------------------

  var NUMBER_STICKY = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  function isJsonWs(c) { return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; }

  function hexVal(c) {
    if (c >= 0x30 && c <= 0x39) return c - 0x30;
    if (c >= 0x41 && c <= 0x46) return c - 0x37;
    if (c >= 0x61 && c <= 0x66) return c - 0x57;
    return -1;
  }

  /**
   * Read a JSON string whose opening quote is at s[i]. Returns [value, indexAfter] or null.
   */
  function readString(s, i) {
    var n = s.length;
    var j = i + 1;
    var out = '';
    var start = j;
    while (j < n) {
      var c = s.charCodeAt(j);
      if (c === 0x22) {
        out += s.slice(start, j);
        return [out, j + 1];
      }
      if (c < 0x20) return null;        // unescaped control character
      if (c === 0x5c) {
        out += s.slice(start, j);
        if (j + 1 >= n) return null;
        var e = s.charCodeAt(j + 1);
        switch (e) {
          case 0x22: out += '"'; j += 2; break;
          case 0x5c: out += '\\'; j += 2; break;
          case 0x2f: out += '/'; j += 2; break;
          case 0x62: out += '\b'; j += 2; break;
          case 0x66: out += '\f'; j += 2; break;
          case 0x6e: out += '\n'; j += 2; break;
          case 0x72: out += '\r'; j += 2; break;
          case 0x74: out += '\t'; j += 2; break;
          case 0x75: {
            if (j + 6 > n) return null;
            var code = 0;
            for (var k = j + 2; k < j + 6; k++) {
              var h = hexVal(s.charCodeAt(k));
              if (h < 0) return null;
              code = code * 16 + h;
            }
            out += String.fromCharCode(code);
            j += 6;
            break;
          }
          default:
            return null;
        }
        start = j;
        continue;
      }
      j++;
    }
    return null;                        // unterminated
  }

  function newObject() { return Object.create(null); }

  /**
   * Parse one JSON value starting exactly at s[pos] (no leading whitespace skipped when
   * `exactStart`). Returns {ok: true, value, end} or {ok: false, pos, depth, openObjects}.
   * `openObjects` lists the start indices of objects still open at a failure that is not a
   * depth failure (used by the finder to skip braces that must fail the same way).
   */
  function parseValueAt(s, pos, maxDepth) {
    var n = s.length;
    var i = pos;
    // stack frames: {kind: 'o'|'a', value, key, start}
    var stack = [];
    // states: 0 = expect value, 1 = after value (in container), 2 = expect key or '}' (first),
    //         3 = expect key (after ','), 5 = expect value or ']' (first)
    var state = 0;
    var value;

    function fail(depth) {
      var opened = [];
      if (!depth) {
        for (var q = 0; q < stack.length; q++) if (stack[q].kind === 'o') opened.push(stack[q].start);
      }
      return { ok: false, pos: i, depth: !!depth, openObjects: opened };
    }

    for (;;) {
      if (state === 0 || state === 5) {
        while (i < n && isJsonWs(s.charCodeAt(i))) i++;
        if (i >= n) return fail(false);
        var c = s.charCodeAt(i);
        if (state === 5 && c === 0x5d) {     // ']' closes an empty array
          i++;
          value = stack.pop().value;
          state = 1;
        } else if (c === 0x7b) {             // '{'
          if (stack.length + 1 > maxDepth) return fail(true);
          stack.push({ kind: 'o', value: newObject(), key: null, start: i });
          i++;
          state = 2;
          continue;
        } else if (c === 0x5b) {             // '['
          if (stack.length + 1 > maxDepth) return fail(true);
          stack.push({ kind: 'a', value: [], key: null, start: i });
          i++;
          state = 5;
          continue;
        } else if (c === 0x22) {
          var r = readString(s, i);
          if (!r) return fail(false);
          value = r[0];
          i = r[1];
        } else if (c === 0x74) {
          if (s.startsWith('true', i)) { value = true; i += 4; } else return fail(false);
        } else if (c === 0x66) {
          if (s.startsWith('false', i)) { value = false; i += 5; } else return fail(false);
        } else if (c === 0x6e) {
          if (s.startsWith('null', i)) { value = null; i += 4; } else return fail(false);
        } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          NUMBER_STICKY.lastIndex = i;
          var m = NUMBER_STICKY.exec(s);
          if (!m) return fail(false);
          value = jsonNumberFromLiteral(m[0]);
          i += m[0].length;
        } else {
          return fail(false);
        }
        // a complete value: attach it
        if (stack.length === 0) return { ok: true, value: value, end: i };
        var top = stack[stack.length - 1];
        if (top.kind === 'a') top.value.push(value);
        else top.value[top.key] = value;   // a repeated key keeps its last value
        state = 1;
        continue;
      }
      if (state === 1) {
        while (i < n && isJsonWs(s.charCodeAt(i))) i++;
        if (i >= n) return fail(false);
        var d = s.charCodeAt(i);
        var frame = stack[stack.length - 1];
        if (d === 0x2c) {                    // ','
          i++;
          state = frame.kind === 'o' ? 3 : 0;
          continue;
        }
        if ((frame.kind === 'o' && d === 0x7d) || (frame.kind === 'a' && d === 0x5d)) {
          i++;
          value = stack.pop().value;
          if (stack.length === 0) return { ok: true, value: value, end: i };
          var parent = stack[stack.length - 1];
          if (parent.kind === 'a') parent.value.push(value);
          else parent.value[parent.key] = value;
          state = 1;
          continue;
        }
        return fail(false);
      }
      if (state === 2 || state === 3) {
        while (i < n && isJsonWs(s.charCodeAt(i))) i++;
        if (i >= n) return fail(false);
        var e = s.charCodeAt(i);
        if (state === 2 && e === 0x7d) {     // '{}'
          i++;
          value = stack.pop().value;
          if (stack.length === 0) return { ok: true, value: value, end: i };
          var par = stack[stack.length - 1];
          if (par.kind === 'a') par.value.push(value);
          else par.value[par.key] = value;
          state = 1;
          continue;
        }
        if (e !== 0x22) return fail(false);
        var ks = readString(s, i);
        if (!ks) return fail(false);
        i = ks[1];
        while (i < n && isJsonWs(s.charCodeAt(i))) i++;
        if (i >= n || s.charCodeAt(i) !== 0x3a) return fail(false);
        i++;
        var f = stack[stack.length - 1];
        f.key = ks[0];
        // A repeated key keeps its last value; delete first so the key takes its last position.
        if (hasOwn(f.value, ks[0])) delete f.value[ks[0]];
        state = 0;
        continue;
      }
    }
  }

  /**
   * Parse a whole JSON text (surrounding JSON whitespace allowed). Returns {ok, value}.
   * Used for input files (records, items) and vector `answer_json` snippets.
   */
  function parseJSON(text, maxDepth) {
    var s = String(text);
    var i = 0;
    while (i < s.length && isJsonWs(s.charCodeAt(i))) i++;
    var r = parseValueAt(s, i, maxDepth || 100000);
    if (!r.ok) return { ok: false, pos: r.pos };
    var j = r.end;
    while (j < s.length && isJsonWs(s.charCodeAt(j))) j++;
    if (j !== s.length) return { ok: false, pos: j };
    return { ok: true, value: r.value };
  }

  /**
   * Rule 1.1: the first of the first 1,000 '{' characters at which a complete JSON object
   * begins gives the answer object. Returns the object, or null.
   */
  function firstObject(text) {
    if (typeof text !== 'string') return null;
    var known = new Set();        // brace positions known to fail
    var idx = -1;
    for (var tried = 0; tried < MAX_BRACES; tried++) {
      idx = text.indexOf('{', idx + 1);
      if (idx < 0) return null;
      if (known.has(idx)) continue;
      var r = parseValueAt(text, idx, MAX_DEPTH);
      if (r.ok) return r.value;
      // Objects still open at a non-depth failure would fail at the same place on their own.
      for (var k = 0; k < r.openObjects.length; k++) known.add(r.openObjects[k]);
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------
  // Whitespace and text (rule 3.3)
  // ---------------------------------------------------------------------------------------

  var WS_CLASS = '\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
  var WS_RUN = new RegExp('[' + WS_CLASS + ']+', 'g');
  var WS_ONLY = new RegExp('^[' + WS_CLASS + ']*$');

  function isWs(ch) {
    var c = ch.charCodeAt(0);
    return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0 || c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
      c === 0x205f || c === 0x3000;
  }

  function trimWs(s) {
    // Written as loops rather than an end-anchored regex to stay linear on long whitespace runs.
    var a = 0;
    var b = s.length;
    while (a < b && isWs(s[a])) a++;
    while (b > a && isWs(s[b - 1])) b--;
    return s.slice(a, b);
  }

  function normalizeText(s) {
    var t = s.normalize('NFC').toLowerCase();
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

  function typeName(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    if (isNumberValue(v)) return 'a number';
    if (typeof v === 'boolean') return 'a boolean';
    if (typeof v === 'string') return 'a string';
    return 'an object';
  }

  function readNumeric(v, type, locale) {
    var dec;
    if (isNumberValue(v)) {
      dec = asJsonNumber(v).decimal;
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

  var ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

  function dateExists(y, m, d) {
    if (m < 1 || m > 12 || d < 1) return false;
    var leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    var days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
    return d <= days;
  }

  function readDate(v) {
    if (typeof v !== 'string') return { ok: false, reason: 'not an ISO date' };
    var s = trimWs(v);
    var m = ISO_DATE.exec(s);
    if (!m || !dateExists(+m[1], +m[2], +m[3])) return { ok: false, reason: 'not an ISO date' };
    return { ok: true, value: s };
  }

  function readCurrency(v) {
    if (typeof v !== 'string') return { ok: false, reason: 'not a currency code (' + typeName(v) + ')' };
    return { ok: true, value: trimWs(v).toUpperCase() };
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
        return trimWs(a).toUpperCase();
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
  // Records (rule 1)
  // ---------------------------------------------------------------------------------------

  /** The status as a Decimal when it is a JSON number of integer value (200, 200.0, 2e2). */
  function integerStatus(v) {
    if (!isNumberValue(v)) return null;       // strings, booleans, null are not integers
    var d = asJsonNumber(v).decimal;
    return d.isInteger() ? d : null;
  }

  function inRange2xx(d) {
    if (d.neg || !d.isInteger() || d.exp > 2n || d.coef.length > 3) return false;
    var n = BigInt(d.coef) * (10n ** d.exp);
    return n >= 200n && n <= 299n;
  }

  /**
   * Rule 1: {status: 'failed_call'|'unparseable'|'answer', answer, reason}.
   */
  function readOutcome(record) {
    if (!isObjectValue(record)) return { status: 'failed_call', answer: null, reason: 'record is not an object' };
    var attempts = record.attempts;
    if (!Array.isArray(attempts) || attempts.length === 0) {
      return { status: 'failed_call', answer: null, reason: 'no attempts' };
    }
    var last = attempts[attempts.length - 1];
    if (!isObjectValue(last)) return { status: 'failed_call', answer: null, reason: 'last attempt is not an object' };
    // An absent key, null and the empty string are no error; any other value is one.
    if (last.error !== null && last.error !== undefined && last.error !== '') {
      return { status: 'failed_call', answer: null, reason: 'error: ' + (typeof last.error === 'string' ? last.error : stringify(last.error)) };
    }
    var st = integerStatus(last.status);
    if (!st || !inRange2xx(st)) {
      var shown = stringify(last.status);
      return { status: 'failed_call', answer: null, reason: 'status ' + shown };
    }
    var resp = record.response;
    if (!isObjectValue(resp)) return { status: 'failed_call', answer: null, reason: 'response is not an object' };
    var choices = resp.choices;
    if (!Array.isArray(choices) || choices.length === 0) {
      return { status: 'unparseable', answer: null, reason: 'no choices' };
    }
    var ch = choices[0];
    var msg = isObjectValue(ch) ? ch.message : undefined;
    var content = isObjectValue(msg) ? msg.content : undefined;
    if (typeof content !== 'string') {
      return { status: 'unparseable', answer: null, reason: 'content is not a string' };
    }
    var obj = firstObject(content);
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
        points: res.verdict === 'correct' || res.verdict === 'null_ok' ? 1 : 0,
        reason: res.reason,
        order: res.order
      };
    });
  }

  /** JSON text of a value that may hold JsonNumber (written as its literal). */
  function stringify(v) {
    if (v instanceof JsonNumber) return v.literal;
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number') return isFinite(v) ? String(v) : 'null';
    if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
    if (Array.isArray(v)) return '[' + v.map(stringify).join(',') + ']';
    var parts = [];
    Object.keys(v).forEach(function (k) {
      if (v[k] !== undefined) parts.push(JSON.stringify(k) + ':' + stringify(v[k]));
    });
    return '{' + parts.join(',') + '}';
  }

  return {
    readOutcome: readOutcome,
    firstObject: firstObject,
    scoreField: scoreField,
    scoreItem: scoreItem,
    parseJSON: parseJSON,
    stringify: stringify,
    normalizeText: normalizeText,
    readLocaleString: readLocaleString,
    parsePlainDecimal: parsePlainDecimal,
    Decimal: Decimal,
    JsonNumber: JsonNumber,
    LOCALES: Object.keys(LOCALES),
    MAX_DEPTH: MAX_DEPTH,
    MAX_BRACES: MAX_BRACES
  };
});
