// Filters for the transcript browser: by age, gender, race, size of the
// deviation from the baseline, and text. The filter lives in the URL hash
// ("#filter?race=black&min=0.5") so a filtered view is a shareable link; any
// other hash is a deep link to a variant, which is always shown. Without
// JavaScript the form stays hidden and every variant is on the page.
(function () {
  "use strict";
  var form = document.querySelector("form.filters");
  if (!form) { return; }
  var items = Array.prototype.slice.call(document.querySelectorAll(".v"));
  var out = form.querySelector("output");
  var names = ["age", "gender", "race", "min", "q"];
  form.hidden = false;

  function field(n) { return form.elements.namedItem(n); }

  function apply(record) {
    var age = field("age").value, gender = field("gender").value, race = field("race").value;
    var min = field("min") ? parseFloat(field("min").value) : NaN;
    var q = field("q").value.trim().toLowerCase();
    var shown = 0;
    items.forEach(function (el) {
      var d = el.dataset;
      var ok = (!age || d.age === age) && (!gender || d.gender === gender) && (!race || d.race === race) &&
        (!(min > 0) || parseFloat(d.dev) >= min) &&
        (!q || el.textContent.toLowerCase().indexOf(q) >= 0);
      el.hidden = !ok;
      if (ok) { shown++; }
    });
    out.textContent = shown + " of " + items.length + " shown";
    if (record) {
      var p = new URLSearchParams();
      names.forEach(function (n) { var f = field(n); if (f && f.value) { p.set(n, f.value); } });
      var s = p.toString();
      history.replaceState(null, "", s ? "#filter?" + s : location.pathname + location.search);
    }
  }

  function fromHash() {
    var h = location.hash;
    names.forEach(function (n) { var f = field(n); if (f) { f.value = ""; } });
    if (h.indexOf("#filter?") === 0) {
      var p = new URLSearchParams(h.slice(8));
      names.forEach(function (n) { var f = field(n); if (f && p.has(n)) { f.value = p.get(n); } });
      apply(false);
      return;
    }
    apply(false);
    if (h.length > 1) {
      var t = document.getElementById(decodeURIComponent(h.slice(1)));
      if (t) { t.scrollIntoView(); }
    }
  }

  form.addEventListener("input", function () { apply(true); });
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("reset", function () { setTimeout(function () { apply(true); }, 0); });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
