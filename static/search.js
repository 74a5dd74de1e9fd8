// Search across the site, in the page: data/search-index.js (loaded before
// this script by a relative path, so it works from file://, with the parts
// data/search-index-<k>.js that a large site adds to it) assigns
// SEARCH_INDEX, a list of entries {k: kind, t: title, u: link from the
// site root, a: a scenario's implicit prompts, w: lower-case words}. A query matches an entry when each of
// its words begins one of the entry's words. The query lives in the URL
// hash ("#search?q=kidney") so a search is a shareable link. Without
// JavaScript the form stays hidden and the page links the browse pages.
(function () {
  "use strict";
  var index = window.SEARCH_INDEX, form = document.getElementById("search-form");
  if (!index || !form) { return; }
  var input = document.getElementById("search-q"), status = document.getElementById("search-status"),
    list = document.getElementById("search-results"), max = 50;
  form.hidden = false;
  var terms = function (q) { return q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (t) { return t !== ""; }); };
  var search = function (q) {
    var ts = terms(q), hits = [];
    list.textContent = "";
    if (ts.length === 0) { status.textContent = ""; return; }
    index.forEach(function (it) {
      var w = " " + it.w;
      if (ts.every(function (t) { return w.indexOf(" " + t) >= 0; })) { hits.push(it); }
    });
    status.textContent = hits.length === 0 ? "Nothing matches." :
      hits.length + (hits.length === 1 ? " match" : " matches") + (hits.length > max ? ", the first " + max + " shown." : ".");
    hits.slice(0, max).forEach(function (it) {
      var li = document.createElement("li"), a = document.createElement("a"), sub = document.createElement("span");
      a.href = it.u; // the search page is at the site root
      a.textContent = it.t;
      a.dir = "auto"; // a model's name, isolated from the words after it
      sub.className = "sub";
      sub.textContent = it.k;
      li.appendChild(a);
      if (it.a) {
        var alt = document.createElement("a");
        alt.href = it.a;
        alt.textContent = "implicit prompts";
        li.appendChild(document.createTextNode(" · "));
        li.appendChild(alt);
      }
      li.appendChild(document.createTextNode(" "));
      li.appendChild(sub);
      list.appendChild(li);
    });
  };
  var fromHash = function () {
    var m = /^#search\?q=(.*)$/.exec(location.hash);
    return m ? decodeURIComponent(m[1].replace(/\+/g, " ")) : "";
  };
  input.value = fromHash();
  search(input.value);
  input.addEventListener("input", function () {
    var q = input.value;
    history.replaceState(null, "", q === "" ? location.pathname + location.search : "#search?q=" + encodeURIComponent(q));
    search(q);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); search(input.value); });
  window.addEventListener("hashchange", function () { input.value = fromHash(); search(input.value); });
})();
