// Search, filters, a column chooser and the sort order for the leaderboard,
// all kept in the URL fragment ("#filter?q=skew&weights=open&hide=age&sort=race&dir=desc")
// so that any state of the board is a link; the variant and view tabs carry
// it to the other boards. Without JavaScript the form is absent and the
// full board shows, sorted by rank. Runs to filter are the board's tbody
// elements: data-provider, data-weights ("open", "closed"), data-params
// (the model's parameter count, or "undisclosed"), data-synthetic and
// data-flagged (another data-quality flag) say what the filters need.
//
// A board of more than one page reads as one: its pages load the board
// index (data/boards/<variant>.js, BOARD_INDEX: every run of the variant's
// boards, what its row shows and the page of each view that holds it).
// While a search, filter or sort is set, the runs of the other pages join
// the table as short rows (class "elsewhere": rank, model, scores, flags,
// and a link to the row on its page), so that they are searched, filtered
// and sorted with this page's; and an anchor of a row on another page
// (index.html#<run-id>, on a board or a pairwise page) goes to that page.
(function () {
  "use strict";
  var index = window.BOARD_INDEX;
  var holder = document.querySelector("#board[data-view], #pairs[data-view]");
  if (index && holder) {
    reach();
    window.addEventListener("hashchange", reach);
  }
  filters();

  // The view's place in index.views and in each run's cells.
  function viewOf() {
    for (var i = 0; i < index.views.length; i++) {
      if (index.views[i].name === holder.dataset.view) { return i; }
    }
    return -1;
  }

  // rowHref is the link, from this page, to run id's row on the page of
  // the view's board ("board") or pairwise page ("pairwise") that holds
  // it, or "" when no page of that listing has one.
  function rowHref(id, kind) {
    var vi = viewOf(), root = holder.dataset.root;
    if (vi < 0) { return ""; }
    var pages = index.views[vi][kind] || [];
    id = index.alias && index.alias[id] || id;
    for (var t = 0; t < index.tables.length; t++) {
      var tab = index.tables[t];
      if (kind === "pairwise" && !tab.nb) { continue; }
      for (var i = 0; i < tab.runs.length; i++) {
        if (tab.runs[i].id === id) {
          var page = pages[Math.floor(tab.runs[i].v[vi][0] / index.per)];
          return page ? root + page + "#" + id : "";
        }
      }
    }
    if (kind === "board" && (index.unranked || []).indexOf(id) >= 0 && pages.length) {
      return root + pages[0] + "#" + id;
    }
    return "";
  }

  // reach takes an anchor of a row this page does not hold to the page
  // that holds it.
  function reach() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id || id.indexOf("filter?") === 0 || document.getElementById(id)) { return; }
    var href = rowHref(id, holder.id === "pairs" ? "pairwise" : "board");
    if (href) { location.replace(href); }
  }

  // elsewhereBody is a short row for a run of table t that stands on
  // another page: a cell for each of the table's columns, as its own row
  // has them (the rank, the model, each view's score and interval, the
  // flags), and a link to its row.
  function elsewhereBody(t, r, vi) {
    var b = document.createElement("tbody"), tr = b.insertRow();
    b.className = "elsewhere";
    Object.keys(r.a).forEach(function (k) { b.setAttribute("data-" + k, r.a[k]); });
    b.dataset.run = r.id;
    Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th) {
      var key = th.dataset.col, c = document.createElement(key === "model" ? "th" : "td");
      var cell = cellOf(key);
      c.setAttribute("data-label", th.textContent.trim());
      if (key === "model") {
        c.scope = "row";
        var a = document.createElement("a"), sub = document.createElement("span"), to = document.createElement("a");
        a.href = holder.dataset.root + index.run.replace("{id}", r.id);
        // Names are isolated, as the rows' are (<bdi>).
        a.appendChild(bdi(r.m));
        sub.className = "sub";
        sub.appendChild(bdi(r.mid));
        sub.appendChild(document.createTextNode(" · "));
        to.href = rowHref(r.id, "board");
        to.textContent = "on page " + (Math.floor(r.v[vi][0] / index.per) + 1);
        sub.appendChild(to);
        c.appendChild(a);
        c.appendChild(sub);
      } else if (key === "rank") {
        c.className = "c-rank";
        c.dataset.sort = r.v[vi][1];
        if (!r.v[vi][1]) {
          span(c, "", "–").title = "a board with one run has no ranks";
        } else {
          if (r.v[vi][2]) {
            var tie = span(c, "tie", String(r.v[vi][1]));
            span(tie, "tie-mark", "=");
          } else {
            c.appendChild(document.createTextNode(String(r.v[vi][1])));
          }
          if (r.v[vi][3]) { c.appendChild(document.createTextNode(" ")); span(c, "rset", "· " + r.v[vi][3]); }
        }
      } else if (key === "size" || key === "released") {
        factCell(c, key, r.s);
      } else if (key === "move") {
        // The rank change since the previous release: [mark, sort, words].
        var mv = r.v[vi].slice(7);
        c.className = "c-move";
        c.dataset.sort = mv[1] || "";
        if (mv.length) {
          c.title = mv[2];
          span(c, "", mv[0]).setAttribute("aria-hidden", "true");
          span(c, "vh", mv[2]);
        }
      } else if (cell) {
        c.className = (th.classList.contains("current") ? "current " : "") + "c-" + key;
        c.dataset.sort = cell[6];
        span(c, "num", cell[4]);
        span(c, "ci", cell[5]);
      } else {
        c.className = "c-" + key;
        (key === "flags" ? r.f || [] : []).forEach(function (f) {
          span(c, "flag", f);
          c.appendChild(document.createTextNode(" "));
        });
      }
      tr.appendChild(c);
    });
    return b;

    // cellOf is a view's cell of the run, by the column's key.
    function cellOf(key) {
      for (var i = 0; i < index.views.length; i++) {
        if (index.views[i].name === key) { return r.v[i]; }
      }
      return null;
    }
  }

  // factCell fills a short row's cell of the model's size or release date
  // from the index's facts: [size, its sort key, date, its sort key].
  function factCell(c, key, facts) {
    var f = facts || ["–", "", "–", ""], i = key === "size" ? 0 : 2;
    c.className = "c-" + key;
    c.dataset.sort = f[i + 1];
    if (key === "size") { span(c, "num", f[i]); } else { c.textContent = f[i]; }
  }

  function bdi(text) {
    var b = document.createElement("bdi");
    b.textContent = text;
    return b;
  }

  function span(parent, cls, text) {
    var s = document.createElement("span");
    if (cls) { s.className = cls; }
    s.textContent = text;
    parent.appendChild(s);
    return s;
  }

  function filters() {
    // The size filter's ranges of parameter counts (declared here: the
    // script calls filters() before the lines below its own run).
    var B = 1e9;
    var sizes = [
      { key: "", label: "all", keep: function () { return true; } },
      { key: "under-10b", label: "under 10B parameters", keep: function (n) { return n < 10 * B; } },
      { key: "10b-100b", label: "10B to 100B", keep: function (n) { return n >= 10 * B && n < 100 * B; } },
      { key: "over-100b", label: "100B or more", keep: function (n) { return n >= 100 * B; } },
      { key: "unknown", label: "undisclosed or not stated", keep: function (n) { return isNaN(n); } }
    ];
    var slot = document.getElementById("board-filters");
    var tables = Array.prototype.slice.call(document.querySelectorAll("table.board"));
    if (!slot || !tables.length) { return; }
    var own = [], others = null, runs;
    tables.forEach(function (t) { own = own.concat(Array.prototype.slice.call(t.tBodies)); });
    runs = own;
    var paged = !!(index && holder && viewOf() >= 0), total = own.length;
    if (paged) {
      total = 0;
      index.tables.forEach(function (t) { total += t.runs.length; });
    }

    // everyRun puts the runs of the other pages in the tables, as short
    // rows, while a search, filter or sort is set (on), and takes them out
    // of the reading when none is.
    function everyRun(on) {
      if (!paged) { return; }
      if (on && !others) {
        others = [];
        var vi = viewOf(), here = {};
        own.forEach(function (b) { here[b.rows[0].id] = b; });
        index.tables.forEach(function (it) {
          var t = tables.filter(function (x) { return x.dataset.method === it.method; })[0];
          if (!t) { return; }
          it.runs.forEach(function (r) {
            var b = here[r.id];
            if (!b) {
              b = elsewhereBody(t, r, vi);
              t.appendChild(b);
              others.push(b);
            }
            // Equal keys keep the board's order (sort.js): every run's
            // place in the view.
            b.dataset.pos = r.v[vi][0];
          });
        });
        runs = own.concat(others);
        quiet = true;
        sortTables();
        quiet = false;
      }
      if (others) {
        runs = on ? own.concat(others) : own;
        if (!on) { others.forEach(function (b) { b.hidden = true; }); }
      }
    }

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
    select("size", "Size", sizes.map(function (z) { return [z.key, z.label]; }));
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
      // Checked by default: Clear (the form's reset) shows every column.
      box.checked = box.defaultChecked = true;
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

    var fields = ["q", "provider", "weights", "size", "synthetic", "flagged", "interventions"];
    var sort = null; // {col: key, asc: bool}, or null for rank order

    function field(n) { return form.elements.namedItem(n); }
    function boxes() { return Array.prototype.slice.call(chooser.querySelectorAll("input")); }

    // The size filter: the model's parameter count (data-params, digits or
    // "undisclosed"; absent when the manifest does not say) in one of a
    // few ranges.
    function sizeKeep(b) {
      var z = sizes.filter(function (x) { return x.key === field("size").value; })[0];
      return !z || z.keep(Number(b.dataset.params || NaN));
    }

    function keep(b, name, has) {
      var v = field(name).value;
      return !v || (v === "hide" ? !has : has);
    }

    // words is what the search box matches a run against: its id, model,
    // model id and provider.
    function words(b) {
      var th = b.rows[0].cells[1], sub = th.querySelector(".sub");
      return [rowID(b), th.querySelector("a").textContent, sub ? sub.firstChild.textContent : "", b.dataset.provider].join(" ").toLowerCase();
    }
    function rowID(b) { return b.dataset.run || b.rows[0].id; }

    function apply(record) {
      var text = field("q").value.trim().toLowerCase(), provider = field("provider").value, weights = field("weights").value;
      var active = !!sort || fields.some(function (n) { return field(n).value.trim(); });
      everyRun(active);
      var shown = 0, away = 0;
      runs.forEach(function (b) {
        var ok = (!text || words(b).indexOf(text) >= 0) &&
          (!provider || b.dataset.provider === provider) && (!weights || b.dataset.weights === weights) && sizeKeep(b) &&
          keep(b, "synthetic", b.hasAttribute("data-synthetic")) && keep(b, "flagged", b.hasAttribute("data-flagged"));
        b.hidden = !ok;
        if (ok) { shown++; }
        if (ok && b.dataset.run) { away++; }
        Array.prototype.forEach.call(b.rows, function (r, i) { if (i > 0) { r.hidden = field("interventions").value === "hide"; } });
      });
      var hidden = boxes().filter(function (x) { return !x.checked; }).map(function (x) { return x.value; });
      style.textContent = hidden.map(function (k) {
        return "table.board [data-col=\"" + k + "\"], table.board .c-" + k + " { display: none; }";
      }).join("\n");
      out.textContent = paged && !active ? own.length + " of " + total + " runs on this page" :
        shown + " of " + total + " shown" + (away ? ", " + away + " of them on other pages" : "");
      var visible = {};
      runs.forEach(function (b) { if (!b.hidden) { visible[rowID(b)] = true; } });
      // A chart shows runs of other pages too: with nothing set, all of it.
      document.querySelectorAll("#board svg [data-run]").forEach(function (g) {
        g.style.display = !active || visible[g.getAttribute("data-run")] ? "" : "none";
      });
      // A table with no run left, and its chart, make way for the empty state.
      tables.forEach(function (t, i) {
        var any = Array.prototype.some.call(t.tBodies, function (b) { return !b.hidden; });
        wraps[i].hidden = !any;
        // A table none of whose runs stand on this page says so above it.
        var note = wraps[i].previousElementSibling;
        if (note && note.classList.contains("elsewhere-note")) { note.hidden = any; }
      });
      figures.forEach(function (f) {
        var rows = f.querySelectorAll("[data-run]");
        f.hidden = active && rows.length > 0 && !Array.prototype.some.call(rows, function (g) { return visible[g.getAttribute("data-run")]; });
      });
      var set = fields.filter(function (n) { return field(n).value.trim(); }).map(function (n) {
        return n === "q" ? "the search “" + field(n).value.trim() + "”" : "the " + field(n).closest("label").firstChild.textContent.trim().toLowerCase() + " filter";
      });
      empty.hidden = shown > 0;
      empty.textContent = shown > 0 ? "" : "No run matches " + set.join(" and ") + ". Change " + (set.length > 1 ? "them" : "it") + ", or press Clear to show all " + total + " runs.";
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
  }
})();
