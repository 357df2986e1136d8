// The game page: board, rack, drag and drop, live score preview, actions, clocks,
// move list, unseen tiles, GCG download and the review of a finished game. In a duplicate
// game "Play" and "Pass" are your move for the round (play again to change it), the move
// list holds each round's top, and a card shows the round, its time, the last round's
// moves and, at the end, the master sheet.
// The server decides everything; this page shows what it is sent and asks for actions.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const token = Lx.tokenFor(gameId);

  const G = {
    ws: null,
    state: null,
    receivedAt: 0,
    seat: null,
    rack: [],            // [{id, face}] in the order shown (tiles on the board included)
    placed: new Map(),   // "r,c" -> {id, letter, blank}
    typed: [],           // keys of tiles placed by typing, to undo with Backspace
    nextId: 1,
    selected: null,      // id of a rack tile chosen by a click
    cursor: null,        // {r, c, down} for typing
    exchange: null,      // Set of tile ids while choosing tiles to exchange
    previewId: 0,
    preview: null,
    busy: false,
    retry: 500,
    review: null,
    reviewTurn: null,
    reviewPick: null,
    cellsSize: 0,
    chat: [],
  };

  // -- connection -------------------------------------------------------------------

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(gameId)}`);
    G.ws = ws;
    setConnection("connecting");
    ws.addEventListener("open", () => {
      G.retry = 500;
      setConnection("online");
      ws.send(JSON.stringify({ type: "hello", token }));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (G.busy && G.state) G.unconfirmed = G.state.version;  // sent, never answered
      G.busy = false;
      setConnection("offline");
      if (G.fatal) return;
      setTimeout(connect, G.retry);
      G.retry = Math.min(G.retry * 2, 5000);
    });
  }

  function send(msg) {
    if (!G.ws || G.ws.readyState !== WebSocket.OPEN) {
      showMessage("not connected to the server: trying again…");
      return false;
    }
    G.ws.send(JSON.stringify(msg));
    return true;
  }

  function setConnection(what) {
    const el = $("connection");
    el.className = "connection " + what;
    el.textContent = what === "online" ? "● online" : what === "offline" ? "● offline" : "● …";
  }

  function onMessage(msg) {
    if (msg.type === "state") {
      if (G.state && msg.version < G.state.version) return;
      const before = G.state;
      G.state = msg;
      if ("you" in msg) G.seat = msg.you; // a game started without its open seats numbers them again
      G.receivedAt = performance.now();
      if (before && msg.version > before.version) G.busy = false;
      if (G.unconfirmed !== undefined && G.unconfirmed !== null) {
        if (msg.version === G.unconfirmed) {
          showMessage("The connection dropped before the server got your last action: it was not made. Make it again.");
        }
        G.unconfirmed = null;
      }
      reconcile(before, msg);
      render();
    } else if (msg.type === "progress") {
      // a crowd's round: how many have played (the state itself comes when the round closes)
      const d = G.state && G.state.duplicate;
      if (d && msg.round === d.round && G.state.status === "active") {
        d.played_count = msg.played;
        $("round-progress").textContent = `${msg.played} of ${msg.players} players have played`;
      }
    } else if (msg.type === "chat") {
      G.chat.push(msg);
      G.chat = G.chat.slice(-100);
      renderChat();
    } else if (msg.type === "chat-history") {
      G.chat = msg.messages || [];
      renderChat();
    } else if (msg.type === "welcome") {
      G.seat = msg.seat;
    } else if (msg.type === "preview") {
      if (msg.id === G.previewId) {
        G.preview = msg;
        renderPreview();
      }
    } else if (msg.type === "error") {
      G.busy = false;
      showMessage(msg.message);
      if (msg.fatal) {
        G.fatal = true;
        $("status").textContent = msg.message;
      }
      renderControls();
    }
  }

  function showMessage(text, kind) {
    const el = $("message");
    el.textContent = text || "";
    el.className = "message " + (kind || "error");
  }

  // -- rack bookkeeping ----------------------------------------------------------------

  function multiset(faces) {
    return [...faces].sort().join("\u0001");
  }

  function reconcile(before, st) {
    const server = st.rack || [];
    const local = G.rack.map((t) => t.face);
    if (multiset(server) !== multiset(local)) {
      // keep the order the player chose for the tiles still there; new tiles go last
      const left = [...server];
      const kept = [];
      for (const t of G.rack) {
        const i = left.indexOf(t.face);
        if (i >= 0) { kept.push(t); left.splice(i, 1); }
      }
      G.rack = kept.concat(left.map((face) => ({ id: G.nextId++, face })));
      clearPlaced();
      G.cursor = null;
      G.exchange = null;
    } else {
      // another player's move may cover squares where tiles were put down
      for (const key of [...G.placed.keys()]) {
        const [r, c] = key.split(",").map(Number);
        if (st.board[r][c]) G.placed.delete(key);
      }
    }
    if (st.status === "over") {
      clearPlaced();
      G.exchange = null;
    }
    if (!before || before.version !== st.version) requestPreview();
  }

  function clearPlaced() {
    G.placed.clear();
    G.typed = [];
    G.selected = null;
    G.preview = null;
  }

  function placedIds() {
    return new Set([...G.placed.values()].map((p) => p.id));
  }

  function tileById(id) {
    return G.rack.find((t) => t.id === id);
  }

  function keyOf(id) {
    for (const [k, p] of G.placed) if (p.id === id) return k;
    return null;
  }

  function putOnBoard(id, r, c, letter) {
    const t = tileById(id);
    if (!t || !G.state || G.state.board[r][c] || G.placed.has(`${r},${c}`)) return false;
    const old = keyOf(id);
    let blank = t.face === "?";
    let chosen = letter || (blank ? null : t.face);
    if (old) {
      const prev = G.placed.get(old);
      if (blank && !letter) chosen = prev.letter;
      G.placed.delete(old);
    }
    if (blank && !chosen) {
      chooseBlank().then((l) => {
        if (l) {
          G.placed.set(`${r},${c}`, { id, letter: l, blank: true });
          afterChange();
        } else {
          render();
        }
      });
      return true;
    }
    G.placed.set(`${r},${c}`, { id, letter: chosen, blank });
    afterChange();
    return true;
  }

  function backToRack(id, beforeId) {
    const k = keyOf(id);
    if (k) G.placed.delete(k);
    G.typed = G.typed.filter((x) => x !== k);
    if (beforeId !== undefined && beforeId !== id) {
      const i = G.rack.findIndex((t) => t.id === id);
      const [t] = G.rack.splice(i, 1);
      const j = beforeId === null ? G.rack.length : G.rack.findIndex((x) => x.id === beforeId);
      G.rack.splice(j < 0 ? G.rack.length : j, 0, t);
    }
    afterChange();
  }

  function afterChange() {
    G.selected = null;
    requestPreview();
    render();
  }

  function placedTiles() {
    return [...G.placed.entries()].map(([k, p]) => {
      const [row, col] = k.split(",").map(Number);
      return { row, col, letter: p.letter, blank: p.blank };
    });
  }

  function requestPreview() {
    G.previewId += 1;
    if (!G.placed.size || !G.state || G.state.status !== "active" || G.seat === null) {
      G.preview = null;
      renderPreview();
      return;
    }
    send({ type: "preview", id: G.previewId, tiles: placedTiles() });
  }

  // -- the blank ------------------------------------------------------------------------

  function chooseBlank() {
    return new Promise((resolve) => {
      const dlg = $("blank-dialog");
      const box = $("blank-letters");
      box.replaceChildren(...G.state.tiles.letters.map((l) =>
        Lx.el("button", { value: l, class: "tile blank-choice", "data-letter": l, text: l })));
      dlg.returnValue = "";
      dlg.addEventListener("close", () => {
        const v = dlg.returnValue;
        resolve(v && v !== "cancel" ? v : null);
      }, { once: true });
      dlg.showModal();
    });
  }

  // -- drag and drop (pointer events: mouse, pen and touch) ---------------------------------

  function startDrag(ev, id) {
    if (ev.button !== undefined && ev.button !== 0) return;
    if (G.review && G.reviewTurn !== null) return;
    const src = ev.currentTarget;
    const x0 = ev.clientX;
    const y0 = ev.clientY;
    let ghost = null;
    ev.preventDefault();

    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - x0, e.clientY - y0) > 4) {
        ghost = src.cloneNode(true);
        ghost.classList.add("ghost");
        const r = src.getBoundingClientRect();
        ghost.style.width = r.width + "px";
        ghost.style.height = r.height + "px";
        document.body.append(ghost);
        src.classList.add("dragging");
      }
      if (ghost) {
        ghost.style.left = e.clientX - ghost.offsetWidth / 2 + "px";
        ghost.style.top = e.clientY - ghost.offsetHeight / 2 + "px";
      }
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      src.classList.remove("dragging");
      if (!ghost) {
        clickTile(id);
        return;
      }
      ghost.remove();
      drop(id, document.elementFromPoint(e.clientX, e.clientY));
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  function drop(id, target) {
    if (!target) return render();
    const cell = target.closest(".cell");
    if (cell) {
      const r = Number(cell.dataset.r);
      const c = Number(cell.dataset.c);
      if (!putOnBoard(id, r, c)) render();
      return;
    }
    const rackTile = target.closest("#rack .tile");
    if (rackTile) return backToRack(id, Number(rackTile.dataset.id));
    if (target.closest(".rack-row")) return backToRack(id, null);
    render();
  }

  function clickTile(id) {
    if (G.exchange) {
      if (G.exchange.has(id)) G.exchange.delete(id); else G.exchange.add(id);
      return render();
    }
    if (keyOf(id)) return backToRack(id);
    G.selected = G.selected === id ? null : id;
    render();
  }

  function clickCell(r, c) {
    if (!G.state || G.exchange) return;
    if (G.selected !== null) {
      putOnBoard(G.selected, r, c);
      return;
    }
    if (G.state.board[r][c] || G.placed.has(`${r},${c}`)) return;
    if (G.cursor && G.cursor.r === r && G.cursor.c === c) G.cursor.down = !G.cursor.down;
    else G.cursor = { r, c, down: false };
    render();
  }

  // -- typing ----------------------------------------------------------------------------

  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea, dialog")) return;
    // a focused button or link answers Enter and Space itself
    const onControl = ev.target.closest && ev.target.closest("button, a, [role=button]");
    if (onControl && (ev.key === "Enter" || ev.key === " ")) return;
    if (!G.state || G.state.status !== "active" || G.seat === null || G.exchange) return;
    const cell = ev.target.closest && ev.target.closest("#board .cell");
    if (ARROWS[ev.key] && (G.cursor || cell)) {
      const n = G.state.layout.size;
      const [dr, dc] = ARROWS[ev.key];
      const from = G.cursor || { r: Number(cell.dataset.r), c: Number(cell.dataset.c), down: false };
      G.cursor = { r: Math.min(n - 1, Math.max(0, from.r + dr)), c: Math.min(n - 1, Math.max(0, from.c + dc)), down: from.down };
      ev.preventDefault();
      render();
      if (cell || boardHasFocus()) focusCursor();
      return;
    }
    if (ev.key === " " && (cell || G.cursor)) {
      ev.preventDefault();
      if (!G.cursor && cell) G.cursor = { r: Number(cell.dataset.r), c: Number(cell.dataset.c), down: false };
      G.cursor.down = !G.cursor.down;
      render();
      return;
    }
    if (ev.key === "Enter" && cell && G.selected !== null) {  // a chosen rack tile goes on this square
      ev.preventDefault();
      clickCell(Number(cell.dataset.r), Number(cell.dataset.c));
      return;
    }
    if (ev.key === "Enter") { ev.preventDefault(); play(); return; }
    if (ev.key === "Escape") { recall(); return; }
    if (ev.key === "Backspace") {
      const k = G.typed.pop();
      if (k && G.placed.has(k)) {
        const [r, c] = k.split(",").map(Number);
        G.placed.delete(k);
        G.cursor = { r, c, down: G.cursor ? G.cursor.down : false };
        afterChange();
      }
      ev.preventDefault();
      return;
    }
    if (!G.cursor || ev.key.length !== 1 || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const letter = ev.key.toUpperCase();
    if (!G.state.tiles.letters.includes(letter)) return;
    const used = placedIds();
    const free = G.rack.filter((t) => !used.has(t.id));
    let t = free.find((x) => x.face === letter);
    let blank = false;
    if (!t || ev.shiftKey && free.some((x) => x.face === "?")) {
      // Shift+letter, or a letter not on the rack: the blank stands for it
      const b = free.find((x) => x.face === "?");
      if (!b) { showMessage(`no ${letter} on your rack`); return; }
      t = b;
      blank = true;
    }
    const { r, c, down } = G.cursor;
    if (G.state.board[r][c] || G.placed.has(`${r},${c}`)) return;
    G.placed.set(`${r},${c}`, { id: t.id, letter, blank });
    G.typed.push(`${r},${c}`);
    // the cursor moves on over occupied squares
    const n = G.state.layout.size;
    let rr = r, cc = c;
    do { if (down) rr += 1; else cc += 1; }
    while (rr < n && cc < n && (G.state.board[rr][cc] || G.placed.has(`${rr},${cc}`)));
    G.cursor = rr < n && cc < n ? { r: rr, c: cc, down } : null;
    ev.preventDefault();
    const focusBoard = boardHasFocus();
    afterChange();
    if (focusBoard) focusCursor();
  }

  // -- actions -----------------------------------------------------------------------------

  function play() {
    if (!G.state || !G.state.can.play || G.busy) return;
    if (!G.placed.size) { showMessage("put tiles on the board first"); return; }
    showMessage("");
    if (send({ type: "play", tiles: placedTiles() })) G.busy = true;
    renderControls();
  }

  function recall() {
    clearPlaced();
    G.cursor = null;
    requestPreview();
    render();
  }

  function simple(type) {
    if (G.busy) return;
    showMessage("");
    if (send({ type })) G.busy = true;
    renderControls();
  }

  function startExchange() {
    if (!G.state || !G.state.can.exchange) return;
    recall();
    G.exchange = new Set();
    render();
  }

  function confirmExchange() {
    if (!G.exchange || !G.exchange.size) return;
    const tiles = G.rack.filter((t) => G.exchange.has(t.id)).map((t) => t.face);
    showMessage("");
    if (send({ type: "exchange", tiles })) G.busy = true;
    G.exchange = null;
    render();
  }

  async function downloadGcg() {
    try {
      const resp = await fetch(`/api/games/${encodeURIComponent(gameId)}/gcg`, {
        headers: token ? { Authorization: "Bearer " + token } : {},
      });
      if (!resp.ok) {
        const data = await resp.json().catch(() => null);
        throw new Error((data && data.error) || "the record could not be made");
      }
      const blob = await resp.blob();
      const a = Lx.el("a", { href: URL.createObjectURL(blob), download: `lexiko-${gameId}.gcg` });
      document.body.append(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    } catch (e) {
      showMessage(e.message);
    }
  }

  // -- rendering -------------------------------------------------------------------------------

  const PREMIUM = { T: "TW", D: "DW", Q: "QW", t: "TL", d: "DL", q: "QL", "*": "★", "+": "★" };

  function value(face) {
    if (!face || face === "?" || face !== face.toUpperCase()) return 0;
    return G.state.tiles.values[face] ?? 0;
  }

  function tileEl(face, opts) {
    const o = opts || {};
    const isBlank = o.blank || (face && face !== face.toUpperCase());
    const letter = face === "?" ? "" : face.toUpperCase();
    const el = Lx.el("div", {
      class: "tile" + (isBlank ? " blank" : "") + (o.cls ? " " + o.cls : ""),
      "data-letter": face === "?" ? "?" : letter,
    }, Lx.el("span", { class: "letter", text: letter }));
    if (!isBlank && face !== "?") el.append(Lx.el("span", { class: "value", text: String(value(face)) }));
    return el;
  }

  function buildBoard(n) {
    const board = $("board");
    board.style.setProperty("--n", n);
    board.replaceChildren();
    G.cells = [];
    for (let r = 0; r < n; r++) {
      const row = Lx.el("div", { class: "board-row", role: "row" });
      for (let c = 0; c < n; c++) {
        const cell = Lx.el("div", { class: "cell", role: "gridcell", tabindex: "-1", dataset: { r, c } });
        cell.addEventListener("click", () => clickCell(r, c));
        // reached with the keyboard (not a click): the typing cursor goes there
        cell.addEventListener("focus", () => {
          if (!cell.matches(":focus-visible") || (G.cursor && G.cursor.r === r && G.cursor.c === c)) return;
          G.cursor = { r, c, down: G.cursor ? G.cursor.down : false };
          render();
        });
        row.append(cell);
        G.cells.push(cell);
      }
      board.append(row);
    }
    G.cellsSize = n;
  }

  const PREMIUM_NAME = { T: "triple word", D: "double word", Q: "quadruple word", t: "triple letter",
    d: "double letter", q: "quadruple letter", "*": "start, double word", "+": "start" };

  function squareName(r, c) {
    return `${r + 1}${String.fromCharCode(65 + c)}`;
  }

  function tileWords(face) {
    if (face === "?") return "blank";
    const blank = face !== face.toUpperCase();
    return blank ? `${face.toUpperCase()} (blank)` : `${face}, ${value(face)} point${value(face) === 1 ? "" : "s"}`;
  }

  function focusCursor() {
    if (!G.cursor || !G.cells) return;
    const cell = G.cells[G.cursor.r * G.cellsSize + G.cursor.c];
    if (cell && document.activeElement !== cell) cell.focus();
  }

  function boardHasFocus() {
    return !!document.activeElement && $("board").contains(document.activeElement);
  }

  function renderBoard() {
    const st = G.state;
    const n = st.layout.size;
    if (G.cellsSize !== n) buildBoard(n);
    const turn = G.review && G.reviewTurn !== null ? G.review.turns[G.reviewTurn] : null;
    const board = turn ? turn.board : st.board;
    const last = new Set(turn ? [] : (st.last_play || []).map(([r, c]) => `${r},${c}`));
    const overlay = new Map();
    if (turn) {
      for (const [r, c, f] of turn.played.squares) overlay.set(`${r},${c}`, { face: f, cls: "review-played" });
      if (G.reviewPick !== null) {
        for (const [r, c, f] of turn.best[G.reviewPick].squares) overlay.set(`${r},${c}`, { face: f, cls: "review-best" });
      }
    }
    const cells = G.cells;
    const home = G.cursor && !turn ? G.cursor : { r: st.layout.start[0], c: st.layout.start[1] };
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const cell = cells[r * n + c];
        const key = `${r},${c}`;
        const prem = st.layout.rows[r][c];
        cell.tabIndex = home.r === r && home.c === c ? 0 : -1;
        let what = PREMIUM_NAME[prem] || "empty";
        if (board[r][c]) what = tileWords(board[r][c]) + (last.has(key) ? ", just played" : "");
        else if (G.placed.has(key) && !turn) what = tileWords(G.placed.get(key).blank ? G.placed.get(key).letter.toLowerCase() : G.placed.get(key).letter) + ", your tile, not played yet";
        if (G.cursor && G.cursor.r === r && G.cursor.c === c && !turn) what += G.cursor.down ? ", typing down" : ", typing across";
        cell.setAttribute("aria-label", `${squareName(r, c)}: ${what}`);
        cell.className = "cell p-" + ({ ".": "none", "*": "start", "+": "start" }[prem] ||
          prem.toUpperCase() + (prem === prem.toUpperCase() ? "W" : "L"));
        if (G.cursor && G.cursor.r === r && G.cursor.c === c && !turn) cell.classList.add("cursor", G.cursor.down ? "down" : "across");
        cell.replaceChildren();
        const face = board[r][c];
        if (face) {
          cell.append(tileEl(face, { cls: "fixed" + (last.has(key) ? " last" : "") }));
        } else if (overlay.has(key)) {
          const o = overlay.get(key);
          cell.append(tileEl(o.face, { cls: o.cls }));
        } else if (G.placed.has(key) && !turn) {
          const p = G.placed.get(key);
          const t = tileEl(p.blank ? p.letter.toLowerCase() : p.letter, { cls: "placed" });
          t.dataset.id = p.id;
          t.addEventListener("pointerdown", (ev) => startDrag(ev, p.id));
          cell.append(t);
        } else if (PREMIUM[prem]) {
          cell.append(Lx.el("span", { class: "premium", text: PREMIUM[prem] }));
        }
      }
    }
  }

  function renderRack() {
    const rack = $("rack");
    const used = placedIds();
    const active = document.activeElement;
    const focused = active && rack.contains(active) ? Number(active.dataset.id) : null;
    rack.replaceChildren();
    for (const t of G.rack) {
      if (used.has(t.id)) continue;
      const chosen = G.exchange && G.exchange.has(t.id);
      const el = tileEl(t.face, { cls: [G.selected === t.id ? "selected" : "", chosen ? "chosen" : ""].join(" ").trim() });
      el.dataset.id = t.id;
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", tileWords(t.face) + (G.exchange ? (chosen ? ", to exchange" : "") : G.selected === t.id ? ", chosen: now pick a square" : ""));
      el.setAttribute("aria-pressed", String(G.selected === t.id || !!chosen));
      el.addEventListener("pointerdown", (ev) => startDrag(ev, t.id));
      el.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); clickTile(t.id); }
      });
      rack.append(el);
      if (focused === t.id) el.focus();
    }
    if (G.seat === null) rack.append(Lx.el("span", { class: "muted", text: "You are watching this game." }));
  }

  function isDuplicate() {
    return !!G.state && G.state.rules.variant === "duplicate";
  }

  function renderPlayers() {
    const st = G.state;
    const box = $("players");
    if (!st.players.length) {
      box.replaceChildren(...st.seats.map((s) => Lx.el("div", { class: "player" },
        Lx.el("span", { class: "name", text: s.name || "(invited)" }),
        Lx.el("span", { class: "muted", text: s.taken ? (s.kind === "human" ? " joined" : " computer") : " not joined yet" }))));
      return;
    }
    const dup = isDuplicate();
    box.replaceChildren(...st.players.map((p) => {
      const label = `${p.name}${p.seat === G.seat ? " (you)" : ""}: ${p.score} points` + (dup
        ? `, ${p.percentage}% of the top${st.status === "active" ? (p.played ? ", has played" : ", has not played yet") : ""}`
        : `, ${p.rack ? "rack " + p.rack : p.rack_count + " tiles"}${p.on_turn ? ", to play" : ""}`);
      const el = Lx.el("div", {
        class: "player" + (p.on_turn ? " on-turn" : "") + (p.seat === G.seat ? " me" : ""),
        dataset: { seat: p.seat }, role: "listitem", "aria-label": label,
      },
      Lx.el("span", { class: "name", text: p.name + (p.seat === G.seat ? " (you)" : "") + (p.kind !== "human" && !/computer/i.test(p.name) ? " (computer)" : "") },
        p.rating !== undefined ? Lx.el("span", { class: "rating muted", text: ` ${p.rating}` }) : null),
      Lx.el("span", { class: "score", text: String(p.score) }),
      dup ? Lx.el("span", { class: "played" + (p.played ? "" : " muted"), text: p.played ? "played" : (st.status === "over" ? "" : "thinking") })
        : Lx.el("span", { class: "clock", dataset: { seat: p.seat }, text: Lx.clock(p.time_left) }),
      Lx.el("span", { class: "rack-count muted", text: dup ? `${p.percentage}% of the top` : p.rack ? p.rack : `${p.rack_count} tiles` }));
      return el;
    }));
    tickClocks();
  }

  function tickClocks() {
    const st = G.state;
    if (!st || !st.players) return;
    const dt = (performance.now() - G.receivedAt) / 1000;
    for (const p of st.players) {
      if (p.time_left === null || p.time_left === undefined) continue;
      const el = document.querySelector(`.clock[data-seat="${p.seat}"]`);
      if (!el) continue;
      const left = p.on_turn && st.status === "active" ? p.time_left - dt : p.time_left;
      el.textContent = Lx.clock(left);
      el.classList.toggle("overtime", left < 0);
    }
  }

  function renderMoves() {
    const st = G.state;
    const names = (st.players.length ? st.players : st.seats).map((p) => p.name);
    const list = $("moves");
    list.replaceChildren(...(st.history || []).map((h) => {
      let what = h.move || h.kind.replaceAll("-", " ");
      if (h.kind === "exchange") what = h.move && !/^-\d+$/.test(h.move) ? `exch. ${h.move.slice(1)}` : `exch. ${h.count}`;
      else if (h.kind === "pass") what = "pass";
      else if (h.kind === "withdrawn") what = h.invalid && h.invalid.length
        ? `withdrawn: ${h.invalid.join(", ")} ${h.invalid.length === 1 ? "is not a word" : "are not words"}`
        : "withdrawn";
      else if (h.kind === "end-rack-bonus" || h.kind === "end-rack-penalty") what = `(${h.tiles || ""})`;
      const used = h.elapsed !== undefined ? ` · ${Lx.clock(h.elapsed)}` : "";
      return Lx.el("li", { class: "move k-" + h.kind + (h.turn ? "" : " sub"), title: h.text + (used ? ` (${Lx.clock(h.elapsed)} used)` : ""), value: h.turn || null },
        Lx.el("span", { class: "who", text: h.who || names[h.player] }),
        Lx.el("span", { class: "what" }, what, used ? Lx.el("small", { class: "muted", text: used }) : null),
        Lx.el("span", { class: "pts", text: (h.score >= 0 ? "+" : "") + h.score }),
        Lx.el("span", { class: "total", text: String(h.total) }));
    }));
    list.scrollTop = list.scrollHeight;
  }

  function renderUnseen() {
    const st = G.state;
    const u = st.unseen || {};
    $("unseen").replaceChildren(...Object.entries(u).map(([f, n]) =>
      Lx.el("span", { class: "unseen-tile", title: `${n} × ${f}` }, Lx.el("b", { text: f }), Lx.el("sub", { text: String(n) }))));
    $("unseen-count").textContent = st.unseen_count !== undefined ? `(${st.unseen_count})` : "";
    $("bag").textContent = String(st.bag_count);
  }

  function renderPreview() {
    const el = $("preview");
    const p = G.preview;
    if (!G.placed.size) {
      el.textContent = G.state && G.state.can && G.state.can.play ? "Your turn: drag tiles to the board, or click a square and type" : "";
      el.className = "preview muted";
    } else if (!p) {
      el.textContent = "…";
      el.className = "preview muted";
    } else if (!p.ok) {
      el.textContent = p.error;
      el.className = "preview bad";
    } else {
      const bad = p.invalid && p.invalid.length ? ` — not in the word list: ${p.invalid.join(", ")}` : "";
      el.textContent = `${p.move} · ${p.words.join(", ")} · ${p.score} points${bad}`;
      el.className = "preview" + (bad ? " bad" : " good");
    }
    renderControls();
  }

  function renderControls() {
    const st = G.state;
    const can = (st && st.can) || {};
    const busy = G.busy;
    $("play").disabled = busy || !can.play || !G.placed.size || !(G.preview && G.preview.ok);
    $("play").textContent = G.preview && G.preview.ok && G.placed.size ? `Play ${G.preview.score}` : "Play";
    $("exchange").disabled = busy || !can.exchange || !!G.exchange;
    $("pass").disabled = busy || !can.pass;
    $("challenge").disabled = busy || !can.challenge;
    $("accept").hidden = !can.accept;
    $("accept").disabled = busy || !can.accept;
    $("exchange-bar").hidden = !G.exchange;
    const n = G.exchange ? G.exchange.size : 0;
    $("exchange-confirm").textContent = `Exchange ${n}`;
    $("exchange-confirm").disabled = busy || !n;
    $("recall").disabled = !G.placed.size;
    $("resign").hidden = !can.resign;
    $("resign").disabled = busy;
    $("abort").hidden = !can.abort;
    $("abort").disabled = busy;
    const dup = isDuplicate();
    for (const id of ["exchange", "challenge"]) $(id).hidden = dup;
    if (dup) $("accept").hidden = true;
  }

  function rematchPart() {
    const st = G.state;
    if (st.rematch) {
      return Lx.el("a", { class: "button primary", id: "rematch-link", href: `/game/${encodeURIComponent(st.rematch)}${token ? "#t=" + token : ""}`, text: "Go to the rematch" });
    }
    if (st.can && st.can.rematch) {
      return Lx.el("button", { type: "button", id: "rematch", class: "primary", text: "Rematch", onclick: () => simple("rematch") });
    }
    return null;
  }

  function renderResult() {
    const st = G.state;
    const box = $("result");
    if (st.status === "aborted") {
      box.hidden = false;
      box.replaceChildren(Lx.el("h2", { text: "Game aborted" }),
        Lx.el("p", { class: "muted", text: "A player called the game off before the first move: nobody wins." }));
      $("review").hidden = true;
      return;
    }
    if (st.status !== "over" || !st.result) {
      box.hidden = true;
      $("review").hidden = true;
      return;
    }
    box.hidden = false;
    const reason = { resigned: "a player resigned", duplicate: "no play is left for the shared rack", out: "a player went out", scoreless: "too many scoreless turns", target: "the target score was reached", time: "a player ran out of time", "match-time": "the match time ran out" }[st.result.reason] || st.result.reason;
    const parts = [
      Lx.el("h2", { text: st.result.winner_names.length === 1
        ? `${st.result.winner_names[0]} ${st.result.team_scores ? "win" : "wins"}` : "A draw" }),
      Lx.el("p", { class: "muted", text: `The game ended: ${reason}.` }),
    ];
    if (st.result.phonies.length) {
      parts.push(Lx.el("p", { class: "muted", text: "Phonies that stood: " + st.result.phonies.join(", ") }));
    }
    const again = rematchPart();
    if (again) parts.push(Lx.el("p", {}, again));
    box.replaceChildren(...parts);
    $("review").hidden = isDuplicate();
  }

  // -- duplicate: the round, its clock, the last round and the master sheet ------------------

  function roundLeft() {
    const d = G.state && G.state.duplicate;
    if (!d || d.time_left === null || d.time_left === undefined) return null;
    return d.time_left - (performance.now() - G.receivedAt) / 1000;
  }

  function tickRound() {
    const left = roundLeft();
    const el = $("round-clock");
    if (!el || left === null || G.state.status !== "active") { if (el) el.textContent = ""; return; }
    el.textContent = `${Lx.clock(Math.max(0, left))} left`;
    el.classList.toggle("overtime", left < 10);
  }

  function renderDuplicate() {
    const st = G.state;
    const d = st.duplicate;
    $("duplicate").hidden = !d;
    $("download-dup").hidden = !isDuplicate() || st.status === "waiting";
    if (!d) return;
    $("round-title").textContent = st.status === "over" ? `${d.round - 1} rounds` : `Round ${d.round}`;
    $("round-progress").textContent = st.status === "active" && d.player_count > 1
      ? `${d.played_count} of ${d.player_count} players have played` : "";
    $("round-mine").textContent = d.mine
      ? `Your move: ${d.mine.move} (${d.mine.score}). Play another to change it until the round ends.`
      : st.status === "active" && G.seat !== null ? "You have not played this round yet." : "";
    const last = d.last_round;
    const box = $("round-last");
    if (!last) {
      box.replaceChildren();
    } else {
      box.replaceChildren(
        Lx.el("p", { class: "small" }, Lx.el("b", { text: `Round ${last.number}` }), ` ${last.rack}: top `,
          Lx.el("b", { text: `${last.top.move} ${last.top.score}` })),
        Lx.el("ul", { class: "round-results small" }, ...last.results.map((r) => Lx.el("li", {},
          `${r.name}: ${r.move === null ? "(no move)" : r.move === "-" ? "pass" : r.move} ${r.score}` +
          (r.bonus ? ` +${r.bonus} solo` : "")))));
    }
    $("master-sheet").hidden = !d.master_sheet;
    $("master-sheet").textContent = d.master_sheet || "";
    tickRound();
  }

  async function downloadRecord() {
    try {
      const resp = await fetch(`/api/games/${encodeURIComponent(gameId)}/duplicate`);
      if (!resp.ok) {
        const data = await resp.json().catch(() => null);
        throw new Error((data && data.error) || "the record could not be made");
      }
      const blob = await resp.blob();
      const a = Lx.el("a", { href: URL.createObjectURL(blob), download: `lexiko-${gameId}.dup` });
      document.body.append(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    } catch (e) {
      showMessage(e.message);
    }
  }

  function renderWaiting() {
    const st = G.state;
    const waiting = st.status === "waiting";
    $("waiting").hidden = !waiting;
    if (waiting && token && !G.invitesLoaded) {
      G.invitesLoaded = true;
      Lx.api(`/api/games/${encodeURIComponent(gameId)}`, { token }).then((info) => {
        const items = (info.invites || []).map((inv) => {
          const url = location.origin + inv.path;
          return Lx.el("li", { class: "invite" }, Lx.el("span", { text: `Player ${inv.seat + 1}: ` }),
            Lx.el("input", { class: "invite-link", readonly: true, value: url }), Lx.copyButton(url));
        });
        const open = $("open-invite");
        open.hidden = !info.open_path;
        if (info.open_path) {
          const url = location.origin + info.open_path;
          $("open-link").value = url;
          $("open-copy").replaceChildren(Lx.copyButton(url));
        }
        $("invites-title").hidden = !info.open_path; // with one link for all, the seats' own links fold away
        $("invites-more").open = !info.open_path;
        $("invites").replaceChildren(...items);
        $("start-now").hidden = !info.can_start;
      }).catch(() => { G.invitesLoaded = false; });
    }
    if (!waiting) G.invitesLoaded = false;
  }

  async function startNow() {
    const joined = G.state.seats_taken;
    if (!confirm(`Start now${joined ? " with the " + joined + " players here" : ""}? The open seats are left out.`)) return;
    try {
      await Lx.api(`/api/games/${encodeURIComponent(gameId)}/start`, { token, json: {} });
    } catch (e) {
      showMessage(e.message);
    }
  }

  // -- banner, watchers, turn notifications ---------------------------------------------

  function renderBanner() {
    const b = G.state.banner;
    const el = $("banner");
    el.hidden = !b;
    if (b) {
      el.textContent = b.text;
      el.className = "banner " + (b.verdict === "phony" ? "phony" : "good");
    }
    const w = G.state.watchers || 0;
    $("watchers").textContent = w ? `${w} watching` : "";
  }

  function notifyTurn() {
    const st = G.state;
    const mine = G.seat !== null && st.status === "active" && (st.turn === G.seat || (st.can && (st.can.accept || (isDuplicate() && !st.duplicate.mine))));
    const title = `lexiko — ${st.status_text}`;
    document.title = mine && document.hidden ? "● Your turn — lexiko" : title;
    if (mine && !G.wasMine && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("lexiko: your turn", { body: st.status_text, tag: "lexiko-" + gameId }); } catch (e) { /* */ }
    }
    G.wasMine = mine;
    const ask = $("notify");
    ask.hidden = !("Notification" in window) || Notification.permission !== "default" || G.seat === null
      || st.status !== "active";
  }

  // -- chat ---------------------------------------------------------------------------------

  function muted() {
    try { return new Set(JSON.parse(localStorage.getItem("lexiko:muted") || "[]")); } catch (e) { return new Set(); }
  }

  function setMuted(name, on) {
    const m = muted();
    if (on) m.add(name); else m.delete(name);
    try { localStorage.setItem("lexiko:muted", JSON.stringify([...m])); } catch (e) { /* */ }
    renderChat();
  }

  function renderChat() {
    const m = muted();
    const list = $("chat-lines");
    list.replaceChildren(...G.chat.filter((c) => !m.has(c.from)).map((c) => Lx.el("li", {},
      Lx.el("b", { text: c.from + ": " }), c.text,
      c.seat !== G.seat ? Lx.el("button", { type: "button", class: "link small", text: "mute", title: `hide ${c.from}'s messages`, onclick: () => setMuted(c.from, true) }) : null)));
    list.scrollTop = list.scrollHeight;
    $("chat-muted").replaceChildren(...[...m].map((n) => Lx.el("button", { type: "button", class: "small", text: `unmute ${n}`, onclick: () => setMuted(n, false) })));
    $("chat-form").hidden = G.seat === null;
    // the server refuses players' lines during a duplicate round (moves stay private)
    const closed = !!(G.state && isDuplicate() && G.state.status === "active");
    $("chat-text").disabled = closed;
    $("chat-form").querySelector("button").disabled = closed;
    $("chat-text").placeholder = closed
      ? "the chat is closed while a duplicate round is on: it opens when the game ends"
      : "a message to the table";
  }

  function sendChat(ev) {
    ev.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
  }

  function renderLookup(st) {
    // the server refuses every lookup until the game ends (the play waiting for a
    // challenge is on the board): the box says so rather than inviting a refusal
    const open = st.status === "over" || st.status === "aborted";
    $("lookup-word").disabled = !open;
    $("lookup-form").querySelector("button").disabled = !open;
    $("lookup-word").placeholder = open ? "any word" : "the word judge opens when the game ends";
  }

  async function lookupWord(ev) {
    ev.preventDefault();
    const word = $("lookup-word").value.trim();
    const out = $("lookup-result");
    if (!word) return;
    try {
      const r = await Lx.api(`/api/games/${encodeURIComponent(gameId)}/lookup?word=${encodeURIComponent(word)}`);
      out.className = "small " + (r.valid ? "good" : "bad");
      out.textContent = `${r.word} is ${r.valid ? "" : "not "}valid in ${r.lexicon}` +
        (r.anagrams ? (r.anagrams.length ? `; anagrams: ${r.anagrams.join(", ")}` : "; no anagrams") : "");
    } catch (e) {
      out.className = "small bad";
      out.textContent = e.message;
    }
  }

  function render() {
    const st = G.state;
    if (!st) return;
    $("status").textContent = st.status_text + (G.seat !== null && st.turn === G.seat ? " — your turn" : "") +
      (st.rating_note ? ` (${st.rating_note})` : "");
    $("event-link").hidden = !st.event_id;
    if (st.event_id) $("event-link").href = `/event/${st.event_id}`;
    $("rules").textContent = `Rules: ${st.rules.summary}; lexicon ${st.rules.lexicon}` + (isDuplicate()
      ? `; ${st.rules.duplicate_seconds ? st.rules.duplicate_seconds + " seconds a round" : "a round ends when everybody has played"}.`
      : `; challenges: ${st.rules.challenge_rule}.`) + (st.seed !== undefined ? ` Seed ${st.seed}: every draw follows from it.` : "");
    renderLookup(st);
    renderBoard();
    renderRack();
    renderPlayers();
    renderMoves();
    renderUnseen();
    renderPreview();
    renderResult();
    renderWaiting();
    renderDuplicate();
    renderReview();
    renderBanner();
    renderChat();
    notifyTurn();
  }

  // -- review -------------------------------------------------------------------------------

  async function loadReview() {
    const btn = $("review-load");
    btn.disabled = true;
    btn.textContent = "Analysing…";
    try {
      G.review = await Lx.review(`/api/games/${encodeURIComponent(gameId)}/review`,
        (answer) => { btn.textContent = Lx.reviewProgressText(answer); });
      btn.hidden = true;
    } catch (e) {
      showMessage(e.message);
      btn.disabled = false;
      btn.textContent = "Analyse every turn";
    }
    render();
  }

  function showTurn(i, pick) {
    G.reviewTurn = i;
    G.reviewPick = pick === undefined ? null : pick;
    render();
  }

  function renderReview() {
    const body = $("review-body");
    if (!G.review) { body.replaceChildren(); return; }
    const rv = G.review;
    const items = [];
    const chart = Lx.reviewChart(rv, (i) => showTurn(i));
    if (chart) items.push(chart);
    items.push(Lx.reviewSummary(rv));
    items.push(Lx.el("p", { class: "muted small", text:
      `Each turn's ${rv.depth.candidates} best moves and the move played, simulated ${rv.depth.iterations} times each; ` +
      "the endgame solved. Win chance lost: inaccuracy from 3%, mistake from 7%, blunder from 15%." }));
    items.push(Lx.el("button", { type: "button", class: "small", text: "Final position", onclick: () => showTurn(null) }));
    const list = Lx.el("ol", { class: "review-turns" });
    rv.turns.forEach((t, i) => {
      const li = Lx.el("li", { class: `review-turn verdict-${t.verdict}` + (G.reviewTurn === i ? " current" : ""), onclick: () => showTurn(i) },
        Lx.el("div", {}, Lx.el("b", { text: t.name }), ` ${t.rack}: `, Lx.el("span", { class: "played", text: `${t.played.move} ${t.played.score}` }),
          Lx.el("span", { class: "muted", text: ` (${Lx.reviewVerdict(t)})` })));
      if (G.reviewTurn === i) {
        const best = Lx.el("ol", { class: "review-best" });
        t.best.forEach((b, j) => best.append(Lx.el("li", {
          class: G.reviewPick === j ? "current" : "",
          onclick: (ev) => { ev.stopPropagation(); showTurn(i, j); },
        }, Lx.reviewLine(b), Lx.el("span", { class: "muted", text: b.leave ? ` keep ${b.leave}` : "" }))));
        li.append(best);
        if (t.method === "endgame") li.append(Lx.el("div", { class: "muted small", text: t.exact ? "endgame solved exactly" : "endgame searched as deep as time allowed" }));
        if (t.after.length) li.append(Lx.el("div", { class: "muted small", text: t.after.join("; ") }));
      }
      list.append(li);
    });
    items.push(list);
    body.replaceChildren(...items);
  }

  // -- wiring ---------------------------------------------------------------------------------

  $("play").addEventListener("click", play);
  $("pass").addEventListener("click", () => simple("pass"));
  $("challenge").addEventListener("click", () => simple("challenge"));
  $("accept").addEventListener("click", () => simple("accept"));
  $("abort").addEventListener("click", () => { if (confirm("Abort this game? Nobody wins.")) simple("abort"); });
  $("resign").addEventListener("click", () => { if (confirm("Resign? You lose this game.")) simple("resign"); });
  $("start-now").addEventListener("click", startNow);
  $("exchange").addEventListener("click", startExchange);
  $("exchange-confirm").addEventListener("click", confirmExchange);
  $("exchange-cancel").addEventListener("click", () => { G.exchange = null; render(); });
  $("recall").addEventListener("click", recall);
  $("shuffle").addEventListener("click", () => {
    for (let i = G.rack.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [G.rack[i], G.rack[j]] = [G.rack[j], G.rack[i]];
    }
    render();
  });
  $("download").addEventListener("click", downloadGcg);
  $("review-load").addEventListener("click", loadReview);
  $("download-dup").addEventListener("click", downloadRecord);
  $("chat-form").addEventListener("submit", sendChat);
  $("lookup-form").addEventListener("submit", lookupWord);
  $("notify").addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch (e) { /* */ }
    render();
  });
  document.addEventListener("visibilitychange", () => { if (G.state) notifyTurn(); });
  document.addEventListener("keydown", onKey);
  setInterval(() => { tickClocks(); tickRound(); }, 250);
  connect();
})();
