// Small behaviours declared by attributes, so that no page needs inline script or event
// handlers (the Content-Security-Policy forbids both; docs/security.md):
//   <select data-autosubmit>      submits its form when the choice changes (language switcher)
//   <button data-print>           prints the page
//   <form data-no-submit>         never submits (a filter box that works as you type)
//   <input data-filter-rows="#id"> hides the rows/items of #id whose data-search lacks the text
//   <div data-mark-row="id">      marks the element with that id (the reader's own row) "me"
//   <button data-copy="#id">      copies the value of #id (an invitation link) to the clipboard
(function () {
  "use strict";
  document.querySelectorAll("[data-mark-row]").forEach(function (box) {
    var row = document.getElementById(box.getAttribute("data-mark-row"));
    if (row) row.classList.add("me");
  });
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el instanceof HTMLSelectElement && el.hasAttribute("data-autosubmit") && el.form) {
      el.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var el = event.target instanceof Element ? event.target.closest("[data-print]") : null;
    if (el) {
      event.preventDefault();
      window.print();
    }
    var copy = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    var field = copy ? document.querySelector(copy.getAttribute("data-copy")) : null;
    if (field) {
      event.preventDefault();
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(field.value);
      copy.textContent = copy.getAttribute("data-copied") || copy.textContent;
    }
  });
  document.addEventListener("submit", function (event) {
    if (event.target instanceof HTMLFormElement && event.target.hasAttribute("data-no-submit")) {
      event.preventDefault();
    }
  });
  document.addEventListener("input", function (event) {
    var q = event.target;
    if (!(q instanceof HTMLInputElement) || !q.hasAttribute("data-filter-rows")) return;
    var t = q.value.trim().toLowerCase().replace(/^@/, "");
    document.querySelectorAll(q.getAttribute("data-filter-rows") + " [data-search]").forEach(function (row) {
      row.hidden = !!t && row.dataset.search.indexOf(t) < 0;
    });
  });
})();
