// Registration and check-in (templates/league/registrations.html): filter as you type;
// check in without reloading. Both work without JavaScript too. The translated words come
// from data- attributes of #checkin-list: data-in, data-check-in and data-counts (with
// __C__ and __R__ for the checked-in and registered counts).
(function () {
  "use strict";
  var q = document.getElementById("q"), list = document.getElementById("checkin-list");
  if (!q || !list) return;
  var items = list.querySelectorAll("li[data-search]");
  var counts = document.getElementById("reg-counts");
  var IN = list.dataset.in || "", CHECK_IN = list.dataset.checkIn || "", COUNTS = list.dataset.counts || "";
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  q.addEventListener("input", function () {
    var term = fold(q.value.trim().replace(/^@/, "")), key = term.replace(/[^\p{L}\p{N}]/gu, "");
    items.forEach(function (li) {
      var text = li.dataset.search;
      li.hidden = !!term && text.indexOf(term) < 0 && (!key || text.indexOf(key) < 0);
    });
  });
  document.querySelectorAll("form.checkin-form").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var button = form.querySelector("button"), undo = form.querySelector("input[name=undo]");
      button.disabled = true;
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                           headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (data) {
          var li = form.closest("li");
          li.classList.toggle("in", data.checked_in);
          undo.disabled = !data.checked_in;
          button.classList.toggle("secondary", data.checked_in);
          button.textContent = data.checked_in ? "✓ " + IN : CHECK_IN;
          if (data.checked_in) { delete button.dataset.checkin; } else { button.dataset.checkin = button.dataset.handle; }
          if (counts && COUNTS) {
            counts.textContent = COUNTS.replace("__C__", data.counts.checked_in).replace("__R__", data.counts.registered);
          }
          button.disabled = false;
          if (q.value) { q.select(); }
        })
        .catch(function () { form.submit(); });
    });
  });
})();
