/* The re-check button of a public item page: loads scorer B, classic scripts listed in load order
   in the button's data-scripts (first static/core.js, which sets the global TallyCore, then the
   suite's own script, which registers its scorer with the core under the name in data-scorer),
   scores every stored response of the page again with TallyCore.scorer(name).scoreItem from the
   checked answers embedded in the page, and shows field by field whether it reproduces the
   published verdict (verdict, points and list order, as the agreement gate compares them). */
(function () {
  'use strict';

  function setCell(cell, ok, text) {
    cell.textContent = text;
    cell.className = 'recheck-cell ' + (ok ? 'ok' : 'bad');
  }

  function recheck(core, suite, status) {
    var itemText = document.getElementById('item-data').textContent;
    var parsed = core.parseJSON(itemText);
    if (!parsed.ok) throw new Error('the embedded item is not valid JSON');
    var item = parsed.value;
    var published = JSON.parse(document.getElementById('published-verdicts').textContent);
    var same = 0, differ = 0, skipped = 0;
    published.forEach(function (p) {
      var table = document.querySelector('table.verdicts[data-anchor="' + p.anchor + '"]');
      var cells = table.querySelectorAll('td.recheck-cell');
      if (!p.stored || p.on_page === false) {
        var why = p.stored ? 'record too large for this page' : 'no stored response';
        Array.prototype.forEach.call(cells, function (c) { setCell(c, true, why); });
        skipped += p.rows.length;
        return;
      }
      var pre = document.querySelector('pre.record[data-anchor="' + p.anchor + '"]');
      var rec = core.parseJSON(pre.textContent);
      if (!rec.ok) throw new Error('a stored record is not valid JSON');
      var rows = suite.scoreItem(item, rec.value, p.run, p.repeat);
      p.rows.forEach(function (want, k) {
        var got = rows[k];
        var ok = got && got.unit === want[0] && got.verdict === want[1] && got.points === want[2] &&
          got.order === want[3];
        if (ok) { same++; setCell(cells[k], true, 'reproduced'); }
        else {
          differ++;
          setCell(cells[k], false, 'differs: scorer B says ' + (got ? got.verdict + ' (' + got.points + ')' : 'nothing'));
        }
      });
    });
    status.textContent = differ === 0
      ? 'Scorer B reproduced all ' + same + ' published verdicts of this page' +
        (skipped ? ' (' + skipped + ' not re-checked here: no stored response, or too large for the page).' : '.')
      : 'Scorer B differs on ' + differ + ' of ' + (same + differ) + ' verdicts.';
    status.setAttribute('data-result', differ === 0 ? 'reproduced' : 'differs');
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
      try { recheck(window.TallyCore, window.TallyCore.scorer(name), status); } catch (e) {
        status.textContent = 'Scorer B could not re-check this page: ' + (e && e.message ? e.message : e);
        status.setAttribute('data-result', 'error');
      }
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
