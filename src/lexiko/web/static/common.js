// lexiko web app: helpers shared by the pages (no framework, no build step).
"use strict";

const Lx = {
  /** Create an element: Lx.el("div", {class: "x", text: "hi"}, child, ...). */
  el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  },

  /** The signed-in account ({name, rating, csrf, ...}) or null; Lx.me() asks the server once. */
  account: null,
  _me: null,
  me() {
    if (!Lx._me) {
      Lx._me = fetch("/api/me").then((r) => (r.ok ? r.json() : null)).catch(() => null)
        .then((a) => { Lx.account = a; return a; });
    }
    return Lx._me;
  },

  /** Fetch JSON; throws an Error whose message is the server's. A signed-in page sends
   *  its CSRF token with every request. */
  async api(path, options) {
    const opts = Object.assign({ headers: {} }, options || {});
    if (Lx.account && Lx.account.csrf) opts.headers["X-CSRF-Token"] = Lx.account.csrf;
    if (opts.json !== undefined) {
      opts.body = JSON.stringify(opts.json);
      opts.headers["Content-Type"] = "application/json";
      opts.method = opts.method || "POST";
      delete opts.json;
    }
    if (opts.token) {
      opts.headers["Authorization"] = "Bearer " + opts.token;
      delete opts.token;
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (e) {
      throw new Error("the server cannot be reached");
    }
    let data = null;
    try {
      data = await resp.json();
    } catch (e) {
      data = null;
    }
    if (!resp.ok) {
      throw new Error((data && data.error) || `the server answered ${resp.status}`);
    }
    return data;
  },

  /** The player's secret token for a game: from the address (#t=...), this tab, or this browser. */
  tokenFor(gameId) {
    const key = "lexiko:token:" + gameId;
    const m = /(?:^#|&)t=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (m) {
      try { sessionStorage.setItem(key, m[1]); localStorage.setItem(key, m[1]); } catch (e) { /* private mode */ }
      history.replaceState(null, "", location.pathname + location.search);
      return m[1];
    }
    try {
      return sessionStorage.getItem(key) || localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  },

  /** Seconds as m:ss (negative in overtime). */
  clock(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const neg = seconds < 0;
    const s = Math.floor(Math.abs(seconds));
    const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    return neg ? "-" + text : text;
  },

  /** A review (`/api/games/ID/review`, `/api/reviews/ID`): asked again every second
   *  while the server computes it, `onProgress(answer)` told how far it has got. */
  async review(path, onProgress) {
    for (;;) {
      const answer = await Lx.api(path);
      if (answer.status === "done") return answer;
      if (onProgress) onProgress(answer);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  },

  /** What a review not yet done says of itself. */
  reviewProgressText(answer) {
    if (answer.status === "queued") return `Waiting for ${answer.ahead || "other"} review${answer.ahead === 1 ? "" : "s"} to finish…`;
    return answer.total ? `Analysing: turn ${answer.done} of ${answer.total}…` : "Analysing…";
  },

  /** The chart of a two-player review: the spread (left axis, points) and the first
   *  player's chance to win (right axis, %) after each turn (bottom axis); mistakes
   *  and blunders marked. `onPick(i)` is called with a turn's index when its dot is clicked. */
  reviewChart(rv, onPick) {
    const turns = rv.turns.filter((t) => t.spread !== undefined && t.spread !== null);
    if (!turns.length) return null;
    const NS = "http://www.w3.org/2000/svg";
    const W = 360, H = 200, L = 44, R = 40, T = 14, B = 34;
    const n = turns.length;
    const raw = Math.max(20, ...turns.map((t) => Math.abs(t.spread)));
    const most = Math.ceil(raw / 50) * 50;
    const x = (i) => L + (W - L - R) * (n === 1 ? 0.5 : i / (n - 1));
    const ySpread = (v) => T + (H - T - B) * (0.5 - v / (2 * most));
    const yWin = (p) => T + (H - T - B) * (1 - p / 100);
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "review-chart");
    svg.setAttribute("role", "img");
    const last = turns[n - 1];
    svg.setAttribute("aria-label", `spread and ${rv.players[0]}'s win chance by turn: ${rv.players[0]} ends ${last.spread >= 0 ? "+" : ""}${last.spread}`);
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    // axes: turns along the bottom, spread on the left, win chance on the right
    add("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "frame" });
    add("line", { x1: L, x2: L, y1: T, y2: H - B, class: "frame" });
    add("line", { x1: W - R, x2: W - R, y1: T, y2: H - B, class: "frame" });
    add("line", { x1: L, x2: W - R, y1: ySpread(0), y2: ySpread(0), class: "axis" });
    const step = n <= 12 ? 1 : n <= 30 ? 5 : 10;
    turns.forEach((t, i) => {
      const roomy = n - 1 - i >= Math.max(1, step / 2);  // no label crowding the last one
      if (i === 0 || i === n - 1 || (t.turn % step === 0 && roomy)) {
        add("line", { x1: x(i), x2: x(i), y1: H - B, y2: H - B + 3, class: "frame" });
        add("text", { x: x(i), y: H - B + 12, class: "tick", "text-anchor": "middle" }, String(t.turn));
      }
    });
    add("text", { x: (L + W - R) / 2, y: H - 4, class: "axis-title", "text-anchor": "middle" }, "turn");
    for (const v of [-most, -most / 2, 0, most / 2, most]) {
      add("text", { x: L - 4, y: ySpread(v) + 3, class: "tick spread-legend", "text-anchor": "end" }, (v > 0 ? "+" : "") + v);
    }
    for (const p of [0, 50, 100]) {
      add("text", { x: W - R + 4, y: yWin(p) + 3, class: "tick win-legend" }, `${p}%`);
    }
    const mid = (T + H - B) / 2;
    add("text", { x: 10, y: mid, class: "axis-title spread-legend", "text-anchor": "middle", transform: `rotate(-90 10 ${mid})` },
      `spread (${rv.players[0]} − ${rv.players[1]})`);
    add("text", { x: W - 14, y: mid, class: "axis-title win-legend", "text-anchor": "middle", transform: `rotate(90 ${W - 14} ${mid})` },
      `${rv.players[0]}'s win chance`);
    if (turns.every((t) => t.win !== undefined && t.win !== null)) {
      add("polyline", { points: turns.map((t, i) => `${x(i)},${yWin(t.win)}`).join(" "), class: "win" });
    }
    add("polyline", { points: turns.map((t, i) => `${x(i)},${ySpread(t.spread)}`).join(" "), class: "spread" });
    turns.forEach((t, i) => {
      const bad = ["inaccuracy", "mistake", "blunder"].includes(t.verdict) ? " " + t.verdict : "";
      const dot = add("circle", { cx: x(i), cy: ySpread(t.spread), r: bad ? 4 : 2.5, class: "dot" + bad });
      const title = document.createElementNS(NS, "title");
      const win = t.win !== undefined && t.win !== null ? `, ${rv.players[0]} wins ${t.win}%` : "";
      title.textContent = `turn ${t.turn}: ${t.name} ${t.played.move}${bad ? " (" + t.verdict + ")" : ""}; spread ${t.spread >= 0 ? "+" : ""}${t.spread}${win}`;
      dot.append(title);
      if (onPick) dot.addEventListener("click", () => onPick(rv.turns.indexOf(t)));
    });
    return svg;
  },

  /** Each player's accuracy and mistakes, as a small table. */
  reviewSummary(rv) {
    const heads = [["player", "player"], ["accuracy", "accuracy: 100 × e^(−win chance lost / 15%), the mean of the moves'"],
      ["best", "moves the review ranks first"], ["?!", "inaccuracies: 3 to 7% of win chance lost"],
      ["?", "mistakes: 7 to 15% of win chance lost"], ["??", "blunders: 15% of win chance lost or more"]];
    const head = Lx.el("tr", {}, ...heads.map(([h, title]) => Lx.el("th", { text: h, title })));
    const rows = rv.summaries.filter((s) => s.moves).map((s) => Lx.el("tr", {},
      Lx.el("td", { text: s.name }), Lx.el("td", { text: s.accuracy === null ? "" : `${s.accuracy}%` }),
      Lx.el("td", { text: `${s.best} of ${s.moves}` }), Lx.el("td", { text: String(s.inaccuracies) }),
      Lx.el("td", { text: String(s.mistakes) }), Lx.el("td", { text: String(s.blunders) })));
    return Lx.el("table", { class: "review-summary" }, Lx.el("thead", {}, head), Lx.el("tbody", {}, ...rows));
  },

  /** One line of a weighed move: its score, win chance and value. */
  reviewLine(m) {
    const value = m.value === undefined || m.value === null ? "" : `, value ${m.value >= 0 ? "+" : ""}${m.value.toFixed(1)}`;
    const win = m.win === undefined || m.win === null ? "" : `, wins ${m.win}%`;
    return `${m.move} ${m.score}${win}${value}`;
  },

  /** What the move played lost, and its verdict. */
  reviewVerdict(t) {
    if (t.verdict === "best") return "best";
    const lost = t.win_lost ? `−${t.win_lost.toFixed(1)}% win chance, ` : "";
    return `${t.verdict}: ${lost}−${t.value_lost.toFixed(1)} value`;
  },

  copyButton(text) {
    return Lx.el("button", {
      type: "button", class: "small", text: "Copy",
      onclick: async (ev) => {
        try { await navigator.clipboard.writeText(text); ev.target.textContent = "Copied"; }
        catch (e) { ev.target.textContent = "Select and copy"; }
      },
    });
  },
};
