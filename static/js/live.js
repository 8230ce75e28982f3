// The live table (campaigns/live.py). The page's event stream says *when* something changed;
// each live region then asks its own view for the fresh fragment. After a dropped stream
// reconnects, every live region asks again ("liveSync"): the database is the source of truth,
// so whatever happened while the connection was down shows up at once.
(function () {
  "use strict";
  var opened = false;

  function status(text) {
    var line = document.getElementById("live-status");
    if (!line) { return; }
    line.textContent = text;
    line.hidden = !text;
  }

  document.body.addEventListener("htmx:sseOpen", function () {
    status("");
    if (opened) { htmx.trigger(document.body, "liveSync"); }
    opened = true;
  });

  document.body.addEventListener("htmx:sseError", function () {
    status("Live updates paused: reconnecting…");
  });
})();
