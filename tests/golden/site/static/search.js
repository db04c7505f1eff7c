/* Search from file://: every word of the query must occur in an entry (its title, or the text beside it);
   entries whose title starts with or holds the words come first. Reads window.TALLY_SEARCH (written by
   the site build as a classic script). Results are set as text, never as markup. The query is kept in
   the URL fragment (#q=...). */
(function () {
  'use strict';
  var KINDS = { model: 'Model', provider: 'Provider', suite: 'Suite', item: 'Public item', page: 'Page' };
  var LIMIT = 50;

  function words(text) {
    return text.toLowerCase().split(/[\s,;:()]+/).filter(function (w) { return w.length > 0; });
  }

  function rank(entry, query) {
    var title = entry[1].toLowerCase();
    var all = title + ' ' + entry[2].toLowerCase();
    var score = 0;
    for (var k = 0; k < query.length; k++) {
      var w = query[k];
      if (all.indexOf(w) < 0) return -1;
      score += title.indexOf(w) === 0 ? 4 : title.indexOf(w) > 0 ? 2 : 1;
    }
    return score;
  }

  function init() {
    var box = document.getElementById('search-box');
    var list = document.getElementById('search-results');
    var status = document.getElementById('search-status');
    var form = document.getElementById('search-form');
    if (!box || !list || !window.TALLY_SEARCH) return;
    var index = window.TALLY_SEARCH;

    function run(keep) {
      var q = words(box.value);
      while (list.firstChild) list.removeChild(list.firstChild);
      if (!q.length) { status.textContent = index.length + ' entries to search.'; return; }
      var hits = [];
      index.forEach(function (e, pos) {
        var s = rank(e, q);
        if (s >= 0) hits.push({ e: e, s: s, pos: pos });
      });
      hits.sort(function (a, b) { return b.s - a.s || a.pos - b.pos; });
      hits.slice(0, LIMIT).forEach(function (h) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = h.e[3];
        a.textContent = h.e[1];
        var kind = document.createElement('span');
        kind.className = 'kind';
        kind.textContent = KINDS[h.e[0]] || h.e[0];
        li.appendChild(kind);
        li.appendChild(document.createTextNode(' '));
        li.appendChild(a);
        if (h.e[2]) {
          var more = document.createElement('span');
          more.className = 'note';
          more.textContent = ' \u2014 ' + h.e[2];
          li.appendChild(more);
        }
        list.appendChild(li);
      });
      status.textContent = hits.length + ' found' + (hits.length > LIMIT ? ', the first ' + LIMIT + ' shown' : '') + '.';
      if (!keep) {
        try { window.history.replaceState(null, '', '#q=' + encodeURIComponent(box.value)); }
        catch (e) { /* the fragment is a convenience */ }
      }
    }

    form.hidden = false;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    box.addEventListener('input', function () { run(false); });
    var m = /^#q=(.*)$/.exec(window.location.hash);
    if (m) { try { box.value = decodeURIComponent(m[1]); } catch (e) { /* ignore */ } }
    run(true);
    box.focus();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
