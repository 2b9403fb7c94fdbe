// Deals recorded while the server cannot be reached, or while this phone may not record (its permission lapsed, the
// scorekeeper's link changed), wait on the phone: the form's fields (its idempotency key among them) are kept in
// localStorage and sent again, with the form token of the page at hand, until the server takes them, so each is
// stored once. The page says how many wait; whatever the server answers then (the result, or a question) is shown.
(function () {
  "use strict";
  var STORE = "calabresella-waiting";
  var notice = document.getElementById("waiting");
  var forms = document.querySelectorAll("form.guided, form.quick");
  if (!notice || !window.fetch || !window.localStorage) { return; }
  var refused = false;

  function waiting() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (error) { return []; }
  }
  function keep(list) {
    localStorage.setItem(STORE, JSON.stringify(list));
    var one = notice.getAttribute("data-one"), many = notice.getAttribute("data-many");
    var said = list.length === 1 ? one : many.replace("{count}", String(list.length));
    notice.textContent = refused ? said + " " + notice.getAttribute("data-relink") : said;
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
    var fields = new URLSearchParams(deal.fields);
    var token = document.querySelector("input[name=csrf]");
    if (token) { fields.set("csrf", token.value); }  // this page's token: the one the deal was typed with may be old
    return fetch(deal.action, {
      method: "POST",
      body: fields,
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sent-By": "page" }
    });
  }
  function sent(deal, response) {
    refused = response.status === 401;  // this phone may not record until the scorekeeper's link is opened again
    if (refused) { keep(waiting().concat([deal])); return false; }
    return true;
  }
  var sending = false;
  function flush() {
    var list = waiting();
    if (sending || list.length === 0 || refused) { return; }
    sending = true;
    keep(list.slice(1));
    send(list[0]).then(function (response) {
      sending = false;
      if (!sent(list[0], response)) { return; }
      if (waiting().length) { flush(); } else { show(response); }
    }, function () { sending = false; keep([list[0]].concat(waiting())); });
  }
  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var deal = { action: form.action, fields: new URLSearchParams(new FormData(form)).toString() };
      send(deal).then(function (response) {
        if (sent(deal, response)) { show(response); }
      }, function () {
        keep(waiting().concat([deal]));
      });
    });
  });
  keep(waiting());
  flush();
  window.setInterval(flush, 3000);
  window.addEventListener("online", flush);
})();
