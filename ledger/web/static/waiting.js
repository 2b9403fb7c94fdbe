// Deals recorded while the server cannot be reached wait on the phone: the form's fields (its idempotency key
// among them) are kept in localStorage and sent again until the server answers, so each is stored once. The page
// says how many wait; whatever the server answers then (the result, or a question) is shown.
(function () {
  "use strict";
  var STORE = "calabresella-waiting";
  var notice = document.getElementById("waiting");
  var forms = document.querySelectorAll("form.guided, form.quick");
  if (!notice || !window.fetch || !window.localStorage) { return; }

  function waiting() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (error) { return []; }
  }
  function keep(list) {
    localStorage.setItem(STORE, JSON.stringify(list));
    var one = notice.getAttribute("data-one"), many = notice.getAttribute("data-many");
    notice.textContent = list.length === 1 ? one : many.replace("{count}", String(list.length));
    notice.hidden = list.length === 0;
  }
  function show(response) {
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") === 0) {
      return response.json().then(function (said) { window.location.assign(said.location); });
    }
    if (response.redirected) { window.location.assign(response.url); return Promise.resolve(); }
    return response.text().then(function (html) { document.open(); document.write(html); document.close(); });
  }
  function send(deal) {
    return fetch(deal.action, {
      method: "POST",
      body: new URLSearchParams(deal.fields),
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sent-By": "page" }
    });
  }
  var sending = false;
  function flush() {
    var list = waiting();
    if (sending || list.length === 0) { return; }
    sending = true;
    send(list[0]).then(function (response) {
      sending = false;
      keep(waiting().slice(1));
      if (waiting().length) { flush(); } else { show(response); }
    }, function () { sending = false; });
  }
  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var deal = { action: form.action, fields: new URLSearchParams(new FormData(form)).toString() };
      send(deal).then(show, function () {
        keep(waiting().concat([deal]));
      });
    });
  });
  keep(waiting());
  flush();
  window.setInterval(flush, 3000);
  window.addEventListener("online", flush);
})();
