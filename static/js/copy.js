// Copy buttons (the GM's invite link, table/campaign_detail.html). A button
// `data-copy-from="<id of an input>"` copies that input's value with the Clipboard API and says
// "Copied" in the element named by its `data-copy-status` (a role=status region, so screen
// readers hear it). The buttons sit in a `[data-copy-controls]` wrapper that the page sends
// hidden: without this script there is no button that does nothing, and the input itself stays
// selectable. Where the Clipboard API is missing or refused (a page served over plain http to
// another machine), the input's text is selected and the status says how to copy it by hand.
// Content swapped in by htmx (renewing the link) is revealed as it arrives (htmx:load).
(function () {
  "use strict";

  var CLEAR_AFTER_MS = 5000;

  function reveal(root) {
    if (!root || !root.querySelectorAll) { return; }
    var wrappers = root.querySelectorAll("[data-copy-controls][hidden]");
    for (var i = 0; i < wrappers.length; i++) { wrappers[i].hidden = false; }
  }

  function say(status, text) {
    if (!status) { return; }
    status.textContent = text;
    clearTimeout(status.copyTimer);
    status.copyTimer = setTimeout(function () { status.textContent = ""; }, CLEAR_AFTER_MS);
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy-from"));
    var status = document.getElementById(button.getAttribute("data-copy-status"));
    if (!source) { return; }
    // Emptied first, so that a second "Copied" is announced again.
    if (status) { status.textContent = ""; }
    var byHand = function () {
      source.focus();
      source.select();
      say(status, "Could not copy: the link is selected, copy it with your keyboard or menu.");
    };
    if (!navigator.clipboard || !window.isSecureContext) { byHand(); return; }
    navigator.clipboard.writeText(source.value).then(function () {
      say(status, "Copied");
    }, byHand);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy-from]");
    if (button) { copy(button); }
  });
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });
  // A deferred script runs once the document is parsed.
  reveal(document);
})();
