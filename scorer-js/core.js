/*
 * Tally scorer B: the core shared by every suite's scorer script.
 *
 * One classic script, no dependencies, no build step. It holds what is generic: the exact JSON
 * parser (numbers kept as JsonNumber: literal text plus an exact decimal), stringify, decimals
 * on digit strings and BigInt, the White_Space text helpers, the reading of a stored response
 * record (failed calls, the message content), and the registry of suite scorers.
 *
 * It names no suite and scores nothing itself: each suite ships its own scorer script, loaded
 * after this one, which calls TallyCore.register(name, api). Under Node this file is a CommonJS
 * module (and also sets globalThis.TallyCore when that is not set yet); loaded with a <script>
 * tag it sets the global TallyCore.
 *
 * Values never pass through binary floating point: decimals are compared and rounded on digit
 * strings and BigInt.
 */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module && module.exports) {
    module.exports = api;
    if (!root.TallyCore) root.TallyCore = api;
  } else {
    root.TallyCore = api;
  }
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

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

  /** A key that is equal for equal values (for matching values as multisets). */
  Decimal.prototype.key = function () {
    return (this.neg ? '-' : '+') + this.coef + 'e' + this.exp.toString();
  };

  /**
   * Round half away from zero to `places` decimal places.
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

  /** Parse a plain decimal string such as "1234.56" or "-3" (a sign, digits, an optional fraction). */
  function parsePlainDecimal(s) {
    var m = PLAIN_DECIMAL.exec(s);
    if (!m) return null;
    return decimalFromParts(m[1] === '-', m[2], m[3] || '', 0n);
  }

  // ---------------------------------------------------------------------------------------
  // JSON numbers kept exactly
  // ---------------------------------------------------------------------------------------

  /**
   * A JSON number: its literal text, its exact value (null for a number out of range), and
   * whether it is an integer literal.
   */
  function JsonNumber(literal, decimal, integerLiteral) {
    this.literal = literal;
    this.decimal = decimal;
    this.integerLiteral = integerLiteral;
  }
  JsonNumber.prototype.toString = function () { return this.literal; };
  JsonNumber.prototype.toJSON = function () { return this.literal; };

  var NUMBER_RE = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

  /**
   * A written exponent beyond +-1,000,000 makes a number out of range: still a complete JSON
   * number, but with no value (its `decimal` is null; it reads as no number and no text).
   */
  var MAX_EXPONENT = 1000000n;

  function exponentInRange(e) {
    var digits = e.replace(/^[+-]/, '').replace(/^0+/, '');
    return digits.length <= 7 && BigInt(digits || '0') <= MAX_EXPONENT;
  }

  function jsonNumberFromLiteral(text) {
    var m = NUMBER_RE.exec(text);
    if (!m) throw new Error('not a JSON number: ' + text);
    if (m[4] !== undefined && !exponentInRange(m[4])) return new JsonNumber(text, null, false);
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
   * depth failure (a caller searching a text for a JSON object can skip those braces: they
   * must fail the same way).
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
   * Used for input lines and files (items, records) and for JSON texts inside them.
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

  // ---------------------------------------------------------------------------------------
  // Output
  // ---------------------------------------------------------------------------------------

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

  // ---------------------------------------------------------------------------------------
  // Whitespace, type names, dates
  // ---------------------------------------------------------------------------------------

  /** Unicode White_Space as the inside of a RegExp character class. */
  var WS_CLASS = '\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';

  /** True when the UTF-16 code unit `c` is Unicode White_Space. */
  function isWs(c) {
    return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0 || c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
      c === 0x205f || c === 0x3000;
  }

  /** The string without White_Space at either end. */
  function trimWs(s) {
    // Written as loops rather than an end-anchored regex to stay linear on long whitespace runs.
    var a = 0;
    var b = s.length;
    while (a < b && isWs(s.charCodeAt(a))) a++;
    while (b > a && isWs(s.charCodeAt(b - 1))) b--;
    return s.slice(a, b);
  }

  /** The kind of a parsed JSON value, for reasons: 'null', 'an array', 'a number', ... */
  function typeName(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    if (isNumberValue(v)) return 'a number';
    if (typeof v === 'boolean') return 'a boolean';
    if (typeof v === 'string') return 'a string';
    return 'an object';
  }

  var ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

  function dateExists(y, m, d) {
    if (m < 1 || m > 12 || d < 1) return false;
    var leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    var days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
    return d <= days;
  }

  /** True when `s` is a string YYYY-MM-DD naming a day that exists (nothing around it). */
  function isIsoDate(s) {
    if (typeof s !== 'string') return false;
    var m = ISO_DATE.exec(s);
    return m !== null && dateExists(+m[1], +m[2], +m[3]);
  }

  // ---------------------------------------------------------------------------------------
  // Stored response records (docs/formats.md)
  // ---------------------------------------------------------------------------------------

  /** True when the status is a number of integer value 200 to 299 (200, 200.0 and 2e2 are 200). */
  function status2xx(v) {
    if (!isNumberValue(v)) return false;       // strings, booleans, null are not statuses
    var d = asJsonNumber(v).decimal;            // normalised: coef without leading or trailing zeros
    if (d === null || d.neg || !d.isInteger() || d.exp > 2n || d.coef.length > 3) return false;
    var n = BigInt(d.coef) * (10n ** d.exp);
    return n >= 200n && n <= 299n;
  }

  /**
   * Read a stored response record as far as its message content. Returns one of
   *   {status: 'failed_call', cause: 'call', reason}      the call failed: no attempts, or the
   *       last attempt's error is neither absent, null nor "", or its status is not a number of
   *       integer value 200 to 299 (or the record is not an object);
   *   {status: 'failed_call', cause: 'response', reason}  the record's response is not an object;
   *   {status: 'no_content', cause: 'choices' | 'content', reason}  there is no first choice, or
   *       its message content is not a string;
   *   {status: 'content', content, reason: ''}.
   * A suite decides what each outcome means for its verdicts (and may word reasons its own way).
   */
  function readRecord(record) {
    function failed(cause, reason) { return { status: 'failed_call', cause: cause, reason: reason }; }
    if (!isObjectValue(record)) return failed('call', 'record is not an object');
    var attempts = record.attempts;
    if (!Array.isArray(attempts) || attempts.length === 0) return failed('call', 'no attempts');
    var last = attempts[attempts.length - 1];
    if (!isObjectValue(last)) return failed('call', 'last attempt is not an object');
    // An absent key, null and the empty string are no error; any other value is one.
    if (last.error !== null && last.error !== undefined && last.error !== '') {
      return failed('call', 'error: ' + (typeof last.error === 'string' ? last.error : stringify(last.error)));
    }
    if (!status2xx(last.status)) return failed('call', 'status ' + stringify(last.status));
    var resp = record.response;
    if (!isObjectValue(resp)) return failed('response', 'response is not an object');
    var choices = resp.choices;
    if (!Array.isArray(choices) || choices.length === 0) {
      return { status: 'no_content', cause: 'choices', reason: 'no choices' };
    }
    var ch = choices[0];
    var msg = isObjectValue(ch) ? ch.message : undefined;
    var content = isObjectValue(msg) ? msg.content : undefined;
    if (typeof content !== 'string') {
      return { status: 'no_content', cause: 'content', reason: 'content is not a string' };
    }
    return { status: 'content', content: content, reason: '' };
  }

  // ---------------------------------------------------------------------------------------
  // Suite registry
  // ---------------------------------------------------------------------------------------

  var suites = Object.create(null);
  var order = [];

  /**
   * Register a suite scorer under `name`. `api` has at least
   * scoreItem(item, record, run, repeat) -> [{run, item, repeat, unit, kind, verdict, points,
   * reason, order}, ...]. Registering the same api again is harmless; another api under a name
   * already taken is an error.
   */
  function register(name, api) {
    if (typeof name !== 'string' || name === '') throw new Error('TallyCore.register: a suite scorer needs a non-empty name');
    if (api === null || typeof api !== 'object' || typeof api.scoreItem !== 'function') {
      throw new Error('TallyCore.register: suite scorer ' + JSON.stringify(name) + ' has no scoreItem function');
    }
    if (hasOwn(suites, name)) {
      if (suites[name] !== api) throw new Error('TallyCore.register: suite scorer ' + JSON.stringify(name) + ' is already registered');
      return api;
    }
    suites[name] = api;
    order.push(name);
    return api;
  }

  /** The api registered under `name`; throws a clear error for a name nobody registered. */
  function scorer(name) {
    if (typeof name === 'string' && hasOwn(suites, name)) return suites[name];
    throw new Error('unknown scorer ' + JSON.stringify(String(name)) + (order.length
      ? ' (registered: ' + order.join(', ') + ')'
      : ' (no suite scorer is loaded)'));
  }

  /** The registered names, in the order they were registered. */
  function names() { return order.slice(); }

  return {
    // exact JSON
    parseJSON: parseJSON,
    parseValueAt: parseValueAt,
    stringify: stringify,
    JsonNumber: JsonNumber,
    asJsonNumber: asJsonNumber,
    isNumberValue: isNumberValue,
    isObjectValue: isObjectValue,
    hasOwn: hasOwn,
    // exact decimals
    Decimal: Decimal,
    decimalFromParts: decimalFromParts,
    parsePlainDecimal: parsePlainDecimal,
    // text and dates
    WS_CLASS: WS_CLASS,
    isWs: isWs,
    trimWs: trimWs,
    typeName: typeName,
    isIsoDate: isIsoDate,
    // stored records
    readRecord: readRecord,
    // suite registry
    register: register,
    scorer: scorer,
    names: names
  };
});
