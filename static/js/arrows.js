// From-to arrows and shot marks over the board (games/ui/wec/arrows.py): each
// <line data-from="r-c-level" data-to="r-c-level"> is placed between the
// centres of those Squares' level bands as the board is laid out now (the
// level focus, the phone layout and the sideways scroll all move them), and
// again after every live update, resize and level change.
(function () {
  "use strict";
  function centre(box, sq, level, origin) {
    var band = sq.querySelector(".band-" + level);
    var r = band && band.getBoundingClientRect().height > 8 ? band.getBoundingClientRect() : sq.getBoundingClientRect();
    return [r.left + r.width / 2 - origin.left + box.scrollLeft, r.top + r.height / 2 - origin.top + box.scrollTop];
  }
  function edge(sq, origin, box) {
    var r = sq.getBoundingClientRect();
    return Math.min(r.width, r.height);
  }
  function layout() {
    document.querySelectorAll(".board-arrows").forEach(function (svg) {
      var box = svg.parentElement;
      var grid = box.querySelector(".board");
      if (!grid) return;
      var origin = box.getBoundingClientRect();
      svg.setAttribute("width", String(box.scrollWidth));
      svg.setAttribute("height", String(box.scrollHeight));
      svg.querySelectorAll("line[data-from]").forEach(function (line) {
        var a = line.dataset.from.split("-"), b = line.dataset.to.split("-");
        var sa = grid.querySelector(".sq[data-row='" + a[0] + "'][data-col='" + a[1] + "']");
        var sb = grid.querySelector(".sq[data-row='" + b[0] + "'][data-col='" + b[1] + "']");
        if (!sa) { line.setAttribute("visibility", "hidden"); return; }
        var p = centre(box, sa, a[2], origin);
        var q;
        if (sb) {
          q = centre(box, sb, b[2], origin);
        } else {
          // A shot off the board's edge: half a Square beyond it, the same way.
          var size = edge(sa, origin, box);
          var dr = Number(b[0]) - Number(a[0]), dc = Number(b[1]) - Number(a[1]);
          var probe = grid.querySelector(".sq[data-row='" + (Number(a[0]) - dr) + "'][data-col='" + (Number(a[1]) - dc) + "']");
          var back = probe ? centre(box, probe, a[2], origin) : [p[0], p[1] + size];
          q = [p[0] + (p[0] - back[0]) / 2, p[1] + (p[1] - back[1]) / 2];
        }
        line.setAttribute("x1", p[0].toFixed(1));
        line.setAttribute("y1", p[1].toFixed(1));
        line.setAttribute("x2", q[0].toFixed(1));
        line.setAttribute("y2", q[1].toFixed(1));
        line.removeAttribute("visibility");
      });
    });
  }
  function soon() { window.requestAnimationFrame(layout); }
  document.addEventListener("DOMContentLoaded", soon);
  document.body.addEventListener("htmx:afterSettle", soon);
  window.addEventListener("resize", soon);
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest(".level-btn")) soon();
  });
  soon();
})();
