// The game's live stream, kept alive. The browser reconnects an EventSource by itself (sending
// Last-Event-ID); when it gives up (an error answer: an expired ticket, a store outage) the page
// opens a new one from the last version it saw. A stream not back within FALLBACK_MS is said
// "reconnecting…" while the page fetches the view every POLL_MS until it is back: every stream
// ends after its lifetime and the browser reconnects it within its retry (1 to 2 s), which the
// page does not report as a failure.
import { api } from "./api.js";

export const FALLBACK_MS = 2500;  // longer than a planned reconnect (retry: 1 to 2 s)
export const POLL_MS = 2000;
const BACKOFF_MS = [1000, 2000, 4000, 8000];

/** Follow game ``id``: ``onEvent(item)`` per streamed event, ``onOver()`` at the end,
 * ``onState("live" | "polling")`` on every change (polling: the stream is down), ``resync()`` whenever
 * the page must read the view (each (re)connection, each poll). Returns ``{ restart, stop }``. */
export function follow(id, { token, after, onEvent, onOver, onState, resync }) {
  const path = `/games/${encodeURIComponent(id)}`;
  let source = null;
  let stopped = false;
  let failures = 0;
  let state = null;
  let fallback = null;
  let poller = null;
  let reopen = null;

  const setState = (next) => { if (next !== state) { state = next; onState(next); } };
  function stopPolling() {
    clearTimeout(fallback); fallback = null;
    clearInterval(poller); poller = null;
  }
  function down() {
    if (stopped) return;
    if (fallback || poller) return;
    fallback = setTimeout(() => {
      fallback = null;
      setState("polling");
      poller = setInterval(resync, POLL_MS);
      resync();
    }, FALLBACK_MS);
  }
  function closeSource() {
    if (source) source.close();
    source = null;
  }

  async function open() {
    clearTimeout(reopen);
    closeSource();
    if (stopped) return;
    const query = new URLSearchParams({ after: String(after()) });
    const seat = token();
    if (seat) {
      const ticket = await api("POST", `${path}/stream-tickets`, { token: seat });
      if (stopped) return;
      if (ticket.status === 0) { retryLater(); return; }
      if (ticket.ok) query.set("ticket", ticket.data.ticket);
      // refused (the seat changed hands): the spectators' stream; the view still comes by fetch
    }
    const opened = new EventSource(`${path}/stream?${query}`);
    source = opened;
    opened.addEventListener("open", () => {
      failures = 0;
      stopPolling();
      setState("live");
      resync();  // whatever happened while it was down
    });
    opened.addEventListener("event", (message) => onEvent(JSON.parse(message.data)));
    opened.addEventListener("over", () => { stop(); onOver(); });
    opened.addEventListener("error", () => {
      if (opened !== source) return;
      down();
      if (opened.readyState === EventSource.CLOSED) retryLater();
    });
  }
  function retryLater() {
    closeSource();
    down();
    reopen = setTimeout(open, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]);
    failures += 1;
  }
  function stop() {
    stopped = true;
    clearTimeout(reopen);
    stopPolling();
    closeSource();
  }
  open();
  return { restart: () => { failures = 0; open(); }, stop };
}
