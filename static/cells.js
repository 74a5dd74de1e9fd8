// The transcript of any cell of a scenario page, and two cells side by
// side with the words of their prompts that differ.
//
// The page holds the run's own numbers (#cv-data, written in Go:
// internal/site/cellview.go); the run's prompt template is in its
// template.js (RUN_TEMPLATE); the
// dataset's prompts come from the question's shared script
// (PROMPT_TEXTS, in design order, the grid's cell order). The state is in
// the URL: "#cells?a=age-20-female-white&b=age-20-female-black". Nothing is
// fetched: a page opened from file:// cannot.
(function () {
  "use strict";
  var slot = document.getElementById("cv"), dataEl = document.getElementById("cv-data");
  var grid = document.querySelector("table.grid");
  if (!slot || !dataEl || !grid) { return; }
  var data = JSON.parse(dataEl.textContent);
  // A log-probability run's answer forms are in its template.js, once for
  // its 70 pages; the baseline person is the grid's cell marked "base".
  if (!data.answers && window.RUN_FORMS) { data.forms = window.RUN_FORMS.forms; data.yes = window.RUN_FORMS.yes; }
  var texts = window.PROMPT_TEXTS || [];
  var template = typeof window.RUN_TEMPLATE === "string" ? window.RUN_TEMPLATE : "";
  var digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var BELOW = 64 * 64 - 2, ZERO = 64 * 64 - 1;

  // The cells in design order, as the grid lists them (browse.js, which
  // runs first, has given each its id).
  var cells = [];
  Array.prototype.forEach.call(grid.tBodies[0].rows, function (tr) {
    Array.prototype.forEach.call(tr.cells, function (td, i) { if (i > 0) { cells.push(td); } });
  });
  var byId = {};
  cells.forEach(function (td, i) { byId[td.id] = i; });
  var baseCell = grid.querySelector("td.base");
  data.base = baseCell ? baseCell.id : "";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function label(id) {
    var m = /^age-(\d+)-(female|male|non-binary)-(.+)$/.exec(id);
    if (!m) { return id; }
    var race = m[3] === "native-american" ? "Native American" : m[3] === "white" ? "white" : m[3].charAt(0).toUpperCase() + m[3].slice(1);
    return "Age " + m[1] + " · " + m[2] + " · " + race;
  }
  function minus(s) { return s.replace(/^-/, "\u2212"); }
  function code(s, i, w) {
    var n = 0;
    for (var k = 0; k < w; k++) { n = n * 64 + digits.indexOf(s.charAt(i + k)); }
    return n;
  }
  function lpText(n) {
    if (n === ZERO) { return "\u2212\u221e (probability 0)"; }
    if (n === BELOW) { return "below \u221240.93"; }
    return n === 0 ? "0.00" : "\u2212" + (n / 100).toFixed(2);
  }
  // What the grid shows for a cell: its P(yes) (or share of yes answers)
  // and its difference from the baseline person.
  // A cell's colour class is its own "b<N>", or the one its row or else
  // the grid carries as "r<N>" or "d<N>" for the cells that leave it out
  // (internal/site/scenario.go's gridCommon); "nobase" where it has none.
  var common = /(?:^| )d([0-8])(?: |$)/.exec(grid.className);
  function colour(td) {
    var m = /(?:^| )(b[0-8]|nobase)(?: |$)/.exec(td.className) || /(?:^| )r([0-8])(?: |$)/.exec(td.parentNode.className);
    return m ? (m[1].length > 1 ? m[1] : "b" + m[1]) : common ? "b" + common[1] : "";
  }
  function shown(i) {
    var td = cells[i], lines = td.textContent.split("\n"), missing = td.classList.contains("missing");
    return { p: lines[0], delta: lines[1] || "", cls: missing ? "" : colour(td), present: !missing };
  }
  var decision = !!data.answers;

  // The log-probability codes of every cell (null for a missing one),
  // read back from data.lp as internal/site/cellview.go's lpWriter wrote
  // them: per form, the change from the last present cell of the first
  // form's code and of each other form's code minus the first's,
  // zigzagged, five bits a character with 32 on all but a number's last.
  var lpCache = null;
  function lpCodes() {
    if (lpCache) { return lpCache; }
    lpCache = [];
    var s = data.lp || "", f = (data.forms || []).length, pos = 0, prev = [];
    for (var k = 0; k < f; k++) { prev.push(0); }
    while (pos < s.length && lpCache.length < cells.length) {
      if (s.charAt(pos) === ".") { lpCache.push(null); pos++; continue; }
      var codes = [];
      for (k = 0; k < f; k++) {
        var z = 0, shift = 0, c;
        do {
          c = digits.indexOf(s.charAt(pos++));
          z += (c & 31) * Math.pow(2, shift);
          shift += 5;
        } while (c >= 32);
        prev[k] += z % 2 ? -(z + 1) / 2 : z / 2;
        codes.push(k === 0 ? prev[0] : prev[k] + prev[0]);
      }
      lpCache.push(codes);
    }
    return lpCache;
  }

  function sent(i) {
    var t = texts[i];
    if (typeof t !== "string") { return null; }
    if (template && template.indexOf("{filled_template}") >= 0) { return template.split("{filled_template}").join(t); }
    return t;
  }

  function cameBack(i, box) {
    if (decision) {
      var parts = data.picks.split("."), p = parts[i] || "", w = data.width;
      if (!p) { box.appendChild(el("p", "", "No sampled answers.")); return; }
      box.appendChild(el("h4", "", "Sampled answers"));
      var ol = el("ol", "answers");
      for (var k = 0; k < p.length; k += w) {
        var a = code(p, k, w), li = el("li"), c = { y: "yes", n: "no", u: "unparsed" }[data.counted.charAt(a)];
        li.appendChild(el("span", "verdict v-" + c, c));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("code", "", data.answers[a]));
        ol.appendChild(li);
      }
      box.appendChild(ol);
      return;
    }
    var codes = lpCodes()[i];
    if (!codes) { box.appendChild(el("p", "", "No answer: the run has no row for this prompt.")); return; }
    var bounded = 0;
    (data.bounded || []).forEach(function (b) { if (b[0] === i) { bounded = b[1]; } });
    box.appendChild(el("h4", "", "Log-probabilities of the answer forms"));
    var table = el("table", "lp"), head = table.createTHead().insertRow();
    ["form", "counts as", "log-probability"].forEach(function (h) { var th = el("th", "", h); th.scope = "col"; head.appendChild(th); });
    var body = table.createTBody();
    data.forms.forEach(function (form, k) {
      var tr = body.insertRow();
      var th = el("th"); th.scope = "row"; th.appendChild(el("code", "", form)); tr.appendChild(th);
      tr.appendChild(el("td", "", k < data.yes ? "yes" : "no"));
      tr.appendChild(el("td", "num", ((bounded >> k) & 1 ? "\u2264 " : "") + lpText(codes[k])));
    });
    box.appendChild(table);
    if (bounded) { box.appendChild(el("p", "note", "\u2264: the harness listed its top tokens and this form was not among them; the value is an upper bound.")); }
  }

  function transcript(i, id) {
    var box = el("article", "tcell");
    box.setAttribute("data-cell", id);
    var h = el("h3", "", label(id));
    box.appendChild(h);
    var s = shown(i), unit = decision ? "share of yes answers " : "P(yes) ";
    var r = el("p", "result");
    if (!s.present) {
      r.textContent = "Missing: the run has no answer for this prompt.";
    } else {
      r.appendChild(document.createTextNode((decision ? "Share of yes answers " : "Normalised P(yes) = P(yes) / (P(yes) + P(no)): ") + s.p));
      if (id === data.base) {
        r.appendChild(document.createTextNode(" · the baseline person"));
      } else if (s.delta && s.delta !== "n/a") {
        r.appendChild(document.createTextNode(" · "));
        r.appendChild(el("span", s.cls + " delta", s.delta + (decision ? " pp" : " logit")));
        var b = byId[data.base];
        r.appendChild(document.createTextNode(" from the baseline person (" + unit + (b !== undefined ? shown(b).p : "n/a") + ")"));
      }
    }
    box.appendChild(r);
    box.appendChild(el("h4", "", "Sent"));
    var text = sent(i);
    box.appendChild(el("pre", "text cv-sent", text === null ? "No run has this prompt." : text));
    var stored = cells[i].querySelector("a");
    if (cells[i].textContent.indexOf("prompt differs") >= 0 || stored) {
      // What the run stored of this prompt (its messages, its response, a
      // text other than the dataset's) is on its transcript page.
      var note = el("p", "note", cells[i].textContent.indexOf("prompt differs") >= 0 ?
        "This run sent a text other than the dataset’s: see " : "This run stored this prompt’s transcript (what it sent and what came back, as stored): ");
      if (stored) { var l = el("a", "", "its transcript"); l.href = stored.getAttribute("href"); note.appendChild(l); }
      box.appendChild(note);
    }
    cameBack(i, box);
    return box;
  }

  // Word-level difference of two texts: tokens alternate between runs of
  // white space and of other characters (as internal/worddiff's Tokens), a
  // longest common subsequence after the shared prefix and suffix.
  // White space is never marked, as on the prompt pages.
  function tokens(s) { return s.match(/\s+|\S+/g) || []; }
  function diff(a, b) {
    var x = tokens(a), y = tokens(b), pre = 0, suf = 0;
    while (pre < x.length && pre < y.length && x[pre] === y[pre]) { pre++; }
    while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) { suf++; }
    var xm = x.slice(pre, x.length - suf), ym = y.slice(pre, y.length - suf), n = xm.length, m = ym.length;
    var L = [];
    for (var i = 0; i <= n; i++) { L.push(new Int32Array(m + 1)); }
    for (i = n - 1; i >= 0; i--) {
      for (var j = m - 1; j >= 0; j--) { L[i][j] = xm[i] === ym[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]); }
    }
    var out = [];
    function add(op, t) {
      if (op !== "" && !/\S/.test(t)) { if (op === "ins") { op = ""; } else { return; } }
      if (out.length && out[out.length - 1].op === op) { out[out.length - 1].t += t; } else { out.push({ op: op, t: t }); }
    }
    x.slice(0, pre).forEach(function (t) { add("", t); });
    i = 0; j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xm[i] === ym[j]) { add("", xm[i]); i++; j++; }
      else if (j < m && (i === n || L[i][j + 1] >= L[i + 1][j])) { add("ins", ym[j]); j++; }
      else { add("del", xm[i]); i++; }
    }
    x.slice(x.length - suf).forEach(function (t) { add("", t); });
    return out;
  }

  // The form: two cells to pick, the second optional.
  var form = el("form", "filters cv-form");
  form.setAttribute("aria-label", "Pick cells");
  function picker(name, text, none) {
    var l = el("label", "", text + " "), s = el("select");
    s.name = name;
    if (none) { s.add(new Option(none, "")); }
    cells.forEach(function (td) { s.add(new Option(label(td.id), td.id)); });
    l.appendChild(s);
    form.appendChild(l);
    return s;
  }
  var selA = picker("a", "Cell"), selB = picker("b", "Side by side with", "none");
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  var view = el("div", "cv-view");
  view.setAttribute("aria-live", "polite");
  var h = el("h2", "", "Transcript of any cell");
  h.id = "cv-h";
  slot.setAttribute("role", "region");
  slot.setAttribute("aria-labelledby", "cv-h");
  slot.appendChild(h);
  slot.appendChild(el("p", "", "What was sent is the prompt page’s text put into the run’s prompt template" +
    (template ? "" : " (the run’s manifest records none: the prompt was sent as it stands)") + "; what came back is " +
    (decision ? "every sampled answer, counted as yes, no or unparsed" : "the log-probability of each answer form, normalised to P(yes)") +
    ". Pick a cell here or in the grid, and a second (here, or Shift and a click in the grid) to set the two side by side with the words that differ."));
  slot.appendChild(form);
  slot.appendChild(view);

  function render() {
    view.textContent = "";
    var a = byId[selA.value], b = selB.value ? byId[selB.value] : undefined;
    cells.forEach(function (td, i) { td.classList.toggle("picked", i === a || i === b); });
    if (a === undefined) { return; }
    var pair = el("div", b !== undefined ? "cv-pair" : "cv-one");
    pair.appendChild(transcript(a, selA.value));
    if (b !== undefined) { pair.appendChild(transcript(b, selB.value)); }
    view.appendChild(pair);
    if (b === undefined) { return; }
    var ta = texts[a], tb = texts[b], d = el("section", "cv-diff");
    d.appendChild(el("h3", "", "Words that differ"));
    if (typeof ta !== "string" || typeof tb !== "string") {
      d.appendChild(el("p", "", "One of the prompts is missing."));
    } else if (ta === tb) {
      d.appendChild(el("p", "", "The two prompts are the same text."));
    } else {
      var p = el("p", "", ""), pre = el("pre", "text cv-words");
      p.appendChild(document.createTextNode("From the first prompt to the second: "));
      p.appendChild(el("ins", "", "only in the second"));
      p.appendChild(document.createTextNode(", "));
      p.appendChild(el("del", "", "only in the first"));
      p.appendChild(document.createTextNode("."));
      diff(ta, tb).forEach(function (s) { pre.appendChild(s.op ? el(s.op, "", s.t) : document.createTextNode(s.t)); });
      d.appendChild(p);
      d.appendChild(pre);
    }
    view.appendChild(d);
  }

  function record() {
    var p = new URLSearchParams();
    p.set("a", selA.value);
    if (selB.value) { p.set("b", selB.value); }
    history.replaceState(null, "", "#cells?" + p.toString());
  }
  function fromHash() {
    var h = location.hash;
    if (h.indexOf("#cells?") !== 0) { return false; }
    var p = new URLSearchParams(h.slice(7));
    if (p.has("a") && byId[p.get("a")] !== undefined) { selA.value = p.get("a"); }
    selB.value = p.has("b") && byId[p.get("b")] !== undefined ? p.get("b") : "";
    render();
    return true;
  }
  form.addEventListener("change", function () { record(); render(); });
  // A click on a cell of the grid picks it (the first, or with the Shift
  // key the second); its transcript link still opens the stored transcript.
  grid.addEventListener("click", function (e) {
    if (e.target.closest("a")) { return; }
    var td = e.target.closest("td");
    if (!td || byId[td.id] === undefined) { return; }
    if (e.shiftKey) { selB.value = td.id; } else { selA.value = td.id; }
    record();
    render();
    slot.scrollIntoView({ block: "nearest" });
  });
  // A link to two cells (the swing finder's "side by side", a pair of the
  // list below) takes the reader to them: the comparison is scrolled to
  // the top of the window and takes the focus, so that a screen reader
  // reads it next.
  slot.setAttribute("tabindex", "-1");
  function reveal() {
    slot.scrollIntoView({ block: "start" });
    slot.focus({ preventScroll: true });
  }
  selA.value = data.base && byId[data.base] !== undefined ? data.base : cells[0].id;
  if (fromHash()) { reveal(); } else { render(); }

  // Every pair of cells whose P(yes) (share of yes answers) differs by
  // more than a threshold, as the run's swing finder counts them
  // (swings.html; score.RunSwings): P(yes) from the log-probabilities in
  // hundredths as this page holds them, with the same arithmetic as Go's
  // (grid.SwingCells and run.LogSumExp, which lse is step for step, to
  // within a last bit of Math.exp's and Math.log's rounding:
  // internal/browsertest's TestLogSumExpAsGo), so the count is the
  // finder's.
  // The threshold is in the URL: "#swings?t=0.30".
  function lse(v) {
    var m = -Infinity, s = 0, k;
    for (k = 0; k < v.length; k++) { m = Math.max(m, v[k]); }
    if (m === -Infinity) { return m; }
    for (k = 0; k < v.length; k++) { s += Math.exp(v[k] - m); }
    return m + Math.log(s);
  }
  function pOf(i) {
    if (decision) {
      var p = picks[i] || "", y = 0, n = 0;
      for (var k = 0; k < p.length; k += data.width) {
        var c = data.counted.charAt(code(p, k, data.width));
        if (c === "y") { y++; } else if (c === "n") { n++; }
      }
      return y + n > 0 ? y / (y + n) : NaN;
    }
    var codes = lpCodes()[i], v = [];
    if (!codes) { return NaN; }
    for (var j = 0; j < codes.length; j++) { v.push(codes[j] === ZERO ? -Infinity : -codes[j] / 100); }
    var logit = lse(v.slice(0, data.yes)) - lse(v.slice(data.yes));
    return 1 / (1 + Math.exp(-logit));
  }
  var picks = decision ? data.picks.split(".") : [];
  var ps = cells.map(function (td, i) { return pOf(i); });
  function pText(p) { return decision ? Math.round(100 * p) + "%" : p.toFixed(2); }
  var sw = el("details", "sw-pairs"), swSum = el("summary", "", "Pairs of cells whose " + (decision ? "share of yes answers" : "P(yes)") + " differs by more than a threshold");
  sw.id = "sw-pairs";
  sw.appendChild(swSum);
  var swForm = el("form", "filters"), swLabel = el("label", "", "Threshold "), swSel = el("select");
  swForm.setAttribute("aria-label", "Threshold");
  swSel.name = "t";
  var ts = [];
  for (var k = 0; k < 19; k++) { ts.push(((k + 1) / 20).toFixed(2)); swSel.add(new Option(ts[k], ts[k])); }
  swSel.value = "0.30";
  swLabel.appendChild(swSel);
  swForm.appendChild(swLabel);
  swForm.addEventListener("submit", function (e) { e.preventDefault(); });
  var swCount = el("p", "sw-count"), swList = el("ol", "sw-list");
  swCount.setAttribute("aria-live", "polite");
  sw.appendChild(swForm);
  sw.appendChild(swCount);
  sw.appendChild(swList);
  slot.parentNode.insertBefore(sw, slot.nextSibling);
  function pairs(k) {
    var t = (k + 1) / 20, out = [];
    for (var i = 0; i < ps.length; i++) {
      for (var j = i + 1; j < ps.length; j++) {
        if (isNaN(ps[i]) || isNaN(ps[j]) || ps[i] === ps[j]) { continue; }
        var lo = ps[i] < ps[j] ? i : j, hi = lo === i ? j : i, d = ps[hi] - ps[lo];
        if (!(d <= t + 1e-9)) { out.push({ d: d, lo: lo, hi: hi, i: i, j: j }); }
      }
    }
    // Largest first; ties by the two cells' places in the grid.
    out.sort(function (x, y) { return y.d - x.d || x.i - y.i || x.j - y.j; });
    return out;
  }
  var scrollNext = false;
  function showPairs() {
    var k = ts.indexOf(swSel.value), t = ts[k], list = pairs(k);
    swCount.textContent = "";
    swCount.appendChild(document.createTextNode(list.length.toLocaleString("en-US") + (list.length === 1 ? " pair" : " pairs") + " of cells differ by more than " + t + ", as counted in "));
    var fl = el("a", "", "the run’s swing finder");
    fl.href = "swings.html#swings?t=" + t;
    swCount.appendChild(fl);
    swCount.appendChild(document.createTextNode(", which gives each scenario’s noise reference." + (list.length ? " A pair opens its two cells side by side above." : "")));
    swList.textContent = "";
    list.forEach(function (x) {
      var li = el("li"), a = el("a", "", x.d.toFixed(2));
      a.href = "#cells?a=" + cells[x.lo].id + "&b=" + cells[x.hi].id;
      li.appendChild(a);
      li.appendChild(document.createTextNode(": " + label(cells[x.lo].id) + " " + pText(ps[x.lo]) + " to " + label(cells[x.hi].id) + " " + pText(ps[x.hi])));
      swList.appendChild(li);
    });
  }
  function swFromHash() {
    var m = /^#swings\?t=([0-9.]+)$/.exec(location.hash);
    if (!m) { return; }
    var v = Number(m[1]).toFixed(2);
    if (ts.indexOf(v) >= 0) { swSel.value = v; }
    sw.open = true;
    showPairs();
    sw.scrollIntoView({ block: "start" });
  }
  swSel.addEventListener("change", function () { history.replaceState(null, "", "#swings?t=" + swSel.value); showPairs(); });
  sw.addEventListener("toggle", function () { if (sw.open && !swList.firstChild) { showPairs(); } });
  swList.addEventListener("click", function (e) { if (e.target.closest("a")) { scrollNext = true; } });
  window.addEventListener("hashchange", function () {
    if (fromHash() && scrollNext) { reveal(); }
    scrollNext = false;
    swFromHash();
  });
  swFromHash();
})();
