/* Renders each plotly figure held in a <script type="application/json" class="chart-data"> block
   into the element named by its data-target, in the page's colours (light or dark). */
(function () {
  'use strict';

  function theme() {
    var css = getComputedStyle(document.documentElement);
    var fg = css.getPropertyValue('--fg').trim() || '#1b1f24';
    var line = css.getPropertyValue('--line').trim() || '#d0d7de';
    var axis = { color: fg, gridcolor: line, linecolor: line, zerolinecolor: line };
    return { paper_bgcolor: 'rgba(0,0,0,0)', plot_bgcolor: 'rgba(0,0,0,0)', 'font.color': fg,
             'title.font.color': fg, 'legend.font.color': fg, xaxis: axis, yaxis: axis };
  }

  function apply(layout, t) {
    layout.paper_bgcolor = t.paper_bgcolor;
    layout.plot_bgcolor = t.plot_bgcolor;
    layout.font = Object.assign({}, layout.font, { color: t['font.color'] });
    ['xaxis', 'yaxis'].forEach(function (a) { layout[a] = Object.assign({}, layout[a], t[a]); });
    return layout;
  }

  function draw(block, t) {
    var target = document.getElementById(block.getAttribute('data-target'));
    if (!target || typeof Plotly === 'undefined') return;
    var spec = JSON.parse(block.textContent);
    var fig = spec.figure;
    Plotly.react(target, fig.data, apply(fig.layout || {}, t || theme()), spec.config);
  }

  function render() {
    if (typeof Plotly === 'undefined') return;
    var t = theme();
    Array.prototype.forEach.call(document.querySelectorAll('script.chart-data'), function (block) { draw(block, t); });
  }

  // for the suite page's filters: draw one chart again after its data block was replaced
  window.TallyCharts = { draw: function (block) { draw(block); } };

  function init() {
    render();
    if (window.matchMedia) {
      var mq = window.matchMedia('(prefers-color-scheme: dark)');
      if (mq.addEventListener) mq.addEventListener('change', render);
    }
    document.addEventListener('tally-theme', render);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
