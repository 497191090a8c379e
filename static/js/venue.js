// The venue screen and its overlay (results/views/venue.py) keep themselves up to date:
// every data-interval seconds they fetch the event's snapshot (data-json: statuses of the
// current round's tables, the round, the top of the released standings) and redraw what
// changed; between fetches the round's clock ticks here, set by the server's time.
// Every word comes from the page's data-* attributes (translated there); text is placed
// with textContent only. No inline script: the Content-Security-Policy forbids it.
(function () {
  "use strict";
  var root = document.body;
  if (!root || !root.hasAttribute("data-venue")) return;
  var url = root.getAttribute("data-json");
  var interval = Math.max(2, parseInt(root.getAttribute("data-interval"), 10) || 10) * 1000;
  var top = parseInt(root.getAttribute("data-top"), 10) || 10;
  var decimal = root.getAttribute("data-decimal") || ".";
  var state = null;
  var offset = 0; // the server's clock minus ours, in seconds

  function word(name) {
    return root.getAttribute("data-" + name) || "";
  }

  function fill(pattern, values) {
    return pattern.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function setText(id, text) {
    var el = byId(id);
    if (el && el.textContent !== text) el.textContent = text;
    return el;
  }

  function clockText(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor(seconds / 60) % 60;
    var s = seconds % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var box = byId("venue-clock-box");
    if (!box || !state) return;
    var rnd = state.round;
    if (state.complete) {
      box.hidden = false;
      setText("venue-clock", word("complete"));
      setText("venue-clock-label", "");
      return;
    }
    var start = rnd ? (rnd.starts_at !== null ? rnd.starts_at : rnd.released_at) : null;
    if (start === null) {
      box.hidden = true;
      return;
    }
    var seconds = Math.round(Date.now() / 1000 + offset - start);
    box.hidden = false;
    setText("venue-clock", clockText(Math.abs(seconds)));
    setText("venue-clock-label", word(seconds >= 0 ? "clock-since" : "clock-until"));
  }

  function drawRound(data) {
    var rnd = data.round;
    setText(
      "venue-round",
      rnd ? fill(word("round-text"), { n: rnd.number, total: data.event.rounds }) : word("no-round")
    );
    setText(
      "venue-progress",
      rnd ? fill(word("progress-text"), { done: data.done, total: data.tables.length }) : ""
    );
    var sep = document.querySelector(".venue-round .sep");
    if (sep) sep.hidden = !rnd;
    var next = byId("venue-next");
    if (next) {
      var n = data.next;
      next.hidden = !n;
      if (n) {
        setText(
          "venue-next",
          n.starts_text
            ? fill(word("next-text"), { n: n.number, time: n.starts_text })
            : fill(word("next-untimed"), { n: n.number })
        );
      }
    }
  }

  function drawTables(data) {
    var list = byId("venue-tables");
    if (!list) return;
    var cards = [];
    data.tables.forEach(function (t) {
      var li = document.createElement("li");
      li.className = "table-card status-" + t.status;
      li.setAttribute("data-table", t.number);
      li.setAttribute("data-status", t.status);
      var no = document.createElement("span");
      no.className = "table-no";
      no.textContent = word("table-label") + " " + t.number;
      var status = document.createElement("span");
      status.className = "table-status";
      status.textContent = word("status-" + t.status);
      li.appendChild(no);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(status);
      cards.push(li);
    });
    list.replaceChildren.apply(list, cards);
    var none = byId("venue-no-tables");
    if (none) none.hidden = data.tables.length > 0;
  }

  function drawStandings(data) {
    var body = byId("venue-standings");
    if (!body) return;
    var rows = data.standings.slice(0, top).map(function (r) {
      var tr = document.createElement("tr");
      [
        ["num rank", r.rank + (r.tied ? "=" : "")],
        ["name", r.name],
        ["num points", r.points.replace(".", decimal)],
        ["num", r.games],
      ].forEach(function (cell) {
        var td = document.createElement("td");
        td.className = cell[0];
        td.textContent = cell[1];
        tr.appendChild(td);
      });
      return tr;
    });
    if (!rows.length) {
      var tr = document.createElement("tr");
      tr.className = "empty";
      var td = document.createElement("td");
      td.colSpan = 4;
      td.textContent = word("no-standings");
      tr.appendChild(td);
      rows.push(tr);
    }
    body.replaceChildren.apply(body, rows);
  }

  function draw(data) {
    state = data;
    drawRound(data);
    drawTables(data);
    drawStandings(data);
    tick();
  }

  function offline(lost) {
    var note = byId("venue-offline");
    if (note) note.hidden = !lost;
    root.classList.toggle("stale", lost);
  }

  function poll() {
    fetch(url, { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (data) {
        offset = data.now - Date.now() / 1000;
        offline(false);
        draw(data);
      })
      .catch(function () {
        offline(true);
      })
      .then(function () {
        window.setTimeout(poll, interval);
      });
  }

  poll();
  window.setInterval(tick, 1000);
})();
