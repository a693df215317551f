/* Suggestions as you type in a player lookup box: progressive enhancement only.
 *
 * Every input[data-suggest] (the player box) asks the lookup's JSON twin,
 * <data-suggest>?q=...&format=json, once typing pauses with two or more characters, and
 * shows up to eight players as links under the box. The form itself works without this
 * file. Keys: Down moves into the links, Up/Down move between them, Escape closes them.
 * A polite live region says how many were found. No HTML is built from the answer's
 * text: names go in by textContent.
 */
(function () {
  "use strict";

  var PAUSE = 250; // ms after the last key before asking
  var MIN_CHARS = 2;
  var SHOWN = 8;

  function grades(player) {
    var parts = [];
    [["standard", player.standard], ["rapid", player.rapid]].forEach(function (pair) {
      var grade = pair[1];
      if (grade && grade.grade !== null) {
        parts.push(pair[0] + " " + grade.grade + (grade.category ? " " + grade.category : ""));
      }
    });
    return parts.join(", ");
  }

  function enhance(input) {
    var base = input.getAttribute("data-suggest");
    var form = input.form;
    var field = input.closest(".field") || input;
    var list = document.createElement("ul");
    var status = document.createElement("p");
    var timer = null;
    var pending = null;
    var asked = "";
    var dismissed = false; // Escape closed the list: focus alone does not reopen it

    list.className = "suggestions";
    list.id = input.id + "-suggestions";
    list.hidden = true;
    list.setAttribute("aria-label", "Suggested players");
    status.className = "visually-hidden";
    status.setAttribute("aria-live", "polite");
    field.insertAdjacentElement("afterend", list);
    list.insertAdjacentElement("afterend", status);
    input.setAttribute("aria-controls", list.id);

    function links() {
      return Array.prototype.slice.call(list.querySelectorAll("a"));
    }

    function hide() {
      list.hidden = true;
    }

    function dismiss() {
      dismissed = true;
      hide();
    }

    function inactive() {
      var box = form && form.elements.namedItem("inactive");
      return Boolean(box && box.checked);
    }

    function show(answer) {
      var players = (answer && answer.players) || [];
      list.textContent = "";
      players.slice(0, SHOWN).forEach(function (player) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        var hint = document.createElement("span");
        link.href = base + encodeURIComponent(player.code) + "/";
        link.textContent = player.name + " ";
        hint.className = "hint";
        hint.textContent = [player.code, grades(player)].filter(Boolean).join(" · ");
        link.appendChild(hint);
        item.appendChild(link);
        list.appendChild(item);
      });
      list.hidden = dismissed || players.length === 0;
      status.textContent = describe(answer, players.length);
    }

    function describe(answer, found) {
      if (!answer) {
        return "";
      }
      if (answer.problem) {
        return answer.problem;
      }
      if (!found) {
        return "No players match. Press Enter to search.";
      }
      var total = answer.page ? answer.page.total : found;
      var shown = Math.min(found, SHOWN);
      return shown + " of " + total + (total === 1 ? " player" : " players") +
        " suggested: press the down arrow to choose one.";
    }

    function ask() {
      var text = input.value.trim();
      var key = text + "\u0000" + inactive();
      if (text.length < MIN_CHARS) {
        asked = "";
        hide();
        status.textContent = "";
        return;
      }
      if (key === asked) {
        return;
      }
      asked = key;
      if (pending) {
        pending.abort();
      }
      pending = new AbortController();
      var query = new URLSearchParams({ q: text, format: "json" });
      if (inactive()) {
        query.set("inactive", "1");
      }
      fetch(base + "?" + query.toString(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: pending.signal
      })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(show)
        .catch(function (error) {
          if (error.name !== "AbortError") {
            hide();
          }
        });
    }

    function later() {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, PAUSE);
    }

    function move(step) {
      var all = links();
      var at = all.indexOf(document.activeElement);
      var next = at + step;
      if (next < 0) {
        input.focus();
      } else if (next < all.length) {
        all[next].focus();
      }
    }

    input.addEventListener("input", function () {
      dismissed = false;
      later();
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && !list.hidden && links().length) {
        event.preventDefault();
        links()[0].focus();
      } else if (event.key === "Escape" && !list.hidden) {
        event.preventDefault();
        dismiss();
      }
    });
    list.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        move(event.key === "ArrowDown" ? 1 : -1);
      } else if (event.key === "Escape") {
        event.preventDefault();
        dismiss();
        input.focus();
      }
    });
    if (form) {
      form.addEventListener("change", function (event) {
        if (event.target !== input) {
          dismissed = false;
          ask();
        }
      });
    }
    document.addEventListener("click", function (event) {
      if (!list.contains(event.target) && event.target !== input) {
        hide();
      }
    });
    input.addEventListener("focus", function () {
      if (!dismissed && list.childElementCount && input.value.trim().length >= MIN_CHARS) {
        list.hidden = false;
      }
    });
  }

  document.querySelectorAll("input[data-suggest]").forEach(enhance);
})();
