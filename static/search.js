// Search across the site, in the page: data/search-index.js (loaded before
// this script by a relative path, so it works from file://, with the parts
// data/search-index-<k>.js that a large site adds to it) assigns
// SEARCH_INDEX, a list of entries {k: kind, t: title, u: link from the
// site root, a: its implicit variant's, p and b: a scenario's prompt pages,
// c: a group's level of the design, w: lower-case words} (browse/search.go).
//
// A query matches an entry when each of its words begins one of the
// entry's words. A query word of five letters or more that begins no word
// of the index is read as the words one edit away (a letter added, left
// out, changed, or two swapped), or whose beginnings are: "tranplant"
// finds transplant, and a word the index has is never widened. A word
// naming a group of the design ("Black", "women", "30") finds the group,
// and beside a scenario's words picks the person whose prompt the
// scenario's prompts open at; a scenario is found by its own words only.
// Results come in groups: runs, scenarios, prompts, pages.
//
// The query is in the URL, so a search is a link: search.html#q=kidney,
// or search.html?q=kidney (what the search box of every page's header
// sends; it works without a script too), or the older #search?q=. Typing
// writes #q= with history.replaceState. Without JavaScript the form stays
// hidden and the page links the browse pages. Every text from the index
// reaches the page as textContent.
(function () {
  "use strict";
  var index = window.SEARCH_INDEX, form = document.getElementById("search-form");
  if (!index || !form) { return; }
  var input = document.getElementById("search-q"), status = document.getElementById("search-status"),
    results = document.getElementById("search-results"), max = 25, minTypo = 5;
  form.hidden = false;
  var split = function (q) { return q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (t) { return t !== ""; }); };

  // The index's words, each with the entries holding it (by position)
  // and its letters (code points), in sorted order.
  var byWord = new Map();
  index.forEach(function (it, i) {
    it.w.split(" ").forEach(function (w) {
      if (w === "") { return; }
      var l = byWord.get(w);
      if (!l) { l = []; byWord.set(w, l); }
      l.push(i);
    });
  });
  var words = Array.from(byWord.keys()).sort().map(function (w) { return { w: w, cp: Array.from(w) }; });

  var same = function (a, i, b, j) { // a[i:] equals b[j:]
    if (a.length - i !== b.length - j) { return false; }
    for (; i < a.length; i++, j++) { if (a[i] !== b[j]) { return false; } }
    return true;
  };
  // near says whether a and b (arrays of code points) differ by at most
  // one edit: a letter added, left out or changed, or two side by side
  // swapped.
  var near = function (a, b) {
    var m = a.length, n = b.length, i = 0;
    if (Math.abs(m - n) > 1) { return false; }
    while (i < m && i < n && a[i] === b[i]) { i++; }
    if (i === m && i === n) { return true; }
    if (m === n) {
      return same(a, i + 1, b, i + 1) || (i + 1 < m && a[i] === b[i + 1] && a[i + 1] === b[i] && same(a, i + 2, b, i + 2));
    }
    return m > n ? same(a, i + 1, b, i) : same(a, i, b, i + 1);
  };

  // match is what a query word finds: each entry holding a word it
  // matches, with how well (0 the whole word, 1 its beginning, 2 the
  // whole word one edit away, 3 its beginning), and the index's words it
  // was read as when it begins none.
  var match = function (t) {
    var hits = new Map(), read = [];
    var add = function (w, how) {
      byWord.get(w).forEach(function (i) {
        var o = hits.get(i);
        if (o === undefined || how < o) { hits.set(i, how); }
      });
    };
    words.forEach(function (x) {
      if (x.w === t) { add(x.w, 0); } else if (x.w.startsWith(t)) { add(x.w, 1); }
    });
    var tc = Array.from(t);
    if (hits.size === 0 && tc.length >= minTypo) {
      words.forEach(function (x) {
        var how = near(tc, x.cp) ? 2 : -1;
        for (var n = tc.length - 1; how < 0 && n <= tc.length + 1; n++) {
          if (n < x.cp.length && near(tc, x.cp.slice(0, n))) { how = 3; }
        }
        if (how >= 0) { add(x.w, how); read.push(x.w); }
      });
    }
    return { hits: hits, read: read };
  };

  var kindOf = function (it) { return it.k.split(" ")[0]; };
  var sections = [
    { id: "runs", title: "Runs", kinds: ["model", "run", "intervention"] },
    { id: "scenarios", title: "Scenarios", kinds: ["scenario"] },
    { id: "prompts", title: "Prompts", kinds: [] },
    { id: "pages", title: "Pages", kinds: ["group", "board", "page", "term"] },
  ];
  var sectionOf = {};
  sections.forEach(function (s) { s.kinds.forEach(function (k) { sectionOf[k] = s.id; }); });
  var baseline = { age: ["60", "60"], gender: ["male", "male"], race: ["white", "white"] };

  var link = function (href, text) {
    var a = document.createElement("a");
    a.href = href; // the search page is at the site root
    a.textContent = text;
    return a;
  };
  // item is a result: its title linking its page, and an entry of both
  // variants' pages says which is which.
  var item = function (title, href, alt, kind) {
    var li = document.createElement("li"), a = link(href, alt ? title + " (explicit prompts)" : title), sub = document.createElement("span");
    a.dir = "auto"; // a model's name, isolated from the words after it
    li.appendChild(a);
    if (alt) {
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(link(alt, "implicit prompts"));
    }
    sub.className = "sub";
    sub.textContent = kind;
    li.appendChild(document.createTextNode(" "));
    li.appendChild(sub);
    return li;
  };

  var search = function (q) {
    var ts = split(q);
    results.textContent = "";
    if (ts.length === 0) { status.textContent = ""; return; }
    var ms = ts.map(match);
    // A query word naming a group (its whole word, or one edit away)
    // finds the group and picks its level of the person.
    var cell = {}, named = false, groupTerm = ms.map(function (m) {
      var is = false;
      m.hits.forEach(function (how, i) {
        var it = index[i];
        if (kindOf(it) === "group" && (how === 0 || how === 2)) {
          is = true;
          if (it.c) { cell[it.c[0]] = [it.c[1], it.c[2]]; named = true; }
        }
      });
      return is;
    });
    // A group is found by any word of the query that begins or is one of
    // its words; a scenario by all the query's words but the groups'; any
    // other entry by all of them, a group's word where it has it.
    var found = { runs: [], scenarios: [], prompts: [], pages: [] };
    index.forEach(function (it, i) {
      var kind = kindOf(it), score = 0, used = 0, ok = true;
      ms.forEach(function (m, j) {
        var how = m.hits.get(i);
        if (how !== undefined && !(kind === "scenario" && groupTerm[j])) {
          used++;
          score += how;
        } else if (kind === "group" || groupTerm[j]) {
          score += 4;
        } else {
          ok = false;
        }
      });
      if (!ok || used === 0) { return; }
      var hit = { it: it, i: i, score: score };
      found[sectionOf[kind] || "pages"].push(hit);
      if (kind === "scenario" && it.p) { found.prompts.push(hit); }
    });
    var byScore = function (a, b) { return a.score - b.score || a.i - b.i; };
    var person = function (attr) { return cell[attr] || baseline[attr]; };
    var anchor = "#age-" + person("age")[0] + "-" + person("gender")[0] + "-" + person("race")[0];
    var who = person("age")[1] + ", " + person("gender")[1] + ", " + person("race")[1];
    var total = 0, counts = [];
    sections.forEach(function (s) {
      var hits = found[s.id].sort(byScore);
      if (hits.length === 0) { return; }
      total += hits.length;
      counts.push(hits.length + " " + (hits.length === 1 ? s.title.toLowerCase().replace(/s$/, "") : s.title.toLowerCase()));
      var sec = document.createElement("section"), h = document.createElement("h2"), ol = document.createElement("ol");
      sec.id = "results-" + s.id;
      sec.setAttribute("aria-labelledby", "results-" + s.id + "-h");
      h.id = "results-" + s.id + "-h";
      h.textContent = s.title + " (" + hits.length + ")";
      sec.appendChild(h);
      hits.slice(0, max).forEach(function (hit) {
        var it = hit.it;
        if (s.id === "prompts") {
          var title = it.t + (named ? ": the prompt for " + who : ": its prompts, from the baseline person’s");
          ol.appendChild(item(title, it.p + anchor, it.b ? it.b + anchor : "", "prompts · " + it.k.split(" · ").slice(1).join(" · ")));
        } else {
          ol.appendChild(item(it.t, it.u, it.a, it.k));
        }
      });
      sec.appendChild(ol);
      if (hits.length > max) {
        var more = document.createElement("p");
        more.className = "note";
        more.textContent = "The first " + max + " of " + hits.length + " shown: add a word to narrow them.";
        sec.appendChild(more);
      }
      results.appendChild(sec);
    });
    var read = [];
    ms.forEach(function (m, j) {
      if (m.hits.size === 0) {
        read.push("“" + ts[j] + "” is no word of the index" + (Array.from(ts[j]).length >= minTypo ? ", nor one letter from one." : " and begins none."));
      } else if (m.read.length > 0) {
        read.push("“" + ts[j] + "” begins no word: read as " + m.read.slice(0, 3).map(function (w) { return "“" + w + "”"; }).join(" or ") + (m.read.length > 3 ? " …" : "") + ".");
      }
    });
    status.textContent = [total === 0 ? "Nothing matches." : total + (total === 1 ? " match: " : " matches: ") + counts.join(", ") + "."].concat(read).join(" ");
  };

  var decode = function (s) {
    try { return decodeURIComponent(s.replace(/\+/g, " ")); } catch (e) { return s; }
  };
  var fromURL = function () {
    var m = /^#(?:search\?)?q=(.*)$/.exec(location.hash);
    if (m) { return decode(m[1]); }
    var s = new URLSearchParams(location.search).get("q");
    return s === null ? "" : s;
  };
  input.value = fromURL();
  search(input.value);
  input.addEventListener("input", function () {
    var q = input.value;
    history.replaceState(null, "", location.pathname + (q === "" ? "" : "#q=" + encodeURIComponent(q)));
    search(q);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); search(input.value); });
  window.addEventListener("hashchange", function () { input.value = fromURL(); search(input.value); });
})();
