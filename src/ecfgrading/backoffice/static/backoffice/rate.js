// The rate of play (G2) shown as the time control is typed on the registration form.
(function () {
  "use strict";
  function start() {
    var form = document.getElementById("register-form");
    var words = document.getElementById("rate-words");
    if (!form || !words) { return; }
    var url = form.getAttribute("data-rate-url");
    var timer = null;
    function ask() {
      var query = new URLSearchParams();
      form.querySelectorAll("input.tc").forEach(function (input) {
        if (input.value) { query.set(input.name, input.value); }
      });
      fetch(url + "?" + query.toString(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { if (data) { words.textContent = data.words; } })
        .catch(function () { /* the server shows the rate when the form is sent */ });
    }
    form.addEventListener("input", function (event) {
      if (!event.target.classList || !event.target.classList.contains("tc")) { return; }
      clearTimeout(timer);
      timer = setTimeout(ask, 150);
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
