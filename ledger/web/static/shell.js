// Every page asks the browser to keep this site's pages on the phone (sw.js), so that they open while the server
// cannot be reached. Browsers allow it only on a secure page: https, or this machine's own address (localhost); on
// a plain http address in the room the pages work as before, online, and the deals tapped still wait on the phone.
//
// An updated server is looked for at each visit, when the phone wakes or comes back online, and every few minutes (a
// scorekeeper's page stays open all evening). Its new worker takes this page over at once (sw.js), and the page is
// loaded again with the new server's scripts and style as soon as nothing would be lost: no deal being tapped, asked
// or waiting, no form being filled in.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var first = !navigator.serviceWorker.controller, controlled = !first;
  var LOOK_AGAIN_MS = 5 * 60 * 1000;
  var registered = navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" });
  registered.catch(function () {});
  if (first) {  // this page came before the worker: it asks for it to be kept too
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ keep: location.pathname + location.search });
    });
  }

  function lookForUpdate() {
    registered.then(function (registration) { return registration.update(); }).catch(function () {});
  }
  window.setInterval(lookForUpdate, LOOK_AGAIN_MS);
  window.addEventListener("online", lookForUpdate);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { lookForUpdate(); }
  });

  function changed(field) {  // a field of a form as the person left it, not as the page was drawn
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (option) {
        return option.selected !== option.defaultSelected;
      });
    }
    return field.type !== "hidden" && field.value !== field.defaultValue;
  }
  function waiting(name) {  // deals of a list of waiting.js still to be sent
    if (!/^calabresella-waiting-\d+$/.test(name)) { return false; }
    try {
      return JSON.parse(localStorage.getItem(name) || "[]").some(function (deal) { return !deal.final; });
    } catch (error) { return false; }
  }
  function idle() {
    return !document.getElementById("asked")
      && !Array.prototype.some.call(document.querySelectorAll("input, select, textarea"), changed)
      && !Object.keys(localStorage).some(waiting);
  }
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (!controlled) { controlled = true; return; }  // the first worker, not a new one
    (function whenIdle() {
      if (idle()) { window.location.reload(); } else { window.setTimeout(whenIdle, 1000); }
    })();
  });
})();
