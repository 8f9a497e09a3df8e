// The end of a game: a sheet under the outcome with the result of every deal or hand (the move
// list's scoring moves), and what to do next: a rematch with the same seats, the
// replay and its audit, the lobby.
import { api, problemText } from "./api.js";
import { el } from "./tables.js";

const SCORING = /\.(DealScored|HandScored|HandThrownIn|PlayerOut|MatchEnded|GameEnded|MatchAborted|GameAborted)$/;

/** Whether an event item is a scoring one (shown on the sheet). */
export const scoring = (item) => SCORING.test(String((item.event || {}).type));

/** The game-over sheet of ``summary`` (``results``: the scoring moves' words, in order). A
 * seated person proposes a rematch (``propose``), or accepts the one another seat proposed
 * (``accept``: the summary names it); everyone sees the offer with a link to it. */
export function gameOverSheet({ id, summary, me, results, propose, accept, seatedThere }) {
  const list = el("ol", { class: "results", id: "results" }, results.map((words) => el("li", {}, words)));
  const offered = summary.rematch;
  const link = offered ? `#/game/${encodeURIComponent(offered)}` : null;
  let next = null;
  if (offered) {
    next = el("p", { id: "rematch-offer", role: "status" }, "A rematch with the same seats is offered: ",
      el("a", { href: link, id: "rematch-link" }, seatedThere || me === null ? "open the rematch" : "see it"), ".");
  }
  let button = null;
  if (me !== null && !offered) button = el("button", { type: "button", class: "primary", id: "rematch", onclick: propose }, "Propose a rematch, same seats");
  else if (me !== null && !seatedThere) button = el("button", { type: "button", class: "primary", id: "rematch", onclick: accept }, `Accept the rematch (seat ${me})`);
  return el("section", { class: "panel sheet", id: "game-over", "aria-labelledby": "game-over-title" },
    el("h2", { id: "game-over-title" }, "Game over"),
    results.length ? el("h3", {}, "Deal by deal") : null, results.length ? list : null,
    next,
    el("div", { class: "row" }, button,
      el("a", { class: "button", href: `#/replay/${id}` }, "Replay and audit"),
      el("a", { class: "button", href: "#/" }, "Lobby")),
    el("div", { class: "error", id: "rematch-error", role: "alert" }));
}

/** Propose (or accept: the same request) the rematch of finished game ``id`` with the seat's
 * ``token``: the server makes one game for every seat asking (the same rules, options and
 * seats, dealt afresh). Returns the rematch's summary as created, or ``{ error }``. */
export async function askRematch(id, token) {
  const made = await api("POST", `/games/${encodeURIComponent(id)}/rematch`, { token });
  return made.ok ? made.data : { error: problemText(made) };
}
