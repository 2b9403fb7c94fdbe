// The record forms are sent by this script, through a list of deals waiting on the phone (localStorage), so that no
// deal tapped is lost: not while the server cannot be reached, nor across a reload, a closed browser or a restarted
// server. Each evening has its own list: a deal waits for its own evening only. Each deal gets its own idempotency key
// when Record is tapped, so each is stored once however often it is sent; the list goes in the order tapped, one deal
// at a time (the server deals in turn: the order makes the dealer right). The page says in words which deals wait.
//
// What the server answers for the first deal of the list:
// - recorded: the evening page's <main> (the result on top, the new totals, a fresh pad), swapped in here with the
//   taps of a deal being tapped meanwhile kept; the address becomes the result's (pushed once, so that Back shows
//   the evening as it is now), and the next deal goes;
// - a question (the rules need one more fact): asked on this page, and the pad answers it (its points, declarer or
//   contract go to the question, Record sends the answer) or, for a fact it has no button for, is locked with a line
//   saying what is asked; the deal stays first until it is answered, the others wait behind it;
// - refused, but it can be corrected: the reason is shown and the deal's facts are put back on the pad; it stays
//   first, the others wait behind it, until it is recorded again or dropped;
// - refused for good (the evening closed, the table's round over): said once, with the deal's words, until the
//   scorekeeper dismisses it; its facts go on no pad, the pad goes, and the deals after it are refused alike;
// - nothing (no connection, the database away) or "open the scorekeeper's link again": the list waits and is sent
//   again.
(function () {
  "use strict";
  var notice = document.getElementById("waiting");
  if (!notice || !window.fetch || !window.localStorage) { return; }
  var STORE = "calabresella-waiting-" + notice.getAttribute("data-evening");
  var PAD = "calabresella-pad-" + notice.getAttribute("data-evening");  // what is tapped, kept through a reload
  var FORMS = "form.guided, form.quick";
  var ANSWERED_BY = { thirds: ["whole", "third", "aces", "figures", "last"], declarer: ["declarer"],
                      contract: ["contract"] };  // the pad's buttons that answer a question, by the fact asked
  var DOUBLE_TAP_MS = 500, DOUBLE_TAP_PX = 40;  // a tap this soon after Record, this near it, is its second tap
  var relink = false, sending = false, asking = null, pushed = false, recordTap = null;

  (function oneListPerEvening() {  // a phone that kept one list for the whole site: each deal to its evening's list
    var old = localStorage.getItem("calabresella-waiting");
    if (old === null) { return; }
    try {
      JSON.parse(old).forEach(function (deal) {
        var found = /\/evenings\/(\d+)\//.exec(deal.action);
        if (!found) { return; }
        var name = "calabresella-waiting-" + found[1];
        localStorage.setItem(name, JSON.stringify(JSON.parse(localStorage.getItem(name) || "[]").concat([deal])));
      });
    } catch (error) { /* unreadable: nothing to move */ }
    localStorage.removeItem("calabresella-waiting");
  })();

  function stored() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (error) { return []; }
  }
  function waiting() { return stored().filter(function (deal) { return !deal.final; }); }
  function keyOf(deal) { return deal.key || new URLSearchParams(deal.fields).get("key"); }
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function keep(list) {
    localStorage.setItem(STORE, JSON.stringify(list));
    show();
  }
  function changed(key, change) {  // the stored list with deal `key` changed (or, when `change` gives null, left out)
    return stored().map(function (deal) { return keyOf(deal) === key ? change(deal) : deal; })
      .filter(function (deal) { return deal !== null; });
  }
  function said(name, deals) {
    return notice.getAttribute(name).replace("{count}", String(deals.length))
      .replace("{deals}", deals.map(function (deal) { return deal.words || "…"; }).join(", "));
  }
  function line(text, button, key) {
    var shown = document.createElement("p");
    shown.textContent = text;
    if (button) {
      var tap = document.createElement("button");
      tap.type = "button";
      tap.className = "secondary " + button;
      tap.textContent = notice.getAttribute("data-" + button);
      if (key) { tap.setAttribute("data-key", key); }
      shown.append(" ", tap);
    }
    notice.append(shown);
  }

  // The list in words, saying what holds it: the server not answering, a question asked, a deal refused (with the
  // button to drop it), a phone that may not record; and each deal refused for good, with the button to dismiss it.
  function show() {
    var all = stored(), list = waiting(), first = list[0];
    notice.textContent = "";
    all.filter(function (deal) { return deal.final; }).forEach(function (deal) {
      line(said("data-final", [deal]).replace("{error}", deal.final), "dismiss", keyOf(deal));
    });
    if (first && first.held) {
      line(notice.getAttribute("data-held").replace("{error}", first.held), "drop");
      if (list.length > 1) { line(said("data-behind", list.slice(1))); }
    } else if (first && asking) {
      if (list.length > 1) { line(said("data-behind", list.slice(1))); }
    } else if (list.length) {
      line(said(list.length === 1 ? "data-one" : "data-many", list));
      if (relink) { line(notice.getAttribute("data-relink")); }
    }
    notice.hidden = !notice.firstChild;
  }

  // The deal on a form, in the words the list shows: `Bruno chiamo 3D@Anna 7+1/3`, as the ledger writes a deal.
  function words(form) {
    var typed = form.querySelector("input[name=line]");
    if (typed) { return typed.value.trim(); }
    function tapped(name) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      return input ? input.value : "";
    }
    if (tapped("declarer") === "pass") { return notice.getAttribute("data-passed"); }
    var holder = form.querySelector("input[name=holder]:checked");  // as its button reads: `chiamante` in Italian
    var card = tapped("rank") + tapped("suit") + (holder ? "@" + holder.closest("label").textContent.trim() : "");
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
  function blank(form) {  // the pad as a fresh page draws it, its count of the cards folded
    form.querySelectorAll("input:checked").forEach(function (input) { input.checked = false; });
    form.querySelectorAll("details.count").forEach(function (count) { count.open = false; });
    var none = form.querySelector("input[name=third][value='']");
    if (none) { none.checked = true; }
    var typed = form.querySelector("input[name=line]");
    if (typed) { typed.value = ""; }
  }
  function fill(form, fields) {
    blank(form);
    fields.forEach(function (pair) {
      var input = form.querySelector("input[name='" + pair[0] + "'][value='" + CSS.escape(pair[1]) + "']");
      if (input && (input.type === "radio" || input.type === "checkbox")) { input.checked = true; }
      else if (pair[0] === "line" && form.querySelector("input[name=line]")) {
        form.querySelector("input[name=line]").value = pair[1];
      }
    });
    var count = form.querySelector("details.count");  // cards counted: shown
    if (count && form.querySelector("details.count input:checked")) { count.open = true; }
  }
  // What is tapped on the pad and typed on the line is kept on the phone for its evening at each tap, so that a page
  // loaded again (the language switched, a reload) shows it as it was; a pad made blank keeps nothing.
  function save() {
    var pad = document.querySelector("form.guided"), typed = document.getElementById("line");
    var kept = { taps: pad ? taps(pad) : [], line: typed ? typed.value : "" };
    try {
      if (kept.taps.length || kept.line) { localStorage.setItem(PAD, JSON.stringify(kept)); }
      else { localStorage.removeItem(PAD); }
    } catch (error) { /* the phone's storage is full: the taps stay on this page only */ }
  }
  function restore() {
    var kept = null, pad = document.querySelector("form.guided"), typed = document.getElementById("line");
    try { kept = JSON.parse(localStorage.getItem(PAD) || "null"); } catch (error) { /* nothing kept */ }
    if (!kept) { return; }
    if (typed && kept.line) { typed.value = kept.line; }
    if (pad && kept.taps.length) {
      fill(pad, kept.taps);
      var tapped = pad.querySelectorAll("input:checked:not([name=third][value=''])");
      if (tapped.length) { next(tapped[tapped.length - 1]); }  // what comes next on the screen, as after a tap
    }
  }
  function clear(form) {
    blank(form);
    save();
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
    var groups = Array.prototype.filter.call(form.querySelectorAll("fieldset:not([disabled])"), function (group) {
      return group.offsetParent !== null;
    });
    var open = groups.slice(groups.indexOf(input.closest("fieldset")) + 1).filter(function (group) {
      return !group.querySelector("input:checked:not([name=third][value=''])");
    });
    var done = input.name === "declarer" && input.value === "pass" || !open.length;
    reveal(done ? record : open[0], record);
  }

  // While a question is asked, the pad answers it or is locked: only the buttons that answer the fact asked can be
  // tapped, and a line under the pad says what is asked.
  function lock(fact) {
    var pad = document.querySelector("form.guided"), quick = document.querySelector("form.quick");
    var question = document.querySelector("#asked h2");
    var answers = ANSWERED_BY[fact] || [];
    if (pad) {
      pad.querySelectorAll("fieldset").forEach(function (group) {
        group.disabled = fact !== null && !answers.some(function (name) {
          return group.querySelector("input[name=" + name + "]");
        });
      });
      pad.querySelector(".record-bar button").disabled = fact !== null && !answers.length;
      var hint = pad.querySelector(".record-bar .hint");
      if (!hint) {
        hint = document.createElement("p");
        hint.className = "hint";
        pad.querySelector(".record-bar").append(hint);
      }
      hint.hidden = fact === null;
      hint.textContent = fact === null ? "" : notice.getAttribute(answers.length ? "data-answering" : "data-locked")
        .replace("{question}", question ? question.textContent.trim() : "");
    }
    if (quick) { quick.querySelectorAll("input, button").forEach(function (input) { input.disabled = fact !== null; }); }
  }

  function revision(live) {
    var turn = live && live.querySelector(".turn");
    return turn ? Number(turn.getAttribute("data-revision")) : -1;
  }
  function swap(answer) {
    var main = document.querySelector("main");
    var pad = document.querySelector("form.guided"), typed = document.getElementById("line");
    var tapping = pad ? taps(pad) : [], text = typed ? typed.value : "";
    var before = document.getElementById("live");
    var newer = revision(before);
    main.innerHTML = answer.main;
    var live = document.getElementById("live");
    if (live && before && newer > revision(live)) {  // the live feed brought another phone's deal meanwhile
      live.innerHTML = before.innerHTML;
      document.querySelectorAll("input[name=seen_revision]").forEach(function (input) {
        input.value = String(newer);
      });
    }
    notice = document.getElementById("waiting") || notice;
    pad = document.querySelector("form.guided");
    if (pad && tapping.length) { fill(pad, tapping); }  // the next deal, tapped while this one went, stays tapped
    if (text && document.getElementById("line")) { document.getElementById("line").value = text; }
    window.history[pushed ? "replaceState" : "pushState"]({ result: true }, "", answer.location);
    pushed = true;
    document.querySelectorAll(".lang a[hreflang]").forEach(function (link) {
      link.setAttribute("href", link.pathname + "?next=" + encodeURIComponent(answer.location));  // back to the result
    });
    if (!tapping.length && !text) { window.scrollTo(0, 0); }
    held();
  }
  function held() {  // a refused deal's facts back on its form
    show();
    var list = waiting();
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
    var form = shown.querySelector("form.question");
    asking = form ? form.querySelector("input[name=asking]").value : "";
    lock(asking);
    show();
    var pad = document.querySelector("form.guided");
    var answering = pad && ANSWERED_BY[asking] && pad.querySelector("fieldset:not([disabled])");
    window.scrollTo(0, 0);
    if (answering) { reveal(answering, pad.querySelector(".record-bar")); } else { reveal(shown, shown); }
  }
  function asked(done) {
    asking = null;
    lock(null);
    var shown = document.getElementById("asked");
    if (shown) { shown.remove(); }
    done();
    flush();
  }
  // The question answered (by its own buttons or box, or by the pad): the deal goes again with the answer.
  function answer(fields) {
    var key = fields.get("key");
    asked(function () {
      keep(changed(key, function (deal) {
        return { action: deal.action, key: key, words: deal.words, line: deal.line, fields: fields.toString() };
      }));
    });
  }
  // For good: this deal and the others waiting cannot be recorded; the pad and the undo go, the reason stays.
  function refusedForGood(reason) {
    keep(stored().map(function (deal) {
      if (!deal.final) { deal.final = reason; delete deal.held; }
      return deal;
    }));
    document.querySelectorAll(FORMS + ", form.undo").forEach(function (form) { form.hidden = true; });
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
      var found = page.querySelector("main .error, main p");
      return found ? found.textContent.trim() : String(response.status);
    });
  }
  function answered(deal, response) {
    var key = keyOf(deal);
    relink = response.status === 401;  // this phone may not record until the scorekeeper's link is opened again
    if (relink || response.status >= 500) { show(); return Promise.resolve(false); }
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") !== 0) {
      return refusal(response).then(function (reason) { hold(key, reason); return false; });
    }
    return response.json().then(function (given) {
      if (given.main) { keep(changed(key, function () { return null; })); swap(given); return true; }
      if (given.question) { ask(given.question); return false; }
      if (given.final) { refusedForGood(given.error); return false; }
      hold(key, given.error);
      return false;
    });
  }
  function hold(key, reason) {
    localStorage.setItem(STORE, JSON.stringify(changed(key, function (deal) { deal.held = reason; return deal; })));
    held();
    save();  // the refused deal's facts are what the pad shows now
  }
  function flush() {
    var list = waiting();
    if (sending || asking !== null || relink || list.length === 0 || list[0].held) { return; }
    sending = true;
    send(list[0]).then(function (response) {
      return answered(list[0], response);
    }).then(function (more) {
      sending = false;
      if (more) { flush(); }
    }, function () {  // no answer: the deal waits where it is
      sending = false;
      show();
    });
  }

  // What the pad says answers the question asked: the question's own fields with the fact as the pad tapped it.
  function fromPad(pad) {
    var question = document.querySelector("#asked form.question");
    var fields = new URLSearchParams(new FormData(question));
    var tapped = taps(pad).filter(function (pair) { return ANSWERED_BY[asking].indexOf(pair[0]) >= 0; });
    if (!tapped.length) { return null; }
    fields.delete(asking);
    ANSWERED_BY[asking].forEach(function (name) { fields.delete(name); });
    tapped.forEach(function (pair) { fields.append(pair[0], pair[1]); });
    return fields;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form.question")) {
      event.preventDefault();
      var fields = new URLSearchParams(new FormData(form));
      if (event.submitter && event.submitter.name) { fields.set(event.submitter.name, event.submitter.value); }
      answer(fields);
      return;
    }
    if (!form.matches(FORMS)) { return; }
    event.preventDefault();
    if (asking !== null) {  // the pad answers the question asked, and makes no deal of its own
      var given = form.matches("form.guided") && ANSWERED_BY[asking] ? fromPad(form) : null;
      if (given) { clear(form); answer(given); } else { reveal(document.getElementById("asked"), form); }
      return;
    }
    var typed = form.querySelector("input[name=line]");
    if (typed ? !typed.value.trim() : !taps(form).length) {  // nothing tapped (a second tap of Record): nothing to send
      reveal(form.querySelector("fieldset") || form, form.querySelector("fieldset") || form);
      return;
    }
    var deal = { action: form.action, key: newKey(), words: words(form) };
    var sent = new URLSearchParams(new FormData(form));
    sent.set("key", deal.key);
    deal.fields = sent.toString();
    if (typed) { deal.line = typed.value.trim(); }
    var list = stored(), first = waiting()[0];
    keep(first && first.held ? changed(keyOf(first), function () { return deal; }) : list.concat([deal]));  // a correction goes first
    clear(form);
    reveal(notice, form.querySelector("fieldset") || form);
    flush();
  });
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.closest("#asked a.cancel")) {  // the question's "write nothing": this deal is dropped, the others go
      event.preventDefault();
      var form = document.querySelector("#asked form");
      var key = form && new URLSearchParams(new FormData(form)).get("key");
      asked(function () { keep(changed(key, function () { return null; })); });
    } else if (target.closest("#waiting .drop")) {
      keep(changed(keyOf(waiting()[0]), function () { return null; }));
      var pad = document.querySelector("form.guided");
      if (pad) { clear(pad); }
      flush();
    } else if (target.closest("#waiting .dismiss")) {
      keep(changed(target.getAttribute("data-key"), function () { return null; }));
    }
  });
  // Record clears the pad and brings the notice of the deal into view, which moves the pad: the second tap of a double
  // tap on Record would land on one of its buttons and light it for the next deal. It is taken for what it was.
  document.addEventListener("click", function (event) {
    var tap = { at: Date.now(), x: event.clientX, y: event.clientY };
    if (event.target.closest("form.guided .record-bar button")) { recordTap = tap; return; }
    var again = recordTap && tap.at - recordTap.at < DOUBLE_TAP_MS && Math.abs(tap.x - recordTap.x) < DOUBLE_TAP_PX
      && Math.abs(tap.y - recordTap.y) < DOUBLE_TAP_PX;
    if (again && event.target.closest("form.guided fieldset")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("form.guided")) { save(); next(event.target); }
  });
  document.addEventListener("input", function (event) {
    if (event.target.id === "line") { save(); }
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
  // A page opened again starts at its top as a new one does: the old scroll put back on a page whose notices changed
  // meanwhile cut the pad's first row off the screen.
  if ("scrollRestoration" in window.history) { window.history.scrollRestoration = "manual"; }
  held();
  restore();
  flush();
  window.setInterval(flush, 3000);
  window.addEventListener("online", flush);
})();
