// Fair dealing in the browser (docs/fairness.md): the entropy this browser adds to a game's
// deal, the receipts it keeps during play, and the audit it makes itself once the game is over,
// with WebCrypto and the documented formulas (docs/fairness.md, docs/shuffle.md): no verdict
// of the server's is taken on trust.

const enc = new TextEncoder();
const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const ZERO = new Uint8Array([0]);
const kept = (key) => JSON.parse(localStorage.getItem(key) || "null");
const keep = (key, value) => localStorage.setItem(key, JSON.stringify(value));

/** 32 bytes from the browser's own random source, as 64 lowercase hex digits: a join sends
 * them, so the server never draws a person's share of the deal. */
export function newEntropy() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Keep what a seat joined with: its entropy and the commitment the game showed then. */
export function keepEntropy(gameId, seat, entropy, commitment) {
  keep(`cardroom.fair.${gameId}.${seat}`, { entropy, commitment, receipts: [], shown: null });
}

function record(gameId, seat) { return kept(`cardroom.fair.${gameId}.${seat}`); }

/** "commitment 4112fcdb… · your entropy 9a3b51c0…": what this seat's deal is made of, beside
 * each other on the table during play (both are checked in the audit at the end). */
export function dealText(gameId, seat, commitment) {
  const mine = seat === null ? null : record(gameId, seat);
  const short = (h) => `${String(h).slice(0, 8)}…`;
  return mine ? `commitment ${short(commitment)} · your entropy ${short(mine.entropy)}` : null;
}

/** Keep a receipt (version, head_hash) the seat was given, and the cards of the first view it
 * was shown once the cards were dealt. */
export function keepReceipt(gameId, seat, answer) {
  const mine = record(gameId, seat);
  if (!mine || !answer || !answer.head_hash) return;
  if (!mine.receipts.some((r) => r.version === answer.version)) {
    mine.receipts.push({ version: answer.version, head_hash: answer.head_hash });
  }
  const cards = cardsIn(answer.view);
  if (mine.shown === null && cards.length > 0) mine.shown = cards;
  keep(`cardroom.fair.${gameId}.${seat}`, mine);
}

const cardsIn = (data) => [...new Set(JSON.stringify(data || {}).match(/\b([2-9TJQKA][CDHS]|RJ|BJ)\b/g) || [])];

async function sha256(bytes) { return hex(await crypto.subtle.digest("SHA-256", bytes)); }
async function labelled(label, ...hexParts) { return sha256(concat(enc.encode(label), ZERO, ...hexParts.map(unhex))); }

/** The documented formulas (docs/fairness.md, "Formulas"). */
export const commitment = (secret) => labelled("cardroom/commitment/1", secret);
export const chainSalt = (secret) => labelled("cardroom/chain-salt/1", secret);
export const dealSeed = (secret, entropy) => labelled("cardroom/deal-seed/1", secret, ...entropy);
export const saltedDeck = (secret, deckCommitment) => labelled("cardroom/deck-commitment/1", secret, deckCommitment);

/** One JSON text of a value: keys sorted, no spaces (domain.events.canonical_json). */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** hash(v) = HMAC-SHA256(key = ascii(salt), ascii(hash(v-1)) || utf8(canonical event)). */
export async function linkHash(prev, event, salt) {
  const key = await crypto.subtle.importKey("raw", enc.encode(salt), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(await crypto.subtle.sign("HMAC", key, concat(enc.encode(prev), enc.encode(canonical(event)))));
}

/** The documented shuffle (docs/shuffle.md): Fisher-Yates from the end, rejection-sampled draws
 * from SHA-256(utf8(seed) || 0 || utf8(label) || 0 || uint64_be(k)). */
export async function shuffled(items, seed, label) {
  const out = [...items];
  const prefix = concat(enc.encode(seed), ZERO, enc.encode(label), ZERO);
  const space = 1n << 64n;
  let counter = 0n;
  for (let i = out.length - 1; i > 0; i -= 1) {
    const n = BigInt(i + 1);
    const limit = space - (space % n);
    let x;
    do {
      const block = new Uint8Array(8);
      new DataView(block.buffer).setBigUint64(0, counter);
      counter += 1n;
      x = new DataView(await crypto.subtle.digest("SHA-256", concat(prefix, block))).getBigUint64(0);
    } while (x >= limit);
    const j = Number(x % n);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const RANKS = { shithead: "23456789TJQKA", sixty_six: "9TJQKA", sheepshead: "789TJQKA" };

/** A game's deck in canonical order (docs/shuffle.md), from its GameStarted event. */
export function canonicalDeck(game, started) {
  const options = started.options || {};
  let ranks = RANKS[game];
  if (!ranks) return null;
  if (game === "sixty_six" && options.deck20) ranks = "TJQKA";
  const deck = [..."CDHS"].flatMap((suit) => [...ranks].map((rank) => rank + suit));
  const jokers = options.jokers === "always" || (options.jokers === "auto" && started.players === 6);
  return game === "shithead" && jokers ? [...deck, "RJ", "BJ"] : deck;
}

async function deckCommitment(seed, order) { return sha256(concat(enc.encode(seed), ZERO, enc.encode(order.join(",")))); }

/** The checks of a finished game, each ``{what, ok, detail}``: made here from the public events,
 * the game's formulas and what this browser kept during play. ``ok`` null: the check does not
 * apply to this game (a prearranged one), which is no failure. */
export async function audit(game, events, mine, seat, logged = null) {
  const checks = [];
  const add = (what, ok, detail = "") => checks.push({ what, ok: ok === null ? null : Boolean(ok), detail });
  const plain = events.map((e) => e.event);
  const created = plain[0] || {};
  const reveal = plain.find((e) => e.type === "lifecycle.SecretRevealed");
  if (!reveal) { add("the server revealed its secret", false, "no lifecycle.SecretRevealed"); return checks; }
  const promised = await commitment(reveal.secret);
  add("the revealed secret matches the commitment published at creation",
    promised === created.commitment && (!mine.commitment || mine.commitment === created.commitment),
    mine.commitment && mine.commitment !== created.commitment ? "event 1 is not the commitment shown when you joined" : "");
  const filled = plain.filter((e) => e.type === "lifecycle.SeatFilled");
  const entropy = [...filled].sort((a, b) => a.seat - b.seat).map((e) => e.entropy);
  const own = filled.find((e) => e.seat === seat);
  const derived = await dealSeed(reveal.secret, entropy);
  if (created.prearranged) {  // not a failure: nobody's entropy makes a chosen seed or deal
    add("your entropy is in the seed", null, "not applicable: the game is prearranged (its creator chose the seed or the deal)");
  } else {
    add("your entropy is in the seed", own && own.entropy === mine.entropy && derived === reveal.seed,
      own && own.entropy !== mine.entropy ? "your seat's entropy is not the one this browser sent"
        : drawnBy(plain, filled, seat));
  }
  await checkLog(logged, created, add);
  await checkDeal(game, events, reveal, mine, add);
  await checkChain(events, reveal.secret, mine, add);
  return checks;
}

/** Who drew each seat's share of the seed, as the events record it (``SeatFilled.source``; a
 * seat of ``lifecycle.EntropyAwaited`` is an HTTP bot's, whose own entropy the deal awaited). */
function drawnBy(plain, filled, seat) {
  const awaited = new Set(plain.filter((e) => e.type === "lifecycle.EntropyAwaited").map((e) => e.seat));
  const said = [...filled].sort((a, b) => a.seat - b.seat).map((e) => `seat ${e.seat}: ${
    e.seat === seat ? "yours"
      : e.source === "client" ? (awaited.has(e.seat) ? "its bot's own" : "its player's own")
        : awaited.has(e.seat) ? "the server's fallback, fixed at creation (its bot sent none)"
          : "drawn by the server"}`);
  return said.join("; ");
}

/** The game's entry in the public commitment log (GET /fairness/log/{id}) holds event 1's
 * commitment, and its hash is SHA-256("cardroom/log/1" 0 prev 0 game 0 commitment). */
async function checkLog(logged, created, add) {
  const ok = Boolean(logged && logged.commitment === created.commitment
    && logged.hash === await sha256(enc.encode(["cardroom/log/1", logged.prev, logged.game, logged.commitment].join("\0"))));
  add("the game's commitment is the one in the public log", ok, logged ? "" : "not in the log");
}

async function checkDeal(game, events, reveal, mine, add) {
  const plain = events.map((e) => e.event);
  const at = plain.findIndex((e) => e.type === `${game}.GameStarted`);
  const started = plain[at] || {};
  const deck = canonicalDeck(game, started);
  if (reveal.deal || !deck) {
    add("the seed's deck is the one committed at the deal", reveal.deal ? null : false,
      reveal.deal ? "not applicable: an explicit deal (prearranged) is dealt as given, not shuffled from a seed" : "a game this page does not know");
  } else {
    const made = await deckCommitment(reveal.seed, await shuffled(deck, reveal.seed, "deal/0"));
    const published = reveal.seed === started.seed && started.commitment
      && [made, await saltedDeck(reveal.secret, made)].includes(started.commitment);
    add("the seed's deck is the one committed at the deal", Boolean(published));
  }
  const end = events.findIndex((e, i) => i > at && e.command !== undefined);  // the next batch
  const dealt = new Set(cardsIn(plain.slice(at, end < 0 ? undefined : end)));
  const shown = mine.shown || [];
  const strange = shown.filter((c) => !dealt.has(c));
  add("the cards you were shown at the deal are the revealed deal's", shown.length > 0 && strange.length === 0,
    strange.length ? `not dealt: ${strange.join(" ")}` : "");
}

async function checkChain(events, secret, mine, add) {
  const salt = await chainSalt(secret);
  let prev = "0".repeat(64);
  const hashes = new Map();
  let broken = null;
  for (const item of events) {
    const hash = await linkHash(prev, item.event, salt);
    if (hash !== item.hash || item.prev_hash !== prev) { broken = item.version; break; }
    hashes.set(item.version, hash);
    prev = hash;
  }
  add("the hash chain links every event", broken === null, broken === null ? "" : `broken at version ${broken}`);
  const missed = mine.receipts.filter((r) => hashes.get(r.version) !== r.head_hash);
  add(`the history holds every receipt you kept (${mine.receipts.length})`,
    mine.receipts.length > 0 && missed.length === 0 && broken === null,
    missed.length ? `not held: version ${missed.map((r) => r.version).join(", ")}` : "");
}

/** Every event of a game: ``GET /events`` answers pages (200 events; ``next_after`` names
 * where the next one starts, null on the last). */
async function allEvents(gameId, get) {
  const events = [];
  let page = await get(`/games/${gameId}/events`);
  while (page) {
    events.push(...page.events);
    if (page.next_after === null || page.next_after === undefined) break;
    page = await get(`/games/${gameId}/events?after=${page.next_after}&limit=1000`);
  }
  return events;
}

const MARKS = { true: ["ok", "\u2714"], false: ["bad", "\u2718"], null: ["na", "\u2013"] };

/** The audit panel of a finished game this browser played: each check with ✔, ✘ or – (does
 * not apply). ``get`` reads a path of the API (its JSON, or null). */
export async function auditPanel(gameId, game, seat, get) {
  const panel = document.createElement("section");
  panel.id = "audit";
  panel.className = "audit";
  const title = document.createElement("h2");
  title.textContent = "Your audit of this game";
  panel.append(title);
  const mine = record(gameId, seat);
  const list = document.createElement("ul");
  panel.append(list);
  if (!mine) {
    list.textContent = "This browser did not join this seat: nothing of yours to check.";
    return panel;
  }
  const [events, logged] = await Promise.all([allEvents(gameId, get), get(`/fairness/log/${gameId}`)]);
  for (const check of await audit(game, events, mine, seat, logged)) {
    const [kind, mark] = MARKS[String(check.ok)];
    const item = document.createElement("li");
    item.className = kind;
    item.textContent = `${mark} ${check.what}${check.detail ? ` — ${check.detail}` : ""}`;
    list.append(item);
  }
  const yours = document.createElement("p");
  yours.className = "hash";
  yours.textContent = `Your entropy: ${mine.entropy}`;
  panel.append(yours);
  return panel;
}
