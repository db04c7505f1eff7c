'use strict';
// The core alone: generic, names no suite, scores nothing; the registry; loading order.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const vm = require('vm');
const { spawnSync } = require('child_process');
const { CORE, CLI, SCRIPTS } = require('./helpers.js');

const SUITE_NAMES = /extracting|au-?bas/i;

function freshCore() {
  const context = vm.createContext({});
  vm.runInContext(fs.readFileSync(CORE, 'utf8'), context, { filename: 'core.js' });
  return context.TallyCore;
}

function node(code) {
  return spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
}

test('core.js and cli.js name no suite', () => {
  assert.doesNotMatch(fs.readFileSync(CORE, 'utf8'), SUITE_NAMES);
  assert.doesNotMatch(fs.readFileSync(CLI, 'utf8'), SUITE_NAMES);
});

test('the core alone scores nothing', () => {
  const T = freshCore();
  assert.deepEqual(Array.from(T.names()), []);
  assert.equal(T.scoreItem, undefined);
  for (const name of ['extracting', 'au-bas', 'aubas', '', undefined]) {
    assert.throws(() => T.scorer(name), /^Error: unknown scorer .* \(no suite scorer is loaded\)$/, String(name));
  }
});

test('register: a name, an api with scoreItem, one api per name', () => {
  const T = freshCore();
  const api = { scoreItem: () => [] };
  assert.throws(() => T.register('', api), /non-empty name/);
  assert.throws(() => T.register(7, api), /non-empty name/);
  assert.throws(() => T.register('x', {}), /no scoreItem function/);
  assert.throws(() => T.register('x', null), /no scoreItem function/);
  assert.equal(T.register('x', api), api);
  assert.equal(T.register('x', api), api);              // the same api again is harmless
  assert.throws(() => T.register('x', { scoreItem: () => [] }), /"x" is already registered/);
  T.register('y', { scoreItem: () => [] });
  assert.deepEqual(Array.from(T.names()), ['x', 'y']);
  assert.equal(T.scorer('x'), api);
  assert.throws(() => T.scorer('z'), /unknown scorer "z" \(registered: x, y\)/);
  assert.throws(() => T.scorer('toString'), /unknown scorer "toString"/);
  T.names().push('z');                                  // a copy
  assert.deepEqual(Array.from(T.names()), ['x', 'y']);
});

test('readRecord: failed calls, missing content, content', () => {
  const T = freshCore();
  const ok = { attempts: [{ status: 200, error: null }], response: { choices: [{ message: { content: 'hi' } }] } };
  const read = (over) => {
    const r = T.readRecord(over === undefined ? ok : Object.assign({}, ok, over));
    return [r.status, r.cause, r.reason].join('|');
  };
  assert.equal(read(), 'content||');
  assert.equal(T.readRecord(ok).content, 'hi');
  assert.equal(T.readRecord(null).reason, 'record is not an object');
  assert.equal(read({ attempts: [] }), 'failed_call|call|no attempts');
  assert.equal(read({ attempts: [1] }), 'failed_call|call|last attempt is not an object');
  assert.equal(read({ attempts: [{ status: 200, error: 'x' }] }), 'failed_call|call|error: x');
  assert.equal(read({ attempts: [{ status: 200, error: '' }] }), 'content||');
  assert.equal(read({ attempts: [{ status: '200' }] }), 'failed_call|call|status "200"');
  assert.equal(read({ attempts: [{ status: 300 }] }), 'failed_call|call|status 300');
  assert.equal(read({ attempts: [{}] }), 'failed_call|call|status null');
  assert.equal(T.readRecord(T.parseJSON('{"attempts": [{"status": 2.99e2}], "response": {"choices": [{"message": {"content": ""}}]}}').value).status, 'content');
  assert.equal(read({ response: [] }), 'failed_call|response|response is not an object');
  assert.equal(read({ response: {} }), 'no_content|choices|no choices');
  assert.equal(read({ response: { choices: [{ message: { content: null } }] } }), 'no_content|content|content is not a string');
});

test('points: 1 for correct, null_ok and found, 0 for every other verdict', () => {
  const T = freshCore();
  for (const v of ['correct', 'null_ok', 'found']) assert.equal(T.points(v), 1, v);
  for (const v of ['wrong', 'invented', 'false_null', 'missed', 'false_flag', 'unparseable', 'failed_call',
    'Correct', 'found ', '', '__proto__', 'constructor', undefined, null, 1]) {
    assert.equal(T.points(v), 0, String(v));
  }
});

test('under Node, core.js also sets globalThis.TallyCore, unless it is set', () => {
  const core = JSON.stringify(CORE);
  let r = node(`const C = require(${core}); process.stdout.write(String(globalThis.TallyCore === C));`);
  assert.equal(r.stdout, 'true', r.stderr);
  r = node(`globalThis.TallyCore = 1; require(${core}); process.stdout.write(String(globalThis.TallyCore));`);
  assert.equal(r.stdout, '1', r.stderr);
});

test('under Node, a suite script required without the core fails loudly', () => {
  for (const name of Object.keys(SCRIPTS)) {
    const r = node(`require(${JSON.stringify(SCRIPTS[name])});`);
    assert.notEqual(r.status, 0, name);
    assert.match(r.stderr, /scorer needs scorer B's core: load core\.js \(TallyCore\) first/, name);
  }
  const r = node(`const C = require(${JSON.stringify(CORE)}); const E = require(${JSON.stringify(SCRIPTS.extracting)});` +
    'process.stdout.write(String(C.scorer("extracting") === E));');
  assert.equal(r.stdout, 'true', r.stderr);
});
