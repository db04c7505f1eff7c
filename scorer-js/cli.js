#!/usr/bin/env node
/*
 * Streaming front end of scorer B.
 *
 *   node scorer-js/cli.js < requests.jsonl > verdicts.jsonl
 *
 * Every non-blank input line is a JSON object of one of three shapes, and gives exactly one
 * output line:
 *   {"item": <item, as one line of items/<dataset>.<half>.jsonl>,
 *    "record": <response record>, "run": "<run id>", "repeat": <integer>}
 *       -> the JSON array of verdict rows
 *          ({run, item, repeat, unit, kind, verdict, points, reason, order}, one per field, in order);
 *   {"define": <item>}
 *       -> {"defined": "<item id>"}; the item is kept for the lines that name it by id;
 *   {"item_id": "<id of a defined item>", "record": <response record>, "run": "<run id>"}
 *       -> the verdict rows, as above; the repeat is the record's own. Without "item_id" (and
 *          without "item"), the defined item named by the record's own "item" is used.
 * The last two let a caller send each item once and then the stored response lines verbatim.
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

const defined = new Map();

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof S.JsonNumber);
}

function scoreLine(line) {
  const parsed = S.parseJSON(line);
  if (!parsed.ok) throw new Error('not valid JSON (near offset ' + parsed.pos + ')');
  const req = parsed.value;
  if (!isObject(req)) throw new Error('not a JSON object');
  if (req.define !== undefined) {
    if (!isObject(req.define) || typeof req.define.id !== 'string') throw new Error('"define" is not an item with an id');
    defined.set(req.define.id, req.define);
    return { defined: req.define.id };
  }
  if (req.item === undefined) {
    const rec0 = req.record;
    const id = req.item_id !== undefined ? req.item_id : (isObject(rec0) ? rec0.item : undefined);
    const known = typeof id === 'string' ? defined.get(id) : undefined;
    if (known === undefined) throw new Error('item ' + JSON.stringify(String(id)) + ' was not defined');
    const rec = req.record;
    const repeat = isObject(rec) && rec.repeat !== undefined ? rec.repeat : null;
    return S.scoreItem(known, rec, req.run === undefined ? null : req.run, repeat);
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
