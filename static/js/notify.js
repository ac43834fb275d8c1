// The signed-in user's notices: /ws/notifications/ says only "something of
// kind K happened in game N"; the page then asks the server for its badge (and
// the home page for its game list) over HTTP (htmx listens for these events).
(function () {
  "use strict";
  var path = document.body.dataset.notifyWs;
  if (!path || !window.WebSocket) return;
  var retry = 1000;
  var opened = false;
  function fire(name, detail) {
    document.body.dispatchEvent(new CustomEvent(name, { detail: detail || {} }));
  }
  function connect() {
    var proto = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(proto + window.location.host + path);
    socket.onopen = function () {
      retry = 1000;
      // After a reconnect, ask for the badge (and game list) again: a notice
      // may have gone out while the socket was down.
      if (opened) fire("wec:notify", { reconnect: true });
      opened = true;
    };
    socket.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "notify") fire("wec:notify", msg);
      else if (msg.type === "lobby") fire("wec:lobby", msg);
    };
    socket.onclose = function (event) {
      if (event.code === 4401) return;  // not signed in: don't retry
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }
  // A game page marks that game's notices read whenever it fetches its board:
  // then the badge is asked again.
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var target = e.detail && e.detail.target;
    if (target && target.id === "board") fire("wec:seen");
  });
  connect();
})();
