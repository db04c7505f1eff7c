'use strict';
// Unit tests of the ra-bench script's trickiest rules (content/pages/scoring-ra-bench.md).
const test = require('node:test');
const assert = require('node:assert/strict');
const C = require('../core.js');
const R = require('../../generator/suites/rabench/scorer.js');

function val(json) {
  const r = C.parseJSON(json);
  if (!r.ok) throw new Error('bad JSON in test: ' + json);
  return r.value;
}
function dec(s) { return C.parsePlainDecimal(s); }
function amount(json) { const d = R.readAmount(val(json)); return d === null ? null : R.canonical(d); }
function record(content) {
  return { attempts: [{ status: 200, error: null }], response: { choices: [{ message: { content } }] } };
}
function label(extra) {
  return Object.assign({ fields: {}, adds_up: true, fake: false, fake_class: null, edited_field: null,
    provenance: 'intact', lineage: null, hard_negative: false }, extra);
}
function rows(lab, content) {
  return R.scoreItem({ id: 'x', label: lab }, record(content), 'r', 0)
    .map((r) => r.unit + '=' + r.verdict + (r.order ? '@' + r.order : ''));
}
function unit(lab, content, name) {
  const r = R.scoreItem({ id: 'x', label: lab }, record(content), 'r', 0).find((x) => x.unit === name);
  return r && r.verdict;
}

test('canonical decimal: no exponent, no trailing zeros, no negative zero', () => {
  assert.equal(amount('0.70'), '0.7');
  assert.equal(amount('1.0'), '1');
  assert.equal(amount('5E-1'), '0.5');
  assert.equal(amount('"-0.00"'), '0');
  assert.equal(amount('1e2'), '100');
  assert.equal(amount('1E-7'), '0.0000001');
  assert.equal(amount('"0025.540"'), '25.54');
  assert.equal(amount('-0.0'), '0');
});

test('amount reading: symbols, commas and White_Space removed; nothing else', () => {
  assert.equal(amount('"$ 1,234.50"'), '1234.5');
  assert.equal(amount('"€12,50"'), '1250');          // a comma is removed, never a decimal mark
  assert.equal(amount('"£\\u00a012.50\\u3000"'), '12.5');
  assert.equal(amount('"-3.10"'), '-3.1');
  for (const bad of ['"+5"', '"5."', '".5"', '"¥5"', '"\\u22125"', '"١٢"', '"5\\u200b"', '"5\\u001c"',
    '"1e2"', 'true', 'null', '[5]', '{}', '"twelve"']) {
    assert.equal(amount(bad), null, bad);
  }
});

test('within 0.01 is exact, however many digits', () => {
  assert.equal(R.withinCent(dec('25.55'), dec('25.54')), true);
  assert.equal(R.withinCent(dec('25.53'), dec('25.54')), true);
  assert.equal(R.withinCent(dec('25.551'), dec('25.54')), false);
  // |a - b| = 0.01 + 1e-31: not within (a 28-digit decimal context would round it to 0.01)
  assert.equal(R.withinCent(dec('25.5500000000000000000000000000001'), dec('25.54')), false);
  assert.equal(R.withinCent(dec('25.5499999999999999999999999999999'), dec('25.54')), true);
  assert.equal(R.withinCent(val('2554E-2').decimal, dec('25.54')), true);
  assert.equal(R.withinCent(val('1E+999999').decimal, dec('25.54')), false);   // no giant BigInt
  assert.equal(R.withinCent(val('1E-999999').decimal, dec('0')), true);
  assert.equal(R.withinCent(val('1E-999999').decimal, dec('0.02')), false);
});

test('risk: a JSON number in [0, 1], compared exactly; flagged at 0.5', () => {
  const lab = label({ fields: {} });
  const dec0 = (r) => rows(lab, '{"fields": {}, "risk": ' + r + '}').find((x) => x.startsWith('decision'));
  assert.equal(dec0('0.5'), 'decision=false_flag@0.5');
  assert.equal(dec0('0.49999999999999999999999999999999'), 'decision=cleared@0.49999999999999999999999999999999');
  assert.equal(dec0('5E-1'), 'decision=false_flag@0.5');
  assert.equal(dec0('1.00000000000000000000000000000001'), 'decision=cleared');
  assert.equal(dec0('-0.0'), 'decision=cleared@0');
  assert.equal(dec0('"0.8"'), 'decision=cleared');
  assert.equal(dec0('true'), 'decision=cleared');
});

test('name normalisation: NFKD, accents, case, & -> and, punctuation, whitespace', () => {
  assert.equal(R.normalizeName('  Café  Rosé & Sons!! '), 'cafe rose and sons');
  assert.equal(R.normalizeName('ＣＡＦＥ'), 'cafe');                  // full-width, by NFKD
  assert.equal(R.normalizeName('Hoﬆel'), 'hostel');                   // ligature, by NFKD
  assert.equal(R.normalizeName('Harbour_Hotel'), 'harbourhotel');     // _ is punctuation
  assert.equal(R.normalizeName('Harbour\u200bHotel'), 'harbourhotel'); // ZWSP is not White_Space
  assert.equal(R.normalizeName('A\u3000\u00a0B'), 'a b');
  assert.equal(R.normalizeName('Nº 5²'), 'no 52');
});

test('similarity thresholds are exact, over code points', () => {
  // m = 10: d = 1 gives exactly 0.9 (passes), d = 2 gives 0.8
  assert.equal(R.similarAtLeast('abcdefghij', 'abcdefghiX', 9, 10), true);
  assert.equal(R.similarAtLeast('abcdefghij', 'abcdefghXX', 9, 10), false);
  assert.equal(R.similarAtLeast('abcdefghij', 'abcdefghXX', 4, 5), true);
  assert.equal(R.similarAtLeast('', '', 9, 10), true);
  assert.equal(R.similarAtLeast('a', '', 4, 5), false);
  // an astral character is one code point (two UTF-16 units)
  assert.equal(R.levenshtein('ab𠀀', 'abc'), 1);
  assert.equal(R.similarAtLeast('abcdefghi𠀀', 'abcdefghij', 9, 10), true);
  assert.equal(R.levenshtein('kitten', 'sitting'), 3);
  assert.equal(R.levenshtein('', 'abc'), 3);
});

test('receipt number: letters and digits only, lower-cased; a JSON number is wrong', () => {
  const lab = label({ fields: { receipt_number: 'A-9805' } });
  const rn = (json) => unit(lab, '{"fields": {"receipt_number": ' + json + '}}', 'field:receipt_number');
  assert.equal(rn('"a 9805"'), 'correct');
  assert.equal(rn('"A_98.05"'), 'correct');
  assert.equal(rn('"A-09805"'), 'wrong');
  assert.equal(rn('9805'), 'wrong');
  assert.equal(rn('"Ａ-9805"'), 'wrong');     // no NFKD for receipt numbers
  assert.equal(rn('"  "'), 'false_null');
});

test('field nulls use White_Space only', () => {
  const lab = label({ fields: { merchant: null } });
  const m = (json) => unit(lab, '{"fields": {"merchant": ' + json + '}}', 'field:merchant');
  assert.equal(m('"\\u00a0\\u3000\\u0085"'), 'null_ok');
  assert.equal(m('"\\u200b"'), 'invented');
  assert.equal(m('"\\u001c"'), 'invented');
  assert.equal(m('0'), 'invented');
});

test('line items: a maximum matching, not a greedy one', () => {
  // L1 may pair with E1 or E2, L2 only with E1: greedy L1->E1 would give 1; the maximum is 2
  const L = [{ description: 'Coffee', total: '3.00' }, { description: 'Coffee', total: '3.01' }];
  const E = val('[{"description": "coffee", "total": "3.01"}, {"description": "Cofee", "total": 2.995}]');
  // L1 3.00: E1 (3.01, within) and E2 (2.995, within); L2 3.01: E1 (exact), E2 (0.015 off: no)
  assert.deepEqual(R.countLineItems(L, E), { tp: 2, fp: 0, fn: 0 });
  // bad entries are extra: they count in fp
  const E2 = val('[{"description": "Coffee", "total": "3.00"}, "Coffee", {"description": 5, "total": "3.01"}, null]');
  assert.deepEqual(R.countLineItems(L, E2), { tp: 1, fp: 3, fn: 1 });
  // one extracted item pairs with one labelled item only
  assert.deepEqual(R.countLineItems(L.slice(0, 1).concat(L.slice(0, 1)), val('[{"description": "Coffee", "total": "3"}]')),
    { tp: 1, fp: 0, fn: 1 });
});

test('reasons point at a field by tag, check kind or keyword', () => {
  const at = (el, f) => R.pointsAt(R.readReason(val(el)), f);
  // tags alone: a kind that points at nothing turns the keyword rule off
  const tag = (text) => JSON.stringify({ text: text, kind: 'visual' });
  assert.equal(at(tag('see @total'), 'total'), true);
  assert.equal(at(tag('see @total_x'), 'total'), false);
  assert.equal(at(tag('see @totalé'), 'total'), false);
  assert.equal(at(tag('see @total2'), 'total'), false);
  assert.equal(at(tag('see @total-x'), 'total'), true);
  assert.equal(at(tag('@total_x and @total'), 'total'), true);
  assert.equal(at(tag('@tax_total'), 'total'), false);
  assert.equal(at(tag('@tax_total'), 'tax_total'), true);
  assert.equal(at(tag('@Total'), 'total'), false);
  assert.equal(at(tag('@line_items'), 'line_items'), true);
  // without a kind the keyword rule applies too: "total" is a whole word in "@total_x"
  assert.equal(at('"see @total_x"', 'total'), true);
  assert.equal(at('"@Total"', 'total'), true);
  assert.equal(at('{"text": "the total", "kind": "visual"}', 'total'), false); // keywords do not
  assert.equal(at('{"text": "the total", "kind": ""}', 'total'), false);      // "" is a kind
  assert.equal(at('{"text": "the total", "kind": null}', 'total'), true);
  assert.equal(at('{"text": "x", "kind": "totals_add_up"}', 'subtotal'), true);
  assert.equal(at('{"text": "x", "kind": "tax_rate"}', 'tax_total'), true);
  assert.equal(at('{"text": "x", "kind": "receipt_age"}', 'date'), true);
  assert.equal(at('{"text": "total", "kind": "currency"}', 'total'), false);
  assert.equal(at('"SUB-TOTAL"', 'total'), true);
  assert.equal(at('"subtotal"', 'total'), false);
  assert.equal(at('"totals"', 'total'), false);
  assert.equal(at('"total_x"', 'total'), true);       // _ is not a letter or digit
  assert.equal(at('"total²"', 'total'), false);       // ² is a number (No)
  assert.equal(at('"Amount Due"', 'total'), true);
  assert.equal(at('"amount\\u00a0due"', 'total'), false);
  assert.equal(at('"VAT"', 'tax_total'), true);
  assert.equal(at('"names"', 'merchant'), false);
  assert.equal(at('{"text": 5, "detail": "total"}', 'total'), false);
  assert.equal(at('5', 'total'), false);
});

test('edited field: only the first 3 reasons, only when flagged', () => {
  const lab = label({ fake: true, fake_class: 'inpainted', edited_field: 'total' });
  const ef = (risk, reasons) => unit(lab, '{"fields": {}, "risk": ' + risk + ', "reasons": ' + reasons + '}', 'edited_field');
  assert.equal(ef('0.9', '[null, 1, ["total"], "total"]'), 'not_named');
  assert.equal(ef('0.9', '[null, 1, "total"]'), 'named');
  assert.equal(ef('0.4', '["total"]'), 'not_flagged');
  assert.equal(ef('0.9', '{"0": "total"}'), 'not_named');
  assert.equal(unit(label({ fake: true, fake_class: 'ai_full' }), '{"fields": {}, "risk": 1}', 'edited_field'), undefined);
});

test('proof: a proof kind with a non-blank detail; arithmetic needs an ASCII digit', () => {
  const pf = (el) => R.isProof(R.readReason(val(el)));
  assert.equal(pf('{"kind": "pdf_modified", "detail": "x"}'), true);
  assert.equal(pf('{"kind": "pdf_modified", "detail": "\\u00a0 "}'), false);
  assert.equal(pf('{"kind": "pdf_modified", "detail": "\\u200b"}'), true);
  assert.equal(pf('{"kind": "pdf_modified", "detail": 5}'), false);
  assert.equal(pf('{"kind": "PDF_modified", "detail": "x"}'), false);
  assert.equal(pf('{"kind": "totals_add_up", "detail": "does not add up"}'), false);
  assert.equal(pf('{"kind": "totals_add_up", "detail": "١٠ + ٢"}'), false);
  assert.equal(pf('{"kind": "totals_add_up", "detail": "10 + 2 != 13"}'), true);
  assert.equal(pf('{"kind": "editor_tag", "detail": "Photoshop"}'), false);
  assert.equal(pf('"pdf_modified"'), false);
  // any position counts
  const lab = label({});
  assert.equal(unit(lab, '{"fields": {}, "reasons": ["a", "b", "c", "d", {"kind": "duplicate_match", "detail": "id 7"}]}', 'proof'), 'proof');
});

test('the JSON object that counts: first complete one, 100 levels, first 1,000 braces', () => {
  const A = '{"fields": {"total": "1"}}';
  const nest = (k) => '{"x": ' + '['.repeat(k - 1) + ']'.repeat(k - 1) + ', "fields": {}}';
  assert.ok(R.firstObject(nest(100)) !== null && C.hasOwn(R.firstObject(nest(100)), 'x'));
  assert.ok(!C.hasOwn(R.firstObject(nest(101)), 'x'));           // the inner {} counts instead
  assert.equal(R.firstObject('{'.repeat(999) + ' ' + A).fields.total, '1');
  assert.equal(R.firstObject('{'.repeat(1000) + ' ' + A), null);
  assert.equal(R.firstObject('"' + '{'.repeat(1000) + '" ' + A), null);   // braces in prose count
  assert.equal(R.firstObject('{"risk": NaN} ' + A).fields.total, '1');
  assert.equal(R.firstObject('{"a": 1, "a": 2}').a.literal, '2');
  const deep = '{"a": "' + '{'.repeat(5000) + '", "fields": {}}';   // one object holding many braces
  assert.ok(C.hasOwn(R.firstObject(deep), 'a'));
  // unclosed objects are skipped without re-parsing each (linear, not quadratic)
  const t0 = Date.now();
  assert.equal(R.firstObject('{"a": '.repeat(900) + 'x'), null);
  assert.ok(Date.now() - t0 < 2000);
});

test('an answer needs a fields object; failed calls and unparseable responses', () => {
  assert.equal(R.readOutcome(record('{"fields": [1]}')).status, 'unparseable');
  assert.equal(R.readOutcome(record('{"risk": 1}')).status, 'unparseable');
  assert.equal(R.readOutcome(record('{"fields": {}} {"fields": {"total": 1}}')).status, 'answer');
  assert.equal(R.readOutcome({ attempts: [{ status: 200, error: 'timeout' }] }).status, 'failed_call');
  assert.equal(R.readOutcome({ attempts: [{ status: 200, error: '' }], response: { choices: [] } }).status, 'unparseable');
  const lab = label({ fields: { total: '1.00' }, line_items: [{ description: 'a', total: '1' }], adds_up: false, fake: true,
    fake_class: 'hand_edited', edited_field: 'total' });
  assert.deepEqual(R.scoreItem({ id: 'x', label: lab }, { attempts: [{ status: 503 }] }, 'r', 2)
    .map((r) => [r.unit, r.verdict, r.order, r.points, r.repeat]), [
    ['field:total', 'failed_call', '', 0, 2], ['line_items', 'failed_call', '0 0 1', 0, 2],
    ['check:totals_add_up', 'failed_call', '', 0, 2], ['decision', 'missed', '', 0, 2],
    ['edited_field', 'not_flagged', '', 0, 2], ['proof', 'no_proof', '', 0, 2]]);
});

test('checks, duplicates and transforms', () => {
  const pos = label({ adds_up: false });
  const ck = (lab, v) => unit(lab, '{"fields": {}, "checks": ' + v + '}', 'check:totals_add_up');
  assert.equal(ck(pos, '{"totals_add_up": "failed"}'), 'found');
  assert.equal(ck(label({}), '{"totals_add_up": "failed"}'), 'false_flag');
  assert.equal(ck(pos, '{"totals_add_up": "passed"}'), 'missed');
  assert.equal(ck(pos, '{"totals_add_up": "Failed"}'), 'not_run');
  assert.equal(ck(pos, '[{"totals_add_up": "failed"}]'), 'not_run');
  const hn = label({ hard_negative: true });
  assert.equal(unit(hn, '{"fields": {}, "duplicate": {"seen_before": true}}', 'duplicate:hard_negative'), 'false_match');
  assert.equal(unit(label({}), '{"fields": {}, "duplicate": {"seen_before": 1}}', 'duplicate:genuine'), 'no_match');
  const tr = label({ lineage: { original: 'o', transform: 're_shot' } });
  assert.deepEqual(rows(tr, '{"fields": {}, "duplicate": {"seen_before": true, "match": "exact"}}'), ['duplicate:transform=exact_match']);
  assert.deepEqual(rows(tr, '{"fields": {}, "duplicate": {"seen_before": true, "match": "Exact"}}'), ['duplicate:transform=match']);
  assert.deepEqual(rows(tr, '{"duplicate": {"seen_before": true, "match": "exact"}}'), ['duplicate:transform=missed']);
});
