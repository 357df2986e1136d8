// The new-game page: players (you, invited people, computer players), rules and options.
"use strict";

(function () {
  let OPTIONS = null;
  const G = { clockTouched: false };
  const seatsEl = document.getElementById("seats");
  const presetEl = document.getElementById("preset");
  const optionsEl = document.getElementById("options");
  const errorEl = document.getElementById("create-error");

  function seatRow(index, kind) {
    const li = Lx.el("li", { class: "seat", dataset: { index } });
    if (index === 0) {
      li.append(Lx.el("span", { class: "you", text: "You" }));
      return li;
    }
    const select = Lx.el("select", { class: "seat-kind", "aria-label": `Player ${index + 1}` });
    select.append(Lx.el("option", { value: "human", text: "Invite a person" }));
    for (const [k, desc] of Object.entries(OPTIONS.bots)) {
      select.append(Lx.el("option", { value: k, text: "Computer — " + desc }));
    }
    select.value = kind || "human";
    const name = Lx.el("input", { class: "seat-name", maxlength: 24, placeholder: "name (optional)" });
    const remove = Lx.el("button", {
      type: "button", class: "small", text: "Remove", "aria-label": "Remove this player",
      onclick: () => { li.remove(); renumber(); },
    });
    const sync = () => { name.hidden = select.value !== "human"; defaultClock(); };
    select.addEventListener("change", sync);
    sync();
    li.append(select, name, remove);
    return li;
  }

  // players a game of the chosen preset takes (duplicate: one to many)
  function seatLimits() {
    const p = OPTIONS && OPTIONS.presets[presetEl.value];
    return p ? { min: p.min_players, max: p.max_players } : { min: 2, max: 4 };
  }

  function renumber() {
    [...seatsEl.children].forEach((li, i) => { li.dataset.index = i; });
    const n = seatsEl.children.length;
    const { min, max } = seatLimits();
    document.getElementById("add-seat").disabled = n >= max;
    for (const b of seatsEl.querySelectorAll("button")) b.disabled = n <= min;
  }

  function isDuplicate() {
    const p = OPTIONS && OPTIONS.presets[presetEl.value];
    return !!p && p.rules.variant === "duplicate";
  }

  function fieldInput(f) {
    const id = "opt-" + f.name;
    let input;
    if (f.kind === "bool") {
      input = Lx.el("input", { type: "checkbox", id, name: f.name });
    } else if (f.choices) {
      input = Lx.el("select", { id, name: f.name });
      for (const c of f.choices) input.append(Lx.el("option", { value: c, text: c }));
    } else {
      input = Lx.el("input", {
        type: "number", id, name: f.name, step: f.kind === "int" ? "1" : "any", min: "0", max: f.max,
        placeholder: f.optional ? "none" : "",
      });
    }
    input.dataset.kind = f.kind;
    input.dataset.optional = f.optional ? "1" : "";
    const label = Lx.el("label", { for: id, class: "opt-name", text: f.name.replaceAll("_", " ") });
    return Lx.el("div", { class: "opt", title: f.help, dataset: { for: f.for || "all" } },
      label, input, Lx.el("small", { class: "muted", text: f.help }));
  }

  function readField(input) {
    if (input.dataset.kind === "bool") return input.checked;
    if (input.tagName === "SELECT") return input.value;
    if (input.value === "") return input.dataset.optional ? null : "";
    return Number(input.value);
  }

  function writeField(input, value) {
    if (input.dataset.kind === "bool") input.checked = !!value;
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  function applyPreset() {
    const p = OPTIONS.presets[presetEl.value];
    document.getElementById("preset-summary").textContent = p.summary;
    for (const input of optionsEl.querySelectorAll("input, select")) writeField(input, p.rules[input.name]);
    // duplicate games have their own options (time per round, the draw) and not those of turns
    const dup = isDuplicate();
    for (const opt of optionsEl.querySelectorAll(".opt")) {
      opt.hidden = opt.dataset.for === (dup ? "classic" : "duplicate");
    }
    while (seatsEl.children.length > p.max_players) seatsEl.lastChild.remove();
    renumber();
    defaultClock();
  }

  function humans() {
    return 1 + [...seatsEl.querySelectorAll(".seat-kind")].filter((s) => s.value === "human").length;
  }

  // games between people have a clock unless you empty the field
  function defaultClock() {
    const time = document.getElementById("opt-time_minutes");
    if (!time || isDuplicate()) return;
    if (humans() > 1 && time.value === "" && !G.clockTouched) time.value = "25";
  }

  function changedOptions() {
    const base = OPTIONS.presets[presetEl.value].rules;
    const out = {};
    const time = document.getElementById("opt-time_minutes");
    if (time && humans() > 1 && !isDuplicate()) out.time_minutes = readField(time);
    for (const input of optionsEl.querySelectorAll("input, select")) {
      if (input.closest(".opt").hidden) continue;
      const v = readField(input);
      if (v !== base[input.name]) out[input.name] = v;
    }
    return out;
  }

  async function init() {
    try {
      OPTIONS = await Lx.api("/api/options");
    } catch (e) {
      errorEl.textContent = e.message;
      return;
    }
    for (const name of Object.keys(OPTIONS.presets)) presetEl.append(Lx.el("option", { value: name, text: name }));
    presetEl.value = OPTIONS.default_preset;
    presetEl.addEventListener("change", applyPreset);
    optionsEl.replaceChildren(...OPTIONS.schema.map(fieldInput));
    seatsEl.append(seatRow(0), seatRow(1, Object.keys(OPTIONS.bots)[0]));
    renumber();
    applyPreset();
    const time = document.getElementById("opt-time_minutes");
    if (time) time.addEventListener("input", () => { G.clockTouched = true; });
    const nameEl = document.getElementById("your-name");  // a name typed while loading stays
    try { if (!nameEl.value) nameEl.value = localStorage.getItem("lexiko:name") || ""; } catch (e) { /* */ }
  }

  document.getElementById("add-seat").addEventListener("click", () => {
    if (seatsEl.children.length < seatLimits().max) seatsEl.append(seatRow(seatsEl.children.length, "human"));
    renumber();
  });

  document.getElementById("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorEl.textContent = "";
    const you = document.getElementById("your-name").value.trim();
    try { localStorage.setItem("lexiko:name", you); } catch (e) { /* */ }
    const seats = [...seatsEl.children].map((li, i) => {
      if (i === 0) return { kind: "human", name: you };
      const kind = li.querySelector(".seat-kind").value;
      const name = li.querySelector(".seat-name").value.trim();
      return { kind, name: kind === "human" && name ? name : null };
    });
    const seedText = document.getElementById("seed").value;
    const body = { preset: presetEl.value, options: changedOptions(), seats, seed: seedText === "" ? null : Number(seedText),
      public: document.getElementById("public").checked };
    const button = document.getElementById("create-button");
    button.disabled = true;
    try {
      const res = await Lx.api("/api/games", { json: body });
      const gameUrl = `/game/${res.game_id}#t=${res.token}`;
      try { localStorage.setItem("lexiko:token:" + res.game_id, res.token); } catch (e) { /* */ }
      if (!res.invites.length) {
        location.href = gameUrl;
        return;
      }
      const list = document.getElementById("invite-list");
      const openItem = res.open_path ? [Lx.el("li", { class: "invite" },
        Lx.el("span", { text: "Everybody (each person takes the next open seat): " }),
        Lx.el("input", { class: "invite-link", readonly: true, value: location.origin + res.open_path,
          onfocus: (e) => e.target.select() }),
        Lx.copyButton(location.origin + res.open_path))] : [];
      list.replaceChildren(...openItem, ...res.invites.map((inv) => {
        const url = location.origin + inv.path;
        return Lx.el("li", { class: "invite" },
          Lx.el("span", { text: `Player ${inv.seat + 1}${inv.name ? " (" + inv.name + ")" : ""}: ` }),
          Lx.el("input", { class: "invite-link", readonly: true, value: url, onfocus: (e) => e.target.select() }),
          Lx.copyButton(url));
      }));
      document.getElementById("go").href = gameUrl;
      document.getElementById("create").hidden = true;
      document.getElementById("created").hidden = false;
    } catch (e) {
      errorEl.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });

  // -- the lists: open games, games to watch, my games ------------------------------------

  function gameItem(info, extra) {
    const names = info.seats.map((s) => s.name || "(open seat)").join(" · ");
    return Lx.el("li", { class: "game-item" }, Lx.el("span", { text: names }),
      Lx.el("span", { class: "muted small", text: " " + info.rules }), extra);
  }

  async function loadLists() {
    try {
      const lobby = await Lx.api("/api/lobby");
      const open = document.getElementById("open-games");
      if (lobby.open.length) {
        open.replaceChildren(...lobby.open.map((g) => gameItem(g, Lx.el("a", { class: "button small primary", href: g.join, text: "Join" }))));
      }
      const live = document.getElementById("live-games");
      if (lobby.live.length) {
        live.replaceChildren(...lobby.live.map((g) => gameItem(g, Lx.el("a", { class: "button small", href: `/game/${g.id}`,
          text: `Watch${g.scores ? " (" + g.scores.join("–") + ")" : ""}` }))));
      }
    } catch (e) { /* the lists are a convenience */ }
    const mine = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith("lexiko:token:")) mine.push([k.slice("lexiko:token:".length), localStorage.getItem(k)]);
      }
    } catch (e) { /* private mode */ }
    const items = [];
    for (const [id, token] of mine.slice(-20)) {
      try {
        const info = await Lx.api(`/api/games/${encodeURIComponent(id)}`, { token });
        const status = { waiting: "waiting for players", active: "in progress", over: "over", aborted: "aborted" }[info.status] || info.status;
        items.push(gameItem(info, Lx.el("a", { class: "button small", href: `/game/${id}#t=${token}`, text: status })));
      } catch (e) {
        if (/no such game/.test(e.message)) { try { localStorage.removeItem("lexiko:token:" + id); } catch (x) { /* */ } }
      }
    }
    if (items.length) document.getElementById("my-games").replaceChildren(...items);
  }

  // -- the account (optional) -----------------------------------------------------------

  function showAccount() {
    const a = Lx.account;
    document.getElementById("account-in").hidden = !a;
    document.getElementById("account-form").hidden = !!a;
    const you = document.getElementById("your-name");
    if (a) {
      document.getElementById("account-name").textContent = a.name;
      document.getElementById("account-rating").textContent = `rating ${a.rating}, ${a.games} rated game${a.games === 1 ? "" : "s"}`;
      you.value = a.name;
    }
    you.readOnly = !!a;
  }

  async function account(path) {
    const err = document.getElementById("account-error");
    err.textContent = "";
    try {
      Lx.account = await Lx.api(path, { json: { name: document.getElementById("account-user").value.trim(),
        password: document.getElementById("account-password").value } });
      document.getElementById("account-password").value = "";
      showAccount();
    } catch (e) {
      err.textContent = e.message;
    }
  }

  document.getElementById("account-form").addEventListener("submit", (ev) => { ev.preventDefault(); account("/api/session"); });
  document.getElementById("sign-up").addEventListener("click", () => account("/api/accounts"));
  document.getElementById("sign-out").addEventListener("click", async () => {
    try { await Lx.api("/api/session", { method: "DELETE" }); } catch (e) { /* signed out anyway */ }
    Lx.account = null;
    showAccount();
  });

  async function loadRatings() {
    try {
      const top = await Lx.api("/api/ratings");
      if (top.length) {
        document.getElementById("ratings").replaceChildren(...top.slice(0, 10).map((r) =>
          Lx.el("li", { class: "game-item" }, Lx.el("span", { text: r.name }), Lx.el("span", { class: "muted small", text: ` ${r.rating} ±${2 * r.rd} · ${r.games} games` }))));
      }
    } catch (e) { /* */ }
  }

  // a game record to review: sent, then its page shows the review as it is computed
  document.getElementById("review-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("review-error");
    const file = document.getElementById("review-file").files[0];
    err.textContent = "";
    if (!file) return;
    if (file.size > 64000) { err.textContent = "a record to review is at most 64 KB"; return; }
    const btn = document.getElementById("review-button");
    btn.disabled = true;
    try {
      const sent = await Lx.api("/api/reviews", { json: { gcg: await file.text() } });
      location.href = sent.path;
    } catch (e) {
      err.textContent = e.message;
      btn.disabled = false;
    }
  });

  Lx.me().then(showAccount);
  init();
  loadLists();
  loadRatings();
})();
