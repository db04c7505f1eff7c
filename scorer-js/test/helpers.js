'use strict';
// Helpers shared by the unit tests (not a test file itself: node --test only runs *.test.js here).
const S = require('../scorer.js');

// The parsed value of a JSON snippet, as the finder would produce it.
function val(json) {
  const r = S.parseJSON(json);
  if (!r.ok) throw new Error('bad JSON in test: ' + json);
  return r.value;
}

// Verdict of one field for a model value given as JSON source text (undefined = absent).
function verdict(field, json, locale) {
  return S.scoreField(field, json === undefined ? undefined : val(json), locale || 'en-US').verdict;
}

module.exports = { S, val, verdict };
