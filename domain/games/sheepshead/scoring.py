"""Scoring a hand: the seed's table through the general formula R9.7, leaster and moster."""

from __future__ import annotations

from domain.games.sheepshead.cards import total_points
from domain.games.sheepshead.events import HandScored
from domain.games.sheepshead.state import Hand, State

# The "each defender" column of R9.5, by row.
DEFENDER_VALUE = {
    "win_all_tricks": -3,
    "win_91_plus": -2,
    "win_61_90": -1,
    "lose_31_60": 1,
    "lose_0_30": 2,
    "lose_no_tricks": 6,
}
LOSING_ROWS = frozenset({"lose_31_60", "lose_0_30", "lose_no_tricks"})


def result_row(team_tricks: int, team_points: int, tricks: int) -> str:
    """R9.4: the first matching row, trick counts before points."""
    if team_tricks == tricks:
        return "win_all_tricks"
    if team_tricks == 0:
        return "lose_no_tricks"
    if team_points >= 91:
        return "win_91_plus"
    if team_points >= 61:
        return "win_61_90"
    if team_points >= 31:
        return "lose_31_60"
    return "lose_0_30"


def taken(state: State, hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's tricks and card points taken in this hand."""
    tricks = [0] * state.players
    pts = [0] * state.players
    for trick in hand.tricks:
        tricks[trick.winner] += 1
        pts[trick.winner] += trick.points
    return tuple(tricks), tuple(pts)


def stakes(state: State, hand: Hand) -> int:
    """The public multiplier before the result: doubler, blitz pairs, crack and recrack."""
    multiplier: int = state.pending_multiplier * 2 ** len(hand.blitz)
    if hand.cracked_by is not None:
        multiplier *= 2
    if hand.recracked:
        multiplier *= 2
    return multiplier


def team_scores(state: State, hand: Hand, row: str, multiplier: int) -> tuple[int, ...]:
    """R9.7: defenders score d, the partner -d, the picker minus everyone else's sum."""
    d = DEFENDER_VALUE[row] * multiplier
    scores = [0] * state.players
    for seat in hand.active:
        if seat == hand.partner:
            off_hook = state.options["partner_off_the_hook"] and row == "lose_no_tricks"
            scores[seat] = 0 if off_hook else -d
        elif seat != hand.picker:
            scores[seat] = d
    assert hand.picker is not None
    scores[hand.picker] = -sum(scores)
    return tuple(scores)


def score_normal(state: State, hand: Hand) -> HandScored:
    """The HandScored of a hand with a picker."""
    tricks, pts = taken(state, hand)
    team = {s for s in (hand.picker, hand.partner) if s is not None}
    team_tricks = sum(tricks[s] for s in team)
    team_points = sum(pts[s] for s in team) + total_points(hand.buried)
    row = result_row(team_tricks, team_points, len(hand.tricks))
    multiplier = stakes(state, hand)
    if state.options["double_on_bump"] and row in LOSING_ROWS:
        multiplier *= 2
    return HandScored(
        hand=hand.number,
        kind="normal",
        picker=hand.picker,
        partner=hand.partner,
        alone=bool(hand.alone),
        called=hand.called,
        buried=hand.buried,
        blind=hand.blind,
        team_tricks=team_tricks,
        team_points=team_points,
        row=row,
        multiplier=multiplier,
        tricks_taken=tricks,
        points_taken=pts,
        scores=team_scores(state, hand, row, multiplier),
    )


def leaster_points(state: State, hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tricks and points taken, the blind added to the last trick's winner under the variant."""
    tricks, pts = taken(state, hand)
    if state.options["leaster_blind_to_last_trick"]:
        adjusted = list(pts)
        adjusted[hand.tricks[-1].winner] += total_points(hand.blind)
        pts = tuple(adjusted)
    return tricks, pts


def leaster_scores(
    state: State, hand: Hand, pts: tuple[int, ...], tricks: tuple[int, ...]
) -> tuple[int, ...]:
    """R11.6-R11.8 (leaster) or §16.4 (moster): one point from or to every other player."""
    active = hand.active
    n = len(active)
    if hand.leaster == "moster":
        top = max(pts[s] for s in active)
        chosen = [s for s in active if pts[s] == top]
        sign = -1
    else:
        eligible = [s for s in active if tricks[s] >= 1]
        low = min(pts[s] for s in eligible)
        chosen = [s for s in eligible if pts[s] == low]
        sign = 1
    scores = [0] * state.players
    if len(chosen) == 1:
        for seat in active:
            scores[seat] = sign * ((n - 1) if seat == chosen[0] else -1)
    return tuple(scores)


def score_leaster(state: State, hand: Hand) -> HandScored:
    """The HandScored of a leaster or moster."""
    tricks, pts = leaster_points(state, hand)
    return HandScored(
        hand=hand.number,
        kind=hand.leaster or "leaster",
        picker=None,
        partner=None,
        alone=False,
        called=None,
        buried=(),
        blind=hand.blind,
        team_tricks=0,
        team_points=0,
        row=None,
        multiplier=1,
        tricks_taken=tricks,
        points_taken=pts,
        scores=leaster_scores(state, hand, pts, tricks),
    )


def labels(row: str) -> tuple[str, ...]:
    """R9.11's names for a row: who is schneidered or schwarz, and whether the picker is set."""
    out: list[str] = []
    if row in LOSING_ROWS:
        out.append("picker_set")
    if row in ("win_91_plus", "win_all_tricks"):
        out.append("defenders_schneidered")
    if row in ("lose_0_30", "lose_no_tricks"):
        out.append("team_schneidered")
    if row == "win_all_tricks":
        out.append("defenders_schwarz")
    if row == "lose_no_tricks":
        out.append("team_schwarz")
    return tuple(out)
