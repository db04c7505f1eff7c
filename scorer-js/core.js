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

  /**
   * Reading a reply ("Reading a reply" in content/pages/methodology.md): every suite reads the JSON
   * of a model's reply with these rules, whatever part of the content it reads. Strict JSON, exact
   * numbers (out of range past an exponent of +-1,000,000), a repeated key keeps its last value,
   * a lone surrogate escape is that code unit, U+FEFF is not whitespace, and arrays and objects
   * nest at most REPLY_MAX_DEPTH levels (the outer value is level 1).
   */
  var REPLY_MAX_DEPTH = 100;

  /** One whole JSON text of a reply (JSON whitespace around it): {ok, value} or {ok: false, pos}. */
  function readReplyJSON(text) {
    return parseJSON(text, REPLY_MAX_DEPTH);
  }

  /** Only the first REPLY_MAX_BRACES '{' of a content are tried by firstReplyObject. */
  var REPLY_MAX_BRACES = 1000;

  /**
   * The first complete JSON object of a reply ("Reading a reply", rule 7): the first of the
   * first REPLY_MAX_BRACES '{' characters at which a complete strict JSON object nesting at most
   * REPLY_MAX_DEPTH levels begins; its value, or null. A start whose parse fails (not by depth)
   * makes every object still open at the failure fail the same way, so those starts are skipped
   * (they still count among the first REPLY_MAX_BRACES).
   */
  function firstReplyObject(text) {
    if (typeof text !== 'string') return null;
    var skip = new Set();
    var tried = 0;
    var i = text.indexOf('{');
    while (i >= 0 && tried < REPLY_MAX_BRACES) {
      tried++;
      if (!skip.has(i)) {
        var r = parseValueAt(text, i, REPLY_MAX_DEPTH);
        if (r.ok) return r.value;
        if (!r.depth) for (var k = 0; k < r.openObjects.length; k++) skip.add(r.openObjects[k]);
      }
      i = text.indexOf('{', i + 1);
    }
    return null;
  }

  /**
   * A reply's body without White_Space at either end and without one Markdown code fence: three
   * backticks at both ends of a body of at least six characters, then `json` (lower case) when the
   * rest starts with it. Nothing else of a fence line is removed.
   */
  function stripFence(text) {
    var t = trimWs(String(text));
    if (t.length >= 6 && t.startsWith('```') && t.endsWith('```')) {
      t = t.slice(3, t.length - 3);
      if (t.startsWith('json')) t = t.slice(4);
    }
    return t;
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

  // ---------------------------------------------------------------------------------------
  // Unicode 14.0.0 (the rule pages pin it): case mapping and normalisation are
  // those of Unicode 14.0.0, whatever the runtime's version. A character 14.0.0 does not
  // assign has no mapping, decomposition or combining class: it is kept as it is and cuts the
  // text into pieces, each mapped by the runtime on its own. Runtimes of Unicode 14 or later
  // map assigned characters as 14.0.0 does (Unicode's stability policies; the code point sweep
  // of tests/test_unicode.py checks it).
  // ---------------------------------------------------------------------------------------

  // BEGIN generated by scorer-js/tools/unicode_tables.py
  var UNICODE_VERSION = '14.0.0';
  /** Unicode 14.0.0: code points it does not assign (category Cn), as hex ranges. */
  var UNASSIGNED = (
    "378-379,380-383,38b,38d,3a2,530,557-558,58b-58c,590,5c8-5cf,5eb-5ee,5f5-5ff,70e,74b-74c,7b2-7bf,7fb-" +
    "7fc,82e-82f,83f,85c-85d,85f,86b-86f,88f,892-897,984,98d-98e,991-992,9a9,9b1,9b3-9b5,9ba-9bb,9c5-9c6," +
    "9c9-9ca,9cf-9d6,9d8-9db,9de,9e4-9e5,9ff-a00,a04,a0b-a0e,a11-a12,a29,a31,a34,a37,a3a-a3b,a3d,a43-a46," +
    "a49-a4a,a4e-a50,a52-a58,a5d,a5f-a65,a77-a80,a84,a8e,a92,aa9,ab1,ab4,aba-abb,ac6,aca,ace-acf,ad1-adf," +
    "ae4-ae5,af2-af8,b00,b04,b0d-b0e,b11-b12,b29,b31,b34,b3a-b3b,b45-b46,b49-b4a,b4e-b54,b58-b5b,b5e,b64-" +
    "b65,b78-b81,b84,b8b-b8d,b91,b96-b98,b9b,b9d,ba0-ba2,ba5-ba7,bab-bad,bba-bbd,bc3-bc5,bc9,bce-bcf,bd1-" +
    "bd6,bd8-be5,bfb-bff,c0d,c11,c29,c3a-c3b,c45,c49,c4e-c54,c57,c5b-c5c,c5e-c5f,c64-c65,c70-c76,c8d,c91," +
    "ca9,cb4,cba-cbb,cc5,cc9,cce-cd4,cd7-cdc,cdf,ce4-ce5,cf0,cf3-cff,d0d,d11,d45,d49,d50-d53,d64-d65,d80," +
    "d84,d97-d99,db2,dbc,dbe-dbf,dc7-dc9,dcb-dce,dd5,dd7,de0-de5,df0-df1,df5-e00,e3b-e3e,e5c-e80,e83,e85," +
    "e8b,ea4,ea6,ebe-ebf,ec5,ec7,ece-ecf,eda-edb,ee0-eff,f48,f6d-f70,f98,fbd,fcd,fdb-fff,10c6,10c8-10cc,1" +
    "0ce-10cf,1249,124e-124f,1257,1259,125e-125f,1289,128e-128f,12b1,12b6-12b7,12bf,12c1,12c6-12c7,12d7,1" +
    "311,1316-1317,135b-135c,137d-137f,139a-139f,13f6-13f7,13fe-13ff,169d-169f,16f9-16ff,1716-171e,1737-1" +
    "73f,1754-175f,176d,1771,1774-177f,17de-17df,17ea-17ef,17fa-17ff,181a-181f,1879-187f,18ab-18af,18f6-1" +
    "8ff,191f,192c-192f,193c-193f,1941-1943,196e-196f,1975-197f,19ac-19af,19ca-19cf,19db-19dd,1a1c-1a1d,1" +
    "a5f,1a7d-1a7e,1a8a-1a8f,1a9a-1a9f,1aae-1aaf,1acf-1aff,1b4d-1b4f,1b7f,1bf4-1bfb,1c38-1c3a,1c4a-1c4c,1" +
    "c89-1c8f,1cbb-1cbc,1cc8-1ccf,1cfb-1cff,1f16-1f17,1f1e-1f1f,1f46-1f47,1f4e-1f4f,1f58,1f5a,1f5c,1f5e,1" +
    "f7e-1f7f,1fb5,1fc5,1fd4-1fd5,1fdc,1ff0-1ff1,1ff5,1fff,2065,2072-2073,208f,209d-209f,20c1-20cf,20f1-2" +
    "0ff,218c-218f,2427-243f,244b-245f,2b74-2b75,2b96,2cf4-2cf8,2d26,2d28-2d2c,2d2e-2d2f,2d68-2d6e,2d71-2" +
    "d7e,2d97-2d9f,2da7,2daf,2db7,2dbf,2dc7,2dcf,2dd7,2ddf,2e5e-2e7f,2e9a,2ef4-2eff,2fd6-2fef,2ffc-2fff,3" +
    "040,3097-3098,3100-3104,3130,318f,31e4-31ef,321f,a48d-a48f,a4c7-a4cf,a62c-a63f,a6f8-a6ff,a7cb-a7cf,a" +
    "7d2,a7d4,a7da-a7f1,a82d-a82f,a83a-a83f,a878-a87f,a8c6-a8cd,a8da-a8df,a954-a95e,a97d-a97f,a9ce,a9da-a" +
    "9dd,a9ff,aa37-aa3f,aa4e-aa4f,aa5a-aa5b,aac3-aada,aaf7-ab00,ab07-ab08,ab0f-ab10,ab17-ab1f,ab27,ab2f,a" +
    "b6c-ab6f,abee-abef,abfa-abff,d7a4-d7af,d7c7-d7ca,d7fc-d7ff,fa6e-fa6f,fada-faff,fb07-fb12,fb18-fb1c,f" +
    "b37,fb3d,fb3f,fb42,fb45,fbc3-fbd2,fd90-fd91,fdc8-fdce,fdd0-fdef,fe1a-fe1f,fe53,fe67,fe6c-fe6f,fe75,f" +
    "efd-fefe,ff00,ffbf-ffc1,ffc8-ffc9,ffd0-ffd1,ffd8-ffd9,ffdd-ffdf,ffe7,ffef-fff8,fffe-ffff,1000c,10027" +
    ",1003b,1003e,1004e-1004f,1005e-1007f,100fb-100ff,10103-10106,10134-10136,1018f,1019d-1019f,101a1-101" +
    "cf,101fe-1027f,1029d-1029f,102d1-102df,102fc-102ff,10324-1032c,1034b-1034f,1037b-1037f,1039e,103c4-1" +
    "03c7,103d6-103ff,1049e-1049f,104aa-104af,104d4-104d7,104fc-104ff,10528-1052f,10564-1056e,1057b,1058b" +
    ",10593,10596,105a2,105b2,105ba,105bd-105ff,10737-1073f,10756-1075f,10768-1077f,10786,107b1,107bb-107" +
    "ff,10806-10807,10809,10836,10839-1083b,1083d-1083e,10856,1089f-108a6,108b0-108df,108f3,108f6-108fa,1" +
    "091c-1091e,1093a-1093e,10940-1097f,109b8-109bb,109d0-109d1,10a04,10a07-10a0b,10a14,10a18,10a36-10a37" +
    ",10a3b-10a3e,10a49-10a4f,10a59-10a5f,10aa0-10abf,10ae7-10aea,10af7-10aff,10b36-10b38,10b56-10b57,10b" +
    "73-10b77,10b92-10b98,10b9d-10ba8,10bb0-10bff,10c49-10c7f,10cb3-10cbf,10cf3-10cf9,10d28-10d2f,10d3a-1" +
    "0e5f,10e7f,10eaa,10eae-10eaf,10eb2-10eff,10f28-10f2f,10f5a-10f6f,10f8a-10faf,10fcc-10fdf,10ff7-10fff" +
    ",1104e-11051,11076-1107e,110c3-110cc,110ce-110cf,110e9-110ef,110fa-110ff,11135,11148-1114f,11177-111" +
    "7f,111e0,111f5-111ff,11212,1123f-1127f,11287,11289,1128e,1129e,112aa-112af,112eb-112ef,112fa-112ff,1" +
    "1304,1130d-1130e,11311-11312,11329,11331,11334,1133a,11345-11346,11349-1134a,1134e-1134f,11351-11356" +
    ",11358-1135c,11364-11365,1136d-1136f,11375-113ff,1145c,11462-1147f,114c8-114cf,114da-1157f,115b6-115" +
    "b7,115de-115ff,11645-1164f,1165a-1165f,1166d-1167f,116ba-116bf,116ca-116ff,1171b-1171c,1172c-1172f,1" +
    "1747-117ff,1183c-1189f,118f3-118fe,11907-11908,1190a-1190b,11914,11917,11936,11939-1193a,11947-1194f" +
    ",1195a-1199f,119a8-119a9,119d8-119d9,119e5-119ff,11a48-11a4f,11aa3-11aaf,11af9-11bff,11c09,11c37,11c" +
    "46-11c4f,11c6d-11c6f,11c90-11c91,11ca8,11cb7-11cff,11d07,11d0a,11d37-11d39,11d3b,11d3e,11d48-11d4f,1" +
    "1d5a-11d5f,11d66,11d69,11d8f,11d92,11d99-11d9f,11daa-11edf,11ef9-11faf,11fb1-11fbf,11ff2-11ffe,1239a" +
    "-123ff,1246f,12475-1247f,12544-12f8f,12ff3-12fff,1342f,13439-143ff,14647-167ff,16a39-16a3f,16a5f,16a" +
    "6a-16a6d,16abf,16aca-16acf,16aee-16aef,16af6-16aff,16b46-16b4f,16b5a,16b62,16b78-16b7c,16b90-16e3f,1" +
    "6e9b-16eff,16f4b-16f4e,16f88-16f8e,16fa0-16fdf,16fe5-16fef,16ff2-16fff,187f8-187ff,18cd6-18cff,18d09" +
    "-1afef,1aff4,1affc,1afff,1b123-1b14f,1b153-1b163,1b168-1b16f,1b2fc-1bbff,1bc6b-1bc6f,1bc7d-1bc7f,1bc" +
    "89-1bc8f,1bc9a-1bc9b,1bca4-1ceff,1cf2e-1cf2f,1cf47-1cf4f,1cfc4-1cfff,1d0f6-1d0ff,1d127-1d128,1d1eb-1" +
    "d1ff,1d246-1d2df,1d2f4-1d2ff,1d357-1d35f,1d379-1d3ff,1d455,1d49d,1d4a0-1d4a1,1d4a3-1d4a4,1d4a7-1d4a8" +
    ",1d4ad,1d4ba,1d4bc,1d4c4,1d506,1d50b-1d50c,1d515,1d51d,1d53a,1d53f,1d545,1d547-1d549,1d551,1d6a6-1d6" +
    "a7,1d7cc-1d7cd,1da8c-1da9a,1daa0,1dab0-1deff,1df1f-1dfff,1e007,1e019-1e01a,1e022,1e025,1e02b-1e0ff,1" +
    "e12d-1e12f,1e13e-1e13f,1e14a-1e14d,1e150-1e28f,1e2af-1e2bf,1e2fa-1e2fe,1e300-1e7df,1e7e7,1e7ec,1e7ef" +
    ",1e7ff,1e8c5-1e8c6,1e8d7-1e8ff,1e94c-1e94f,1e95a-1e95d,1e960-1ec70,1ecb5-1ed00,1ed3e-1edff,1ee04,1ee" +
    "20,1ee23,1ee25-1ee26,1ee28,1ee33,1ee38,1ee3a,1ee3c-1ee41,1ee43-1ee46,1ee48,1ee4a,1ee4c,1ee50,1ee53,1" +
    "ee55-1ee56,1ee58,1ee5a,1ee5c,1ee5e,1ee60,1ee63,1ee65-1ee66,1ee6b,1ee73,1ee78,1ee7d,1ee7f,1ee8a,1ee9c" +
    "-1eea0,1eea4,1eeaa,1eebc-1eeef,1eef2-1efff,1f02c-1f02f,1f094-1f09f,1f0af-1f0b0,1f0c0,1f0d0,1f0f6-1f0" +
    "ff,1f1ae-1f1e5,1f203-1f20f,1f23c-1f23f,1f249-1f24f,1f252-1f25f,1f266-1f2ff,1f6d8-1f6dc,1f6ed-1f6ef,1" +
    "f6fd-1f6ff,1f774-1f77f,1f7d9-1f7df,1f7ec-1f7ef,1f7f1-1f7ff,1f80c-1f80f,1f848-1f84f,1f85a-1f85f,1f888" +
    "-1f88f,1f8ae-1f8af,1f8b2-1f8ff,1fa54-1fa5f,1fa6e-1fa6f,1fa75-1fa77,1fa7d-1fa7f,1fa87-1fa8f,1faad-1fa" +
    "af,1fabb-1fabf,1fac6-1facf,1fada-1fadf,1fae8-1faef,1faf7-1faff,1fb93,1fbcb-1fbef,1fbfa-1ffff,2a6e0-2" +
    "a6ff,2b739-2b73f,2b81e-2b81f,2cea2-2ceaf,2ebe1-2f7ff,2fa1e-2ffff,3134b-e0000,e0002-e001f,e0080-e00ff" +
    ",e01f0-effff,ffffe-fffff,10fffe-10ffff");
  /** Unicode 14.0.0: case-ignorable code points (Final_Sigma skips them), as hex ranges. */
  var CASE_IGNORABLE = (
    "27,2e,3a,5e,60,a8,ad,af,b4,b7-b8,2b0-36f,374-375,37a,384-385,387,483-489,559,55f,591-5bd,5bf,5c1-5c2" +
    ",5c4-5c5,5c7,5f4,600-605,610-61a,61c,640,64b-65f,670,6d6-6dd,6df-6e8,6ea-6ed,70f,711,730-74a,7a6-7b0" +
    ",7eb-7f5,7fa,7fd,816-82d,859-85b,888,890-891,898-89f,8c9-902,93a,93c,941-948,94d,951-957,962-963,971" +
    ",981,9bc,9c1-9c4,9cd,9e2-9e3,9fe,a01-a02,a3c,a41-a42,a47-a48,a4b-a4d,a51,a70-a71,a75,a81-a82,abc,ac1" +
    "-ac5,ac7-ac8,acd,ae2-ae3,afa-aff,b01,b3c,b3f,b41-b44,b4d,b55-b56,b62-b63,b82,bc0,bcd,c00,c04,c3c,c3e" +
    "-c40,c46-c48,c4a-c4d,c55-c56,c62-c63,c81,cbc,cbf,cc6,ccc-ccd,ce2-ce3,d00-d01,d3b-d3c,d41-d44,d4d,d62" +
    "-d63,d81,dca,dd2-dd4,dd6,e31,e34-e3a,e46-e4e,eb1,eb4-ebc,ec6,ec8-ecd,f18-f19,f35,f37,f39,f71-f7e,f80" +
    "-f84,f86-f87,f8d-f97,f99-fbc,fc6,102d-1030,1032-1037,1039-103a,103d-103e,1058-1059,105e-1060,1071-10" +
    "74,1082,1085-1086,108d,109d,10fc,135d-135f,1712-1714,1732-1733,1752-1753,1772-1773,17b4-17b5,17b7-17" +
    "bd,17c6,17c9-17d3,17d7,17dd,180b-180f,1843,1885-1886,18a9,1920-1922,1927-1928,1932,1939-193b,1a17-1a" +
    "18,1a1b,1a56,1a58-1a5e,1a60,1a62,1a65-1a6c,1a73-1a7c,1a7f,1aa7,1ab0-1ace,1b00-1b03,1b34,1b36-1b3a,1b" +
    "3c,1b42,1b6b-1b73,1b80-1b81,1ba2-1ba5,1ba8-1ba9,1bab-1bad,1be6,1be8-1be9,1bed,1bef-1bf1,1c2c-1c33,1c" +
    "36-1c37,1c78-1c7d,1cd0-1cd2,1cd4-1ce0,1ce2-1ce8,1ced,1cf4,1cf8-1cf9,1d2c-1d6a,1d78,1d9b-1dff,1fbd,1f" +
    "bf-1fc1,1fcd-1fcf,1fdd-1fdf,1fed-1fef,1ffd-1ffe,200b-200f,2018-2019,2024,2027,202a-202e,2060-2064,20" +
    "66-206f,2071,207f,2090-209c,20d0-20f0,2c7c-2c7d,2cef-2cf1,2d6f,2d7f,2de0-2dff,2e2f,3005,302a-302d,30" +
    "31-3035,303b,3099-309e,30fc-30fe,a015,a4f8-a4fd,a60c,a66f-a672,a674-a67d,a67f,a69c-a69f,a6f0-a6f1,a7" +
    "00-a721,a770,a788-a78a,a7f2-a7f4,a7f8-a7f9,a802,a806,a80b,a825-a826,a82c,a8c4-a8c5,a8e0-a8f1,a8ff,a9" +
    "26-a92d,a947-a951,a980-a982,a9b3,a9b6-a9b9,a9bc-a9bd,a9cf,a9e5-a9e6,aa29-aa2e,aa31-aa32,aa35-aa36,aa" +
    "43,aa4c,aa70,aa7c,aab0,aab2-aab4,aab7-aab8,aabe-aabf,aac1,aadd,aaec-aaed,aaf3-aaf4,aaf6,ab5b-ab5f,ab" +
    "69-ab6b,abe5,abe8,abed,fb1e,fbb2-fbc2,fe00-fe0f,fe13,fe20-fe2f,fe52,fe55,feff,ff07,ff0e,ff1a,ff3e,ff" +
    "40,ff70,ff9e-ff9f,ffe3,fff9-fffb,101fd,102e0,10376-1037a,10780-10785,10787-107b0,107b2-107ba,10a01-1" +
    "0a03,10a05-10a06,10a0c-10a0f,10a38-10a3a,10a3f,10ae5-10ae6,10d24-10d27,10eab-10eac,10f46-10f50,10f82" +
    "-10f85,11001,11038-11046,11070,11073-11074,1107f-11081,110b3-110b6,110b9-110ba,110bd,110c2,110cd,111" +
    "00-11102,11127-1112b,1112d-11134,11173,11180-11181,111b6-111be,111c9-111cc,111cf,1122f-11231,11234,1" +
    "1236-11237,1123e,112df,112e3-112ea,11300-11301,1133b-1133c,11340,11366-1136c,11370-11374,11438-1143f" +
    ",11442-11444,11446,1145e,114b3-114b8,114ba,114bf-114c0,114c2-114c3,115b2-115b5,115bc-115bd,115bf-115" +
    "c0,115dc-115dd,11633-1163a,1163d,1163f-11640,116ab,116ad,116b0-116b5,116b7,1171d-1171f,11722-11725,1" +
    "1727-1172b,1182f-11837,11839-1183a,1193b-1193c,1193e,11943,119d4-119d7,119da-119db,119e0,11a01-11a0a" +
    ",11a33-11a38,11a3b-11a3e,11a47,11a51-11a56,11a59-11a5b,11a8a-11a96,11a98-11a99,11c30-11c36,11c38-11c" +
    "3d,11c3f,11c92-11ca7,11caa-11cb0,11cb2-11cb3,11cb5-11cb6,11d31-11d36,11d3a,11d3c-11d3d,11d3f-11d45,1" +
    "1d47,11d90-11d91,11d95,11d97,11ef3-11ef4,13430-13438,16af0-16af4,16b30-16b36,16b40-16b43,16f4f,16f8f" +
    "-16f9f,16fe0-16fe1,16fe3-16fe4,1aff0-1aff3,1aff5-1affb,1affd-1affe,1bc9d-1bc9e,1bca0-1bca3,1cf00-1cf" +
    "2d,1cf30-1cf46,1d167-1d169,1d173-1d182,1d185-1d18b,1d1aa-1d1ad,1d242-1d244,1da00-1da36,1da3b-1da6c,1" +
    "da75,1da84,1da9b-1da9f,1daa1-1daaf,1e000-1e006,1e008-1e018,1e01b-1e021,1e023-1e024,1e026-1e02a,1e130" +
    "-1e13d,1e2ae,1e2ec-1e2ef,1e8d0-1e8d6,1e944-1e94b,1f3fb-1f3ff,e0001,e0020-e007f,e0100-e01ef");
  /** Unicode 14.0.0: cased code points that are not case-ignorable (Final_Sigma looks for them), as hex ranges. */
  var CASED = (
    "41-5a,61-7a,aa,b5,ba,c0-d6,d8-f6,f8-1ba,1bc-1bf,1c4-293,295-2af,370-373,376-377,37b-37d,37f,386,388-" +
    "38a,38c,38e-3a1,3a3-3f5,3f7-481,48a-52f,531-556,560-588,10a0-10c5,10c7,10cd,10d0-10fa,10fd-10ff,13a0" +
    "-13f5,13f8-13fd,1c80-1c88,1c90-1cba,1cbd-1cbf,1d00-1d2b,1d6b-1d77,1d79-1d9a,1e00-1f15,1f18-1f1d,1f20" +
    "-1f45,1f48-1f4d,1f50-1f57,1f59,1f5b,1f5d,1f5f-1f7d,1f80-1fb4,1fb6-1fbc,1fbe,1fc2-1fc4,1fc6-1fcc,1fd0" +
    "-1fd3,1fd6-1fdb,1fe0-1fec,1ff2-1ff4,1ff6-1ffc,2102,2107,210a-2113,2115,2119-211d,2124,2126,2128,212a" +
    "-212d,212f-2134,2139,213c-213f,2145-2149,214e,2160-217f,2183-2184,24b6-24e9,2c00-2c7b,2c7e-2ce4,2ceb" +
    "-2cee,2cf2-2cf3,2d00-2d25,2d27,2d2d,a640-a66d,a680-a69b,a722-a76f,a771-a787,a78b-a78e,a790-a7ca,a7d0" +
    "-a7d1,a7d3,a7d5-a7d9,a7f5-a7f6,a7fa,ab30-ab5a,ab60-ab68,ab70-abbf,fb00-fb06,fb13-fb17,ff21-ff3a,ff41" +
    "-ff5a,10400-1044f,104b0-104d3,104d8-104fb,10570-1057a,1057c-1058a,1058c-10592,10594-10595,10597-105a" +
    "1,105a3-105b1,105b3-105b9,105bb-105bc,10c80-10cb2,10cc0-10cf2,118a0-118df,16e40-16e7f,1d400-1d454,1d" +
    "456-1d49c,1d49e-1d49f,1d4a2,1d4a5-1d4a6,1d4a9-1d4ac,1d4ae-1d4b9,1d4bb,1d4bd-1d4c3,1d4c5-1d505,1d507-" +
    "1d50a,1d50d-1d514,1d516-1d51c,1d51e-1d539,1d53b-1d53e,1d540-1d544,1d546,1d54a-1d550,1d552-1d6a5,1d6a" +
    "8-1d6c0,1d6c2-1d6da,1d6dc-1d6fa,1d6fc-1d714,1d716-1d734,1d736-1d74e,1d750-1d76e,1d770-1d788,1d78a-1d" +
    "7a8,1d7aa-1d7c2,1d7c4-1d7cb,1df00-1df09,1df0b-1df1e,1e900-1e943,1f130-1f149,1f150-1f169,1f170-1f189");
  /** Unicode 14.0.0: letters and numbers (general category L* or N*), as hex ranges. */
  var LETTER_NUMBER = (
    "30-39,41-5a,61-7a,aa,b2-b3,b5,b9-ba,bc-be,c0-d6,d8-f6,f8-2c1,2c6-2d1,2e0-2e4,2ec,2ee,370-374,376-377" +
    ",37a-37d,37f,386,388-38a,38c,38e-3a1,3a3-3f5,3f7-481,48a-52f,531-556,559,560-588,5d0-5ea,5ef-5f2,620" +
    "-64a,660-669,66e-66f,671-6d3,6d5,6e5-6e6,6ee-6fc,6ff,710,712-72f,74d-7a5,7b1,7c0-7ea,7f4-7f5,7fa,800" +
    "-815,81a,824,828,840-858,860-86a,870-887,889-88e,8a0-8c9,904-939,93d,950,958-961,966-96f,971-980,985" +
    "-98c,98f-990,993-9a8,9aa-9b0,9b2,9b6-9b9,9bd,9ce,9dc-9dd,9df-9e1,9e6-9f1,9f4-9f9,9fc,a05-a0a,a0f-a10" +
    ",a13-a28,a2a-a30,a32-a33,a35-a36,a38-a39,a59-a5c,a5e,a66-a6f,a72-a74,a85-a8d,a8f-a91,a93-aa8,aaa-ab0" +
    ",ab2-ab3,ab5-ab9,abd,ad0,ae0-ae1,ae6-aef,af9,b05-b0c,b0f-b10,b13-b28,b2a-b30,b32-b33,b35-b39,b3d,b5c" +
    "-b5d,b5f-b61,b66-b6f,b71-b77,b83,b85-b8a,b8e-b90,b92-b95,b99-b9a,b9c,b9e-b9f,ba3-ba4,ba8-baa,bae-bb9" +
    ",bd0,be6-bf2,c05-c0c,c0e-c10,c12-c28,c2a-c39,c3d,c58-c5a,c5d,c60-c61,c66-c6f,c78-c7e,c80,c85-c8c,c8e" +
    "-c90,c92-ca8,caa-cb3,cb5-cb9,cbd,cdd-cde,ce0-ce1,ce6-cef,cf1-cf2,d04-d0c,d0e-d10,d12-d3a,d3d,d4e,d54" +
    "-d56,d58-d61,d66-d78,d7a-d7f,d85-d96,d9a-db1,db3-dbb,dbd,dc0-dc6,de6-def,e01-e30,e32-e33,e40-e46,e50" +
    "-e59,e81-e82,e84,e86-e8a,e8c-ea3,ea5,ea7-eb0,eb2-eb3,ebd,ec0-ec4,ec6,ed0-ed9,edc-edf,f00,f20-f33,f40" +
    "-f47,f49-f6c,f88-f8c,1000-102a,103f-1049,1050-1055,105a-105d,1061,1065-1066,106e-1070,1075-1081,108e" +
    ",1090-1099,10a0-10c5,10c7,10cd,10d0-10fa,10fc-1248,124a-124d,1250-1256,1258,125a-125d,1260-1288,128a" +
    "-128d,1290-12b0,12b2-12b5,12b8-12be,12c0,12c2-12c5,12c8-12d6,12d8-1310,1312-1315,1318-135a,1369-137c" +
    ",1380-138f,13a0-13f5,13f8-13fd,1401-166c,166f-167f,1681-169a,16a0-16ea,16ee-16f8,1700-1711,171f-1731" +
    ",1740-1751,1760-176c,176e-1770,1780-17b3,17d7,17dc,17e0-17e9,17f0-17f9,1810-1819,1820-1878,1880-1884" +
    ",1887-18a8,18aa,18b0-18f5,1900-191e,1946-196d,1970-1974,1980-19ab,19b0-19c9,19d0-19da,1a00-1a16,1a20" +
    "-1a54,1a80-1a89,1a90-1a99,1aa7,1b05-1b33,1b45-1b4c,1b50-1b59,1b83-1ba0,1bae-1be5,1c00-1c23,1c40-1c49" +
    ",1c4d-1c7d,1c80-1c88,1c90-1cba,1cbd-1cbf,1ce9-1cec,1cee-1cf3,1cf5-1cf6,1cfa,1d00-1dbf,1e00-1f15,1f18" +
    "-1f1d,1f20-1f45,1f48-1f4d,1f50-1f57,1f59,1f5b,1f5d,1f5f-1f7d,1f80-1fb4,1fb6-1fbc,1fbe,1fc2-1fc4,1fc6" +
    "-1fcc,1fd0-1fd3,1fd6-1fdb,1fe0-1fec,1ff2-1ff4,1ff6-1ffc,2070-2071,2074-2079,207f-2089,2090-209c,2102" +
    ",2107,210a-2113,2115,2119-211d,2124,2126,2128,212a-212d,212f-2139,213c-213f,2145-2149,214e,2150-2189" +
    ",2460-249b,24ea-24ff,2776-2793,2c00-2ce4,2ceb-2cee,2cf2-2cf3,2cfd,2d00-2d25,2d27,2d2d,2d30-2d67,2d6f" +
    ",2d80-2d96,2da0-2da6,2da8-2dae,2db0-2db6,2db8-2dbe,2dc0-2dc6,2dc8-2dce,2dd0-2dd6,2dd8-2dde,2e2f,3005" +
    "-3007,3021-3029,3031-3035,3038-303c,3041-3096,309d-309f,30a1-30fa,30fc-30ff,3105-312f,3131-318e,3192" +
    "-3195,31a0-31bf,31f0-31ff,3220-3229,3248-324f,3251-325f,3280-3289,32b1-32bf,3400-4dbf,4e00-a48c,a4d0" +
    "-a4fd,a500-a60c,a610-a62b,a640-a66e,a67f-a69d,a6a0-a6ef,a717-a71f,a722-a788,a78b-a7ca,a7d0-a7d1,a7d3" +
    ",a7d5-a7d9,a7f2-a801,a803-a805,a807-a80a,a80c-a822,a830-a835,a840-a873,a882-a8b3,a8d0-a8d9,a8f2-a8f7" +
    ",a8fb,a8fd-a8fe,a900-a925,a930-a946,a960-a97c,a984-a9b2,a9cf-a9d9,a9e0-a9e4,a9e6-a9fe,aa00-aa28,aa40" +
    "-aa42,aa44-aa4b,aa50-aa59,aa60-aa76,aa7a,aa7e-aaaf,aab1,aab5-aab6,aab9-aabd,aac0,aac2,aadb-aadd,aae0" +
    "-aaea,aaf2-aaf4,ab01-ab06,ab09-ab0e,ab11-ab16,ab20-ab26,ab28-ab2e,ab30-ab5a,ab5c-ab69,ab70-abe2,abf0" +
    "-abf9,ac00-d7a3,d7b0-d7c6,d7cb-d7fb,f900-fa6d,fa70-fad9,fb00-fb06,fb13-fb17,fb1d,fb1f-fb28,fb2a-fb36" +
    ",fb38-fb3c,fb3e,fb40-fb41,fb43-fb44,fb46-fbb1,fbd3-fd3d,fd50-fd8f,fd92-fdc7,fdf0-fdfb,fe70-fe74,fe76" +
    "-fefc,ff10-ff19,ff21-ff3a,ff41-ff5a,ff66-ffbe,ffc2-ffc7,ffca-ffcf,ffd2-ffd7,ffda-ffdc,10000-1000b,10" +
    "00d-10026,10028-1003a,1003c-1003d,1003f-1004d,10050-1005d,10080-100fa,10107-10133,10140-10178,1018a-" +
    "1018b,10280-1029c,102a0-102d0,102e1-102fb,10300-10323,1032d-1034a,10350-10375,10380-1039d,103a0-103c" +
    "3,103c8-103cf,103d1-103d5,10400-1049d,104a0-104a9,104b0-104d3,104d8-104fb,10500-10527,10530-10563,10" +
    "570-1057a,1057c-1058a,1058c-10592,10594-10595,10597-105a1,105a3-105b1,105b3-105b9,105bb-105bc,10600-" +
    "10736,10740-10755,10760-10767,10780-10785,10787-107b0,107b2-107ba,10800-10805,10808,1080a-10835,1083" +
    "7-10838,1083c,1083f-10855,10858-10876,10879-1089e,108a7-108af,108e0-108f2,108f4-108f5,108fb-1091b,10" +
    "920-10939,10980-109b7,109bc-109cf,109d2-10a00,10a10-10a13,10a15-10a17,10a19-10a35,10a40-10a48,10a60-" +
    "10a7e,10a80-10a9f,10ac0-10ac7,10ac9-10ae4,10aeb-10aef,10b00-10b35,10b40-10b55,10b58-10b72,10b78-10b9" +
    "1,10ba9-10baf,10c00-10c48,10c80-10cb2,10cc0-10cf2,10cfa-10d23,10d30-10d39,10e60-10e7e,10e80-10ea9,10" +
    "eb0-10eb1,10f00-10f27,10f30-10f45,10f51-10f54,10f70-10f81,10fb0-10fcb,10fe0-10ff6,11003-11037,11052-" +
    "1106f,11071-11072,11075,11083-110af,110d0-110e8,110f0-110f9,11103-11126,11136-1113f,11144,11147,1115" +
    "0-11172,11176,11183-111b2,111c1-111c4,111d0-111da,111dc,111e1-111f4,11200-11211,11213-1122b,11280-11" +
    "286,11288,1128a-1128d,1128f-1129d,1129f-112a8,112b0-112de,112f0-112f9,11305-1130c,1130f-11310,11313-" +
    "11328,1132a-11330,11332-11333,11335-11339,1133d,11350,1135d-11361,11400-11434,11447-1144a,11450-1145" +
    "9,1145f-11461,11480-114af,114c4-114c5,114c7,114d0-114d9,11580-115ae,115d8-115db,11600-1162f,11644,11" +
    "650-11659,11680-116aa,116b8,116c0-116c9,11700-1171a,11730-1173b,11740-11746,11800-1182b,118a0-118f2," +
    "118ff-11906,11909,1190c-11913,11915-11916,11918-1192f,1193f,11941,11950-11959,119a0-119a7,119aa-119d" +
    "0,119e1,119e3,11a00,11a0b-11a32,11a3a,11a50,11a5c-11a89,11a9d,11ab0-11af8,11c00-11c08,11c0a-11c2e,11" +
    "c40,11c50-11c6c,11c72-11c8f,11d00-11d06,11d08-11d09,11d0b-11d30,11d46,11d50-11d59,11d60-11d65,11d67-" +
    "11d68,11d6a-11d89,11d98,11da0-11da9,11ee0-11ef2,11fb0,11fc0-11fd4,12000-12399,12400-1246e,12480-1254" +
    "3,12f90-12ff0,13000-1342e,14400-14646,16800-16a38,16a40-16a5e,16a60-16a69,16a70-16abe,16ac0-16ac9,16" +
    "ad0-16aed,16b00-16b2f,16b40-16b43,16b50-16b59,16b5b-16b61,16b63-16b77,16b7d-16b8f,16e40-16e96,16f00-" +
    "16f4a,16f50,16f93-16f9f,16fe0-16fe1,16fe3,17000-187f7,18800-18cd5,18d00-18d08,1aff0-1aff3,1aff5-1aff" +
    "b,1affd-1affe,1b000-1b122,1b150-1b152,1b164-1b167,1b170-1b2fb,1bc00-1bc6a,1bc70-1bc7c,1bc80-1bc88,1b" +
    "c90-1bc99,1d2e0-1d2f3,1d360-1d378,1d400-1d454,1d456-1d49c,1d49e-1d49f,1d4a2,1d4a5-1d4a6,1d4a9-1d4ac," +
    "1d4ae-1d4b9,1d4bb,1d4bd-1d4c3,1d4c5-1d505,1d507-1d50a,1d50d-1d514,1d516-1d51c,1d51e-1d539,1d53b-1d53" +
    "e,1d540-1d544,1d546,1d54a-1d550,1d552-1d6a5,1d6a8-1d6c0,1d6c2-1d6da,1d6dc-1d6fa,1d6fc-1d714,1d716-1d" +
    "734,1d736-1d74e,1d750-1d76e,1d770-1d788,1d78a-1d7a8,1d7aa-1d7c2,1d7c4-1d7cb,1d7ce-1d7ff,1df00-1df1e," +
    "1e100-1e12c,1e137-1e13d,1e140-1e149,1e14e,1e290-1e2ad,1e2c0-1e2eb,1e2f0-1e2f9,1e7e0-1e7e6,1e7e8-1e7e" +
    "b,1e7ed-1e7ee,1e7f0-1e7fe,1e800-1e8c4,1e8c7-1e8cf,1e900-1e943,1e94b,1e950-1e959,1ec71-1ecab,1ecad-1e" +
    "caf,1ecb1-1ecb4,1ed01-1ed2d,1ed2f-1ed3d,1ee00-1ee03,1ee05-1ee1f,1ee21-1ee22,1ee24,1ee27,1ee29-1ee32," +
    "1ee34-1ee37,1ee39,1ee3b,1ee42,1ee47,1ee49,1ee4b,1ee4d-1ee4f,1ee51-1ee52,1ee54,1ee57,1ee59,1ee5b,1ee5" +
    "d,1ee5f,1ee61-1ee62,1ee64,1ee67-1ee6a,1ee6c-1ee72,1ee74-1ee77,1ee79-1ee7c,1ee7e,1ee80-1ee89,1ee8b-1e" +
    "e9b,1eea1-1eea3,1eea5-1eea9,1eeab-1eebb,1f100-1f10c,1fbf0-1fbf9,20000-2a6df,2a700-2b738,2b740-2b81d," +
    "2b820-2cea1,2ceb0-2ebe0,2f800-2fa1d,30000-3134a");
  /** Unicode 14.0.0: nonspacing marks (general category Mn), as hex ranges. */
  var NONSPACING_MARK = (
    "300-36f,483-487,591-5bd,5bf,5c1-5c2,5c4-5c5,5c7,610-61a,64b-65f,670,6d6-6dc,6df-6e4,6e7-6e8,6ea-6ed," +
    "711,730-74a,7a6-7b0,7eb-7f3,7fd,816-819,81b-823,825-827,829-82d,859-85b,898-89f,8ca-8e1,8e3-902,93a," +
    "93c,941-948,94d,951-957,962-963,981,9bc,9c1-9c4,9cd,9e2-9e3,9fe,a01-a02,a3c,a41-a42,a47-a48,a4b-a4d," +
    "a51,a70-a71,a75,a81-a82,abc,ac1-ac5,ac7-ac8,acd,ae2-ae3,afa-aff,b01,b3c,b3f,b41-b44,b4d,b55-b56,b62-" +
    "b63,b82,bc0,bcd,c00,c04,c3c,c3e-c40,c46-c48,c4a-c4d,c55-c56,c62-c63,c81,cbc,cbf,cc6,ccc-ccd,ce2-ce3," +
    "d00-d01,d3b-d3c,d41-d44,d4d,d62-d63,d81,dca,dd2-dd4,dd6,e31,e34-e3a,e47-e4e,eb1,eb4-ebc,ec8-ecd,f18-" +
    "f19,f35,f37,f39,f71-f7e,f80-f84,f86-f87,f8d-f97,f99-fbc,fc6,102d-1030,1032-1037,1039-103a,103d-103e," +
    "1058-1059,105e-1060,1071-1074,1082,1085-1086,108d,109d,135d-135f,1712-1714,1732-1733,1752-1753,1772-" +
    "1773,17b4-17b5,17b7-17bd,17c6,17c9-17d3,17dd,180b-180d,180f,1885-1886,18a9,1920-1922,1927-1928,1932," +
    "1939-193b,1a17-1a18,1a1b,1a56,1a58-1a5e,1a60,1a62,1a65-1a6c,1a73-1a7c,1a7f,1ab0-1abd,1abf-1ace,1b00-" +
    "1b03,1b34,1b36-1b3a,1b3c,1b42,1b6b-1b73,1b80-1b81,1ba2-1ba5,1ba8-1ba9,1bab-1bad,1be6,1be8-1be9,1bed," +
    "1bef-1bf1,1c2c-1c33,1c36-1c37,1cd0-1cd2,1cd4-1ce0,1ce2-1ce8,1ced,1cf4,1cf8-1cf9,1dc0-1dff,20d0-20dc," +
    "20e1,20e5-20f0,2cef-2cf1,2d7f,2de0-2dff,302a-302d,3099-309a,a66f,a674-a67d,a69e-a69f,a6f0-a6f1,a802," +
    "a806,a80b,a825-a826,a82c,a8c4-a8c5,a8e0-a8f1,a8ff,a926-a92d,a947-a951,a980-a982,a9b3,a9b6-a9b9,a9bc-" +
    "a9bd,a9e5,aa29-aa2e,aa31-aa32,aa35-aa36,aa43,aa4c,aa7c,aab0,aab2-aab4,aab7-aab8,aabe-aabf,aac1,aaec-" +
    "aaed,aaf6,abe5,abe8,abed,fb1e,fe00-fe0f,fe20-fe2f,101fd,102e0,10376-1037a,10a01-10a03,10a05-10a06,10" +
    "a0c-10a0f,10a38-10a3a,10a3f,10ae5-10ae6,10d24-10d27,10eab-10eac,10f46-10f50,10f82-10f85,11001,11038-" +
    "11046,11070,11073-11074,1107f-11081,110b3-110b6,110b9-110ba,110c2,11100-11102,11127-1112b,1112d-1113" +
    "4,11173,11180-11181,111b6-111be,111c9-111cc,111cf,1122f-11231,11234,11236-11237,1123e,112df,112e3-11" +
    "2ea,11300-11301,1133b-1133c,11340,11366-1136c,11370-11374,11438-1143f,11442-11444,11446,1145e,114b3-" +
    "114b8,114ba,114bf-114c0,114c2-114c3,115b2-115b5,115bc-115bd,115bf-115c0,115dc-115dd,11633-1163a,1163" +
    "d,1163f-11640,116ab,116ad,116b0-116b5,116b7,1171d-1171f,11722-11725,11727-1172b,1182f-11837,11839-11" +
    "83a,1193b-1193c,1193e,11943,119d4-119d7,119da-119db,119e0,11a01-11a0a,11a33-11a38,11a3b-11a3e,11a47," +
    "11a51-11a56,11a59-11a5b,11a8a-11a96,11a98-11a99,11c30-11c36,11c38-11c3d,11c3f,11c92-11ca7,11caa-11cb" +
    "0,11cb2-11cb3,11cb5-11cb6,11d31-11d36,11d3a,11d3c-11d3d,11d3f-11d45,11d47,11d90-11d91,11d95,11d97,11" +
    "ef3-11ef4,16af0-16af4,16b30-16b36,16f4f,16f8f-16f92,16fe4,1bc9d-1bc9e,1cf00-1cf2d,1cf30-1cf46,1d167-" +
    "1d169,1d17b-1d182,1d185-1d18b,1d1aa-1d1ad,1d242-1d244,1da00-1da36,1da3b-1da6c,1da75,1da84,1da9b-1da9" +
    "f,1daa1-1daaf,1e000-1e006,1e008-1e018,1e01b-1e021,1e023-1e024,1e026-1e02a,1e130-1e136,1e2ae,1e2ec-1e" +
    "2ef,1e8d0-1e8d6,1e944-1e94a,e0100-e01ef");
  // END generated

  var UNASSIGNED_RUN = new RegExp('[' + UNASSIGNED.split(',').map(function (r) {
    return r.split('-').map(function (h) { return '\\u{' + h + '}'; }).join('-');
  }).join('') + ']+', 'u');
  var ASCII_ONLY = /^[\x00-\x7f]*$/;

  function rangeClass(ranges) {
    return '[' + ranges.split(',').map(function (r) {
      return r.split('-').map(function (h) { return '\\u{' + h + '}'; }).join('-');
    }).join('') + ']';
  }
  var IGNORABLE_CHAR = new RegExp('^' + rangeClass(CASE_IGNORABLE) + '$', 'u');
  /**
   * General categories of Unicode 14.0.0 that suites' text rules name, as the inside of a RegExp
   * character class (for the 'u' flag): letters and numbers (L*, N*), nonspacing marks (Mn). The
   * runtime's own \\p{L} may be of a later version.
   */
  var LETTER_NUMBER_14 = rangeClass(LETTER_NUMBER).slice(1, -1);
  var NONSPACING_MARK_14 = rangeClass(NONSPACING_MARK).slice(1, -1);
  var CASED_CHAR = new RegExp('^' + rangeClass(CASED) + '$', 'u');

  /**
   * Each capital sigma (U+03A3) to its lower case under Unicode 14.0.0's Final_Sigma condition:
   * final sigma (U+03C2) when, skipping case-ignorable characters, a cased character comes
   * before it and none after it; small sigma (U+03C3) otherwise.
   */
  function finalSigma(s) {
    if (s.indexOf('\u03a3') < 0) return s;
    var cps = Array.from(s);
    for (var i = 0; i < cps.length; i++) {
      if (cps[i] !== '\u03a3') continue;
      var j = i - 1;
      while (j >= 0 && IGNORABLE_CHAR.test(cps[j])) j--;
      var k = i + 1;
      while (k < cps.length && IGNORABLE_CHAR.test(cps[k])) k++;
      var before = j >= 0 && CASED_CHAR.test(cps[j]);
      var after = k < cps.length && CASED_CHAR.test(cps[k]);
      cps[i] = before && !after ? '\u03c2' : '\u03c3';
    }
    return cps.join('');
  }

  /**
   * `fn` (a runtime string mapping such as toLowerCase) applied as Unicode 14.0.0 would: to each
   * piece between characters 14.0.0 does not assign, which are kept as they are.
   */
  function unicode14(s, fn) {
    if (ASCII_ONLY.test(s)) return fn(s);
    var out = '';
    var rest = s;
    for (;;) {
      var m = UNASSIGNED_RUN.exec(rest);
      if (m === null) return out + mapPiece(rest, fn);
      out += mapPiece(rest.slice(0, m.index), fn) + m[0];
      rest = rest.slice(m.index + m[0].length);
    }
  }

  /** A piece of assigned characters; one the runtime maps to an unassigned character is kept. */
  function mapPiece(piece, fn) {
    var out = fn(piece);
    if (!UNASSIGNED_RUN.test(out)) return out;
    // Newer data than 14.0.0 (U+019B's upper case is U+A7DC from Unicode 16 on): character by character.
    return Array.from(piece).map(function (c) {
      var mapped = fn(c);
      return UNASSIGNED_RUN.test(mapped) ? c : mapped;
    }).join('');
  }

  /** Lower case of Unicode 14.0.0 (default full case mapping, Final_Sigma included). */
  function lower14(s) {
    return unicode14(finalSigma(s), function (piece) { return piece.toLowerCase(); });
  }

  /** NFKD of Unicode 14.0.0. */
  function nfkd14(s) {
    return unicode14(s, function (piece) { return piece.normalize('NFKD'); });
  }

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
  // Verdict rows
  // ---------------------------------------------------------------------------------------

  /**
   * The points of a verdict row, one rule for every suite: 1 for `correct`, `null_ok` and
   * `found`, 0 for every other verdict (a suite's rule page names those of the three that its
   * rows can give).
   */
  function points(verdict) {
    return verdict === 'correct' || verdict === 'null_ok' || verdict === 'found' ? 1 : 0;
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
    REPLY_MAX_DEPTH: REPLY_MAX_DEPTH,
    readReplyJSON: readReplyJSON,
    REPLY_MAX_BRACES: REPLY_MAX_BRACES,
    firstReplyObject: firstReplyObject,
    stripFence: stripFence,
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
    UNICODE_VERSION: UNICODE_VERSION,
    unicode14: unicode14,
    finalSigma: finalSigma,
    lower14: lower14,
    nfkd14: nfkd14,
    LETTER_NUMBER_14: LETTER_NUMBER_14,
    NONSPACING_MARK_14: NONSPACING_MARK_14,
    WS_CLASS: WS_CLASS,
    isWs: isWs,
    trimWs: trimWs,
    typeName: typeName,
    isIsoDate: isIsoDate,
    // stored records and verdict rows
    readRecord: readRecord,
    points: points,
    // suite registry
    register: register,
    scorer: scorer,
    names: names
  };
});
