// The record forms are sent by this script. A deal the server takes is shown without loading a page: the server
// answers with the evening page's <main> (the result on top, the new totals, a fresh form and the revision shown),
// which replaces the one here, and the page's address becomes the result's, so that a reload shows it again and
// writes nothing. Whatever else the server answers (a question, a mistake) is shown as the page it is.
//
// Deals recorded while the server cannot be reached, or while this phone may not record (its permission lapsed, the
// scorekeeper's link changed), wait on the phone: the form's fields (its idempotency key among them) are kept in
// localStorage and sent again, with the form token of the page at hand, until the server takes them, so each is
// stored once. The page says how many wait; whatever the server answers then is shown.
(function () {
  "use strict";
  var STORE = "calabresella-waiting";
  var FORMS = "form.guided, form.quick";
  if (!document.getElementById("waiting") || !window.fetch || !window.localStorage) { return; }
  var refused = false;

  function waiting() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (error) { return []; }
  }
  function keep(list) {
    localStorage.setItem(STORE, JSON.stringify(list));
    var notice = document.getElementById("waiting");
    if (!notice) { return; }
    var one = notice.getAttribute("data-one"), many = notice.getAttribute("data-many");
    var said = list.length === 1 ? one : many.replace("{count}", String(list.length));
    notice.textContent = refused ? said + " " + notice.getAttribute("data-relink") : said;
    notice.hidden = list.length === 0;
  }
  function revision(live) {
    var turn = live && live.querySelector(".turn");
    return turn ? Number(turn.getAttribute("data-revision")) : -1;
  }
  function swap(said) {
    var main = document.querySelector("main");
    var before = document.getElementById("live");
    var newer = revision(before);
    main.innerHTML = said.main;
    var live = document.getElementById("live");
    if (live && before && newer > revision(live)) {  // the live feed brought another phone's deal meanwhile
      live.innerHTML = before.innerHTML;
      document.querySelectorAll("input[name=seen_revision]").forEach(function (input) {
        input.value = String(newer);
      });
    }
    window.history.replaceState(null, "", said.location);
    document.querySelectorAll(".lang a[hreflang]").forEach(function (link) {
      link.setAttribute("href", link.pathname + "?next=" + encodeURIComponent(said.location));  // back to the result
    });
    window.scrollTo(0, 0);
    keep(waiting());
  }
  function show(response) {
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") === 0) {
      return response.json().then(swap);
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
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches(FORMS)) { return; }
    event.preventDefault();
    var deal = { action: form.action, fields: new URLSearchParams(new FormData(form)).toString() };
    send(deal).then(function (response) {
      if (sent(deal, response)) { show(response); }
    }, function () {
      keep(waiting().concat([deal]));
    });
  });
  keep(waiting());
  flush();
  window.setInterval(flush, 3000);
  window.addEventListener("online", flush);
})();
