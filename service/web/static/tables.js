// The table of each game, drawn from a view (a seat's, a spectator's, or everything open).
import { backEl, cardEl, cardName, cardsEl, isCard, suitName, suitSymbol, text } from "./cards.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** "alice", "heuristic (bot)", "open seat": how a seat is named on the page. */
export function seatName(seats, seat) {
  const info = (seats || [])[seat];
  if (!info) return `seat ${seat}`;
  if (info.type === "open") return `seat ${seat} (open)`;
  if (info.type === "bot") return `${info.name || info.bot} (bot, seat ${seat})`;
  return info.name || `seat ${seat}`;
}

function names(seats, list) {
  return (list || []).map((s) => seatName(seats, s)).join(", ") || "nobody";
}

function labelled(label, ...content) {
  return el("div", {}, el("h3", {}, label), ...content);
}

/** The middle of the table where the cards are played (the pile, the trick): first, and what
 * the page keeps in sight. */
function playArea(id, label, ...content) {
  return el("div", { id, class: "play-area" }, el("h3", {}, label), ...content);
}

function trickCards(plays, seats) {
  const row = el("div", { class: "cards" });
  for (const play of plays || []) {
    row.append(el("span", { class: "play" }, cardEl(play.card, { small: true }),
      text(seatName(seats, play.seat), "muted")));
  }
  if (!plays || plays.length === 0) row.append(text("no cards yet", "muted"));
  return row;
}

function seatBox(view, seats, seat, me, ...content) {
  const toAct = (view.to_act || []).includes(seat);
  const box = el("section", {
    class: `seat${toAct ? " to-act" : ""}${seat === me ? " me" : ""}`,
    "aria-label": `Seat ${seat}: ${seatName(seats, seat)}`,
    "data-seat": seat,
  }, el("div", {}, el("span", { class: "name" }, seatName(seats, seat)),
    seat === me ? el("span", { class: "badge" }, "you") : null,
    toAct ? el("span", { class: "badge" }, "to act") : null));
  box.append(...content.filter(Boolean));
  return box;
}

function handOf(view, seat, me, count) {
  const seatInfo = (view.seats || [])[seat] || {};
  if (seatInfo.hand) return cardsEl(seatInfo.hand, { small: true });
  if (Array.isArray(view.hands) && view.hands[seat]) return cardsEl(view.hands[seat], { small: true });
  if (seat === me && view.hand) {
    return view.handBelow ? el("div", { class: "muted" }, "your hand is below") : cardsEl(view.hand, { small: true });
  }
  return cardsEl(count || 0, { small: true });
}

// -- Shithead ---------------------------------------------------------------------------
function shithead(view, seats, me) {
  const pile = view.pile || [];
  const top = pile.slice(-6);
  const center = el("div", { class: "center", "aria-label": "Middle of the table" },
    playArea("pile", `Pile (${pile.length}), top at the right`, cardsEl(top, { small: true, empty: "empty" }),
      pile.length > top.length ? text(`${pile.length - top.length} more below`, "muted") : null),
    labelled("Stock", el("div", { class: "cards" },
      view.stock_count ? backEl(`stock of ${view.stock_count} cards`, true) : null,
      text(`${view.stock_count} cards`))),
    labelled("Burned", text(`${view.burned_count} cards`)),
    labelled("Direction", text(view.direction === -1 ? "\u21ba counter-clockwise" : "\u21bb clockwise")),
    view.last_revealed ? labelled("Last revealed", cardsEl([view.last_revealed], { small: true })) : null);
  const boxes = (view.seats || []).map((s) => {
    const faceUp = el("div", { class: "cards" });
    (s.face_up || []).forEach((stack, i) => {
      const span = el("span", { class: "stack", "aria-label": `face-up stack ${i + 1}` });
      for (const code of stack || []) span.append(isCard(code) ? cardEl(code, { small: true }) : backEl("face-up card", true));
      if (stack.length === 0) span.append(el("span", { class: "empty-slot", "aria-hidden": "true" }));
      faceUp.append(span);
    });
    const faceDown = s.face_down ? cardsEl(s.face_down, { small: true })
      : cardsEl(s.face_down_count || 0, { small: true });
    const badges = [s.ready === false && view.phase === "preplay" ? "choosing" : null,
      view.dealer === s.seat ? "dealer" : null,
      s.out ? `out${s.position ? ` (#${s.position})` : ""}` : null].filter(Boolean).join(", ");
    return seatBox(view, seats, s.seat, me,
      badges ? text(badges, "muted") : null,
      el("div", {}, text(`Hand (${s.hand_count}): `, "muted"), handOf(view, s.seat, me, s.hand_count)),
      el("div", {}, text("Face up: ", "muted"), faceUp),
      el("div", {}, text(`Face down (${s.face_down_count}): `, "muted"), faceDown));
  });
  return [center, el("div", { class: "seats" }, boxes)];
}

// -- Sixty-Six --------------------------------------------------------------------------
function sixtySix(view, seats, me) {
  const trumpCard = view.face_up_card || view.trump_card;
  const stock = view.stock === "closed"
    ? `closed by ${seatName(seats, view.closed_by)}` : `${view.stock_size} cards, open`;
  const marriages = (view.marriages || []).map((m) => {
    if (typeof m === "string") return `${suitName(m)}`;
    return `${seatName(seats, m.seat)}: ${suitSymbol(m.suit)} ${suitName(m.suit)}${m.points ? ` (${m.points})` : ""}`;
  });
  const result = view.last_deal_result;
  const center = el("div", { class: "center", "aria-label": "Middle of the table" },
    playArea("trick", "Current trick", trickCards(view.current_trick, seats)),
    labelled(`Trump: ${suitSymbol(view.trump_suit)} ${suitName(view.trump_suit)}`,
      view.face_up_card ? cardsEl([view.face_up_card], { small: true })
        : text(trumpCard ? `${cardName(trumpCard)} (taken or under the closed stock)` : "", "muted")),
    labelled("Stock", el("div", { class: "cards" },
      view.stock_size ? backEl(`stock of ${view.stock_size} cards`, true) : null, text(stock))),
    labelled("Last trick", view.last_trick
      ? el("div", {}, cardsEl(view.last_trick.cards, { small: true }),
        text(`won by ${seatName(seats, view.last_trick.winner)}`, "muted"))
      : text("none yet", "muted")),
    labelled("Marriages", text(marriages.join("; ") || "none", "")),
    labelled(`Match score (to ${view.game_target})`, el("table", { class: "plain" }, el("tbody", {},
      (view.game_points || []).map((p, i) => el("tr", {}, el("td", {}, seatName(seats, i)), el("td", {}, String(p))))))),
    view.points !== undefined ? labelled("Your points this deal",
      text(`${view.points}${view.pending_marriage_points ? ` (+${view.pending_marriage_points} pending marriage)` : ""}`)) : null,
    result ? labelled("Last deal", text(`${seatName(seats, result.winner)} won ${result.game_points} game point(s) (${String(result.reason).replaceAll("_", " ")})`)) : null);
  const boxes = (view.seats || []).map((s) => seatBox(view, seats, s.seat, me,
    view.dealer === s.seat ? text("dealer", "muted") : null,
    el("div", {}, text(`Hand (${s.hand_size}): `, "muted"), handOf(view, s.seat, me, s.hand_size)),
    el("div", {}, text(`Tricks: ${s.tricks}${s.points !== undefined ? `, points: ${s.points}` : ""}`, "muted"))));
  return [center, el("div", { class: "seats" }, boxes)];
}

// -- Sheepshead -------------------------------------------------------------------------
function sheepshead(view, seats, me) {
  const blind = Array.isArray(view.blind) ? cardsEl(view.blind, { small: true })
    : text(view.picker === null ? "not picked yet" : "with the picker", "muted");
  const buried = Array.isArray(view.buried) ? cardsEl(view.buried, { small: true, empty: "nothing yet" })
    : text(view.picker === null ? "-" : "hidden", "muted");
  const called = view.called ? (isCard(view.called) ? cardsEl([view.called], { small: true })
    : text(String(view.called))) : text(view.alone ? "none: the picker plays alone" : "none", "muted");
  const tricks = el("div", { class: "tricks" }, (view.tricks || []).map((t) => el("div", { class: "trick" },
    text(`Trick ${t.number}: ${seatName(seats, t.winner)} won ${t.points}`, "muted"),
    el("div", { class: "cards" }, t.cards.map((c, i) => {
      const card = cardEl(c, { small: true });
      const seat = (t.seats || [])[i];
      card.setAttribute("aria-label", `${cardName(c)} by ${seatName(seats, seat)}${seat === t.winner ? ", winning" : ""}`);
      card.title = seatName(seats, seat);
      if (seat === t.winner) card.classList.add("winner");
      return card;
    })))));
  if (!view.tricks || view.tricks.length === 0) tricks.append(text("no tricks yet", "muted"));
  const last = view.last_hand;
  const center = el("div", { class: "center", "aria-label": "Middle of the table" },
    playArea("trick", "Current trick", trickCards(view.trick, seats)),
    labelled(`Hand ${view.hand_number + 1}${view.rounds ? ` of ${view.rounds}` : ""}`,
      text(`dealer ${seatName(seats, view.dealer)}; picker ${view.picker === null ? "none yet" : seatName(seats, view.picker)}${view.leaster ? "; leaster" : ""}${view.multiplier > 1 ? `; stakes \u00d7${view.multiplier}` : ""}`)),
    labelled("Blind", blind),
    labelled("Buried", buried),
    labelled("Called card", called),
    labelled("Running scores", el("table", { class: "plain" }, el("tbody", {},
      (view.totals || []).map((p, i) => el("tr", {}, el("td", {}, seatName(seats, i)), el("td", {}, String(p))))))),
    last ? labelled("Last hand", text(`${(last.labels || []).join(", ").replaceAll("_", " ") || last.row || (last.leaster ? "leaster" : "scored")}: `
      + (last.scores || []).map((s, i) => `${seatName(seats, i)} ${s > 0 ? "+" : ""}${s}`).join(", "))) : null);
  const boxes = (view.seats || []).map((s) => {
    const roles = [s.dealer ? "dealer" : null, s.picker ? "picker" : null, s.partner ? "partner" : null,
      s.passed ? "passed" : null, s.sitting_out ? "sitting out" : null].filter(Boolean).join(", ");
    return seatBox(view, seats, s.seat, me, roles ? text(roles, "muted") : null,
      el("div", {}, text(`Hand (${s.cards}): `, "muted"), handOf(view, s.seat, me, s.cards)),
      el("div", {}, text(`Tricks ${s.tricks}, points ${s.points}, total ${s.total}`, "muted")));
  });
  return [center, el("div", { class: "seats" }, boxes),
    el("h3", {}, "Tricks of this hand"), tricks];
}

/** Before the deal a view has no seats yet (and no trump, hand number or stock): the table
 * then says who sits and who is awaited, never "undefined". */
function dealt(view) {
  return Array.isArray(view.seats) && view.seats.length > 0;
}

function beforeTheDeal(view, seats, me) {
  const open = view.open_seats || [];
  const bots = view.awaiting_entropy || [];  // HTTP bots whose own entropy the deal waits for
  const list = el("ul", { class: "waiting-seats" }, (seats || []).map((s, i) => el("li", { "data-seat": i },
    seatName(seats, i), i === me ? el("span", { class: "badge" }, "you") : null)));
  return [el("div", { class: "center", "aria-label": "Middle of the table" },
    labelled("Waiting for the deal", text(open.length
      ? `The cards are dealt when every seat is taken: ${open.length} open (${open.map((s) => `seat ${s}`).join(", ")}).`
      : bots.length
        ? `Every seat is taken: the cards are dealt once the bot of ${bots.map((s) => `seat ${s}`).join(", ")} sends its own entropy (or, if it never does, after the game's idle time with the entropy published for it at creation).`
        : "Every seat is taken: the cards are being dealt.")),
    labelled("Seats", list))];
}

const RENDERERS = { shithead, sixty_six: sixtySix, sheepshead };

/** The felt: the middle of the table and every seat, as ``view`` shows them. */
export function tableEl(view, seats, me) {
  const render = RENDERERS[view.game];
  const felt = el("div", { class: "felt", id: "felt" });
  if (!dealt(view)) felt.append(...beforeTheDeal(view, seats, me));
  else if (render) felt.append(...render(view, seats, me).filter(Boolean));
  else felt.append(el("pre", {}, JSON.stringify(view, null, 2)));
  return felt;
}

/** One line saying how the game ended. */
export function outcomeText(outcome, seats) {
  if (!outcome) return "";
  const reason = outcome.reason === "finished" ? "Game over" : `Game ended (${String(outcome.reason).replaceAll("_", " ")})`;
  const parts = [`${reason}: winner${(outcome.winners || []).length === 1 ? "" : "s"} ${names(seats, outcome.winners)}`];
  if ((outcome.losers || []).length) parts.push(`lost: ${names(seats, outcome.losers)}`);
  if (outcome.finishing_order) parts.push(`finishing order: ${names(seats, outcome.finishing_order)}`);
  if (outcome.game_points) parts.push(`game points ${outcome.game_points.join(" : ")}`);
  if (outcome.totals) parts.push(`totals ${outcome.totals.join(" / ")}`);
  return parts.join("; ");
}

/** A readable label for an action: "Play", then its cards and values. */
export function actionContent(action, name = null) {
  const parts = [text(name || String(action.type).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase()))];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type") continue;
    if (key === "declare" && value === true) { parts.push(text("and declare out")); continue; }
    if (key === "slot" && typeof value === "number") { parts.push(text(`#${value + 1}`)); continue; }
    if (isCard(value)) {
      if (key === "face_up_card") parts.push(text("\u2194"));
      parts.push(cardEl(value, { small: true }));
    } else if (Array.isArray(value) && value.every(isCard)) {
      for (const code of value) parts.push(cardEl(code, { small: true }));
    } else {
      parts.push(text(`${key.replaceAll("_", " ")} ${typeof value === "object" ? JSON.stringify(value) : value}`));
    }
  }
  return parts;
}

/** The cards an action names (to match the cards selected in the hand). */
export function actionCards(action) {
  const found = [];
  for (const value of Object.values(action)) {
    if (isCard(value)) found.push(value);
    else if (Array.isArray(value)) found.push(...value.filter(isCard));
  }
  return found;
}

/** A short sentence about one event item: its type and its public fields. */
export function eventText(item, seats) {
  const event = item.event || {};
  const type = String(event.type || "").split(".").pop().replace(/([a-z])([A-Z])/g, "$1 $2");
  const bits = [];
  for (const [key, value] of Object.entries(event)) {
    if (["type", "schema", "options", "seed", "commitment"].includes(key)) continue;
    if (key === "seat" && typeof value === "number") { bits.unshift(seatName(seats, value)); continue; }
    if (["winner", "picker", "partner", "dealer", "loser"].includes(key) && typeof value === "number") {
      bits.push(`${key} ${seatName(seats, value)}`);
      continue;
    }
    if (isCard(value)) bits.push(`${key.replaceAll("_", " ")} ${cardName(value)}`);
    else if (Array.isArray(value) && value.length && value.every(isCard)) bits.push(`${key.replaceAll("_", " ")} ${value.join(" ")}`);
    else if (value !== null && typeof value !== "object" && key !== "hand") bits.push(`${key.replaceAll("_", " ")} ${value}`);
  }
  return `${type}${bits.length ? `: ${bits.slice(0, 6).join(", ")}` : ""}`;
}

/** "alice: play 7H 7S": the command behind an event item, when it carries one. */
export function commandText(command, seats) {
  if (command && command.kind === "timeout") return `${seatName(seats, command.seat)}: ran out of time`;
  if (command && command.kind === "idle") return `${seatName(seats, command.seat)}: idle too long`;
  if (!command || command.kind !== "action") return "";
  const action = command.action || {};
  const cards = actionCards(action);
  return `${seatName(seats, command.seat)}: ${String(action.type).replaceAll("_", " ")}${cards.length ? ` ${cards.map(cardName).join(", ")}` : ""}`;
}
