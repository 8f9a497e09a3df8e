"""Every reason code a domain error may carry, once, with its meaning (docs/reasons.md).

An error's ``reason`` narrows its ``code`` for clients that react precisely; without one the
reason is the code itself. A reason not listed here is refused when the error is made.
"""

from __future__ import annotations

# The error classes' own codes, used as the reason when none is given.
CODES: dict[str, str] = {
    "domain_error": "a rule or input error",
    "illegal_action": "the action breaks a rule of the game",
    "not_your_turn": "the seat may not act now",
    "game_over": "the game has ended; nothing more can be done",
    "invalid_action": "the action is malformed: unknown type, missing or ill-typed fields",
    "invalid_card": "a card code that does not exist",
    "invalid_options": "an unknown option, a bad value or a forbidden combination",
    "invalid_setup": "a bad player count, dealer or seed",
    "invalid_deal": "an explicit deal with unknown or duplicate cards or wrong zone sizes",
    "unknown_game": "no game of that name",
    "seat_taken": "the seat is already filled (the lifecycle's join)",
    "entropy_not_awaited": "the seat does not await its bot's own entropy (not a bot account's "
    "seat, or filled already)",
    "entropy_posted": "the seat's bot sent its entropy already: another value is refused",
}

# Narrower reasons, by the games that raise them.
NARROW: dict[str, str] = {
    # any game
    "unknown_action": "the action's type is not one this game knows",
    "card_not_in_hand": "the named card is not in the seat's hand",
    "must_follow_suit": "the card does not follow the led suit though the seat can",
    "wrong_phase": "the action does not belong to the current phase",
    "not_started": "the game is waiting for its seats to fill: nothing is dealt yet",
    "deal_over": "the deal or match is over",
    "match_over": "the match is over",
    "abort_not_a_person": "only a seat a person holds may abort (not a bot's, not an open one)",
    "abort_already_agreed": "the seat has already agreed to abort; the others must agree",
    "abort_not_agreed": "the seat has no pending agreement to abort to withdraw",
    "leave_not_a_person": "only a seat a person holds may be left (not a bot's, not an open one)",
    "seat_open": "a person left a seat open: the game waits until someone takes it",
    "no_clock": "no clock runs for that seat (a timeout needs one)",
    "time_left": "the seat's time has not run out (a timeout too early)",
    "no_move": "the seat has no legal action to make for it (a default move needs one)",
    "fallback_not_a_bot": "only a seat a bot holds may ask for the fallback (the default move)",
    "unknown_fallback_reason": "a fallback's reason is raised, timeout or illegal",
    # Shithead
    "already_ready": "the seat has already declared itself ready",
    "bad_field": "an action field has the wrong type or value",
    "bad_seat": "no such seat",
    "bad_slot": "no such face-up or face-down slot",
    "bad_slots": "the chosen face-up slots do not fit the layout",
    "duplicate_card": "a card is named twice",
    "empty_pile": "there is no pile to pick up or pass on",
    "empty_slot": "the slot holds no card",
    "empty_stock": "the stock is empty",
    "mixed_ranks": "a set mixes ranks",
    "no_cards": "the action names no cards",
    "no_face_up": "the seat has no face-up card to take",
    "not_face_up": "the card is not among the seat's face-up cards",
    "not_in_hand": "the card is not in the seat's hand",
    "not_now": "the action is not possible at this moment",
    "option_off": "the action needs an option this game does not use",
    "partial_stack": "a stack of face-up cards must be played whole",
    "rank_mismatch": "the cards do not share the required rank",
    "seat_out": "the seat is already out",
    "stacked_slot": "the slot already holds a stack",
    "too_high": "the set is higher than the low card on the pile allows",
    "too_low": "the set does not beat the pile's effective top card",
    "unexpected_face_up_card": "a face_up_card was given where none is taken",
    "wrong_count": "the set's size does not match the lead's (match_count)",
    "wrong_tier": "the action belongs to another tier (hand, face up, face down)",
    # Sixty-Six
    "close_first_lead_forbidden": "the stock may not be closed on the first lead",
    "close_not_on_lead": "only the seat on lead may close the stock",
    "close_stock_not_open": "the stock is closed or exhausted",
    "draw_not_expected": "no draw is due now",
    "exchange_no_trick_won": "the trump exchange needs a trick won first",
    "exchange_no_trump_nine": "the seat does not hold the trump nine (or jack)",
    "exchange_not_between_tricks": "the trump exchange is only between tricks",
    "exchange_trump_card_gone": "the face-up trump card is no longer there",
    "marriage_card_not_king_or_queen": "a marriage is shown with a king or a queen",
    "marriage_not_in_strict_phase": "no marriage once the stock is closed or exhausted",
    "marriage_not_on_lead": "only the seat on lead may announce a marriage",
    "marriage_partner_missing": "the other card of the marriage is not in the hand",
    "must_draw_or_close": "the trick winner must draw or close before leading",
    "must_head_trick": "the card does not head the trick though the seat can",
    "must_trump": "void in the led suit, the seat must trump",
    "pass_not_expected": "no pass is due now",
    # Sheepshead
    "alone_not_allowed": "the picker must call; going alone is not allowed",
    "called_suit_rule": "the card breaks the called-suit rule",
    "crack_not_allowed": "cracking is not allowed now",
    "dealer_must_pick": "the dealer must pick when everybody else passed",
    "invalid_blitz": "a blitz needs both black or both red queens",
    "invalid_bury": "those cards may not be buried",
    "invalid_call": "that call is not allowed",
}

REASONS: dict[str, str] = {**CODES, **NARROW}
