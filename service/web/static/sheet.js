// The end of a game: a sheet under the outcome with the result of every deal or hand (the move
// list's scoring moves), and what to do next: a rematch with the same seats, the
// replay and its audit, the lobby.
import { api, problemText } from "./api.js";
import { el } from "./tables.js";

const SCORING = /\.(DealScored|HandScored|HandThrownIn|PlayerOut|MatchEnded|GameEnded|MatchAborted|GameAborted)$/;

/** Whether an event item is a scoring one (shown on the sheet). */
export const scoring = (item) => SCORING.test(String((item.event || {}).type));

/** The game-over sheet of ``summary`` (``results``: the scoring moves' words, in order). */
export function gameOverSheet({ id, summary, me, results, rematch }) {
  const list = el("ol", { class: "results", id: "results" }, results.map((words) => el("li", {}, words)));
  return el("section", { class: "panel sheet", id: "game-over", "aria-labelledby": "game-over-title" },
    el("h2", { id: "game-over-title" }, "Game over"),
    results.length ? el("h3", {}, "Deal by deal") : null, results.length ? list : null,
    el("div", { class: "row" },
      me === null ? null : el("button", { type: "button", class: "primary", id: "rematch", onclick: rematch }, "Rematch, same seats"),
      el("a", { class: "button", href: `#/replay/${id}` }, "Replay and audit"),
      el("a", { class: "button", href: "#/" }, "Lobby")),
    el("div", { class: "error", id: "rematch-error", role: "alert" }));
}

/** A new game of the same kind, options and seats (the same bots; people's seats open), the
 * person seated again where they sat. Returns the new game's id, or the refusal in words. */
export async function createRematch(summary, me, join) {
  const seats = summary.seats.map((s) => (s.type === "bot" ? { type: "bot", bot: s.bot } : { type: "open" }));
  const created = await api("POST", "/games", { body: { game: summary.game, seats, options: summary.options || {} } });
  if (!created.ok) return { error: problemText(created) };
  const joined = await join(created.data, me);
  return joined.error ? joined : { id: created.data.id };
}
