// Light or dark: the page follows the device (prefers-color-scheme) until the user picks one
// with the header's switch; the choice is this device's (localStorage), as the device's own
// setting is. Loaded in <head> without defer so the chosen scheme is set before the first
// paint (no flash of the other one). sheetkeeper.css reads data-theme on <html>.
(function () {
  "use strict";

  var KEY = "sheetkeeper-theme";
  var ORDER = ["device", "dark", "light"];
  var LABELS = { device: "Theme: device", dark: "Theme: dark", light: "Theme: light" };
  var root = document.documentElement;

  function stored() {
    try { return window.localStorage.getItem(KEY) || "device"; } catch (e) { return "device"; }
  }

  function apply(choice) {
    if (choice === "dark" || choice === "light") {
      root.setAttribute("data-theme", choice);
    } else {
      root.removeAttribute("data-theme");
    }
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-switch");
    // Without light-dark() the stylesheet has only its light colours: nothing to switch.
    var canSwitch = window.CSS && CSS.supports && CSS.supports("color", "light-dark(#000, #fff)");
    if (!button || !canSwitch) { return; }
    function show(choice) {
      button.textContent = LABELS[choice] || LABELS.device;
      button.setAttribute("aria-label", (LABELS[choice] || LABELS.device) +
        " (change the colour theme)");
    }
    show(stored());
    button.hidden = false;
    button.addEventListener("click", function () {
      var next = ORDER[(ORDER.indexOf(stored()) + 1) % ORDER.length];
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      apply(next);
      show(next);
    });
  });
})();
