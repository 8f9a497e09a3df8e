// The cardroom table: lobby, play, watch and replay, on the JSON API of the same host.
import { gamePage } from "./play.js";
import { lobbyPage } from "./lobby.js";
import { replayPage } from "./replay.js";

const main = document.getElementById("main");
const announce = (message) => { document.getElementById("announce").textContent = message; };
let cleanup = [];

// -- routing ------------------------------------------------------------------------------
function route() {
  for (const stop of cleanup) stop();
  cleanup = [];
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, id] = hash.split("/").map(decodeURIComponent);
  main.replaceChildren();
  const context = { main, announce, onLeave: (stop) => cleanup.push(stop) };
  if (page === "game" && id) return gamePage(context, id, false);
  if (page === "watch" && id) return gamePage(context, id, true);
  if (page === "replay" && id) return replayPage(context, id);
  return lobbyPage(context);
}

window.addEventListener("hashchange", route);
route();
