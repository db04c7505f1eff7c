'use strict';
// Item validation (tests/vectors/items.json): each suite scorer's itemProblems accepts exactly
// the items marked valid. Scorer A runs the same file (tests/test_item_validation.py).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { S } = require('./helpers.js');
const extracting = require('../../generator/suites/extracting/scorer.js');
const aubas = require('../../generator/suites/aubas/scorer.js');

const file = path.join(__dirname, '..', '..', 'tests', 'vectors', 'items.json');
const data = S.parseJSON(fs.readFileSync(file, 'utf8')).value;
const APIS = { extracting, 'au-bas': aubas };

for (const c of data.cases) {
  test(`item case ${c.id} (${c.suite}): ${c.valid ? 'usable' : 'rejected'}`, () => {
    const problems = APIS[c.suite].itemProblems(c.item);
    assert.ok(Array.isArray(problems));
    assert.equal(problems.length === 0, c.valid, JSON.stringify(problems));
  });
}
