// The GM's dashboard (table/campaign_detail.html): a roll that arrives in "Latest rolls" is
// marked new for a moment, so the GM sees which line just came in. The list is redrawn whole
// by the live refresh (hx-select-oob="#campaign-rolls"); a row is new when its roll id was
// not on the page before. Rows present when the page loaded are never marked. The mark is a
// class (static/css/sheetkeeper.css draws it, with no movement when the user asks for
// reduced motion) and a visually hidden "new" word for screen readers.
(function () {
  "use strict";

  var NEW_FOR_MS = 8000;
  var seen = {};

  function rows() {
    return document.querySelectorAll("#campaign-rolls [data-roll]");
  }

  function remember() {
    rows().forEach(function (row) { seen[row.getAttribute("data-roll")] = true; });
  }

  function markNew() {
    rows().forEach(function (row) {
      var id = row.getAttribute("data-roll");
      if (seen[id]) { return; }
      seen[id] = true;
      row.classList.add("roll-new");
      var word = document.createElement("span");
      word.className = "tag roll-new-tag";
      word.textContent = "new";
      row.insertBefore(word, row.firstChild);
      window.setTimeout(function () {
        row.classList.remove("roll-new");
        if (word.parentNode) { word.parentNode.removeChild(word); }
      }, NEW_FOR_MS);
    });
  }

  remember();
  // The live refresh swaps #campaign-rolls out of band; htmx fires oobAfterSwap on what it
  // put in (a GM's own NPC roll arrives the same way). Marking is idempotent.
  document.body.addEventListener("htmx:oobAfterSwap", markNew);
})();
