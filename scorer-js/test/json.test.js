'use strict';
// Rule 1.1: the strict JSON parser and the finder of the first complete object.
const test = require('node:test');
const assert = require('node:assert/strict');
const { S } = require('./helpers.js');

function plain(v) {
  // JsonNumber -> its literal text, objects -> plain objects, for deepEqual.
  if (v instanceof S.JsonNumber) return { num: v.literal };
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v)) o[k] = plain(v[k]);
    return o;
  }
  return v;
}

function timed(fn, limitMs) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.ok(ms < limitMs, `took ${ms.toFixed(0)} ms, limit ${limitMs} ms`);
  return r;
}

test('bare, fenced and prose-wrapped objects', () => {
  assert.deepEqual(plain(S.firstObject('{"a": 1}')), { a: { num: '1' } });
  assert.deepEqual(plain(S.firstObject('```json\n{"a": "x"}\n```')), { a: 'x' });
  assert.deepEqual(plain(S.firstObject('Here: {"a": true} done {"a": false}')), { a: true });
  assert.deepEqual(plain(S.firstObject('{} {"a": 1}')), {});
  assert.equal(S.firstObject('no object here'), null);
  assert.equal(S.firstObject(''), null);
  assert.equal(S.firstObject(null), null);
});

test('numbers keep their exact literal and integer-literal flag', () => {
  const o = S.firstObject('{"a": 12.10, "b": 42, "c": 4.2e1, "d": -0, "e": 1e400, "f": 42e0}');
  assert.equal(o.a.literal, '12.10');
  assert.equal(o.a.integerLiteral, false);
  assert.equal(o.b.integerLiteral, true);
  assert.equal(o.c.integerLiteral, false);
  assert.equal(o.d.integerLiteral, true);
  assert.equal(o.e.decimal.toString(), '1e400');
  assert.equal(o.f.integerLiteral, false);
  assert.ok(o.a.decimal.equals(S.parsePlainDecimal('12.1')));
});

test('strictness: each of these is not an object, so the scan goes on', () => {
  const bad = [
    '{"a": NaN}', '{"a": Infinity}', '{"a": -Infinity}', "{'a': 1}", '{"a": 1,}', '{"a": [1,]}',
    '{"a": 1 /* c */}', '{"a": 1 // c\n}', '{"a": "x\ny"}', '{"a": "x\ty"}', '{"a": "\u0000"}',
    '{"a": 01}', '{"a": +1}', '{"a": .5}', '{"a": 1.}', '{"a": 1e}', '{"a": 0x1}', '{a: 1}',
    '{"a" 1}', '{"a": 1 "b": 2}', '{"a": tru}', '{"a": nul}', '{"a": "\\x41"}', '{"a": "\\u12G4"}',
    '{\u00a0"a": 1}', '{\f"a": 1}', '{"a": 1', '{"a": "1', '{"a": [1, 2}', '{"a": {"b": 1]}'
  ];
  for (const b of bad) {
    assert.equal(S.firstObject(b), null, JSON.stringify(b));
    assert.deepEqual(plain(S.firstObject(b + ' {"ok": 1}')), { ok: { num: '1' } }, JSON.stringify(b));
  }
});

test('escapes, raw non-control characters, duplicate keys, odd key names', () => {
  const o = S.firstObject('{"t\\u0061": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00", "r": "a\u2028b\u007f\u0085"}');
  assert.equal(o.ta, '"\\/\b\f\n\r\té\u{1F600}');
  assert.equal(o.r, 'a\u2028b\u007f\u0085');
  const d = S.firstObject('{"a": 1, "b": 2, "a": 3}');
  assert.equal(d.a.literal, '3');
  assert.deepEqual(Object.keys(d), ['b', 'a']);
  const p = S.firstObject('{"__proto__": 5, "constructor": 6, "hasOwnProperty": 7}');
  assert.equal(p.__proto__.literal, '5');
  assert.deepEqual(Object.keys(p), ['__proto__', 'constructor', 'hasOwnProperty']);
});

test('depth limit: 100 levels accepted, 101 rejected (outer object is level 1)', () => {
  const ok = '{"a": ' + '['.repeat(99) + ']'.repeat(99) + '}';
  const tooDeep = '{"a": ' + '['.repeat(100) + ']'.repeat(100) + '}';
  assert.notEqual(S.firstObject(ok), null);
  assert.equal(S.firstObject(tooDeep), null);
  const objs = (n) => '{"x": '.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
  assert.notEqual(S.firstObject(objs(100)), null);
  // 101 levels fail at the first {, the second { begins a 100-level object.
  const o = S.firstObject(objs(101));
  assert.ok(o !== null && 'x' in o);
  let depth = 0;
  for (let cur = o; cur && cur.x; cur = cur.x) depth++;
  assert.equal(depth, 99);
});

test('only the first 1,000 { are tried', () => {
  const good = '{"a": 1}';
  assert.notEqual(S.firstObject('{'.repeat(999) + good), null);    // good starts at brace 1,000
  assert.equal(S.firstObject('{'.repeat(1000) + good), null);      // good starts at brace 1,001
  assert.equal(S.firstObject('x{'.repeat(1000) + good), null);
  // Braces inside strings of failed candidates count too.
  assert.equal(S.firstObject('"{"'.repeat(1000) + good), null);
  assert.notEqual(S.firstObject('"{"'.repeat(999) + good), null);
});

test('truncated outer object: an inner complete object is the answer', () => {
  assert.deepEqual(plain(S.firstObject('{"meta": {"total": 12}, "total": 13')), { total: { num: '12' } });
  assert.deepEqual(plain(S.firstObject('{"a": {"b": {"c": 1}, "d": [')), { c: { num: '1' } });
  assert.equal(S.firstObject('{"a": {"b": {"c": 1'), null);
});

test('hostile: 200,000 { is fast and finds nothing', () => {
  timed(() => assert.equal(S.firstObject('{'.repeat(200000)), null), 3000);
  timed(() => assert.equal(S.firstObject('{"a":'.repeat(200000)), null), 3000);
  timed(() => assert.equal(S.firstObject('{"a":['.repeat(200000)), null), 3000);
});

test('hostile: 5,000 nested objects, closed or not', () => {
  const n = 5000;
  timed(() => assert.equal(S.firstObject('{"a":'.repeat(n) + '1' + '}'.repeat(n)), null), 3000);
  timed(() => assert.equal(S.firstObject('{"a":'.repeat(n) + '1'), null), 3000);
  // after the first 1,000 braces are used up nothing more is tried
  timed(() => assert.equal(S.firstObject('{"a":'.repeat(n) + '1' + '}'.repeat(n) + '{"b":1}'), null), 3000);
  // 100,000 nested arrays inside an object: rejected by the depth limit, no stack overflow
  timed(() => assert.equal(S.firstObject('{"a":' + '['.repeat(100000) + ']'.repeat(100000) + '}'), null), 3000);
});

test('hostile: long open objects with many inner braces are not quadratic', () => {
  // 99 open objects, then 2 MB of an array that never closes.
  const head = '{"a":'.repeat(99) + '[';
  const tail = '1,'.repeat(1000000);
  timed(() => assert.equal(S.firstObject(head + tail), null), 3000);
  // 900 failed candidates each followed by a long valid stretch inside strings
  const s = '{"k": "{' + 'x'.repeat(200000) + '"'.repeat(1);
  timed(() => assert.equal(S.firstObject(s.repeat(5)), null), 3000);
  // a huge string value, unterminated
  timed(() => assert.equal(S.firstObject('{"a": "' + 'y'.repeat(5000000)), null), 3000);
  // many small complete objects: the first wins at once
  timed(() => assert.notEqual(S.firstObject('[' + '{"a":1},'.repeat(200000) + ']'), null), 3000);
});

test('parseJSON: whole texts, iterative on deep input', () => {
  assert.deepEqual(plain(S.parseJSON(' [1, "a", null, true, {"b": []}] ').value),
    [{ num: '1' }, 'a', null, true, { b: [] }]);
  assert.equal(S.parseJSON('[1] x').ok, false);
  assert.equal(S.parseJSON('').ok, false);
  assert.equal(S.parseJSON('"a"').value, 'a');
  const deep = '['.repeat(50000) + ']'.repeat(50000);
  assert.equal(S.parseJSON(deep).ok, true);
  assert.equal(S.parseJSON(deep, 100).ok, false);
});
