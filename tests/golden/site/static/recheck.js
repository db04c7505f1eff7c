/* The re-check button of a public item page: loads scorer B, classic scripts listed in load order
   in the button's data-scripts (first static/core.js, which sets the global TallyCore, then the
   suite's own script, which registers its scorer with the core under the name in data-scorer),
   reads the item and every stored response of the page from their one published copy (the suite's
   public items and each run's public stored lines, gzip, in the downloads; the page names each line),
   scores every response again with TallyCore.scorer(name).scoreItem, and shows field by field whether
   it reproduces the published verdict (verdict, points, order and counts, as the agreement gate compares
   them), saying how many it could not re-check and why. */
(function () {
  'use strict';

  function setCell(cell, ok, text) {
    cell.textContent = text;
    cell.className = 'recheck-cell ' + (ok ? 'ok' : 'bad');
  }

  // The item and the stored records are read from their one published copy, gzip JSON Lines files in
  // the downloads, each fetched once. A page opened from disk cannot read another file (browsers refuse
  // file: fetches), so it does not try: its responses are counted as not re-checked, and the status
  // says so and why.
  var downloads = {};
  function fetchLines(href) {
    if (location.protocol === 'file:') {
      return Promise.reject(new Error('a page opened from disk cannot read another file'));
    }
    if (!downloads[href]) {
      downloads[href] = fetch(href).then(function (r) {
        if (!r.ok) throw new Error('status ' + r.status);
        if (typeof DecompressionStream !== 'function') throw new Error('this browser cannot inflate gzip');
        return new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).text();
      }).then(function (text) { return text.split('\n'); });
    }
    return downloads[href];
  }

  function lineOf(href, n) {  // line n (1-based) of a download
    return fetchLines(href).then(function (lines) {
      if (!(n >= 1 && n < lines.length)) throw new Error('line ' + n + ' is not in ' + href);
      return lines[n - 1];
    });
  }

  function sameCounts(a, b) {
    if (a.length !== b.length) return false;
    for (var k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
    return true;
  }

  function recordOf(p) {
    var note = document.querySelector('p.stored-elsewhere[data-anchor="' + p.anchor + '"]');
    return lineOf(note.querySelector('a').getAttribute('href'), parseInt(note.getAttribute('data-line'), 10));
  }

  function recheck(core, suite, status, button) {
    var published = JSON.parse(document.getElementById('published-verdicts').textContent);
    var itemLine = lineOf(button.getAttribute('data-items'), parseInt(button.getAttribute('data-item-line'), 10))
      .then(function (text) {
        var parsed = core.parseJSON(text);
        if (!parsed.ok) throw new Error('the item is not valid JSON');
        return parsed.value;
      });
    itemLine.catch(function () {});  // its failure is counted with each response that needed it
    var same = 0, differ = 0, absent = 0, unread = 0, why = '';
    var jobs = published.map(function (p) {
      var table = document.querySelector('table.verdicts[data-anchor="' + p.anchor + '"]');
      var rows = Array.prototype.slice.call(table.tBodies[0].rows);
      var cells = rows.map(function (row) { return row.cells[row.cells.length - 1]; });
      // the published verdicts are the table's rows as shown (the data block lists a response's rows only
      // when one of them cannot be shown exactly as text, e.g. a unit holding a carriage return)
      // the table names its columns (data-columns): points, order and counts are left out by some suites;
      // a left-out points column means points by the one rule, a left-out order the empty text
      var names = (table.getAttribute('data-columns') || 'unit kind verdict points reason order').split(' ');
      var at = {};
      names.forEach(function (name, k) { at[name] = k; });
      var nCounts = at.counts === undefined ? 0 : rows.length ? rows[0].cells.length - 1 - at.counts : 0;
      var wanted = p.rows || rows.map(function (row) {
        var c = row.cells, counts = [];
        for (var j = 0; j < nCounts; j++) counts.push(Number(c[at.counts + j].textContent));
        return [c[at.unit].textContent, c[at.verdict].classList[1],
          at.points === undefined ? null : Number(c[at.points].textContent),
          at.order === undefined ? '' : c[at.order].textContent, counts];
      });
      if (!p.stored) {
        cells.forEach(function (c) { setCell(c, true, 'no stored response'); });
        absent += wanted.length;
        return Promise.resolve();
      }
      return Promise.all([itemLine, recordOf(p)]).then(function (got) {
        var rec = core.parseJSON(got[1]);
        if (!rec.ok) throw new Error('a stored record is not valid JSON');
        var rows = suite.scoreItem(got[0], rec.value, p.run, p.repeat);
        wanted.forEach(function (want, k) {
          var row = rows[k];
          var ok = row && row.unit === want[0] && row.verdict === want[1] &&
            (want[2] === null || row.points === want[2]) && row.order === want[3] &&
            sameCounts(row.counts || [], want[4] || []);
          if (ok) { same++; setCell(cells[k], true, 'reproduced'); }
          else {
            differ++;
            setCell(cells[k], false, 'differs: scorer B says ' + (row ? row.verdict + ' (' + row.points + ')' : 'nothing'));
          }
        });
      }, function (e) {
        why = e && e.message ? e.message : String(e);
        cells.forEach(function (c) { setCell(c, false, 'not re-checked: its download could not be read'); });
        unread += wanted.length;
      });
    });
    return Promise.all(jobs).then(function () {
      var notes = [];
      if (absent) notes.push(absent + ' with no stored response');
      if (unread) {
        notes.push(unread + ' not re-checked because the item and its stored records, published once in the ' +
          'downloads, could not be read (' + why + ': serve the site over http, e.g. python3 -m http.server in ' +
          'its folder, or re-check them with tally rescore)');
      }
      var tail = notes.length ? ' (' + notes.join('; ') + ').' : '.';
      var result;
      if (differ) {
        status.textContent = 'Scorer B differs on ' + differ + ' of ' + (same + differ) + ' verdicts' + tail;
        result = 'differs';
      } else if (same === 0) {
        status.textContent = 'Scorer B re-checked none of the ' + (absent + unread) + ' published verdicts of this page' + tail;
        result = unread ? 'skipped' : 'reproduced';
      } else {
        status.textContent = 'Scorer B reproduced all ' + same + ' re-checked verdicts of this page' + tail;
        result = unread ? 'partial' : 'reproduced';
      }
      status.setAttribute('data-result', result);
    });
  }

  function load(sources, done, failed) {  // classic scripts, one after the other
    if (sources.length === 0) { done(); return; }
    if (document.querySelector('script[data-scorer-b="' + sources[0] + '"]')) {  // loaded already
      load(sources.slice(1), done, failed);
      return;
    }
    var script = document.createElement('script');
    script.src = sources[0];
    script.setAttribute('data-scorer-b', sources[0]);
    script.onload = function () { load(sources.slice(1), done, failed); };
    script.onerror = function () { script.parentNode.removeChild(script); failed(sources[0]); };
    document.head.appendChild(script);
  }

  function run(button) {
    var status = document.getElementById('recheck-status');
    var name = button.getAttribute('data-scorer');
    var go = function () {
      button.disabled = false;
      var failed = function (e) {
        status.textContent = 'Scorer B could not re-check this page: ' + (e && e.message ? e.message : e);
        status.setAttribute('data-result', 'error');
      };
      try {
        status.removeAttribute('data-result');
        status.textContent = 'Re-checking\u2026';
        recheck(window.TallyCore, window.TallyCore.scorer(name), status, button).catch(failed);
      } catch (e) { failed(e); }
    };
    if (window.TallyCore && window.TallyCore.names().indexOf(name) >= 0) { go(); return; }
    status.textContent = 'Loading scorer B\u2026';
    button.disabled = true;
    load(button.getAttribute('data-scripts').split(' ').filter(Boolean), go, function (src) {
      button.disabled = false;
      status.textContent = 'Scorer B (' + src + ') could not be loaded.';
      status.setAttribute('data-result', 'error');
    });
  }

  function init() {
    var button = document.getElementById('recheck');
    if (button) button.addEventListener('click', function () { run(button); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
