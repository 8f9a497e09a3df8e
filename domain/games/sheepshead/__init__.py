"""Sheepshead: 32 cards, 14 trumps, a blind, a picker and a secret partner (3 to 7 players).

Actions (JSON, the acting seat passed separately; ``legal_actions`` lists exactly these):

- ``{"type": "pick"}``, ``{"type": "pick", "blitz": true}`` (option ``blitzing``),
  ``{"type": "pass"}``: picking, in turn from the dealer's left;
- ``{"type": "bury", "cards": [a, b]}``: the picker buries as many cards as the blind holds;
- ``{"type": "call", "cards": ["JH"]}``, ``{"type": "alone"}``, ``{"type": "partner"}``: the
  picker's partner decision (R7.3, called ace CA1-CA4, ``allow_voluntary_alone``);
- ``{"type": "crack"}``, ``{"type": "no_crack"}``, ``{"type": "recrack"}``,
  ``{"type": "no_recrack"}``: option ``cracking``;
- ``{"type": "play", "cards": ["QC"]}``: one card to the trick.

Deal k of a match is ``domain.shuffle.shuffled(deck_32, seed, deal_label(k))`` dealt in the
packets of docs/rules/sheepshead.md (R4.3, §16.1); an explicit deal replaces deal 0 only.
Events (§14): GameStarted, HandDealt, Passed, Picked (blind private), LeasterStarted,
HandThrownIn (doubler), Buried (cards private), CardCalled (public), PreparationFinished (the
teams are fixed; ``alone`` is private unless announced, so a J♦ picker's ``alone`` stays hidden
until HandScored, R10.6), CrackDecided, RecrackDecided, CardPlayed, PartnerRevealed, TrickWon,
HandScored (everything open), MatchEnded, MatchAborted (``action_limit``).

Decisions beyond the rules file:
- under ``cracking`` the partner is asked too but may only decline, so the window never shows
  who the partner is;
- under ``forced_pick`` the last seat in picking order (the dealer, or the seat before a
  sitting-out dealer) must pick;
- while the picker buries or calls, others see phase ``picker_preparing`` and the picker
  holding 8 cards, so a pending call cannot be told from a bury still to come (R10.6);
- refusal reasons beyond R13.2: ``invalid_blitz``, ``crack_not_allowed``, ``called_suit_rule``
  (CA6).
"""

from __future__ import annotations

from domain.games.sheepshead.game import GAME, Sheepshead
from domain.registry import register

register(GAME)

__all__ = ["GAME", "Sheepshead"]
