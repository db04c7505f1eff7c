'use strict';
// Runs the cases of tests/vectors/extracting.json through scorer B.
//   node scorer-js/check-vectors.js   prints every case scorer B disagrees with.
// The test scorer-js/test/vectors.test.js uses runCase from here.
const fs = require('fs');
const path = require('path');
const S = require('./scorer.js');

const VECTORS = path.join(__dirname, '..', 'tests', 'vectors', 'extracting.json');

function loadVectors(file) {
  // Read with scorer B's exact parser, as the CLI reads its input: numbers stay exact
  // (a status written 200.0 stays distinguishable from 200).
  const r = S.parseJSON(fs.readFileSync(file || VECTORS, 'utf8'));
  if (!r.ok) throw new Error('vectors file is not valid JSON near offset ' + r.pos);
  return r.value;
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

// Runs one case; returns the verdict row of the case's field.
function runCase(c) {
  let record;
  if (c.record !== undefined) {
    record = c.record;
  } else if (c.content !== undefined) {
    record = recordWith(c.content);
  } else {
    const content = c.answer_json === '<absent>' ? '{}'
      : '{' + JSON.stringify(c.field.name) + ': ' + c.answer_json + '}';
    record = recordWith(content);
  }
  const item = { id: 'x', document: { locale: c.locale }, fields: [c.field] };
  return S.scoreItem(item, record, 'vectors', 0)[0];
}

module.exports = { VECTORS, loadVectors, runCase, recordWith };

if (require.main === module) {
  // node scorer-js/check-vectors.js: print the cases scorer B disagrees with.
  const data = loadVectors();
  let bad = 0;
  for (const c of data.cases) {
    let row;
    try { row = runCase(c); } catch (e) { row = { verdict: 'ERROR ' + e.message, order: '' }; }
    const orderBad = c.expected_order !== undefined && row.order !== c.expected_order;
    if (row.verdict !== c.expected || orderBad) {
      bad++;
      console.log(JSON.stringify({ id: c.id, rule: c.rule, note: c.note, locale: c.locale, field: c.field,
        answer_json: c.answer_json, content: c.content, expected: c.expected, expected_order: c.expected_order,
        got: row.verdict, order: row.order, reason: row.reason }));
    }
  }
  console.log(`${data.cases.length} cases, ${bad} disagreements`);
}
