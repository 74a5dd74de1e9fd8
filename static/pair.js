// Two runs side by side (pair.html#a=<id>&b=<id>; boards/pair.go). The
// pickers list every run from data/pair-runs.js (PAIR_RUNS); a run picked
// loads its data/pairs/<id>.js, a script assigning PAIR_RUN, by a
// relative path, so the page works from file://; PAIR_DATA keeps the runs
// loaded by id. The paired estimate of
// two ranked runs of one board is the build's, as the pairwise page shows
// it: the comparison is in one of the two runs' files (the holder: the
// lower place of the two when their places sum to an odd number, else the
// higher), as the holder minus the other, which this page turns round
// when B holds it. Nothing is computed here but the difference of two
// values as shown. The address keeps the two runs. Every word written is
// the page's: a <template id="pair-w-<name>"> a sentence, filled by
// words(), and the verdicts' <template id="pair-verdict-<code>">.
(function () {
  "use strict";
  var index = window.PAIR_RUNS, form = document.getElementById("pair-form");
  if (!index || !form) { return; }
  var pick = { a: document.getElementById("pair-a"), b: document.getElementById("pair-b") };
  var status = document.getElementById("pair-status"), result = document.getElementById("pair-result");
  window.PAIR_DATA = window.PAIR_DATA || {};
  form.hidden = false;

  // The pickers: a group of options a board, its ranked runs first.
  var boardOf = {};
  ["a", "b"].forEach(function (k) {
    index.Boards.forEach(function (bd, bi) {
      var g = document.createElement("optgroup");
      g.label = bd.Title;
      bd.Ranked.concat(bd.Others || []).forEach(function (r) {
        g.appendChild(new Option(say("option", { model: r[1], id: r[0] }), r[0]));
        boardOf[r[0]] = bi;
      });
      pick[k].appendChild(g);
    });
  });

  // state is the two runs of the address, with the defaults: a board's
  // two highest ranked runs; B, when only A is given, the run ranked next
  // to A (or its board's first).
  function state() {
    var p = new URLSearchParams(location.hash.replace(/^#/, "") || location.search.replace(/^\?/, ""));
    var a = p.get("a") || "", b = p.get("b") || "";
    if (!a) {
      var first = index.Boards.filter(function (bd) { return bd.Ranked.length > 1; })[0] || index.Boards[0];
      var runs = first ? first.Ranked.concat(first.Others || []) : [];
      return { a: runs[0] ? runs[0][0] : "", b: runs[1] ? runs[1][0] : "" };
    }
    if (!b && boardOf[a] !== undefined) {
      var bd = index.Boards[boardOf[a]], ids = bd.Ranked.map(function (r) { return r[0]; });
      var i = ids.indexOf(a);
      b = i < 0 ? ids[0] || "" : ids[i === 0 ? 1 : i - 1] || "";
    }
    // Else any other run of the site, or A itself on a site of one.
    if (!b) {
      b = Object.keys(boardOf).filter(function (id) { return id !== a; })[0] || a;
    }
    return { a: a, b: b };
  }

  // load gives the run's data, loading its script the first time.
  function load(id) {
    return new Promise(function (resolve, reject) {
      if (window.PAIR_DATA[id]) { resolve(window.PAIR_DATA[id]); return; }
      var s = document.createElement("script");
      s.src = index.Files.replace("{id}", id);
      // A run's script assigns PAIR_RUN; its load event follows it at
      // once, before another script runs.
      s.onload = function () {
        var d = window.PAIR_RUN;
        if (d && d.ID === id) {
          window.PAIR_DATA[id] = d;
          resolve(d);
        } else {
          reject(s.src);
        }
      };
      s.onerror = function () { reject(s.src); };
      document.head.appendChild(s);
    });
  }

  var shown = 0; // the latest rendering asked for: an older one that ends later is dropped
  function show() {
    var st = state(), n = ++shown;
    ["a", "b"].forEach(function (k) { if (boardOf[st[k]] !== undefined) { pick[k].value = st[k]; } });
    var unknown = ["a", "b"].filter(function (k) { return boardOf[st[k]] === undefined; });
    if (unknown.length) {
      result.hidden = true;
      put(status, unknown.map(function (k) { return ["unknown", { id: st[k] }]; }));
      return;
    }
    put(status, [["loading", {}]]);
    Promise.all([load(st.a), load(st.b)]).then(function (rs) {
      if (n === shown) { render(rs[0], rs[1]); }
    }, function (src) {
      if (n === shown) { result.hidden = true; put(status, [["not-loaded", { file: src }]]); }
    });
  }

  function write() {
    var h = "#a=" + encodeURIComponent(pick.a.value) + "&b=" + encodeURIComponent(pick.b.value);
    history.replaceState(null, "", h);
    show();
  }
  pick.a.addEventListener("change", write);
  pick.b.addEventListener("change", write);
  document.getElementById("pair-swap").addEventListener("click", function () {
    var a = pick.a.value;
    pick.a.value = pick.b.value;
    pick.b.value = a;
    write();
  });
  window.addEventListener("hashchange", show);
  show();

  // why says why two runs have no paired estimate of the build's, as
  // sentences for put, or none.
  function why(a, b) {
    if (a.ID === b.ID) { return [["same", {}]]; }
    var out = [];
    if (a.Variant !== b.Variant) {
      out.push(["variants", {}]);
    } else if (a.Method !== b.Method) {
      out.push(["methods", {}]);
    }
    [a, b].forEach(function (r, i) {
      if (r.Place < 0) { out.push(["not-ranked", { run: i ? "B" : "A", why: r.Why }]); }
    });
    return out;
  }

  // words is the page's sentence name (its <template id="pair-w-name">)
  // filled: each element of it with data-fill="key" holds fills[key] as
  // text, each with data-href="key" links fills[key].
  function words(name, fills) {
    var f = document.getElementById("pair-w-" + name).content.cloneNode(true);
    f.querySelectorAll("[data-fill]").forEach(function (el) { el.textContent = fills[el.getAttribute("data-fill")]; });
    f.querySelectorAll("[data-href]").forEach(function (el) { el.href = fills[el.getAttribute("data-href")]; });
    return f;
  }
  // say is the sentence's text, for where no element can go.
  function say(name, fills) { return words(name, fills || {}).textContent; }

  // put writes sentences into el, each [name, fills] (words).
  function put(el, sentences) {
    el.textContent = "";
    sentences.forEach(function (x, i) {
      if (i) { el.appendChild(document.createTextNode(" ")); }
      el.appendChild(words(x[0], x[1]));
    });
  }

  // verdict is the pairwise pages' verdict of a code: mark, class, words.
  function verdict(code) {
    var t = document.getElementById("pair-verdict-" + code);
    return { mark: t.getAttribute("data-mark"), cls: t.getAttribute("data-class"), words: t.content.textContent };
  }

  // paired is the build's comparison of A minus B in view vi: [estimate,
  // low, high, verdict code], in hundredths.
  function paired(a, b, vi) {
    var i = a.Place, j = b.Place, h = holder(i, j), f = h === i ? a : b, other = h === i ? j : i, pos = 0;
    for (var k = 0; k < other; k++) {
      if (k !== h && holder(h, k) === h) { pos++; }
    }
    var x = f.Pairs[vi].slice(4 * pos, 4 * pos + 4);
    return f === a ? x : [-x[0], -x[2], -x[1], [0, 2, 1][x[3]]];
  }
  function holder(i, j) { return (i + j) % 2 === 1 ? Math.min(i, j) : Math.max(i, j); }

  // signed writes hundredths as the site writes a signed value: "+0.12",
  // "−0.05", "0.00".
  function signed(h) {
    if (h === 0) { return "0.00"; }
    var x = Math.abs(h);
    return (h < 0 ? "−" : "+") + Math.floor(x / 100) + "." + (x % 100 < 10 ? "0" : "") + x % 100;
  }
  function interval(lo, hi) { return "[" + signed(lo) + ", " + signed(hi) + "]"; }

  function render(a, b) {
    var no = why(a, b), bd = index.Boards[a.Board];
    no = no.length ? no : null;
    status.textContent = "";
    document.querySelectorAll("#pair-result th.pair-a").forEach(function (th) { put(th, [["head-a", { model: a.Model }]]); });
    document.querySelectorAll("#pair-result th.pair-b").forEach(function (th) { put(th, [["head-b", { model: b.Model }]]); });
    var note = document.getElementById("pair-note");
    put(note, no ? [["no-paired", {}]].concat(no) : [["paired", { board: bd.Title, pairs: bd.Pairs }]]);
    note.className = no ? "warn" : "note";
    fill("pair-views", index.Views.map(function (title, vi) {
      var va = a.Views[vi], vb = b.Views[vi];
      var row = [[title], score(a, va), score(b, vb), [va[0] === null || vb[0] === null ? say("not-shown") : signed(va[0] - vb[0])]];
      if (no) {
        row.push([say("no-estimate")]);
      } else {
        var p = paired(a, b, vi), v = verdict(p[3]);
        row.push([(v.mark ? v.mark + " " : "") + signed(p[0]), { text: interval(p[1], p[2]), cls: "ci" }, { text: v.words, cls: v.cls }]);
      }
      return row;
    }));
    fill("pair-coefs", index.Coefs.map(function (label, ci) {
      var ca = a.Coefs[ci], cb = b.Coefs[ci];
      return [[label], [ca[1], { text: ca[2], cls: "ci" }], [cb[1], { text: cb[2], cls: "ci" }], [ca[0] === null || cb[0] === null ? say("not-shown") : signed(ca[0] - cb[0])]];
    }));
    var links = document.getElementById("pair-links");
    links.textContent = "";
    [["A", a], ["B", b]].forEach(function (x) {
      var li = document.createElement("li"), r = x[1];
      li.appendChild(words("run", { side: x[0], run: index.Run.replace("{id}", r.ID), model: r.Model, id: r.ID, board: index.Boards[r.Board].Title, intervention: r.Intervention }));
      links.appendChild(li);
    });
    if (!no) {
      var li = document.createElement("li");
      li.appendChild(words("pairwise", { pairwise: bd.Pairwise[0], board: bd.Title }));
      links.appendChild(li);
    }
    var qb = {};
    b.Questions.forEach(function (q) { qb[q] = true; });
    var labels = index.Questions[a.Variant] || {};
    fill("pair-scenarios", a.Questions.filter(function (q) { return qb[q]; }).map(function (q) {
      var label = labels[q] ? say("question-label", { q: q, label: labels[q] }) : say("question", { q: q });
      return [[a.Variant === b.Variant ? { href: index.Compare.replace("{variant}", a.Variant).replace("{q}", q), text: label } : label],
        [{ href: index.Scenario.replace("{id}", a.ID).replace("{q}", q), text: a.Model }],
        [{ href: index.Scenario.replace("{id}", b.ID).replace("{q}", q), text: b.Model }]];
    }));
    result.hidden = false;
    result.dataset.shown = a.ID + " " + b.ID;
  }

  // score is a run's cell of a view: its score and interval, and its rank
  // linking its row on the board.
  function score(r, v) {
    var rank = v[3] ? say("rank", { rank: v[3] + (v[4] ? "=" : ""), set: v[5] }) : say("unranked");
    return [v[1], { text: v[2], cls: "ci" }, { href: v[6], text: rank, cls: "sub" }];
  }

  function link(href, text) {
    var a = document.createElement("a"), b = document.createElement("bdi");
    a.href = href;
    b.textContent = text;
    a.appendChild(b);
    return a;
  }

  // fill writes a table's body: a row per item, a cell per list of parts
  // (text, or {text, cls, href}); the first cell heads its row.
  function fill(id, rows) {
    var t = document.getElementById(id), body = t.tBodies[0], heads = t.tHead.rows[0].cells;
    body.textContent = "";
    t.closest(".table-wrap").hidden = rows.length === 0;
    rows.forEach(function (cells) {
      var tr = body.insertRow();
      cells.forEach(function (parts, i) {
        var c = document.createElement(i ? "td" : "th");
        if (i) { c.setAttribute("data-label", heads[i].textContent); } else { c.scope = "row"; }
        parts.forEach(function (p) {
          var el;
          if (typeof p === "string") {
            el = document.createElement("span");
            el.textContent = p;
          } else {
            el = p.href ? link(p.href, p.text) : document.createElement("span");
            if (!p.href) { el.textContent = p.text; }
            if (p.cls) { el.className = p.cls; }
          }
          c.appendChild(el);
        });
        tr.appendChild(c);
      });
    });
  }
})();
