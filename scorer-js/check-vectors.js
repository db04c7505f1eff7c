'use strict';
// Runs the cases of a shared vectors file (tests/vectors/<suite>.json) through scorer B.
//
//   node scorer-js/check-vectors.js VECTORS SCRIPT [SCRIPT ...]
//
// loads core.js, then the suite scorer scripts (paths resolved against the current directory),
// scores every case with the suite scorer registered under the file's "suite", and prints every
// case scorer B disagrees with; the exit status is 1 when there is one. Two shapes of case:
//   - one field: {field, locale, expected: "<verdict>", expected_order?} and exactly one of
//     answer_json, content, record; the item has that one field, the verdict is its row's;
//   - whole item: {ledger: "<name in the file's ledgers>", expected: {verdicts: [[unit, verdict],
//     ...]}} and exactly one of content, record; the rows must be exactly those.
// An expected row (here and in a suite's own case files) is [unit, verdict], [unit, verdict, order]
// or [unit, verdict, order, [counts...]]: a 3-element row fixes the order text too, a 4-element row
// also the counts (the same integers, as many); `rowsDisagree` compares them.
// The tests in scorer-js/test/ use the functions exported here.
const fs = require('fs');
const path = require('path');
const C = require('./core.js');

/** Read a vectors file with scorer B's exact parser (a status written 200.0 stays 200.0). */
function loadVectors(file) {
  const r = C.parseJSON(fs.readFileSync(file, 'utf8'));
  if (!r.ok) throw new Error('vectors file is not valid JSON near offset ' + r.pos);
  return r.value;
}

/** Load suite scorer scripts in order, after the core (each registers itself). */
function loadScripts(scripts) {
  if (!globalThis.TallyCore) globalThis.TallyCore = C;
  for (const s of scripts) require(path.resolve(process.cwd(), s));
}

// A response record holding `content` as the assistant message.
function recordWith(content) {
  return {
    item: 'x', repeat: 0, request: {},
    attempts: [{ start: '2026-11-01T00:00:00Z', status: 200, error: null, latency_ms: 1 }],
    response: { choices: [{ index: 0, message: { role: 'assistant', content: content }, finish_reason: 'stop' }] },
    usage: null, latency_ms: 1
  };
}

/** The item and the record a case describes: {item, record}. */
function caseInput(data, c) {
  let record;
  if (c.record !== undefined) {
    record = c.record;
  } else if (c.content !== undefined) {
    record = recordWith(c.content);
  } else if (c.answer_json !== undefined) {
    const content = c.answer_json === '<absent>' ? '{}'
      : '{' + JSON.stringify(c.field.name) + ': ' + c.answer_json + '}';
    record = recordWith(content);
  } else {
    throw new Error('case ' + c.id + ': no answer_json, content or record');
  }
  if (c.field !== undefined) return { item: { id: 'x', document: { locale: c.locale }, fields: [c.field] }, record };
  const shared = data.ledgers && C.hasOwn(data.ledgers, c.ledger) ? data.ledgers[c.ledger] : undefined;
  if (shared === undefined) throw new Error('case ' + c.id + ': neither a field nor a ledger of the file');
  return {
    item: { id: 'x', dataset: 'vectors', half: 'public', strata: {}, document: { text: '' }, ledger: shared.ledger, key: shared.key },
    record
  };
}

/** The verdict rows scorer B gives a case (the file's "suite" names the registered scorer). */
function runCase(data, c) {
  const input = caseInput(data, c);
  return C.scorer(data.suite).scoreItem(input.item, input.record, 'vectors', 0);
}

/** Whether an expected count is a JSON integer (an exact integer literal or a JavaScript integer). */
function isIntegerCount(v) {
  if (v instanceof C.JsonNumber) return v.integerLiteral && v.decimal !== null;
  return Number.isSafeInteger(v);
}

/**
 * Null when the verdict rows are exactly the expected ones (as many, in order), each expected row
 * [unit, verdict], [unit, verdict, order] or [unit, verdict, order, [counts...]]; else the rows
 * written as the expected ones are (each cut to its expected row's length), to show what differs.
 * Counts compare as integers: the same number of them, each equal (1 and 1.0 differ).
 */
function rowsDisagree(rows, expected) {
  for (const e of expected) {
    const shape = Array.isArray(e) && e.length >= 2 && e.length <= 4 &&
      typeof e[0] === 'string' && typeof e[1] === 'string' && (e.length < 3 || typeof e[2] === 'string') &&
      (e.length < 4 || (Array.isArray(e[3]) && e[3].every(isIntegerCount)));
    if (!shape) throw new Error('an expected row is not [unit, verdict], [unit, verdict, order] or [unit, verdict, order, [counts]]: ' + C.stringify(e));
  }
  const got = rows.map((r, i) => {
    const full = [r.unit, r.verdict, r.order, r.counts === undefined || r.counts === null ? [] : r.counts];
    return full.slice(0, i < expected.length ? expected[i].length : 2);
  });
  return C.stringify(got) === C.stringify(expected) ? null : got;
}

/** Null when the rows are what the case expects, else what differs. */
function disagreement(c, rows) {
  if (typeof c.expected === 'string') {
    const row = rows[0] || {};
    const orderBad = c.expected_order !== undefined && row.order !== c.expected_order;
    if (row.verdict === c.expected && !orderBad) return null;
    return { got: row.verdict, order: row.order, reason: row.reason };
  }
  const got = rowsDisagree(rows, c.expected.verdicts);
  if (got === null) return null;
  return { got, reasons: rows.map((r) => r.reason) };
}

module.exports = { loadVectors, loadScripts, recordWith, caseInput, runCase, rowsDisagree, disagreement };

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.length < 2) {
    process.stderr.write('usage: node scorer-js/check-vectors.js VECTORS SCRIPT [SCRIPT ...]\n');
    process.exit(2);
  }
  loadScripts(args.slice(1));
  const data = loadVectors(args[0]);
  let bad = 0;
  for (const c of data.cases) {
    let diff;
    try { diff = disagreement(c, runCase(data, c)); } catch (e) { diff = { got: 'ERROR ' + e.message }; }
    if (diff !== null) {
      bad++;
      console.log(C.stringify(Object.assign({ id: c.id, rule: c.rule, note: c.note, expected: c.expected,
        expected_order: c.expected_order }, diff)));
    }
  }
  console.log(`${data.cases.length} cases, ${bad} disagreements`);
  if (bad) process.exitCode = 1;
}
