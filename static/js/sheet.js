/* Tianhei live game sheet: every step is posted at once and shown "saved ✓" only after
 * the server (which replays it through the engine) acknowledged it. Unsent steps wait in
 * localStorage and are retried, so a reload or a dropped connection loses nothing. The
 * ballot being filled in is kept in localStorage too. No framework, no build step. */
(function () {
  "use strict";
  var root = document.getElementById("sheet");
  if (!root) return;
  var T = JSON.parse(document.getElementById("sheet-i18n").textContent);
  var state = JSON.parse(document.getElementById("sheet-state").textContent);
  var api = root.dataset.api;
  var gameId = root.dataset.game;
  var QUEUE_KEY = "tianhei-sheet-queue-" + gameId;
  var DRAFT_KEY = "tianhei-sheet-draft-" + gameId;
  var queue = load(QUEUE_KEY, []);
  var draft = load(DRAFT_KEY, {});
  var sending = false;
  var retryDelay = 1000;
  var retryTimer = null;
  var $ = function (id) { return document.getElementById(id); };

  function load(key, fallback) {
    try { var v = JSON.parse(localStorage.getItem(key)); return v === null ? fallback : v; }
    catch (e) { return fallback; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function uid() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "on") node.addEventListener("click", attrs[k]);
      else if (k === "cls") node.className = attrs[k];
      else if (attrs[k] === true) node.setAttribute(k, "");
      else if (attrs[k] !== false && attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function status(kind) {
    var s = $("save-status");
    s.dataset.state = kind;
    s.textContent = T[kind];
  }
  function showError(msg) {
    var e = $("error");
    e.hidden = !msg;
    e.textContent = msg || "";
  }
  function word(prefix, key) { return T[prefix + key] || key; }  /* a translated code */
  function seatName(n) {
    var s = state.seats.filter(function (x) { return x.seat === n; })[0];
    return s ? n + " " + s.name : String(n);
  }

  /* --- sending ------------------------------------------------------------------------ */

  function enqueue(path, body, draftKey) {
    body.id = uid();
    $("notice").hidden = true;
    queue.push({ path: path, body: body, draftKey: draftKey });
    store(QUEUE_KEY, queue);
    showError("");
    pump();
  }

  function pump() {
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (sending) return;
    if (!queue.length) { status("saved"); return; }
    sending = true;
    status("saving");
    render();
    var op = queue[0];
    if (op.revision === undefined) {
      op.revision = state.revision;  /* fixed at the first try, so a retry is recognised */
      store(QUEUE_KEY, queue);
    }
    var payload = op.path === "steps/" ? { step: op.body, revision: op.revision } : { revision: op.revision };
    fetch(api + op.path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: JSON.stringify(payload)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { r: r, data: data }; });
    }).then(function (res) {
      sending = false;
      var r = res.r, data = res.data;
      if (r.ok) {
        queue.shift(); store(QUEUE_KEY, queue);
        if (op.draftKey) { delete draft[op.draftKey]; store(DRAFT_KEY, draft); }
        retryDelay = 1000;
        if (op.path === "submit/") {
          showDone(T.submitted + " " + data.number + " (" + word("status_", data.status) + ")");
          refresh();
          return;
        }
        adopt(data);
        if (!queue.length) { status("saved"); render(); }
      } else if (r.status === 409 || r.status === 400 || r.status === 403) {
        queue.shift(); store(QUEUE_KEY, queue);
        if (data.state) adopt(data.state);
        var landed = op.path === "undo/" && data.state && data.state.revision === op.revision + 1;
        if (!landed) showError(data.detail || T.stale);  /* an undo whose answer was lost */
        if (!queue.length) { status("saved"); render(); }
      } else {
        return retryLater();
      }
      pump();
    }).catch(function () { sending = false; retryLater(); });
  }

  function retryLater() {
    status("offline");
    retryTimer = setTimeout(pump, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  function refresh() {
    fetch(api, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (data && data.revision !== undefined) adopt(data); pump(); })
      .catch(function () { /* stay as we are */ });
  }

  function adopt(newState) {
    state = newState;
    render();
  }

  function showDone(msg) {
    var n = $("notice");
    n.textContent = msg;
    n.hidden = false;
  }

  /* draftKey: the local draft this step came from, dropped once the server has the step
   * (so an illegal step's ballot is still there to fix) */
  function step(body, draftKey) { enqueue("steps/", body, draftKey); }

  /* --- rendering ---------------------------------------------------------------------- */

  function seatButtons(seats, chosen, onPick, opts) {
    opts = opts || {};
    var wrap = el("div", { cls: "seat-grid" + (opts.small ? " small" : "") });
    seats.forEach(function (n) {
      var b = el("button", {
        type: "button", cls: "seat-btn" + (chosen === n ? " chosen" : ""),
        "aria-pressed": chosen === n ? "true" : "false", "data-seat": n, text: String(n),
        on: function () { onPick(n); }
      });
      wrap.appendChild(b);
    });
    if (opts.none) {
      wrap.appendChild(el("button", {
        type: "button", cls: "seat-btn none" + (chosen === null ? " chosen" : ""),
        "aria-pressed": chosen === null ? "true" : "false", "data-seat": "none", text: opts.none,
        on: function () { onPick(null); }
      }));
    }
    return wrap;
  }

  function busy() { return queue.length > 0 || sending; }

  function render() {
    var e = state.expected;
    $("phase").textContent = e.step === "deal" ? T.deal : (e.step === "over" ? T.over : e.phase);
    var tie = $("tie");
    tie.hidden = !e.tie;
    tie.textContent = e.tie || "";
    var panel = $("panel");
    panel.textContent = "";
    var closed = state.game_status === "confirmed" || state.game_status === "released";
    if (closed) {
      panel.appendChild(el("p", { cls: "done", id: "closed", text: T.closed }));
      renderSteps();
      $("undo").disabled = true;
      $("awards").hidden = true;
      $("last-words").hidden = true;
      return;
    }
    var view = { deal: renderDeal, night: renderNight, day: renderDay, ballot: renderDay,
                 lot: renderLot, declare: renderDeclare, over: renderOver }[e.step];
    if (view) panel.appendChild(view(e));
    renderLastWords(e);
    renderAwards();
    renderSteps();
    root.classList.toggle("busy", busy());
    panel.querySelectorAll("button").forEach(function (b) { if (busy()) b.disabled = true; });
  }

  function renderSeatsTable() {
    var list = el("ul", { cls: "seat-list" });
    state.seats.forEach(function (s) {
      list.appendChild(el("li", { cls: (s.alive ? "" : "dead ") + "role-" + (s.role || "none") }, [
        el("span", { cls: "seat-no", text: String(s.seat) }),
        el("span", { text: " " + s.name + (s.role ? " · " + T[s.role] : "") + (s.alive ? "" : " · " + T.dead) })
      ]));
    });
    return list;
  }

  function renderDeal() {
    var box = el("section", { cls: "card deal" });
    var roles = draft.deal || {};
    state.seats.forEach(function (s) { if (!roles[s.seat]) roles[s.seat] = "civilian"; });
    var counts = state.counts || {};
    var chosen = { killer: 0, police: 0, civilian: 0 };
    Object.keys(roles).forEach(function (k) { chosen[roles[k]] += 1; });
    box.appendChild(el("h2", { text: T.deal }));
    box.appendChild(el("p", { cls: "counts", text: T.need + ": " + ["killer", "police", "civilian"].map(function (r) {
      return T[r] + " " + chosen[r] + "/" + (counts[r] === undefined ? "?" : counts[r]);
    }).join(" · ") }));
    state.seats.forEach(function (s) {
      var row = el("div", { cls: "deal-row", "data-seat": s.seat }, [el("span", { cls: "seat-no", text: String(s.seat) }), el("span", { cls: "name", text: s.name })]);
      ["killer", "police", "civilian"].forEach(function (r) {
        row.appendChild(el("button", {
          type: "button", cls: "role-btn role-" + r + (roles[s.seat] === r ? " chosen" : ""),
          "aria-pressed": roles[s.seat] === r ? "true" : "false", "data-role": r, text: T[r],
          on: function () { roles[s.seat] = r; draft.deal = roles; store(DRAFT_KEY, draft); render(); }
        }));
      });
      box.appendChild(row);
    });
    var ok = ["killer", "police", "civilian"].every(function (r) { return chosen[r] === counts[r]; });
    box.appendChild(el("button", {
      type: "button", cls: "primary big", id: "deal", disabled: !ok, text: T.dealBtn,
      on: function () { step({ type: "deal", roles: roles }, "deal"); }
    }));
    return box;
  }

  function renderNight(e) {
    var box = el("section", { cls: "card night" });
    var key = "night:" + e.phase;
    var d = draft[key] || { kill: undefined, check: undefined };
    function save() { draft[key] = d; store(DRAFT_KEY, draft); render(); }
    box.appendChild(el("h2", { text: e.phase }));
    box.appendChild(el("h3", { text: T.kill }));
    box.appendChild(seatButtons(e.kill_targets, d.kill, function (n) { d.kill = n; save(); }, { none: T.noKill }));
    box.appendChild(el("h3", { text: T.check }));
    if (e.check_targets.length) {
      box.appendChild(seatButtons(e.check_targets, d.check, function (n) { d.check = n; save(); }, { none: T.noCheck }));
    } else {
      d.check = null;
      box.appendChild(el("p", { cls: "muted", text: T.noPolice }));
    }
    box.appendChild(el("button", {
      type: "button", cls: "primary big", id: "save-night", disabled: d.kill === undefined || d.check === undefined,
      text: T.saveNight,
      on: function () { step({ type: "night", kill: d.kill, check: d.check }, key); }
    }));
    box.appendChild(renderSeatsTable());
    return box;
  }

  function renderDay(e) {
    var box = el("section", { cls: "card day" });
    box.appendChild(el("h2", { text: e.phase + " · " + T.ballot + " " + e.ballot }));
    if (e.step === "day") {
      if (e.may_surrender.length) {
        box.appendChild(el("h3", { text: T.surrender }));
        box.appendChild(seatButtons(e.may_surrender, undefined, function (n) {
          /* a surrender ends the game at once: ask first, naming the seat */
          if (window.confirm(T.confirmSurrender.replace("{seat}", seatName(n)))) {
            step({ type: "surrender", seat: n });
          }
        }, { small: true }));
      }
      var sel = el("select", { id: "eject-seat", "aria-label": T.eject }, [el("option", { value: "", text: "—" })]);
      e.ejectable.forEach(function (n) { sel.appendChild(el("option", { value: n, text: seatName(n) })); });
      box.appendChild(el("details", { cls: "eject" }, [
        el("summary", { text: T.eject }), sel,
        el("button", { type: "button", text: T.ejectBtn, on: function () {
          if (sel.value) step({ type: "eject", seat: parseInt(sel.value, 10) });
        } })
      ]));
    }
    box.appendChild(el("p", { cls: "candidates", text: T.between + ": " + e.candidates.join(", ") }));
    var key = "ballot:" + e.phase + ":" + e.ballot;
    var votes = draft[key] || {};
    function save() { draft[key] = votes; store(DRAFT_KEY, draft); render(); }
    var tally = {};
    Object.keys(votes).forEach(function (v) { var t = votes[v]; if (t !== null) tally[t] = (tally[t] || 0) + 1; });
    var grid = el("div", { cls: "ballot", id: "ballot" });
    e.voters.forEach(function (voter) {
      var row = el("div", { cls: "vote-row", "data-voter": voter }, [el("span", { cls: "voter", text: voter + " →" })]);
      var targets = e.candidates.filter(function (c) { return c !== voter; });
      row.appendChild(seatButtons(targets, votes[voter], function (n) {
        votes[voter] = n; save();
      }, { small: true, none: e.abstain ? T.abstain : null }));
      grid.appendChild(row);
    });
    box.appendChild(grid);
    var missing = e.voters.filter(function (v) { return !(v in votes); }).length;
    box.appendChild(el("p", { cls: "tally", id: "tally", text: Object.keys(tally).sort(function (a, b) { return tally[b] - tally[a]; })
      .map(function (t) { return t + "×" + tally[t]; }).join("  ") + (missing ? "  · " + missing + " " + T.votesLeft : "") }));
    box.appendChild(el("button", {
      type: "button", cls: "primary big", id: "save-ballot", disabled: missing > 0, text: T.saveBallot,
      on: function () {
        var out = {};
        e.voters.forEach(function (v) { out[v] = votes[v]; });
        step({ type: "ballot", votes: out }, key);
      }
    }));
    box.appendChild(renderSeatsTable());
    return box;
  }

  function renderLot(e) {
    var box = el("section", { cls: "card lot" }, [el("h2", { text: T.lot })]);
    box.appendChild(seatButtons(e.lot_candidates, undefined, function (n) { step({ type: "lot", seat: n }); }));
    return box;
  }

  function renderDeclare(e) {
    var box = el("section", { cls: "card declare" }, [el("h2", { text: T.declare })]);
    var who = e.eliminated;
    box.appendChild(el("button", {
      type: "button", cls: "primary big", id: "declare",
      text: who === null ? T.nobodyOut : seatName(who) + " " + T.isOut,
      on: function () { step({ type: "eliminate", seat: who }); }
    }));
    box.appendChild(renderSeatsTable());
    return box;
  }

  function renderOver(e) {
    var box = el("section", { cls: "card over" });
    box.appendChild(el("h2", { id: "winner", text: T.over + " — " + T.winner + ": " + (T[e.winner] || e.winner) }));
    box.appendChild(el("p", { id: "reason", text: e.reason || "" }));
    if (state.latest_version) {
      box.appendChild(el("p", { cls: "muted", id: "latest", text: T.latest + ": v" + state.latest_version.number + " (" + word("status_", state.latest_version.status) + ")" }));
    }
    box.appendChild(el("button", {
      type: "button", cls: "primary big", id: "submit", text: T.submit,
      on: function () { enqueue("submit/", {}); }
    }));
    box.appendChild(renderSeatsTable());
    return box;
  }

  function renderLastWords(e) {
    var sec = $("last-words");
    sec.textContent = "";
    var speakers = (e.last_words || []);
    sec.hidden = !speakers.length || e.step === "deal";
    if (sec.hidden) return;
    sec.appendChild(el("h2", { text: T.lastWords }));
    speakers.forEach(function (seat) {
      var key = "words:" + seat;
      var chosen = draft[key] || [];
      var row = el("div", { cls: "words", "data-speaker": seat }, [el("p", { text: seatName(seat) + " · " + T.suspects + ":" })]);
      var grid = el("div", { cls: "seat-grid small" });
      state.seats.forEach(function (s) {
        if (s.seat === seat) return;
        var on = chosen.indexOf(s.seat) >= 0;
        grid.appendChild(el("button", { type: "button", cls: "seat-btn" + (on ? " chosen" : ""), "aria-pressed": on ? "true" : "false",
          text: String(s.seat), disabled: busy(), on: function () {
            chosen = on ? chosen.filter(function (x) { return x !== s.seat; }) : chosen.concat([s.seat]);
            draft[key] = chosen; store(DRAFT_KEY, draft); render();
          } }));
      });
      row.appendChild(grid);
      row.appendChild(el("button", { type: "button", cls: "save-words", text: T.saveWords, disabled: busy(), on: function () {
        step({ type: "last_words", seat: seat, suspects: chosen }, key);
      } }));
      sec.appendChild(row);
    });
  }

  function renderAwards() {
    var sec = $("awards");
    sec.textContent = "";
    if (state.expected.step === "deal") { sec.hidden = true; return; }
    sec.hidden = false;
    sec.appendChild(el("h2", { text: T.awards }));
    var list = el("ul", {});
    state.awards.forEach(function (a) {
      list.appendChild(el("li", { text: T.seat + " " + a.seat + ": " + T[a.kind] + (a.points ? " " + a.points : "") + (a.reason ? " — " + a.reason : "") }));
    });
    sec.appendChild(list);
    var a = draft.award || {};
    var seat = el("select", { "aria-label": T.seat, id: "award-seat" });
    state.seats.forEach(function (s) { seat.appendChild(el("option", { value: s.seat, text: seatName(s.seat) })); });
    var kind = el("select", { "aria-label": T.awards, id: "award-kind" });
    ["bonus", "penalty", "warning"].forEach(function (k) { kind.appendChild(el("option", { value: k, text: T[k] })); });
    var points = el("input", { type: "number", step: "0.1", min: "0", placeholder: T.points, id: "award-points", "aria-label": T.points });
    var reason = el("input", { type: "text", placeholder: T.reason, id: "award-reason", "aria-label": T.reason });
    if (a.seat) seat.value = a.seat;
    if (a.kind) kind.value = a.kind;
    points.value = a.points || "";
    reason.value = a.reason || "";
    [seat, kind, points, reason].forEach(function (input) {
      function keep() {
        draft.award = { seat: seat.value, kind: kind.value, points: points.value, reason: reason.value };
        store(DRAFT_KEY, draft);
      }
      input.addEventListener("input", keep);
      input.addEventListener("change", keep);
    });
    sec.appendChild(el("div", { cls: "award-form" }, [seat, kind, points, reason,
      el("button", { type: "button", id: "add-award", text: T.addAward, disabled: busy(), on: function () {
        var body = { type: "award", seat: parseInt(seat.value, 10), kind: kind.value };
        if (points.value !== "") body.points = parseFloat(points.value);
        if (reason.value) body.reason = reason.value;
        step(body, "award");
      } })]));
  }

  function renderSteps() {
    var ol = $("steps");
    ol.textContent = "";
    state.steps.forEach(function (s) { ol.appendChild(el("li", { text: s.summary })); });
    queue.forEach(function (op) {
      ol.appendChild(el("li", { cls: "pending", text: word("step_", op.body.type || op.path) + " · " + T.queued }));
    });
    $("undo").disabled = busy() || !state.steps.length;
  }

  $("undo").addEventListener("click", function () {
    if (window.confirm(T.confirmUndo)) enqueue("undo/", {});
  });
  window.addEventListener("online", pump);
  render();
  if (queue.length) pump(); else status("saved");
})();
