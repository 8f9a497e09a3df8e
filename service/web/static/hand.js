// Direct manipulation: the seat's own cards are the controls. Touching a card plays it when
// that card starts exactly one legal action, and that action is the card alone; otherwise it
// selects the card, and the actions made of exactly the selected cards are offered to confirm
// (Shithead sets and swaps, Sheepshead's bury, Sixty-Six's marriages). A card no legal action
// names is dimmed; actions naming no card of the seat (pick, pass, draw, call...) are buttons.
// The legal actions come only from the view.
import { cardEl } from "./cards.js";
import { actionCards, actionContent, el } from "./tables.js";

const sameCards = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
const holds = (action, cards) => { const named = actionCards(action); return cards.every((c) => named.includes(c)); };

/** The seat's own cards: its hand and (Shithead) its face-up cards. */
export function ownCards(view, me) {
  const hand = view.hand || [];
  const seat = (view.seats || []).find((s) => s.seat === me) || {};
  const faceUp = (seat.face_up || []).flat().filter((c) => typeof c === "string" && !hand.includes(c));
  return { hand, faceUp };
}

/** The legal actions made by touching the seat's own cards, and the others (buttons). */
export function splitActions(legal, own) {
  const byCards = [];
  const buttons = [];
  for (const action of legal) {
    const cards = actionCards(action);
    (cards.length && cards.every((c) => own.includes(c)) ? byCards : buttons).push(action);
  }
  return { byCards, buttons };
}

/** What touching ``code`` does: ``{ send }`` an action, ``{ select }`` cards, or null. */
export function touch(code, selected, byCards) {
  if (selected.includes(code)) return { select: selected.filter((c) => c !== code) };
  const grown = [...selected, code];
  if (selected.length && byCards.some((a) => holds(a, grown))) return { select: grown };
  const started = byCards.filter((a) => holds(a, [code]));
  if (started.length === 0) return null;
  if (selected.length) return { select: [code] };  // another set: start it, never send at once
  if (started.length === 1 && sameCards(actionCards(started[0]), [code])) return { send: started[0] };
  return { select: [code] };
}

/** What the selection still lacks: "select 1 more card for Bury", or "". */
export function hint(selected, byCards) {
  if (!selected.length) return "";
  const larger = byCards.filter((a) => holds(a, selected) && actionCards(a).length > selected.length);
  if (!larger.length) return "";
  const need = Math.min(...larger.map((a) => actionCards(a).length)) - selected.length;
  const kinds = [...new Set(larger.map((a) => label(a.type)))].join(" or ");
  return `select ${need} more card${need === 1 ? "" : "s"} for ${kinds}`;
}

const LABELS = {
  pickup: "Pick up the pile", ready: "Ready", flip: "Flip a face-down card", play_stock: "Play the stock's top card",
  pick: "Pick up the blind", pass: "Pass", alone: "Play alone", partner: "Take the partner", crack: "Crack",
  no_crack: "No crack", recrack: "Re-crack", no_recrack: "No re-crack", close: "Close the stock",
  draw: "Draw", declare_out: "Declare out", exchange_trump: "Exchange the trump nine", call: "Call",
};
const VERBS = { play: "play", swap: "swap a hand card with a face-up one", bury: "bury", marriage: "announce a marriage",
  stack: "stack", choose_face_up: "choose your face-up cards", pickup: "pick up the pile with a face-up card" };

export function label(type) {
  return LABELS[type] || String(type).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

// a move that costs game points if it is wrong is asked twice
const costly = (action) => action.type === "declare_out" || action.declare === true;
const COSTLY_QUESTION = "Really declare out? A false declaration costs game points. Click again";

/** The hand and the action buttons of a seat, redrawn from each view; ``send(action)`` plays. */
export function handControls({ handBox, actionsBox, send }) {
  let selected = [];
  let drawn = null;
  let view = null;
  let me = null;
  const armed = new Set();

  function draw(nextView, seat) {
    view = nextView;
    me = seat;
    const { hand, faceUp } = ownCards(view, me);
    const own = [...hand, ...faceUp];
    selected = selected.filter((c) => own.includes(c));
    const legal = view.legal_actions || [];
    const key = JSON.stringify([me, hand, faceUp, legal, view.outcome, selected]);
    if (key === drawn) return;  // a button replaced between press and release loses the click
    drawn = key;
    const { byCards, buttons } = splitActions(legal, own);
    const focus = focusedCard();
    const choosing = byCards.length > 0;  // a card to choose: the others are dimmed
    handBox.replaceChildren(cardRow("hand-cards", "Your hand", hand, byCards, choosing),
      ...(faceUp.length ? [cardRow("face-up-cards", "Your face-up cards", faceUp, byCards, choosing)] : []));
    if (hand.length === 0 && faceUp.length === 0) handBox.append(el("span", { class: "muted" }, "no cards in hand"));
    fillActions(legal, byCards, buttons);
    refocus(focus);
  }

  function cardRow(id, name, cards, byCards, choosing) {
    const row = el("div", { class: "cards", id, role: "group", "aria-label": name });
    for (const code of cards) {
      const usable = byCards.some((a) => holds(a, [code]));
      const card = cardEl(code, { onToggle: onTouch, pressed: selected.includes(code) });
      if (usable) card.classList.add("usable");
      if (choosing && !usable) {
        card.classList.add("dimmed");
        card.setAttribute("aria-disabled", "true");
      }
      row.append(card);
    }
    return row;
  }

  function onTouch(code) {
    const legal = view.legal_actions || [];
    const { hand, faceUp } = ownCards(view, me);
    const result = touch(code, selected, splitActions(legal, [...hand, ...faceUp]).byCards);
    if (!result) return;
    if (result.send) { selected = []; send(result.send); return; }
    selected = result.select;
    draw(view, me);
  }

  function actionButton(action, primary) {
    const ask = costly(action);
    const keyOf = JSON.stringify(action);
    const button = el("button", { type: "button", class: `action${primary ? " primary" : ""}`, "data-action": keyOf },
      ...(armed.has(keyOf) ? [COSTLY_QUESTION] : actionContent(action, label(action.type))));
    button.onclick = () => {
      if (ask && !armed.has(keyOf)) {
        armed.add(keyOf);
        button.replaceChildren(COSTLY_QUESTION);
        return;
      }
      armed.delete(keyOf);
      selected = [];
      send(action);
    };
    return button;
  }

  function fillActions(legal, byCards, buttons) {
    actionsBox.replaceChildren();
    if (legal.length === 0) {
      actionsBox.append(el("span", { class: "muted" }, view.outcome ? "the game is over" : "waiting for the others"));
      return;
    }
    const exact = byCards.filter((a) => selected.length && sameCards(actionCards(a), selected));
    for (const action of exact) actionsBox.append(actionButton(action, true));
    const more = hint(selected, byCards);
    if (more) actionsBox.append(el("span", { class: "muted", id: "hint" }, more));
    if (selected.length) {
      actionsBox.append(el("button", { type: "button", id: "clear", onclick: () => { selected = []; draw(view, me); } }, "Clear selection"));
    } else if (byCards.length) {
      const verbs = [...new Set(byCards.map((a) => VERBS[a.type] || label(a.type).toLowerCase()))];
      actionsBox.append(el("span", { class: "muted", id: "hint" }, `touch your cards to ${verbs.join(" or ")}`));
    }
    for (const action of buttons) actionsBox.append(actionButton(action, false));
  }

  // the keyboard focus stays in the hand: on the same card, or where the played card was
  // (or on the first card it can use, after an action button), never dropped to the page
  function focusedCard() {
    const active = document.activeElement;
    if (active && actionsBox.contains(active)) return { code: null, index: -1, action: active.dataset.action };
    if (!active || !handBox.contains(active) || !active.dataset.card) return null;
    return { code: active.dataset.card, index: [...handBox.querySelectorAll("button.card")].indexOf(active) };
  }
  function refocus(focus) {
    if (!focus || handBox.contains(document.activeElement) || actionsBox.contains(document.activeElement)) return;
    const cards = [...handBox.querySelectorAll("button.card")];
    const again = [...actionsBox.querySelectorAll("button")].find((b) => focus.action && b.dataset.action === focus.action);
    const same = cards.find((c) => c.dataset.card === focus.code);
    const usable = cards.find((c) => !c.classList.contains("dimmed"));
    const target = again || same || (focus.index >= 0 ? cards[Math.min(focus.index, cards.length - 1)] : usable)
      || usable || actionsBox.querySelector("button");
    if (target) target.focus();
  }

  return { draw, clear: () => { selected = []; } };
}
