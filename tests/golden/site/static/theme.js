/* Light or dark: the reader's choice, kept in localStorage (which also works from file://), else the
   system's. Loaded in <head> without defer so the page never flashes in the other theme. */
(function () {
  'use strict';
  var KEY = 'tally-theme';
  var root = document.documentElement;

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function current() {
    var t = root.getAttribute('data-theme');
    if (t) return t;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  function label(button) {  // a toggle button: "Dark theme", pressed or not
    button.setAttribute('aria-pressed', current() === 'dark' ? 'true' : 'false');
  }

  var saved = stored();
  if (saved === 'dark' || saved === 'light') root.setAttribute('data-theme', saved);

  function init() {
    var button = document.getElementById('theme-toggle');
    if (!button) return;
    button.hidden = false;
    label(button);
    button.addEventListener('click', function () {
      var next = current() === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      label(button);
      document.dispatchEvent(new CustomEvent('tally-theme'));
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
