// The swing finder's threshold. The page is written at its default; the
// numbers at every threshold are in #sw-data (internal/site/swings.go),
// so a change of threshold rewrites the rows and the summary here, with
// nothing fetched. The threshold is kept in the URL: "#swings?t=0.50".
(function () {
  "use strict";
  var slot = document.getElementById("sw-form"), dataEl = document.getElementById("sw-data");
  if (!slot || !dataEl) { return; }
  var data = JSON.parse(dataEl.textContent);
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.swings tbody tr"));
  var summary = document.getElementById("sw-summary");
  var def = slot.getAttribute("data-default");
  var form = document.createElement("form"), label = document.createElement("label"), sel = document.createElement("select");
  form.className = "filters";
  form.setAttribute("aria-label", "Threshold");
  label.textContent = "Threshold ";
  sel.name = "t";
  var ts = [];
  // The value kept in the URL is the difference in P(yes), "0.30"; the
  // page writes it in pp, "30 pp".
  function pp(t) { return Math.round(100 * Number(t)) + " pp"; }
  for (var k = 0; k < data.with.length; k++) { ts.push(((k + 1) / 20).toFixed(2)); sel.add(new Option(pp(ts[k]), ts[k])); }
  label.appendChild(sel);
  form.appendChild(label);
  var out = document.createElement("output");
  out.setAttribute("aria-live", "polite");
  form.appendChild(out);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  slot.appendChild(form);

  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  // As runpage.beyond writes it: found less expected, one decimal, signed.
  function beyond(p, np) {
    var x = Math.round(10 * p - np) / 10, s = Math.abs(x).toFixed(1), i = s.indexOf(".");
    return (x > 0 ? "+" : x < 0 ? "−" : "") + thousands(s.slice(0, i)) + s.slice(i);
  }
  function at(a, k) { return k < a.length ? a[k] : 0; }
  function show(k) {
    var t = ts[k], shown = 0, pairs = 0, nullPairs = 0;
    rows.forEach(function (tr, i) {
      var p = at(data.pairs[i], k), np = at(data.nullPairs[i], k);
      tr.cells[2].textContent = np < 0 ? "n/a" : (np / 10).toFixed(1);
      tr.cells[3].textContent = np < 0 ? "n/a" : beyond(p, np);
      tr.hidden = p === 0;
      // The scenario page lists the pairs at this threshold.
      var q = tr.cells[0].querySelector("a"), href = q.getAttribute("href").split("#")[0] + "#swings?t=" + t;
      q.href = href;
      var count = document.createElement("a");
      count.href = href;
      count.textContent = thousands(p);
      tr.cells[1].textContent = "";
      tr.cells[1].appendChild(count);
      if (p > 0) { shown++; }
      if (np >= 0) { pairs += p; nullPairs += np / 10; }
    });
    Array.prototype.forEach.call(document.querySelectorAll(".sw-t"), function (e) { e.textContent = pp(t); });
    var w = data.with[k];
    if (!data.of) {
      summary.textContent = shown + " scenarios have a swing over " + pp(t) + "; the run has too few cells a scenario for a noise reference.";
    } else {
      var verdict = w > data.hi[k] ? "more than its noise explains" : w < data.lo[k] ? "fewer than its noise would give" : "within what its noise alone gives";
      summary.textContent = w + " of " + data.of + " scenarios have a swing over " + pp(t) + " (" + thousands(pairs) + " pairs of people); the run’s own noise alone would give " +
        (data.expected[k] / 10).toFixed(1) + " scenarios with a swing (95%: " + data.lo[k] + " to " + data.hi[k] + ") and " + thousands(Math.round(nullPairs)) + " pairs: " + verdict + ".";
    }
    out.textContent = shown + " of " + rows.length + " scenarios shown; a scenario’s number of pairs opens the list of them on its page";
  }
  function fromHash() {
    var m = /^#swings\?t=([0-9.]+)$/.exec(location.hash), k = ts.indexOf(m ? Number(m[1]).toFixed(2) : def);
    if (k < 0) { k = ts.indexOf(def); }
    sel.value = ts[k];
    show(k);
  }
  sel.addEventListener("change", function () {
    history.replaceState(null, "", "#swings?t=" + sel.value);
    show(ts.indexOf(sel.value));
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
