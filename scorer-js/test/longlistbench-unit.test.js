'use strict';
// Unit tests of scorer B's LongListBench script (plugins/longlistbench/scorer.js), one group per
// rule of content/pages/scoring-longlistbench.md. Every expected value is worked out by hand from
// the rule page (the working is in the comments).
const test = require('node:test');
const assert = require('node:assert');

const C = require('../core.js');
globalThis.TallyCore = globalThis.TallyCore || C;
const L = require('../../plugins/longlistbench/scorer.js');

function val(json) {
  const r = C.parseJSON(json);
  assert.ok(r.ok, 'JSON in a test: ' + json);
  return r.value;
}

function record(content) {
  return {
    attempts: [{ status: 200, error: null }],
    response: { choices: [{ message: { role: 'assistant', content: content } }] }
  };
}

function rows(gold, content, rec) {
  const out = L.scoreItem({ id: 'doc', gold: gold }, rec || record(content), 'run', 0);
  for (const r of out) assert.strictEqual(r.order, '');   // section 5: the rows carry no order
  return out.map((r) => [r.unit, r.verdict, r.points, r.counts]);
}

/** The counts of a records document: gold and prediction as JSON texts. */
function counts(goldJson, predJson) {
  const gold = val(goldJson).map(L.canonicalRecord);
  const n = L.countRecords(gold, val(predJson).map(L.canonicalRecord));
  return [n.E, n.G, n.P, n.F, n.GP, n.PP];
}

// ---------------------------------------------------------------------------------------------
// Section 3: terms
// ---------------------------------------------------------------------------------------------

test('collapse: White_Space trimmed and runs made one space', () => {
  assert.strictEqual(L.collapse('\u3000 a\u00a0\u2028\tb \u205f'), 'a b');
  assert.strictEqual(L.collapse('a\ufeffb'), 'a\ufeffb');   // U+FEFF is no White_Space
});

test('decimal canonical form and half-even rounding on exact decimals', () => {
  const d = (t) => val(t).decimal;
  assert.strictEqual(L.decimalText(d('1200.50')), '1200.5');
  assert.strictEqual(L.decimalText(d('1E+3')), '1000');
  assert.strictEqual(L.decimalText(d('-0.0400')), '-0.04');
  assert.strictEqual(L.decimalText(d('-0.0')), '0');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('2.675'), 2)), '2.68');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('0.125'), 2)), '0.12');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('0.135'), 2)), '0.14');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('0.005'), 2)), '0');       // tie, 0 is even
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('0.015'), 2)), '0.02');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('-0.005'), 2)), '0');      // no negative zero
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('-2.675'), 2)), '-2.68');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('9.995'), 2)), '10');      // carries
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('0.0049999999999999999999'), 2)), '0');
  assert.strictEqual(L.decimalText(L.roundHalfEven(d('1e-1000000'), 2)), '0');
  assert.strictEqual(L.roundHalfEven(d('1e1000000'), 2).coef, '1');          // stays compact
});

test('date forms and the date canonical form', () => {
  assert.strictEqual(L.dateCanonical('1/2/24'), '01/02/2024');
  assert.strictEqual(L.dateCanonical('2024-7-4'), '07/04/2024');
  assert.strictEqual(L.dateCanonical('2024/07/04'), '07/04/2024');
  assert.strictEqual(L.dateCanonical('7-4-2024'), '07/04/2024');
  assert.strictEqual(L.dateCanonical('12/31/0001'), '12/31/0001');
  assert.strictEqual(L.dateCanonical('1/1/68'), '01/01/2068');
  assert.strictEqual(L.dateCanonical('1/1/69'), '01/01/1969');
  assert.strictEqual(L.dateCanonical('1/1/00'), '01/01/2000');
  assert.strictEqual(L.dateCanonical('2/29/00'), '02/29/2000');   // 2000 is a leap year
  assert.strictEqual(L.dateCanonical('2/29/2024'), '02/29/2024');
  for (const t of ['2/29/2023', '2/29/1900', '1/1/0000', '0000-01-01', '0/1/2024', '00/01/2024',
    '1/0/2024', '13/1/2024', '4/31/2024', '1/ 5/2024', '1/2/024', '1/2/20245', '2024-7/4',
    '07-04-24', '٠١/٠٢/٢٠٢٤', '1/2/2024 ', 'x1/2/2024']) {
    assert.strictEqual(L.dateCanonical(t), null, t);
  }
});

test('region codes: parentheses at the end, the table, else unchanged', () => {
  assert.strictEqual(L.regionCode('texas'), 'tx');
  assert.strictEqual(L.regionCode('ontario (on)'), 'on');
  assert.strictEqual(L.regionCode('somewhere (zz)'), 'zz');
  assert.strictEqual(L.regionCode('texas (tx) north'), 'texas (tx) north');
  assert.strictEqual(L.regionCode('(abc)'), '(abc)');
  assert.strictEqual(L.regionCode('washington dc'), 'dc');
  assert.strictEqual(L.regionCode('washington'), 'wa');
  assert.strictEqual(L.regionCode('newfoundland'), 'nl');
  assert.strictEqual(L.regionCode('new  york'), 'new  york');
  assert.strictEqual(L.regionCode('constructor'), 'constructor');   // no inherited names
  assert.strictEqual(L.regionCode('tx'), 'tx');
});

test('code point order, not UTF-16 code units', () => {
  assert.ok(L.compareCodePoints('\uffff', '\u{1f600}') < 0);
  assert.ok(L.compareCodePoints('a', 'ab') < 0);
  assert.strictEqual(L.compareCodePoints('ab', 'ab'), 0);
});

// ---------------------------------------------------------------------------------------------
// 3.2.1-3.2.3: canonical values of records
// ---------------------------------------------------------------------------------------------

test('3.2.2 and 3.2.3: every example of the page', () => {
  const cases = {
    '$1,234.50': '1234.5', '(1,234.50)': '-1234.5', '-$5': '-5', '1,2,3': '123', '00.5': '0.5',
    '0,123': '123', '$-5': '$-5', '1.': '1.', '1e5': '1e5', '+5': '+5', '.5': '.5',
    '-0.00': '0', '(0)': '0', '0.00': '0', '12.5 %': '12.5%', '007': '007', '-0012': '-0012',
    '$1,200.50': '1200.5', '( $-5 )': '-5', '(5)': '-5', '( 5)': '-5', '(  5)': '-5',   // collapsed first
    '0': '0', '-0': '0', '1/2/24': '01/02/2024', ' Hello \t World ': 'hello world',
    '1 2 %': '12%', 'A\u00a0%': 'a%', '$': '$', '1,': '1',   // [0-9,]* takes the comma
     '-$1,000.000': '-1000',
    '١٢٣': '١٢٣', 'ÉCOLE': 'école', 'TRUE': 'true'
  };
  for (const [s, want] of Object.entries(cases)) assert.strictEqual(L.canonicalString(s), want, s);
  for (const s of ['', '   ', '\u3000\n']) assert.strictEqual(L.canonicalString(s), null, JSON.stringify(s));
});

test('3.2.1: numbers become texts (integer literals exactly, others half-even to 6 places)', () => {
  const n = (t) => L.canonicalNumber(val(t));
  assert.strictEqual(n('1200.5'), '1200.5');
  assert.strictEqual(n('-0'), '0');
  assert.strictEqual(n('0.0'), '0');
  assert.strictEqual(n('1e-7'), '0');
  assert.strictEqual(n('-0.0000001'), '0');
  assert.strictEqual(n('2.5e3'), '2500');
  assert.strictEqual(n('0.0000005'), '0');          // tie to even 0
  assert.strictEqual(n('0.0000015'), '0.000002');   // tie to even 2
  assert.strictEqual(n('1.00000050000001'), '1.000001');
  assert.strictEqual(n('100'), '100');
  assert.strictEqual(n('1' + '0'.repeat(150)), '1' + '0'.repeat(150));   // an integer literal: no bound
  assert.strictEqual(n('9.999999e99'), '9999999' + '0'.repeat(93));
  assert.strictEqual(n('1e100'), null);
  // The page's open point: the 10^100 bound is tested on the value as written, before rounding, so
  // a value just below it that rounds up to 10^100 is kept.
  assert.strictEqual(n('9'.repeat(100) + '.9999999'), '1' + '0'.repeat(100));
  assert.strictEqual(n('-1.0e100'), null);
  assert.strictEqual(n('1e1000001'), null);          // out of range
  assert.strictEqual(n('0e-1000001'), null);
  assert.strictEqual(L.canonicalNumber(1200.5), '1200.5');   // plain JS numbers (gold read with JSON.parse)
  assert.strictEqual(L.canonicalNumber(7), '7');
});

test('3.2.1: objects keep nulls, arrays are sorted by S, booleans are not texts', () => {
  const c = L.canonicalValue(val('{"b": [" Z ", 10, true, null, "a"], "a": "", "c": {"x": null}}'));
  // Elements' S: "\"z\"", "\"10\"", "true", "null", "\"a\"" -> sorted: "\"10\"" < "\"a\"" < "\"z\"" < null < true
  assert.strictEqual(c.s, '{"a":null,"b":["10","a","z",null,true],"c":{"x":null}}');
  assert.deepStrictEqual(c.c.b, ['10', 'a', 'z', null, true]);
});

test('3.2.5: serialisation S escapes', () => {
  assert.strictEqual(L.serialString('a"b\\c'), '"a\\"b\\\\c"');
  assert.strictEqual(L.serialString('\b\t\n\f\r\u0001\u001f'), '"\\b\\t\\n\\f\\r\\u0001\\u001f"');
  assert.strictEqual(L.serialString(' ~\u007f'), '" ~\u007f"');
  assert.strictEqual(L.serialString('é\u00a0\u{1f600}\uFFFF'), '"\\u00e9\\u00a0\\ud83d\\ude00\\uffff"');
  assert.strictEqual(L.serialString('\ud800'), '"\\ud800"');
  // Keys in code-point order of the key text: "z" (U+007A) before "é" (U+00E9), U+FFFF before U+1F600.
  assert.strictEqual(L.canonicalValue(val('{"é": "1", "z": "2"}')).s, '{"z":"2","\\u00e9":"1"}');
  assert.strictEqual(L.canonicalValue(val('{"\\ud83d\\ude00": "1", "\\uffff": "2"}')).s, '{"\\uffff":"2","\\ud83d\\ude00":"1"}');
});

// ---------------------------------------------------------------------------------------------
// 3.2.4: record-level fields
// ---------------------------------------------------------------------------------------------

test('3.2.4: each record-level field', () => {
  const f = L.recordField;
  assert.strictEqual(f('vehicle', 'unit 12'), '12');
  assert.strictEqual(f('vehicle', 'unit'), 'unit');
  assert.strictEqual(f('vehicle', 'truck unit 12'), 'truck unit 12');
  assert.strictEqual(f('vehicle', 'units 12'), 'units 12');
  assert.strictEqual(f('schedule', 'quarter return 2024'), 'quarterly return 2024');
  assert.strictEqual(f('schedule', 'quarter return'), 'quarterly return');
  assert.strictEqual(f('schedule', 'quarter return.'), 'quarterly return.');
  assert.strictEqual(f('schedule', 'quarter returns'), 'quarter returns');
  assert.strictEqual(f('schedule', 'quarter return_2'), 'quarter return_2');
  assert.strictEqual(f('schedule', 'quarter return2'), 'quarter return2');
  assert.strictEqual(f('schedule', 'quarter return\u0663'), 'quarter return\u0663');   // Arabic-Indic digit: N
  assert.strictEqual(f('schedule', 'quarter return\u0301'), 'quarterly return\u0301'); // a mark is no L or N
  assert.strictEqual(f('schedule', 'my quarter return'), 'my quarter return');
  assert.strictEqual(f('state', 'texas'), 'tx');
  assert.strictEqual(f('jurisdiction', 'quebec (qc)'), 'qc');
  assert.strictEqual(f('policy_state', 'yukon'), 'yt');
  assert.strictEqual(f('loss_state', 'district of columbia'), 'dc');
  assert.strictEqual(f('province', 'texas'), 'texas');   // not a region key
  assert.strictEqual(f('fuel_type', 'special diesel (sd-2)'), 'sd-2');
  assert.strictEqual(f('fuel_type', 'diesel'), 'di');
  assert.strictEqual(f('fuel_type', 'diesel (x_y)'), 'diesel (x_y)');
  assert.strictEqual(f('fuel_type', 'gasoline'), 'gasoline');
  assert.strictEqual(f('lob', 'bpp'), 'bop');
  assert.strictEqual(f('lob', 'business owners policy'), 'bop');
  assert.strictEqual(f('lob', 'commercial general liability'), 'cgl');
  assert.strictEqual(f('lob', 'workers\' compensation and employers liability'), 'wc');
  assert.strictEqual(f('lob', 'workers’ compensation'), 'workers’ compensation');   // not the ASCII apostrophe
  assert.strictEqual(f('policy_period', '04/01/2026 to 04/01/2027'), '04/01/2026 - 04/01/2027');
  assert.strictEqual(f('policy_period', '2026/4/1-2027-4-1'), '04/01/2026 - 04/01/2027');
  assert.strictEqual(f('policy_period', '2026-4/1 to 13/1/2027'), '2026-4/1 - 13/1/2027');   // matches that are no dates stay
  assert.strictEqual(f('policy_period', '4/1/26 - 4/1/27'), '04/01/2026 - 04/01/2027');
  assert.strictEqual(f('policy_period', '4/1/2026'), '4/1/2026');
  assert.strictEqual(f('policy_period', '1/1/2026, 2/1/2026, 3/1/2026'), '1/1/2026, 2/1/2026, 3/1/2026');
  // "123/45/67890": the first alternative finds "23/45/6789" (no date): one match, unchanged.
  assert.strictEqual(f('policy_period', '123/45/67890'), '123/45/67890');
  assert.strictEqual(f('clause_scope', 'applies within texas; except dallas'), 'texas');
  assert.strictEqual(f('clause_scope', 'texas ; dallas; x'), 'texas');
  assert.strictEqual(f('clause_scope', 'applies within'), 'applies within');
  // The page's open point: a change that leaves "" keeps the text "" (a text, not null).
  assert.strictEqual(f('clause_scope', 'applies within ;x'), '');
  const r = L.canonicalRecord(val('{"clause_scope": ";x"}'));
  assert.strictEqual(r.s, '{"clause_scope":""}');
  assert.strictEqual(r.total, 1);
});

test('3.2.4: key names exactly, the changes only on texts, null keys dropped', () => {
  const r = L.canonicalRecord(val('{"Vehicle": "Unit 5", "vehicle": "Unit 5", "state": true, "fuel_type": null, "lob": ["BPP"], "x": "  "}'));
  assert.strictEqual(r.s, '{"Vehicle":"unit 5","lob":["bpp"],"state":true,"vehicle":"5"}');
});

test('3.2.6: field pairs (excluded keys, nesting, arrays without index)', () => {
  const r = L.canonicalRecord(val('{"record_type": "a", "record_id": "1", "applies_to_record_id": "2", "lob": "x", ' +
    '"policy_number": "p", "policy_period": "q", "named_insured": "n", "v": {"w": ["1", {"z": true}], "u": null}, "k": [["a"], "a"]}'));
  // pairs: v.w "1", v.w.z true, k "a" twice -> 4
  assert.strictEqual(r.total, 4);
  assert.strictEqual(r.pairs.size, 3);
});

// ---------------------------------------------------------------------------------------------
// 3.1: incidents
// ---------------------------------------------------------------------------------------------

function incident(over) {
  const z = () => ({ reserve: 0, paid: 0, recovered: 0, total_incurred: 0 });
  return Object.assign({
    incident_number: '#1', reference_number: 'r', company_name: 'c', division: 'd', coverage_type: 'ct',
    status: 's', policy_number: 'p', policy_state: 'TX', description: 'x', handler: 'h',
    date_of_loss: '1/1/2024', loss_state: 'TX', date_reported: '1/2/2024', insured: 'i', cause_code: null,
    unit_number: null, agency: null, driver_name: null, adjuster_notes: null, claimants: [],
    bi: z(), pd: z(), lae: z(), ded: z()
  }, over || {});
}

test('3.1: the key of an incident (prefixes tested once each, in order)', () => {
  assert.strictEqual(L.incidentKey('incident #inc-7'), '-7');
  assert.strictEqual(L.incidentKey('#76818-b'), '76818-b');
  assert.strictEqual(L.incidentKey('incident#12'), '12');
  assert.strictEqual(L.incidentKey('incident 12'), '12');
  assert.strictEqual(L.incidentKey('incident # 12'), '12');
  assert.strictEqual(L.incidentKey('##5'), '#5');          // "#" is removed once
  assert.strictEqual(L.incidentKey('incident #incident 5'), '5');   // then "incident " once
  assert.strictEqual(L.incidentKey('inc'), '');
  assert.strictEqual(L.incidentKey('income-1'), 'ome-1');
  assert.strictEqual(L.incidentKey('12'), '12');
});

test('3.1: canonical values of an incident, rule by rule', () => {
  const c = L.canonicalIncident(incident({
    description: '  Rear-end collision. .  ', unit_number: 'unit 00412345', claimants: [' B ', '', '\u{1f600}', '\uffff', 'a'],
    date_of_loss: ' 2024-7-4 ', date_reported: 'Jan  5,   2024', policy_state: ' Texas (TX) ', loss_state: '  ',
    cause_code: '', agency: ' ACME ', status: '  ', handler: 'ÉLODIE'
  })).values;
  assert.strictEqual(c.description, 'rear-end collision.');
  assert.strictEqual(c.unit_number, '00412345');
  assert.deepStrictEqual(c.claimants, ['a', 'b', '\uffff', '\u{1f600}']);
  assert.strictEqual(c.date_of_loss, '07/04/2024');
  assert.strictEqual(c.date_reported, 'Jan 5, 2024');   // no date: collapsed, not lowered
  assert.strictEqual(c.policy_state, 'tx');
  assert.strictEqual(c.loss_state, null);
  assert.strictEqual(c.cause_code, null);
  assert.strictEqual(c.agency, 'acme');
  assert.strictEqual(c.status, '');                      // a required text stays empty, not null
  assert.strictEqual(c.handler, 'élodie');
  const u = (v) => L.canonicalIncident(incident({ unit_number: v })).values.unit_number;
  assert.strictEqual(u('Truck 1234'), 'truck 1234');
  assert.strictEqual(u('12345'), '12345');
  assert.strictEqual(u('A-12345 '), '12345');
  assert.strictEqual(u('12345b'), '12345b');
  assert.strictEqual(u(' '), null);
});

test('3.1: amounts half-even to 2 places; zero amounts give no pair', () => {
  const a = L.canonicalIncident(incident({ bi: { reserve: val('2.675'), paid: val('0.004'), recovered: val('-0.005'), total_incurred: val('1e2') } }));
  assert.strictEqual(L.decimalText(a.values['bi.reserve']), '2.68');
  assert.strictEqual(a.values['bi.paid'].isZero(), true);
  assert.strictEqual(a.values['bi.recovered'].isZero(), true);
  assert.strictEqual(L.decimalText(a.values['bi.total_incurred']), '100');
  assert.strictEqual(a.pairs.length, 20 + 2);
  // 5 equals 5.00; the whole incidents compare amounts numerically
  const b = L.canonicalIncident(incident({ pd: { reserve: val('5'), paid: 0, recovered: 0, total_incurred: 0 } }));
  const c = L.canonicalIncident(incident({ pd: { reserve: val('5.00'), paid: val('0.0'), recovered: 0, total_incurred: val('0.001') } }));
  assert.strictEqual(b.whole, c.whole);
  assert.deepStrictEqual(b.pairs, c.pairs);
});

test('2.2: the shape of an incident', () => {
  assert.strictEqual(L.incidentProblem(incident()), null);
  assert.match(L.incidentProblem(incident({ extra: 1 })), /unknown key "extra"/);
  const missing = incident();
  delete missing.driver_name;
  assert.match(L.incidentProblem(missing), /lacks the key driver_name/);
  assert.match(L.incidentProblem(incident({ claimants: ['a', 1] })), /claimants/);
  assert.match(L.incidentProblem(incident({ claimants: null })), /claimants/);
  assert.match(L.incidentProblem(incident({ insured: null })), /insured is not a string/);
  assert.match(L.incidentProblem(incident({ agency: false })), /agency/);
  assert.match(L.incidentProblem(incident({ ded: { reserve: 0, paid: 0, recovered: 0 } })), /ded/);
  assert.match(L.incidentProblem(incident({ ded: { reserve: 0, paid: 0, recovered: 0, total: 0 } })), /ded.total_incurred/);
  assert.match(L.incidentProblem(incident({ ded: { reserve: '0', paid: 0, recovered: 0, total_incurred: 0 } })), /ded.reserve/);
  assert.match(L.incidentProblem(incident({ ded: { reserve: true, paid: 0, recovered: 0, total_incurred: 0 } })), /ded.reserve/);
  assert.match(L.incidentProblem(incident({ ded: { reserve: val('1e1000001'), paid: 0, recovered: 0, total_incurred: 0 } })), /ded.reserve/);
  assert.match(L.incidentProblem([]), /not an object/);
});

// ---------------------------------------------------------------------------------------------
// Section 1: items
// ---------------------------------------------------------------------------------------------

test('section 1: the schema of an item', () => {
  assert.strictEqual(L.schemaOf([]), 'incidents');
  assert.strictEqual(L.schemaOf([{ a: 1 }]), 'records');
  assert.strictEqual(L.schemaOf([{ incident_number: '1' }]), 'incidents');
  assert.strictEqual(L.schemaOf([{ incident_number: '1' }, { record_type: 'x' }]), 'records');
  assert.strictEqual(L.schemaOf([{ a: 1 }, { incident_number: '1' }]), 'incidents');
});

test('section 1: item problems', () => {
  assert.deepStrictEqual(L.itemProblems({ id: 'a', gold: [] }), []);
  assert.deepStrictEqual(L.itemProblems({ id: 'a', gold: [incident()] }), []);
  assert.deepStrictEqual(L.itemProblems({ id: 'a', gold: [{ v: 1 }] }), []);
  assert.deepStrictEqual(L.itemProblems({ id: 'a' }), ['gold is missing']);
  assert.deepStrictEqual(L.itemProblems({ id: 'a', gold: {} }), ['gold is not an array']);
  assert.deepStrictEqual(L.itemProblems({ id: 'a', gold: [{ v: 1 }, 2] }), ['gold[1] is not an object']);
  const p = L.itemProblems({ id: 'a', gold: [incident(), { incident_number: '2' }] });
  assert.strictEqual(p.length, 1);
  assert.match(p[0], /^gold\[1\] is not a valid incident/);
  assert.match(L.itemProblems({ id: 'a', gold: [{ a: '1' }, incident()] })[0], /^gold\[0\]/);
  assert.throws(() => L.scoreItem({ id: 'a', gold: {} }, record('[]'), 'r', 0), /unusable: gold is not an array/);
});

// ---------------------------------------------------------------------------------------------
// Section 2: reading the reply
// ---------------------------------------------------------------------------------------------

test('section 2: failed calls, no content, not JSON, not the shape', () => {
  const gold = [{ v: 'x' }];
  assert.deepStrictEqual(rows(gold, null, { attempts: [{ status: 429, error: 'rate limited' }], response: null }),
    [['records', 'failed_call', 0, [0, 1, 0]], ['fields', 'failed_call', 0, [0, 1, 0]]]);
  assert.deepStrictEqual(rows(gold, null, { attempts: [] }),
    [['records', 'failed_call', 0, [0, 1, 0]], ['fields', 'failed_call', 0, [0, 1, 0]]]);
  assert.deepStrictEqual(rows(gold, null, { attempts: [{ status: 200 }], response: { choices: [] } }),
    [['records', 'unparseable', 0, [0, 1, 0]], ['fields', 'unparseable', 0, [0, 1, 0]]]);
  for (const bad of ['', 'null', '"x"', '{}', '{"records": null}', '[1]', '[{"v": "x"}] x', '[{"v": "x"},]', '{"v": "x"}']) {
    assert.deepStrictEqual(rows(gold, bad), [['records', 'unparseable', 0, [0, 1, 0]], ['fields', 'unparseable', 0, [0, 1, 0]]], bad);
  }
  assert.deepStrictEqual(rows(gold, '\u00a0```json[{"v": "X"}]```\u3000'), [['records', 'correct', 1, [1, 1, 1]], ['fields', 'correct', 1, [1, 1, 1]]]);
  assert.deepStrictEqual(rows(gold, '{"records": [{"v": "X"}], "records2": 1}'), [['records', 'correct', 1, [1, 1, 1]], ['fields', 'correct', 1, [1, 1, 1]]]);
});

// ---------------------------------------------------------------------------------------------
// Section 4: counts and matching
// ---------------------------------------------------------------------------------------------

test('4.2 step 2: anchors take the highest-numbered identical prediction', () => {
  const gold = [L.canonicalRecord(val('{"v": "x"}'))];
  const pred = [L.canonicalRecord(val('{"v": "X"}')), L.canonicalRecord(val('{"v": "x"}')), L.canonicalRecord(val('{"v": "y"}'))];
  // sorted predictions: p0 {"v":"x"}, p1 {"v":"x"}, p2 {"v":"y"}: g0 anchors with p1.
  const n = L.countRecords(gold, pred);
  assert.deepStrictEqual(n.matches, [[0, 1]]);
  assert.deepStrictEqual([n.E, n.F, n.GP, n.PP], [1, 1, 1, 3]);
});

test('4.2: a counted pair shared with a prediction makes a candidate even when o is larger elsewhere', () => {
  // g {a, b}; p0 {a, c}: m = 1, o = 1; p1 {b, d}: m = 1, o = 1 -> tie, the larger p (p1) wins.
  assert.deepStrictEqual(counts('[{"a": "1", "b": "1"}]', '[{"b": "1", "d": "1"}, {"a": "1", "c": "1"}]'), [0, 1, 2, 1, 2, 4]);
  const n = L.countRecords([L.canonicalRecord(val('{"a": "1", "b": "1"}'))],
    [L.canonicalRecord(val('{"a": "1", "c": "1"}')), L.canonicalRecord(val('{"b": "1", "d": "1"}'))]);
  assert.deepStrictEqual(n.matches, [[0, 1]]);
});

test('4.2: m counts min(times in g, times in p) per distinct counted pair; o every pair', () => {
  // g: t a x3, b; p: t a x2, b x2 -> m = o = 2 + 1 = 3.
  assert.deepStrictEqual(counts('[{"t": ["a", "a", "a", "b"]}]', '[{"t": ["a", "b", "a", "b"]}]'), [0, 1, 1, 3, 4, 4]);
});

test('4.2: the fan-out limit counts distinct free predictions, after anchoring', () => {
  const many = (n, extra) => JSON.stringify(Array.from({ length: n }, (_, i) => Object.assign({ k: 'a', n: 'f' + i }, extra)));
  // 251 records hold (k, a) but one is anchored to the second gold record: 250 free -> counted.
  const gold = '[{"k": "a", "f": "1"}, {"k": "a", "n": "f0"}]';
  assert.deepStrictEqual(counts(gold, many(251)), [1, 2, 251, 2 + 1, 4, 502]);
  // 252: 251 free -> not counted; only the anchor's pairs are found.
  assert.deepStrictEqual(counts(gold, many(252)), [1, 2, 252, 2, 4, 504]);
});

test('4.1: incidents counted by key, without matching', () => {
  const g = [incident({ incident_number: 'A' }), incident({ incident_number: 'B', status: 'open' })].map(L.canonicalIncident);
  const p = [incident({ incident_number: 'B' }), incident({ incident_number: 'A' }), incident({ incident_number: '' })].map(L.canonicalIncident);
  const n = L.countIncidents(g, p);
  // A exact (20 pairs); B: status differs (19 of 20); the empty key has 20 pairs of its own.
  assert.deepStrictEqual([n.E, n.G, n.P, n.F, n.GP, n.PP], [1, 2, 3, 39, 40, 60]);
});

/**
 * Section 4.2 read literally, with loops over every gold x predicted record: the reference the
 * indexed matching of the script is checked against on random documents.
 */
function literalMatching(goldIn, predIn) {
  const bySCmp = (a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0);
  const gold = goldIn.slice().sort(bySCmp);
  const pred = predIn.slice().sort(bySCmp);
  const gM = gold.map(() => false);
  const pM = pred.map(() => false);
  let E = 0;
  let F = 0;
  gold.forEach((g, gi) => {                                  // step 2
    let best = -1;
    pred.forEach((p, pi) => { if (!pM[pi] && p.s === g.s) best = pi; });
    if (best >= 0) { gM[gi] = true; pM[best] = true; E++; F += g.total; }
  });
  const n = (x) => pred.filter((p, pi) => !pM[pi] && p.pairs.has(x)).length;   // step 3
  const cands = [];
  gold.forEach((g, gi) => {                                  // step 4
    if (gM[gi]) return;
    pred.forEach((p, pi) => {
      if (pM[pi]) return;
      let m = 0;
      let o = 0;
      g.pairs.forEach((cg, x) => {
        const cp = p.pairs.get(x) || 0;
        o += Math.min(cg, cp);
        if (n(x) <= 250) m += Math.min(cg, cp);
      });
      if (m > 0) cands.push([m, o, gi, pi]);
    });
  });
  cands.sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2] || b[3] - a[3]);   // step 5
  for (const [, o, gi, pi] of cands) {
    if (gM[gi] || pM[pi]) continue;
    gM[gi] = true;
    pM[pi] = true;
    F += o;
  }
  return [E, F];
}

test('4.2: the indexed matching equals a literal reading of the rule on random documents', () => {
  let seed = 12345;
  const rnd = (k) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; };
  const randomRecord = () => {
    const r = {};
    const keys = 1 + rnd(4);
    for (let i = 0; i < keys; i++) {
      const k = ['a', 'b', 'c', 'd', 'e'][rnd(5)];
      r[k] = rnd(4) === 0 ? [String(rnd(3)), String(rnd(3))] : String(rnd(4));
    }
    return r;
  };
  for (let round = 0; round < 300; round++) {
    // Every 30th document has 245 to 264 predictions holding one pair, around the fan-out limit.
    const big = round % 30 === 0;
    const gold = Array.from({ length: 1 + rnd(8) }, randomRecord).map(L.canonicalRecord);
    const predRaw = Array.from({ length: big ? 245 + rnd(20) : rnd(10) }, randomRecord);
    if (big) predRaw.forEach((r, i) => { r.z = '1'; if (i % 2) r.y = String(i); });
    if (big) gold.push(L.canonicalRecord({ z: '1', a: '0' }));
    const pred = predRaw.map(L.canonicalRecord);
    const n = L.countRecords(gold, pred);
    assert.deepStrictEqual([n.E, n.F], literalMatching(gold, pred), 'round ' + round);
  }
});

// ---------------------------------------------------------------------------------------------
// Sections 4.3, 5 and 6: rows and figures (F1 edge cases)
// ---------------------------------------------------------------------------------------------

test('F1 and complete: empty gold with empty, unparseable and failed predictions', () => {
  const f = (r) => L.figures(L.scoreItem({ id: 'e', gold: [] }, r, 'run', 0));
  for (const r of [record('[]'), record('nope'), { attempts: [{ status: 500, error: 'x' }] }]) {
    const x = f(r);
    assert.strictEqual(x.complete, 1);
    assert.strictEqual(x.f1, 0);
    assert.strictEqual(x.exact_recall, null);
    assert.strictEqual(x.precision, 0);
    assert.strictEqual(x.recall, 0);
  }
  const rowsEmpty = L.scoreItem({ id: 'e', gold: [] }, record('[]'), 'run', 3);
  assert.deepStrictEqual(rowsEmpty.map((r) => [r.run, r.item, r.repeat, r.unit, r.kind, r.verdict, r.points, r.order, r.counts]),
    [['run', 'e', 3, 'records', 'records', 'correct', 1, '', [0, 0, 0]], ['run', 'e', 3, 'fields', 'fields', 'correct', 1, '', [0, 0, 0]]]);
  assert.strictEqual(typeof rowsEmpty[0].reason, 'string');
});

test('F1: empty prediction, a partial one, a full one, and an unparseable one on a non-empty gold', () => {
  const gold = [{ id: 'A', amt: '5' }, { id: 'B', amt: '6' }];
  const f = (c) => L.figures(L.scoreItem({ id: 'd', gold: gold }, typeof c === 'string' ? record(c) : c, 'run', 0));
  let x = f('[]');
  assert.deepStrictEqual([x.exact, x.gold_records, x.pred_records, x.complete, x.found, x.gold_pairs, x.pred_pairs, x.f1], [0, 2, 0, 0, 0, 4, 0, 0]);
  assert.strictEqual(x.missed_pairs, 4);
  // one exact record, one with amt wrong: E = 1, F = 2 + 1 = 3, GP = PP = 4: f1 = 6/8.
  x = f('[{"id": "b", "amt": 7}, {"id": "a", "amt": 5}]');
  assert.deepStrictEqual([x.exact, x.complete, x.found, x.f1, x.precision, x.recall, x.exact_recall, x.extra_pairs], [1, 0, 3, 0.75, 0.75, 0.75, 0.5, 1]);
  // plus a third, extra record of one pair: PP = 5, f1 = 6/9.
  x = f('[{"id": "b", "amt": 7}, {"id": "a", "amt": 5}, {"zz": 1}]');
  assert.strictEqual(x.f1, 6 / 9);
  assert.strictEqual(x.pred_records, 3);
  x = f('[{"id": "b", "amt": 6}, {"id": "a", "amt": 5}]');
  assert.deepStrictEqual([x.complete, x.f1, x.exact_recall], [1, 1, 1]);
  x = f('[{"id": "b", "amt": 6}');
  assert.deepStrictEqual([x.exact, x.gold_records, x.pred_records, x.found, x.gold_pairs, x.pred_pairs, x.f1], [0, 2, 0, 0, 4, 0, 0]);
  x = f({ attempts: [{ status: 200 }], response: 'x' });
  assert.deepStrictEqual([x.complete, x.f1, x.gold_pairs], [0, 0, 4]);
});

test('rows: verdicts and points of records and fields', () => {
  // Fields correct while records wrong: the same pairs under different record shapes.
  assert.deepStrictEqual(rows([{ a: { b: '1' } }], '[{"a.b": "1"}]'),
    [['records', 'wrong', 0, [0, 1, 1]], ['fields', 'correct', 1, [1, 1, 1]]]);
  assert.deepStrictEqual(rows([{ v: 'x' }], '{"records": [{"v": "x"}, {"v": "x"}]}'),
    [['records', 'wrong', 0, [1, 1, 2]], ['fields', 'wrong', 0, [1, 1, 2]]]);
});

test('section 5: the rows carry their counts as whole numbers and no order; the figures read the counts', () => {
  // Gold a, b; prediction a (exact) and c: E = 1, G = 2, P = 2; F = 1, GP = 2, PP = 2.
  const out = L.scoreItem({ id: 'd', gold: [{ v: 'a' }, { v: 'b' }] }, record('[{"v": "a"}, {"v": "c"}]'), 'run', 1);
  assert.deepStrictEqual(out.map((r) => Object.keys(r)),
    [0, 1].map(() => ['run', 'item', 'repeat', 'unit', 'kind', 'verdict', 'points', 'reason', 'order', 'counts']));
  assert.deepStrictEqual(out.map((r) => [r.unit, r.order, r.counts]), [['records', '', [1, 2, 2]], ['fields', '', [1, 2, 2]]]);
  // The figures come from the counts alone: other counts give other figures, whatever the order text.
  const changed = [Object.assign({}, out[0], { counts: [2, 2, 2], order: '0 0 0' }), Object.assign({}, out[1], { counts: [3, 4, 4] })];
  const x = L.figures(changed);
  assert.deepStrictEqual([x.exact, x.gold_records, x.pred_records, x.complete, x.found, x.gold_pairs, x.pred_pairs, x.f1],
    [2, 2, 2, 1, 3, 4, 4, 0.75]);
  // Counts as the exact parser reads them (JSON integer literals) are read too.
  const parsed = val(C.stringify(out));
  assert.deepStrictEqual(L.figures(parsed), L.figures(out));
  // Rows without three whole-number counts have no figures.
  for (const bad of [undefined, [], [1, 2], [1, 2, -1], [1, 2, 2.5], ['1', 2, 2], val('[1, 2.0, 2]')]) {
    assert.throws(() => L.figures([Object.assign({}, out[0], { counts: bad }), out[1]]), /not a records row with counts/, C.stringify(bad));
  }
  assert.throws(() => L.figures([out[1], out[0]]), /not a records row/);
});

// ---------------------------------------------------------------------------------------------
// Size: a 3,000-record document scores in well under a second
// ---------------------------------------------------------------------------------------------

/**
 * CPU milliseconds of f (the test machine may be shared, so wall time says little). About 0.4 s
 * cold for the 3,000-record document here; the bound leaves room for slow machines and stays far
 * below what a gold x prediction loop would take (9,000,000 pair comparisons and more).
 */
function cpuMs(f) {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

test('a synthetic 3,000-record document: counts by hand, and fast', () => {
  let out;
  const gold = [];
  const pred = [];
  for (let i = 0; i < 3000; i++) {
    const r = {
      record_type: 'vehicle', record_id: 'R' + i, vehicle: 'Unit ' + i, state: 'Texas', fuel_type: 'Diesel',
      miles: i * 10, gallons: (i % 97) + '.5', date: '1/' + (1 + (i % 28)) + '/2024', carrier: 'Carrier ' + (i % 50),
      notes: 'note ' + i, tags: ['t' + (i % 7), 'x']
    };
    gold.push(r);
    if (i % 100 === 1) continue;                                    // 30 records missing
    pred.push(i % 10 === 0 ? Object.assign({}, r, { miles: i * 10 + 1 }) : r);   // 300 with one pair wrong
  }
  for (let k = 0; k < 20; k++) pred.push({ record_type: 'vehicle', vehicle: 'Z' + k, state: 'TX' });   // 20 extra
  const content = JSON.stringify(pred);
  // Each gold record has 10 pairs (record_type and record_id have none): GP = 30,000. Exact: 3,000 -
  // 300 changed - 30 missing = 2,670. Each changed record meets its own gold record with m = 6
  // (vehicle, notes, gallons, date, carrier, its t tag; state, fuel_type and x are held by more than
  // 250 free predictions) and any other with m <= 4: F = 2,670 x 10 + 300 x 9 = 29,400.
  // PP = 2,970 x 10 + 20 x 2 = 29,740; P = 2,990.
  const ms = cpuMs(() => { out = L.scoreItem({ id: 'big', gold: gold }, record(content), 'run', 0); });
  assert.deepStrictEqual(out.map((r) => [r.unit, r.verdict, r.counts]),
    [['records', 'wrong', [2670, 3000, 2990]], ['fields', 'wrong', [29400, 30000, 29740]]]);
  assert.ok(ms < 1500, 'scored in ' + ms.toFixed(0) + ' ms of CPU time');
});

test('a 3,000-record document whose predictions all share one rare pair with every gold record', () => {
  // Worst case for candidates: every gold and predicted record holds (c, 1); with 3,000 free
  // predictions its fan-out is above 250, so it makes no candidate; nothing else is shared.
  let out;
  const gold = Array.from({ length: 3000 }, (_, i) => ({ c: '1', g: 'g' + i }));
  const pred = Array.from({ length: 3000 }, (_, i) => ({ c: '1', p: 'p' + i }));
  const ms = cpuMs(() => { out = L.scoreItem({ id: 'big2', gold: gold }, record(JSON.stringify(pred)), 'run', 0); });
  assert.deepStrictEqual(out.map((r) => r.counts), [[0, 3000, 3000], [0, 6000, 6000]]);
  assert.ok(ms < 1500, 'scored in ' + ms.toFixed(0) + ' ms of CPU time');
});
