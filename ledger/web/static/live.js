// The evening page follows the ledger: each change arrives as a server-sent event carrying the new standings and last
// deals, which replace the old ones; the undo button then names and guards what is shown. The page says when it has
// lost the server (the stream broke, or stayed silent for two of the server's keep-alives: a stalled access point)
// and when it is back, and follows its table into the next evening. The live part is looked up at each event: after a
// deal, the page's own script puts in a new one (waiting.js).
//
// What the page last heard of its evening is kept on the phone: a page opened again while the server cannot be
// reached (kept by sw.js) shows the last standings it knew, said to be of the time they were heard.
(function () {
  "use strict";
  var first = document.getElementById("live");
  if (!first || !window.EventSource) { return; }
  var status = document.createElement("p");
  status.className = "connection";
  status.setAttribute("role", "status");
  status.hidden = true;
  function live() {  // the live part; the connection's line above it, or on the scorekeeper's phone above the totals
    var found = document.getElementById("live") || first, above = document.getElementById("totals") || found;
    if (above.parentNode && status.nextSibling !== above) { above.parentNode.insertBefore(status, above); }
    return found;
  }
  live();
  function revision(shown) {
    var turn = shown.querySelector(".turn");
    return turn ? Number(turn.getAttribute("data-revision")) : -1;
  }
  // The totals' line above the scorekeeper's pad, as the live part shown carries it.
  function totals(shown) {
    var line = document.getElementById("totals"), given = shown.querySelector("template.totals");
    if (line && given) { line.replaceChildren(given.content.cloneNode(true)); }
  }
  // What the scorekeeper's page offers (its pad, its undo) follows whether the evening is open and, at a club table,
  // whether its round is on (`data-writes`): when the live part says that changed since the page was drawn, the page is
  // drawn again, as a reload would (the taps and the deals waiting are kept: waiting.js). A table whose round ended
  // thus says so, and offers no pad and no undo. Only a page drawn before that change is drawn again: a reload that
  // brought back an older copy (the one the phone kept, the server out of reach or slow) is tried again at the feed's
  // next word, up to REDRAWS times for one change.
  var REDRAWN = "calabresella-redrawn", REDRAWS = 3;
  function writes(shown) {
    var turn = shown.querySelector(".turn");
    return turn ? turn.getAttribute("data-writes") : "";
  }
  function drawnFor(shown) {  // the live part as it was drawn: what it offered, and at which revision
    if (!shown.hasAttribute("data-drawn-for")) {
      shown.setAttribute("data-drawn-for", writes(shown));
      shown.setAttribute("data-drawn-at", String(revision(shown)));
    }
    return shown.getAttribute("data-drawn-for");
  }
  function redraw(shown, was) {
    var change = location.pathname + " " + revision(shown) + " " + writes(shown);
    var asked = (sessionStorage.getItem(REDRAWN) || "").split("\n"), times = asked[0] === change ? Number(asked[1]) : 0;
    if (writes(shown) === was || !document.getElementById("waiting") || times >= REDRAWS
        || Number(shown.getAttribute("data-drawn-at")) >= revision(shown)) {
      return;
    }
    sessionStorage.setItem(REDRAWN, change + "\n" + (times + 1));
    window.location.reload();
  }
  drawnFor(first);
  var KEPT = first.getAttribute("data-kept");  // where the last standings heard are kept (an evening's page only)
  var heardAt = Date.parse(first.getAttribute("data-drawn")) || Date.now();  // when what is shown was current
  if (KEPT) {
    try {
      var kept = JSON.parse(localStorage.getItem(KEPT) || "null");
      if (kept && kept.revision > revision(first)) { first.innerHTML = kept.html; heardAt = kept.at; totals(first); }
    } catch (error) { /* nothing kept */ }
  }

  // The undo button names the change it takes back and guards the revision it was drawn at. When the feed brings
  // another change, the button says the new one, its tick is cleared, and it waits two seconds: a tap meant for what
  // was shown a moment ago never takes back a change its scorekeeper has not had time to read.
  var SETTLE_MS = 2000;
  function guard(target) {
    var form = document.querySelector("form.undo");
    if (!form) { return; }
    var button = form.querySelector("button"), seen = form.querySelector("input[name=seen_revision]");
    var note = form.querySelector(".hint");
    form.hidden = !target;
    if (!target || (button.textContent === target.textContent && seen.value === target.getAttribute("data-revision"))) {
      seen.value = target ? target.getAttribute("data-revision") : seen.value;
      return;
    }
    button.textContent = target.textContent;
    seen.value = target.getAttribute("data-revision");
    form.querySelector("input[name=confirm]").checked = false;
    button.disabled = true;
    note.textContent = form.getAttribute("data-wait");
    note.hidden = false;
    window.clearTimeout(guard.timer);
    guard.timer = window.setTimeout(function () { button.disabled = false; note.hidden = true; }, SETTLE_MS);
  }
  // The result of a deal this phone recorded, when another phone took that deal back meanwhile, says so.
  function takenBack(shown) {
    var result = document.querySelector("main .result[data-deal]:not(.asked)");
    var number = result && result.getAttribute("data-deal");
    if (number && shown.querySelector("tbody.voided[data-deal='" + number + "']")) {
      var heading = result.querySelector("h2");
      if (heading) { heading.textContent = result.getAttribute("data-taken"); }
      result.classList.add("taken");
    }
  }
  guard(first.querySelector(".undo-target"));

  var lost = false, source = null, lastId = null;  // the last event's id: a new connection says it (`seen`)
  var quietMs = 2 * 1000 * Number(first.getAttribute("data-alive-seconds")) + 5000;
  var lastHeard = Date.now();
  function timeOf(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  }
  // The line above the scorekeeper's pad comes and goes with the connection, by itself: the pad keeps its place on the
  // screen meanwhile (the page scrolls by as much as the line takes or gives back), never moving under a finger.
  function steady(change) {
    var pad = document.querySelector("form.guided"), before = pad && pad.getBoundingClientRect().top;
    change();
    if (pad) { window.scrollBy(0, pad.getBoundingClientRect().top - before); }
  }
  function lose() {
    lost = true;
    steady(function () {
      status.textContent = live().getAttribute("data-lost").replace("{time}", timeOf(heardAt));
      status.className = "connection lost";
      status.hidden = false;
    });
  }
  // Back: the line says so, and four seconds later goes. A line that went with the page a deal brought in (the deals
  // waiting went before the feed was back) stays away: that page is the server's own, just drawn.
  function heard() {
    lastHeard = Date.now();
    if (!lost) { return; }
    lost = false;
    if (!status.isConnected) { status.hidden = true; return; }
    steady(function () {
      status.textContent = live().getAttribute("data-back");
      status.className = "connection back";
    });
    window.setTimeout(function () { if (!lost) { steady(function () { status.hidden = true; }); } }, 4000);
  }
  function connect() {
    var address = first.getAttribute("data-events");
    source = new EventSource(lastId === null ? address : address.replace(/seen=\d+/, "seen=" + lastId));
    lastHeard = Date.now();
    source.addEventListener("evening", function (event) {
      heard();
      lastId = event.lastEventId || lastId;
      var shown = live(), was = drawnFor(shown);
      if (revision(shown) > Number(event.lastEventId)) { return; }  // already newer
      shown.innerHTML = event.data;
      totals(shown);
      heardAt = Date.now();
      if (KEPT) {
        try {
          localStorage.setItem(KEPT, JSON.stringify({ revision: revision(shown), html: event.data, at: heardAt }));
        } catch (error) { /* the phone's storage is full: the page still follows */ }
      }
      guard(shown.querySelector(".undo-target"));
      takenBack(shown);
      var next = shown.querySelector("[data-follow]");
      if (next) { window.location.assign(next.getAttribute("data-follow")); } else { redraw(shown, was); }
    });
    source.addEventListener("alive", heard);
    source.addEventListener("open", heard);
    source.addEventListener("error", lose);
  }
  connect();
  // A connection that stays open but brings nothing (an access point gone quiet) is seen too: after two keep-alives
  // missed, the page says so and connects again; it is back when bytes flow. One the browser gave up on (the server
  // answered with an error page) is opened again too.
  window.setInterval(function () {
    if (Date.now() - lastHeard > quietMs || source.readyState === EventSource.CLOSED) {
      lose();
      source.close();
      connect();
    }
  }, 5000);
})();
