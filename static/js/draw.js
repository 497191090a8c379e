// Draw page: while a draw runs, poll its progress and reload when it ends.
(function () {
  var box = document.getElementById("draw-job");
  if (!box) return;
  var status = box.dataset.status;
  if (status !== "queued" && status !== "running") return;
  var bar = document.getElementById("job-progress");
  function poll() {
    fetch(box.dataset.url, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (job) {
        if (bar && typeof job.progress === "number") bar.value = job.progress;
        if (job.status === "queued" || job.status === "running") {
          setTimeout(poll, 1000);
        } else {
          window.location.reload();
        }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 700);
})();

// An action that returns to a round or table (#round-2, #round-2-table-3) shows its
// message there, where the page lands, not at the top of a long page on a phone.
(function () {
  var list = document.querySelector("ul.messages");
  var id = window.location.hash.slice(1);
  var target = id && document.getElementById(id);
  if (!list || !target) return;
  target.insertBefore(list, target.firstChild);
  target.scrollIntoView();
})();
