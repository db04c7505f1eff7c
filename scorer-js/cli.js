#!/usr/bin/env node
/*
 * Streaming front end of scorer B.
 *
 *   node scorer-js/cli.js < requests.jsonl > verdicts.jsonl
 *
 * Every non-blank input line is a JSON object
 *   {"item": <item, as one line of items/<dataset>.<half>.jsonl>,
 *    "record": <response record>, "run": "<run id>", "repeat": <integer>}
 * and gives exactly one output line: the JSON array of verdict rows
 * ({run, item, repeat, unit, kind, verdict, points, reason, order}, one per field, in order).
 * A line that cannot be read or scored gives {"error": "line N: ..."} instead, so output lines
 * stay aligned with input lines, and the exit status is then 2. Blank input lines are skipped.
 *
 * Input is read with scorer B's own exact JSON parser (numbers are never binary floats) and
 * processed one line at a time, so memory does not grow with the input.
 */
'use strict';

const readline = require('readline');
const { once } = require('events');
const S = require('./scorer.js');

function scoreLine(line) {
  const parsed = S.parseJSON(line);
  if (!parsed.ok) throw new Error('not valid JSON (near offset ' + parsed.pos + ')');
  const req = parsed.value;
  if (req === null || typeof req !== 'object' || Array.isArray(req) || req instanceof S.JsonNumber) {
    throw new Error('not a JSON object');
  }
  const item = req.item;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new Error('"item" is not an object');
  const repeat = req.repeat === undefined ? null : req.repeat;
  return S.scoreItem(item, req.record, req.run === undefined ? null : req.run, repeat);
}

async function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = process.stdout;
  let lineNo = 0;
  let failed = false;
  for await (const line of rl) {
    lineNo++;
    if (line.trim() === '') continue;
    let text;
    try {
      text = S.stringify(scoreLine(line));
    } catch (e) {
      failed = true;
      text = JSON.stringify({ error: 'line ' + lineNo + ': ' + (e && e.message ? e.message : String(e)) });
    }
    if (!out.write(text + '\n')) await once(out, 'drain');
  }
  if (failed) process.exitCode = 2;
}

main().catch((e) => {
  process.stderr.write('scorer-js/cli.js: ' + (e && e.stack ? e.stack : String(e)) + '\n');
  process.exitCode = 2;
});
