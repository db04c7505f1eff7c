#!/usr/bin/env node
/*
 * Writes vectors.json (next to this file): the LongListBench suite's shared cases, one per rule
 * and boundary of content/pages/scoring-longlistbench.md.
 *
 *   node plugins/longlistbench/make-vectors.js            (writes vectors.json)
 *   node plugins/longlistbench/make-vectors.js --stdout   (prints it instead)
 *
 * This script only builds the JSON (items, records, the repetitive replies of the fan-out cases).
 * It never runs a scorer: every expected row below was worked out by hand from the rule page, and
 * the working is in the comment above each case. A reply is written as JSON text, so its numbers
 * keep the exact literal the case is about.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const cases = [];

function item(id, gold) {
  return {
    id: id,
    dataset: 'shared-cases',
    half: 'public',
    strata: {},
    document: { text: '(omitted in shared cases)' },
    gold: gold
  };
}

function reply(content) {
  return {
    item: 'case', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 200, error: null, latency_ms: 1.0 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: content } }] }
  };
}

function failedCall() {
  return {
    item: 'case', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 500, error: 'HTTP 500', latency_ms: 1.0 }],
    response: null
  };
}

function noContent() {
  return {
    item: 'case', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 200, error: null, latency_ms: 1.0 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: null } }] }
  };
}

/** The three counts a case writes as one text "a b c" (E G P or F GP PP): [a, b, c]. */
function counts(text) {
  if (!/^(0|[1-9][0-9]*) (0|[1-9][0-9]*) (0|[1-9][0-9]*)$/.test(text)) throw new Error('not three counts: ' + text);
  return text.split(' ').map(Number);
}

/**
 * A case; `rows` are [records verdict, records counts "E G P", fields verdict, fields counts
 * "F GP PP"]. Its expected rows are [unit, verdict, order, counts]: the rows carry no order ("").
 */
function add(id, note, it, record, rows) {
  cases.push({
    id: id,
    note: note,
    item: Object.assign({}, it, { id: id }),
    record: record,
    expected: [['records', rows[0], '', counts(rows[1])], ['fields', rows[2], '', counts(rows[3])]]
  });
}

const J = JSON.stringify;

// ---------------------------------------------------------------------------------------------
// Incidents (sections 2.2, 3.1, 4.1)
// ---------------------------------------------------------------------------------------------

function zeros() { return { reserve: 0, paid: 0, recovered: 0, total_incurred: 0 }; }

/*
 * The base incident. Canonical: incident_number "inc-1" (key: "inc" removed -> "-1"), policy_state
 * "tx", loss_state "texas" -> "tx", description "hit a pole", date_of_loss "01/02/2024",
 * date_reported "01/05/2024", unit_number "0012345" (a trailing run of 7 digits), claimants
 * ["carl moe"], cause_code/agency/adjuster_notes null. Pairs: the 20 keys of one pair each + the
 * two non-zero amounts pd.reserve and pd.total_incurred (100.50) = 22. (The page says "23 keys" and
 * "the 19 keys" but its table lists 24 keys, 20 of them not amounts, as LongListBench's
 * LossRunIncident has: the listed keys are what counts here.)
 */
function inc(over) {
  return Object.assign({
    incident_number: 'INC-1', reference_number: 'R-100', company_name: 'Acme Freight',
    division: 'East', coverage_type: 'Auto Liability', status: 'Open', policy_number: 'P-9',
    policy_state: 'TX', description: 'Hit a pole.', handler: 'Ann Lee', date_of_loss: '1/2/2024',
    loss_state: 'Texas', date_reported: '2024-01-05', insured: 'Acme Freight', cause_code: null,
    unit_number: 'Unit 0012345', agency: null, driver_name: 'Bob Ray', adjuster_notes: null,
    claimants: ['Carl Moe'],
    bi: zeros(), pd: { reserve: 100.5, paid: 0, recovered: 0, total_incurred: 100.5 }, lae: zeros(), ded: zeros()
  }, over || {});
}

const INC = item('x', [inc()]);
const UNP_INC = ['unparseable', '0 1 0', 'unparseable', '0 22 0'];

// The same incident: E = G = P = 1, F = GP = PP = 22.
add('inc-exact', 'the gold incident itself', INC, reply(J([inc()])),
  ['correct', '1 1 1', 'correct', '22 22 22']);

// Every value differs in writing only: "  inc-1 " trims to inc-1; "Texas (TX)" -> tx (parentheses);
// "Hit a pole..." -> every final dot removed; "1/5/24" -> 01/05/2024; "  " and "" -> null for the
// optional keys; "#0012345" -> 0012345; claimants trimmed, "" dropped; bi.reserve 0.004 -> 0.00
// (no pair, and 0 for the whole); pd.reserve 100.505 -> 100.50 (a tie, 0 is even). Identical.
add('inc-canonical-variants', 'rules 3.1 1-8: differences of writing only', INC,
  reply('[' + J(inc({
    incident_number: '  inc-1 ', company_name: 'ACME FREIGHT', division: ' east', status: 'OPEN',
    policy_number: 'p-9', policy_state: 'Texas (TX)', description: 'Hit a pole...', handler: 'ann lee',
    date_of_loss: '01/02/2024', loss_state: 'tx', date_reported: '1/5/24', cause_code: '  ',
    unit_number: '#0012345', driver_name: 'BOB RAY', adjuster_notes: '', claimants: [' carl moe ', '']
  })).replace('"bi":{"reserve":0,', '"bi":{"reserve":0.004,').replace('"pd":{"reserve":100.5,', '"pd":{"reserve":100.505,') + ']'),
  ['correct', '1 1 1', 'correct', '22 22 22']);

// 100.495 rounds half-even to 100.50 (the tie goes up to the even 0): identical.
add('inc-half-even-tie-up', 'amounts rounded half-even to 2 places: 100.495 -> 100.50', INC,
  reply('[' + J(inc()).replace('"pd":{"reserve":100.5,', '"pd":{"reserve":100.495,') + ']'),
  ['correct', '1 1 1', 'correct', '22 22 22']);

// 100.515 -> 100.52 (tie, 1 is odd): pd.reserve differs; E = 0, F = 21.
add('inc-half-even-differs', 'amounts: 100.515 -> 100.52, not 100.50', INC,
  reply('[' + J(inc()).replace('"pd":{"reserve":100.5,', '"pd":{"reserve":100.515,') + ']'),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// "Incident #INC-1" -> "incident #inc-1"; key: "incident #" removed -> "inc-1", "inc" removed -> "-1":
// the same key, but the incident_number pair differs. E = 0, F = 21.
add('inc-key-prefixes', 'the key drops incident #, then inc: same key, different incident_number', INC,
  reply(J([inc({ incident_number: 'Incident #INC-1' })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// "INC7" -> key "7" ("inc" removed); "7" -> key "7": the same key, the incident_number pair
// differs ("inc7" against "7"). E = 0, F = 21.
add('inc-key-inc-prefix', 'the key drops a leading inc', item('x', [inc({ incident_number: 'INC7' })]),
  reply(J([inc({ incident_number: '7' })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// Key "-2" against "-1": no pair meets. E = 0, F = 0.
add('inc-other-key', 'pairs carry the key: another key meets nothing', INC,
  reply(J([inc({ incident_number: 'INC-2' })])),
  ['wrong', '0 1 1', 'wrong', '0 22 22']);

// "Incident #" -> key "": a key of its own on both sides, so even the identical incident counts
// for no pair and no exact record. E = 0, F = 0.
add('inc-own-key', 'an empty key equals no other key, not even an identical incident\'s', item('x', [inc({ incident_number: 'Incident #' })]),
  reply(J([inc({ incident_number: 'Incident #' })])),
  ['wrong', '0 1 1', 'wrong', '0 22 22']);

// bi.paid 5 adds a pair (the gold's 0 has none): PP = 23, F = 22, E = 0.
add('inc-nonzero-amount-pair', 'a zero amount has no pair; a non-zero one does', INC,
  reply(J([inc({ bi: { reserve: 0, paid: 5, recovered: 0, total_incurred: 0 } })])),
  ['wrong', '0 1 1', 'wrong', '22 22 23']);

// Twice the gold incident: E = min(1, 2) = 1, F = min per pair = 22, P = 2, PP = 44.
add('inc-duplicate', 'a duplicate prediction: multiset intersections', INC,
  reply(J([inc(), inc()])),
  ['wrong', '1 1 2', 'wrong', '22 22 44']);

// Gold INC-1 and INC-2; prediction INC-1 only: E = 1, F = 22, G = 2, GP = 44.
add('inc-missing', 'a missing incident', item('x', [inc(), inc({ incident_number: 'INC-2' })]),
  reply(J([inc()])),
  ['wrong', '1 2 1', 'wrong', '22 44 22']);

// "Jan 2, 2024" is no date form: kept as collapsed text, not lowered; "jan 2, 2024" differs. F = 21.
add('inc-date-text-not-lowered', 'a date_of_loss that is no date is not lowered', item('x', [inc({ date_of_loss: 'Jan  2, 2024' })]),
  reply(J([inc({ date_of_loss: 'jan 2, 2024' })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// ... and collapsed: "Jan  2, 2024" equals "Jan 2, 2024".
add('inc-date-text-collapsed', 'a date_of_loss that is no date is collapsed', item('x', [inc({ date_of_loss: 'Jan  2, 2024' })]),
  reply(J([inc({ date_of_loss: ' Jan 2,\t2024' })])),
  ['correct', '1 1 1', 'correct', '22 22 22']);

// policy_state "New  York" is only trimmed: "new  york" is no name of the table; "NY" -> "ny" differs.
add('inc-region-not-collapsed', 'incident states are trimmed, not collapsed', item('x', [inc({ policy_state: 'New  York' })]),
  reply(J([inc({ policy_state: 'NY' })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// unit_number "Unit 1234": 4 trailing digits keep the whole text "unit 1234"; "1234" differs.
add('inc-unit-number-four-digits', 'a trailing run of fewer than 5 digits keeps the text', item('x', [inc({ unit_number: 'Unit 1234' })]),
  reply(J([inc({ unit_number: '1234' })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

// claimants ["Zed", "amy"] -> sorted ["amy", "zed"]; ["AMY", " zed"] gives the same.
add('inc-claimants-sorted', 'claimants lowered, trimmed and sorted', item('x', [inc({ claimants: ['Zed', 'amy'] })]),
  reply(J([inc({ claimants: ['AMY', ' zed'] })])),
  ['correct', '1 1 1', 'correct', '22 22 22']);

// ["amy", "amy"] is not ["amy"]: duplicates are kept. F = 21.
add('inc-claimants-duplicates-kept', 'claimants keep duplicates', item('x', [inc({ claimants: ['amy'] })]),
  reply(J([inc({ claimants: ['amy', 'amy'] })])),
  ['wrong', '0 1 1', 'wrong', '21 22 22']);

add('inc-wrapper-object', '{"incidents": [...]} is the shape', INC, reply(J({ incidents: [inc()] })),
  ['correct', '1 1 1', 'correct', '22 22 22']);

const noAgency = inc();
delete noAgency.agency;
add('inc-shape-missing-key', 'an incident without one of the 23 keys', INC, reply(J([noAgency])), UNP_INC);
add('inc-shape-extra-key', 'an incident with a 24th key', INC, reply(J([inc({ notes: 'x' })])), UNP_INC);
add('inc-shape-amount-string', 'a money amount written as a string', INC,
  reply('[' + J(inc()).replace('"pd":{"reserve":100.5,', '"pd":{"reserve":"100.5",') + ']'), UNP_INC);
add('inc-shape-amount-out-of-range', 'an out-of-range amount', INC,
  reply('[' + J(inc()).replace('"pd":{"reserve":100.5,"paid":0,', '"pd":{"reserve":100.5,"paid":0e1000001,') + ']'), UNP_INC);
add('inc-shape-optional-number', 'cause_code must be a string or null', INC, reply(J([inc({ cause_code: 5 })])), UNP_INC);
add('inc-shape-text-null', 'status must be a string', INC, reply(J([inc({ status: null })])), UNP_INC);
add('inc-shape-amount-extra-key', 'an amount object with a fifth key', INC,
  reply(J([inc({ bi: { reserve: 0, paid: 0, recovered: 0, total_incurred: 0, net: 0 } })])), UNP_INC);
add('inc-shape-wrapper-extra-key', 'an incidents wrapper with another key', INC,
  reply(J({ incidents: [inc()], count: 1 })), UNP_INC);
add('inc-shape-records-wrapper', 'an incidents item does not read {"records": ...}', INC,
  reply(J({ records: [inc()] })), UNP_INC);

// ---------------------------------------------------------------------------------------------
// Empty gold: the incidents schema; the empty prediction is complete
// ---------------------------------------------------------------------------------------------

const EMPTY = item('x', []);
add('empty-both', 'empty gold, empty prediction: both correct', EMPTY, reply('[]'),
  ['correct', '0 0 0', 'correct', '0 0 0']);
add('empty-gold-incidents-wrapper', 'empty gold is the incidents schema: {"incidents": []}', EMPTY,
  reply('{"incidents": []}'), ['correct', '0 0 0', 'correct', '0 0 0']);
add('empty-gold-records-wrapper', 'empty gold is the incidents schema: {"records": []} is not its shape', EMPTY,
  reply('{"records": []}'), ['unparseable', '0 0 0', 'unparseable', '0 0 0']);
add('empty-gold-plain-record', 'empty gold is the incidents schema: a free record is no incident', EMPTY,
  reply('[{"a": "1"}]'), ['unparseable', '0 0 0', 'unparseable', '0 0 0']);
// One predicted incident: P = 1, PP = 22, nothing found.
add('empty-gold-one-incident', 'empty gold, one predicted incident', EMPTY, reply(J([inc()])),
  ['wrong', '0 0 1', 'wrong', '0 0 22']);
add('empty-gold-failed-call', 'a failed call on an empty gold', EMPTY, failedCall(),
  ['failed_call', '0 0 0', 'failed_call', '0 0 0']);

// ---------------------------------------------------------------------------------------------
// Records: canonical values (3.2.1-3.2.3), one value v beside record_type (which has no pair)
// ---------------------------------------------------------------------------------------------

const SAME = ['correct', '1 1 1', 'correct', '1 1 1'];
// v differs: E = 0; the only pair differs, so m = 0, no candidate: F = 0.
const DIFF = ['wrong', '0 1 1', 'wrong', '0 1 1'];

function vcase(id, note, goldV, predText, rows) {
  add(id, note, item('x', [{ record_type: 'r', v: goldV }]),
    reply('[{"record_type": "r", "v": ' + predText + '}]'), rows);
}

vcase('rec-money-number', '"$1,200.50" and 1200.5 are both 1200.5', '$1,200.50', '1200.5', SAME);
vcase('rec-paren-negative', '"(1,234.50)" is -1234.5', '(1,234.50)', '-1234.5', SAME);
vcase('rec-minus-dollar', '"-$5" is -5', '-$5', '"-5"', SAME);
vcase('rec-commas-anywhere', '"1,2,3" is 123', '1,2,3', '123', SAME);
vcase('rec-leading-zero-fraction', '"00.5" is 0.5 (not zero-padded: it has a fraction)', '00.5', '0.50', SAME);
vcase('rec-zero-comma', '"0,123" is 123', '0,123', '"123"', SAME);
vcase('rec-zero-padded-kept', '"007" stays 007, not 7', '007', '7', DIFF);
vcase('rec-dollar-after-minus', '"$-5" is lowered text, not -5', '$-5', '-5', DIFF);
vcase('rec-plus-not-number', '"+5" is text, not 5', '+5', '5', DIFF);
vcase('rec-percent-spaces', '"12.5 %" is 12.5%', '12.5 %', '"12.5%"', SAME);
vcase('rec-percent-not-number', '"12.5 %" is not 12.5', '12.5 %', '12.5', DIFF);
vcase('rec-date-yy', '"1/2/24" is 01/02/2024', '1/2/24', '"2024-01-02"', SAME);
vcase('rec-date-yy-68', 'YY 68 is 2068', '12/31/68', '"12/31/2068"', SAME);
vcase('rec-date-yy-69', 'YY 69 is 1969', '1/1/69', '"01/01/1969"', SAME);
vcase('rec-date-mdy-dash', 'M-D-YYYY and YYYY/M/D', '7-4-2024', '"2024/7/4"', SAME);
vcase('rec-date-leap', '29 February 2024 exists', '2/29/2024', '"2024-02-29"', SAME);
// "2/29/2023" is no date: lowered text "2/29/2023" against "02/29/2023".
vcase('rec-date-not-leap', '29 February 2023 is no date, kept as text', '2/29/2023', '"02/29/2023"', DIFF);
vcase('rec-date-1900-not-leap', '1900 is not a leap year', '2/29/1900', '"1900-02-29"', DIFF);
vcase('rec-year-0000', 'year 0000 is no date', '1/1/0000', '"01/01/0000"', DIFF);
vcase('rec-month-00', 'month 00 is no date', '00/01/2024', '"0/1/2024"', DIFF);
// 0.1234565: the dropped digit is exactly 5, 6 is even: 0.123456.
vcase('rec-round6-tie-down', '0.1234565 rounds half-even to 0.123456', '0.123456', '0.1234565', SAME);
// 0.1234575: tie, 7 is odd: 0.123458.
vcase('rec-round6-tie-up', '0.1234575 rounds half-even to 0.123458', '0.123458', '0.1234575', SAME);
vcase('rec-round6-long', 'a long fraction above the tie rounds up', '0.123457', '0.12345650000000000000001', SAME);
vcase('rec-tiny-zero', '1e-7 rounds to 0', '0', '1e-7', SAME);
vcase('rec-exponent', '2.5e3 is 2500, "2,500" too', '2,500', '2.5e3', SAME);
vcase('rec-negative-zero', '-0 is 0', '0.00', '-0', SAME);
vcase('rec-negative-zero-text', '"(0.00)" is 0, not -0', '0', '"(0.00)"', SAME);
vcase('rec-long-integer', 'an integer literal is exact, never a float', '12345678901234567890123', '12345678901234567890123', SAME);
vcase('rec-long-integer-differs', 'one unit off in the 23rd digit', '12345678901234567890123', '12345678901234567890124', DIFF);
vcase('rec-bool-not-text', 'true is not "true"', true, '"true"', DIFF);
vcase('rec-collapse', 'White_Space collapsed and lowered', 'A  B', '"a\\u00a0\\u2003b"', SAME);
vcase('rec-unicode-lower', 'lowered beyond ASCII', 'ÉCOLE', '"école"', SAME);
vcase('rec-array-sorted', 'arrays are compared sorted', ['b', 'A'], '["a", "B"]', ['correct', '1 1 1', 'correct', '2 2 2']);
vcase('rec-nested-object', 'objects by key, any order', { city: 'Newark', zip: '07001' }, '{"zip": "07001", "city": "NEWARK"}',
  ['correct', '1 1 1', 'correct', '2 2 2']);

// A key whose value is null is dropped; a missing key, null, "" and "   " are the same.
const A1 = { record_type: 'r', a: '1' };
add('rec-null-blank-missing', 'null, blank and missing are the same', item('x', [{ record_type: 'r', a: '1', b: null }]),
  reply('[{"record_type": "r", "a": "1", "b": "   ", "c": ""}]'), SAME);
add('rec-float-1e100-dropped', 'a non-integer literal of 10^100 or more is null, so dropped', item('x', [A1]),
  reply('[{"record_type": "r", "a": "1", "v": 1.0e100}]'), SAME);
add('rec-out-of-range-dropped', 'an out-of-range number is null, so dropped', item('x', [A1]),
  reply('[{"record_type": "r", "a": "1", "v": 1e1000001}]'), SAME);
// 9.99e99 < 10^100 stays a text: an extra pair. E = 0; m(g, p) = 1 (a): F = 1, PP = 2.
add('rec-float-below-1e100-kept', '9.99e99 is below 10^100: kept', item('x', [A1]),
  reply('[{"record_type": "r", "a": "1", "v": 9.99e99}]'), ['wrong', '0 1 1', 'wrong', '1 1 2']);
add('rec-integer-googol-kept', 'an integer literal has no 10^100 bound', item('x', [A1]),
  reply('[{"record_type": "r", "a": "1", "v": 1' + '0'.repeat(100) + '}]'), ['wrong', '0 1 1', 'wrong', '1 1 2']);

// ---------------------------------------------------------------------------------------------
// Records: record-level fields (3.2.4)
// ---------------------------------------------------------------------------------------------

function kcase(id, note, key, goldV, predV, rows) {
  const g = { record_type: 'r' };
  g[key] = goldV;
  const p = { record_type: 'r' };
  p[key] = predV;
  add(id, note, item('x', [g]), reply(J([p])), rows);
}

kcase('rec-vehicle', 'vehicle: "unit " removed', 'vehicle', 'Unit 5', 5, SAME);
kcase('rec-key-case-sensitive', '"Vehicle" is not "vehicle"', 'Vehicle', 'Unit 5', '5', DIFF);
kcase('rec-schedule', 'schedule: quarter return -> quarterly return', 'schedule', 'Quarter Return Q1', 'quarterly return q1', SAME);
kcase('rec-schedule-end', 'schedule: at the end of the text', 'schedule', 'quarter return', 'Quarterly Return', SAME);
kcase('rec-schedule-letter-after', 'schedule: not before a letter', 'schedule', 'quarter returns', 'quarterly returns', DIFF);
kcase('rec-schedule-underscore-after', 'schedule: not before _', 'schedule', 'quarter return_x', 'quarterly return_x', DIFF);
kcase('rec-schedule-non-ascii-letter-after', 'schedule: not before a letter beyond ASCII', 'schedule', 'quarter returné', 'quarterly returné', DIFF);
kcase('rec-schedule-dash-after', 'schedule: before a dash', 'schedule', 'Quarter Return-A', 'quarterly return-a', SAME);
kcase('rec-state-name', 'state: a name of the table', 'state', 'New York', 'NY', SAME);
kcase('rec-jurisdiction-paren', 'jurisdiction: two letters in parentheses at the end', 'jurisdiction', 'Ontario (ON)', 'on', SAME);
kcase('rec-loss-state-dc', 'loss_state: washington dc', 'loss_state', 'Washington  DC', 'DC', SAME);
kcase('rec-policy-state-unknown', 'policy_state: an unknown name stays', 'policy_state', 'Atlantis', 'ATLANTIS', SAME);
kcase('rec-state-name-not-prefix', 'state: names match whole', 'state', 'New York City', 'ny', DIFF);
kcase('rec-fuel-paren', 'fuel_type: the code in parentheses', 'fuel_type', 'Special Diesel (SD-2)', 'sd-2', SAME);
kcase('rec-fuel-diesel', 'fuel_type: diesel is di', 'fuel_type', 'Diesel', 'DI', SAME);
kcase('rec-fuel-diesel-exact', 'fuel_type: only exactly diesel', 'fuel_type', 'Diesel fuel', 'di', DIFF);
// lob has no pair: GP = PP = 0, so fields is correct with 0 0 0.
kcase('rec-lob-synonym', 'lob: workers\' compensation is wc (no pair)', 'lob', 'Workers\' Compensation', 'WC', ['correct', '1 1 1', 'correct', '0 0 0']);
kcase('rec-lob-differs', 'lob differs: the record is not exact, no pair is counted', 'lob', 'BOP', 'CGL', ['wrong', '0 1 1', 'correct', '0 0 0']);
kcase('rec-clause-scope', 'clause_scope: prefix and what follows ; removed', 'clause_scope', 'Applies within Texas; except Dallas', 'TEXAS', SAME);

// policy_period has no pair; a has one. "04/01/2026 to 04/01/2027" and "4/1/2026 - 2027-04-01" both
// give "04/01/2026 - 04/01/2027": identical.
add('rec-policy-period', 'policy_period: two dates, A - B', item('x', [{ record_type: 'r', a: '1', policy_period: '04/01/2026 to 04/01/2027' }]),
  reply(J([{ record_type: 'r', a: '1', policy_period: '4/1/2026 - 2027-04-01' }])), SAME);
// Three dates leave the text: "1/1/2026 - 1/2/2026 - 1/3/2026" and "01/01/2026 - 01/02/2026 -
// 01/03/2026" stay different. Not exact; the pair a matches: F = 1.
add('rec-policy-period-three-dates', 'policy_period: three dates leave the text', item('x', [{ record_type: 'r', a: '1', policy_period: '1/1/2026 - 1/2/2026 - 1/3/2026' }]),
  reply(J([{ record_type: 'r', a: '1', policy_period: '01/01/2026 - 01/02/2026 - 01/03/2026' }])), ['wrong', '0 1 1', 'correct', '1 1 1']);

// ---------------------------------------------------------------------------------------------
// Records: pairs, counts and matching (3.2.6, 4.2)
// ---------------------------------------------------------------------------------------------

// {"a": {"b": "1"}} and {"a.b": "1"}: S differ (E = 0), the one pair (a.b, 1) is the same: F = 1.
add('rec-dotted-path', 'a nested key and a dotted key give the same pair', item('x', [{ a: { b: '1' } }]),
  reply('[{"a.b": "1"}]'), ['wrong', '0 1 1', 'correct', '1 1 1']);
// Gold (t,a) x2 + (t,b); prediction (t,a) + (t,c): m = o = min(2, 1) = 1. F = 1, GP = 3, PP = 2.
add('rec-repeated-pairs', 'pairs are counted with repetition', item('x', [{ t: ['a', 'a', 'b'] }]),
  reply('[{"t": ["a", "c"]}]'), ['wrong', '0 1 1', 'wrong', '1 3 2']);
// id is not an excluded key (record_id is): (id, a) meets, amt differs. F = 1 of 2.
add('rec-partial-match', 'a partly right record', item('x', [{ record_type: 'r', id: 'A', amt: '5' }]),
  reply('[{"record_type": "r", "id": "a", "amt": "6"}]'), ['wrong', '0 1 1', 'wrong', '1 2 2']);
// record_id has no pair (but counts for S): no record is exact; matched by v alone
// (g0 "1","x" with p1 "2","x"; g1 "2","y" with p0 "1","y"), every pair is found: F = 2.
add('rec-record-id-no-pair', 'record_id has no pair', item('x', [{ record_id: '1', v: 'x' }, { record_id: '2', v: 'y' }]),
  reply('[{"record_id": "1", "v": "y"}, {"record_id": "2", "v": "x"}]'), ['wrong', '0 2 2', 'correct', '2 2 2']);
const R = { record_type: 'r', v: 'x' };
add('rec-duplicate-gold', 'two identical gold records, one predicted', item('x', [R, R]), reply(J([R])),
  ['wrong', '1 2 1', 'wrong', '1 2 1']);
add('rec-extra-prediction', 'one extra predicted record', item('x', [R]), reply(J([R, { record_type: 'r', v: 'y' }])),
  ['wrong', '1 1 2', 'wrong', '1 1 2']);
add('rec-reordered', 'record order does not matter', item('x', [{ v: '1' }, { v: '2' }, { v: '3' }]),
  reply('[{"v": 3}, {"v": 1}, {"v": 2}]'), ['correct', '3 3 3', 'correct', '3 3 3']);

// Sorted by S: g0 {"a":"1","b":"2"}, g1 {"a":"1","c":"5"}; p0 {"a":"1"}, p1 {"b":"2","d":"x"}.
// Candidates (all m = o = 1): (g0,p0), (g0,p1), (g1,p0). Larger g first: g1-p0, then g0-p1. F = 2.
// (Smaller g and smaller p first would give g0-p0 and F = 1.)
add('rec-greedy-numbers-descending', 'ties: larger numbers first', item('x', [{ a: '1', c: '5' }, { a: '1', b: '2' }]),
  reply('[{"b": "2", "d": "x"}, {"a": "1"}]'), ['wrong', '0 2 2', 'wrong', '2 4 3']);
// Sorted by S: g0 {"w":"1"}, g1 {"x":"1","y":"1"}; p0 {"b":"0","x":"1"}, p1 {"w":"1","y":"1"}.
// Candidates (all m = o = 1): (g1,p0) by x, (g1,p1) by y, (g0,p1) by w. In order (g1,p1), (g1,p0),
// (g0,p1): g1-p1, then g0 finds p1 taken: one match, F = 1. (Smaller g first would match g0-p1,
// then g1-p0: F = 2.) GP = 1 + 2, PP = 2 + 2.
add('rec-greedy-larger-g-first', 'ties: the larger gold number first, even when it leaves another unmatched',
  item('x', [{ x: '1', y: '1' }, { w: '1' }]),
  reply('[{"w": "1", "y": "1"}, {"b": "0", "x": "1"}]'), ['wrong', '0 2 2', 'wrong', '1 3 4']);
// g0 {"b":"1"}, g1 {"z":"1"}; p0 {"b":"1","z":"1"}, p1 {"c":"0","z":"1"}. Candidates (all m = o = 1):
// (g1,p1), (g1,p0), (g0,p0) in order: g1-p1, g0-p0. F = 2 (smaller p first: g1-p0, F = 1).
add('rec-greedy-larger-p-first', 'ties: the larger predicted number first', item('x', [{ z: '1' }, { b: '1' }]),
  reply('[{"c": "0", "z": "1"}, {"b": "1", "z": "1"}]'), ['wrong', '0 2 2', 'wrong', '2 2 4']);

function fillers(n, extra) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(Object.assign({}, extra, { n: 'f' + i }));
  return out;
}

// g: (t,x) x3, (y,1), (z,1): GP = 5. pA {"t":"x"}: m = min(3, 1) = 1, o = 1; pB {"y":"1","z":"1"}:
// m = o = 2. pB wins, F = 2 (a sum of g's counts alone would give pA m = 3, and F = 1). PP = 1 + 2.
add('rec-m-min-of-counts', 'm adds min(times in g, times in p), not the times in g', item('x', [{ t: ['x', 'x', 'x'], y: '1', z: '1' }]),
  reply('[{"t": "x"}, {"y": "1", "z": "1"}]'), ['wrong', '0 1 2', 'wrong', '2 5 3']);

// 250 predictions share (k, a): n = 250 <= 250, candidates m = o = 1: one match, F = 1.
add('rec-fan-out-250', 'a pair held by 250 free predictions still counts for m', item('x', [{ k: 'a', f: '1' }]),
  reply(J(fillers(250, { k: 'a' }))), ['wrong', '0 1 250', 'wrong', '1 2 500']);
// 251: n = 251 > 250, m = 0 for every prediction: no candidate, F = 0.
add('rec-fan-out-251', 'a pair held by 251 free predictions does not count for m', item('x', [{ k: 'a', f: '1' }]),
  reply(J(fillers(251, { k: 'a' }))), ['wrong', '0 1 251', 'wrong', '0 2 502']);
// 249 fillers + one record holding (k, a) twice: 250 distinct records (251 occurrences): counts.
add('rec-fan-out-distinct-records', 'fan-out counts records, not occurrences', item('x', [{ k: 'a', f: '1' }]),
  reply(J(fillers(249, { k: 'a' }).concat([{ k: ['a', 'a'] }]))), ['wrong', '0 1 250', 'wrong', '1 2 500']);
// g {a,b,h1,h2}; pX {a,h1,h2}: m = 1 (h1, h2 held by 251 records), o = 3; pY {a,b}: m = 2, o = 2.
// m first: pY, F = 2 (o first would give pX and F = 3). The fillers share only h1, h2: no candidate.
// PP = 3 + 2 + 250 x 3 = 755.
add('rec-greedy-m-before-o', 'm decides before o', item('x', [{ h1: '1', h2: '1', a: '1', b: '1' }]),
  reply(J([{ h1: '1', h2: '1', a: '1' }, { a: '1', b: '1' }].concat(fillers(250, { h1: '1', h2: '1' })))),
  ['wrong', '0 1 252', 'wrong', '2 4 755']);
// g {a,h}; pX {a,h,x} (S smaller, p0): m = 1, o = 2; pY {a,y} (p1): m = 1, o = 1. o decides: pX, F = 2
// (the larger p first would give pY, F = 1). PP = 3 + 2 + 250 x 2 = 505.
add('rec-greedy-o-before-p', 'o decides before the numbers', item('x', [{ a: '1', h: '1' }]),
  reply(J([{ a: '1', y: '1' }, { a: '1', h: '1', x: '1' }].concat(fillers(250, { h: '1' })))),
  ['wrong', '0 1 252', 'wrong', '2 2 505']);

// ---------------------------------------------------------------------------------------------
// Records: schema and reply shapes (sections 1, 2.1, 2.3)
// ---------------------------------------------------------------------------------------------

const RI = item('x', [R]);
const UNP_R = ['unparseable', '0 1 0', 'unparseable', '0 1 0'];
add('rec-schema-record-type-wins', 'record_type decides records even beside incident_number', item('x', [{ record_type: 'r', incident_number: '7', v: 'x' }]),
  reply('[{"record_type": "R", "incident_number": 7, "v": "X"}]'), ['correct', '1 1 1', 'correct', '2 2 2']);
add('rec-schema-no-type', 'no record_type and no incident_number: records', item('x', [{ a: '1' }]),
  reply('[{"a": 1}]'), SAME);
add('rec-wrapper-extra-keys', '{"records": [...]} with other keys', RI, reply('{"note": "x", "records": [{"record_type": "r", "v": "x"}]}'), SAME);
add('rec-wrapper-no-records', 'an object without records', RI, reply('{"items": [{"record_type": "r", "v": "x"}]}'), UNP_R);
add('rec-wrapper-records-object', 'records is not an array', RI, reply('{"records": {"record_type": "r", "v": "x"}}'), UNP_R);
add('rec-element-number', 'an element that is not an object', RI, reply('[{"record_type": "r", "v": "x"}, 1]'), UNP_R);
add('rec-element-array', 'an element that is an array', RI, reply('[[{"record_type": "r", "v": "x"}]]'), UNP_R);
add('rec-fence', 'one json code fence', RI, reply(' ```json\n[{"record_type": "r", "v": "x"}]\n```\n'), SAME);
add('rec-fence-upper', '```JSON is not removed', RI, reply('```JSON\n[{"record_type": "r", "v": "x"}]\n```'), UNP_R);
add('rec-prose', 'prose around the JSON', RI, reply('Here they are: [{"record_type": "r", "v": "x"}]'), UNP_R);
add('rec-bom', 'a byte order mark is not whitespace', RI, reply('\ufeff[{"record_type": "r", "v": "x"}]'), UNP_R);
add('rec-empty-prediction', 'the empty list', RI, reply('[]'), ['wrong', '0 1 0', 'wrong', '0 1 0']);
add('rec-no-content', 'no message content', RI, noContent(), UNP_R);
add('rec-failed-call', 'a failed call', RI, failedCall(), ['failed_call', '0 1 0', 'failed_call', '0 1 0']);
// 100 levels: array (1), object (2), 98 arrays around "x": one pair (v, x); S differs from the
// gold's "x". E = 0, F = 1.
add('rec-depth-100', '100 levels are read', RI,
  reply('[{"record_type": "r", "v": ' + '['.repeat(98) + '"x"' + ']'.repeat(98) + '}]'), ['wrong', '0 1 1', 'correct', '1 1 1']);
add('rec-depth-101', '101 levels are not', RI,
  reply('[{"record_type": "r", "v": ' + '['.repeat(99) + '"x"' + ']'.repeat(99) + '}]'), UNP_R);
add('rec-repeated-key-last', 'a repeated key keeps its last value', RI,
  reply('[{"record_type": "r", "v": "y", "v": "x"}]'), SAME);

const out = { suite: 'longlistbench', rules: 'content/pages/scoring-longlistbench.md', cases: cases };
const text = JSON.stringify(out, null, 1) + '\n';
if (process.argv.includes('--stdout')) {
  process.stdout.write(text);
} else {
  fs.writeFileSync(path.join(__dirname, 'vectors.json'), text);
  process.stdout.write(cases.length + ' cases\n');
}
