// Filters for the transcript browser: by age, gender, race, size of the
// deviation from the baseline, and text. The filter lives in the URL hash
// ("#filter?race=black&min=0.5") so a filtered view is a shareable link; any
// other hash is a deep link to a variant, which is always shown. Without
// JavaScript the form stays hidden and every variant is on the page.
//
// On a scenario page (a grid of the variants, no filter) it gives each
// cell its variant's id.
(function () {
  "use strict";
  // A scenario page's grid carries ids only on the cells that other pages
  // link to (a transcript's "numbers"): an id on each of 135 cells would
  // add 4 KB to each of a run's 70 pages. The others get theirs here, from
  // the row's age and the column's gender and race headings, so that a
  // link to any variant (#age-20-female-black) lands on its cell. This runs
  // before the page has finished loading, when the browser looks for the
  // link's target.
  var grid = document.querySelector("table.grid");
  if (grid) {
    var slug = function (th) { return th.textContent.trim().toLowerCase().replace(/ /g, "-"); };
    var heads = grid.tHead.rows, cols = [];
    Array.prototype.forEach.call(heads[0].cells, function (th, j) {
      for (var i = 0; j > 0 && i < th.colSpan; i++) { cols.push(slug(th)); } // after "Age"
    });
    Array.prototype.forEach.call(heads[1].cells, function (th, i) { cols[i] += "-" + slug(th); });
    Array.prototype.forEach.call(grid.tBodies[0].rows, function (tr) {
      var age = tr.cells[0].textContent.trim();
      Array.prototype.forEach.call(tr.cells, function (td, i) {
        if (i > 0 && !td.id) { td.id = "age-" + age + "-" + cols[i - 1]; }
      });
    });
    // On a screen too narrow for the grid (a phone), its box opens
    // scrolled so that the baseline person's cell, which every difference
    // refers to, stands in view beside the sticky age column, unless a
    // link takes the reader to another cell.
    var base = grid.querySelector("td.base"), wrap = grid.parentElement;
    if (base && wrap && wrap.scrollWidth > wrap.clientWidth + 1 && !/^#age-/.test(location.hash)) {
      var ageCol = base.parentElement.cells[0].getBoundingClientRect().width;
      var b = base.getBoundingClientRect(), w = wrap.getBoundingClientRect();
      if (b.right > w.right || b.left < w.left + ageCol) { wrap.scrollLeft += b.left - w.left - ageCol; }
    }
  }
  // The form is built here: it is of no use without JavaScript, and leaving
  // it out of the HTML keeps the pages small.
  var slot = document.getElementById("filters");
  if (!slot) { return; }
  var ages = [20, 30, 40, 50, 60, 70, 80, 90, 100];
  var genders = [["female", "female"], ["male", "male"], ["non-binary", "non-binary"]];
  var races = [["white", "white"], ["black", "Black"], ["asian", "Asian"], ["hispanic", "Hispanic"], ["native-american", "Native American"]];
  var form = document.createElement("form");
  form.className = "filters";
  form.setAttribute("aria-label", "Filter the variants");
  function select(name, label, options) {
    var l = document.createElement("label"), s = document.createElement("select");
    l.textContent = label + " ";
    s.name = name;
    s.add(new Option("all", ""));
    options.forEach(function (o) { s.add(typeof o === "object" ? new Option(o[1], o[0]) : new Option(String(o), String(o))); });
    l.appendChild(s);
    form.appendChild(l);
  }
  function input(name, label, type, attrs) {
    var l = document.createElement("label"), i = document.createElement("input");
    l.textContent = label + " ";
    i.name = name;
    i.type = type;
    Object.keys(attrs).forEach(function (k) { i.setAttribute(k, attrs[k]); });
    l.appendChild(i);
    form.appendChild(l);
  }
  select("age", "Age", ages);
  select("gender", "Gender", genders);
  select("race", "Race", races);
  if (slot.hasAttribute("data-dev")) {
    input("min", "Deviation at least", "number", { min: "0", step: "0.1", inputmode: "decimal" });
  }
  input("q", "Text", "search", { size: "16" });
  if (slot.hasAttribute("data-differs")) {
    // Transcripts whose decision (the side of one half the answer leans
    // to) is not the baseline person's.
    input("differs", "Decides unlike the baseline", "checkbox", { value: "1" });
  }
  var reset = document.createElement("button");
  reset.type = "reset";
  reset.textContent = "Clear";
  form.appendChild(reset);
  var out = document.createElement("output");
  out.setAttribute("aria-live", "polite");
  form.appendChild(out);
  slot.appendChild(form);
  // The variants are the elements whose id is a variant anchor, such as
  // "age-60-male-white"; age, gender and race are read from the id and the
  // deviation from the coloured difference cell, so the page carries no
  // extra attributes for them.
  var re = /^age-(\d+)-(female|male|non-binary)-(.+)$/;
  var items = Array.prototype.slice.call(document.querySelectorAll("main [id^='age-']")).filter(function (el) {
    var m = re.exec(el.id);
    if (!m) { return false; }
    el._f = { age: m[1], gender: m[2], race: m[3], dev: NaN };
    var d = el.querySelector("td[class^='b']");
    if (d) { el._f.dev = Math.abs(parseFloat(d.textContent.replace("\u2212", "-").replace("+", ""))); }
    return true;
  });
  var names = ["age", "gender", "race", "min", "q", "differs"];

  function field(n) { return form.elements.namedItem(n); }

  function apply(record) {
    var age = field("age").value, gender = field("gender").value, race = field("race").value;
    var min = field("min") ? parseFloat(field("min").value) : NaN;
    var q = field("q").value.trim().toLowerCase();
    var differs = field("differs") && field("differs").checked;
    var shown = 0;
    items.forEach(function (el) {
      var d = el._f;
      var ok = (!age || d.age === age) && (!gender || d.gender === gender) && (!race || d.race === race) &&
        (!(min > 0) || d.dev >= min) &&
        (!q || el.textContent.toLowerCase().indexOf(q) >= 0) && (!differs || el.hasAttribute("data-differs"));
      el.hidden = !ok;
      if (ok) { shown++; }
    });
    out.textContent = shown + " of " + items.length + " shown";
    if (record) {
      var p = new URLSearchParams();
      names.forEach(function (n) { var f = field(n); if (f && (f.type === "checkbox" ? f.checked : f.value)) { p.set(n, f.value); } });
      var s = p.toString();
      history.replaceState(null, "", s ? "#filter?" + s : location.pathname + location.search);
    }
  }

  function fromHash() {
    var h = location.hash;
    names.forEach(function (n) { var f = field(n); if (f) { if (f.type === "checkbox") { f.checked = false; } else { f.value = ""; } } });
    if (h.indexOf("#filter?") === 0) {
      var p = new URLSearchParams(h.slice(8));
      names.forEach(function (n) { var f = field(n); if (f && p.has(n)) { if (f.type === "checkbox") { f.checked = true; } else { f.value = p.get(n); } } });
      apply(false);
      return;
    }
    apply(false);
    if (h.length > 1) {
      var t = document.getElementById(decodeURIComponent(h.slice(1)));
      if (t) { reveal(t); }
    }
  }

  // reveal scrolls a target into view and, should its table's sticky
  // header row still cover it (a tall header of many runs), down by the
  // difference.
  function reveal(t) {
    t.scrollIntoView();
    var table = t.closest("table"), wrap = t.closest(".table-wrap");
    if (!table || !table.tHead || !wrap) { return; }
    // The sticky row is the header's last (a first row may group columns).
    var head = table.tHead.rows[table.tHead.rows.length - 1].getBoundingClientRect().bottom, top = t.getBoundingClientRect().top;
    if (top < head) { wrap.scrollTop -= head - top + 8; }
  }

  form.addEventListener("input", function () { apply(true); });
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("reset", function () { setTimeout(function () { apply(true); }, 0); });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
  // The browser scrolls to a linked target once the page has loaded, after
  // this script: check the header again then.
  window.addEventListener("load", function () {
    var h = location.hash, t = h.length > 1 && h.indexOf("#filter?") !== 0 && document.getElementById(decodeURIComponent(h.slice(1)));
    if (t) { requestAnimationFrame(function () { reveal(t); }); }
  });
})();
