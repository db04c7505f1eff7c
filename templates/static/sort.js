/* Sortable tables: each heading of a table.sortable holds a <button> (keyboard accessible by
   nature: Tab to it, Enter or Space to sort). Cells sort by their data-sort value when present,
   else by their text; numeric columns (data-type="number") compare as numbers, blanks last. */
(function () {
  'use strict';

  function key(cell, numeric) {
    var raw = cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent.trim();
    if (!numeric) return raw.toLowerCase();
    var n = parseFloat(raw);
    return raw === '' || isNaN(n) ? null : n;
  }

  function sortBy(table, th, button) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = button.getAttribute('data-type') === 'number';
    var ascending = th.getAttribute('aria-sort') !== 'ascending';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, position) {
      return { row: row, key: key(row.cells[index], numeric), position: position };
    });
    rows.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        if (a.key === b.key) return a.position - b.position;
        return a.key === null ? 1 : -1;
      }
      var c = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      return (ascending ? c : -c) || a.position - b.position;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(th.parentNode.children, function (other) {
      if (other.hasAttribute('aria-sort')) other.setAttribute('aria-sort', 'none');
    });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
      Array.prototype.forEach.call(table.querySelectorAll('thead th button.sort'), function (button) {
        button.addEventListener('click', function () { sortBy(table, button.parentNode, button); });
      });
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
