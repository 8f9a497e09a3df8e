// Card flights: as the move list shows a move, the cards it names fly on the table from where
// they came to where they went (a card from a seat to the pile or the trick; a trick taken to
// its winner). A flight is a copy of the card over the page that lets every touch through
// (pointer-events: none) and is gone when it lands, so it never delays or catches input; every
// flight lasts the same (``flightMs``), and none is made when the person prefers reduced motion.
import { cardEl } from "./cards.js";

const PLAYED = /\.(CardPlayed|CardsPlayed|StockPlayed|FaceDownFlipped)$/;
const TAKEN = /\.TrickWon$/;

/** How long every flight lasts: three quarters of the pace the moves are shown at. */
export const flightMs = (pace) => Math.round(pace * 0.75);

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Where a seat sits on the page: the person's own hand panel, else its box on the felt. */
function seatRect(seat, me) {
  const own = seat === me ? document.querySelector("#play-panel:not([hidden]) #hand") : null;
  const box = own || document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  return box ? box.getBoundingClientRect() : null;
}

const middle = () => document.querySelector("#felt .play-area");

/** One card flying from rectangle ``from`` to ``to`` over the page. */
function fly(code, from, to, ms) {
  const ghost = cardEl(code, { small: true });
  ghost.classList.add("flight");
  ghost.setAttribute("aria-hidden", "true");
  ghost.dataset.ms = String(ms);
  ghost.style.left = `${from.left + from.width / 2 - 16}px`;
  ghost.style.top = `${from.top + from.height / 2 - 22}px`;
  document.body.append(ghost);
  const dx = (to.left + to.width / 2) - (from.left + from.width / 2);
  const dy = (to.top + to.height / 2) - (from.top + from.height / 2);
  const flight = ghost.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }],
    { duration: ms, easing: "ease-out" });
  const gone = () => ghost.remove();
  flight.onfinish = gone;
  flight.oncancel = gone;
}

/** The flight of one event item's cards, if it moves any: ``me`` is the page's seat. */
export function flyEvent(event, me, ms) {
  if (reduced() || !event || ms <= 0) return;
  const type = String(event.type || "");
  const cards = [event.card, ...(Array.isArray(event.cards) ? event.cards : [])].filter((c) => typeof c === "string");
  if (!cards.length) return;
  if (PLAYED.test(type) && typeof event.seat === "number") {
    const from = seatRect(event.seat, me);
    for (const code of cards) {
      const landed = document.querySelector(`#felt .play-area [data-card="${code}"]`) || middle();
      if (from && landed) fly(code, from, landed.getBoundingClientRect(), ms);
    }
  } else if (TAKEN.test(type) && typeof event.winner === "number") {
    const from = middle();
    const to = seatRect(event.winner, me);
    if (from && to) for (const code of cards) fly(code, from.getBoundingClientRect(), to, ms);
  }
}
