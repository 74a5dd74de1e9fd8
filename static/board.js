// Search, filters, a column chooser and the sort order for the leaderboard,
// all kept in the URL fragment ("#filter?q=skew&weights=open&hide=age&sort=race&dir=desc")
// so that any state of the board is a link; the variant and view tabs carry
// it to the other boards. Without JavaScript the form is absent and the
// full board shows, sorted by rank. Runs to filter are the board's tbody
// elements: data-provider, data-weights ("open", "closed"), data-synthetic
// and data-flagged (another data-quality flag) say what the filters need.
(function () {
  "use strict";
  var slot = document.getElementById("board-filters");
  var tables = Array.prototype.slice.call(document.querySelectorAll("table.board"));
  if (!slot || !tables.length) { return; }
  var runs = [];
  tables.forEach(function (t) { runs = runs.concat(Array.prototype.slice.call(t.tBodies)); });

  var form = document.createElement("form");
  form.className = "filters";
  form.setAttribute("aria-label", "Search and filter the runs");
  // The search box is always in view; the other filters and the column
  // chooser fold into a "Filters and columns" box, open when one is set.
  var more = document.createElement("details"), summary = document.createElement("summary");
  summary.textContent = "Filters and columns";
  more.appendChild(summary);
  var box = form;
  function label(text, control) {
    var l = document.createElement("label");
    l.textContent = text + " ";
    l.appendChild(control);
    box.appendChild(l);
    return control;
  }
  function select(name, text, options) {
    var s = document.createElement("select");
    s.name = name;
    options.forEach(function (o) { s.add(new Option(o[1], o[0])); });
    return label(text, s);
  }
  var q = document.createElement("input");
  q.type = "search";
  q.name = "q";
  q.size = 14;
  q.setAttribute("placeholder", "model, id, provider");
  label("Search", q);
  form.appendChild(more);
  box = document.createElement("div");
  box.className = "more";
  more.appendChild(box);
  var providers = [];
  runs.forEach(function (b) { var p = b.dataset.provider; if (p && providers.indexOf(p) < 0) { providers.push(p); } });
  providers.sort();
  select("provider", "Provider", [["", "all"]].concat(providers.map(function (p) { return [p, p]; })));
  select("weights", "Weights", [["", "all"], ["open", "open"], ["closed", "closed"]]);
  select("synthetic", "Synthetic runs", [["", "shown"], ["hide", "hidden"], ["only", "only these"]]);
  select("flagged", "Flagged runs", [["", "shown"], ["hide", "hidden"], ["only", "only these"]]);
  select("interventions", "Interventions", [["", "shown"], ["hide", "hidden"]]);

  // The column chooser: every column but rank and model can be hidden.
  var cols = [];
  Array.prototype.forEach.call(tables[0].tHead.rows[0].cells, function (th) {
    var k = th.dataset.col;
    if (k && k !== "rank" && k !== "model") { cols.push([k, th.textContent.trim()]); }
  });
  var chooser = document.createElement("fieldset");
  chooser.className = "columns";
  var legend = document.createElement("legend");
  legend.textContent = "Columns";
  chooser.appendChild(legend);
  cols.forEach(function (c) {
    var l = document.createElement("label"), box = document.createElement("input");
    box.type = "checkbox";
    box.name = "col";
    box.value = c[0];
    box.checked = true;
    l.appendChild(box);
    l.appendChild(document.createTextNode(" " + c[1]));
    chooser.appendChild(l);
  });
  box.appendChild(chooser);
  var reset = document.createElement("button");
  reset.type = "reset";
  reset.textContent = "Clear";
  box.appendChild(reset);
  var out = document.createElement("output");
  out.setAttribute("aria-live", "polite");
  form.appendChild(out);
  slot.appendChild(form);
  // The empty state: what to change when no run is left.
  var empty = document.createElement("p");
  empty.className = "warn empty";
  empty.hidden = true;
  slot.appendChild(empty);
  // What the filters sit above: the tables, their charts (each run's row
  // is a group with data-run) and their robustness tables.
  var figures = Array.prototype.slice.call(document.querySelectorAll("#board .chart-fig, #board details.robust"));
  var wraps = tables.map(function (t) { return t.closest(".table-wrap") || t; });
  var style = document.createElement("style");
  document.head.appendChild(style);

  var fields = ["q", "provider", "weights", "synthetic", "flagged", "interventions"];
  var sort = null; // {col: key, asc: bool}, or null for rank order

  function field(n) { return form.elements.namedItem(n); }
  function boxes() { return Array.prototype.slice.call(chooser.querySelectorAll("input")); }

  function keep(b, name, has) {
    var v = field(name).value;
    return !v || (v === "hide" ? !has : has);
  }

  function apply(record) {
    var text = field("q").value.trim().toLowerCase(), provider = field("provider").value, weights = field("weights").value;
    var shown = 0;
    runs.forEach(function (b) {
      var head = b.rows[0];
      var ok = (!text || (head.cells[1].textContent + " " + b.dataset.provider).toLowerCase().indexOf(text) >= 0) &&
        (!provider || b.dataset.provider === provider) && (!weights || b.dataset.weights === weights) &&
        keep(b, "synthetic", b.hasAttribute("data-synthetic")) && keep(b, "flagged", b.hasAttribute("data-flagged"));
      b.hidden = !ok;
      if (ok) { shown++; }
      Array.prototype.forEach.call(b.rows, function (r, i) { if (i > 0) { r.hidden = field("interventions").value === "hide"; } });
    });
    var hidden = boxes().filter(function (x) { return !x.checked; }).map(function (x) { return x.value; });
    style.textContent = hidden.map(function (k) {
      return "table.board [data-col=\"" + k + "\"], table.board .c-" + k + " { display: none; }";
    }).join("\n");
    out.textContent = shown + " of " + runs.length + " shown";
    var visible = {};
    runs.forEach(function (b) { if (!b.hidden) { visible[b.rows[0].id] = true; } });
    document.querySelectorAll("#board svg [data-run]").forEach(function (g) {
      g.style.display = visible[g.getAttribute("data-run")] ? "" : "none";
    });
    // A table with no run left, and its chart, make way for the empty state.
    tables.forEach(function (t, i) {
      var any = Array.prototype.some.call(t.tBodies, function (b) { return !b.hidden; });
      wraps[i].hidden = !any;
    });
    figures.forEach(function (f) {
      var rows = f.querySelectorAll("[data-run]");
      f.hidden = rows.length > 0 && !Array.prototype.some.call(rows, function (g) { return visible[g.getAttribute("data-run")]; });
    });
    var set = fields.filter(function (n) { return field(n).value.trim(); }).map(function (n) {
      return n === "q" ? "the search “" + field(n).value.trim() + "”" : "the " + field(n).closest("label").firstChild.textContent.trim().toLowerCase() + " filter";
    });
    empty.hidden = shown > 0;
    empty.textContent = shown > 0 ? "" : "No run matches " + set.join(" and ") + ". Change " + (set.length > 1 ? "them" : "it") + ", or press Clear to show all " + runs.length + " runs.";
    if (record) { write(hidden); }
  }

  function write(hidden) {
    var p = new URLSearchParams();
    fields.forEach(function (n) { var v = field(n).value.trim(); if (v) { p.set(n, v); } });
    if (hidden.length) { p.set("hide", hidden.join(",")); }
    if (sort) { p.set("sort", sort.col); if (!sort.asc) { p.set("dir", "desc"); } }
    var s = p.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", s ? "#filter?" + s : location.pathname + location.search);
    tabs(s ? "#filter?" + s : "");
  }

  // The tabs to other variants and views carry the state along.
  function tabs(hash) {
    document.querySelectorAll("nav.switch a:not([aria-current])").forEach(function (a) {
      a.setAttribute("href", a.getAttribute("href").split("#")[0] + hash);
    });
  }

  function sortTables() {
    tables.forEach(function (t) {
      var cells = t.tHead.rows[0].cells;
      for (var i = 0; i < cells.length; i++) {
        if (sort && cells[i].dataset.col === sort.col) { t.sortBy(i, sort.asc); return; }
      }
      if (!sort) { t.sortBy(0, true); }
    });
  }

  function read() {
    var h = location.hash;
    if (h.indexOf("#filter?") !== 0) { return false; }
    var p = new URLSearchParams(h.slice(8));
    fields.forEach(function (n) { field(n).value = p.get(n) || ""; });
    var hidden = (p.get("hide") || "").split(",");
    boxes().forEach(function (x) { x.checked = hidden.indexOf(x.value) < 0; });
    sort = p.get("sort") ? { col: p.get("sort"), asc: p.get("dir") !== "desc" } : null;
    if (fields.slice(1).some(function (n) { return field(n).value; }) || p.get("hide")) { more.open = true; }
    return true;
  }

  var quiet = false; // sorting from the URL must not write the URL back
  tables.forEach(function (t) {
    t.addEventListener("sorted", function (e) {
      if (quiet) { return; }
      sort = { col: t.tHead.rows[0].cells[e.detail.col].dataset.col, asc: e.detail.asc };
      // The board's other table (decision runs) follows the same order.
      quiet = true;
      sortTables();
      quiet = false;
      apply(true);
    });
  });
  form.addEventListener("input", function () { apply(true); });
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("reset", function () {
    setTimeout(function () { sort = null; quiet = true; sortTables(); quiet = false; apply(true); }, 0);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  function load() {
    if (read()) {
      quiet = true;
      if (sort) { sortTables(); }
      quiet = false;
      apply(false);
      tabs(location.hash);
    } else {
      apply(false);
    }
  }
  window.addEventListener("hashchange", load);
  load();
})();
