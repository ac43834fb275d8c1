// Forms with data-confirm="question" ask before they submit.  This replaces
// inline onsubmit handlers, which the Content-Security-Policy forbids.  The
// listener sits on the document (capture phase), so forms that htmx swaps in
// later are covered too, and it runs before htmx sees the submit.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
