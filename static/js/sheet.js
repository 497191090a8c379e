/* Tianhei live game sheet, the referee's console: every step is posted at once and shown
 * "saved ✓" only after the server (which replays it through the engine) acknowledged it.
 * Unsent steps wait in localStorage and are retried, so a reload or a dropped connection
 * loses nothing. The ballot being filled in is kept in localStorage too, and so are the
 * speech timers (the end time of a running one). The page applies no rule of the game:
 * what may be chosen, who speaks and what a foul costs all come from the server's state.
 * No framework, no build step. */
(function () {
  "use strict";
  var root = document.getElementById("sheet");
  if (!root) return;
  var T = JSON.parse(document.getElementById("sheet-i18n").textContent);
  document.querySelectorAll("#console-i18n [data-k]").forEach(function (n) { T[n.dataset.k] = n.textContent; });
  var state = JSON.parse(document.getElementById("sheet-state").textContent);
  var api = root.dataset.api;
  var gameId = root.dataset.game;
  var QUEUE_KEY = "tianhei-sheet-queue-" + gameId;
  var DRAFT_KEY = "tianhei-sheet-draft-" + gameId;
  var TIMER_KEY = "tianhei-timer-" + gameId + "-";
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
  function nameOf(n) { return (state.names || {})[String(n)] || ""; }
  function seatName(n) { var name = nameOf(n); return name ? n + " " + name : String(n); }
  function fill(text, values) {  /* "{seat}" and the like in a translated sentence */
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  /* a seat as a button's face: its number, big, and its player's name under it */
  function seatFace(n) {
    return [el("span", { cls: "no", text: String(n) }), el("span", { cls: "nm", text: nameOf(n) })];
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

  /* seats to choose from, each with its player's name; opts.none adds a "nobody" choice */
  function seatButtons(seats, chosen, onPick, opts) {
    opts = opts || {};
    var wrap = el("div", { cls: "seat-grid" + (opts.small ? " small" : "") });
    seats.forEach(function (n) {
      wrap.appendChild(el("button", {
        type: "button", cls: "seat-btn" + (chosen === n ? " chosen" : ""),
        "aria-pressed": chosen === n ? "true" : "false", "data-seat": n, title: seatName(n),
        on: function () { onPick(n); }
      }, seatFace(n)));
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
      $("timer").hidden = true;
      return;
    }
    var view = { deal: renderDeal, night: renderNight, day: renderDay, ballot: renderDay,
                 lot: renderLot, declare: renderDeclare, over: renderOver }[e.step];
    if (view) panel.appendChild(view(e));
    renderTimer();
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
        el("button", { type: "button", id: "eject-btn", text: T.ejectBtn, on: function () {
          if (!sel.value) return;
          var n = parseInt(sel.value, 10);
          /* the player leaves the game at once: ask first, with what it costs them */
          var cost = (state.fouls || {}).ejection_penalty || "";
          if (window.confirm(fill(T.confirmEject, { seat: seatName(n), points: cost }))) {
            step({ type: "eject", seat: n });
          }
        } })
      ]));
    }
    box.appendChild(el("p", { cls: "candidates", text: T.between + ": " + e.candidates.join(", ") }));
    if (e.ballot > 1) {  /* a tie-break ballot: only the server's candidates may be chosen */
      box.appendChild(el("p", { cls: "restricted", id: "restricted",
        text: T.onlyTied + " " + e.candidates.map(seatName).join(", ") }));
    }
    var key = "ballot:" + e.phase + ":" + e.ballot;
    var votes = draft[key] || {};
    function save() { draft[key] = votes; store(DRAFT_KEY, draft); render(); }
    box.appendChild(voteGrid(e, votes, save));
    var tally = tallyOf(votes);
    var missing = e.voters.filter(function (v) { return !(v in votes); }).length;
    box.appendChild(el("p", { cls: "tally", id: "tally", "aria-live": "polite", text: Object.keys(tally.counts)
      .sort(function (a, b) { return tally.counts[b] - tally.counts[a] || a - b; })
      .map(function (t) { return t + "×" + tally.counts[t]; }).join("  ") + (missing ? "  · " + missing + " " + T.votesLeft : "") }));
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

  /* the votes cast so far, counted per seat (abstentions apart); the seats with the most */
  function tallyOf(votes) {
    var counts = {}, abstain = 0, top = 0;
    Object.keys(votes).forEach(function (v) {
      var t = votes[v];
      if (t === null) { abstain += 1; return; }
      counts[t] = (counts[t] || 0) + 1;
      top = Math.max(top, counts[t]);
    });
    var leaders = Object.keys(counts).filter(function (t) { return top > 0 && counts[t] === top; }).map(Number);
    return { counts: counts, abstain: abstain, leaders: leaders };
  }

  /* The vote grid: a row per voter, a column per seat in table order. A voter's own seat,
   * the dead and (in a tie-break ballot) the seats not in it are shown disabled so the
   * columns line up; only the server's candidates can be chosen. */
  function voteGrid(e, votes, save) {
    var seats = state.seats.map(function (s) { return s.seat; });
    var tally = tallyOf(votes);
    var tied = tally.leaders.length > 1;
    function mark(n) {
      if (tally.leaders.indexOf(n) < 0) return "";
      return tied ? " tied" : " lead";
    }
    function voteable(voter, n) { return e.candidates.indexOf(n) >= 0 && n !== voter; }
    var head = el("tr", {}, [el("th", { cls: "corner", scope: "col", text: T.voter })]);
    seats.forEach(function (n) {
      var inBallot = e.candidates.indexOf(n) >= 0;
      var alive = e.alive.indexOf(n) >= 0;
      head.appendChild(el("th", {
        scope: "col", "data-col": n, title: seatName(n),
        cls: "col" + (alive ? "" : " dead") + (inBallot ? " in-ballot" : " off-ballot") + mark(n)
      }, seatFace(n)));
    });
    if (e.abstain) head.appendChild(el("th", { scope: "col", cls: "col abstain-col", text: T.abstain }));
    var body = el("tbody", {});
    e.voters.forEach(function (voter) {
      var row = el("tr", { cls: "vote-row", "data-voter": voter }, [
        el("th", { scope: "row", cls: "voter", title: seatName(voter) }, seatFace(voter))
      ]);
      seats.forEach(function (n) {
        var ok = voteable(voter, n);
        var on = votes[voter] === n;
        var cls = "cell" + (n === voter ? " self" : "") + (e.alive.indexOf(n) < 0 ? " dead" : "") + (ok ? "" : " off");
        row.appendChild(el("td", { cls: cls }, [el("button", {
          type: "button", cls: "vote-btn" + (on ? " chosen" : ""), "data-seat": n,
          "aria-pressed": on ? "true" : "false", disabled: !ok,
          "aria-label": fill(T.voteFor, { voter: seatName(voter), seat: seatName(n) }),
          text: n === voter ? "·" : String(n),
          on: function () {
            if (votes[voter] === n) delete votes[voter]; else votes[voter] = n;
            save();
          }
        })]));
      });
      if (e.abstain) {
        var none = votes[voter] === null;
        row.appendChild(el("td", { cls: "cell abstain-cell" }, [el("button", {
          type: "button", cls: "vote-btn none" + (none ? " chosen" : ""), "data-seat": "none",
          "aria-pressed": none ? "true" : "false", text: T.abstain,
          on: function () {
            if (votes[voter] === null) delete votes[voter]; else votes[voter] = null;
            save();
          }
        })]));
      }
      body.appendChild(row);
    });
    var counts = el("tr", { cls: "tally-row" }, [el("th", { scope: "row", text: T.votes })]);
    var rest = el("tr", { cls: "fill-row" }, [el("th", { scope: "row", text: T.fillRest })]);
    seats.forEach(function (n) {
      var c = tally.counts[n] || 0;
      counts.appendChild(el("td", { cls: "count" + mark(n), "data-count": n, text: c ? String(c) : "",
        title: mark(n) ? (tied ? T.tied : T.mostVotes) : null }));
      var can = e.candidates.indexOf(n) >= 0;
      rest.appendChild(el("td", {}, can ? [el("button", {
        type: "button", cls: "fill-btn", "data-fill": n, text: "↓" + n,
        "aria-label": fill(T.fillLabel, { seat: seatName(n) }), title: fill(T.fillLabel, { seat: seatName(n) }),
        on: function () { fillRest(n); }
      })] : []));
    });
    if (e.abstain) {
      counts.appendChild(el("td", { cls: "count", text: tally.abstain ? String(tally.abstain) : "" }));
      rest.appendChild(el("td", {}, [el("button", {
        type: "button", cls: "fill-btn", "data-fill": "none", text: "↓", "aria-label": fill(T.fillLabel, { seat: T.abstain }),
        on: function () { fillRest(null); }
      })]));
    }
    /* everyone still without a vote votes for n (a voter cannot vote for themselves) */
    function fillRest(n) {
      e.voters.forEach(function (v) { if (!(v in votes) && (n === null || voteable(v, n))) votes[v] = n; });
      save();
    }
    var table = el("table", { cls: "vote-grid" + (e.ballot > 1 ? " restricted" : ""), id: "ballot" }, [
      el("thead", {}, [head]), body, el("tfoot", {}, [counts, rest])
    ]);
    return el("div", { cls: "grid-box", role: "region", tabindex: "0", "aria-label": T.scrollHint }, [table]);
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
          "data-seat": s.seat, title: seatName(s.seat), disabled: busy(), on: function () {
            chosen = on ? chosen.filter(function (x) { return x !== s.seat; }) : chosen.concat([s.seat]);
            draft[key] = chosen; store(DRAFT_KEY, draft); render();
          } }, seatFace(s.seat)));
      });
      row.appendChild(grid);
      row.appendChild(el("button", { type: "button", cls: "save-words", text: T.saveWords, disabled: busy(), on: function () {
        step({ type: "last_words", seat: seat, suspects: chosen }, key);
      } }));
      sec.appendChild(row);
    });
  }

  /* Fouls and awards: each seat's warnings, penalties and ejection with the points the
   * scoring profile adds by itself — all as the server computed them. */
  function renderFouls(sec) {
    var f = state.fouls || { seats: [] };
    if (f.profile) {  /* the profile's rule, when the server read it (a foul, an ejection to come) */
      sec.appendChild(el("p", { cls: "muted foul-rule", text: fill(T.foulRule, {
        count: f.threshold, points: f.warning_penalty, eject: f.ejection_penalty, profile: f.profile
      }) }));
    }
    if (!f.seats.length) {
      sec.appendChild(el("p", { cls: "muted", id: "no-fouls", text: T.noFouls }));
      return;
    }
    var list = el("ul", { cls: "foul-list", id: "foul-summary" });
    f.seats.forEach(function (r) {
      var dots = "";
      for (var i = 1; i <= Math.max(f.threshold, r.warnings); i++) dots += i <= r.warnings ? "●" : "○";
      var facts = [el("span", { cls: "foul-who", text: seatName(r.seat) }),
        el("span", { cls: "warn-dots", title: r.warnings + " " + T.warnings, text: dots }),
        el("span", { cls: "warn-count", text: r.warnings + "/" + f.threshold + " " + T.warnings })];
      if (r.penalties !== "0.0") facts.push(el("span", { cls: "pen", text: T.penalties + " −" + r.penalties }));
      if (r.ejected) facts.push(el("strong", { cls: "ejected-tag", text: T.ejected }));
      facts.push(el("strong", { cls: "foul-total", text: r.total + " " + T.total }));
      var item = el("li", { cls: "foul" + (r.automatic.length ? " fined" : ""), "data-seat": r.seat }, [
        el("div", { cls: "foul-facts" }, facts)
      ]);
      r.automatic.forEach(function (a) {
        item.appendChild(el("div", { cls: "automatic", "data-kind": a.kind, text: a.points + " · " + a.text }));
      });
      if (r.next_warning_costs) {
        item.appendChild(el("div", { cls: "next-warning", text: fill(T.nextWarning, { points: r.next_warning_costs }) }));
      }
      item.appendChild(el("button", { type: "button", cls: "warn-btn", "data-warn": r.seat, text: T.addWarning,
        disabled: busy(), on: function () { step({ type: "award", seat: r.seat, kind: "warning" }); } }));
      list.appendChild(item);
    });
    sec.appendChild(list);
  }

  function renderAwards() {
    var sec = $("awards");
    sec.textContent = "";
    if (state.expected.step === "deal") { sec.hidden = true; return; }
    sec.hidden = false;
    sec.appendChild(el("h2", { text: T.fouls }));
    renderFouls(sec);
    var list = el("ul", { cls: "award-log" });
    state.awards.forEach(function (a) {
      list.appendChild(el("li", { text: seatName(a.seat) + ": " + T[a.kind] + (a.points ? " " + a.points : "") +
        (a.phase ? " · " + a.phase : "") + (a.reason ? " — " + a.reason : "") }));
    });
    sec.appendChild(list);
    var a = draft.award || {};
    var seat = el("select", { "aria-label": T.seat, id: "award-seat" });
    state.seats.forEach(function (s) { seat.appendChild(el("option", { value: s.seat, text: seatName(s.seat) })); });
    var kind = el("select", { "aria-label": T.awards, id: "award-kind" });
    ["warning", "penalty", "bonus"].forEach(function (k) { kind.appendChild(el("option", { value: k, text: T[k] })); });
    var points = el("input", { type: "number", step: "0.1", min: "0", max: "10", placeholder: T.points, id: "award-points", "aria-label": T.points });
    var reason = el("input", { type: "text", placeholder: T.reason, id: "award-reason", "aria-label": T.reason, maxlength: "200" });
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

  /* --- speech timers ------------------------------------------------------------------- */
  /* Who speaks, in which order and for how long is the server's (state.timer). Each
   * speaker's clock is kept in localStorage under game + phase + speaker: the end time
   * while it runs, what is left while paused, so a reload keeps it. At 10 s left and at
   * zero the phone vibrates and beeps. */

  var audio = null;
  var ticker = null;

  function speakers() { return (state.timer && state.timer.speakers) || []; }
  function roundKey() { return TIMER_KEY + (state.timer ? state.timer.round : ""); }
  function clockKey(sp) { return roundKey() + "-" + sp.kind + "-" + sp.seat; }
  function loadClock(sp) {
    var c = load(clockKey(sp), null);
    return c || { end: null, left: sp.seconds * 1000, at10: false, at0: false };
  }
  function saveClock(sp, c) { store(clockKey(sp), c); }
  function left(c) { return c.end !== null ? Math.max(0, c.end - Date.now()) : c.left; }
  function currentSpeaker() {
    var list = speakers();
    var cur = load(roundKey(), null);
    var found = cur && list.filter(function (s) { return s.seat === cur.seat && s.kind === cur.kind; })[0];
    return found || list[0] || null;
  }
  function choose(sp) { store(roundKey(), { seat: sp.seat, kind: sp.kind }); }
  function clockText(ms) {
    var secs = Math.ceil(ms / 1000);
    return Math.floor(secs / 60) + ":" + ("0" + (secs % 60)).slice(-2);
  }

  function beep(times) {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      audio = audio || new Ctx();
      for (var i = 0; i < times; i++) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        var t = audio.currentTime + i * 0.3;
        osc.frequency.value = times > 1 ? 660 : 880;
        osc.connect(gain); gain.connect(audio.destination);
        gain.gain.setValueAtTime(0.25, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + 0.2);
        osc.start(t); osc.stop(t + 0.22);
      }
    } catch (err) { /* no sound: the vibration and the red clock remain */ }
  }
  function alarm(kind) {
    if (navigator.vibrate) navigator.vibrate(kind === "zero" ? [300, 120, 300] : 200);
    beep(kind === "zero" ? 3 : 1);
    $("timer").dataset.alarm = kind;
  }

  function tick() {
    var sp = currentSpeaker();
    var box = $("timer");
    if (!sp || box.hidden) return;
    var c = loadClock(sp);
    var ms = left(c);
    var running = c.end !== null;
    if (running && !c.at10 && sp.seconds > 10 && ms <= 10000) {
      c.at10 = true; saveClock(sp, c);
      if (ms > 8500) alarm("ten");  /* not when a reload finds it long past */
    }
    if (running && ms <= 0) {
      var late = Date.now() - c.end;
      c.end = null; c.left = 0; c.at0 = true; saveClock(sp, c);
      if (late < 1500) alarm("zero");
      renderTimer();
      return;
    }
    var clock = $("timer-clock");
    if (clock) {
      clock.textContent = clockText(ms);
      clock.classList.toggle("warn", ms <= 10000 && ms > 0);
      clock.classList.toggle("zero", ms <= 0);
    }
  }

  function renderTimer() {
    var box = $("timer");
    var list = speakers();
    box.textContent = "";
    box.hidden = !list.length;
    if (ticker) { clearInterval(ticker); ticker = null; }
    if (box.hidden) return;
    var sp = currentSpeaker();
    var c = loadClock(sp);
    var running = c.end !== null;
    var index = list.indexOf(sp);
    box.dataset.running = running ? "true" : "false";
    box.dataset.seat = sp.seat;
    box.appendChild(el("h2", { id: "timer-title", text: T.speeches + " · " + state.timer.phase }));
    box.appendChild(el("p", { cls: "timer-who", id: "timer-who" }, [
      el("strong", { text: seatName(sp.seat) }), el("span", { cls: "muted", text: " · " + word("kind_", sp.kind) })
    ]));
    var ms = left(c);
    box.appendChild(el("div", { id: "timer-clock", role: "timer", "aria-live": "off",
      cls: "timer-clock" + (ms <= 0 ? " zero" : (ms <= 10000 ? " warn" : "")), text: clockText(ms) }));
    if (ms <= 0) box.appendChild(el("p", { cls: "time-up", text: T.timeUp }));
    box.appendChild(el("div", { cls: "timer-controls" }, [
      el("button", { type: "button", id: "timer-start", cls: "primary", text: T.start, disabled: running || ms <= 0,
        on: function () {
          beep(0);  /* a tap unlocks the phone's sound for the alarms */
          if (audio && audio.resume) audio.resume();
          c = loadClock(sp); c.end = Date.now() + c.left; saveClock(sp, c); choose(sp); renderTimer();
        } }),
      el("button", { type: "button", id: "timer-pause", text: T.pause, disabled: !running,
        on: function () { c = loadClock(sp); c.left = left(c); c.end = null; saveClock(sp, c); renderTimer(); } }),
      el("button", { type: "button", id: "timer-next", text: T.nextSpeaker, disabled: index >= list.length - 1,
        on: function () {
          c = loadClock(sp);
          if (c.end !== null) { c.left = left(c); c.end = null; saveClock(sp, c); }
          choose(list[index + 1]); renderTimer();
        } }),
      el("button", { type: "button", id: "timer-reset", text: T.restart,
        on: function () { store(clockKey(sp), null); choose(sp); renderTimer(); } })
    ]));
    var order = el("ol", { cls: "speakers", id: "speakers" });
    list.forEach(function (s, i) {
      var done = loadClock(s).at0 || i < index;
      order.appendChild(el("li", {}, [el("button", {
        type: "button", cls: "speaker" + (s === sp ? " current" : "") + (done ? " done" : ""),
        "data-seat": s.seat, "data-kind": s.kind, "aria-current": s === sp ? "true" : null,
        title: seatName(s.seat) + " · " + word("kind_", s.kind), text: String(s.seat),
        on: function () {
          var now = loadClock(sp);
          if (now.end !== null) { now.left = left(now); now.end = null; saveClock(sp, now); }
          choose(s); renderTimer();
        }
      })]));
    });
    box.appendChild(order);
    if (index === list.length - 1 && ms <= 0) box.appendChild(el("p", { cls: "muted", text: T.allSpoke }));
    if (running) ticker = setInterval(tick, 250);
  }

  $("undo").addEventListener("click", function () {
    if (window.confirm(T.confirmUndo)) enqueue("undo/", {});
  });
  window.addEventListener("online", pump);
  render();
  if (queue.length) pump(); else status("saved");
})();
