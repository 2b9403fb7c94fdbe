// The page for an address this phone never opened, while the server cannot be reached: the evenings it did open
// (kept by sw.js), each a link, and the deals waiting on the phone for each evening (waiting.js keeps them).
(function () {
  "use strict";
  var list = document.getElementById("kept"), none = document.getElementById("none-kept");
  var evenings = [];
  function shown() {
    evenings.sort(function (a, b) { return b - a; });
    evenings.forEach(function (number) {
      var item = document.createElement("li"), link = document.createElement("a");
      link.href = "/evenings/" + number;
      link.textContent = list.getAttribute("data-evening").replace("{number}", number);
      item.append(link);
      list.append(item);
    });
    none.hidden = evenings.length > 0;
  }
  if (window.caches) {
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("calabresella-") === 0; })
        .map(function (name) { return caches.open(name).then(function (cache) { return cache.keys(); }); }));
    }).then(function (all) {
      all.forEach(function (requests) {
        requests.forEach(function (request) {
          var found = /^\/evenings\/(\d+)$/.exec(new URL(request.url).pathname);
          if (found && evenings.indexOf(Number(found[1])) < 0) { evenings.push(Number(found[1])); }
        });
      });
      shown();
    }, shown);
  } else {
    shown();
  }
  var notice = document.getElementById("waiting-everywhere");
  Object.keys(localStorage).forEach(function (name) {
    var found = /^calabresella-waiting-(\d+)$/.exec(name);
    var deals = found ? JSON.parse(localStorage.getItem(name) || "[]") : [];
    if (!deals.length) { return; }
    var line = document.createElement("p");
    line.className = "connection lost";
    line.textContent = notice.getAttribute(deals.length === 1 ? "data-one" : "data-many")
      .replace("{evening}", found[1]).replace("{count}", String(deals.length))
      .replace("{deals}", deals.map(function (deal) { return deal.words || "…"; }).join(", "));
    notice.append(line);
  });
})();
