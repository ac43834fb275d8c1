// Forms with data-confirm="question" ask before they submit, in a modal
// <dialog> of the page (#confirm-dialog in base.html): End Turn, a Fire that
// may hit one's own piece, Resign.  This replaces inline onsubmit handlers,
// which the Content-Security-Policy forbids.  The listener sits on the
// document (capture phase), so forms that htmx swaps in later are covered too,
// and it runs before htmx sees the submit.  Once the player confirms, the
// form is submitted again, marked as confirmed, and htmx (or the browser)
// sends it as usual.
(function () {
  "use strict";
  var pending = null;
  function dialog() { return document.getElementById("confirm-dialog"); }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    var dlg = dialog();
    if (!dlg || typeof dlg.showModal !== "function") {
      if (window.confirm(form.dataset.confirm)) { form.dataset.confirmed = "1"; form.requestSubmit(); }
      return;
    }
    pending = form;
    dlg.querySelector(".confirm-text").textContent = form.dataset.confirm;
    var yes = dlg.querySelector(".confirm-yes");
    yes.textContent = form.dataset.confirmYes || yes.dataset.default;
    dlg.classList.toggle("danger", form.dataset.confirmDanger === "1");
    dlg.returnValue = "";
    dlg.showModal();
    yes.focus();
  }, true);
  document.addEventListener("click", function (event) {
    var btn = event.target.closest && event.target.closest("#confirm-dialog button");
    if (!btn) return;
    var dlg = dialog();
    var form = pending;
    pending = null;
    dlg.close();
    if (!btn.classList.contains("confirm-yes") || !form) return;
    // A live update may have swapped the board (and this form with it) while
    // the question was open: the player's answer goes to the same form of the
    // new board (same address and action), whose own tokens then decide.
    if (!form.isConnected) form = twinOf(form);
    if (form) {
      form.dataset.confirmed = "1";
      form.requestSubmit();
    }
  });
  function actionOf(form) {
    var field = form.querySelector("input[name=action]");
    return field ? field.value : "";
  }
  function twinOf(gone) {
    var forms = document.querySelectorAll("form[data-confirm]");
    for (var i = 0; i < forms.length; i++) {
      var f = forms[i];
      if (f.getAttribute("action") === gone.getAttribute("action") && actionOf(f) === actionOf(gone)) return f;
    }
    return null;
  }
  document.addEventListener("close", function (event) {
    if (event.target && event.target.id === "confirm-dialog") pending = null;
  }, true);
})();
