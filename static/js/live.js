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
//
// A page's own change: the answer to a POST may bring some of its page's regions and say so
// (Live-Drawn: "<version> <id> <id>", core.regions.drawn). The change's event usually arrives
// first, so while the page has a POST in flight a region that hears an event waits for that
// answer; a region drawn at the event's version or later (every event carries its version)
// asks nothing at all.
//
// A line with the event: an event may bring, for a region, the one item its change adds to
// the region's list (data["prepend"]: {"campaign-rolls": "<li ...>"}, core.live.drawing: a
// new roll's line in the latest rolls on rollMade, and in its character's recent rolls on
// rollMade-<id>, each on the frame of the name its region hears). A region that was
// current just before the event (its version minus one) puts the item at the head of its
// list (data-live-list), unless an item with its data-live-key is there already, drops what
// falls past data-live-limit, and asks nothing; any other region asks as usual.
(function () {
  "use strict";

  var FIRST_DELAY_MS = 1000;
  var MAX_DELAY_MS = 60000;
  var HEALTHY_AFTER_MS = 30000; // a stream open this long resets the delay
  var CLOSED_EVENT = "liveClosed"; // campaigns/live.py: the viewer lost their seat
  var SYNC_SPREAD_MS = 3000; // benchmarks/tables.py reads it: the restart's figure depends on it
  var RESTART_EVENT = "liveRestart"; // campaigns/live.py: the server is stopping, back soon
  var RESTART_WINDOW_MS = 30000; // after it, attempts stay RESTART_DELAY_MS apart this long
  var RESTART_DELAY_MS = 1000; // each attempt between half of it and all of it
  var VERSION_EVENT = "liveVersion"; // campaigns/live.py: a change's version and event names
  var opened = false;

  function status(text) {
    var line = document.getElementById("live-status");
    if (!line) { return; }
    line.textContent = text;
    line.hidden = !text;
  }

  // The wait before reconnection attempt number `failures` (0 for the first after a drop).
  // Within RESTART_WINDOW_MS of the server saying it is stopping (a restart takes seconds),
  // the attempts stay about a second apart instead of doubling: a page should not sleep 8 s
  // through the moment the new server answers.
  function reconnectDelay(failures, restartingSince) {
    var ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * Math.pow(2, failures));
    if (restartingSince && Date.now() - restartingSince < RESTART_WINDOW_MS) {
      ceiling = RESTART_DELAY_MS;
    }
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
    this._restartingSince = 0;
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
        // seat as it is now; the page itself was drawn for the old seat. The GM's pages and
        // a player's count versions apart (campaigns.versions): what the page holds means
        // nothing to the new seat's stream, so every region asks once it is back.
        source.close();
        self._source = null;
        forgetVersions();
        self._connect();
        status("Your seat at this table changed: reload the page to see it as it is now.");
        return;
      }
      self.close();
      status("You are no longer seated at this table: live updates have stopped.");
    });
    source.addEventListener(RESTART_EVENT, function () {
      self._restartingSince = Date.now();
      self._failures = 0;
    });
    source.addEventListener(VERSION_EVENT, function (event) {
      var note = null;
      try { note = JSON.parse(event.data); } catch (e) { note = null; }
      if (note && typeof note.version === "number") { noteVersion(note.version, note.names || []); }
    });
    source.onmessage = function (event) { if (self.onmessage) { self.onmessage(event); } };
    source.onopen = function (event) {
      self.readyState = LiveSource.OPEN;
      self._openedAt = Date.now();
      self._restartingSince = 0;
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
      var wait = reconnectDelay(self._failures, self._restartingSince);
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

  // Versions (core/regions.py, campaigns.versions): every live element carries the campaign's
  // live version its page was drawn at (data-live-version); each answer of a region brings
  // the version it was drawn at (its ETag). A region asks with the newest version the page
  // holds for it (If-None-Match), and one that has not changed since answers 304: nothing is
  // rendered, nothing swapped. The reconnection's answer holds every region, so it brings
  // them all to its version.
  var held = {}; // hx-get URL -> the version its regions were last drawn at

  // Hold no version: every region asks at its next event, and the reconnection's ask brings
  // them all to the version its answer was drawn at.
  function forgetVersions() {
    held = {};
    drawnAt = {};
    pageVersion = 0;
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-version]"),
      function (elt) { elt.setAttribute("data-live-version", "0"); });
  }

  function liveUrl(elt) {
    var url = elt && elt.getAttribute && elt.getAttribute("hx-get");
    return url && url.indexOf("?live=") >= 0 ? url : null;
  }

  function heldVersion(elt, url) {
    var drawn = parseInt(elt.getAttribute("data-live-version") || "0", 10);
    return Math.max(drawn, held[url] || 0);
  }

  function regionElements() {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live-version]"),
      function (elt) { return !elt.hasAttribute("data-live-sync") && liveUrl(elt); });
  }

  // A change (version n, its event names) that a region does not listen for leaves that
  // region as it was: it is current at n too, if it was current just before (n - 1: a
  // version this page did not hear of, or one heard out of order, leaves it where it was).
  // A change hidden from this page's viewer moves no version it counts. One that it listens for makes it ask; its
  // answer brings its own version.
  function noteVersion(version, names) {
    regionElements().forEach(function (elt) {
      var url = liveUrl(elt);
      var trigger = elt.getAttribute("hx-trigger") || "";
      var hears = names.some(function (name) {
        return trigger.split(/,\s*/).indexOf("sse:" + name) >= 0;
      });
      if (!hears && heldVersion(elt, url) === version - 1) { held[url] = version; }
    });
  }

  // The ids a region element's URL asks for (?live=a&live=b).
  function liveIds(url) {
    var query = url.split("?")[1] || "";
    return query.split("&").filter(function (pair) { return pair.indexOf("live=") === 0; })
      .map(function (pair) { return decodeURIComponent(pair.slice(5).replace(/\+/g, " ")); });
  }

  // A change's own answer may redraw regions of its page out of band; it says which, and at
  // what version (the Live-Drawn header, core.regions.drawn: "42 card-12").
  // A region all of whose ids it drew holds that version from now on.
  function noteDrawn(header) {
    var words = (header || "").trim().split(/\s+/);
    var version = parseInt(words[0], 10);
    if (!(version > 0) || words.length < 2) { return; }
    var ids = words.slice(1);
    ids.forEach(function (id) { drawnAt[id] = Math.max(shownAt(id), version); });
    regionElements().forEach(function (elt) {
      var url = liveUrl(elt);
      var asks = liveIds(url);
      if (asks.length && asks.every(function (id) { return ids.indexOf(id) >= 0; })) {
        held[url] = Math.max(held[url] || 0, version);
      }
    });
  }

  // The page's own changes in flight (a POST of its forms). A change's event usually comes
  // down the stream before the change's answer (it goes out at the commit, the answer after
  // it is rendered): a region that hears an event meanwhile waits for the answer, which may
  // bring it (noteDrawn), and then asks only if it still needs to.
  var changing = [];
  var waiting = [];

  function eventVersion(triggering) {
    var message = triggering && triggering.detail;
    if (!message || typeof message.data !== "string") { return 0; }
    try { return JSON.parse(message.data).version || 0; } catch (e) { return 0; }
  }

  function eventLines(triggering) {
    var message = triggering && triggering.detail;
    if (!message || typeof message.data !== "string") { return null; }
    try { return JSON.parse(message.data).prepend || null; } catch (e) { return null; }
  }

  // The live elements whose request is in flight: an answer on its way redraws its ids
  // whole, from what the server read before or after the event's change.
  var asking = [];

  function askingFor(ids) {
    return asking.some(function (elt) {
      var url = liveUrl(elt);
      if (elt.hasAttribute("data-live-sync")) { return true; } // every region
      return liveIds(url || "").some(function (id) { return ids.indexOf(id) >= 0; });
    });
  }

  // Put the event's lines in place for the region `elt` asks for, if it was current just
  // before the event, every id it asks for has a line and a list, and no answer on its way
  // will redraw one of them (it might have been drawn before the change: the region then
  // asks, after it); true when done.
  function putLines(elt, url, version, lines) {
    if (!lines || !version || heldVersion(elt, url) !== version - 1) { return false; }
    var ids = liveIds(url);
    if (askingFor(ids)) { return false; }
    var lists = ids.map(function (id) {
      var region = document.getElementById(id);
      return region && typeof lines[id] === "string" ? region.querySelector("[data-live-list]") : null;
    });
    if (!ids.length || lists.some(function (list) { return !list; })) { return false; }
    ids.forEach(function (id, index) {
      var list = lists[index];
      var holder = document.createElement("template");
      holder.innerHTML = lines[id].trim();
      var item = holder.content.firstElementChild;
      if (!item) { return; }
      var key = item.getAttribute("data-live-key");
      // A region drawn after the change (a page's catching up between two of one
      // transaction's announcements) may hold the item already: items say who they are.
      var same = key && Array.prototype.some.call(list.children, function (child) {
        return child.getAttribute("data-live-key") === key;
      });
      if (same) { return; }
      list.insertBefore(item, list.firstElementChild);
      var limit = parseInt(list.getAttribute("data-live-limit") || "0", 10);
      while (limit > 0 && list.children.length > limit) { list.removeChild(list.lastElementChild); }
      htmx.process(item);
      item.dispatchEvent(new CustomEvent("liveLine", { bubbles: true }));
    });
    ids.forEach(function (id) { drawnAt[id] = version; });
    held[url] = version;
    return true;
  }

  function askUnlessHeld(elt, version, issue) {
    if (document.body.contains(elt) && version > heldVersion(elt, liveUrl(elt))) { issue(true); }
  }

  document.body.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    var url = liveUrl(elt);
    if (!url || elt.hasAttribute("data-live-sync")) { return; }
    var version = eventVersion(event.detail.triggeringEvent);
    if (!version) { return; } // not a stream's event (or one without a version): ask
    if (putLines(elt, url, version, eventLines(event.detail.triggeringEvent))) {
      event.preventDefault(); // the event brought what the region lacked
      return;
    }
    if (changing.length) {
      event.preventDefault();
      waiting.push([elt, version, event.detail.issueRequest]);
    } else if (version <= heldVersion(elt, url)) {
      event.preventDefault(); // drawn at that version or later already: nothing to ask
    }
  });

  // Followed on the request itself ("loadend": after htmx has swapped its answer, or after
  // it failed), not through htmx's events on the element: a change's answer often replaces
  // the form that sent it (a party card), and events on an element no longer in the page
  // never reach the body.
  function changed(xhr) {
    var at = changing.indexOf(xhr);
    if (at < 0) { return; }
    changing.splice(at, 1);
    if (xhr.status >= 200 && xhr.status < 300) { noteDrawn(xhr.getResponseHeader("Live-Drawn")); }
    if (changing.length) { return; }
    var now = waiting;
    waiting = [];
    now.forEach(function (entry) { askUnlessHeld(entry[0], entry[1], entry[2]); });
  }

  document.body.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && event.detail.requestConfig && event.detail.requestConfig.verb !== "get") {
      changing.push(xhr);
      xhr.addEventListener("loadend", function () { changed(xhr); });
    }
  });

  document.body.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var url = liveUrl(elt);
    if (!url) { return; }
    var version = heldVersion(elt, url);
    if (elt.hasAttribute("data-live-sync")) {
      // The reconnection asks for every region: the page holds them all at the oldest's.
      var regions = regionElements();
      if (regions.length) {
        version = Math.min.apply(null, regions.map(function (region) {
          return heldVersion(region, liveUrl(region));
        }));
      }
    }
    event.detail.headers["If-None-Match"] = '"v' + version + '"';
  });

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (liveUrl(event.detail.elt)) { asking.push(event.detail.elt); }
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var at = asking.indexOf(event.detail.elt);
    if (at >= 0) { asking.splice(at, 1); }
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) { event.detail.shouldSwap = false; }
  });

  // A region's answer that lands while a change of this page is on its way (the region was
  // asked before the change was sent) is not swapped now: it would replace the element that
  // sent the change, and the change's answer would then find no place, nor its out-of-band
  // parts (htmx looks them up from the sender's document: "oobErrorNoTarget"). The region
  // asks again once the changes are answered, unless their answers drew it at its version.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    var url = liveUrl(elt);
    var xhr = event.detail.xhr;
    if (!url || !changing.length || !event.detail.shouldSwap || !xhr || xhr.status !== 200) {
      return;
    }
    var tag = /^"v(\d+)"$/.exec(xhr.getResponseHeader("ETag") || "");
    event.detail.shouldSwap = false;
    xhr.liveDeferred = true; // its version is not held: it was not drawn
    waiting.push([elt, tag ? parseInt(tag[1], 10) : Infinity, function () {
      htmx.ajax("GET", url, { source: elt });
    }]);
  });

  // Answers that arrive out of order: two elements whose regions overlap (the reconnection's,
  // which draws every region, and one region's own) may each have an answer on its way, and
  // the one asked first may arrive last. Every answer says the version it was drawn at, and
  // the page remembers, for each DOM id, the version of what it shows there (drawnAt). An
  // answer older than what the page shows for any id it holds (nested ones too: the party
  // holds its cards) is not drawn at all, since drawing part of it would mean editing its
  // HTML. If it held something newer than what the page shows for some other id, the element
  // asks again: the server's version only grows, so that answer is at least as new as
  // anything the page shows, and it is drawn whole.
  var drawnAt = {}; // DOM id -> the version of what the page shows there, when it is known
  var pageVersion = parseInt((document.querySelector("[data-live-version]") ||
                              document.body).getAttribute("data-live-version") || "0", 10);

  function shownAt(id) { return id in drawnAt ? drawnAt[id] : pageVersion; }

  function answerVersion(xhr) {
    var tag = /^"v(\d+)"$/.exec(xhr.getResponseHeader("ETag") || "");
    return tag ? parseInt(tag[1], 10) : 0;
  }

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    var url = liveUrl(elt);
    var xhr = event.detail.xhr;
    var version = xhr && answerVersion(xhr);
    if (!url || !event.detail.shouldSwap || xhr.status !== 200 || !version) { return; }
    var holder = document.createElement("template");
    holder.innerHTML = event.detail.serverResponse;
    var ids = Array.prototype.map.call(holder.content.querySelectorAll("[id]"),
                                       function (node) { return node.id; });
    if (ids.some(function (id) { return shownAt(id) > version; })) {
      event.detail.shouldSwap = false;
      xhr.liveDeferred = true; // not drawn: its version is not held
      if (ids.some(function (id) { return shownAt(id) < version; })) {
        htmx.ajax("GET", url, { source: elt });
      }
      return;
    }
    ids.forEach(function (id) { drawnAt[id] = version; });
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var url = liveUrl(elt);
    var xhr = event.detail.xhr;
    if (!url || !xhr || xhr.status !== 200 || xhr.liveDeferred) { return; }
    var tag = /^"v(\d+)"$/.exec(xhr.getResponseHeader("ETag") || "");
    if (!tag) { return; }
    var version = parseInt(tag[1], 10);
    var urls = [url];
    if (elt.hasAttribute("data-live-sync")) {
      urls = Array.prototype.map.call(document.querySelectorAll("[data-live-version]"), liveUrl);
    }
    urls.forEach(function (each) { if (each) { held[each] = Math.max(held[each] || 0, version); } });
  });

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
