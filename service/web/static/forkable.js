// Where the server makes a fork (POST /games/{id}/forks, docs/analysis.md), as far as a page can
// tell from the public facts of a table: the one rule of the replay viewer's "Play on from here"
// (analysis.js) and the table's (play.js). The server stays the judge.

/** Why the server would refuse a fork of ``game`` (its name: "shithead"...) at ``table`` as
 * ``seat`` (null: every card open), or null where it forks. Read from the table's public facts
 * only, never a card: ``to_act`` (the seats the game waits on), ``phase`` and ``outcome``; as
 * ``domain.forks.check_forkable`` (something dealt, nothing over, a seat at one of its
 * decisions) and the Shithead world sampler (the play phase only). ``ended``: the game ends
 * there (a replay's last step). ``at``: the event named in the reason (omitted: none);
 * ``name(seat)`` names a seat; ``openToo``: a fork with every card open is offered there too
 * (a finished game's); ``sealedBy``: the game this one is a sealed fork of, while that game is
 * still played (``service.sealing``: no fork of it until then). Answers ``{why, ahead}``,
 * ``ahead`` false where a later moment cannot be forked either (the game is over). */
export function forkRefusal({ game, table, seat, ended = false, at = null, name, openToo = false, sealedBy = null }) {
  const there = at === null ? "" : ` at event ${at}`;
  const when = at === null ? "" : `At event ${at} `;
  const sentence = (text) => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);
  if (table.outcome || ended) return { why: `The game is over${there}: nothing is left to play.`, ahead: false };
  if (sealedBy !== null) {
    return { why: `This game plays on from game ${sealedBy}, which is still being played: `
      + "it cannot be forked again until that game ends.", ahead: true };
  }
  const toAct = table.to_act || [];
  if (!toAct.length) return { why: `Nothing is dealt yet${there}: there is no position to play on.`, ahead: true };
  if (seat === null) return null;
  if (!toAct.includes(seat)) {
    const movers = toAct.map(name);
    const listed = movers.length < 2 ? movers.join("") : `${movers.slice(0, -1).join(", ")} and ${movers.at(-1)}`;
    return { why: `${when}${listed} ${toAct.length > 1 ? "are" : "is"} to move, not ${name(seat)}: `
      + "a fork as a seat starts at one of its own decisions.", ahead: true };
  }
  if (game === "shithead" && table.phase !== "play") {
    const choosing = at === null ? "" : " (the seats are choosing their face-up cards)"; // a table shows it
    return { why: `${sentence(`${when}the play has not begun`)}${choosing}: a fork as a seat starts once it has`
      + `${openToo ? "; viewing every card open, you can play on from here" : ""}.`, ahead: true };
  }
  return null;
}
