// The scroll cue for browsers without scroll-state container queries
// (site.css shows the cue with them): a table box that really is wider
// than its screen gets the class "overflows", which the stylesheet's
// fallback cue keys on, and loses it when it fits again (a resize, a
// column hidden). Without script those browsers show a general cue on a
// narrow screen instead.
(function () {
  "use strict";
  if (window.CSS && CSS.supports && CSS.supports("container-type", "scroll-state")) { return; }
  document.documentElement.classList.add("cue-js");
  var boxes = document.querySelectorAll(".table-wrap, .prose table");
  function mark() {
    for (var i = 0; i < boxes.length; i++) {
      var b = boxes[i];
      b.classList.toggle("overflows", b.scrollWidth > b.clientWidth + 1);
    }
  }
  mark();
  if (window.ResizeObserver) {
    var ro = new ResizeObserver(mark);
    for (var i = 0; i < boxes.length; i++) {
      ro.observe(boxes[i]);
      if (boxes[i].firstElementChild) { ro.observe(boxes[i].firstElementChild); }
    }
  } else {
    window.addEventListener("resize", mark);
  }
})();
