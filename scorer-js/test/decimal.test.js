'use strict';
// Rule 3.2: exact decimal comparison of money, counts and numbers; rounding of numbers.
const test = require('node:test');
const assert = require('node:assert/strict');
const { S, val, verdict } = require('./helpers.js');

const D = (s) => S.parsePlainDecimal(s);
const J = (s) => val(s).decimal;

test('equal values compare equal whatever their written form', () => {
  assert.ok(D('12.5').equals(D('12.50')));
  assert.ok(D('0012.500').equals(D('12.5')));
  assert.ok(D('-0.00').equals(D('0')));
  assert.ok(J('1.2e3').equals(D('1200')));
  assert.ok(J('12e-1').equals(D('1.2')));
  assert.ok(J('-0').equals(D('0')));
  assert.ok(J('1.23456789012345678901234567890e29').equals(D('123456789012345678901234567890')));
  assert.ok(!D('12.499').equals(D('12.50')));
  assert.ok(!J('12.500000000000000001').equals(D('12.5')));
  assert.ok(!J('1e400').equals(D('1')));
  assert.ok(!J('1e-400').equals(D('0')));
  assert.ok(!D('-1').equals(D('1')));
  assert.ok(J('1e400').equals(J('10e399')));
});

test('huge exponents stay cheap', () => {
  const t0 = Date.now();
  const big = J('1e1000000');
  const tiny = J('1e-1000000');
  assert.ok(!big.equals(D('1')));
  assert.ok(tiny.roundHalfAway(2).equals(D('0')));
  assert.ok(big.roundHalfAway(2).equals(big));
  assert.equal(verdict({ name: 'x', type: 'money', kind: 'printed', answer: '1.00' }, '1e1000000'), 'wrong');
  assert.equal(verdict({ name: 'x', type: 'number', kind: 'computed', answer: '0.0', places: 1 }, '1e-1000000'), 'correct');
  assert.ok(Date.now() - t0 < 1000);
});

test('an exponent beyond +-1,000,000 is a number out of range (rule 1.1): wrong, never an error', () => {
  assert.equal(J('1e1000001'), null);
  assert.equal(J('0e1000000000000000000'), null);
  assert.equal(J('1E-0001000001'), null);
  assert.ok(J('1e+0001000000').equals(J('1e1000000')));
  const money = { name: 'x', type: 'money', kind: 'printed', answer: '0.00' };
  assert.equal(verdict(money, '0e1000000000000000000'), 'wrong');
  assert.equal(verdict({ name: 'x', type: 'number', kind: 'computed', answer: '0.0', places: 1 }, '1e-999999999999999999'), 'wrong');
  assert.equal(verdict({ name: 'x', type: 'text', kind: 'missing', answer: null }, '1e9999999'), 'invented');
});

test('rounding half away from zero', () => {
  const r = (s, p) => D(s).roundHalfAway(p).toString();
  assert.equal(r('12.45', 1), '12.5');
  assert.equal(r('12.44999', 1), '12.4');
  assert.equal(r('-12.45', 1), '-12.5');
  assert.equal(r('2.675', 2), '2.68');
  assert.equal(r('1.005', 2), '1.01');
  assert.equal(r('0.125', 2), '0.13');
  assert.equal(r('0.95', 1), '1');
  assert.equal(r('9.995', 2), '10');
  assert.equal(r('12.5', 0), '13');
  assert.equal(r('-12.5', 0), '-13');
  assert.equal(r('0.5', 0), '1');
  assert.equal(r('0.4', 0), '0');
  assert.equal(r('0.05', 1), '0.1');
  assert.equal(r('0.0049', 2), '0');
  assert.equal(r('-0.04', 1), '0');
  assert.equal(r('0.005', 2), '0.01');
  assert.equal(r('0.0005', 2), '0');
  assert.equal(r('123', 2), '123');
});

test('money: exact, no tolerance', () => {
  const f = { name: 'total', type: 'money', kind: 'printed', answer: '12.50' };
  assert.equal(verdict(f, '12.5'), 'correct');
  assert.equal(verdict(f, '"12.500"'), 'correct');
  assert.equal(verdict(f, '12.499'), 'wrong');
  assert.equal(verdict(f, '12.51'), 'wrong');
  assert.equal(verdict(f, 'true'), 'wrong');
  assert.equal(verdict(f, '[12.5]'), 'wrong');
  assert.equal(verdict(f, '{"v": 12.5}'), 'wrong');
  const jpy = { name: 'total', type: 'money', kind: 'printed', answer: '1200' };
  assert.equal(verdict(jpy, '1200.0', 'ja-JP'), 'correct');
  assert.equal(verdict(jpy, '"1,200.00"', 'ja-JP'), 'correct');
});

test('count: exact integer', () => {
  const f = { name: 'n', type: 'count', kind: 'printed', answer: 3 };
  assert.equal(verdict(f, '3'), 'correct');
  assert.equal(verdict(f, '3.0'), 'correct');
  assert.equal(verdict(f, '"3.00"'), 'correct');
  assert.equal(verdict(f, '0.3e1'), 'correct');
  assert.equal(verdict(f, '3.5'), 'wrong');
  assert.equal(verdict(f, '3.0000000000000000000001'), 'wrong');
  assert.equal(verdict(f, '"3%"'), 'wrong');
  // the checked answer may also arrive as an exact JsonNumber (CLI input)
  assert.equal(verdict({ ...f, answer: val('3') }, '3'), 'correct');
  const big = { name: 'n', type: 'count', kind: 'printed', answer: val('123456789012345678901234567890') };
  assert.equal(verdict(big, '123456789012345678901234567890'), 'correct');
  assert.equal(verdict(big, '123456789012345678901234567891'), 'wrong');
});

test('number: rounded to the stated places, then exact', () => {
  const f = { name: 'g', type: 'number', kind: 'computed', answer: '12.5', places: 1 };
  assert.equal(verdict(f, '12.45'), 'correct');
  assert.equal(verdict(f, '12.549'), 'correct');
  assert.equal(verdict(f, '12.55'), 'wrong');
  assert.equal(verdict(f, '"12.45 %"'), 'correct');
  assert.equal(verdict(f, '"12,45%"', 'de-DE'), 'correct');
  assert.equal(verdict(f, '0.125'), 'wrong');
  assert.throws(() => S.scoreField({ name: 'g', type: 'number', kind: 'computed', answer: '1' }, val('1'), 'en-US'));
});

test('malformed checked answers are errors, not verdicts', () => {
  assert.throws(() => S.scoreField({ name: 'x', type: 'money', kind: 'printed', answer: '1,00' }, val('1'), 'en-US'));
  assert.throws(() => S.scoreField({ name: 'x', type: 'money', kind: 'printed', answer: true }, val('1'), 'en-US'));
  assert.throws(() => S.scoreField({ name: 'x', type: 'date', kind: 'printed', answer: '2026-02-30' }, val('1'), 'en-US'));
  assert.throws(() => S.scoreField({ name: 'x', type: 'colour', kind: 'printed', answer: 'x' }, val('1'), 'en-US'));
});
