// The evening page follows the ledger: each change arrives as a server-sent event carrying the new
// standings and last deals, which replace the old ones; the undo button then guards what is shown. The page says
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
  var lost = false;
  var source = new EventSource(first.getAttribute("data-events"));
  source.addEventListener("evening", function (event) {
    var shown = live(), turn = shown.querySelector(".turn");
    if (turn && Number(turn.getAttribute("data-revision")) > Number(event.lastEventId)) { return; }  // already newer
    shown.innerHTML = event.data;
    document.querySelectorAll("input[name=seen_revision]").forEach(function (input) {
      input.value = event.lastEventId;
    });
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
