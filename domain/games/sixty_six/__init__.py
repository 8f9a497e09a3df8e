"""Sixty-Six (Sechsundsechzig): two players, a match to 7 game points.

Rules: docs/rules/sixty_six.md. Actions (the acting seat is passed separately):

- ``{"type": "play", "cards": ["TH"]}``: lead a card, or follow the led card;
- ``{"type": "marriage", "cards": ["KH"]}``: announce the K-Q pair and lead the named K or Q;
- ``{"type": "exchange_trump"}``: swap the trump 9 (trump J with deck20) for the face-up card;
- ``{"type": "close"}``: close the stock (on lead, or in the draw step instead of drawing);
- ``{"type": "draw"}``: in the draw step, the trick winner and then the loser draw;
- ``{"type": "declare_out"}``: claim 66; either seat, any time while a deal is live;
- ``{"type": "pass"}``: decline to declare in the end-of-play window.

Rejections are IllegalAction/NotYourTurn/GameOver/InvalidAction whose ``reason`` is a §16 code.
"""

from domain.games.sixty_six.game import SixtySix
from domain.registry import register

GAME = SixtySix()
register(GAME)

__all__ = ["GAME", "SixtySix"]
