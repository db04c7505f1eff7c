'use strict';
// Helpers shared by the unit tests (not a test file itself: node --test only runs *.test.js here).
// Scorer B's layout: the core (scorer-js/core.js) first, then each suite's scorer script, which
// registers itself with the core (globalThis.TallyCore).
const path = require('path');
const { spawn } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const CORE = path.join(ROOT, 'scorer-js', 'core.js');
const CLI = path.join(ROOT, 'scorer-js', 'cli.js');
// Each suite's scorer script, by registered name.
const SCRIPTS = {
  extracting: path.join(ROOT, 'generator', 'suites', 'extracting', 'scorer.js'),
  'au-bas': path.join(ROOT, 'generator', 'suites', 'aubas', 'scorer.js')
};

const C = require(CORE);
const S = require(SCRIPTS.extracting);
const A = require(SCRIPTS['au-bas']);

// The parsed value of a JSON snippet, as the finder would produce it.
function val(json) {
  const r = C.parseJSON(json);
  if (!r.ok) throw new Error('bad JSON in test: ' + json);
  return r.value;
}

// Verdict of one field for a model value given as JSON source text (undefined = absent).
function verdict(field, json, locale) {
  return S.scoreField(field, json === undefined ? undefined : val(json), locale || 'en-US').verdict;
}

// Run cli.js with the given arguments (suite scripts) on `input`: {code, stdout, stderr}.
function runCli(args, input, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI].concat(args), Object.assign({ stdio: ['pipe', 'pipe', 'pipe'] }, options));
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => {});   // a CLI that stops early closes its input
    child.stdin.end(input);
  });
}

module.exports = { C, S, A, val, verdict, runCli, ROOT, CORE, CLI, SCRIPTS };
