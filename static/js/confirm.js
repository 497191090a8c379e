// Irreversible actions ask first: a form (or a button) with data-confirm="question"
// submits only after the reader says yes. Without JavaScript the form submits directly.
document.addEventListener("submit", function (event) {
  var form = event.target;
  var button = event.submitter;
  var question = (button && button.dataset.confirm) || form.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
}, true);
