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
