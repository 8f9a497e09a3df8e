"""Shithead's options (rules §16), their combination checks (§16.3) and the parsed ``Rules``.

The rank rule of a set on the pile (``rank_problem_of``, R7 and §16) is written once, here.
``Rules`` tabulates it, and which cards are transparent and what rank each card counts as, for
its options when it is built (``tables``): the hot paths (legal_actions, decide) then look a
pair up instead of re-running the logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from domain.errors import InvalidOptions
from domain.games.shithead.ranks import (
    RANK,
    RANK_VALUE,
    RANKS,
    PlayableTable,
    ProblemTable,
    Tables,
)
from domain.options import Option, action_limit_option, parse_options


def _bool(name: str, default: bool, doc: str) -> Option:
    return Option(name=name, kind="bool", default=default, doc=doc)


def _choice(name: str, choices: tuple[str, ...], doc: str) -> Option:
    return Option(name=name, kind="choice", default=choices[0], choices=choices, doc=doc)


OPTIONS: tuple[Option, ...] = (
    _choice("jokers", ("auto", "always", "never"), "jokers in the deck (auto: with 6 players)"),
    _choice(
        "joker_mode",
        ("reverse", "skip_glass", "skip_seven", "skip_two"),
        "what a joker does: reverse the direction, or skip a seat",
    ),
    _bool("two_is_reset", True, "a 2 may be played on anything and anything on a 2"),
    _bool("ten_burns", True, "a 10 may be played on anything and burns the pile"),
    _bool("four_of_a_kind_burns", True, "four equal ranks on top of the pile burn it"),
    _bool("burner_plays_again", True, "the seat that burned the pile leads again"),
    _bool("ten_out_of_turn", False, "tens may be played out of turn onto a non-empty pile"),
    _bool("sevens_low", False, "on a 7 the next set must be 7 or lower"),
    _bool("eights_reverse_transparent", False, "8s go on anything, reverse and are transparent"),
    _bool("sevens_glass", False, "7s go on anything and are transparent"),
    _bool("eights_low", False, "on an 8 the next set must be 2-8 (not even a 10)"),
    _bool("fives_low", False, "5s go on anything; on a 5 the next set must be 5 or lower"),
    _bool("play_from_stock", False, "the seat to act may play the top stock card blind"),
    _choice("pickup_passes_to", ("next", "previous"), "who leads after a pickup"),
    _choice("face_up_pickup", ("one", "none", "all"), "face-up cards taken with the pile"),
    _bool("deal_6_choose_3", False, "deal the face-up cards into the hand; seats choose them"),
    _bool("stack_face_up", False, "equal-rank hand cards may be stacked on face-up slots"),
    Option(name="cards_per_row", kind="int", default=3, choices=(3, 4, 5), doc="table row size"),
    Option(
        name="hand_size",
        kind="int",
        default=None,
        minimum=1,
        nullable=True,
        doc="hand size and refill target (null: cards_per_row)",
    ),
    _choice("objective", ("loser", "winner"), "play for the shithead, or stop at the first out"),
    _bool("match_count", False, "plays onto a pile must match the count of its first play"),
    _choice("dealing_style", ("batch", "one_at_a_time"), "how a shuffled deck is dealt"),
    _choice("next_dealer", ("clockwise", "loser"), "who deals the next deal of a session"),
    _bool("track_flusher", False, "publicly record the first seat to burn the pile"),
    action_limit_option(),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options as typed fields, with the derived facts the rules consult often.

    The last four fields are tables built from the others (``tables``): the problem of
    each rank on each pile rank, the transparent cards, each card's counting rank, and the cards
    that may go on each pile rank.
    """

    jokers_in_deck: bool
    joker_mode: str
    two_is_reset: bool
    ten_burns: bool
    four_of_a_kind_burns: bool
    burner_plays_again: bool
    ten_out_of_turn: bool
    sevens_low: bool
    eights_reverse_transparent: bool
    sevens_glass: bool
    eights_low: bool
    fives_low: bool
    play_from_stock: bool
    pickup_to_previous: bool
    face_up_pickup: str
    deal_6_choose_3: bool
    stack_face_up: bool
    cards_per_row: int
    hand_size: int
    objective_winner: bool
    match_count: bool
    one_at_a_time: bool
    track_flusher: bool
    action_limit: int
    joker_transparent: bool
    joker_skips: bool
    rank_problems: ProblemTable = field(init=False, repr=False, compare=False)
    clear_cards: frozenset[str] = field(init=False, repr=False, compare=False)
    counts_as: dict[str, str] = field(init=False, repr=False, compare=False)
    playable: PlayableTable = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems, clear, counts_as, playable = tables(self)
        object.__setattr__(self, "rank_problems", problems)
        object.__setattr__(self, "clear_cards", clear)
        object.__setattr__(self, "counts_as", counts_as)
        object.__setattr__(self, "playable", playable)

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickled (state snapshots) without the tables: unpickling builds them again."""
        return Rules, tuple(getattr(self, f.name) for f in fields(self) if f.init)


def rank_problem_of(rules: Rules, r: str, t: str) -> str | None:
    """Why rank ``r`` may not go on a pile whose pile rank is ``t`` (None: it may)."""
    if r == "*":
        return None
    if r == "T" and rules.ten_burns:
        return "too_high" if rules.eights_low and t == "8" else None
    if (
        (r == "2" and rules.two_is_reset)
        or (r == "8" and rules.eights_reverse_transparent)
        or (r == "7" and rules.sevens_glass)
        or (r == "5" and rules.fives_low)
    ):
        return None
    for low, active in (("7", rules.sevens_low), ("5", rules.fives_low), ("8", rules.eights_low)):
        if t == low and active:
            return None if RANK_VALUE[r] <= RANK_VALUE[low] else "too_high"
    return None if RANK_VALUE[r] >= RANK_VALUE[t] else "too_low"


def is_transparent(rules: Rules, card: str) -> bool:
    """Cards the next set does not have to beat (§16.2)."""
    r = RANK[card]
    if r == "*":
        return rules.joker_transparent
    return (r == "8" and rules.eights_reverse_transparent) or (r == "7" and rules.sevens_glass)


def counting_rank(rules: Rules, card: str) -> str:
    """The rank a card counts as on top of the pile: a joker as a 7 or a 2 (R7.3)."""
    r = RANK[card]
    if r == "*":
        return "7" if rules.joker_mode == "skip_seven" else "2"
    return r


def tables(rules: Rules) -> Tables:
    """Every (pile rank, rank) problem, the transparent cards, each card's counting rank, and
    for each pile rank the cards whose rank has no problem on it (``rank_problem_of``)."""
    return _tables(rules, _rank_flags(rules))


def _rank_flags(rules: Rules) -> tuple[object, ...]:
    """Every option the three tables depend on: rules that agree on these share the tables."""
    return (rules.ten_burns, rules.eights_low, rules.two_is_reset,
            rules.eights_reverse_transparent, rules.sevens_glass, rules.fives_low,
            rules.sevens_low, rules.joker_transparent, rules.joker_mode)


_BUILT: dict[tuple[object, ...], Tables] = {}


def _tables(rules: Rules, flags: tuple[object, ...]) -> Tables:
    # Built once per combination of flags (a few hundred at most), not once per fold.
    built = _BUILT.get(flags)
    if built is None:
        problems = {t: {r: rank_problem_of(rules, r, t) for r in RANK_VALUE} for t in RANKS}
        clear = frozenset(card for card in RANK if is_transparent(rules, card))
        playable = {
            t: frozenset(card for card, r in RANK.items() if problems[t][r] is None)
            for t in RANKS
        }
        built = problems, clear, {card: counting_rank(rules, card) for card in RANK}, playable
        _BUILT[flags] = built
    return built


def rules_for(options: Mapping[str, Any], players: int) -> Rules:
    """The typed rules of complete (defaults filled) options for that many players."""
    mode = options["joker_mode"]
    jokers = options["jokers"]
    return Rules(
        jokers_in_deck=jokers == "always" or (jokers == "auto" and players == 6),
        joker_mode=mode,
        two_is_reset=options["two_is_reset"],
        ten_burns=options["ten_burns"],
        four_of_a_kind_burns=options["four_of_a_kind_burns"],
        burner_plays_again=options["burner_plays_again"],
        ten_out_of_turn=options["ten_out_of_turn"],
        sevens_low=options["sevens_low"],
        eights_reverse_transparent=options["eights_reverse_transparent"],
        sevens_glass=options["sevens_glass"],
        eights_low=options["eights_low"],
        fives_low=options["fives_low"],
        play_from_stock=options["play_from_stock"],
        pickup_to_previous=options["pickup_passes_to"] == "previous",
        face_up_pickup=options["face_up_pickup"],
        deal_6_choose_3=options["deal_6_choose_3"],
        stack_face_up=options["stack_face_up"],
        cards_per_row=options["cards_per_row"],
        hand_size=options["hand_size"] or options["cards_per_row"],
        objective_winner=options["objective"] == "winner",
        match_count=options["match_count"],
        one_at_a_time=options["dealing_style"] == "one_at_a_time",
        track_flusher=options["track_flusher"],
        action_limit=options["action_limit"],
        joker_transparent=mode in ("reverse", "skip_glass")
        or (mode == "skip_seven" and options["sevens_glass"]),
        joker_skips=mode != "reverse",
    )


def checked_options(raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Every option with defaults filled, or InvalidOptions naming the forbidden combination."""
    options = parse_options(OPTIONS, raw)
    if options["sevens_low"] and options["sevens_glass"]:
        raise InvalidOptions("options sevens_low and sevens_glass exclude each other")
    if options["eights_reverse_transparent"] and options["eights_low"]:
        raise InvalidOptions("options eights_reverse_transparent and eights_low exclude each other")
    rules = rules_for(options, players)
    if rules.joker_skips and not rules.jokers_in_deck:
        raise InvalidOptions(
            f"joker_mode {rules.joker_mode!r} needs jokers in the deck "
            f"(jokers={options['jokers']!r} with {players} players has none)"
        )
    need = players * (2 * rules.cards_per_row + rules.hand_size)
    deck = 54 if rules.jokers_in_deck else 52
    if need > deck:
        raise InvalidOptions(
            f"{players} players x (2 x {rules.cards_per_row} + {rules.hand_size}) = {need} cards "
            f"do not fit a {deck}-card deck"
        )
    return options
