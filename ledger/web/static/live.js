// The evening page follows the ledger: each change arrives as a server-sent event carrying the new
// standings and last deals, which replace the old ones; the undo button then guards what is shown. The page says
// when it has lost the server and when it is back, and follows its table into the next evening.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var status = document.createElement("p");
  status.className = "connection";
  status.setAttribute("role", "status");
  status.hidden = true;
  live.parentNode.insertBefore(status, live);
  var lost = false;
  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("evening", function (event) {
    live.innerHTML = event.data;
    document.querySelectorAll("input[name=seen_revision]").forEach(function (input) {
      input.value = event.lastEventId;
    });
    var next = live.querySelector("[data-follow]");
    if (next) { window.location.assign(next.getAttribute("data-follow")); }
  });
  source.addEventListener("error", function () {
    lost = true;
    status.textContent = live.getAttribute("data-lost");
    status.className = "connection lost";
    status.hidden = false;
  });
  source.addEventListener("open", function () {
    if (!lost) { return; }
    lost = false;
    status.textContent = live.getAttribute("data-back");
    status.className = "connection back";
    window.setTimeout(function () { if (!lost) { status.hidden = true; } }, 4000);
  });
})();
