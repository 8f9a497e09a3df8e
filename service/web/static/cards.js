// Cards as text with a readable name (aria-label): codes are rank 2-9 T J Q K A then suit C D H S;
// jokers RJ and BJ.
const RANKS = { 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const SUITS = { C: ["clubs", "\u2663"], D: ["diamonds", "\u2666"], H: ["hearts", "\u2665"],
  S: ["spades", "\u2660"] };
const CARD = /^(?:[2-9TJQKA][CDHS]|RJ|BJ)$/;

export function isCard(value) {
  return typeof value === "string" && CARD.test(value);
}

export function cardName(code) {
  if (code === "RJ") return "Red joker";
  if (code === "BJ") return "Black joker";
  if (!isCard(code)) return String(code);
  return `${RANKS[code[0]]} of ${SUITS[code[1]][0]}`;
}

export function suitName(suit) {
  return SUITS[suit] ? SUITS[suit][0] : String(suit);
}

export function suitSymbol(suit) {
  return SUITS[suit] ? SUITS[suit][1] : String(suit);
}

function face(code) {
  if (code === "RJ" || code === "BJ") return ["JKR", "\u2605"];
  return [code[0] === "T" ? "10" : code[0], SUITS[code[1]][1]];
}

/** A card element; with ``onToggle`` a toggle button (aria-pressed), else an image. */
export function cardEl(code, { small = false, onToggle = null, pressed = false } = {}) {
  const el = document.createElement(onToggle ? "button" : "span");
  el.className = "card" + (small ? " small" : "");
  if (code === "RJ" || (isCard(code) && "DH".includes(code[1]))) el.classList.add("red");
  const [rank, suit] = face(code);
  const r = document.createElement("span");
  r.textContent = rank;
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = suit;
  r.setAttribute("aria-hidden", "true");
  s.setAttribute("aria-hidden", "true");
  el.append(r, s);
  el.dataset.card = code;
  if (onToggle) {
    el.type = "button";
    el.setAttribute("aria-pressed", pressed ? "true" : "false");
    el.setAttribute("aria-label", cardName(code));
    el.addEventListener("click", () => onToggle(code));
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
  }
  return el;
}

export function backEl(label = "face-down card", small = false) {
  const el = document.createElement("span");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  return el;
}

/** A row of cards (codes), or of backs when given a count. */
export function cardsEl(cards, opts = {}) {
  const row = document.createElement("div");
  row.className = "cards";
  if (typeof cards === "number") {
    for (let i = 0; i < cards; i += 1) row.append(backEl("face-down card", opts.small));
    if (cards === 0) row.append(text("none", "muted"));
    return row;
  }
  for (const code of cards || []) {
    if (isCard(code)) row.append(cardEl(code, opts));
    else {  // a slot whose card is gone (a face-down card already flipped)
      const slot = document.createElement("span");
      slot.className = "empty-slot";
      slot.setAttribute("aria-label", "empty slot");
      row.append(slot);
    }
  }
  if (!cards || cards.length === 0) row.append(text(opts.empty || "none", "muted"));
  return row;
}

export function text(value, className = "") {
  const el = document.createElement("span");
  if (className) el.className = className;
  el.textContent = value;
  return el;
}
