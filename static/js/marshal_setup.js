/* Marshal and Spy setup screen: place the army in the zone by tapping or
   dragging, then post the whole arrangement as one setup action. */
(function () {
  "use strict";
  var MARKS = {corporal: "1", lieutenant: "2", captain: "3", colonel: "4", general: "5", spy: "S", sapper: "P", mine: "M", hq: "H"};
  // The arrangement in progress outlives the board's swaps: the live page
  // refreshes #board when its socket (re)opens or the opponent acts, and a
  // player half way through placing must not be sent back to the start.
  var kept = null;  // {key, placed, pickType, pickSquare}

  function init() {
    var root = document.getElementById("setup-screen");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    var color = root.dataset.color;
    var key = (root.dataset.favouriteUrl || "") + "|" + color;
    var placed = {};
    var pickType = null, pickSquare = null;
    var strings = document.getElementById("setup-strings").dataset;
    var zone = Array.prototype.slice.call(root.querySelectorAll("td.mzone"));
    var palette = Array.prototype.slice.call(root.querySelectorAll(".mpal"));

    function load(list) {
      placed = {};
      (list || []).forEach(function (p) { placed[p.row + "-" + p.col] = p.type; });
      render();
    }
    function counts() {
      var n = {};
      Object.keys(placed).forEach(function (k) { n[placed[k]] = (n[placed[k]] || 0) + 1; });
      return n;
    }
    function render() {
      var n = counts();
      zone.forEach(function (td) {
        var key = td.dataset.row + "-" + td.dataset.col;
        var t = placed[key];
        td.classList.toggle("msel", pickSquare === key);
        td.innerHTML = t ? '<span class="mtok mtok-' + color + '" draggable="true" data-from="' + key + '"><svg class="micon" aria-hidden="true"><use href="#m-' + t + '"/></svg><span class="mtag">' + MARKS[t] + "</span></span>" : "";
        td.setAttribute("tabindex", "0");
        td.setAttribute("role", "button");
      });
      var total = 0;
      palette.forEach(function (b) {
        var have = n[b.dataset.type] || 0;
        total += have;
        b.querySelector(".mleft").textContent = have;
        b.disabled = have >= +b.dataset.count;
        b.setAttribute("aria-pressed", pickType === b.dataset.type ? "true" : "false");
      });
      var pieces = Object.keys(placed).map(function (k) {
        var rc = k.split("-");
        return {type: placed[k], row: +rc[0], col: +rc[1]};
      });
      document.getElementById("setup-action").value = JSON.stringify({type: "setup", pieces: pieces});
      document.getElementById("setup-ready").disabled = total !== 30;
      document.getElementById("setup-status").textContent = total === 30 ? strings.placed : strings.incomplete + " (" + total + "/30)";
      kept = {key: key, placed: placed, pickType: pickType, pickSquare: pickSquare};
    }
    function put(key, type, from) {
      if (from) {
        var other = placed[key];
        placed[key] = placed[from];
        if (other) placed[from] = other; else delete placed[from];
      } else if (type) {
        var n = counts();
        var btn = root.querySelector('.mpal[data-type="' + type + '"]');
        if (placed[key] !== type && (n[type] || 0) >= +btn.dataset.count) return;
        placed[key] = type;
      }
      render();
    }
    zone.forEach(function (td) {
      var key = td.dataset.row + "-" + td.dataset.col;
      function tap() {
        if (pickType) { put(key, pickType); if ((counts()[pickType] || 0) >= +root.querySelector('.mpal[data-type="' + pickType + '"]').dataset.count) pickType = null; render(); }
        else if (pickSquare) { var from = pickSquare; pickSquare = null; if (from !== key) put(key, null, from); else render(); }
        else if (placed[key]) { pickSquare = key; render(); }
      }
      td.addEventListener("click", tap);
      td.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(); } });
      td.addEventListener("dragover", function (e) { e.preventDefault(); });
      td.addEventListener("drop", function (e) {
        e.preventDefault();
        var data = (e.dataTransfer.getData("text/plain") || "").split(":");
        if (data[0] === "sq") put(key, null, data[1]); else if (data[0] === "type") put(key, data[1]);
      });
    });
    root.addEventListener("dragstart", function (e) {
      var t = e.target.closest ? e.target.closest("[data-from],[data-type]") : null;
      if (!t) return;
      e.dataTransfer.setData("text/plain", t.dataset.from ? "sq:" + t.dataset.from : "type:" + t.dataset.type);
    });
    palette.forEach(function (b) {
      b.addEventListener("click", function () { pickSquare = null; pickType = pickType === b.dataset.type ? null : b.dataset.type; render(); });
    });
    document.getElementById("setup-default").addEventListener("click", function () { load(JSON.parse(root.dataset.default)); });
    document.getElementById("setup-clear").addEventListener("click", function () { load([]); });
    document.getElementById("setup-save").addEventListener("click", function () {
      var btn = this;
      var body = new FormData();
      body.append("pieces", JSON.stringify(JSON.parse(document.getElementById("setup-action").value).pieces));
      body.append("csrfmiddlewaretoken", root.querySelector("input[name=csrfmiddlewaretoken]").value);
      fetch(root.dataset.favouriteUrl, {method: "POST", body: body, credentials: "same-origin"}).then(function (r) {
        return r.text().then(function (t) { document.getElementById("setup-status").textContent = t; });
      });
      btn.blur();
    });
    if (kept && kept.key === key) {
      placed = kept.placed;
      pickType = kept.pickType;
      pickSquare = kept.pickSquare;
      render();
    } else {
      load(JSON.parse(root.dataset.initial));
    }
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();
