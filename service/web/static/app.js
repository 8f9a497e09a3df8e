// The cardroom table: lobby, play, watch and replay, on the JSON API of the same host.
import { cardEl } from "./cards.js";
import {
  actionCards, actionContent, commandText, el, eventText, outcomeText, seatName, tableEl,
} from "./tables.js";

const main = document.getElementById("main");
const announce = (message) => { document.getElementById("announce").textContent = message; };
let cleanup = [];

// -- the API ------------------------------------------------------------------------------
async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { ok: response.ok, status: response.status, data };
}

function problemText(result) {
  const data = result.data || {};
  return data.detail || data.title || `the server answered ${result.status}`;
}

const seatKey = (id) => `cardroom.seat.${id}`;
function savedSeat(id) {
  try { return JSON.parse(localStorage.getItem(seatKey(id)) || "null"); } catch { return null; }
}

/** The game's live stream: the seat's private one through a stream ticket (the token never goes
 * in a URL); the spectator stream when no ticket could be had. */
async function openStream(id, token, onEvent, onOver, onClosed) {
  let url = `/games/${encodeURIComponent(id)}/stream`;
  if (token) {
    try {
      const ticket = await api("POST", `/games/${encodeURIComponent(id)}/stream-tickets`, { token });
      if (ticket.ok) url += `?ticket=${encodeURIComponent(ticket.data.ticket)}`;
    } catch {
      // no answer at all (the network): follow the spectator stream; the view still comes by fetch
    }
  }
  const source = new EventSource(url);
  source.addEventListener("event", (message) => onEvent(JSON.parse(message.data)));
  source.addEventListener("over", () => { source.close(); onOver(); });
  // the browser reconnects by itself; it gives up only on an error answer (an expired ticket)
  source.addEventListener("error", () => { if (source.readyState === EventSource.CLOSED) onClosed(); });
  cleanup.push(() => source.close());
  return source;
}

// -- routing ------------------------------------------------------------------------------
function route() {
  for (const stop of cleanup) stop();
  cleanup = [];
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, id] = hash.split("/").map(decodeURIComponent);
  main.replaceChildren();
  if (page === "game" && id) return gamePage(id, false);
  if (page === "watch" && id) return gamePage(id, true);
  if (page === "replay" && id) return replayPage(id);
  return lobbyPage();
}

// -- lobby --------------------------------------------------------------------------------
const STATUSES = [["waiting", "Waiting for players"], ["playing", "Playing"], ["over", "Over"]];

async function lobbyPage() {
  document.title = "cardroom: lobby";
  const catalogue = await api("GET", "/catalogue");
  const games = catalogue.ok ? catalogue.data.games.filter((g) => g.name !== "fake") : [];
  const filter = el("select", { id: "filter-game", "aria-label": "Show games of" },
    el("option", { value: "" }, "all games"),
    games.map((g) => el("option", { value: g.name }, g.title)));
  const lists = {};
  const columns = el("div", { class: "columns" }, STATUSES.map(([status, title]) => {
    lists[status] = el("ul", { class: "games", id: `games-${status}` });
    return el("section", { class: "panel", "aria-labelledby": `h-${status}` },
      el("h2", { id: `h-${status}` }, title), lists[status]);
  }));
  main.append(el("h1", {}, "Lobby"),
    el("section", { class: "panel" }, el("h2", {}, "New game"), createForm(games)),
    el("div", { class: "row" }, el("label", { for: "filter-game" }, "Show: "), filter,
      el("span", { class: "muted" }, "the lists update by themselves")),
    columns);
  let stopped = false;
  async function refresh() {
    for (const [status] of STATUSES) {
      const query = new URLSearchParams({ status, limit: "30" });
      if (filter.value) query.set("game", filter.value);
      const result = await api("GET", `/games?${query}`);
      if (stopped || !result.ok) continue;
      lists[status].replaceChildren(...result.data.games.map(gameRow));
      if (result.data.games.length === 0) lists[status].append(el("li", { class: "muted" }, "none"));
    }
  }
  filter.addEventListener("change", refresh);
  await refresh();
  const timer = setInterval(refresh, 2000);
  cleanup.push(() => { stopped = true; clearInterval(timer); });
}

function gameRow(game) {
  const seats = game.seats.map((s, i) => seatName(game.seats, i)).join(", ");
  const open = game.seats.filter((s) => s.type === "open").length;
  const links = [];
  if (game.status !== "over") {
    links.push(el("a", { class: "button", href: `#/game/${game.id}` }, open ? "Join / play" : "Play"));
    links.push(el("a", { class: "button", href: `#/watch/${game.id}` }, "Watch"));
  } else {
    links.push(el("a", { class: "button", href: `#/replay/${game.id}` }, "Replay"));
    links.push(el("a", { class: "button", href: `#/watch/${game.id}` }, "Final table"));
  }
  return el("li", { "data-game": game.id },
    el("span", {}, el("strong", {}, game.game.replace("_", "-")), " ", el("span", { class: "gid" }, game.id)),
    el("span", { class: "muted" }, seats), ...links);
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  const attrs = { id, name: option.name, "aria-describedby": `${id}-help ${id}-error` };
  let input;
  if (option.type === "bool") {
    input = el("input", { ...attrs, type: "checkbox", checked: option.default === true });
  } else if (option.choices && option.choices.length) {
    input = el("select", attrs, option.nullable ? el("option", { value: "" }, "(none)") : null,
      option.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === option.default }, String(c))));
  } else if (option.type === "int") {
    input = el("input", { ...attrs, type: "number", min: option.minimum, max: option.maximum,
      value: option.default ?? "", placeholder: option.nullable ? "none" : null });
  } else {
    input = el("input", { ...attrs, type: "text", value: option.default ?? "" });
  }
  input.dataset.type = option.type;
  const help = `${option.doc || ""}${option.doc ? "; " : ""}default: ${option.default === null ? "none" : option.default}`;
  return el("div", { class: `field${option.type === "bool" ? " inline" : ""}` },
    option.type === "bool" ? input : null,
    el("label", { for: id }, option.name.replaceAll("_", " ")),
    option.type === "bool" ? null : input,
    el("div", { class: "muted", id: `${id}-help` }, help),
    el("div", { class: "error", id: `${id}-error`, "data-error-for": `options.${option.name}` }));
}

function readOption(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return input.value === "" ? null : JSON.parse(input.value);
  if (input.type === "number") return input.value === "" ? null : Number(input.value);
  return input.value;
}

function createForm(games) {
  const form = el("form", { id: "create", novalidate: true });
  const gameSelect = el("select", { id: "create-game", name: "game" },
    games.map((g) => el("option", { value: g.name }, g.title)));
  const players = el("select", { id: "create-players", name: "players" });
  const seatsBox = el("fieldset", {}, el("legend", {}, "Seats"));
  const optionsBox = el("fieldset", {}, el("legend", {}, "Options"));
  const seed = el("input", { id: "create-seed", name: "seed", type: "text", placeholder: "random",
    "aria-describedby": "create-seed-error" });
  const formError = el("div", { class: "alert", role: "alert", id: "create-error" });
  const entry = () => games.find((g) => g.name === gameSelect.value);

  function drawSeats() {
    const n = Number(players.value);
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const kind = el("select", { id: `seat-${i}-type`, "aria-label": `seat ${i}` },
        el("option", { value: "open" }, "open (a person joins)"),
        el("option", { value: "bot", selected: i > 0 }, "bot"));
      const bot = el("input", { id: `seat-${i}-bot`, list: "bot-names", value: "heuristic",
        "aria-label": `bot of seat ${i}`, size: 10 });
      const sync = () => { bot.hidden = kind.value !== "bot"; };
      kind.addEventListener("change", sync);
      sync();
      rows.push(el("div", { class: "field row" }, el("span", {}, `Seat ${i}`), kind, bot,
        el("span", { class: "error", "data-error-for": `seats.${i}` })));
    }
    seatsBox.replaceChildren(el("legend", {}, "Seats"), ...rows,
      el("datalist", { id: "bot-names" }, el("option", { value: "heuristic" }), el("option", { value: "random" })));
  }
  function drawGame() {
    const game = entry();
    if (!game) return;
    players.replaceChildren();
    const preferred = game.name === "sheepshead" ? 5 : game.min_players;
    for (let n = game.min_players; n <= game.max_players; n += 1) {
      players.append(el("option", { value: n, selected: n === preferred }, String(n)));
    }
    optionsBox.replaceChildren(el("legend", {}, `Options of ${game.title}`),
      el("div", { class: "options" }, game.options.map(optionInput)));
    drawSeats();
  }
  gameSelect.addEventListener("change", drawGame);
  players.addEventListener("change", drawSeats);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const node of form.querySelectorAll("[data-error-for]")) node.textContent = "";
    formError.textContent = "";
    const game = entry();
    const options = {};
    for (const option of game.options) {
      const value = readOption(form.querySelector(`#opt-${option.name}`));
      if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
    }
    const seats = [];
    for (let i = 0; i < Number(players.value); i += 1) {
      const kind = form.querySelector(`#seat-${i}-type`).value;
      seats.push(kind === "bot" ? { type: "bot", bot: form.querySelector(`#seat-${i}-bot`).value.trim() }
        : { type: "open" });
    }
    const body = { game: game.name, seats, options };
    if (seed.value.trim()) body.seed = seed.value.trim();
    const result = await api("POST", "/games", { body });
    if (result.ok) {
      location.hash = `#/game/${result.data.id}`;
      return;
    }
    showErrors(form, result, game, formError);
  });
  drawGame();
  form.append(
    el("div", { class: "row" }, el("label", { for: "create-game" }, "Game"), gameSelect,
      el("label", { for: "create-players" }, "Players"), players,
      el("label", { for: "create-seed" }, "Seed"), seed,
      el("span", { class: "error", id: "create-seed-error", "data-error-for": "seed" })),
    seatsBox, el("details", {}, el("summary", {}, "Options (defaults shown)"), optionsBox),
    formError, el("button", { class: "primary", type: "submit" }, "Create game"));
  return form;
}

/** Put the server's validation errors next to their fields (options, seats, seed). */
function showErrors(form, result, game, formError) {
  const data = result.data || {};
  let placed = false;
  const put = (key, message) => {
    const target = form.querySelector(`[data-error-for="${key}"]`);
    if (!target) return false;
    target.textContent = message;
    const details = target.closest("details");
    if (details) details.open = true;
    placed = true;
    return true;
  };
  const walk = (errors, prefix) => {
    if (Array.isArray(errors)) { put(prefix, errors.join(" ")) || put(prefix.split(".").slice(0, 2).join("."), errors.join(" ")); return; }
    if (errors && typeof errors === "object") {
      for (const [key, value] of Object.entries(errors)) walk(value, prefix ? `${prefix}.${key}` : key);
    }
  };
  walk(data.errors, "");
  if (data.code === "invalid_options") {
    const named = game.options.map((o) => o.name).filter((name) => new RegExp(`\\b${name}\\b`).test(data.detail || ""));
    for (const name of named) put(`options.${name}`, data.detail);
  }
  if (!placed || data.code !== "invalid_options") formError.textContent = problemText(result);
  const first = form.querySelector("[data-error-for]:not(:empty)");
  if (first) first.closest(".field, .row")?.querySelector("input, select")?.focus();
}

// -- play and watch -----------------------------------------------------------------------
async function gamePage(id, watching) {
  const path = `/games/${encodeURIComponent(id)}`;
  let summary = (await api("GET", path));
  if (!summary.ok) {
    main.append(el("h1", {}, "Game not found"), el("p", {}, problemText(summary)), el("a", { href: "#/" }, "Back to the lobby"));
    return;
  }
  summary = summary.data;
  const mine = watching ? null : savedSeat(id);
  let token = mine ? mine.token : null;
  let me = mine ? mine.seat : null;
  let view = null;
  let version = summary.version;
  let lastAction = "";
  let busy = false;
  const selected = new Set();
  document.title = `cardroom: ${summary.title} ${id}`;

  const heading = el("h1", {}, `${summary.title} `, el("span", { class: "muted gid" }, id));
  const status = el("dl", { class: "status", id: "status", "aria-live": "polite" });
  const outcome = el("div", { id: "outcome", role: "status" });
  const refusal = el("div", { class: "alert", id: "refusal", role: "alert" });
  const joinBox = el("section", { class: "panel", id: "join" });
  const table = el("div", { id: "table" });
  const handBox = el("div", { id: "hand" });
  const actionsBox = el("div", { class: "actions", id: "actions" });
  const mode = el("p", { class: "muted" });
  main.append(heading, mode, status, outcome, refusal, joinBox, table,
    el("section", { class: "panel", id: "play-panel", "aria-label": "Your hand and actions" },
      el("h2", {}, "Your hand"), handBox, el("h2", {}, "Your actions"), actionsBox));

  let joinDrawn = null;
  function drawJoin() {
    const open = summary.seats.filter((s) => s.type === "open");
    const key = JSON.stringify([watching, token, summary.status === "over", open.map((s) => s.seat)]);
    if (key === joinDrawn) return; // redraw only when the open seats change (keep what is typed)
    joinDrawn = key;
    const typed = document.getElementById("join-name")?.value;  // a redraw keeps what is typed
    joinBox.replaceChildren();
    if (watching || token) { joinBox.hidden = true; return; }
    if (open.length === 0 || summary.status === "over") { joinBox.hidden = true; return; }
    joinBox.hidden = false;
    const name = el("input", { id: "join-name", value: typed || localStorage.getItem("cardroom.name") || "", autocomplete: "nickname", maxlength: 40 });
    const error = el("div", { class: "error", id: "join-error", role: "alert" });
    joinBox.append(el("h2", {}, "Take a seat"),
      el("div", { class: "row" }, el("label", { for: "join-name" }, "Your name"), name,
        open.map((s) => el("button", { class: "primary", type: "button", "data-join": s.seat, onclick: async () => {
          if (!name.value.trim()) { error.textContent = "type your name first"; name.focus(); return; }
          localStorage.setItem("cardroom.name", name.value.trim());
          const joined = await api("POST", `${path}/seats/${s.seat}`, { body: { name: name.value.trim() } });
          if (!joined.ok) { error.textContent = problemText(joined); return; }
          localStorage.setItem(seatKey(id), JSON.stringify({ seat: joined.data.seat, token: joined.data.token, name: joined.data.name }));
          token = joined.data.token;
          me = joined.data.seat;
          announce(`You sit at seat ${me}`);
          await restartStream();
          await refresh();
        } }, `Join seat ${s.seat}`))),
      error);
  }

  // the seats the game waits on (the summary's), not every seat that may make an optional move
  const awaited = () => (view.outcome ? [] : summary.to_act || view.to_act || []);

  // a clocked game: each seat's time left, from its deadline and bank (server ms); the view
  // read from the server says its time ("now"), so the page's clock may be off
  let clockSeen = null;
  let clockOffset = 0;
  function clockText() {
    const c = view && !view.outcome ? view.clock : null;
    if (!c) return null;
    if (c.now && c !== clockSeen) { clockSeen = c; clockOffset = c.now - Date.now(); }
    const now = Date.now() + clockOffset;
    return c.deadlines.map((deadline, s) => {
      const left = deadline === null ? c.banks[s] : Math.max(0, deadline + c.banks[s] - now);
      const who = s === me ? "you" : seatName(summary.seats, s);
      return `${who} ${Math.ceil(left / 1000)}s${deadline === null ? "" : " (running)"}`;
    }).join(", ");
  }
  const clockTimer = setInterval(() => {
    const shown = document.getElementById("clock");
    const now = clockText();
    if (shown && now) shown.textContent = now;
  }, 500);
  cleanup.push(() => clearInterval(clockTimer));

  function drawStatus() {
    const toAct = awaited();
    const turn = toAct.length === 0 ? "nobody" : toAct.map((s) => (s === me ? "you" : seatName(summary.seats, s))).join(", ");
    status.replaceChildren(...[
      el("div", {}, el("dt", {}, "Phase"), el("dd", { id: "phase" }, String(view.phase || "").replaceAll("_", " "))),
      el("div", {}, el("dt", {}, "To act"), el("dd", { id: "to-act" }, toAct.includes(me) ? `your turn (${turn})` : turn)),
      el("div", {}, el("dt", {}, "Last action"), el("dd", { id: "last-action" },
        (view.last_action && view.last_action.text) || lastAction || "none yet")),
      clockText() ? el("div", {}, el("dt", {}, "Clock"), el("dd", { id: "clock" }, clockText())) : null,
      el("div", {}, el("dt", {}, "Version"), el("dd", { id: "version" }, String(version)))].filter(Boolean));
    outcome.replaceChildren();
    if (view.outcome) {
      outcome.append(el("div", { class: "outcome" }, outcomeText(view.outcome, summary.seats), " ",
        el("a", { href: `#/replay/${id}` }, "Replay and audit this game")));
    }
  }

  function drawHand() {
    // keep the keyboard focus on the same card or action across redraws
    const focused = document.activeElement;
    const again = focused && (focused.dataset?.card || focused.dataset?.action)
      ? [focused.dataset.card ? "data-card" : "data-action", focused.dataset.card || focused.dataset.action] : null;
    fillHand();
    if (again) {
      const match = [...main.querySelectorAll(`#play-panel [${again[0]}]`)].find((n) => n.getAttribute(again[0]) === again[1]);
      if (match) match.focus();
    }
  }

  function fillHand() {
    handBox.replaceChildren();
    actionsBox.replaceChildren();
    const panel = document.getElementById("play-panel");
    panel.hidden = me === null;
    if (me === null) return;
    const hand = view.hand || [];
    for (const code of [...selected]) if (!hand.includes(code)) selected.delete(code);
    const toggle = (code) => {
      if (selected.has(code)) selected.delete(code); else selected.add(code);
      drawHand();
    };
    const row = el("div", { class: "cards", role: "group", "aria-label": "Your hand: select cards to narrow the actions" });
    for (const code of hand) row.append(cardEl(code, { onToggle: toggle, pressed: selected.has(code) }));
    if (hand.length === 0) row.append(el("span", { class: "muted" }, "no cards in hand"));
    handBox.append(row);
    const legal = view.legal_actions || [];
    const shown = legal.filter((action) => {
      const cards = actionCards(action);
      return [...selected].every((c) => cards.includes(c));
    });
    if (legal.length === 0) {
      actionsBox.append(el("span", { class: "muted" }, view.outcome ? "the game is over" : "waiting for the others"));
      appendResign();
      return;
    }
    if (selected.size) {
      actionsBox.append(el("button", { type: "button", onclick: () => { selected.clear(); drawHand(); } }, "Clear selection"));
    }
    for (const action of shown) {
      actionsBox.append(el("button", { type: "button", class: "action", "data-action": JSON.stringify(action), onclick: () => play(action) },
        ...actionContent(action)));
    }
    if (shown.length === 0) actionsBox.append(el("span", { class: "muted" }, "no legal action uses all the selected cards"));
    else if (legal.length > 12 && selected.size === 0) {
      actionsBox.append(el("span", { class: "muted" }, "Select cards in your hand to narrow the choices."));
    }
    appendResign();
  }

  // last in the row, set apart at its right end (abort, when the view offers it, beside resign)
  function appendResign() {
    const offered = view.may_send || [];
    if (offered.includes("abort")) actionsBox.append(askTwiceButton("abort", "Abort", "Really abort? Click again"));
    if (offered.includes("resign")) actionsBox.append(askTwiceButton("resign", "Resign", "Really resign? Click again"));
  }

  // resigning and aborting are never among the legal actions (a bot picking from them never
  // resigns by chance): the view's may_send offers them, and the page asks twice before sending
  const armed = new Set();  // kept across redraws: the table may redraw between the two clicks
  function askTwiceButton(kind, text, question) {
    const label = () => (armed.has(kind) ? question : text);
    const button = el("button", { type: "button", class: kind, id: kind }, label());
    button.onclick = () => {
      if (!armed.has(kind)) {
        armed.add(kind);
        button.textContent = label();
        return;
      }
      armed.delete(kind);
      play({ type: kind });
    };
    return button;
  }

  async function play(action) {
    if (busy) return;
    busy = true;
    refusal.textContent = "";
    const result = await api("POST", `${path}/actions`, {
      token, body: { ...action, expected_version: version },
    });
    busy = false;
    if (!result.ok) {
      const data = result.data || {};
      const why = data.code === "version_conflict"
        ? `the table moved on before your action arrived (${problemText(result)}); it is up to date now`
        : problemText(result);
      const reason = data.reason && !String(data.detail).includes(data.reason) ? ` (${data.reason.replaceAll("_", " ")})` : "";
      refusal.textContent = `Refused: ${why}${reason}`;
      await refresh();
      return;
    }
    selected.clear();
    lastAction = commandText({ kind: "action", seat: me, action }, summary.seats).replace(/^[^:]*:/, "you:");
    version = result.data.version;
    view = result.data.view;
    draw();
  }

  function draw() {
    mode.textContent = (me === null ? "Watching as a spectator: live." : `Playing seat ${me} as ${seatName(summary.seats, me)}.`)
      + (summary.prearranged ? " Prearranged: the seed or the deal was chosen by the creator." : "");
    drawJoin();
    if (!view) return;
    drawStatus();
    table.replaceChildren(tableEl({ ...view, handBelow: true, to_act: awaited() }, summary.seats, me));
    drawHand();
  }

  // one refresh at a time; a call during one runs another after it (the token may have changed)
  let pending = null;
  let again = false;
  async function refresh() {
    if (pending) { again = true; return pending; }
    pending = (async () => {
      do { again = false; await fetchAndDraw(); } while (again);
    })();
    try { await pending; } finally { pending = null; }
  }

  async function fetchAndDraw() {
    const [fresh, seen] = await Promise.all([api("GET", path), api("GET", `${path}/view`, { token })]);
    if (fresh.ok) summary = fresh.data;
    if (seen.ok) {
      view = seen.data.view;
      version = seen.data.version; // actions name the version of the view they were chosen on
    } else if (seen.status === 401 && token) {
      localStorage.removeItem(seatKey(id));
      token = null; me = null;
      refusal.textContent = "Your seat token is no longer valid here: watching instead.";
    }
    draw();
  }

  let timer = null;
  const soon = () => { clearTimeout(timer); timer = setTimeout(refresh, 60); };
  cleanup.push(() => clearTimeout(timer));
  let stream = null;
  let alive = true;
  cleanup.push(() => { alive = false; });
  async function restartStream() {
    if (stream) stream.close();
    if (!alive) return;
    if (summary.status === "over") return;
    stream = await openStream(id, token, (item) => {
      lastAction = commandText(item.command, summary.seats) || eventText(item, summary.seats);
      soon();
    }, () => refresh(), () => setTimeout(() => { restartStream(); refresh(); }, 1000));
  }
  await restartStream();
  await refresh();
}

// -- replay -------------------------------------------------------------------------------
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

async function replayPage(id) {
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

  let token = 0;
  async function go(target) {
    step = Math.max(1, Math.min(last, Number(target) || 1));
    slider.value = step; jump.value = step;
    prev.disabled = step <= 1; next.disabled = step >= last;
    stepLabel.textContent = `event ${step} of ${last}`;
    for (const li of log.children) {
      const current = Number(li.dataset.version) === step;
      li.classList.toggle("current", current);
      if (current) log.scrollTop = li.offsetTop - log.offsetTop - log.clientHeight / 2;
    }
    const mine = ++token;
    const query = new URLSearchParams({ at: String(step) });
    if (asSeat !== "") query.set("as", asSeat);
    const result = await api("GET", `${path}/replay?${query}`);
    if (mine !== token) return;
    if (!result.ok) { what.textContent = problemText(result); return; }
    const data = result.data;
    const shown = data.events.map((event) => eventText({ event }, game.seats));
    what.replaceChildren(el("p", {}, el("strong", {}, commandText(data.command, game.seats) || (data.command && data.command.kind) || ""),
      " ", shown.join("; ")));
    const outcome = data.table.outcome ? el("div", { class: "outcome" }, outcomeText(data.table.outcome, game.seats)) : null;
    table.replaceChildren(...[outcome, tableEl(data.table, game.seats, asSeat === "" ? null : Number(asSeat))].filter(Boolean));
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
  cleanup.push(() => document.removeEventListener("keydown", keys));
  await go(1);
}

window.addEventListener("hashchange", route);
route();
