// The JSON API of the same host, and the seat kept in this browser.
import { keepEntropy, newEntropy } from "./fairness.js";

/** How long a request may take before the page gives up on it (and says so). */
export const TIMEOUT_MS = 10000;

/** One request; never throws. No answer (the network, a timeout) is ``status: 0`` with
 * ``failure`` saying which, so every caller can show it and try again. */
export async function api(method, path, { body, token, key, timeout = TIMEOUT_MS } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal,
    });
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      if (err.name !== "SyntaxError") throw err;  // the body was cut (the network): no answer
    }
    return { ok: response.ok, status: response.status, data };
  } catch {
    const failure = controller.signal.aborted ? `no answer within ${timeout / 1000} s` : "no answer from the server";
    return { ok: false, status: 0, data: null, failure };
  } finally {
    clearTimeout(timer);
  }
}

export function problemText(result) {
  if (result.status === 0) return result.failure;
  const data = result.data || {};
  return data.detail || data.title || `the server answered ${result.status}`;
}

/** A fresh Idempotency-Key: a retry of the same action sends the same key, so an action the
 * server took before its answer was lost is answered again, never played twice. */
export function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `table-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export const seatKey = (id) => `cardroom.seat.${id}`;
export function savedSeat(id) {
  try { return JSON.parse(localStorage.getItem(seatKey(id)) || "null"); } catch { return null; }
}

/** Join ``seat`` of game ``gameId`` (whose deck commitment is ``commitment``) as ``name``,
 * with this browser's own share of the deal (not the server's); the seat's token is kept in
 * this browser, and the entropy with the commitment (fairness.js). ``{ error }`` if refused.
 * ``token``: a sealed fork's seat is taken with the token of that seat of its source. */
export async function joinSeat(gameId, seat, name, commitment, token = null) {
  const entropy = newEntropy();
  const joined = await api("POST", `/games/${encodeURIComponent(gameId)}/seats/${seat}`, { body: { name, entropy }, token });
  if (!joined.ok) return { error: problemText(joined) };
  keepEntropy(gameId, joined.data.seat, entropy, commitment);
  localStorage.setItem(seatKey(gameId), JSON.stringify({ seat: joined.data.seat, token: joined.data.token, name: joined.data.name }));
  return joined.data;
}
