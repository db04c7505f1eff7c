/* The column chooser of a table: a checkbox for each column that may be hidden (class col-low: gives
   way on a phone; col-opt: hidden until chosen). Ticking or unticking sets "on" or "off" on the
   column's heading and cells, so the choice holds at every width. */
(function () {
  'use strict';

  function setColumn(table, index, show) {
    Array.prototype.forEach.call(table.rows, function (row) {
      var cell = row.cells[index];
      if (!cell) return;
      cell.classList.toggle('on', show);
      cell.classList.toggle('off', !show);
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll('details.cols'), function (chooser) {
      var table = document.getElementById(chooser.getAttribute('data-table'));
      if (!table) return;
      var box = document.createElement('div');
      Array.prototype.forEach.call(table.querySelectorAll('thead th[data-col]'), function (th) {
        var index = parseInt(th.getAttribute('data-col'), 10);
        var label = document.createElement('label');
        var input = document.createElement('input');
        input.type = 'checkbox';
        input.checked = getComputedStyle(th).display !== 'none';
        input.addEventListener('change', function () { setColumn(table, index, input.checked); });
        label.appendChild(input);
        label.appendChild(document.createTextNode(' ' + th.textContent.trim()));
        box.appendChild(label);
      });
      chooser.appendChild(box);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
