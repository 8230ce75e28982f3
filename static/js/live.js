// The live table (campaigns/live.py). The page's event stream says *when* something changed;
// each live region then asks its own view for itself alone (core/regions.py). After a dropped
// stream reconnects, the page asks once for all its regions ("liveSync"): the database is the
// source of truth, so whatever happened while the connection was down shows up. That one
// request waits a random moment of up to SYNC_SPREAD_MS first: a server restart drops every
// open page at once, and their catching up should not arrive as one wave either.
//
// Reconnecting is ours, not the browser's. A bare EventSource retries after the stream's
// fixed `retry:` delay (2 s), so when Redis or the server went away every open page came
// back at the same moment, again and again. htmx's SSE extension builds its EventSource
// through htmx.createEventSource, which this file replaces with a LiveSource: the same
// interface (onopen, onerror, addEventListener, readyState, close), over one EventSource at
// a time. When that one fails, LiveSource closes it (stopping the browser's own retry) and
// opens the next after a delay that doubles with each failure in a row, from about a second
// up to a minute, with jitter ("equal jitter": between half the delay and all of it) so that
// pages that dropped together spread out. A stream that stayed up for a while starts the
// count again. The extension keeps its listeners on the LiveSource, which moves them to each
// new EventSource, and its own reconnection never runs: a LiveSource is never CLOSED until
// it is closed for good.
(function () {
  "use strict";

  var FIRST_DELAY_MS = 1000;
  var MAX_DELAY_MS = 60000;
  var HEALTHY_AFTER_MS = 30000; // a stream open this long resets the delay
  var CLOSED_EVENT = "liveClosed"; // campaigns/live.py: the viewer lost their seat
  var SYNC_SPREAD_MS = 3000; // benchmarks/tables.py reads it: the restart's figure depends on it
  var opened = false;

  function status(text) {
    var line = document.getElementById("live-status");
    if (!line) { return; }
    line.textContent = text;
    line.hidden = !text;
  }

  // The wait before reconnection attempt number `failures` (0 for the first after a drop).
  function reconnectDelay(failures) {
    var ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * Math.pow(2, failures));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  function LiveSource(url) {
    this.url = url;
    this.withCredentials = true;
    this.readyState = LiveSource.CONNECTING;
    this.onopen = null;
    this.onerror = null;
    this.onmessage = null;
    this._listeners = [];
    this._source = null;
    this._timer = null;
    this._failures = 0;
    this._openedAt = 0;
    this._connect();
  }
  LiveSource.CONNECTING = 0;
  LiveSource.OPEN = 1;
  LiveSource.CLOSED = 2;

  LiveSource.prototype._connect = function () {
    var self = this;
    var source = new EventSource(this.url, { withCredentials: true });
    this._timer = null;
    this._source = source;
    this._listeners.forEach(function (entry) { source.addEventListener(entry[0], entry[1]); });
    source.addEventListener(CLOSED_EVENT, function (event) {
      var changed = false;
      try { changed = JSON.parse(event.data).changed === true; } catch (e) { changed = false; }
      if (changed) {
        // The seat changed (the GM seat handed over): a new stream joins the groups of the
        // seat as it is now; the page itself was drawn for the old seat.
        source.close();
        self._source = null;
        self._connect();
        status("Your seat at this table changed: reload the page to see it as it is now.");
        return;
      }
      self.close();
      status("You are no longer seated at this table: live updates have stopped.");
    });
    source.onmessage = function (event) { if (self.onmessage) { self.onmessage(event); } };
    source.onopen = function (event) {
      self.readyState = LiveSource.OPEN;
      self._openedAt = Date.now();
      if (self.onopen) { self.onopen(event); }
    };
    source.onerror = function (event) {
      source.close(); // no fixed-delay retry by the browser: we choose when
      if (self._source !== source || self.readyState === LiveSource.CLOSED) { return; }
      self._source = null;
      if (self._openedAt && Date.now() - self._openedAt >= HEALTHY_AFTER_MS) {
        self._failures = 0;
      }
      self._openedAt = 0;
      self.readyState = LiveSource.CONNECTING; // so the extension does not reconnect too
      if (self.onerror) { self.onerror(event); }
      if (self.readyState === LiveSource.CLOSED) { return; } // closed by an error handler
      var wait = reconnectDelay(self._failures);
      self._failures += 1;
      self._timer = window.setTimeout(function () { self._connect(); }, wait);
    };
  };

  LiveSource.prototype.addEventListener = function (name, listener) {
    this._listeners.push([name, listener]);
    if (this._source) { this._source.addEventListener(name, listener); }
  };

  LiveSource.prototype.removeEventListener = function (name, listener) {
    this._listeners = this._listeners.filter(function (entry) {
      return entry[0] !== name || entry[1] !== listener;
    });
    if (this._source) { this._source.removeEventListener(name, listener); }
  };

  LiveSource.prototype.close = function () {
    this.readyState = LiveSource.CLOSED;
    if (this._timer !== null) { window.clearTimeout(this._timer); }
    this._timer = null;
    if (this._source) { this._source.close(); }
    this._source = null;
  };

  htmx.createEventSource = function (url) { return new LiveSource(url); };

  document.body.addEventListener("htmx:sseOpen", function () {
    status("");
    if (opened) {
      window.setTimeout(function () { htmx.trigger(document.body, "liveSync"); },
                        Math.random() * SYNC_SPREAD_MS);
    }
    opened = true;
  });

  document.body.addEventListener("htmx:sseError", function (event) {
    var source = event.detail && event.detail.source;
    if (source && source.readyState === LiveSource.CLOSED) { return; }
    status("Live updates paused: reconnecting…");
  });
})();
