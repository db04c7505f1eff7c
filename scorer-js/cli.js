#!/usr/bin/env node
/*
 * Streaming front end of scorer B.
 *
 *   node scorer-js/cli.js SCRIPT [SCRIPT ...] < requests.jsonl > verdicts.jsonl
 *
 * It loads scorer B's core (core.js, next to this file), then each suite scorer script named on
 * the command line, in order (paths resolved against the current directory). Each suite script
 * registers its scorer with the core under a name. A script that cannot be loaded stops the CLI
 * before it reads any input: a message on stderr and exit status 2. With no script at all every
 * line that needs a suite scorer gives an error line.
 *
 * Every non-blank input line is a JSON object of one of these shapes, and gives exactly one
 * output line:
 *   {"item": <item, as one line of items/<dataset>.<half>.jsonl>,
 *    "record": <response record>, "run": "<run id>", "repeat": <integer>, "scorer": "<name>"}
 *       -> the JSON array of verdict rows
 *          ({run, item, repeat, unit, kind, verdict, points, reason, order, counts}, in the suite
 *          scorer's order); counts is a JSON array of integers (a suite's declared counts of the
 *          row), [] when the suite scorer gives none (leaves the field out, or null);
 *   {"define": <item>, "scorer": "<name>"}
 *       -> {"defined": "<item id>"}; the item is kept for the lines that name it by id, and is
 *          scored by the named suite scorer;
 *   {"item_id": "<id of a defined item>", "record": <response record>, "run": "<run id>"}
 *       -> the verdict rows, as above; the repeat is the record's own. Without "item_id" (and
 *          without "item"), the defined item named by the record's own "item" is used.
 *   {"check": <item>, "scorer": "<name>"}
 *       -> {"problems": [...]}: the suite scorer's item check (its itemProblems); an empty list
 *          when the item is usable.
 * "scorer" is required on "item", "define" and "check" lines: the name a loaded suite script registered.
 * There is no default; a missing or unknown name is an error line.
 * "define" and "item_id" let a caller send each item once and then the stored response lines verbatim.
 *   {"begin_run": "<run id>"} -> {"begun": "<run id>"}; until the matching
 *   {"end_run": "<run id>"}   -> {"run", "digest", "records", "rows"}
 *       the record lines give NO output line; their verdict rows are folded into a SHA-256 digest
 *       over the records sorted by (item, repeat) (code units; item ids are plain ASCII), one line
 *       per row: JSON.stringify([item, repeat, unit, verdict, points, order]) + "\n" when the
 *       row's counts are empty, and JSON.stringify([item, repeat, unit, verdict, points, order,
 *       counts]) + "\n" (counts, a JSON array of integers, as a seventh element) when they are
 *       not. The caller computes the same digest from scorer A's rows and compares; only a run
 *       whose digests differ needs its rows sent back one by one.
 * Lines that start with {"run": (a stored record by reference to a defined item) are read with
 * the native JSON.parse: a stored record's own numbers, such as a status, need no exactness, and
 * the model's content inside is still parsed by scorer B's exact parser. Every other line is read
 * with the exact parser.
 * A stored record's line may carry "line": its line number in the run's responses.jsonl, which
 * warnings and errors then name.
 * A record whose suite scorer throws is scored as unparseable (the record again, with no message
 * content), with a warning on stderr: {"warning": "...", "run": ..., "line": ...}, one per line.
 * A line that cannot be read or scored gives {"error": "line N: ...", "run": ..., "line": ...}
 * instead (run and line when the input line is a stored record that names them), so output lines
 * stay aligned with input lines, and the exit status is then 2. Blank input lines are skipped.
 *
 * Input is read with scorer B's own exact JSON parser (numbers are never binary floats) and
 * processed one line at a time, so memory does not grow with the input.
 */
'use strict';

const readline = require('readline');
const { once } = require('events');
const path = require('path');
const crypto = require('crypto');
const S = require('./core.js');

const defined = new Map();
let current = null; // the run being digested: {id, rows: [[item, repeat, text]], records}

/** Load the suite scorer scripts in order; a message for the first that fails, else null. */
function loadScripts(scripts) {
  globalThis.TallyCore = S;   // the core the scripts register with
  for (const script of scripts) {
    try {
      require(path.resolve(process.cwd(), script));
    } catch (e) {
      return 'cannot load ' + script + ': ' + (e && e.message ? e.message : String(e));
    }
  }
  return null;
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof S.JsonNumber);
}

function parseLine(line) {
  if (line.startsWith('{"run":')) {  // a stored record by reference to a defined item
    try {
      return JSON.parse(line);
    } catch (e) {
      throw new Error('not valid JSON');
    }
  }
  const parsed = S.parseJSON(line);
  if (!parsed.ok) throw new Error('not valid JSON (near offset ' + parsed.pos + ')');
  return parsed.value;
}

function endRun(id) {
  if (current === null || current.id !== id) throw new Error('end_run ' + JSON.stringify(String(id)) + ' without begin_run');
  current.rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const hash = crypto.createHash('sha256');
  let rows = 0;
  for (const entry of current.rows) {
    hash.update(entry[2]);
    rows += entry[3];
  }
  const out = { run: id, digest: hash.digest('hex'), records: current.rows.length, rows: rows };
  current = null;
  return out;
}

/** The digest line of one verdict row: six elements, and the counts as a seventh when there are any. */
function digestLine(r) {
  const line = [r.item, r.repeat, r.unit, r.verdict, r.points, r.order];
  if (r.counts.length) line.push(r.counts);
  return S.stringify(line) + "\n";
}

function digestRows(rows) {
  let text = '';
  for (const r of rows) text += digestLine(r);
  current.rows.push([rows.length ? rows[0].item : '', rows.length ? rows[0].repeat : 0, text, rows.length]);
}

function scoreLine(line) {
  const req = parseLine(line);
  if (!isObject(req)) throw new Error('not a JSON object');
  if (req.begin_run !== undefined) {
    current = { id: req.begin_run, rows: [] };
    return { begun: req.begin_run };
  }
  if (req.end_run !== undefined) return endRun(req.end_run);
  if (req.check !== undefined) {
    const api = suiteScorer(req.scorer);
    if (typeof api.itemProblems !== 'function') throw new Error('scorer ' + JSON.stringify(req.scorer) + ' has no item check');
    return { problems: api.itemProblems(req.check) };
  }
  if (req.define !== undefined) {
    if (!isObject(req.define) || typeof req.define.id !== 'string') throw new Error('"define" is not an item with an id');
    defined.set(req.define.id, { item: req.define, scorer: suiteScorer(req.scorer) });
    return { defined: req.define.id };
  }
  if (req.item === undefined) {
    const rec0 = req.record;
    const id = req.item_id !== undefined ? req.item_id : (isObject(rec0) ? rec0.item : undefined);
    const entry = typeof id === 'string' ? defined.get(id) : undefined;
    const known = entry === undefined ? undefined : entry.item;
    if (known === undefined) throw new Error('item ' + JSON.stringify(String(id)) + ' was not defined');
    const rec = req.record;
    const repeat = isObject(rec) && rec.repeat !== undefined ? rec.repeat : null;
    return scoreOne(entry.scorer, known, rec, req.run === undefined ? null : req.run, repeat, req.line);
  }
  const item = req.item;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new Error('"item" is not an object');
  const repeat = req.repeat === undefined ? null : req.repeat;
  return scoreOne(suiteScorer(req.scorer), item, req.record, req.run === undefined ? null : req.run, repeat, req.line);
}

/**
 * One record scored by its suite scorer. A reply the suite's scorer cannot handle (it throws) is
 * that reply's unparseable ("Reading a reply" in content/pages/methodology.md): the record is
 * scored again with no message content, which every suite reads as unparseable, and a warning
 * naming the run and the record's line goes to stderr (one JSON object per line).
 */
function scoreOne(api, item, record, run, repeat, line) {
  let rows;
  try {
    rows = api.scoreItem(item, record, run, repeat);
  } catch (e) {
    const message = e && e.message ? e.message : String(e);
    process.stderr.write(JSON.stringify({ warning: 'the suite scorer failed on this reply (' + message.slice(0, 200) +
      '): scored as unparseable', run: run, line: line === undefined ? null : line }) + '\n');
    rows = api.scoreItem(item, withoutContent(record), run, repeat);
  }
  return withCounts(rows);
}

/** An integer of a row's counts: a JavaScript integer or an exact JSON integer literal. */
function isCount(v) {
  if (v instanceof S.JsonNumber) return v.integerLiteral && v.decimal !== null;
  return Number.isSafeInteger(v);
}

/**
 * The suite scorer's rows, each with its counts: [] when the scorer gave none (the field left out,
 * or null); a row whose counts are not an array of integers is an error of the line.
 */
function withCounts(rows) {
  if (!Array.isArray(rows)) throw new Error('the suite scorer gave no array of verdict rows');
  return rows.map((r) => {
    const counts = r.counts === undefined || r.counts === null ? [] : r.counts;
    if (!Array.isArray(counts) || !counts.every(isCount)) {
      throw new Error('the counts of row ' + JSON.stringify(String(r.unit)) + ' are not an array of integers');
    }
    return Object.assign({}, r, { counts: counts });
  });
}

/** A copy of a stored record whose first choice's message content is null (nothing to read). */
function withoutContent(record) {
  const copy = Object.assign({}, record);
  const response = isObject(record.response) ? Object.assign({}, record.response) : {};
  const choices = Array.isArray(response.choices) && response.choices.length ? response.choices.slice() : [{}];
  const choice = isObject(choices[0]) ? Object.assign({}, choices[0]) : {};
  choice.message = Object.assign({}, isObject(choice.message) ? choice.message : {}, { content: null });
  choices[0] = choice;
  response.choices = choices;
  copy.response = response;
  return copy;
}

/** The registered suite scorer a line names; there is no default. */
function suiteScorer(name) {
  if (name === undefined) {
    const names = S.names();
    throw new Error('"scorer" is missing: it names a suite scorer (' +
      (names.length ? 'registered: ' + names.join(', ') : 'no suite scorer is loaded') + ')');
  }
  return S.scorer(name);
}

/** {run, line} of a stored record's input line (the caller's file line), when it says so; else {}. */
function lineRef(line) {
  if (!line.startsWith('{"run":')) return {};
  try {
    const v = JSON.parse(line);
    const where = { run: v.run === undefined ? null : v.run };
    if (v.line !== undefined) where.line = v.line;
    return where;
  } catch (e) {
    return {};
  }
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
      const result = scoreLine(line);
      if (current !== null && Array.isArray(result)) {
        digestRows(result);
        continue;
      }
      text = S.stringify(result);
    } catch (e) {
      failed = true;
      const where = lineRef(line);
      text = JSON.stringify(Object.assign({ error: 'line ' + lineNo + ': ' + (e && e.message ? e.message : String(e)) }, where));
    }
    if (!out.write(text + '\n')) await once(out, 'drain');
  }
  if (failed) process.exitCode = 2;
}

const loadError = loadScripts(process.argv.slice(2));
if (loadError !== null) {
  process.stderr.write('scorer-js/cli.js: ' + loadError + '\n');
  process.exitCode = 2;
} else {
  main().catch((e) => {
    process.stderr.write('scorer-js/cli.js: ' + (e && e.stack ? e.stack : String(e)) + '\n');
    process.exitCode = 2;
  });
}
