/* Compare two runs (suites/<suite>/compare.html): every metric with both estimates, the paired difference
   and its call as the statistics engine computed them, and the public items where their verdicts differ.
   The page holds the runs and metrics; each run's data is a script beside it (compare/<run>.js, pushed
   onto window.TALLY_COMPARE), and the public items another (compare-items.js, window.TALLY_COMPARE_ITEMS),
   each loaded when first needed: classic scripts, so it works from file://. A pair of runs is stored once,
   in the script of the run the statistics list first; the other order is read reversed. The pair is kept
   in the URL fragment (#a=RUN&b=RUN). Everything is set as text, never as markup. */
(function () {
  'use strict';
  var MINUS = '\u2212';
  var FLIP = { better: 'worse', worse: 'better' };

  function num(x) {
    if (x === null || x === undefined) return '\u2013';
    var s = x.toFixed(1);
    if (s === '-0.0') s = '0.0';
    return s.charAt(0) === '-' ? MINUS + s.slice(1) : s;
  }

  function signed(x) { return x > 0 ? '+' + num(x) : num(x); }

  function td(text, cls) {
    var c = document.createElement('td');
    if (cls) c.className = cls;
    c.textContent = text;
    return c;
  }

  function link(text, href) {
    var c = document.createElement('td');
    var a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    c.appendChild(a);
    return c;
  }

  function clear(body) {
    while (body.firstChild) body.removeChild(body.firstChild);
  }

  function fragment() {
    var out = {};
    window.location.hash.replace(/^#/, '').split('&').forEach(function (part) {
      var kv = part.split('=');
      if (kv.length === 2) { try { out[kv[0]] = decodeURIComponent(kv[1]); } catch (e) { /* ignore */ } }
    });
    return out;
  }

  function init() {
    var block = document.getElementById('compare-data');
    var form = document.getElementById('compare-form');
    if (!block || !form) return;
    var data = JSON.parse(block.textContent);
    var selA = document.getElementById('run-a');
    var selB = document.getElementById('run-b');
    var status = document.getElementById('compare-status');
    var metricsBody = document.getElementById('compare-metrics').tBodies[0];
    var itemsBody = document.getElementById('compare-items').tBodies[0];
    var count = document.getElementById('items-count');
    var runs = new Map();  // run id -> {id, label, model, src}, as the page lists them
    data.runs.forEach(function (r) { runs.set(r.id, r); });
    var loaded = new Map();  // run id -> {shown, pairs, verdicts, at: Map(other run -> its position in pairs)}
    var items = null;  // the public items' script's data, once loaded
    var loading = new Map();  // script src -> the functions waiting for it

    function take() {  // the runs' scripts pushed so far, kept by run
      var queue = window.TALLY_COMPARE;
      if (!Array.isArray(queue)) return;
      while (queue.length) {
        var d = queue.shift();
        if (!d || typeof d.run !== 'string' || !runs.has(d.run) || loaded.has(d.run)) continue;
        var at = new Map();
        d.others.forEach(function (other, k) { at.set(other, k); });
        loaded.set(d.run, { shown: d.shown, pairs: d.pairs, verdicts: d.verdicts, at: at });
      }
    }

    function load(src, done) {  // the script at src, once at a time; done() when it has run or failed
      if (loading.has(src)) { loading.get(src).push(done); return; }
      loading.set(src, [done]);
      var script = document.createElement('script');
      function finish(ok) {
        var waiting = loading.get(src);
        loading.delete(src);
        take();
        if (!items && window.TALLY_COMPARE_ITEMS && Array.isArray(window.TALLY_COMPARE_ITEMS.list)) items = window.TALLY_COMPARE_ITEMS;
        if (!ok) script.parentNode.removeChild(script);  // asked for again, it is loaded again
        waiting.forEach(function (f) { f(); });
      }
      script.onload = function () { finish(true); };
      script.onerror = function () { finish(false); };
      script.src = src;
      document.head.appendChild(script);
    }

    function missing(ids) {  // the scripts still to load for runs `ids` and the items
      var out = [];
      ids.forEach(function (id) {
        if (!loaded.has(id) && out.indexOf(runs.get(id).src) < 0) out.push(runs.get(id).src);
      });
      if (!items) out.push(data.items);
      return out;
    }

    function need(ids, then) {  // then() once the runs' and the items' scripts are loaded
      var srcs = missing(ids);
      if (!srcs.length) { then(); return; }
      status.textContent = 'Loading the data of the two runs\u2026';
      var left = srcs.length;
      srcs.forEach(function (src) {
        load(src, function () {
          left -= 1;
          if (left) return;
          var failed = missing(ids);
          if (failed.length) status.textContent = 'The data of this comparison (' + failed.join(', ') + ') could not be loaded.';
          else then();
        });
      });
    }

    function pair(m, a, b) {  // [diff, low, high, call] of a minus b for metric m (its index), or null
      var A = loaded.get(a), B = loaded.get(b);
      var p = A.at.has(b) ? A.pairs[m][A.at.get(b)] : null;
      if (p) return p;
      p = B.at.has(a) ? B.pairs[m][B.at.get(a)] : null;
      if (!p) return null;
      return [p[0] === null ? null : -p[0], p[2] === null ? null : -p[2], p[1] === null ? null : -p[1],
              FLIP[p[3]] || p[3]];
    }

    function unitsOf(item) {  // the item's unit names (item[2] holds their indices in items.units)
      return item[2].map(function (u) { return items.units[u]; });
    }

    function verdictsOf(item, pattern) {  // unit name -> verdict name; a pattern is [unit, verdict, unit, ...]
      var out = new Map(), flat = item[3][pattern], units = unitsOf(item);
      for (var k = 0; k + 1 < flat.length; k += 2) out.set(units[flat[k]], items.verdicts[flat[k + 1]]);
      return out;
    }

    function differences(item, pa, pb) {  // "unit: first → second; ..." for the units where they differ
      var va = verdictsOf(item, pa), vb = verdictsOf(item, pb), parts = [];
      unitsOf(item).forEach(function (unit) {
        if (va.get(unit) !== vb.get(unit)) parts.push(unit + ': ' + (va.get(unit) || 'none') + ' \u2192 ' + (vb.get(unit) || 'none'));
      });
      var shown = parts.slice(0, 6).join('; ');
      return parts.length > 6 ? shown + '; and ' + (parts.length - 6) + ' more' : shown;
    }

    function render(a, b) {
      var A = loaded.get(a), B = loaded.get(b);
      data.metrics.forEach(function (m, k) {
        var tr = document.createElement('tr');
        var th = document.createElement('th');
        th.scope = 'row';
        th.textContent = m.label;
        tr.appendChild(th);
        tr.appendChild(td(A.shown[k] || '\u2013', 'num'));
        tr.appendChild(td(B.shown[k] || '\u2013', 'num'));
        var p = a === b ? null : pair(k, a, b);
        if (p && p[0] !== null) {
          var iv = p[1] === null ? '' : ' [' + num(p[1]) + ', ' + num(p[2]) + ']';
          tr.appendChild(td(signed(p[0]) + iv, 'num'));
          var call = p[3] === "can't tell apart" ? "can't tell apart" : runs.get(a).label + ' is ' + p[3];
          tr.appendChild(td(call, p[3] === 'better' ? 'ok' : p[3] === 'worse' ? 'bad' : ''));
        } else {
          tr.appendChild(td('\u2013', 'num'));
          tr.appendChild(td(a === b ? 'the same run' : 'not compared'));
        }
        metricsBody.appendChild(tr);
      });
      var differ = 0;
      items.list.forEach(function (it, k) {
        var pa = A.verdicts[k], pb = B.verdicts[k];
        if (pa === pb) return;
        differ += 1;
        var tr = document.createElement('tr');
        tr.appendChild(link(it[0], it[1]));
        tr.appendChild(td(pa === 0 ? 'no response from the first run' : pb === 0 ? 'no response from the second run' : differences(it, pa, pb)));
        itemsBody.appendChild(tr);
      });
      count.textContent = differ + ' of the ' + items.list.length + ' public items get different verdicts from the two runs.';
      status.textContent = 'Comparing ' + runs.get(a).label + ' with ' + runs.get(b).label + '.';
      form.setAttribute('data-loaded', '');
    }

    function show(keep) {
      var a = selA.value, b = selB.value;
      document.getElementById('head-a').textContent = runs.get(a).label;
      document.getElementById('head-b').textContent = runs.get(b).label;
      form.removeAttribute('data-loaded');
      clear(metricsBody);
      clear(itemsBody);
      count.textContent = '';
      if (!keep) {
        try { window.history.replaceState(null, '', '#a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b)); }
        catch (e) { window.location.hash = 'a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b); }
      }
      need([a, b], function () {
        if (selA.value === a && selB.value === b) render(a, b);  // else a later choice shows its own
      });
    }

    function fromFragment() {
      var f = fragment();
      if (runs.has(f.a)) selA.value = f.a;
      if (runs.has(f.b)) selB.value = f.b;
    }

    form.hidden = false;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    selA.addEventListener('change', function () { show(false); });
    selB.addEventListener('change', function () { show(false); });
    window.addEventListener('hashchange', function () { fromFragment(); show(true); });
    fromFragment();
    show(true);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
