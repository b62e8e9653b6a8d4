/* Deck-check counter: registered and counted cards per type, kept on this device (localStorage), so a
   reload or a lost connection loses nothing. Big + and − buttons; Undo takes back the last tap. */
(function () {
  "use strict";
  var form = document.getElementById("deck-check");
  if (!form) return;
  var KEY = "judgeapp-deck-check";
  var rows = Array.prototype.slice.call(form.querySelectorAll("tr[data-type]"));
  var data = load(), history = [];

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null") || fresh(); } catch (e) { return fresh(); }
  }
  function fresh() { return { player: "", registered: {}, counted: {}, sideboard: 0 }; }
  function save() { try { localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) { /* kept in memory */ } }
  function render() {
    var registered = 0, counted = 0, off = 0;
    form.elements.player.value = data.player || "";
    form.elements.sideboard.value = data.sideboard || 0;
    rows.forEach(function (row) {
      var type = row.dataset.type, r = data.registered[type], c = data.counted[type] || 0;
      row.querySelector(".registered").value = r === undefined || r === null ? "" : r;
      row.querySelector(".counted").textContent = c;
      var wrong = r !== undefined && r !== null && r !== "" && Number(r) !== c;
      row.classList.toggle("off", wrong);
      if (wrong) off++;
      registered += Number(r || 0); counted += c;
    });
    document.getElementById("deck-registered").textContent = registered;
    document.getElementById("deck-counted").textContent = counted;
    document.getElementById("deck-verdict").textContent = counted === registered && !off ? "Matches" : "Off by " + (counted - registered) + (off ? " (" + off + " type" + (off > 1 ? "s" : "") + ")" : "");
  }
  rows.forEach(function (row) {
    var type = row.dataset.type;
    row.querySelector(".plus").addEventListener("click", function () { history.push([type, 1]); data.counted[type] = (data.counted[type] || 0) + 1; save(); render(); });
    row.querySelector(".minus").addEventListener("click", function () {
      if (!data.counted[type]) return;
      history.push([type, -1]); data.counted[type] -= 1; save(); render();
    });
    row.querySelector(".registered").addEventListener("input", function (event) {
      var value = event.target.value.trim();
      data.registered[type] = value === "" ? null : Math.max(0, parseInt(value, 10) || 0);
      save(); render();
    });
  });
  form.elements.player.addEventListener("input", function (event) { data.player = event.target.value; save(); });
  form.elements.sideboard.addEventListener("input", function (event) { data.sideboard = Math.max(0, parseInt(event.target.value, 10) || 0); save(); });
  document.getElementById("deck-undo").addEventListener("click", function () {
    var last = history.pop();
    if (!last) return;
    data.counted[last[0]] = Math.max(0, (data.counted[last[0]] || 0) - last[1]); save(); render();
  });
  document.getElementById("deck-reset").addEventListener("click", function () { data = fresh(); history = []; save(); render(); });
  render();
})();
