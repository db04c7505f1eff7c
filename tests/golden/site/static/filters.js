/* Filters in place on the suite page: choose the items (a stratum: dataset, half, locale...), the
   hosting and, where the models' facts say, open or closed weights, and the headline table and chart
   show that view, from data precomputed by the site build in a script beside the page (the form's
   data-views, e.g. suites/<suite>/filter-views.js, setting window.TALLY_FILTER_VIEWS), loaded only
   when a view is first asked for (a choice, or a fragment naming one): a classic script, so it works
   from file://, and the page itself stays small. The form has data-loaded once it is read. The view is kept in the URL
   fragment (#items=KEY&hosting=H&weights=W), which restores it. Names are set as text, never as
   markup. A run whose model's weights are not known is in neither the open nor the closed view. */
(function () {
  'use strict';

  function cell(spec, th) {
    var td = document.createElement('td');
    var text = spec[0], sort = spec[1], href = spec[2], cls = spec[3] || '', sub = spec[4] || '';
    if (sort !== null) td.setAttribute('data-sort', sort);
    var classes = cls ? cls.split(' ') : [];
    Array.prototype.forEach.call(th.classList, function (c) {
      if (c.indexOf('col-') === 0 || c === 'on' || c === 'off') classes.push(c);
    });
    if (classes.length) td.className = classes.join(' ');
    var inner = cls === 'num' ? document.createTextNode(text) : document.createElement('bdi');
    if (cls !== 'num') inner.textContent = text;
    var at = text.indexOf(' [');
    if (cls === 'num' && at >= 0 && !href) {  // the interval kept whole, under its estimate when narrow
      inner = document.createTextNode(text.slice(0, at) + ' ');
      var ci = document.createElement('span');
      ci.className = 'ci';
      ci.textContent = text.slice(at + 1);
      td.appendChild(inner);
      td.appendChild(ci);
      return td;
    }
    if (href) {
      var a = document.createElement('a');
      a.href = href;
      a.appendChild(inner);
      td.appendChild(a);
    } else {
      td.appendChild(inner);
    }
    if (sub) {
      var s = document.createElement('span');
      s.className = 'sub';
      s.appendChild(document.createElement('bdi')).textContent = sub;
      td.appendChild(document.createTextNode(' '));
      td.appendChild(s);
    }
    return td;
  }

  function readFragment() {
    var hash = window.location.hash.replace(/^#/, '');
    if (hash.indexOf('=') < 0) return {};
    var out = {};
    hash.split('&').forEach(function (part) {
      var kv = part.split('=');
      try { out[decodeURIComponent(kv[0])] = decodeURIComponent(kv.slice(1).join('=')); } catch (e) { /* ignore */ }
    });
    return out;
  }

  function init() {
    var form = document.getElementById('filters');
    if (!form || !form.getAttribute('data-views')) return;
    var data = null;
    var table = document.getElementById(form.getAttribute('data-table'));
    var heading = document.getElementById(form.getAttribute('data-heading'));
    var chart = document.querySelector('script.chart-data[data-target="' + form.getAttribute('data-chart') + '"]');
    var items = document.getElementById('f-items');
    var hosting = document.getElementById('f-hosting');
    var weights = document.getElementById('f-weights');  // absent when no model's weights are known
    var status = document.getElementById('f-status');
    if (!table || !items || !hosting) return;
    var base = chart ? JSON.parse(chart.textContent) : null;
    var views = {};
    var waiting = null;  // what to do once the views are loaded

    function withData(then) {  // run `then` once the views are loaded (at once if they are)
      if (data) { then(); return; }
      if (waiting) { waiting.push(then); return; }
      waiting = [then];
      var script = document.createElement('script');
      script.src = form.getAttribute('data-views');
      script.onload = function () {
        data = window.TALLY_FILTER_VIEWS;
        if (!data) { script.onerror(); return; }
        data.views.forEach(function (v) { views[v.key] = v; });
        var run = waiting;
        waiting = [];
        run.forEach(function (f) { f(); });
        form.setAttribute('data-loaded', '');
      };
      script.onerror = function () {
        waiting = null;
        status.textContent = 'The views of this table (' + form.getAttribute('data-views') + ') could not be loaded.';
      };
      document.head.appendChild(script);
    }

    function show(keepFragment) {
      var view = views[items.value] || views[data.initial] || data.views[0];
      var host = hosting.value;
      var kind = weights ? weights.value : '';
      var heads = table.tHead.rows[0].cells;
      var body = table.tBodies[0];
      while (body.firstChild) body.removeChild(body.firstChild);
      var rows = view.rows.filter(function (r) {
        return (!host || r.hosting === host) && (!kind || r.weights === kind);
      });
      rows.forEach(function (r) {
        var tr = document.createElement('tr');
        r.cells.forEach(function (c, k) { tr.appendChild(cell(c, heads[k])); });
        body.appendChild(tr);
      });
      Array.prototype.forEach.call(heads, function (th) {
        if (th.hasAttribute('aria-sort')) th.setAttribute('aria-sort', 'none');
      });
      if (heading) heading.textContent = view.heading;
      var caption = table.caption;
      if (caption) caption.textContent = view.caption;
      if (chart && base) {
        var spec = JSON.parse(JSON.stringify(base));
        var pts = rows.filter(function (r) { return r.point; }).map(function (r) { return r.point; }).reverse();
        var trace = spec.figure.data[0];
        trace.y = pts.map(function (p) { return p[0]; });
        trace.x = pts.map(function (p) { return p[1]; });
        trace.error_x.arrayminus = pts.map(function (p) { return p[1] - p[2]; });
        trace.error_x.array = pts.map(function (p) { return p[3] - p[1]; });
        spec.figure.layout.height = 90 + 28 * pts.length;
        spec.figure.layout.title.text = view.chart_title;
        chart.textContent = JSON.stringify(spec);
        if (window.TallyCharts) window.TallyCharts.draw(chart);
      }
      status.textContent = 'Showing ' + rows.length + ' of ' + view.rows.length + ' runs on ' + view.title +
        (host ? ', ' + host + ' only' : '') + (kind ? ', ' + kind + ' weights only' : '') + '.' +
        (items.value === data.initial && !host && !kind ? '' :
          ' The download links below are of the page\'s own headline view.');
      if (!keepFragment) {
        var frag = items.value === data.initial && !host && !kind ? '' :
          '#items=' + encodeURIComponent(items.value) + (host ? '&hosting=' + encodeURIComponent(host) : '') +
          (kind ? '&weights=' + encodeURIComponent(kind) : '');
        try {
          window.history.replaceState(null, '', frag || window.location.pathname + window.location.search);
        } catch (e) {
          if (frag) window.location.hash = frag;
        }
      }
    }

    function fromFragment() {
      var f = readFragment();
      if (!('items' in f) && !('hosting' in f) && !('weights' in f)) return false;
      items.value = views[f.items] ? f.items : data.initial;
      hosting.value = f.hosting === 'hosted' || f.hosting === 'self-hosted' ? f.hosting : '';
      if (weights) weights.value = f.weights === 'open' || f.weights === 'closed' ? f.weights : '';
      return true;
    }

    form.hidden = false;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    var changed = function () { withData(function () { show(false); }); };
    var restore = function () {
      if (Object.keys(readFragment()).length) withData(function () { if (fromFragment()) show(true); });
    };
    items.addEventListener('change', changed);
    hosting.addEventListener('change', changed);
    if (weights) weights.addEventListener('change', changed);
    window.addEventListener('hashchange', restore);
    restore();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
