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
// values as shown. The address keeps the two runs.
(function () {
  "use strict";
  var index = window.PAIR_RUNS, form = document.getElementById("pair-form");
  if (!index || !form) { return; }
  var pick = { a: document.getElementById("pair-a"), b: document.getElementById("pair-b") };
  var status = document.getElementById("pair-status"), result = document.getElementById("pair-result");
  var words = index.Words;
  window.PAIR_DATA = window.PAIR_DATA || {};
  form.hidden = false;

  // The pickers: a group of options a board, its ranked runs first.
  var boardOf = {};
  ["a", "b"].forEach(function (k) {
    index.Boards.forEach(function (bd, bi) {
      var g = document.createElement("optgroup");
      g.label = bd.Title;
      bd.Ranked.concat(bd.Others || []).forEach(function (r) {
        g.appendChild(new Option(r[1] + " (" + r[0] + ")", r[0]));
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
      put(status, unknown.map(function (k) { return [words.Unknown, { id: st[k] }]; }));
      return;
    }
    put(status, [[words.Loading, {}]]);
    Promise.all([load(st.a), load(st.b)]).then(function (rs) {
      if (n === shown) { render(rs[0], rs[1]); }
    }, function (src) {
      if (n === shown) { result.hidden = true; put(status, [[words.NotLoaded, { file: src }]]); }
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
    if (a.ID === b.ID) { return [[words.Same, {}]]; }
    var out = [];
    if (a.Variant !== b.Variant) {
      out.push([words.Variants, {}]);
    } else if (a.Method !== b.Method) {
      out.push([words.Methods, {}]);
    }
    [a, b].forEach(function (r, i) {
      if (r.Place < 0) { out.push([words.NotRanked.replace("{run}", i ? "B" : "A"), { why: r.Why }]); }
    });
    return out;
  }

  // put writes sentences into el, each [words, fills]: a "{name}" of the
  // words is fills[name], isolated in a <bdi> (a run's name, id or
  // reason, which the site was given), else the words as they are.
  function put(el, sentences) {
    el.textContent = "";
    sentences.forEach(function (x, i) {
      x[0].split(/(\{[a-z]+\})/).forEach(function (part) {
        var name = /^\{([a-z]+)\}$/.exec(part);
        if (name && Object.prototype.hasOwnProperty.call(x[1], name[1])) {
          var b = document.createElement("bdi");
          b.textContent = x[1][name[1]];
          el.appendChild(b);
        } else if (part) {
          el.appendChild(document.createTextNode(part));
        }
      });
      if (i < sentences.length - 1) { el.appendChild(document.createTextNode(" ")); }
    });
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
    document.querySelectorAll("#pair-result th.pair-a").forEach(function (th) { put(th, [["A: {model}", { model: a.Model }]]); });
    document.querySelectorAll("#pair-result th.pair-b").forEach(function (th) { put(th, [["B: {model}", { model: b.Model }]]); });
    var note = document.getElementById("pair-note");
    put(note, no ? [[words.NoPaired, {}]].concat(no) : [[words.Paired.replace("{board}", bd.Title).replace("{pairs}", bd.Pairs), {}]]);
    note.className = no ? "warn" : "note";
    fill("pair-views", index.Views.map(function (title, vi) {
      var va = a.Views[vi], vb = b.Views[vi];
      var row = [[title], score(a, va), score(b, vb), [va[0] === null || vb[0] === null ? "n/a" : signed(va[0] - vb[0])]];
      if (no) {
        row.push(["—"]);
      } else {
        var p = paired(a, b, vi), v = index.Verdicts[p[3]];
        row.push([(v[0] ? v[0] + " " : "") + signed(p[0]), { text: interval(p[1], p[2]), cls: "ci" }, { text: v[2], cls: v[1] }]);
      }
      return row;
    }));
    fill("pair-coefs", index.Coefs.map(function (label, ci) {
      var ca = a.Coefs[ci], cb = b.Coefs[ci];
      return [[label], [ca[1], { text: ca[2], cls: "ci" }], [cb[1], { text: cb[2], cls: "ci" }], [ca[0] === null || cb[0] === null ? "n/a" : signed(ca[0] - cb[0])]];
    }));
    var links = document.getElementById("pair-links");
    links.textContent = "";
    [["A", a], ["B", b]].forEach(function (x) {
      var li = document.createElement("li");
      li.appendChild(document.createTextNode(x[0] + ": "));
      li.appendChild(link(index.Run.replace("{id}", x[1].ID), x[1].Model + " (" + x[1].ID + ")"));
      li.appendChild(document.createTextNode(" · " + index.Boards[x[1].Board].Title + " · intervention: "));
      var iv = document.createElement("bdi");
      iv.textContent = x[1].Intervention;
      li.appendChild(iv);
      links.appendChild(li);
    });
    if (!no) {
      var li = document.createElement("li");
      li.appendChild(link(bd.Pairwise[0], words.Pairwise.replace("{board}", bd.Title)));
      links.appendChild(li);
    }
    var qb = {};
    b.Questions.forEach(function (q) { qb[q] = true; });
    var labels = index.Questions[a.Variant] || {};
    fill("pair-scenarios", a.Questions.filter(function (q) { return qb[q]; }).map(function (q) {
      var label = "Question " + q + (labels[q] ? ": " + labels[q] : "");
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
    var rank = v[3] ? words.Rank.replace("{rank}", v[3] + (v[4] ? "=" : "")).replace("{set}", v[5]) : words.Unranked;
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
