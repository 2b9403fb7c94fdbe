// Every page asks the browser to keep this site's pages on the phone (sw.js), so that they open while the server
// cannot be reached. Browsers allow it only on a secure page: https, or this machine's own address (localhost); on
// a plain http address in the room the pages work as before, online, and the deals tapped still wait on the phone.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var first = !navigator.serviceWorker.controller;
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(function () {});
  if (first) {  // this page came before the worker: it asks for it to be kept too
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ keep: location.pathname + location.search });
    });
  }
})();
