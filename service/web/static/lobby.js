// The lobby: games by status (polled), and the form that creates one from the catalogue.
import { api, problemText, savedSeat } from "./api.js";
import { el, seatName } from "./tables.js";

const STATUSES = [["waiting", "Waiting for players"], ["playing", "Playing"], ["over", "Over"]];

export async function lobbyPage({ main, onLeave }) {
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
  onLeave(() => { stopped = true; clearInterval(timer); });
}

function gameRow(game) {
  const seats = game.seats.map((s, i) => seatName(game.seats, i)).join(", ");
  const open = game.seats.filter((s) => s.type === "open").length;
  const mine = savedSeat(game.id);  // a seat this browser holds: the person's own game
  const links = [];
  if (mine) links.push(el("span", { class: "badge mine" }, `your seat ${mine.seat}`));
  if (game.status !== "over") {
    links.push(el("a", { class: "button", href: `#/game/${game.id}` }, mine ? "Continue" : open ? "Join / play" : "Play"));
    links.push(el("a", { class: "button", href: `#/watch/${game.id}` }, "Watch"));
  } else {
    links.push(el("a", { class: "button", href: `#/replay/${game.id}` }, "Replay"));
    links.push(el("a", { class: "button", href: `#/watch/${game.id}` }, "Final table"));
  }
  return el("li", { "data-game": game.id, class: mine ? "mine" : null },
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
      el("datalist", { id: "bot-names" }, (entry().bots || ["heuristic", "random"]).map((name) => el("option", { value: name }))));
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
