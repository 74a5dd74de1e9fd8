// Column sorting for tables marked "sortable": the page is already sorted
// by rank without JavaScript; this lets a reader re-sort by any column.
// Each table gets a sortBy(col, asc) method and fires a "sorted" event
// (detail {col, asc}) after every sort, for board.js to record it.
(function () {
  "use strict";
  document.querySelectorAll("table.sortable").forEach(function (table) {
    // The last header row has a cell per column (a first row may group
    // columns).
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    table.sortBy = function (col, asc) {
      var th = head.cells[col];
      Array.prototype.forEach.call(head.cells, function (c) { c.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var num = th.dataset.type === "num";
      // A table of several bodies, or a board (each run a body, with the
      // intervention rows under it: it moves as one; a page of a board
      // may have none of a table's runs, which board.js adds), sorts its
      // bodies, else its rows.
      var many = table.tBodies.length > 1 || table.classList.contains("board");
      var parent = many ? table : table.tBodies[0];
      var items = Array.prototype.slice.call(many ? table.tBodies : parent.rows);
      var first = function (g) { return many ? g.rows[0] : g; };
      items.forEach(function (g, i) { g.dataset.pos = g.dataset.pos || i; });
      items.sort(function (a, b) {
        var x = key(first(a).cells[col], num), y = key(first(b).cells[col], num), d;
        if (num) { d = x - y; } else { d = x < y ? -1 : x > y ? 1 : 0; }
        if (!asc) { d = -d; }
        return d || a.dataset.pos - b.dataset.pos;
      });
      items.forEach(function (g) { parent.appendChild(g); });
      table.dispatchEvent(new CustomEvent("sorted", { detail: { col: col, asc: asc } }));
    };
    Array.prototype.forEach.call(head.cells, function (th, col) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      if (th.querySelector("a")) {
        // A heading that links somewhere keeps its link; a button of its
        // own, after it, sorts.
        b.setAttribute("aria-label", "Sort by " + th.textContent.trim());
      } else {
        // The heading's own markup (an abbr, a second line) moves into
        // the button.
        while (th.firstChild) { b.appendChild(th.firstChild); }
      }
      th.appendChild(b);
      b.addEventListener("click", function () {
        table.sortBy(col, th.getAttribute("aria-sort") !== "ascending");
      });
    });
  });
  function key(cell, num) {
    var v = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
    if (!num) { return v.toLowerCase(); }
    var f = parseFloat(v.replace("\u2212", "-"));
    return isNaN(f) ? Infinity : f;
  }
})();
