// Beside a replay (replay.js): "play on from here" (a fork, POST /games/{id}/forks) and the
// viewed seat's post-game review (GET /games/{id}/review?seat=N), docs/analysis.md.
import { api, problemText } from "./api.js";
import { commandText, el } from "./tables.js";

const POLL_MS = 2000; // the review is made by a worker: asked again while it answers 202
const POLLS = 90;

/** The analysis panel of a finished game's replay; ``go(step)`` moves the replay,
 * ``action(step)`` is ``[first, last]``, the steps of the action (one command's events) that
 * step belongs to: a fork starts only at its last. Call ``update(step, asSeat)`` whenever the
 * replay moves; ``stop()`` when the page is left. */
export function analysisPanel({ path, game, go, action }) {
  let step = 1;
  let asSeat = "";
  let stopped = false;
  let forking = false;
  const status = el("p", { id: "analysis-status", class: "muted", "aria-live": "polite" });
  const playOn = el("button", { type: "button", id: "play-on", onclick: () => fork() }, "Play on from here");
  const reviewButton = el("button", { type: "button", id: "review-get", onclick: () => review(0) }, "Review this seat");
  const list = el("ol", { id: "review", class: "eventlog" });
  const where = el("p", { id: "play-on-where", class: "muted", hidden: true });

  async function fork() {
    const open = asSeat === "" ? 0 : Number(asSeat);
    const seats = game.seats.map((_, i) => (i === open ? { type: "open" } : { type: "bot", bot: "heuristic" }));
    const body = { at: step, as: asSeat === "" ? "open" : open, seats };
    forking = true;
    offer();
    const made = await api("POST", `${path}/forks`, { body });
    forking = false;
    offer();
    if (!made.ok) { status.textContent = `Cannot play on from here: ${problemText(made)}`; return; }
    location.hash = `#/game/${made.data.id}`;
  }

  /** Play on only where a move ends: between its events the table is half made (a seat out
   * and still to move), a moment nobody saw, and the server refuses a fork there. */
  function offer() {
    const [first, end] = action(step);
    const inside = end !== step;
    const why = `Events ${first} to ${end} are one action: a fork starts where it ends, at event ${end}.`;
    playOn.disabled = forking || inside;
    playOn.title = inside ? why : "";
    where.hidden = !inside;
    where.replaceChildren(...(inside ? [`${why} `, el("button", { type: "button", onclick: () => go(end) }, `Go to event ${end}`)] : []));
  }

  async function review(polls) {
    if (stopped) return;
    if (asSeat === "") { status.textContent = "Choose a seat to review (View)."; return; }
    const seat = asSeat;
    const answer = await api("GET", `${path}/review?seat=${seat}`);
    if (stopped || seat !== asSeat) return;
    if (answer.status === 202 && polls < POLLS) {
      status.textContent = answer.data && answer.data.status === "no worker"
        ? "No worker makes reviews on this server." : "The search bot is reviewing this seat\u2026";
      if (!answer.data || answer.data.status !== "no worker") setTimeout(() => review(polls + 1), POLL_MS);
      return;
    }
    if (!answer.ok) { status.textContent = problemText(answer); return; }
    show(answer.data);
  }

  function show(data) {
    const valued = data.decisions.filter((d) => d.cost !== null);
    status.textContent = `${valued.length} decisions valued by the search bot (${data.unit}; `
      + `${data.worlds} worlds each), costly above ${data.threshold}.`;
    list.replaceChildren(...data.decisions.map((d) => {
      const played = commandText({ kind: "action", seat: data.seat, action: d.played }, game.seats);
      const best = d.best ? commandText({ kind: "action", seat: data.seat, action: d.best }, game.seats) : "";
      const text = d.cost === null ? `${played} (not valued)`
        : `${played}: cost ${d.cost}${d.cost > 0 ? `, best ${best}` : ""}`;
      return el("li", { "data-version": d.version, class: d.costly ? "costly" : null },
        el("button", { type: "button", onclick: () => go(d.version), title: alternatives(d, data.seat) },
          `${d.costly ? "\u26a0 " : ""}event ${d.version}: ${text}`));
    }));
  }

  function alternatives(decision, seat) {
    return decision.alternatives.map((a) => `${commandText({ kind: "action", seat, action: a.action }, game.seats)}: ${a.value}`).join("\n");
  }

  const element = el("section", { class: "panel", id: "analysis", "aria-label": "Analysis" },
    el("h2", {}, "Analysis"),
    el("div", { class: "row" }, playOn, reviewButton),
    where,
    el("p", { class: "muted" }, "Play on from the step shown: as the seat viewed (the cards it had not seen dealt afresh), "
      + "or with every card open (the exact position); the other seats are bots."),
    status, list);

  return {
    element,
    update(newStep, newSeat) {
      const changed = newSeat !== asSeat;
      step = newStep;
      asSeat = newSeat;
      playOn.textContent = asSeat === "" ? "Play on from here (every card open)" : `Play on from here as ${game.seats[Number(asSeat)]?.name || `seat ${asSeat}`}`;
      offer();
      if (changed) { list.replaceChildren(); status.textContent = ""; }
      for (const li of list.children) li.classList.toggle("current", Number(li.dataset.version) === step);
    },
    stop() { stopped = true; },
  };
}
