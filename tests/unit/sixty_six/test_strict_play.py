"""R7: strict play once the stock is closed or exhausted."""

from __future__ import annotations

from tests.unit.sixty_six.helpers import act, legal, moves, rejected, start

FOLLOWER = "AC 9C KD 9H KH QD"
LEADER = "QC AS KS AD QH JS"


def closed_lead(card: str, follower: str = FOLLOWER, **options: object):
    state, _ = start(follower, LEADER, "TH", **options)
    return moves(state, (1, "close"), (1, f"play {card}"))


def plays(state) -> list[str]:
    return sorted(a.split()[1] for a in legal(state, 0) if a.startswith("play"))


def test_R7_1_the_follower_must_follow_suit() -> None:
    state = closed_lead("QC", must_head_trick=False)
    assert plays(state) == ["9C", "AC"]
    rejected(state, 0, "play KD", "must_follow_suit")
    rejected(state, 0, "play 9H", "must_follow_suit")


def test_R7_2_the_follower_must_head_the_trick_when_able() -> None:
    state = closed_lead("QC")
    assert plays(state) == ["AC"]
    rejected(state, 0, "play 9C", "must_head_trick")
    state = closed_lead("AD")
    assert plays(state) == ["KD", "QD"]


def test_R7_3_a_follower_void_in_the_suit_must_trump() -> None:
    state = closed_lead("AS")
    assert plays(state) == ["9H", "KH"]
    rejected(state, 0, "play KD", "must_trump")
    act(state, 0, "play 9H")


def test_R7_4_void_without_trumps_any_card_may_be_played() -> None:
    hand = "AC 9C KD QD JD 9D"
    assert plays(closed_lead("AS", follower=hand)) == sorted(hand.split())


def test_R7_5_a_trump_lead_must_be_followed_and_headed_in_trumps() -> None:
    state = closed_lead("QH")
    assert plays(state) == ["KH"]
    rejected(state, 0, "play 9H", "must_head_trick")
    rejected(state, 0, "play AC", "must_follow_suit")


def test_R7_6_the_seed_literal_rule_is_follow_suit_only() -> None:
    literal = {"must_head_trick": False, "must_trump_when_void": False}
    assert plays(closed_lead("QC", **literal)) == ["9C", "AC"]
    assert plays(closed_lead("AS", **literal)) == sorted(FOLLOWER.split())
    trump_only = closed_lead("AS", must_head_trick=False)
    assert plays(trump_only) == ["9H", "KH"]
