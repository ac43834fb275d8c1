// Live updates for a game page.  The socket only says "changed" with the
// player's own view version (never the game's action count); the page then
// fetches its own view of the board over HTTP (htmx).  After any (re)connect
// the page fetches the board (with its panels and clocks) again, so nothing
// rung while the socket was down is missed.
(function () {
  "use strict";
  var root = document.getElementById("game-root");
  if (!root) return;
  var wsPath = root.dataset.wsPath;
  var boardUrl = root.dataset.boardUrl;
  var statusEl = document.getElementById("conn-status");
  var retry = 500;
  var socket = null;

  function shownVersion() {
    var board = document.getElementById("board");
    return board ? parseInt(board.dataset.version, 10) : -1;
  }
  function selectionQuery() {
    var board = document.getElementById("board");
    return board && board.dataset.query ? board.dataset.query : "";
  }
  // A background refresh must not undo a click made while it was on its way
  // (the click's own answer is a fresh board anyway): refreshes carry the
  // number of board requests the player had made when they left, and are not
  // swapped in if the player has made one since.
  var boardRequests = 0;
  function isRefresh(detail) {
    var headers = detail && detail.requestConfig && detail.requestConfig.headers;
    return headers && headers["X-Wec-Refresh"] !== undefined ? headers["X-Wec-Refresh"] : null;
  }
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    if (isRefresh(e.detail) === null && e.detail.target && e.detail.target.id === "board") boardRequests++;
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var mark = isRefresh(e.detail);
    if (mark !== null && parseInt(mark, 10) !== boardRequests) e.detail.shouldSwap = false;
  });
  // Every board request says which record lines the page already has, so the
  // answer carries only the new ones (games/boardcache.py).
  document.body.addEventListener("htmx:configRequest", function (e) {
    var hist = document.getElementById("history");
    if (!hist) return;
    var plain = document.querySelectorAll("#hist-plain-list > li").length;
    var notation = document.querySelectorAll("#hist-notation-list > li").length;
    e.detail.headers["X-Wec-History"] = (hist.dataset.mode || "") + ":" + plain + ":" + notation;
  });
  // keep: ask for the board with the piece (and aiming mode) still selected.
  function refresh(keep) {
    var query = keep ? selectionQuery() : "";
    if (window.htmx) {
      window.htmx.ajax("GET", query ? boardUrl + "?" + query : boardUrl, {
        target: "#board", swap: "outerHTML", headers: { "X-Wec-Refresh": String(boardRequests) }
      });
    }
  }
  function connect() {
    var proto = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(proto + window.location.host + wsPath);
    socket.onopen = function () {
      retry = 500;
      root.dataset.live = "1";
      if (statusEl) statusEl.textContent = "";
      // Catch up on anything rung before the socket was (re)opened, keeping
      // a piece the player is selecting.
      refresh(true);
    };
    socket.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type !== "changed") return;
      if (msg.version !== shownVersion()) refresh(false);
    };
    socket.onclose = function (event) {
      root.dataset.live = "";
      if (event.code === 4403) return;  // not a participant: don't retry
      if (statusEl) statusEl.textContent = statusEl.dataset.offline || "";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 15000);
    };
  }
  // Arrow keys move the focus between the board's buttons.
  document.addEventListener("keydown", function (e) {
    var keys = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!keys[e.key]) return;
    var active = document.activeElement;
    if (!active || !active.closest || !active.closest(".board")) return;
    var sq = active.closest(".sq");
    var squares = Array.prototype.slice.call(document.querySelectorAll(".board .sq"));
    var idx = squares.indexOf(sq);
    if (idx < 0) return;
    var r = Math.floor(idx / 10), c = idx % 10, d = keys[e.key];
    for (var step = 1; step < 10; step++) {
      var nr = r + d[0] * step, nc = c + d[1] * step;
      if (nr < 0 || nr > 9 || nc < 0 || nc > 9) break;
      var btn = squares[nr * 10 + nc].querySelector("button");
      if (btn) { btn.focus(); e.preventDefault(); return; }
    }
  });
  // The history's Plain English / notation choice survives board refreshes.
  function applyHistoryMode() {
    var mode = null;
    try { mode = window.sessionStorage.getItem("wec-hist-mode"); } catch (e) { return; }
    var radio = mode && document.getElementById("hist-" + mode);
    if (radio) radio.checked = true;
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.name === "hist-mode") {
      try { window.sessionStorage.setItem("wec-hist-mode", e.target.value); } catch (err) { /* private mode */ }
    }
  });
  applyHistoryMode();
  document.body.addEventListener("htmx:afterSwap", applyHistoryMode);
  // Keep keyboard focus on the board after a swap.
  document.body.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("board");
    if (!board) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    var first = board.querySelector(".target-btn") || board.querySelector(".band.selected button") || board.querySelector("#end-turn");
    if (first) first.focus({ preventScroll: true });
  });
  connect();
})();
