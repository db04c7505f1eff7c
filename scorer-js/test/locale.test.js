'use strict';
// Rule 3.1: the locale grammar, currency markers and the percent sign.
const test = require('node:test');
const assert = require('node:assert/strict');
const { S } = require('./helpers.js');

function read(s, locale, type) {
  const d = S.readLocaleString(s, locale, type || 'count');
  return d === null ? null : d.toString();
}

test('separator table', () => {
  for (const loc of ['en-US', 'en-GB', 'es-MX', 'ja-JP']) {
    assert.equal(read('1,234.56', loc), '1234.56');
    assert.equal(read('1234.56', loc), '1234.56');
    assert.equal(read('1,234', loc), '1234');
    assert.equal(read('1.234', loc), '1.234');
    assert.equal(read('1.234,56', loc), null);
    assert.equal(read('1234,56', loc), null);
    assert.equal(read('1 234.56', loc), null);
  }
  assert.equal(read('1.234,56', 'de-DE'), '1234.56');
  assert.equal(read('1.234', 'de-DE'), '1234');
  assert.equal(read('1,234', 'de-DE'), '1.234');
  assert.equal(read('1,234.56', 'de-DE'), null);
  for (const g of ['\u202f', '\u00a0', ' ']) {
    assert.equal(read(`1${g}234,56`, 'fr-FR'), '1234.56');
    assert.equal(read(`1${g}234${g}567`, 'fr-FR'), '1234567');
  }
  assert.equal(read('1\u202f234\u00a0567 890,5', 'fr-FR'), '1234567890.5');
  assert.equal(read('1\u2009234,56', 'fr-FR'), null);     // thin space is not accepted
  assert.equal(read('1  234,56', 'fr-FR'), null);
  assert.equal(read('1.234,56', 'fr-FR'), null);
  assert.equal(read('1234.56', 'fr-FR'), null);
});

test('grammar: integer part, groups, fraction, sign', () => {
  const ok = { '0': '0', '007': '7', '001,234': '1234', '+12': '12', '-12': '-12', '\u221212.5': '-12.5',
    '+1,234.50': '1234.5', '123,456,789,012,345,678,901,234,567,890': '123456789012345678901234567890',
    ' 12 ': '12', '\u3000\t12\u2028': '12', '0.000': '0' };
  for (const [s, v] of Object.entries(ok)) assert.equal(read(s, 'en-US'), v, JSON.stringify(s));
  const bad = ['', '.5', '12.', '1e3', '1E3', '(12)', '--1', '+-1', '- 1', '1-', '1,23', '1,2345', '12,34,567',
    '1,234.5,6', ',123', '1,234,', '1,,234', '1_234', '0x10', 'NaN', 'Infinity', '１２', '١٢', '12 .5',
    '1.2.3', '\u201012', '\ufe6312', '\uff0d12', '12\u200b', '1234,567.89'];
  for (const s of bad) assert.equal(read(s, 'en-US'), null, JSON.stringify(s));
});

test('currency markers: money only, one, at the very start or end', () => {
  const m = (s, loc) => read(s, loc || 'en-US', 'money');
  for (const s of ['$12', '12$', '$ 12', '12 $', '€12', '12 €', '£12', '¥12', '￥12', '12円', '12 円',
    'US$12', 'US$ 12', '12 US$', 'MX$12', '12MX$', 'A$12', 'C$12', 'R$12', 'USD 12', '12USD', 'XYZ12',
    ' $12 ', '12 $ ', '$-12', '$\u221212', '$\u00a012', '-$12', '\u2212US$ 12', '+EUR12']) {
    assert.ok(m(s) === '12' || m(s) === '-12', JSON.stringify(s));
  }
  for (const s of ['$$12', '$12 USD', '€ 12 EUR', 'usd 12', 'Usd 12', 'EURO 12', 'EU 12', '12 dollars',
    '$', 'USD', '12$00', '-$-12', '- $12', '-$12 USD', '$(12)', '12 %', 'S$12']) {
    assert.equal(m(s), null, JSON.stringify(s));
  }
  assert.equal(m('1.234,56 €', 'de-DE'), '1234.56');
  assert.equal(m('EUR 1.234,56', 'de-DE'), '1234.56');
  assert.equal(m('1\u202f234,56\u00a0€', 'fr-FR'), '1234.56');
  assert.equal(read('$12', 'en-US', 'count'), null);
  assert.equal(read('$12', 'en-US', 'number'), null);
});

test('percent sign: number only, one, at the very end', () => {
  const p = (s, loc) => read(s, loc || 'en-US', 'number');
  assert.equal(p('12.5%'), '12.5');
  assert.equal(p('12.5 %'), '12.5');
  assert.equal(p(' 12.5\u202f% '), '12.5');
  assert.equal(p('-3.2%'), '-3.2');
  assert.equal(p('12,5 %', 'de-DE'), '12.5');
  assert.equal(p('12.5%%'), null);
  assert.equal(p('%12.5'), null);
  assert.equal(p('12.5 % %'), null);
  assert.equal(p('12.5 ‰'), null);
  assert.equal(read('12.5%', 'en-US', 'money'), null);
  assert.equal(read('3%', 'en-US', 'count'), null);
});

test('unknown locale throws', () => {
  assert.throws(() => S.readLocaleString('1', 'de-AT', 'money'), /unknown locale/);
  assert.throws(() => S.scoreField({ name: 'x', type: 'text', kind: 'printed', answer: 'a' }, 'a', 'xx'), /unknown locale/);
  assert.throws(() => S.scoreItem({ id: 'i', document: {}, fields: [] }, {}, 'r', 0), /unknown locale/);
});

test('wrong reasons name the locale', () => {
  const r = S.scoreField({ name: 'x', type: 'money', kind: 'printed', answer: '1234.56' }, '1,234.56', 'de-DE');
  assert.equal(r.verdict, 'wrong');
  assert.equal(r.reason, 'not a number in de-DE');
});
