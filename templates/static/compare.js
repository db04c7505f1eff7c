/* Compare two runs (suites/<suite>/compare.html) from the data embedded in the page: every metric with
   both estimates, the paired difference and its call as the statistics engine computed them, and the
   public items where their verdicts differ. The pair is kept in the URL fragment (#a=RUN&b=RUN).
   Everything is set as text, never as markup. */
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
    var labels = {};
    data.runs.forEach(function (r) { labels[r.id] = r.label; });

    function pair(metric, a, b) {  // [diff, low, high, call] of a minus b, or null
      var p = metric.pairs[a + '|' + b];
      if (p) return p;
      p = metric.pairs[b + '|' + a];
      if (!p) return null;
      return [p[0] === null ? null : -p[0], p[2] === null ? null : -p[2], p[1] === null ? null : -p[1],
              FLIP[p[3]] || p[3]];
    }

    function unitsOf(item) {  // the item's unit names (item[2] holds their indices in data.items.units)
      return item[2].map(function (u) { return data.items.units[u]; });
    }

    function verdictsOf(item, pattern) {  // unit name -> verdict name; a pattern is [unit, verdict, unit, ...]
      var out = {}, flat = item[3][pattern], units = unitsOf(item);
      for (var k = 0; k + 1 < flat.length; k += 2) out[units[flat[k]]] = data.items.verdicts[flat[k + 1]];
      return out;
    }

    function differences(item, pa, pb) {  // "unit: first → second; ..." for the units where they differ
      var va = verdictsOf(item, pa), vb = verdictsOf(item, pb), parts = [];
      unitsOf(item).forEach(function (unit) {
        if (va[unit] !== vb[unit]) parts.push(unit + ': ' + (va[unit] || 'none') + ' \u2192 ' + (vb[unit] || 'none'));
      });
      var shown = parts.slice(0, 6).join('; ');
      return parts.length > 6 ? shown + '; and ' + (parts.length - 6) + ' more' : shown;
    }

    function show(keep) {
      var a = selA.value, b = selB.value;
      document.getElementById('head-a').textContent = labels[a];
      document.getElementById('head-b').textContent = labels[b];
      var body = document.getElementById('compare-metrics').tBodies[0];
      while (body.firstChild) body.removeChild(body.firstChild);
      data.metrics.forEach(function (m) {
        var tr = document.createElement('tr');
        var th = document.createElement('th');
        th.scope = 'row';
        th.textContent = m.label;
        tr.appendChild(th);
        tr.appendChild(td(m.shown[a] || '\u2013', 'num'));
        tr.appendChild(td(m.shown[b] || '\u2013', 'num'));
        var p = a === b ? null : pair(m, a, b);
        if (p && p[0] !== null) {
          var iv = p[1] === null ? '' : ' [' + num(p[1]) + ', ' + num(p[2]) + ']';
          tr.appendChild(td(signed(p[0]) + iv, 'num'));
          var call = p[3] === "can't tell apart" ? "can't tell apart" : labels[a] + ' is ' + p[3];
          tr.appendChild(td(call, p[3] === 'better' ? 'ok' : p[3] === 'worse' ? 'bad' : ''));
        } else {
          tr.appendChild(td('\u2013', 'num'));
          tr.appendChild(td(a === b ? 'the same run' : 'not compared'));
        }
        body.appendChild(tr);
      });
      var items = document.getElementById('compare-items').tBodies[0];
      while (items.firstChild) items.removeChild(items.firstChild);
      var differ = 0;
      data.items.list.forEach(function (it, k) {
        var pa = data.verdicts[a][k], pb = data.verdicts[b][k];
        if (pa === pb) return;
        differ += 1;
        var tr = document.createElement('tr');
        tr.appendChild(link(it[0], it[1]));
        tr.appendChild(td(pa === 0 ? 'no response from the first run' : pb === 0 ? 'no response from the second run' : differences(it, pa, pb)));
        items.appendChild(tr);
      });
      document.getElementById('items-count').textContent = differ + ' of the ' + data.items.list.length +
        ' public items get different verdicts from the two runs.';
      document.getElementById('compare-status').textContent = 'Comparing ' + labels[a] + ' with ' + labels[b] + '.';
      if (!keep) {
        try { window.history.replaceState(null, '', '#a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b)); }
        catch (e) { window.location.hash = 'a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b); }
      }
    }

    function fromFragment() {
      var f = fragment();
      if (labels[f.a]) selA.value = f.a;
      if (labels[f.b]) selB.value = f.b;
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
