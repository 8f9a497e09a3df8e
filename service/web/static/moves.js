// The move list: every event of the game the reader may see, in the server's game words (each
// event item's ``text``), shown one after another at one pace for every move, the newest
// highlighted, the cards it names pulsed on the table and flown there (flight.js). The pace is
// the display's only: the table itself is always the latest view.
import { api } from "./api.js";
import { flightMs, flyEvent } from "./flight.js";
import { el } from "./tables.js";

export const PACE_MS = 400;

/** The pace moves are shown at in a game with these options: PACE_MS, or the game's bot pace
 * (``bot_pace_ms``) when that is shorter, so the list never falls behind paced bots. */
export function paceFor(options) {
  const bots = Number((options || {}).bot_pace_ms) || 0;
  return bots > 0 ? Math.min(PACE_MS, bots) : PACE_MS;
}

/** A move list for game ``path`` read with ``token()``; ``catchUp(version)`` reads what is
 * new up to that version (an error is tried again at the next catch-up). ``pace``: ms between
 * two moves shown; ``seat()``: the page's seat (its cards fly from the hand). */
export function moveList({ path, token, onLeave, pace = PACE_MS, seat = () => null }) {
  const list = el("ol", { class: "moves", id: "moves", "aria-label": "Moves", "data-pace-ms": pace });
  const box = el("details", { class: "panel moves-panel", id: "moves-panel", open: true },
    el("summary", {}, "Moves"), list);
  let listed = 0;  // the version read up to
  let reading = null;
  const waiting = [];  // read, not shown yet
  const all = [];  // every item read, in order
  let pacer = null;
  onLeave(() => clearTimeout(pacer));

  async function catchUp(version, over = false) {
    if (reading) await reading;
    if (version > listed) {
      reading = read(version);
      try { await reading; } finally { reading = null; }
    }
    if (over) ended = true;
    if (!opened || over) {  // what happened before the page opened, or once over, at once
      opened = true;
      clearTimeout(pacer);
      pacer = null;
      for (const item of waiting.splice(0)) list.append(entry(item));
      if (ended) for (const flying of document.querySelectorAll(".card.flight")) flying.remove();
      list.scrollTop = list.scrollHeight;
    }
    if (!pacer) showNext();
  }

  async function read(version) {
    let after = listed;
    while (after !== null && after !== undefined && after < version) {
      const page = await api("GET", `${path}/events?after=${after}&limit=1000`, { token: token() });
      if (!page.ok) return;
      for (const item of page.data.events) {
        if (item.text && item.version > listed) { waiting.push(item); all.push(item); }
      }
      listed = Math.max(listed, ...page.data.events.map((i) => i.version));
      after = page.data.next_after;
    }
  }

  const entry = (item) => el("li", { "data-version": item.version }, item.text);
  let opened = false;
  let ended = false;  // once over the table is redrawn with every card: nothing flies
  function showNext() {
    pacer = null;
    const item = waiting.shift();
    if (!item) return;
    for (const old of list.querySelectorAll("li.new")) old.classList.remove("new");
    const shown = entry(item);
    shown.classList.add("new");
    list.append(shown);
    list.scrollTop = list.scrollHeight;
    pulse(item.event || {});
    if (!ended) flyEvent(item.event, seat(), flightMs(pace));
    pacer = setTimeout(showNext, pace);  // the same pace for every move
  }

  return { box, catchUp, items: () => [...all] };
}

/** The cards an event names, pulsed where the table shows them (a card reaching the pile or
 * the trick). */
function pulse(event) {
  const named = [event.card, ...(Array.isArray(event.cards) ? event.cards : [])].filter((c) => typeof c === "string");
  for (const code of named) {
    for (const shown of document.querySelectorAll(`#felt [data-card="${code}"]`)) {
      shown.classList.remove("pulse");
      void shown.offsetWidth;  // restart the animation
      shown.classList.add("pulse");
    }
  }
}
