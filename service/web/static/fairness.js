// Fair dealing in the browser (docs/fairness.md): the entropy this browser adds to a game's
// deal, kept so the player can check afterwards that the seed was made with it.

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const entropyKey = (gameId, seat) => `cardroom.entropy.${gameId}.${seat}`;

/** 32 bytes from the browser's own random source, as 64 lowercase hex digits: a join sends
 * them, so the server never draws a person's share of the deal. */
export function newEntropy() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Keep the entropy a seat was joined with (to show and to check it once the game is over). */
export function keepEntropy(gameId, seat, entropy) {
  localStorage.setItem(entropyKey(gameId, seat), entropy);
}

/** The entropy this browser joined the seat with, or null. */
export function keptEntropy(gameId, seat) {
  return localStorage.getItem(entropyKey(gameId, seat));
}
