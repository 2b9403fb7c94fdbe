// The record forms are sent by this script, through a list of deals waiting on the phone (localStorage), so that no
// deal tapped is lost: not while the server cannot be reached, nor across a reload, a closed browser or a restarted
// server. Each deal gets its own idempotency key when Record is tapped, so each is stored once however often it is
// sent; the list goes in the order tapped, one deal at a time (the server deals in turn: the order makes the dealer
// right). The page says in words which deals wait.
//
// What the server answers for the first deal of the list:
// - recorded: the evening page's <main> (the result on top, the new totals, a fresh pad), swapped in here with the
//   taps of a deal being tapped meanwhile kept; the address becomes the result's (pushed once, so that Back shows
//   the evening as it is now), and the next deal goes;
// - a question (the rules need one more fact): asked on this page; the deal stays first until it is answered, the
//   others wait behind it;
// - refused: the reason is shown and the deal's facts are put back on the pad; it stays first, the others wait,
//   until it is recorded again or dropped;
// - nothing (no connection, the database away) or "open the scorekeeper's link again": the list waits and is sent
//   again.
(function () {
  "use strict";
  var STORE = "calabresella-waiting";
  var FORMS = "form.guided, form.quick";
  if (!document.getElementById("waiting") || !window.fetch || !window.localStorage) { return; }
  var relink = false, sending = false, asking = false, pushed = false;

  function waiting() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (error) { return []; }
  }
  function keyOf(deal) { return deal.key || new URLSearchParams(deal.fields).get("key"); }
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function keep(list) {
    localStorage.setItem(STORE, JSON.stringify(list));
    show(list);
  }
  function without(key) {
    return waiting().filter(function (deal) { return keyOf(deal) !== key; });
  }

  // The list in words, with what stops it: a deal refused (and the button to drop it), or a phone that may not record.
  function show(list) {
    var notice = document.getElementById("waiting");
    if (!notice) { return; }
    var said = notice.getAttribute(list.length === 1 ? "data-one" : "data-many");
    var words = list.map(function (deal) { return deal.words || "…"; }).join(", ");
    notice.textContent = said.replace("{count}", String(list.length)).replace("{deals}", words);
    if (relink) { notice.append(" " + notice.getAttribute("data-relink")); }
    if (list.length && list[0].held) {
      var held = document.createElement("p");
      held.textContent = notice.getAttribute("data-held").replace("{error}", list[0].held);
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "secondary drop";
      drop.textContent = notice.getAttribute("data-drop");
      notice.append(held, drop);
    }
    notice.hidden = list.length === 0;
  }

  // The deal on a form, in the words the list shows: `Bruno chiamo 3D@Anna 7+1/3`, as the ledger writes a deal.
  function words(form) {
    var line = form.querySelector("input[name=line]");
    if (line) { return line.value.trim(); }
    function tapped(name) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      return input ? input.value : "";
    }
    if (tapped("declarer") === "pass") { return document.getElementById("waiting").getAttribute("data-passed"); }
    var card = tapped("rank") + tapped("suit") + (tapped("holder") ? "@" + tapped("holder") : "");
    var whole = tapped("whole"), third = tapped("third");
    var points = whole && third && whole !== "0" ? whole + "+" + third : third || whole;
    if (!points && (tapped("aces") || tapped("figures") || tapped("last"))) {
      points = (tapped("aces") || "0") + "a" + (tapped("figures") || "0") + "f" + (tapped("last") ? "+u" : "");
    }
    return [tapped("declarer"), tapped("contract"), card, points].filter(Boolean).join(" ");
  }
  function taps(form) {  // what is tapped on a pad (the thirds' "+0" is what a fresh pad shows)
    return Array.prototype.filter.call(form.querySelectorAll("input:checked"), function (input) {
      return !(input.name === "third" && input.value === "");
    }).map(function (input) { return [input.name, input.value]; });
  }
  function clear(form) {
    form.querySelectorAll("input:checked").forEach(function (input) { input.checked = false; });
    var none = form.querySelector("input[name=third][value='']");
    if (none) { none.checked = true; }
    var line = form.querySelector("input[name=line]");
    if (line) { line.value = ""; }
  }
  function fill(form, fields) {
    clear(form);
    fields.forEach(function (pair) {
      var input = form.querySelector("input[name='" + pair[0] + "'][value='" + CSS.escape(pair[1]) + "']");
      if (input && (input.type === "radio" || input.type === "checkbox")) { input.checked = true; }
      else if (pair[0] === "line" && form.querySelector("input[name=line]")) {
        form.querySelector("input[name=line]").value = pair[1];
      }
    });
  }

  // Scrolling only as far as needed to show `first` down to `last` (or at least `first`).
  function reveal(first, last) {
    var top = first.getBoundingClientRect().top, bottom = last.getBoundingClientRect().bottom;
    if (bottom - top > window.innerHeight) { bottom = first.getBoundingClientRect().bottom; }
    if (top < 0 || bottom - top > window.innerHeight) { window.scrollBy(0, top); }
    else if (bottom > window.innerHeight) { window.scrollBy(0, bottom - window.innerHeight); }
  }
  // After a tap on the pad, what comes next is put on the screen: the next group of buttons with nothing tapped yet
  // (Record when there is none), with Record if it fits.
  function next(input) {
    var form = input.form, record = form.querySelector(".record-bar");
    if (!form.matches("form.guided") || !record) { return; }
    var groups = Array.prototype.filter.call(form.querySelectorAll("fieldset"), function (group) {
      return group.offsetParent !== null;
    });
    var open = groups.slice(groups.indexOf(input.closest("fieldset")) + 1).filter(function (group) {
      return !group.querySelector("input:checked:not([name=third][value=''])");
    });
    var done = input.name === "declarer" && input.value === "pass" || !open.length;
    reveal(done ? record : open[0], record);
  }

  function revision(live) {
    var turn = live && live.querySelector(".turn");
    return turn ? Number(turn.getAttribute("data-revision")) : -1;
  }
  function swap(said) {
    var main = document.querySelector("main");
    var pad = document.querySelector("form.guided"), line = document.getElementById("line");
    var tapping = pad ? taps(pad) : [], typed = line ? line.value : "";
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
    pad = document.querySelector("form.guided");
    if (pad && tapping.length) { fill(pad, tapping); }  // the next deal, tapped while this one went, stays tapped
    if (typed && document.getElementById("line")) { document.getElementById("line").value = typed; }
    window.history[pushed ? "replaceState" : "pushState"]({ result: true }, "", said.location);
    pushed = true;
    document.querySelectorAll(".lang a[hreflang]").forEach(function (link) {
      link.setAttribute("href", link.pathname + "?next=" + encodeURIComponent(said.location));  // back to the result
    });
    if (!tapping.length && !typed) { window.scrollTo(0, 0); }
    held(waiting());
  }
  function held(list) {  // a refused deal's facts back on its form
    show(list);
    var form = list.length && list[0].held && document.querySelector(list[0].line ? "form.quick" : "form.guided");
    if (form) { fill(form, Array.from(new URLSearchParams(list[0].fields))); }
  }
  function ask(question) {
    var shown = document.getElementById("asked");
    if (!shown) {
      shown = document.createElement("section");
      shown.id = "asked";
      shown.className = "result asked";
      var record = document.getElementById("record");
      record.insertBefore(shown, record.firstChild);
    }
    shown.innerHTML = question;
    window.scrollTo(0, 0);
    reveal(shown, shown);
  }
  function asked(done) {
    asking = false;
    var shown = document.getElementById("asked");
    if (shown) { shown.remove(); }
    done();
    flush();
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
  function refusal(response) {  // the reason a page gives, in its own words
    return response.text().then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var said = page.querySelector("main .error, main p");
      return said ? said.textContent.trim() : String(response.status);
    });
  }
  function answered(deal, response) {
    var key = keyOf(deal);
    relink = response.status === 401;  // this phone may not record until the scorekeeper's link is opened again
    if (relink || response.status >= 500) { show(waiting()); return Promise.resolve(false); }
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") !== 0) {
      return refusal(response).then(function (said) { hold(key, said); return false; });
    }
    return response.json().then(function (said) {
      if (said.main) { keep(without(key)); swap(said); return true; }
      if (said.question) { asking = true; show(waiting()); ask(said.question); return false; }
      hold(key, said.error);
      return false;
    });
  }
  function hold(key, reason) {
    var list = waiting().map(function (deal) {
      if (keyOf(deal) === key) { deal.held = reason; }
      return deal;
    });
    localStorage.setItem(STORE, JSON.stringify(list));
    held(list);
  }
  function flush() {
    var list = waiting();
    if (sending || asking || relink || list.length === 0 || list[0].held) { return; }
    sending = true;
    send(list[0]).then(function (response) {
      return answered(list[0], response);
    }).then(function (more) {
      sending = false;
      if (more) { flush(); }
    }, function () {  // no answer: the deal waits where it is
      sending = false;
      show(waiting());
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form.question")) {
      event.preventDefault();
      var fields = new URLSearchParams(new FormData(form));
      if (event.submitter && event.submitter.name) { fields.set(event.submitter.name, event.submitter.value); }
      var key = fields.get("key");
      asked(function () {
        keep(waiting().map(function (deal) {
          return keyOf(deal) === key ? { action: deal.action, key: key, words: deal.words, line: deal.line, fields: fields.toString() } : deal;
        }));
      });
      return;
    }
    if (!form.matches(FORMS)) { return; }
    event.preventDefault();
    var line = form.querySelector("input[name=line]");
    if (line ? !line.value.trim() : !taps(form).length) {  // nothing tapped (a second tap of Record): nothing to send
      reveal(form.querySelector("fieldset") || form, form.querySelector("fieldset") || form);
      return;
    }
    var deal = { action: form.action, key: newKey(), words: words(form) };
    var sent = new URLSearchParams(new FormData(form));
    sent.set("key", deal.key);
    deal.fields = sent.toString();
    if (line) { deal.line = line.value.trim(); }
    var list = waiting();
    keep(list.length && list[0].held ? [deal].concat(list.slice(1)) : list.concat([deal]));  // a correction goes first
    clear(form);
    reveal(document.getElementById("waiting"), form.querySelector("fieldset") || form);
    flush();
  });
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.closest("#asked a.cancel")) {  // the question's "write nothing": this deal is dropped, the others go
      event.preventDefault();
      var form = document.querySelector("#asked form");
      var key = form && new URLSearchParams(new FormData(form)).get("key");
      asked(function () { keep(without(key)); });
    } else if (target.closest("#waiting .drop")) {
      var list = waiting();
      keep(list.slice(1));
      var pad = document.querySelector("form.guided");
      if (pad) { clear(pad); }
      flush();
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("form.guided")) { next(event.target); }
  });
  document.addEventListener("toggle", function (event) {
    var count = event.target;
    if (count.open && count.closest("form.guided")) { reveal(count, count.closest("form").querySelector(".record-bar")); }
  }, true);
  window.addEventListener("popstate", function () {  // Back to the evening: as it is now, without the last result
    var result = document.querySelector("main .result:not(.asked)");
    if (result) { result.remove(); }
    pushed = false;
  });
  held(waiting());
  flush();
  window.setInterval(flush, 3000);
  window.addEventListener("online", flush);
})();
