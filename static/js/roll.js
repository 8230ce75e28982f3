// The roll form on a sheet (systems/<slug>/templates/systems/<slug>/sheet.html).
//
// The phone's roll bar (.roll-bar) shows the headline of the odds of the pool being picked:
// the sheet's odds box copies it out of each odds answer into the bar
// (hx-select-oob="#roll-bar-odds:innerHTML"; rolls/_odds.html). An answer without odds
// (nothing picked yet, or a pool the rules refuse, whose reason the odds box shows) leaves it
// empty; the bar then says its prompt again, which the sheet gives in data-prompt ("Tick
// traits, then"), so that it always says what the form needs next. The bar is in the page
// from the start, with its prompt: without this script it keeps saying it. The answer to a
// roll brings the dialog's odds out of band (rolls.views._redraw_dialog), their headline in
// the odds' data-headline: it goes into the bar the same way.
(function () {
  "use strict";

  function copyHeadline() {
    var odds = document.querySelector("#roll-odds[data-headline]");
    if (!odds) { return; }
    var bar = document.getElementById("roll-bar-odds");
    if (bar) { bar.textContent = odds.getAttribute("data-headline"); }
    odds.removeAttribute("data-headline");
  }

  function sayPrompts() {
    var spots = document.querySelectorAll(".roll-bar [data-prompt]");
    for (var i = 0; i < spots.length; i++) {
      if (!spots[i].textContent.trim()) {
        spots[i].textContent = spots[i].getAttribute("data-prompt");
      }
    }
  }

  // After every swap, the out-of-band ones included (they happen within the same swap).
  document.addEventListener("htmx:afterSwap", function () { copyHeadline(); sayPrompts(); });
})();
