// The amend form sends only the facts the scorekeeper changed on its pad (a fact's buttons that still show the deal
// as drawn are left out), with the deal's revision it was drawn from: the ledger then changes those facts alone, and
// refuses the correction, saying what changed, when someone else corrected the deal since. The points (whole, third,
// or counted) and the called card (rank and suit) are one fact each: changed, they go whole.
(function () {
  "use strict";
  var form = document.querySelector("form.amend");
  if (!form) { return; }
  var FACTS = [["declarer"], ["contract"], ["rank", "suit"], ["holder"], ["whole", "third", "aces", "figures", "last"]];
  function state(names) {
    return names.map(function (name) {
      return Array.prototype.filter.call(form.querySelectorAll("input[name=" + name + "]"), function (input) {
        return input.checked;
      }).map(function (input) { return input.value; }).join(",");
    }).join("|");
  }
  var drawn = FACTS.map(state);
  form.addEventListener("submit", function () {
    FACTS.forEach(function (names, at) {
      var same = state(names) === drawn[at];
      names.forEach(function (name) {
        form.querySelectorAll("input[name=" + name + "]").forEach(function (input) { input.disabled = same; });
      });
    });
  });
  window.addEventListener("pageshow", function () {  // Back to the form: every button can be tapped again
    form.querySelectorAll("input[disabled]").forEach(function (input) { input.disabled = false; });
  });
})();
