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
    var id = e.detail.target && e.detail.target.id;
    if (isRefresh(e.detail) === null && (id === "board" || id === "replay")) boardRequests++;
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var mark = isRefresh(e.detail);
    if (mark !== null && parseInt(mark, 10) !== boardRequests) e.detail.shouldSwap = false;
  });
  // Every board request says which record lines the page already has, so the
  // answer carries only the new ones (games/pages/board.py).
  document.body.addEventListener("htmx:configRequest", function (e) {
    var hist = document.getElementById("history");
    if (!hist) return;
    var plain = document.querySelectorAll("#hist-plain-list > li").length;
    var notation = document.querySelectorAll("#hist-notation-list > li").length;
    e.detail.headers["X-Wec-History"] = (hist.dataset.mode || "") + ":" + plain + ":" + notation;
  });
  // A board answer may be only the parts of the board that changed
  // (games/boardpatch.py).  Every board answer names its parts' hashes
  // (X-Wec-Parts); the page keeps the HTML of the last few boards it was
  // sent, as sent (not the DOM the script has changed since), and sends the
  // hashes of the one it shows with its next board request.  A patched
  // answer (X-Wec-Patch) holds only the parts that differ, each after
  // <!--s:N-->: put together with the kept parts of the board the request
  // named, they are exactly the HTML of a full answer, which htmx then swaps
  // in as usual (so everything done after a swap is done as before).
  var PART = "<!--s-->", END = "<!--e-->";
  var keptBoards = [];  // [{hashes: "...", parts: [...]}], the newest last
  var shownParts = "";  // the hashes of the board the page shows ("": unknown)
  function keptBoard(hashes) {
    for (var i = keptBoards.length - 1; i >= 0; i--) if (keptBoards[i].hashes === hashes) return keptBoards[i].parts;
    return null;
  }
  document.body.addEventListener("htmx:configRequest", function (e) {
    if (shownParts && e.detail.target && e.detail.target.id === "board") e.detail.headers["X-Wec-Parts"] = shownParts;
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.shouldSwap || !e.detail.target || e.detail.target.id !== "board" || !e.detail.xhr) return;
    var xhr = e.detail.xhr;
    var text = e.detail.serverResponse;
    if (typeof text !== "string") return;
    if (xhr.getResponseHeader("X-Wec-Patch") === "1") {
      var sent = e.detail.requestConfig && e.detail.requestConfig.headers ? e.detail.requestConfig.headers["X-Wec-Parts"] : "";
      var base = sent ? keptBoard(sent) : null;
      var end = text.indexOf(END);
      if (!base || end < 0) {  // not known any more: ask for the whole board
        e.detail.shouldSwap = false;
        shownParts = "";
        refresh(true);
        return;
      }
      var parts = base.slice();
      text.slice(0, end).split("<!--s:").slice(1).forEach(function (chunk) {
        var at = chunk.indexOf("-->");
        parts[parseInt(chunk.slice(0, at), 10)] = chunk.slice(at + 3);
      });
      text = parts.join(PART) + text.slice(end);
      e.detail.serverResponse = text;
    }
    var hashes = xhr.getResponseHeader("X-Wec-Parts") || "";
    var cut = text.indexOf(END);
    if (hashes && cut >= 0) {
      keptBoards.push({ hashes: hashes, parts: text.slice(0, cut).split(PART) });
      if (keptBoards.length > 4) keptBoards.shift();
    }
    shownParts = hashes && cut >= 0 ? hashes : "";
  });
  // keep: ask for the board with the piece (and aiming mode) still selected.
  function refresh(keep) {
    var query = keep ? selectionQuery() : "";
    // A review keeps the Turn it shows.
    var replay = document.getElementById("replay");
    if (replay && replay.dataset.at) query = (query ? query + "&" : "") + "at=" + encodeURIComponent(replay.dataset.at);
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
    var first = board.querySelector(".choice-btn") || board.querySelector(".target-btn") || board.querySelector(".band.selected button") || board.querySelector("#end-turn");
    if (first) first.focus({ preventScroll: true });
  });
  // "Changed since you last looked": #since-last (outside #board, sent with
  // every board answer: games/pages/board.py) lists the Squares; outline them
  // on the live board, say so in their accessible names, and show its text
  // in the board's header.
  function applySinceLast() {
    var data = document.getElementById("since-last");
    var board = document.getElementById("board");
    if (!data || !board) return;
    var grid = board.querySelector(".board-scroll .board");
    var label = data.dataset.label || "";
    if (grid) {
      (data.dataset.squares || "").split(" ").forEach(function (key) {
        var rc = key.split("-");
        if (rc.length !== 2) return;
        var sq = grid.querySelector(".sq[data-row='" + rc[0] + "'][data-col='" + rc[1] + "']");
        if (!sq || sq.classList.contains("hl-seen")) return;
        sq.classList.add("hl-seen");
        sq.setAttribute("aria-label", (sq.getAttribute("aria-label") || "") + ", " + label);
      });
    }
    var text = document.getElementById("since-last-text");
    if (!text) return;
    var key = text.querySelector(".hl-key");
    text.textContent = "";
    if (key) text.appendChild(key);
    text.appendChild(document.createTextNode(data.dataset.text || ""));
    text.hidden = !data.dataset.text;
  }
  applySinceLast();
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "board") applySinceLast();
  });

  // The tab title says whose turn it is (and against whom), for players
  // with many tabs open; it follows every board update.
  function applyTitle() {
    var board = document.getElementById("board");
    if (board && board.dataset.title) document.title = board.dataset.title;
  }
  applyTitle();
  document.body.addEventListener("htmx:afterSwap", applyTitle);

  // What the player opened (the history, the legend, waiting reinforcements)
  // stays open across live updates, and the page and the history list keep
  // their scroll positions.
  var openKey = "wec-open-" + wsPath;
  function keptOpen() {
    try { return JSON.parse(window.sessionStorage.getItem(openKey) || "{}"); } catch (e) { return {}; }
  }
  function applyOpen() {
    var kept = keptOpen();
    document.querySelectorAll("#board details[data-keep]").forEach(function (d) {
      var k = d.dataset.keep;
      if (kept[k] === true) d.open = true;
      else if (kept[k] === false) d.open = false;
    });
  }
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d || !d.dataset || !d.dataset.keep) return;
    var kept = keptOpen();
    kept[d.dataset.keep] = d.open;
    try { window.sessionStorage.setItem(openKey, JSON.stringify(kept)); } catch (err) { /* private mode */ }
  }, true);
  var scrolls = null;
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "board") return;
    scrolls = { page: window.scrollY, lists: {} };
    // Both ways: the record scrolls down, the board sideways on a phone.
    document.querySelectorAll("#board [data-keep-scroll]").forEach(function (el) {
      scrolls.lists[el.dataset.keepScroll] = [el.scrollTop, el.scrollLeft];
    });
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "board") return;
    applyOpen();
    applyLevel();
    if (!scrolls) return;
    document.querySelectorAll("#board [data-keep-scroll]").forEach(function (el) {
      var kept = scrolls.lists[el.dataset.keepScroll];
      if (kept === undefined) return;
      el.scrollTop = kept[0];
      el.scrollLeft = kept[1];
    });
    window.scrollTo(window.scrollX, scrolls.page);
    scrolls = null;
  });
  applyOpen();

  // Focus one level (phones): the board shows only that level, large.
  var levelKey = "wec-level";
  function applyLevel() {
    // On a phone one level at a time is the default: each Square is then one
    // 44px tap target.
    var level = window.matchMedia && window.matchMedia("(max-width: 480px)").matches ? "ground" : "all";
    try { level = window.sessionStorage.getItem(levelKey) || level; } catch (e) { /* private mode */ }
    var board = document.getElementById("board");
    if (!board) return;
    board.dataset.focusLevel = level;
    board.querySelectorAll(".level-btn").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.level === level ? "true" : "false");
    });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest(".level-btn");
    if (!btn) return;
    try { window.sessionStorage.setItem(levelKey, btn.dataset.level); } catch (err) { /* private mode */ }
    applyLevel();
  });
  applyLevel();

  // htmx wires up swapped-in content only when it settles (20 ms after the
  // swap): a key pressed in between would click a button htmx does not
  // handle yet, and be lost.  Keyboard shortcuts wire the element first
  // (htmx.process does nothing to an element it already handles).
  function ready(el) {
    if (el && window.htmx) window.htmx.process(el);
    return el;
  }
  // The review: Left/Right step a Turn, Home/End jump (documented on the help page).
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !document.getElementById("replay")) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    var ids = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
    var btn = ids[e.key] && document.getElementById(ids[e.key]);
    if (btn && !btn.disabled) { ready(btn).click(); e.preventDefault(); }
  });
  // Zoom one Square: tapping a Square's background (not one of its buttons),
  // or pressing z on a focused Square button, shows its three levels large
  // in #square-zoom (a copy without buttons: acting stays on the board).
  function zoomSquare(sq) {
    var box = document.getElementById("square-zoom");
    if (!box || !sq) return;
    var copy = sq.cloneNode(true);
    copy.removeAttribute("role");
    copy.querySelectorAll("form").forEach(function (f) { f.replaceWith.apply(f, Array.prototype.slice.call(f.childNodes)); });
    copy.querySelectorAll("button").forEach(function (b) {
      var span = document.createElement("span");
      span.className = "cell-static";
      while (b.firstChild) span.appendChild(b.firstChild);
      b.replaceWith(span);
    });
    copy.querySelectorAll("input").forEach(function (i) { i.remove(); });
    // Every piece and Article in the zoom links to its Rules & help entry
    // (on the board, a piece inside one of its buttons cannot be a link).
    copy.querySelectorAll(".tok").forEach(function (tok) {
      if (tok.closest("a")) return;
      var use = tok.querySelector("use");
      var ref = use ? use.getAttribute("href") || "" : "";
      if (ref.indexOf("#p-") !== 0) return;
      var a = document.createElement("a");
      a.className = "tok-link";
      a.href = helpBase() + "#piece-" + ref.slice(3);
      a.setAttribute("aria-label", (box.dataset.helpLabel || "") + tok.getAttribute("title"));
      tok.replaceWith(a);
      a.appendChild(tok);
    });
    copy.querySelectorAll("a[tabindex]").forEach(function (a) { a.removeAttribute("tabindex"); });
    copy.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
    var body = box.querySelector(".square-zoom-body");
    body.textContent = "";
    body.appendChild(copy);
    box.dataset.row = sq.dataset.row;
    box.dataset.col = sq.dataset.col;
    box.querySelector("h2").textContent = box.dataset.title.replace("%(square)s", sq.dataset.row + "," + sq.dataset.col);
    box.hidden = false;
  }
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("#square-zoom-close")) {
      var box = document.getElementById("square-zoom");
      if (box) { box.hidden = true; delete box.dataset.row; }
      return;
    }
    var sq = e.target.closest && e.target.closest("#board .board .sq");
    if (!sq || e.target.closest("button, a, form")) return;
    zoomSquare(sq);
  });
  // A live update keeps the zoom open, showing the Square's new contents.
  var zoomed = null;
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var box = document.getElementById("square-zoom");
    zoomed = box && !box.hidden && box.dataset.row ? [box.dataset.row, box.dataset.col] : null;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    if (!zoomed) return;
    zoomSquare(document.querySelector("#board .board .sq[data-row='" + zoomed[0] + "'][data-col='" + zoomed[1] + "']"));
    zoomed = null;
  });
  // Keyboard play (documented on the help page, games/ui/wec/help.py KEYS and
  // RECIPES): e ends the turn, u takes back the last action (friendly games),
  // Escape clears the selection or leaves an aiming mode, a aims the first
  // weapon, f t p d x go to the selected piece's Fire, Transport, Pick-up,
  // Drop and Exchange controls, r to the ready reinforcements, h opens the
  // Rules & help entry of what has the focus, 1-4 focus a level, ? opens the
  // help.
  var groupKeys = { f: "fire", t: "transport", p: "pickup", d: "drop", x: "exchange" };
  function helpBase() {
    var link = document.getElementById("help-link");
    return link ? link.getAttribute("href") : "/help/";
  }
  // The help entry of an element: a piece token's or an Article's icon
  // (<use href="#p-tank"> / "#a-bike"), else the help link of the action
  // group or panel it sits in.
  function helpFor(el) {
    if (!el || !el.closest) return null;
    var where = el.closest(".band") || el.closest(".sq");
    var scope = where || el;
    var use = scope.querySelector(".tok use") || (el.closest(".sq") && el.closest(".sq").querySelector(".arts use"));
    if (use) {
      var ref = use.getAttribute("href") || "";
      if (ref.indexOf("#p-") === 0) return helpBase() + "#piece-" + ref.slice(3);
      if (ref.indexOf("#a-") === 0) return helpBase() + "#article-" + ref.slice(3);
    }
    var box = el.closest(".compass-block, .target-group, .transport-form, .act-group, .turn-panel, .selection");
    var ref2 = box && box.querySelector("a.help-ref");
    return ref2 ? ref2.getAttribute("href") : null;
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (document.querySelector("#confirm-dialog[open]")) return;
    var board = document.getElementById("board");
    if (!board) return;
    var click = function (sel) { var el = board.querySelector(sel); if (el) { ready(el).click(); e.preventDefault(); } return el; };
    var focus = function (sel) { var el = board.querySelector(sel); if (el) { el.focus(); e.preventDefault(); } return el; };
    if (e.key === "e" || e.key === "E") { var end = board.querySelector("#end-turn"); if (end) { ready(end.form).requestSubmit(); e.preventDefault(); } }
    else if (e.key === "u" || e.key === "U") { var back = board.querySelector("#take-back"); if (back) { ready(back.form).requestSubmit(); e.preventDefault(); } }
    else if (e.key === "Escape") { click("#cancel-mode") || click("#clear-selection"); }
    else if (e.key === "a") { click(".aim-btn"); }
    else if (e.key === "z") { var sq = document.activeElement && document.activeElement.closest && document.activeElement.closest(".board .sq"); if (sq) { zoomSquare(sq); e.preventDefault(); } }
    else if (e.key === "f") { focus("#action-panel [data-group='fire'] .act-btn") || focus("#action-panel .act-btn"); }
    else if (groupKeys[e.key]) { focus("#action-panel [data-group='" + groupKeys[e.key] + "'] select, #action-panel [data-group='" + groupKeys[e.key] + "'] .act-btn"); }
    else if (e.key === "r") { focus("#turn-panel [data-group='reinforce'] .act-btn"); }
    else if (e.key === "h") { var href = helpFor(document.activeElement); if (href) { window.location = href; e.preventDefault(); } }
    else if (e.key === "m") { focus(".target-btn") || focus(".piece-btn"); }
    else if (e.key === "1" || e.key === "2" || e.key === "3" || e.key === "4") {
      click(".level-btn[data-level='" + ["all", "air", "ground", "sub"][parseInt(e.key, 10) - 1] + "']");
    } else if (e.key === "?") { var help = document.getElementById("help-link"); if (help) { window.location = help.href; } }
  });
  connect();
})();
