// Events: the new-event form, the registration page, and the event page (standings,
// rounds, your next game, the director's controls), which polls the event's version.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean); // ["event", id, ...]
  const store = {
    get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } },
  };
  const directorKey = (id) => `lexiko:event:${id}:director`;
  const playerKey = (id) => `lexiko:event:${id}:player`;

  // -- the new-event form -------------------------------------------------------------
  async function newEvent() {
    try {
      const opts = await Lx.api("/api/options");
      const presets = Object.keys(opts.presets).filter((p) => opts.presets[p].rules.variant !== "duplicate");
      $("event-preset").replaceChildren(...presets.map((p) => Lx.el("option", { value: p, text: p, selected: p === "tournament" })));
      $("event-lexicon").replaceChildren(...opts.lexicons.map((l) => Lx.el("option", { value: l, text: l })));
    } catch (e) {
      $("new-event-error").textContent = e.message;
    }
    $("new-event").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      $("new-event-error").textContent = "";
      const rounds = Number($("event-rounds").value);
      const method = $("event-method").value;
      const divisions = $("event-divisions").value.split(",").map((s) => s.trim()).filter(Boolean)
        .map((name) => ({ name, method, rounds }));
      try {
        const made = await Lx.api("/api/events", { json: {
          name: $("event-name").value, divisions, preset: $("event-preset").value, auto: $("event-auto").checked,
          options: { lexicon: $("event-lexicon").value, time_minutes: Number($("event-minutes").value) },
        } });
        store.set(directorKey(made.event_id), made.token);
        location.href = made.path;
      } catch (e) {
        $("new-event-error").textContent = e.message;
      }
    });
  }

  // -- registration ---------------------------------------------------------------------
  async function register() {
    const id = parts[1];
    const key = parts[3];
    const me = await Lx.me();
    if (me) { $("register-name").value = me.name; $("register-name").readOnly = true; $("register-rating").disabled = true; }
    try {
      const ev = await Lx.api(`/api/events/${encodeURIComponent(id)}`);
      $("register-title").textContent = "Register for " + ev.name;
      $("register-summary").textContent = `${ev.rules.lexicon}, ${ev.rules.time_minutes ? ev.rules.time_minutes + " minutes each" : "no clock"}; `
        + ev.divisions.map((d) => `division ${d.name}: ${d.rounds} rounds, ${d.players.length} players`).join("; ");
      $("register-division").replaceChildren(...ev.divisions.map((d) => Lx.el("option", { value: d.name, text: d.name })));
    } catch (e) {
      $("register-error").textContent = e.message;
    }
    $("register").addEventListener("submit", async (e) => {
      e.preventDefault();
      $("register-error").textContent = "";
      try {
        const res = await Lx.api(`/api/events/${encodeURIComponent(id)}/register`, { json: {
          key, name: $("register-name").value, rating: Number($("register-rating").value) || 0,
          division: $("register-division").value || null,
        } });
        store.set(playerKey(id), res.token);
        location.href = `/event/${res.event_id}`;
      } catch (err) {
        $("register-error").textContent = err.message;
      }
    });
  }

  // -- the event page -------------------------------------------------------------------
  function eventPage() {
    const id = parts[1];
    const director = store.get(directorKey(id));
    const player = store.get(playerKey(id));
    const token = director || player;
    let version = -1;
    let view = null;

    const say = (text) => { $("event-error").textContent = text || ""; };
    const act = async (what, body) => {
      say("");
      try {
        await Lx.api(`/api/events/${encodeURIComponent(id)}/${what}`, { json: body || {}, token: director });
        await refresh(true);
        return true;
      } catch (e) {
        say(e.message);
        return false;
      }
    };
    const division = () => $("director-division").value || null;

    function renderYou(v) {
      const you = v.you;
      $("you").hidden = !you;
      if (!you) return;
      $("you-line").textContent = `You are ${you.name}, player ${you.number} of division ${you.division}.`;
      const g = you.game;
      const line = $("you-game");
      if (!g) {
        line.replaceChildren(v.status === "registering" ? "Waiting for the event to start." : "You are not paired in this round.");
      } else if (g.bye) {
        line.replaceChildren(`Round ${g.round}: you have a bye.`);
      } else if (g.done) {
        line.replaceChildren(v.status === "over" ? "The event is over." : `Round ${g.round} is done for you: waiting for the next round.`);
      } else {
        line.replaceChildren(`Round ${g.round}, table ${g.table}: you play ${g.opponent_name} (player ${g.opponent}), going ${g.first ? "first" : "second"}. `,
          Lx.el("a", { id: "play-link", class: "button primary", href: `/game/${g.game_id}#t=${player}`, text: "Play" }));
      }
      line.dataset.round = g ? g.round : "";
      line.dataset.table = g && g.table ? g.table : "";
      line.dataset.opponent = g && g.opponent ? g.opponent_name : "";
    }

    function renderDirector(v) {
      $("director").hidden = !v.director;
      if (!v.director) return;
      const link = location.origin + v.register_path;
      $("register-link").textContent = link;
      $("register-link").href = v.register_path;
      $("register-copy").replaceChildren(Lx.copyButton(link));
      $("start").hidden = v.status !== "registering";
      $("pause").textContent = v.paused ? "Resume" : "Pause";
      const chosen = $("director-division").value;
      $("director-division").replaceChildren(...v.divisions.map((d) => Lx.el("option", { value: d.name, text: d.name, selected: d.name === chosen })));
      $("event-file").href = `/api/events/${id}/file`;
    }

    function renderDivision(d, k) {
      const names = Object.fromEntries(d.players.map((p) => [p.number, p.name]));
      const rows = d.standings.map((s) => Lx.el("tr", { class: s.withdrawn ? "withdrawn" : null },
        Lx.el("td", { text: s.rank }), Lx.el("td", { text: `${s.name} (${s.number})` }),
        Lx.el("td", { text: s.wins }), Lx.el("td", { text: s.losses }), Lx.el("td", { text: (s.spread > 0 ? "+" : "") + s.spread })));
      const standings = Lx.el("table", { id: `standings-${k}`, class: "standings" },
        Lx.el("thead", {}, Lx.el("tr", {}, ...["#", "Player", "Wins", "Losses", "Spread"].map((h) => Lx.el("th", { text: h })))),
        Lx.el("tbody", {}, ...rows));
      const rounds = d.paired.slice().reverse().map((r) => Lx.el("div", { class: "round", dataset: { round: r.round } },
        Lx.el("h3", { text: `Round ${r.round}${r.complete ? "" : " (playing)"}` }),
        Lx.el("ul", { class: "pairings" }, ...r.pairings.map((p) => Lx.el("li", { dataset: { first: p.first, second: p.second || "" } },
          p.second === null
            ? `${names[p.first]}: bye${p.bye !== null && p.bye !== undefined ? " (" + (p.bye >= 0 ? "+" : "") + p.bye + ")" : ""}`
            : `Table ${p.table}: ${names[p.first]} – ${names[p.second]}${p.scores ? "  " + p.scores[0] + "–" + p.scores[1] : ""} `,
          p.game_id ? Lx.el("a", { href: `/game/${p.game_id}`, class: "watch", text: p.scores ? "see the game" : "watch" }) : null)))));
      return Lx.el("section", { class: "card division", id: `division-${k}` },
        Lx.el("h2", { text: `Division ${d.name}` }),
        Lx.el("p", { class: "muted", text: `${d.method}, ${d.paired.length} of ${d.rounds} rounds paired, ${d.players.length} players` }),
        standings, ...rounds);
    }

    function render(v) {
      view = v;
      document.title = `lexiko — ${v.name}`;
      $("event-title").textContent = v.name;
      const status = { registering: "Registration open", running: "In progress", over: "Over" }[v.status] || v.status;
      $("event-status").textContent = `${status}${v.paused ? " (paused)" : ""} · ${v.rules.lexicon} · `
        + (v.rules.time_minutes ? `${v.rules.time_minutes} minutes each` : "no clock");
      $("event-status").dataset.status = v.status;
      $("event-status").dataset.version = v.version;
      renderYou(v);
      renderDirector(v);
      $("divisions").replaceChildren(...v.divisions.map(renderDivision));
    }

    async function refresh(force) {
      try {
        if (!force) {
          const now = await Lx.api(`/api/events/${encodeURIComponent(id)}/version`);
          if (now.version === version) return;
        }
        const v = await Lx.api(`/api/events/${encodeURIComponent(id)}`, { token });
        version = v.version;
        render(v);
      } catch (e) {
        say(e.message);
      }
    }

    Lx.api("/api/options").then((o) => {
      $("bot-kind").replaceChildren(...Object.entries(o.bots).map(([k, d]) => Lx.el("option", { value: k, text: `${k}: ${d}` })));
    }).catch(() => {});
    $("start").addEventListener("click", () => act("start"));
    $("pause").addEventListener("click", () => act("pause", { paused: !(view && view.paused) }));
    $("pair").addEventListener("click", () => act("pair", { division: division() }));
    $("repair").addEventListener("click", () => { if (confirm("Pair the last round again? Its games are called off.")) act("repair", { division: division() }); });
    $("add-bot").addEventListener("click", () => act("bots", { kind: $("bot-kind").value || "greedy", division: division() }));
    $("withdraw").addEventListener("click", () => act("withdraw", { division: division(), player: Number($("withdraw-player").value) }));
    $("result-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const ok = await act("results", {
        division: division(), round: Number($("result-round").value), player: Number($("result-player").value),
        score: Number($("result-score").value), opponent: Number($("result-opponent").value),
        opponent_score: Number($("result-opponent-score").value), forfeit: $("result-forfeit").checked, correct: $("result-correct").checked,
      });
      if (ok) $("result-form").reset();
    });
    refresh(true);
    setInterval(() => refresh(false), 1000);
  }

  if (document.body.classList.contains("page-event-new")) newEvent();
  else if (document.body.classList.contains("page-event-register")) register();
  else eventPage();
})();
