// The replay of a finished game: step through it as any seat, beside its audit.
import { analysisPanel } from "./analysis.js";
import { api, problemText } from "./api.js";
import { commandText, el, eventText, outcomeText, seatName, tableEl } from "./tables.js";

/** Every event of a finished game (GET /events is paginated: follow ``next_after``). */
async function allEvents(path) {
  const items = [];
  let after = 0;
  while (after !== null && after !== undefined) {
    const page = await api("GET", `${path}/events?after=${after}&limit=1000`);
    if (!page.ok) break;
    items.push(...page.data.events);
    after = page.data.next_after;
  }
  return items;
}

/** The first and last versions of the action (one command's events) each event belongs to:
 * a finished game's events carry, on the first of each command's batch, ``batch`` (its event
 * count), the marks the server's own check reads (a fork starts where an action ends,
 * domain.forks.check_moment). Without them an event is taken as an action of its own. */
function actions(items) {
  const of = new Map();
  let first = 0;
  let last = 0;
  for (const item of items) {
    if (item.batch) [first, last] = [item.version, item.version + item.batch - 1];
    of.set(item.version, item.version <= last ? [first, last] : [item.version, item.version]);
  }
  return of;
}

export async function replayPage({ main, onLeave }, id) {
  const path = `/games/${encodeURIComponent(id)}`;
  const summary = await api("GET", path);
  if (!summary.ok) {
    main.append(el("h1", {}, "Game not found"), el("p", {}, problemText(summary)));
    return;
  }
  const game = summary.data;
  document.title = `cardroom: replay ${id}`;
  main.append(el("h1", {}, `Replay of ${game.title} `, el("span", { class: "muted gid" }, id)));
  if (game.status !== "over") {
    main.append(el("p", {}, "This game is not over yet: its replay exists once it ends. ",
      el("a", { href: `#/watch/${id}` }, "Watch it live")));
    return;
  }
  const [items, audit] = await Promise.all([allEvents(path), api("GET", `${path}/replay/verification`)]);
  const last = items.length || game.version;
  let step = last;
  let asSeat = "";

  const slider = el("input", { type: "range", id: "replay-slider", min: 1, max: last, value: step, "aria-label": "Step" });
  const jump = el("input", { type: "number", id: "replay-jump", min: 1, max: last, value: step, "aria-label": "Jump to event", size: 5 });
  const seatSelect = el("select", { id: "replay-as" }, el("option", { value: "" }, "every card open"),
    game.seats.map((s, i) => el("option", { value: i }, `as ${seatName(game.seats, i)}`)));
  const stepLabel = el("span", { id: "replay-step", "aria-live": "polite" });
  const what = el("div", { id: "replay-what" });
  const table = el("div", { id: "table" });
  const log = el("ol", { class: "eventlog", id: "event-log" }, items.map((item) => el("li", { "data-version": item.version },
    el("button", { type: "button", onclick: () => go(item.version) }, eventText(item, game.seats)))));

  const auditBox = el("section", { class: "panel", id: "audit", "aria-label": "Audit" }, el("h2", {}, "Audit"));
  if (audit.ok) {
    const a = audit.data;
    auditBox.append(el("p", { id: "verification", class: a.ok ? "ok" : "bad" },
      a.ok ? "\u2714 Verified" : `\u2718 Verification failed at ${a.bad_version === null ? "the file" : `event ${a.bad_version}`}: ${a.reason}`),
    el("p", { class: "muted" }, a.summary),
    el("table", { class: "plain" }, el("tbody", {},
      el("tr", {}, el("th", {}, "Deck commitment"), el("td", { class: "hash" }, a.commitment || "none (explicit deal)")),
      el("tr", {}, el("th", {}, "Revealed seed"), el("td", { class: "hash" }, a.seed ?? "-")),
      el("tr", {}, el("th", {}, "Hash chain"), el("td", {}, `${a.events} events in ${a.batches} batches, head `, el("span", { class: "hash" }, a.head_hash))))));
  } else {
    auditBox.append(el("p", { class: "bad", id: "verification" }, `Verification unavailable: ${problemText(audit)}`));
  }
  auditBox.append(el("p", {}, el("a", { class: "button", id: "download", href: `${path}/replay`, download: `${id}.replay.json` }, "Download the replay file"),
    " ", el("span", { class: "muted" }, "check it offline with "), el("code", {}, "cardroom replay verify")));

  const prev = el("button", { type: "button", id: "replay-prev", onclick: () => go(step - 1) }, "\u25c0 Previous");
  const next = el("button", { type: "button", id: "replay-next", onclick: () => go(step + 1) }, "Next \u25b6");
  main.append(auditBox,
    el("section", { class: "panel", "aria-label": "Replay controls" },
      el("div", { class: "row" }, el("button", { type: "button", id: "replay-first", onclick: () => go(1) }, "\u00ab First"), prev, next,
        el("button", { type: "button", id: "replay-last", onclick: () => go(last) }, "Last \u00bb"),
        el("label", { for: "replay-jump" }, "Event"), jump, stepLabel,
        el("label", { for: "replay-as" }, "View"), seatSelect),
      slider, el("p", { class: "muted" }, "Keys: \u2190 and \u2192 step, Home and End jump."),
      what),
    table,
    el("section", { class: "panel" }, el("h2", {}, "Events"), log));
  const actionOf = actions(items);
  const replayAt = (version, seat) => { // the replay at a step, as a seat views it ("": open)
    const query = new URLSearchParams({ at: String(version) });
    if (seat !== "") query.set("as", seat);
    return api("GET", `${path}/replay?${query}`);
  };
  const tableAt = async (version, seat) => {
    const read = await replayAt(version, seat);
    return read.ok ? read.data.table : null;
  };
  const analysis = analysisPanel({
    path, game, go: (target) => go(target), action: (version) => actionOf.get(version) ?? [version, version], last, tableAt,
  });
  main.append(analysis.element);
  onLeave(() => analysis.stop());

  let token = 0;
  async function go(target) {
    step = Math.max(1, Math.min(last, Number(target) || 1));
    slider.value = step; jump.value = step;
    prev.disabled = step <= 1; next.disabled = step >= last;
    stepLabel.textContent = `event ${step} of ${last}`;
    analysis.update(step, asSeat);
    for (const li of log.children) {
      const current = Number(li.dataset.version) === step;
      li.classList.toggle("current", current);
      if (current) log.scrollTop = li.offsetTop - log.offsetTop - log.clientHeight / 2;
    }
    const mine = ++token;
    const result = await replayAt(step, asSeat);
    if (mine !== token) return;
    if (!result.ok) { what.textContent = problemText(result); return; }
    const data = result.data;
    const shown = data.events.map((event) => eventText({ event }, game.seats));
    what.replaceChildren(el("p", {}, el("strong", {}, commandText(data.command, game.seats) || (data.command && data.command.kind) || ""),
      " ", shown.join("; ")));
    const outcome = data.table.outcome ? el("div", { class: "outcome" }, outcomeText(data.table.outcome, game.seats)) : null;
    table.replaceChildren(...[outcome, tableEl(data.table, game.seats, asSeat === "" ? null : Number(asSeat))].filter(Boolean));
    table.dataset.step = String(step);
    analysis.shown(step, asSeat, data.table);
  }
  slider.addEventListener("input", () => go(slider.value));
  jump.addEventListener("change", () => go(jump.value));
  seatSelect.addEventListener("change", () => { asSeat = seatSelect.value; go(step); });
  const keys = (event) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "Home") go(1);
    else if (event.key === "End") go(last);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", keys);
  onLeave(() => document.removeEventListener("keydown", keys));
  await go(1);
}
