"""Options of the game and what the player count makes of a hand (seats, sizes, packets)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidOptions, InvalidSetup
from domain.options import Option, action_limit_option, parse_options

OPTIONS: tuple[Option, ...] = (
    Option(
        name="six_hand_mode",
        kind="choice",
        default="dealer_sits_out",
        choices=("dealer_sits_out", "all_play"),
        doc="6 players: the dealer sits out, or all play 5 cards each",
    ),
    Option(
        name="seven_hand_mode",
        kind="choice",
        default="all_play",
        choices=("all_play", "dealer_sits_out"),
        doc="7 players: all play 4 cards each with a 4-card blind, or the dealer sits out",
    ),
    Option(
        name="partner_rule",
        kind="choice",
        default="jack_of_diamonds",
        choices=("jack_of_diamonds", "called_ace"),
        doc="how the picker's partner is found",
    ),
    Option(
        name="jd_call_up",
        kind="choice",
        default="optional",
        choices=("optional", "never", "required"),
        doc="a picker holding JD may call a jack (optional), never, or must",
    ),
    Option(
        name="allow_voluntary_alone",
        kind="bool",
        default=False,
        doc="a picker without JD may go alone",
    ),
    Option(
        name="no_pick",
        kind="choice",
        default="leaster",
        choices=("leaster", "doubler", "moster", "forced_pick"),
        doc="what happens when everybody passes",
    ),
    Option(
        name="leaster_blind_to_last_trick",
        kind="bool",
        default=False,
        doc="the blind's points go to the last trick's winner in a leaster or moster",
    ),
    Option(name="double_on_bump", kind="bool", default=False, doc="losing rows score double"),
    Option(
        name="partner_off_the_hook",
        kind="bool",
        default=False,
        doc="the partner scores 0 when the team takes no trick",
    ),
    Option(name="cracking", kind="bool", default=False, doc="crack and recrack double the stakes"),
    Option(name="blitzing", kind="bool", default=False, doc="pick showing queen pairs doubles"),
    Option(
        name="rounds",
        kind="int",
        default=None,
        minimum=1,
        maximum=1000,
        nullable=True,
        doc="counted hands in the match (null: one per player)",
    ),
    Option(
        name="first_dealer",
        kind="int",
        default=None,
        minimum=0,
        maximum=6,
        nullable=True,
        doc="the first dealer's seat (null: chosen with the seed)",
    ),
    action_limit_option(),
)

Packet = tuple[str, int]  # ("s", n): n cards to each active seat; ("b", n): n to the blind


@dataclass(frozen=True, slots=True, kw_only=True)
class Layout:
    """What the player count (and its mode) makes of a hand."""

    active: int
    hand_size: int
    blind_size: int
    packets: tuple[Packet, ...]
    dealer_sits_out: bool
    always_alone: bool


_LAYOUTS = {
    3: Layout(active=3, hand_size=10, blind_size=2,
              packets=(("s", 3), ("b", 2), ("s", 4), ("s", 3)),
              dealer_sits_out=False, always_alone=True),
    4: Layout(active=4, hand_size=7, blind_size=4,
              packets=(("s", 2), ("b", 2), ("s", 3), ("b", 2), ("s", 2)),
              dealer_sits_out=False, always_alone=True),
    5: Layout(active=5, hand_size=6, blind_size=2, packets=(("s", 3), ("b", 2), ("s", 3)),
              dealer_sits_out=False, always_alone=False),
    6: Layout(active=6, hand_size=5, blind_size=2, packets=(("s", 2), ("b", 2), ("s", 3)),
              dealer_sits_out=False, always_alone=False),
    7: Layout(active=7, hand_size=4, blind_size=4,
              packets=(("s", 2), ("b", 2), ("s", 2), ("b", 2)),
              dealer_sits_out=False, always_alone=False),
}  # fmt: skip


def layout(players: int, options: Mapping[str, Any]) -> Layout:
    """The hand layout for a player count and its mode options."""
    if players < 6:  # only 6 and 7 players have a mode
        return _LAYOUTS[players]
    sits_out = (players == 6 and options["six_hand_mode"] == "dealer_sits_out") or (
        players == 7 and options["seven_hand_mode"] == "dealer_sits_out"
    )
    if not sits_out:
        return _LAYOUTS[players]
    base = _LAYOUTS[players - 1]
    return Layout(
        active=base.active,
        hand_size=base.hand_size,
        blind_size=base.blind_size,
        packets=base.packets,
        dealer_sits_out=True,
        always_alone=base.always_alone,
    )


def read_options(raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """All options with defaults filled (``rounds`` becomes the player count when null)."""
    options = parse_options(OPTIONS, raw)
    if options["partner_rule"] == "called_ace" and (
        options["jd_call_up"] != "optional" or options["allow_voluntary_alone"]
    ):
        raise InvalidOptions(
            "jd_call_up and allow_voluntary_alone are J♦ options; "
            "they cannot be combined with partner_rule called_ace"
        )
    first = options["first_dealer"]
    if first is not None and first >= players:
        raise InvalidSetup(f"first_dealer must be a seat from 0 to {players - 1}, got {first}")
    if options["rounds"] is None:
        options["rounds"] = players
    return options


def active_seats(dealer: int, players: int, sits_out: bool) -> tuple[int, ...]:
    """The seats that play a hand, in picking and lead order from the dealer's left."""
    order = [(dealer + i) % players for i in range(1, players + 1)]
    return tuple(s for s in order if not (sits_out and s == dealer))


def deal_cards(
    deck: list[str], lay: Layout, dealer: int, players: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Each seat's hand and the blind, dealing ``deck`` (top first) in the layout's packets."""
    order = active_seats(dealer, players, lay.dealer_sits_out)
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    blind: list[str] = []
    top = 0
    for kind, size in lay.packets:
        targets = [blind] if kind == "b" else [hands[s] for s in order]
        for target in targets:
            target.extend(deck[top : top + size])
            top += size
    return tuple(tuple(hands[s]) for s in range(players)), tuple(blind)
