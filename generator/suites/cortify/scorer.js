/*
 * Tally scorer B, CortifyBench suite: how a reply is scored against an item's true findings.
 *
 * Written from content/pages/scoring-cortifybench.md (the rule page) alone; section numbers in
 * comments refer to that page. One classic script, no build step, loaded after scorer B's core
 * (scorer-js/core.js, the global TallyCore), whose exact JSON parser, decimals, White_Space
 * helpers and record reader it uses. It registers itself under the suite's name,
 * 'cortifybench' (TallyCore.scorer('cortifybench')); under Node it is also a CommonJS module
 * exporting its api.
 *
 * Amounts never pass through binary floating point: true amounts are BigInt cents, predicted
 * amounts exact decimals (the core's Decimal / JsonNumber), and the hit rule compares integers.
 */
(function (root, factory) {
  'use strict';
  var C = root.TallyCore;
  if (!C || typeof C.register !== 'function') {
    throw new Error('the cortifybench scorer needs scorer B\'s core: load core.js (TallyCore) first');
  }
  var api = factory(C);
  C.register('cortifybench', api);
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this, function (C) {
  'use strict';

  var hasOwn = C.hasOwn;
  var isObjectValue = C.isObjectValue;
  var trimWs = C.trimWs;

  /** Section 2, step 6: a deeper JSON text makes the reply unparseable. */
  /** Section 2, step 5: a longer list makes the reply unparseable. */
  var MAX_PREDICTIONS = 500;

  var FIELDS = ['patron', 'clasificacion', 'fecha', 'monto'];

  function q(v) {
    try { return JSON.stringify(v instanceof C.JsonNumber ? v.literal : v); } catch (e) { return String(v); }
  }

  /** 'H01', 'P07', 'H100': a letter and a 1-based number of at least two digits. */
  function label(letter, index) {
    var n = String(index + 1);
    return letter + (n.length < 2 ? '0' + n : n);
  }

  // ---------------------------------------------------------------------------------------
  // Section 1: the true findings
  // ---------------------------------------------------------------------------------------

  var TRUE_MONTO = /^([0-9]+)\.([0-9]{2})$/;

  /**
   * The item's true findings in stored order: [{patron, clasificacion, fecha, monto, cents}],
   * cents a BigInt. A malformed list throws (an error, not a verdict).
   */
  function trueFindings(item) {
    if (!isObjectValue(item)) throw new Error('item is not an object');
    var list = item.hallazgos;
    if (!Array.isArray(list)) throw new Error('item ' + q(item.id) + ': hallazgos is not a list');
    return list.map(function (h, i) {
      var where = 'item ' + q(item.id) + ': true finding ' + label('H', i);
      if (!isObjectValue(h)) throw new Error(where + ' is not an object');
      FIELDS.forEach(function (f) {
        if (typeof h[f] !== 'string') throw new Error(where + ': ' + f + ' is not a string');
      });
      var m = TRUE_MONTO.exec(h.monto);
      if (!m) throw new Error(where + ': monto is not a decimal with two decimals: ' + q(h.monto));
      return {
        patron: h.patron,
        clasificacion: h.clasificacion,
        fecha: h.fecha,
        monto: h.monto,
        cents: BigInt(m[1] + m[2])
      };
    });
  }

  // ---------------------------------------------------------------------------------------
  // Section 2: from a response to an answer
  // ---------------------------------------------------------------------------------------

  // Steps 1 and 2 (whitespace, a code fence) and step 3's JSON text are the core's reading rules:
  // C.stripFence and C.readReplyJSON (step 6's nesting limit included).
  var stripFence = C.stripFence;

  /**
   * Steps 3 to 5: the list of predicted elements of a message content, or null when the reply
   * is unparseable. Returns {list, reason}.
   */
  function readList(content) {
    var parsed = C.readReplyJSON(stripFence(content));   // the core's reading rules, step 6's limit included
    if (!parsed.ok) return { list: null, reason: 'not one strict JSON text (near offset ' + parsed.pos + ')' };
    var v = parsed.value;
    var list;
    if (Array.isArray(v)) {
      list = v;
    } else if (isObjectValue(v)) {
      if (!hasOwn(v, 'hallazgos')) return { list: null, reason: 'the object has no key "hallazgos"' };
      if (!Array.isArray(v.hallazgos)) {
        return { list: null, reason: '"hallazgos" is ' + C.typeName(v.hallazgos) + ', not an array' };
      }
      list = v.hallazgos;
    } else {
      return { list: null, reason: 'the JSON value is ' + C.typeName(v) + ', neither an array nor an object' };
    }
    if (list.length > MAX_PREDICTIONS) {
      return { list: null, reason: 'the list has ' + list.length + ' elements, more than ' + MAX_PREDICTIONS };
    }
    return { list: list, reason: '' };
  }

  /**
   * Section 2 as a whole: {status: 'failed_call'|'unparseable'|'answer', list, reason}.
   */
  function readResponse(record) {
    var r = C.readRecord(record);
    if (r.status === 'failed_call') {
      return { status: 'failed_call', list: null, reason: r.cause === 'response' ? 'no response body' : r.reason };
    }
    if (r.status !== 'content') {
      return { status: 'unparseable', list: null, reason: 'no message content string (' + r.reason + ')' };
    }
    var out = readList(r.content);
    if (out.list === null) return { status: 'unparseable', list: null, reason: out.reason };
    return { status: 'answer', list: out.list, reason: '' };
  }

  // ---------------------------------------------------------------------------------------
  // Section 3: predictions
  // ---------------------------------------------------------------------------------------

  /** patron and clasificacion: trimmed, ASCII capitals lowered, nothing else; null if not a string. */
  function readCode(v) {
    if (typeof v !== 'string') return null;
    return trimWs(v).replace(/[A-Z]/g, function (ch) { return String.fromCharCode(ch.charCodeAt(0) + 32); });
  }

  /** fecha: trimmed; null if not a string. */
  function readFecha(v) {
    return typeof v === 'string' ? trimWs(v) : null;
  }

  var MONTO_STRING = /^-?[0-9]+(?:\.[0-9]+)?$/;

  /** monto: an exact Decimal, or null when it does not read. */
  function readMonto(v) {
    if (C.isNumberValue(v)) {
      var jn = C.asJsonNumber(v);
      return jn === null ? null : jn.decimal;
    }
    if (typeof v !== 'string') return null;
    var s = trimWs(v.replace(/[$,]/g, ''));
    if (!MONTO_STRING.test(s)) return null;
    return C.parsePlainDecimal(s);
  }

  /**
   * One list element as a prediction: {patron, clasificacion, fecha, monto} with every field
   * read, or null when it can hit nothing (not an object, or a field missing or unreadable).
   */
  function readPrediction(el) {
    if (!isObjectValue(el)) return null;
    for (var i = 0; i < FIELDS.length; i++) if (!hasOwn(el, FIELDS[i])) return null;
    var p = {
      patron: readCode(el.patron),
      clasificacion: readCode(el.clasificacion),
      fecha: readFecha(el.fecha),
      monto: readMonto(el.monto)
    };
    if (p.patron === null || p.clasificacion === null || p.fecha === null || p.monto === null) return null;
    return p;
  }

  // ---------------------------------------------------------------------------------------
  // Section 4: the hit rule
  // ---------------------------------------------------------------------------------------

  function absBig(x) { return x < 0n ? -x : x; }

  /**
   * floor(d * 10^4) as a BigInt, and whether d * 10^4 is an integer; null when |d| is so large
   * (more than `maxDigits` integer digits after the shift) that no comparison with our bounds
   * can succeed. Never builds a power of ten larger than the value's own digits.
   */
  function floorTimes1e4(d, maxDigits) {
    var shift = d.exp + 4n;                        // value * 1e4 = (+/-) coef * 10^shift
    if (d.isZero()) return { floor: 0n, exact: true };
    if (shift >= 0n) {
      if (BigInt(d.coef.length) + shift > BigInt(maxDigits)) return null;
      var v = BigInt(d.coef) * (10n ** shift);
      return { floor: d.neg ? -v : v, exact: true };
    }
    // A fraction remains: coef has no trailing zeros, so the dropped digits are not all zero.
    var drop = -shift;
    var len = BigInt(d.coef.length);
    var trunc = drop >= len ? 0n : BigInt(d.coef.slice(0, Number(len - drop)));
    if (trunc.toString().length > maxDigits) return null;
    return { floor: d.neg ? -trunc - 1n : trunc, exact: false };
  }

  /**
   * The hit rule's amount test: |p - h| <= max(1.00, 0.01 * |h|), exactly. `cents` is the true
   * amount in cents (BigInt), `monto` the predicted amount (Decimal). In units of 0.0001 MXN the
   * true amount is A = 100 * cents and the tolerance T = max(10000, |cents|); the test is
   * A - T <= p * 10^4 <= A + T, all integers but p * 10^4, which is compared through its floor.
   */
  function amountHits(cents, monto) {
    var a = cents * 100n;
    var t = absBig(cents) > 10000n ? absBig(cents) : 10000n;
    var lo = a - t;
    var hi = a + t;
    var bound = absBig(lo) > absBig(hi) ? absBig(lo) : absBig(hi);
    var f = floorTimes1e4(monto, bound.toString().length + 2);
    if (f === null) return false;
    if (f.exact) return f.floor >= lo && f.floor <= hi;
    // floor < p*1e4 < floor + 1: inside the closed integer interval iff floor >= lo and floor + 1 <= hi
    return f.floor >= lo && f.floor + 1n <= hi;
  }

  /** Section 4: whether prediction p (read, or null) can hit true finding h. */
  function canHit(p, h) {
    return p !== null && p.patron === h.patron && p.clasificacion === h.clasificacion &&
      p.fecha === h.fecha && amountHits(h.cents, p.monto);
  }

  // ---------------------------------------------------------------------------------------
  // Section 5: one-to-one maximum matching with the tie rule
  // ---------------------------------------------------------------------------------------

  /**
   * Look for one augmenting path (breadth first, from every free left vertex) in the graph
   * restricted to the left vertices with leftOn[u] and the right vertices with rightOn[v]; apply
   * it and return true, or return false when the matching is maximum there.
   */
  function augment(adj, leftOn, rightOn, mateL, mateR) {
    var nL = adj.length;
    var nR = mateR.length;
    var parentR = new Array(nR).fill(-1);         // right vertex -> left vertex it was reached from
    var seenR = new Uint8Array(nR);
    var queue = [];
    for (var u = 0; u < nL; u++) if (leftOn[u] && mateL[u] === -1) queue.push(u);
    for (var qi = 0; qi < queue.length; qi++) {
      var x = queue[qi];
      var edges = adj[x];
      for (var k = 0; k < edges.length; k++) {
        var v = edges[k];
        if (!rightOn[v] || seenR[v]) continue;
        seenR[v] = 1;
        parentR[v] = x;
        var w = mateR[v];
        if (w === -1) {
          // flip the path ending at the free right vertex v
          var cur = v;
          while (cur !== -1) {
            var left = parentR[cur];
            var next = mateL[left];
            mateL[left] = cur;
            mateR[cur] = left;
            cur = next;
          }
          return true;
        }
        queue.push(w);   // w is on (its mate v is on, and matched pairs stay inside the subgraph)
      }
    }
    return false;
  }

  /**
   * The chosen matching of section 5. `adj[h]` lists, in increasing order, the predictions that
   * can hit true finding h; nPred is the number of predictions. Returns matchOf: for each true
   * finding the index of its prediction, or -1.
   *
   * It keeps a maximum matching X of the remaining graph (true findings not yet decided,
   * predictions not yet taken). For the current h and a candidate p, the rule's test ("the pairs
   * so far, plus (h, p), plus a maximum matching of the rest make M") holds exactly when the
   * remaining graph without h and p still has a matching one smaller than X: true at once when
   * (h, p) is in X or when h or p is free in X; otherwise X without h and p has two pairs fewer
   * and one augmenting path decides.
   */
  function chooseMatching(adj, nPred) {
    var nTrue = adj.length;
    var mateL = new Array(nTrue).fill(-1);
    var mateR = new Array(nPred).fill(-1);
    var leftOn = new Uint8Array(nTrue).fill(1);
    var rightOn = new Uint8Array(nPred).fill(1);
    while (augment(adj, leftOn, rightOn, mateL, mateR)) { /* grow to a maximum matching */ }

    var matchOf = new Array(nTrue).fill(-1);
    for (var h = 0; h < nTrue; h++) {
      leftOn[h] = 0;                               // h is decided now, whatever happens
      var cands = adj[h];
      for (var k = 0; k < cands.length; k++) {
        var p = cands[k];
        if (!rightOn[p]) continue;                 // already taken
        var hp = mateL[h];                         // h's partner in X
        var ph = mateR[p];                         // p's partner in X
        if (hp === p) { /* in X */ } else if (hp === -1 || ph === -1) {
          // X without h and p loses at most one pair: it stays one smaller than X.
          if (hp !== -1) mateR[hp] = -1;
          if (ph !== -1) mateL[ph] = -1;
        } else {
          // Both matched elsewhere: unpair them, then one augmenting path must restore a pair
          // among the rest (h and p excluded).
          var saveL = mateL.slice();
          var saveR = mateR.slice();
          mateR[hp] = -1;
          mateL[ph] = -1;
          mateL[h] = -1;
          mateR[p] = -1;
          rightOn[p] = 0;
          var ok = augment(adj, leftOn, rightOn, mateL, mateR);
          rightOn[p] = 1;
          if (!ok) {
            mateL = saveL;
            mateR = saveR;
            continue;
          }
        }
        mateL[h] = p;
        mateR[p] = h;
        rightOn[p] = 0;
        matchOf[h] = p;
        break;
      }
      // No candidate passed: h was free in X (its partner there would have passed), X holds.
    }
    return matchOf;
  }

  /**
   * Sections 3 to 5 for a readable list: {matchOf, predOf, reads}. matchOf[h] is the index of
   * the prediction matched to true finding h (or -1); predOf[p] the true finding matched to
   * prediction p (or -1); reads[p] the read prediction (or null when it can hit nothing).
   */
  function matchList(truths, list) {
    var reads = list.map(readPrediction);
    var adj = truths.map(function (h) {
      var out = [];
      for (var p = 0; p < reads.length; p++) if (canHit(reads[p], h)) out.push(p);
      return out;
    });
    var matchOf = chooseMatching(adj, reads.length);
    var predOf = new Array(reads.length).fill(-1);
    matchOf.forEach(function (p, h) { if (p !== -1) predOf[p] = h; });
    return { matchOf: matchOf, predOf: predOf, reads: reads };
  }

  // ---------------------------------------------------------------------------------------
  // Section 7: verdict rows
  // ---------------------------------------------------------------------------------------

  /**
   * Score one response record of a CortifyBench item. Rows
   * {run, item, repeat, unit, kind, verdict, points, reason, order}: the reply, one per true
   * finding, one per false flag (section 7). Throws when the item's findings are malformed.
   */
  function scoreItem(item, record, run, repeat) {
    var truths = trueFindings(item);
    var outcome = readResponse(record);
    var rows = [];
    function push(unit, kind, verdict, reason, order) {
      rows.push({
        run: run,
        item: item.id,
        repeat: repeat,
        unit: unit,
        kind: kind,
        verdict: verdict,
        points: C.points(verdict),
        reason: reason,
        order: order
      });
    }
    function findingUnit(i) { return label('H', i) + ':' + truths[i].patron; }

    if (outcome.status !== 'answer') {
      push('respuesta', 'reply', outcome.status, outcome.reason, '');
      truths.forEach(function (h, i) { push(findingUnit(i), 'finding', outcome.status, outcome.reason, ''); });
      return rows;
    }
    var list = outcome.list;
    push('respuesta', 'reply', 'correct', 'a readable list of ' + list.length + ' predictions', '');
    var m = matchList(truths, list);
    truths.forEach(function (h, i) {
      var p = m.matchOf[i];
      if (p !== -1) {
        push(findingUnit(i), 'finding', 'found', 'matched ' + label('P', p), label('P', p));
      } else {
        push(findingUnit(i), 'finding', 'missed',
          'no prediction left that hits ' + h.clasificacion + ' ' + h.fecha + ' ' + h.monto, '');
      }
    });
    list.forEach(function (el, p) {
      if (m.predOf[p] !== -1) return;
      var why = m.reads[p] === null
        ? (isObjectValue(el) ? 'a field is missing or does not read' : 'not an object (' + C.typeName(el) + ')')
        : 'no true finding left that it hits';
      push(label('P', p), 'prediction', 'false_flag', why, '');
    });
    return rows;
  }

  // ---------------------------------------------------------------------------------------
  // Section 6: per-item figures (for callers; the gate compares rows only)
  // ---------------------------------------------------------------------------------------

  /** The per-item figures of section 6 from the rows of one response. Ratios are JS numbers. */
  function figures(rows) {
    var reply = rows[0];
    var tp = 0;
    var fp = 0;
    var fn = 0;
    rows.forEach(function (r) {
      if (r.kind === 'finding') { if (r.verdict === 'found') tp++; else fn++; }
      if (r.kind === 'prediction') fp++;
    });
    var parsed = reply.verdict === 'correct' ? 1 : 0;
    var failed = reply.verdict === 'failed_call' ? 1 : 0;
    var nTrue = tp + fn;
    var nPred = tp + fp;
    if (!parsed) {
      return { f1: 0, precision: 0, recall: 0, exact: 0, tp: 0, fp: 0, fn: nTrue, predicted: 0, parsed: 0, failed: failed };
    }
    return {
      f1: nTrue === 0 && nPred === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn),
      precision: nPred === 0 ? (nTrue === 0 ? 1 : 0) : tp / nPred,
      recall: nTrue === 0 ? (nPred === 0 ? 1 : 0) : tp / nTrue,
      exact: fp === 0 && fn === 0 ? 1 : 0,
      tp: tp,
      fp: fp,
      fn: fn,
      predicted: nPred,
      parsed: 1,
      failed: 0
    };
  }

  return {
    scoreItem: scoreItem,
    figures: figures,
    trueFindings: trueFindings,
    stripFence: stripFence,
    readList: readList,
    readResponse: readResponse,
    readPrediction: readPrediction,
    readCode: readCode,
    readMonto: readMonto,
    amountHits: amountHits,
    canHit: canHit,
    chooseMatching: chooseMatching,
    matchList: matchList,
    label: label,
    MAX_PREDICTIONS: MAX_PREDICTIONS
  };
});
