// Beside a replay (replay.js): "play on from here" (a fork, POST /games/{id}/forks) and the
// viewed seat's post-game review (GET /games/{id}/review?seat=N), docs/analysis.md.
import { api, problemText } from "./api.js";
import { forkRefusal } from "./forkable.js";
import { commandText, el } from "./tables.js";

const POLL_MS = 2000; // the review is made by a worker: asked again while it answers 202
const POLLS = 90;
const READS = 60; // tables read at most to find the nearest step a fork is made at

/** The analysis panel of a finished game's replay; ``go(step)`` moves the replay,
 * ``action(step)`` is ``[first, last]``, the steps of the action (one command's events) that
 * step belongs to: a fork starts only at its last; ``last`` is the replay's last step and
 * ``tableAt(step, asSeat)`` reads the table there (GET /replay?at=, as the replay shows it).
 * Call ``update(step, asSeat)`` whenever the replay moves and ``shown(step, asSeat, table)``
 * once its table is read; ``stop()`` when the page is left. */
export function analysisPanel({ path, game, go, action, last, tableAt }) {
  let step = 1;
  let asSeat = "";
  let stopped = false;
  let forking = false;
  let table = null; // the table at the step shown, as viewed (null while it is read)
  let search = 0; // the newest look for a moment to play on (older answers are dropped)
  const checked = new Map(); // "step|seat": the refusal there (null: allowed), from its table
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
    // the server judges: a refusal the page did not foresee is said in its words
    if (!made.ok) { status.textContent = `Cannot play on from here: ${problemText(made)}`; return; }
    location.hash = `#/game/${made.data.id}`;
  }

  const short = (seat) => (game.seats[seat]?.name ? `${game.seats[seat].name} (seat ${seat})` : `seat ${seat}`);

  /** Why the server would refuse a fork at ``at`` as ``seat`` ("": every card open): inside
   * an action, from the action marks (``{why, end}``), else from the public facts of the table
   * there (forkable.js, the table page's rule too: ``{why, ahead}``, ``ahead``: look for an
   * allowed moment later, else earlier); null where a fork is offered (or, outside an action,
   * while the table is not read yet). The server stays the judge. */
  function refusal(at, seat, shownTable) {
    const [first, end] = action(at);
    if (end !== at) return { why: `Events ${first} to ${end} are one action: a fork starts where it ends, at event ${end}.`, end };
    if (shownTable === null) return null; // not read yet: the button waits for it
    return forkRefusal({
      game: game.game, table: shownTable, seat: seat === "" ? null : Number(seat), ended: at === last, at, name: short, openToo: true,
    });
  }

  /** Play on only where the server would fork: the reason shown where it would not, with a
   * button to the nearest step it would. */
  function offer() {
    const mine = ++search; // a look for a step to go to, begun before, is dropped
    const refused = refusal(step, asSeat, table);
    playOn.disabled = forking || table === null || refused !== null;
    playOn.title = refused ? refused.why : "";
    where.hidden = !refused;
    if (!refused) { where.replaceChildren(); return; }
    const text = el("span", {}, refused.why);
    if (refused.end) { // inside an action: its end, the table the action leaves
      where.replaceChildren(text, " ", el("button", { type: "button", onclick: () => go(refused.end) }, `Go to event ${refused.end}`));
      return;
    }
    const looking = el("span", { class: "looking" }, " Looking for the nearest step to play on from\u2026");
    where.replaceChildren(text, looking);
    nearest(refused.ahead, mine).then(({ found, all }) => {
      if (mine !== search || !looking.isConnected) return;
      if (found !== null) looking.replaceWith(" ", el("button", { type: "button", onclick: () => go(found) }, `Go to event ${found}`));
      else if (all) looking.replaceWith(` No step of this game can be played on${asSeat === "" ? "" : ` as ${short(Number(asSeat))}`}.`);
      else looking.remove();
    });
  }

  /** The nearest step, after the one shown first (``ahead``) else before it, where a fork as
   * the viewed seat would be made (``found``, null if none), reading the tables of the steps
   * where actions end, at most ``READS`` of them (``all``: every step was looked at). */
  async function nearest(ahead, mine) {
    const seat = asSeat;
    const ends = [];
    for (let v = 1; v <= last; v += 1) if (action(v)[1] === v && v !== step) ends.push(v);
    const later = ends.filter((v) => v > step);
    const earlier = ends.filter((v) => v < step).reverse();
    let reads = 0;
    for (const v of ahead ? [...later, ...earlier] : [...earlier, ...later]) {
      const key = `${v}|${seat}`;
      if (!checked.has(key)) {
        if (reads >= READS) return { found: null, all: false };
        reads += 1;
        const read = await tableAt(v, seat);
        if (mine !== search || stopped || read === null) return { found: null, all: false };
        checked.set(key, refusal(v, seat, read));
      }
      if (checked.get(key) === null) return { found: v, all: true };
    }
    return { found: null, all: true };
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
      table = null; // until shown() brings the table at this step
      offer();
      if (changed) { list.replaceChildren(); status.textContent = ""; }
      for (const li of list.children) li.classList.toggle("current", Number(li.dataset.version) === step);
    },
    shown(shownStep, shownSeat, shownTable) {
      if (shownStep !== step || shownSeat !== asSeat) return;
      table = shownTable;
      checked.set(`${step}|${asSeat}`, refusal(step, asSeat, table));
      offer();
    },
    stop() { stopped = true; },
  };
}
