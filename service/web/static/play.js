// Play and watch: a seat's (or a spectator's) table, kept up to date by the game's stream.
import { api, freshKey, joinSeat, problemText, savedSeat, seatKey } from "./api.js";
import { auditPanel, dealText, keepReceipt } from "./fairness.js";
import { forkRefusal } from "./forkable.js";
import { handControls } from "./hand.js";
import { moveList, paceFor } from "./moves.js";
import { muted, setMuted, turnNotice } from "./notice.js";
import { askRematch, gameOverSheet, scoring } from "./sheet.js";
import { follow, POLL_MS } from "./stream.js";
import {
  commandText, el, outcomeText, seatName, tableEl,
} from "./tables.js";

const SUMMARY_POLL_MS = 4000;

export async function gamePage({ main, onLeave, announce }, id, watching) {
  const path = `/games/${encodeURIComponent(id)}`;
  const mine = watching ? null : savedSeat(id);
  // a sealed fork's summary is its seat's alone (docs/analysis.md): read with the seat's token
  let summary = (await api("GET", path, { token: mine ? mine.token : null }));
  if (!summary.ok) {
    main.append(el("h1", {}, "Game not found"), el("p", {}, problemText(summary)), el("a", { href: "#/" }, "Back to the lobby"));
    return;
  }
  summary = summary.data;
  let token = mine ? mine.token : null;
  let me = mine ? mine.seat : null;
  let view = null;
  let version = summary.version;
  let lastAction = "";
  let busy = false;
  let streamState = null;  // "live" or "polling": the stream is down (stream.js)
  let unreachable = null;  // why the last read of the table got no answer, until one does
  document.title = `cardroom: ${summary.title} ${id}`;

  const heading = el("h1", {}, `${summary.title} `, el("span", { class: "muted gid" }, id));
  const status = el("dl", { class: "status", id: "status", "aria-live": "polite" });
  const outcome = el("div", { id: "outcome", role: "status" });
  const refusal = el("div", { class: "alert", id: "refusal", role: "alert" });
  const connection = el("div", { class: "notice", id: "connection", role: "status" });
  const joinBox = el("section", { class: "panel", id: "join" });
  const table = el("div", { id: "table" });
  const handBox = el("div", { id: "hand" });
  const actionsBox = el("div", { class: "actions", id: "actions" });
  const lifecycleBox = el("div", { class: "lifecycle", id: "lifecycle" });  // resign, abort
  const forkBox = el("div", { class: "lifecycle", id: "fork-box" });  // play on from here
  const mode = el("p", { class: "muted" });
  const origin = el("p", { class: "muted", id: "fork-origin" });  // a fork's: where it plays on from
  const panel = el("section", { class: "panel", id: "play-panel", "aria-label": "Your hand and actions" },
    el("h2", { class: "visually-hidden" }, "Your hand"), handBox, el("h2", { class: "visually-hidden" }, "Your actions"),
    el("div", { class: "actions-row" }, actionsBox, forkBox, lifecycleBox));
  main.classList.add("game");
  const moves = moveList({ path, token: () => token, onLeave, pace: paceFor(summary.options), seat: () => me });
  const sheetBox = el("div", { id: "sheet" });
  const inviteBox = el("div", { class: "row invite", id: "invite" });
  const sound = el("button", { type: "button", id: "sound", "aria-pressed": String(!muted()),
    onclick: () => { setMuted(!muted()); drawSound(); } });
  const drawSound = () => {
    sound.textContent = muted() ? "\u266a Sound off" : "\u266a Sound on";
    sound.setAttribute("aria-pressed", String(!muted()));
  };
  drawSound();
  main.append(el("div", { class: "title-row" }, heading, sound), mode, origin, connection, status, outcome, sheetBox, refusal, joinBox, inviteBox, table, moves.box, panel);
  // the hand and the actions are fixed at the bottom: the table above keeps clear of them
  const sized = new ResizeObserver(() => main.style.setProperty("--panel-height", `${panel.hidden ? 0 : panel.offsetHeight}px`));
  sized.observe(panel);
  onLeave(() => { sized.disconnect(); main.classList.remove("game"); main.style.removeProperty("--panel-height"); });

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
          const joined = await joinSeat(id, s.seat, name.value.trim(), summary.commitment);
          if (joined.error) { error.textContent = joined.error; return; }
          token = joined.token;
          me = joined.seat;
          announce(`You sit at seat ${me}`);
          await refresh();
          restartStream();
        } }, `Join seat ${s.seat}`))),
      error);
  }

  // while seats are open: the link to send to the people who should take them
  function drawInvite() {
    const open = summary.status !== "over" && summary.seats.some((s) => s.type === "open");
    inviteBox.hidden = !open;
    if (!open || inviteBox.childElementCount) return;
    const link = `${location.origin}${location.pathname}#/game/${encodeURIComponent(id)}`;
    const field = el("input", { id: "invite-link", readonly: true, value: link, "aria-label": "Invite link", size: 34 });
    const copied = el("span", { class: "muted", role: "status" });
    inviteBox.append(el("label", { for: "invite-link" }, "Invite to the open seats:"), field,
      el("button", { type: "button", id: "invite-copy", onclick: async () => {
        field.select();
        try { await navigator.clipboard.writeText(link); copied.textContent = "copied"; } catch { copied.textContent = "selected: copy it"; }
      } }, "Copy link"), copied);
  }

  // the game-over sheet, drawn once the move list holds the game's end
  let sheetDrawn = null;
  function drawSheet() {
    if (!view || !view.outcome) return;
    const results = moves.items().filter(scoring).map((item) => item.text);
    const seatedThere = summary.rematch ? savedSeat(summary.rematch) : null;
    const key = JSON.stringify([results, summary.outcome, summary.rematch, Boolean(seatedThere), me]);
    if (key === sheetDrawn) return;
    sheetDrawn = key;
    sheetBox.replaceChildren(gameOverSheet({ id, summary, me, results, seatedThere, propose: rematch, accept: rematch }));
  }

  // any seated person proposes the rematch, or accepts the one proposed (the same request:
  // the server makes one game for every seat), then takes their seat in it again
  async function rematch() {
    const said = (words) => { document.getElementById("rematch-error").textContent = words; };
    const made = await askRematch(id, token);
    if (made.error) { said(made.error); return; }
    if (!savedSeat(made.id)) {
      const name = (savedSeat(id) || {}).name || localStorage.getItem("cardroom.name") || "player";
      const joined = await joinSeat(made.id, me, name, made.commitment);
      if (joined.error) {
        summary = { ...summary, rematch: made.id };
        drawSheet();
        said(`The rematch is made, but not your seat in it: ${joined.error}`);
        return;
      }
    }
    location.hash = `#/game/${encodeURIComponent(made.id)}`;
  }

  // a sealed fork is not forked again while its source is played (service.sealing): whether
  // it still is, read with the summary (a source archived or purged is over)
  const sealedSource = summary.forked && summary.forked.sealed ? summary.forked.source : null;
  let sourcePlayed = sealedSource !== null;
  async function readSource() {
    if (!sourcePlayed) return;
    const read = await api("GET", `/games/${encodeURIComponent(sealedSource)}`);
    if (read.status === 0) return;  // no answer: as it was
    sourcePlayed = read.ok && read.data.status !== "over";
    if (sourcePlayed) return;
    drawOrigin();
    if (view) drawFork();
  }
  // a fork says where it plays on from (docs/analysis.md): the game (a link), the event, whose
  // point of view; a sealed one, while its source is played, that it is its seat's alone
  function drawOrigin() {
    const forked = summary.forked;
    origin.hidden = !forked;
    if (!forked) return;
    const as = forked.as === null ? "with every card open" : `as seat ${forked.as}${forked.as === me ? " (you)" : ""}`;
    origin.replaceChildren("Plays on from game ", el("a", { href: `#/game/${encodeURIComponent(forked.source)}` }, forked.source),
      ` at event ${forked.version}, ${as}.`,
      sourcePlayed ? " That game is still being played: this one is that seat's alone until it ends." : "");
  }
  drawOrigin();
  // the summary is read again now and then: the spectator count while the game is played; the
  // rematch another seat may offer once it is over (the stream has ended by then)
  const summaryTimer = setInterval(async () => {
    if (!view || (view.outcome && summary.rematch)) return;
    const fresh = await api("GET", path, { token });
    if (!fresh.ok) return;
    if (view.outcome) { summary = fresh.data; drawSheet(); return; }
    readSource();
    summary.spectators = fresh.data.spectators;
    const shown = document.getElementById("spectators");
    if (shown) shown.textContent = spectatorText();
  }, SUMMARY_POLL_MS);
  onLeave(() => clearInterval(summaryTimer));
  const spectatorText = () => String(summary.spectators ?? 0);

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
  onLeave(() => clearInterval(clockTimer));

  let audited = false;
  const notice = turnNotice(document.title);
  function drawStatus() {
    const toAct = awaited();
    notice(me !== null && toAct.includes(me));
    const turn = toAct.length === 0 ? "nobody" : toAct.map((s) => (s === me ? "you" : seatName(summary.seats, s))).join(", ");
    status.replaceChildren(...[
      el("div", {}, el("dt", {}, "Phase"), el("dd", { id: "phase" }, view.outcome ? "over" : String(view.phase || "").replaceAll("_", " "))),
      el("div", {}, el("dt", {}, "To act"), el("dd", { id: "to-act" }, toAct.includes(me) ? `your turn (${turn})` : turn)),
      el("div", {}, el("dt", {}, "Last action"), el("dd", { id: "last-action" },
        (view.last_action && view.last_action.text) || lastAction || "none yet")),
      clockText() ? el("div", {}, el("dt", {}, "Clock"), el("dd", { id: "clock" }, clockText())) : null,
      el("div", {}, el("dt", {}, "Version"), el("dd", { id: "version" }, String(version))),
      view.outcome ? null : el("div", {}, el("dt", {}, "Spectators"), el("dd", { id: "spectators" }, spectatorText())),
      dealText(id, me, summary.commitment) ? el("div", {}, el("dt", {}, "Deal"), el("dd", { id: "deal-fairness" }, dealText(id, me, summary.commitment))) : null,
    ].filter(Boolean));
    outcome.replaceChildren();
    if (view.outcome) {
      outcome.append(el("div", { class: "outcome" }, outcomeText(view.outcome, summary.seats), " ",
        el("a", { href: `#/replay/${id}` }, "Replay and audit this game")));
      if (me !== null && !audited) {  // this browser checks the game itself (fairness.js)
        audited = true;
        auditPanel(id, summary.game, me, async (where) => (await api("GET", where, { token })).data)
          .then((found) => outcome.after(found));
      }
    }
  }

  const controls = handControls({ handBox, actionsBox, send: (action) => play(action) });
  function drawHand() {
    panel.hidden = me === null || Boolean(view.outcome);  // at the end the sheet takes over
    if (me !== null) controls.draw(view, me);
    drawLifecycle();
  }

  // beside the actions, at the right (abort, when the view offers it, beside resign); the
  // buttons stay in the page while offered: a click's target removed between its press and its
  // release (even to be put back) never gets the click
  const LIFECYCLE = [["abort", "Abort", "Really abort? Click again"],
    ["withdraw_abort", "Withdraw abort", "Really withdraw? Click again"],
    ["leave", "Leave", "Really leave your seat? Click again"], ["resign", "Resign", "Really resign? Click again"]];
  function drawLifecycle() {
    drawFork();
    const offered = me === null ? [] : view.may_send || [];
    const wanted = LIFECYCLE.filter(([kind]) => offered.includes(kind));
    const shown = [...lifecycleBox.children].map((b) => b.id);
    if (JSON.stringify(shown) === JSON.stringify(wanted.map(([kind]) => kind))) return;
    lifecycleBox.replaceChildren(...wanted.map((args) => askTwiceButton(...args)));
  }

  // "Play on from here": a sealed fork (docs/analysis.md) as this seat against heuristic bots,
  // its seat taken with this token; offered to a seat of a game still played, and disabled
  // with the reason where the server would refuse it (forkable.js: the replay viewer's rule,
  // read from this seat's view and the summary's to_act, never a hidden card). The button
  // stays in the page while the game is played (a target removed mid-click gets no click).
  const forkButton = el("button", { type: "button", id: "fork-here", onclick: () => forkHere() }, "Play on from here");
  // the reason's line keeps its room while the button is shown (hidden, not removed): the
  // panel's buttons do not move under a held click when a turn passes
  const forkWhy = el("p", { id: "fork-why", class: "muted" });
  forkWhy.style.visibility = "hidden";
  const named = (seat) => {
    if (seat === me) return "you";
    const shown = seatName(summary.seats, seat);
    return shown.includes(`seat ${seat}`) ? shown : `${shown} (seat ${seat})`;
  };
  function drawFork() {
    if (me === null || view.outcome) { forkBox.replaceChildren(); return; }
    if (!forkBox.childElementCount) forkBox.append(forkButton, forkWhy);
    const refused = forkRefusal({ game: summary.game, table: { ...view, to_act: awaited() }, seat: me, name: named,
      sealedBy: sourcePlayed ? sealedSource : null });
    const why = refused ? refused.why : "";
    forkButton.disabled = Boolean(refused);
    forkButton.title = why;
    if (forkWhy.textContent !== why) forkWhy.textContent = why;
    forkWhy.style.visibility = refused ? "" : "hidden";
  }
  async function forkHere() {
    if (busy) return;
    busy = true;
    refusal.replaceChildren();
    try {
      const seats = summary.seats.map((_, seat) => (seat === me ? { type: "open" } : { type: "bot", bot: "heuristic" }));
      const made = await api("POST", `${path}/forks`, { token, body: { at: version, as: me, seats } });
      if (!made.ok) { refusal.textContent = `Cannot play on from here: ${problemText(made)}`; return; }
      const name = (savedSeat(id) || {}).name || localStorage.getItem("cardroom.name") || "you";
      const joined = await joinSeat(made.data.id, me, name, made.data.commitment, token);
      if (joined.error) { refusal.textContent = `Cannot play on from here: ${joined.error}`; return; }
      location.hash = `#/game/${made.data.id}`;
    } finally {
      busy = false;
    }
  }

  // resigning and aborting are never among the legal actions (a bot picking from them never
  // resigns by chance): the view's may_send offers them, and the page asks twice before sending
  // the same button across redraws: the table may redraw between the two clicks, or between
  // the press and the release of one
  const armed = new Set();
  const askTwice = new Map();
  function askTwiceButton(kind, text, question) {
    const label = () => (armed.has(kind) ? question : text);
    if (askTwice.has(kind)) return askTwice.get(kind);
    const button = el("button", { type: "button", class: kind, id: kind }, label());
    askTwice.set(kind, button);
    button.onclick = () => {
      if (!armed.has(kind)) {
        armed.add(kind);
        button.textContent = label();
        return;
      }
      armed.delete(kind);
      button.textContent = label();
      play({ type: kind });
    };
    return button;
  }

  // an action is sent with a fresh Idempotency-Key; its Retry sends the same request again, so
  // an action the server took before its answer was lost is answered again, not played twice
  async function play(action) {
    await send({ ...action, expected_version: version }, freshKey());
  }

  async function send(body, key) {
    if (busy) return;
    busy = true;
    refusal.replaceChildren();
    let result;
    try {
      result = await api("POST", `${path}/actions`, { token, key, body });
    } finally {
      busy = false;
    }
    if (result.status === 0) {
      refusal.replaceChildren(`Your action got ${result.failure}. `,
        el("button", { type: "button", id: "retry", onclick: () => send(body, key) }, "Retry"));
      await refresh();
      return;
    }
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
    controls.clear();
    const { expected_version: _, ...action } = body;
    lastAction = commandText({ kind: "action", seat: me, action }, summary.seats).replace(/^[^:]*:/, "you:");
    if (result.data.version >= version) {  // a retry's answer may be older than the table
      version = result.data.version;
      view = result.data.view;
    }
    draw();
    moves.catchUp(version, Boolean(view && view.outcome)).then(drawSheet);
  }

  function drawConnection() {
    // a failed read says so, but never hides that the stream is down (both fail in a blip)
    const failed = unreachable && `the last read of the table got ${unreachable}: trying again every ${POLL_MS / 1000} s`;
    let shown = "";
    if (streamState === "polling") {
      const meanwhile = `meanwhile the table is read every ${POLL_MS / 1000} s`;
      shown = `reconnecting\u2026${failed || meanwhile ? ` (${failed || meanwhile})` : ""}`;
    } else if (failed) shown = `${failed[0].toUpperCase()}${failed.slice(1)}.`;
    if (connection.textContent !== shown) connection.textContent = shown;
  }

  function draw() {
    mode.textContent = (me === null ? "Watching as a spectator: live." : `Playing seat ${me} as ${seatName(summary.seats, me)}.`)
      + (summary.prearranged ? " Prearranged: the seed or the deal was chosen by the creator." : "");
    sound.hidden = me === null;  // the turn notice is a seat's
    drawJoin();
    drawInvite();
    if (!view) return;
    if (view.outcome && feed) {  // over, however the page learnt it: no stream to wait for
      feed.stop();
      streamState = null;
      drawConnection();
    }
    drawStatus();
    // once over every card is shown: the table with every card open (the replay's last step)
    const shown = view.outcome ? revealed || { ...view, handBelow: false } : { ...view, handBelow: true };
    table.replaceChildren(tableEl({ ...shown, to_act: awaited() }, summary.seats, me));
    // (a sealed fork's history stays the seat's until its source ends: its final view only)
    if (view.outcome && !revealed && !(summary.forked && summary.forked.sealed)) reveal();
    drawHand();
  }

  // a finished game hides nothing (its whole log is public): its last step, every card open
  let revealed = null;
  let revealing = false;
  async function reveal() {
    if (revealing) return;
    revealing = true;
    const found = await api("GET", `${path}/replay?at=${version}`);
    revealing = false;
    if (found.ok && !revealed) { revealed = found.data.table; draw(); }
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

  let retryRead = null;
  onLeave(() => clearTimeout(retryRead));
  async function fetchAndDraw() {
    const [fresh, seen] = await Promise.all([api("GET", path, { token }), api("GET", `${path}/view`, { token })]);
    const failed = [fresh, seen].find((r) => r.status === 0);
    unreachable = failed ? failed.failure : null;
    clearTimeout(retryRead);
    if (failed) retryRead = setTimeout(refresh, POLL_MS);  // after any error, read the view again
    drawConnection();
    if (fresh.ok) summary = fresh.data;
    if (seen.ok && (view === null || seen.data.version >= version)) {  // never back in time
      view = seen.data.view;
      version = seen.data.version; // actions name the version of the view they were chosen on
      if (me !== null) keepReceipt(id, me, seen.data);
    } else if ((seen.status === 401 || seen.status === 403) && token) {  // 403: the seat was left
      localStorage.removeItem(seatKey(id));
      token = null; me = null;
      refusal.textContent = "Your seat token is no longer valid here: watching instead.";
    }
    draw();
    moves.catchUp(version, Boolean(view && view.outcome)).then(drawSheet);
  }

  let timer = null;
  const soon = () => { clearTimeout(timer); timer = setTimeout(refresh, 60); };
  onLeave(() => clearTimeout(timer));
  let feed = null;
  onLeave(() => feed && feed.stop());
  function restartStream() {
    if (summary.status === "over") return;
    if (feed) { feed.restart(); return; }
    feed = follow(id, {
      token: () => token,
      after: () => version,
      onEvent: (item) => {
        // the server's own words for the move (a view may have no last action yet)
        lastAction = item.text || lastAction;
        soon();
      },
      onOver: () => refresh(),
      onState: (state) => { streamState = state; drawConnection(); },
      resync: () => refresh(),
    });
  }
  await refresh();
  restartStream();
}
