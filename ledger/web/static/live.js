// The evening page follows the ledger: each change arrives as a server-sent event carrying the new
// standings and last deals, which replace the old ones; the undo button then guards what is shown.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("evening", function (event) {
    live.innerHTML = event.data;
    document.querySelectorAll("input[name=seen_revision]").forEach(function (input) {
      input.value = event.lastEventId;
    });
  });
})();
