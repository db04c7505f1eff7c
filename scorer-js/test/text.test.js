'use strict';
// Rules 1.2 and 3.3 to 3.7: nulls, text, identifiers, dates, currency codes, lists.
const test = require('node:test');
const assert = require('node:assert/strict');
const { S, val, verdict } = require('./helpers.js');

const WS = ['\t', '\n', '\u000b', '\f', '\r', ' ', '\u0085', '\u00a0', '\u1680', '\u2000', '\u2005',
  '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000'];
const NOT_WS = ['\u200b', '\ufeff', '\u001c', '\u001f', '\u180e', '\u2060', '\u00ad'];

test('text normalisation: NFC, lower case, White_Space runs', () => {
  assert.equal(S.normalizeText('  Müller \t&  Söhne\u00a0GmbH \n'), 'müller & söhne gmbh');
  assert.equal(S.normalizeText('Ko\u0308ln'), 'k\u00f6ln');
  assert.equal(S.normalizeText('ΟΔΟΣ'), 'οδος'.slice(0, 3) + 'ς');   // final sigma, as Python
  assert.equal(S.normalizeText('İ'), 'i\u0307');
  assert.equal(S.normalizeText('STRASSE'), 'strasse');
  assert.notEqual(S.normalizeText('Straße'), S.normalizeText('STRASSE'));
  for (const w of WS) assert.equal(S.normalizeText(`${w}a${w}${w}b${w}`), 'a b', JSON.stringify(w));
  for (const w of NOT_WS) assert.equal(S.normalizeText(`a${w}b`), `a${w}b`, JSON.stringify(w));
});

test('null: absent, JSON null, empty or White_Space-only strings', () => {
  const f = { name: 'x', type: 'text', kind: 'missing', answer: null };
  assert.equal(verdict(f, undefined), 'null_ok');
  assert.equal(verdict(f, 'null'), 'null_ok');
  assert.equal(verdict(f, '""'), 'null_ok');
  assert.equal(verdict(f, JSON.stringify(WS.join(''))), 'null_ok');
  for (const w of NOT_WS) assert.equal(verdict(f, JSON.stringify(w)), 'invented');
  assert.equal(verdict(f, '"null"'), 'invented');
  assert.equal(verdict(f, '0'), 'invented');
  assert.equal(verdict(f, 'false'), 'invented');
  assert.equal(verdict(f, '[]'), 'invented');
  const p = { name: 'x', type: 'text', kind: 'printed', answer: 'Acme' };
  assert.equal(verdict(p, '" \u3000 "'), 'false_null');
});

test('text and identifier values', () => {
  const t = { name: 'v', type: 'text', kind: 'printed', answer: 'Café  Noir' };
  assert.equal(verdict(t, '"CAFE\u0301 NOIR"'), 'correct');
  assert.equal(verdict(t, '"Cafe Noir"'), 'wrong');
  assert.equal(verdict(t, '"Café Noir."'), 'wrong');
  assert.equal(verdict(t, 'true'), 'wrong');
  const id = { name: 'id', type: 'identifier', kind: 'printed', answer: 'INV-00042' };
  assert.equal(verdict(id, '"inv-00042"'), 'correct');
  assert.equal(verdict(id, '"INV-42"'), 'wrong');
  assert.equal(verdict(id, '"INV00042"'), 'wrong');
  assert.equal(verdict(id, '"INV 00042"'), 'wrong');
  const n = { name: 'id', type: 'identifier', kind: 'printed', answer: '42' };
  assert.equal(verdict(n, '42'), 'correct');
  assert.equal(verdict(n, '42.0'), 'wrong');
  assert.equal(verdict(n, '42e0'), 'wrong');
  assert.equal(verdict(n, '4.2e1'), 'wrong');
  assert.equal(verdict({ ...n, answer: '0042' }, '42'), 'wrong');
  assert.equal(verdict({ ...n, answer: '-42' }, '-42'), 'correct');
  assert.equal(verdict({ ...t, answer: '7' }, '7'), 'correct');
});

test('dates: YYYY-MM-DD that exists', () => {
  const f = { name: 'd', type: 'date', kind: 'printed', answer: '2028-02-29' };
  assert.equal(verdict(f, '"2028-02-29"'), 'correct');
  assert.equal(verdict(f, '"\u00a02028-02-29\\n"'), 'correct');
  for (const s of ['2028-2-29', '29/02/2028', '2028-02-29T00:00:00', '20280229', '+2028-02-29', '２０２８-０２-２９', '2028-02-29Z']) {
    const r = S.scoreField(f, s, 'en-US');
    assert.equal(r.verdict, 'wrong', s);
    assert.equal(r.reason, 'not an ISO date', s);
  }
  assert.equal(verdict(f, '20280229'), 'wrong');
  const r = S.scoreField({ ...f, answer: '2026-03-01' }, '2026-02-29', 'en-US');
  assert.equal(r.reason, 'not an ISO date');
  assert.equal(S.scoreField({ ...f, answer: '2100-03-01' }, '2100-02-29', 'en-US').reason, 'not an ISO date');
  assert.equal(S.scoreField({ ...f, answer: '2000-02-29' }, '2000-02-29', 'en-US').verdict, 'correct');
  assert.equal(S.scoreField(f, '2028-03-01', 'en-US').reason, 'differs from checked answer');
});

test('currency codes', () => {
  const f = { name: 'c', type: 'currency', kind: 'printed', answer: 'EUR' };
  assert.equal(verdict(f, '" eur\\n"'), 'correct');
  assert.equal(verdict(f, '"€"'), 'wrong');
  assert.equal(verdict(f, '"E U R"'), 'wrong');
  assert.equal(verdict(f, '978'), 'wrong');
  assert.equal(verdict(f, '["EUR"]'), 'wrong');
});

test('lists: multisets, order, unreadable elements', () => {
  const f = { name: 'line_items', type: 'list', kind: 'printed',
    item_fields: { description: 'text', amount: 'money' },
    answer: [{ description: 'Coffee', amount: '3.50' }, { description: 'Coffee', amount: '3.50' },
      { description: 'Bagel', amount: '2.25' }] };
  const run = (json, locale) => S.scoreField(f, val(json), locale || 'en-US');
  let r = run('[{"description":"coffee","amount":3.5},{"description":"Coffee","amount":"$3.50"},{"description":"Bagel","amount":"2.250","qty":1}]');
  assert.deepEqual([r.verdict, r.order], ['correct', 'same']);
  r = run('[{"description":"Bagel","amount":2.25},{"description":"Coffee","amount":3.5},{"description":"Coffee","amount":3.5}]');
  assert.deepEqual([r.verdict, r.order], ['correct', 'different']);
  r = run('[{"description":"Coffee","amount":3.5},{"description":"Bagel","amount":2.25}]');
  assert.deepEqual([r.verdict, r.reason, r.order], ['wrong', '1 missing, 0 extra', '']);
  r = run('[{"description":"Coffee","amount":3.5},{"description":"Coffee","amount":3.5},{"description":"Coffee","amount":3.5},{"description":"Bagel","amount":2.25}]');
  assert.deepEqual([r.verdict, r.reason], ['wrong', '0 missing, 1 extra']);
  r = run('[{"description":"Coffee","amount":"3,50"},{"description":"Coffee","amount":3.5},{"description":"Bagel","amount":2.25}]');
  assert.deepEqual([r.verdict, r.reason], ['wrong', '1 missing, 1 extra']);
  r = run('[{"description":"Coffee","amount":"3,50"},{"description":"Coffee","amount":"3,5"},{"description":"Bagel","amount":"2,25 €"}]', 'de-DE');
  assert.deepEqual([r.verdict, r.order], ['correct', 'same']);
  r = run('[{"description":"Coffee","amount":3.5},"Coffee 3.50",{"description":"Bagel","amount":2.25}]');
  assert.equal(r.verdict, 'wrong');
  r = run('[{"description":"Coffee","amount":3.5},{"description":"Coffee"},{"description":"Bagel","amount":2.25}]');
  assert.equal(r.verdict, 'wrong');
  assert.equal(run('[]').verdict, 'wrong');
  assert.equal(run('{"description":"Coffee","amount":3.5}').verdict, 'wrong');
  assert.equal(run('"Coffee"').verdict, 'wrong');
  assert.equal(S.scoreField(f, '  ', 'en-US').verdict, 'false_null');
  const missing = { ...f, kind: 'missing', answer: null };
  assert.equal(S.scoreField(missing, val('[]'), 'en-US').verdict, 'invented');
  assert.equal(S.scoreField(missing, null, 'en-US').verdict, 'null_ok');
  // an element with a null sub-field matches a checked element whose sub-field is null
  const g = { ...f, answer: [{ description: 'Fee', amount: null }] };
  assert.equal(S.scoreField(g, val('[{"description":"fee"}]'), 'en-US').verdict, 'correct');
  assert.equal(S.scoreField(g, val('[{"description":"fee","amount":0}]'), 'en-US').verdict, 'wrong');
});
