/* Search from file://: every word of the query must occur in an entry (its title, the text beside it,
   or, for a section of a prose page, its text); entries whose title starts with or holds the words
   come first, then those that hold them beside the title, then in their text only, which is shown
   around the first match. Reads window.TALLY_SEARCH (written by
   the site build as a classic script). Results are set as text, never as markup. The query is kept in
   the URL fragment (#q=...). */
(function () {
  'use strict';
  var KINDS = { model: 'Model', provider: 'Provider', suite: 'Suite', item: 'Public item', page: 'Page',
    section: 'Section' };
  var LIMIT = 50;
  var AROUND = 80;  // characters shown each side of a match in a page's text

  function words(text) {
    return text.toLowerCase().split(/[\s,;:()]+/).filter(function (w) { return w.length > 0; });
  }

  function rank(entry, query) {
    var title = entry[1].toLowerCase();
    var more = entry[2].toLowerCase();
    var body = (entry[4] || '').toLowerCase();
    var score = 0;
    for (var k = 0; k < query.length; k++) {
      var w = query[k];
      if (title.indexOf(w) === 0) score += 8;
      else if (title.indexOf(w) > 0) score += 4;
      else if (more.indexOf(w) >= 0) score += 2;
      else if (body.indexOf(w) >= 0) score += 1;
      else return -1;
    }
    return score;
  }

  function snippet(entry, query) {  // the words around the first match of each query word in the page's text
    var body = entry[4] || '';
    var low = body.toLowerCase();
    var parts = [], shown = '';
    for (var k = 0; k < query.length; k++) {
      if (shown.indexOf(query[k]) >= 0) continue;
      var at = low.indexOf(query[k]);
      if (at < 0) continue;
      var from = Math.max(0, at - AROUND), to = Math.min(body.length, at + query[k].length + AROUND);
      parts.push((from > 0 ? '\u2026' : '') + body.slice(from, to) + (to < body.length ? '\u2026' : ''));
      shown += ' ' + low.slice(from, to);
    }
    return parts.join(' ');
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
        var around = h.s < 2 * q.length ? snippet(h.e, q) : '';
        if (around) {
          var quote = document.createElement('span');
          quote.className = 'snippet';
          quote.textContent = around;
          li.appendChild(quote);
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
