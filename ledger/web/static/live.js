// The evening page follows the ledger: each change arrives as a server-sent event carrying the new
// standings and last deals, which replace the old ones; the undo button then names and guards what is shown. The page says
// when it has lost the server and when it is back, and follows its table into the next evening. The live part is
// looked up at each event: after a deal, the page's own script puts in a new one (waiting.js).
(function () {
  "use strict";
  var first = document.getElementById("live");
  if (!first || !window.EventSource) { return; }
  var status = document.createElement("p");
  status.className = "connection";
  status.setAttribute("role", "status");
  status.hidden = true;
  function live() {
    var found = document.getElementById("live") || first;
    if (found.parentNode && status.nextSibling !== found) { found.parentNode.insertBefore(status, found); }
    return found;
  }
  live();
  // The undo button names the change it takes back and guards the revision it was drawn at. When the feed brings
  // another change, the button says the new one and waits two seconds: a tap meant for what was shown a moment ago
  // never takes back a change its scorekeeper has not had time to read.
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
    button.disabled = true;
    note.textContent = form.getAttribute("data-wait");
    note.hidden = false;
    window.clearTimeout(guard.timer);
    guard.timer = window.setTimeout(function () { button.disabled = false; note.hidden = true; }, SETTLE_MS);
  }
  var lost = false;
  var source = new EventSource(first.getAttribute("data-events"));
  source.addEventListener("evening", function (event) {
    var shown = live(), turn = shown.querySelector(".turn");
    if (turn && Number(turn.getAttribute("data-revision")) > Number(event.lastEventId)) { return; }  // already newer
    shown.innerHTML = event.data;
    guard(shown.querySelector(".undo-target"));
    var next = shown.querySelector("[data-follow]");
    if (next) { window.location.assign(next.getAttribute("data-follow")); }
  });
  source.addEventListener("error", function () {
    lost = true;
    status.textContent = live().getAttribute("data-lost");
    status.className = "connection lost";
    status.hidden = false;
  });
  source.addEventListener("open", function () {
    if (!lost) { return; }
    lost = false;
    status.textContent = live().getAttribute("data-back");
    status.className = "connection back";
    window.setTimeout(function () { if (!lost) { status.hidden = true; } }, 4000);
  });
})();
