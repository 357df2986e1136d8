// The invitation page: take the seat this link is for.
"use strict";

(function () {
  const parts = location.pathname.split("/").filter(Boolean); // ["join", id, invite]
  const gameId = parts[1];
  const invite = parts[2];
  const err = document.getElementById("join-error");

  async function load() {
    const me = await Lx.me();
    if (me) {  // signed in: the seat is taken by the account, under its name
      const input = document.getElementById("join-name");
      input.value = me.name;
      input.readOnly = true;
      document.getElementById("game-summary").dataset.account = me.name;
    }
    try {
      const info = await Lx.api(`/api/games/${encodeURIComponent(gameId)}`);
      document.getElementById("game-summary").textContent = "Rules: " + info.rules;
      const list = document.getElementById("join-seats");
      list.replaceChildren(...info.seats.map((s) => Lx.el("li", {},
        s.name || "(open seat)", s.kind !== "human" ? " — computer" : "", s.taken ? "" : " — waiting")));
      if (info.status !== "waiting") err.textContent = "This game has already started.";
    } catch (e) {
      err.textContent = e.message;
    }
  }

  document.getElementById("join").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const name = document.getElementById("join-name").value.trim();
    const button = document.getElementById("join-button");
    button.disabled = true;
    try {
      const res = await Lx.api(`/api/games/${encodeURIComponent(gameId)}/join`, { json: { invite, name } });
      location.href = `/game/${res.game_id}#t=${res.token}`;
    } catch (e) {
      err.textContent = e.message;
      button.disabled = false;
    }
  });
  load();
})();
