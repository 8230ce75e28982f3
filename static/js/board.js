// The campaign's page (table/campaign_detail.html): a roll that arrives in "Latest rolls" is
// marked new for a few seconds, so the GM sees which line just came in, and is announced to
// screen readers by a status line outside the list (#roll-news). The live refresh redraws the
// list whole (hx-select-oob="#campaign-rolls"), or a roll's event brings its line alone
// (static/js/live.js, "liveLine"); a row is new when its roll id was not on the
// page before, and keeps its mark through later redraws until its time is up (two players
// rolling within seconds both stay marked). Rows present when the page loaded are never
// marked. The mark is a class (sheetkeeper.css draws it, with no movement when the user asks
// for reduced motion) and a visible "new" tag.
(function () {
  "use strict";

  var NEW_FOR_MS = 8000;
  var seen = {};
  var markedUntil = {};

  function rows() {
    return document.querySelectorAll("#campaign-rolls [data-roll]");
  }

  function mark(row) {
    if (row.classList.contains("roll-new")) { return; }
    row.classList.add("roll-new");
    var word = document.createElement("span");
    word.className = "tag roll-new-tag";
    word.textContent = "new";
    row.insertBefore(word, row.firstChild);
  }

  function unmark(id) {
    var row = document.querySelector('#campaign-rolls [data-roll="' + id + '"]');
    if (!row) { return; }
    row.classList.remove("roll-new");
    var word = row.querySelector(".roll-new-tag");
    if (word) { word.parentNode.removeChild(word); }
  }

  function announce(arrived) {
    var line = document.getElementById("roll-news");
    if (!line || !arrived.length) { return; }
    line.textContent = arrived.map(function (row) {
      var head = row.querySelector(".roll-line-head");
      return "New roll: " + (head ? head.textContent : row.textContent).replace(/\s+/g, " ").trim();
    }).join(". ");
  }

  function markNew() {
    var now = Date.now();
    var arrived = [];
    rows().forEach(function (row) {
      var id = row.getAttribute("data-roll");
      if (!seen[id]) {
        seen[id] = true;
        markedUntil[id] = now + NEW_FOR_MS;
        arrived.push(row);
        window.setTimeout(function () { delete markedUntil[id]; unmark(id); }, NEW_FOR_MS);
      }
      if (markedUntil[id] && markedUntil[id] > now) { mark(row); }
    });
    announce(arrived);
  }

  rows().forEach(function (row) { seen[row.getAttribute("data-roll")] = true; });
  // The live refresh swaps #campaign-rolls out of band; htmx fires oobAfterSwap on what it
  // put in (a GM's own NPC roll arrives the same way). Marking is idempotent.
  document.body.addEventListener("htmx:oobAfterSwap", markNew);
  // A roll's line that came with its event (static/js/live.js) arrives without a swap.
  document.body.addEventListener("liveLine", markNew);
})();
