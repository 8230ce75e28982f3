// The live table (docs/architecture.md, "The live table"). htmx's SSE extension does the
// rest: it opens the page's stream (sse-connect on <main>) and fires each named event on the
// hidden elements of templates/_live.html that listen for it (hx-trigger="sse:<name>"); each
// then asks its page for its regions alone (hx-get "?live=<id>&live=<id>") and htmx swaps
// every id of the answer into the page (hx-select-oob). This file adds what they lack:
//
// 1. Reconnecting (LiveSource): a jittered, doubling wait, about a second apart in the window
//    after the server said it restarts; the seat closed or changed; the status line; and
//    once back, one request for every region ("liveSync") at a random moment.
// 2. The version gate: the page knows the version of what it shows for each id, asks with it
//    (If-None-Match; an unchanged region answers 304), asks nothing for an event it is
//    already drawn at, and never draws an answer older than what it shows.
// 3. The own-change wait: while the page's own POST is on its way, regions wait for its
//    answer, which may bring them (Live-Drawn).
// 4. The lines: a roll's line that comes with its event goes at the head of its list.
// 5. The regions a change redraws, brought by the stream (liveRegions): drawn behind the
//    version gate, and then not asked for.
(function () {
  "use strict";

  // How the page reconnects and catches up, in ms: the page carries them (core.live.TIMINGS,
  // <main data-live-timings>, which says what each is), as the benchmarks' pages read them.
  var T = {};
  try {
    T = JSON.parse(document.querySelector("[data-live-timings]").getAttribute("data-live-timings"));
  } catch (e) { T = {}; } // a page without a stream: nothing here runs

  function status(text) {
    var line = document.getElementById("live-status");
    if (line) { line.textContent = text; line.hidden = !text; }
  }

  // The JSON of a stream's frame ({} for none: an event that is not a stream's).
  function frame(message) {
    try { return JSON.parse(message.data) || {}; } catch (e) { return {}; }
  }

  // 1. Reconnecting. A bare EventSource retries after the stream's fixed `retry:` (2 s), and
  // the extension's own reconnection doubles without jitter, so pages that dropped together
  // (Redis or the server went away) would come back together, again and again. The extension
  // builds its source with htmx.createEventSource: a LiveSource is one with the same
  // interface over one EventSource at a time. When that one fails, it is closed (no retry by
  // the browser) and the next opened after a delay between half of a ceiling and all of it
  // ("equal jitter"), the ceiling doubling per failure in a row. Its readyState is never
  // CLOSED until it is closed for good, so the extension never reconnects by itself; its
  // listeners are kept here and moved to each new EventSource.
  function LiveSource(url) {
    this.url = url;
    this.listeners = [];
    this.opened = false;
    this.failures = this.openedAt = this.restartingSince = 0; // openedAt: 0 while not open
    this.connect();
  }

  LiveSource.prototype.connect = function () {
    var self = this;
    var source = new EventSource(this.url, { withCredentials: true });
    this.source = source;
    this.readyState = EventSource.CONNECTING;
    this.listeners.forEach(function (pair) { source.addEventListener(pair[0], pair[1]); });
    // campaigns/live.py: the viewer lost their seat, or it changed (the GM seat handed over).
    source.addEventListener("liveClosed", function (event) {
      source.close();
      self.source = null;
      if (frame(event).changed !== true) {
        self.close();
        status("You are no longer seated at this table: live updates have stopped.");
        return;
      }
      // A new stream joins the groups of the seat as it is now. The GM's pages and a
      // player's count versions apart (campaigns.versions): what the page holds means
      // nothing to the new seat, so every region asks once it is back.
      held = {};
      pageVersion = 0;
      self.connect();
      status("Your seat at this table changed: reload the page to see it as it is now.");
    });
    // campaigns/live.py: the server is stopping and back in seconds; try again every second.
    source.addEventListener("liveRestart", function () {
      self.restartingSince = Date.now();
      self.failures = 0;
    });
    // campaigns/live.py: a change's regions on this page, drawn for this page's viewer.
    source.addEventListener("liveRegions", function (event) { drawPushed(frame(event)); });
    // campaigns/live.py: each event is followed by its version and names.
    source.addEventListener("liveVersion", function (event) {
      var note = frame(event);
      if (typeof note.version === "number") { noteVersion(note.version, note.names || []); }
    });
    source.onopen = function (event) {
      self.readyState = EventSource.OPEN;
      self.openedAt = Date.now();
      self.restartingSince = 0;
      status("");
      if (self.opened) { // a reconnection: what happened meanwhile went unheard
        window.setTimeout(function () { htmx.trigger(document.body, "liveSync"); },
                          Math.random() * T.SYNC_SPREAD_MS);
      }
      self.opened = true;
      self.onopen(event);
    };
    source.onerror = function (event) {
      source.close(); // no fixed-delay retry by the browser: we choose when
      if (self.source !== source) { return; } // closed for good, or replaced
      self.source = null;
      if (self.openedAt && Date.now() - self.openedAt >= T.HEALTHY_AFTER_MS) { self.failures = 0; }
      self.openedAt = 0;
      self.readyState = EventSource.CONNECTING;
      status("Live updates paused: reconnecting…");
      self.onerror(event); // the extension's (it closes the source of a page gone)
      if (self.readyState === EventSource.CLOSED) { return; }
      var ceiling = Math.min(T.MAX_DELAY_MS, T.FIRST_DELAY_MS * Math.pow(2, self.failures));
      if (Date.now() - self.restartingSince < T.RESTART_WINDOW_MS) { ceiling = T.RESTART_DELAY_MS; }
      self.failures += 1;
      self.timer = window.setTimeout(function () { self.connect(); },
                                     ceiling / 2 + Math.random() * (ceiling / 2));
    };
  };

  LiveSource.prototype.addEventListener = function (name, listener) {
    this.listeners.push([name, listener]);
    if (this.source) { this.source.addEventListener(name, listener); }
  };

  LiveSource.prototype.removeEventListener = function (name, listener) {
    this.listeners = this.listeners.filter(function (pair) {
      return pair[0] !== name || pair[1] !== listener;
    });
    if (this.source) { this.source.removeEventListener(name, listener); }
  };

  LiveSource.prototype.close = function () {
    this.readyState = EventSource.CLOSED;
    window.clearTimeout(this.timer);
    if (this.source) { this.source.close(); }
    this.source = null;
  };

  htmx.createEventSource = function (url) { return new LiveSource(url); };

  // 2. Versions (campaigns.versions, core/regions.py). Every change the viewer hears of moves
  // the campaign's version, as the viewer counts it, by one; every region answer says the
  // version it was drawn at (ETag: "v<n>"). The page keeps, for each DOM id, the version of
  // what it shows there (held; until an answer draws it, the version the page was drawn at).
  // A region's version is its ids' oldest; the catching-up element's, every region's oldest.
  var held = {};
  var pageVersion = Number((document.querySelector("[data-live-version]") ||
                            document.body).getAttribute("data-live-version")) || 0;

  function at(id) { return id in held ? held[id] : pageVersion; }

  function liveUrl(elt) {
    var url = elt.getAttribute("hx-get") || "";
    return url.indexOf("?live=") >= 0 ? url : null;
  }

  // The page's live elements, one per region (not the catching-up one).
  function regionElements() {
    return Array.from(document.querySelectorAll("[data-live-version]:not([data-live-sync])"));
  }

  // The ids a live element asks for (?live=a&live=b); the catching-up one, every region's.
  function idsOf(elt) {
    if (elt.hasAttribute("data-live-sync")) { return regionElements().flatMap(idsOf); }
    return new URL(liveUrl(elt), location.href).searchParams.getAll("live");
  }

  function versionOf(elt) { return Math.min.apply(null, idsOf(elt).map(at)); }

  // liveVersion: the change `version` touched the ids of the regions that hear one of its
  // `names`. Every other id the page showed current just before it (version - 1) is current
  // at `version` too; one a change this page did not hear of left behind stays where it is.
  function noteVersion(version, names) {
    var regions = regionElements();
    var touched = regions.filter(function (elt) {
      var hears = elt.getAttribute("hx-trigger").split(/,\s*/);
      return names.some(function (name) { return hears.indexOf("sse:" + name) >= 0; });
    }).flatMap(idsOf);
    regions.flatMap(idsOf).forEach(function (id) {
      if (touched.indexOf(id) < 0 && at(id) === version - 1) { held[id] = version; }
    });
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    if (liveUrl(event.detail.elt)) {
      event.detail.headers["If-None-Match"] = '"v' + versionOf(event.detail.elt) + '"';
    }
  });

  // 3. The page's own changes (its POSTs) in flight. A change's event usually comes down the
  // stream before the change's answer (it goes out at the commit, the answer after it is
  // rendered), and that answer may redraw regions of its page out of band, saying which and
  // at what version (Live-Drawn: "42 card-12", core.regions.drawn). So a region that hears
  // an event meanwhile waits, and asks only if the answers did not bring it.
  var changing = []; // their XMLHttpRequests
  var waiting = []; // [live element, version it needs, how it asks]

  // Followed on the request itself ("loadend"), not through htmx's events on the element: a
  // change's answer often replaces the form that sent it, and events on an element no
  // longer in the page never reach the body.
  document.body.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail.xhr;
    if (event.detail.requestConfig.verb === "get") { return; }
    changing.push(xhr);
    xhr.addEventListener("loadend", function () {
      changing.splice(changing.indexOf(xhr), 1);
      var drawn = (xhr.status < 300 && xhr.getResponseHeader("Live-Drawn") || "").trim()
        .split(/\s+/);
      var version = Number(drawn[0]) || 0;
      drawn.slice(1).forEach(function (id) { held[id] = Math.max(at(id), version); });
      if (changing.length) { return; }
      waiting.splice(0).forEach(function (entry) {
        if (document.body.contains(entry[0]) && entry[1] > versionOf(entry[0])) { entry[2](true); }
      });
    });
  });

  // 4. A line with the event (core.live.drawing): data.prepend brings, for a region, the one
  // item its change adds to the region's list ({"campaign-rolls": "<li ...>"}). A region
  // current just before the event puts it at the head of its list (data-live-list), unless
  // an item with its data-live-key is there already (a region drawn after the change), drops
  // what falls past data-live-limit, and asks nothing. Not while an answer that redraws one
  // of its ids is on its way (it may have been drawn before the change: the region then
  // asks, after it). True when done.
  function putLines(elt, version, lines) {
    var ids = idsOf(elt);
    // htmx marks an element whose request is on its way with the class htmx-request.
    var asking = Array.from(document.querySelectorAll("[data-live-version].htmx-request"))
      .flatMap(idsOf);
    if (!lines || !ids.length || versionOf(elt) !== version - 1 ||
        ids.some(function (id) { return asking.indexOf(id) >= 0; })) { return false; }
    var lists = ids.map(function (id) {
      var region = document.getElementById(id);
      return typeof lines[id] === "string" && region && region.querySelector("[data-live-list]");
    });
    if (!lists.every(Boolean)) { return false; }
    ids.forEach(function (id, index) {
      var list = lists[index];
      var holder = document.createElement("template");
      holder.innerHTML = lines[id].trim();
      var item = holder.content.firstElementChild;
      var key = item && item.getAttribute("data-live-key");
      held[id] = version;
      if (!item || key && Array.from(list.children).some(function (child) {
        return child.getAttribute("data-live-key") === key;
      })) { return; }
      list.prepend(item);
      var limit = Number(list.getAttribute("data-live-limit")) || 0;
      while (limit > 0 && list.children.length > limit) { list.lastElementChild.remove(); }
      htmx.process(item);
      item.dispatchEvent(new CustomEvent("liveLine", { bubbles: true }));
    });
    return true;
  }

  // 5. Regions the stream brings (core.live.REGIONS_EVENT): before a change's own frames,
  // the regions of this page that hear it, as this page's viewer sees them at `version`.
  // Drawn as an answer is (htmx's out-of-band swap of each id), never over anything newer
  // the page shows; a region they leave older than the change then asks, as its event
  // arrives.
  function drawPushed(note) {
    if (typeof note.version !== "number" || typeof note.html !== "string") { return; }
    // Drawn before a change of the page that is on its way, they may be older than its
    // answer: the regions ask instead once it is answered, as their events arrive.
    if (changing.length) { return; }
    var holder = document.createElement("template");
    holder.innerHTML = note.html;
    // Each region of the page it brings (as an answer's hx-select-oob, only the page's
    // region ids: a partial may hold more) that the page shows older, with nothing in it
    // newer (the party holds its cards, which a change's answer may have drawn).
    var regions = regionElements().flatMap(idsOf);
    var fresh = Array.from(holder.content.children).filter(function (node) {
      var inner = Array.from(node.querySelectorAll("[id]"), function (elt) { return elt.id; });
      return regions.indexOf(node.id) >= 0 && at(node.id) < note.version &&
        !inner.some(function (id) { return at(id) > note.version; });
    });
    if (!fresh.length) { return; }
    htmx.swap(document.body, note.html, { swapStyle: "none" }, {
      selectOOB: fresh.map(function (node) { return "#" + node.id; }).join(","),
    });
    fresh.forEach(function (node) {
      held[node.id] = note.version;
      node.querySelectorAll("[id]").forEach(function (elt) { held[elt.id] = note.version; });
    });
  }

  document.body.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    var note = frame((event.detail.triggeringEvent || {}).detail || {});
    if (!liveUrl(elt) || !note.version) { return; } // not a stream's event: ask
    if (putLines(elt, note.version, note.prepend)) {
      event.preventDefault(); // the event brought what the region lacked
    } else if (changing.length) {
      event.preventDefault();
      waiting.push([elt, note.version, event.detail.issueRequest]);
    } else if (note.version <= versionOf(elt)) {
      event.preventDefault(); // drawn at that version or later already: nothing to ask
    }
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var url = liveUrl(detail.elt);
    if (!url) { return; }
    if (detail.xhr.status !== 200) { // 304: nothing new since the version asked with
      detail.shouldSwap = false;
      return;
    }
    var tag = /^"v(\d+)"$/.exec(detail.xhr.getResponseHeader("ETag") || "");
    var version = tag ? Number(tag[1]) : Infinity;
    var ask = function () { htmx.ajax("GET", url, { source: detail.elt }); };
    if (changing.length) {
      // Landing while a change of this page is on its way (asked before it was sent), it
      // would replace the element that sent the change, whose answer would then find no
      // place, nor its out-of-band parts (htmx's oobErrorNoTarget). It is not drawn; the
      // region asks again once the changes are answered, unless they drew it.
      detail.shouldSwap = false;
      waiting.push([detail.elt, version, ask]);
      return;
    }
    // Out of order: elements whose regions overlap (the catching-up one draws every region)
    // may have answers on their way at once, and the one asked first may arrive last. An
    // answer older than what the page shows for any id it draws (those it asks for, and
    // every id in it: the party holds its cards) is not drawn. If it was newer than the page
    // for some other id, the element asks again: the server's version only grows, so that
    // answer is at least as new as anything the page shows, and is drawn whole.
    var holder = document.createElement("template");
    holder.innerHTML = detail.serverResponse;
    var ids = idsOf(detail.elt).concat(Array.from(holder.content.querySelectorAll("[id]"),
                                                  function (node) { return node.id; }));
    if (ids.some(function (id) { return at(id) > version; })) {
      detail.shouldSwap = false;
      if (ids.some(function (id) { return at(id) < version; })) { ask(); }
    } else if (tag) {
      ids.forEach(function (id) { held[id] = version; });
    }
  });
})();
