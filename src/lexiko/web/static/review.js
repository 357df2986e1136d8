// The review of a GCG record sent from the lobby (/review/ID): how far it has got while
// the server computes it, then the chart, each player's accuracy and every turn.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const reviewId = decodeURIComponent(location.pathname.split("/").pop());
  let open = null;

  function render(rv) {
    const items = [];
    const chart = Lx.reviewChart(rv, (i) => { open = i; render(rv); });
    if (chart) items.push(chart);
    items.push(Lx.reviewSummary(rv));
    items.push(Lx.el("p", { class: "muted small", text:
      `${rv.players.join(" against ")}, ${rv.lexicon}. Each turn's ${rv.depth.candidates} best moves and the move played, ` +
      `simulated ${rv.depth.iterations} times each; the endgame solved. Win chance lost: inaccuracy from 3%, mistake ` +
      "from 7%, blunder from 15%." }));
    const list = Lx.el("ol", { class: "review-turns" });
    rv.turns.forEach((t, i) => {
      const li = Lx.el("li", { class: `review-turn verdict-${t.verdict}` + (open === i ? " current" : ""), onclick: () => { open = open === i ? null : i; render(rv); } },
        Lx.el("div", {}, Lx.el("b", { text: t.name }), ` ${t.rack}: `, Lx.el("span", { class: "played", text: `${t.played.move} ${t.played.score}` }),
          Lx.el("span", { class: "muted", text: ` (${Lx.reviewVerdict(t)})` })));
      if (open === i) {
        const best = Lx.el("ol", { class: "review-best" });
        for (const b of t.best) best.append(Lx.el("li", {}, Lx.reviewLine(b), Lx.el("span", { class: "muted", text: b.leave ? ` keep ${b.leave}` : "" })));
        li.append(best);
        if (t.after.length) li.append(Lx.el("div", { class: "muted small", text: t.after.join("; ") }));
      }
      list.append(li);
    });
    items.push(list);
    $("review-body").replaceChildren(...items);
    $("status").textContent = `${rv.players.join(" ")}: ${rv.scores.join("–")}`;
  }

  async function load() {
    try {
      const rv = await Lx.review(`/api/reviews/${encodeURIComponent(reviewId)}`,
        (answer) => { $("status").textContent = Lx.reviewProgressText(answer); });
      render(rv);
    } catch (e) {
      $("status").textContent = "";
      $("review-error").textContent = e.message;
    }
  }

  load();
})();
