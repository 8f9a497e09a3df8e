"""Marshmallow schemas of the HTTP API: requests in, responses out (and the OpenAPI spec)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.api.typed.union import Union
from service.request_checks import BOT_NAME, MAX_NAME_LENGTH, MAX_SEED_LENGTH
from service.store.port import STATUSES

MAX_SEATS = 16
EVENTS_PAGE = 200  # GET /games/{id}/events: default page size
MAX_EVENTS_PAGE = 1000



# Fields several responses carry, each described once
def head_hash_field(note: str = "") -> fields.String:
    return fields.String(
        metadata={"description": f"receipt: the hash of the last event (salted chain{note})"}
    )


def receipt_signature_field() -> fields.String:
    return fields.String(
        metadata={"description": "the server's Ed25519 signature over (game, version, head_hash) "
                  "(docs/fairness.md, 'Signed receipts'); absent when the server has no key"}
    )  # fmt: skip


def spectators_field() -> fields.Integer:
    return fields.Integer(metadata={
        "description": "how many watch the game now: open spectator streams of every web "
                       "process (docs/service.md, 'Spectators')"})  # fmt: skip


def bots_missing_field() -> fields.List[Any]:
    return fields.List(
        fields.Nested(MissingBotSchema),
        metadata={"description": "bot seats whose bot has no live worker (the game waits)"},
    )


def forked_field() -> fields.Nested:
    return fields.Nested(ForkedSchema, metadata={
        "description": "a fork's origin (docs/analysis.md); absent for other games"})  # fmt: skip

class SeatSpecSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(["open", "bot"]))
    bot = fields.String(validate=validate.Regexp(BOT_NAME), metadata={"example": "random"})
    name = fields.String(validate=validate.Length(1, MAX_NAME_LENGTH))

    @ma.validates_schema
    def bot_seats_name_their_bot(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("type") == "bot" and not data.get("bot"):
            raise ma.ValidationError("a bot seat names its bot", "bot")
        if data.get("type") == "open" and ("bot" in data or "name" in data):
            raise ma.ValidationError("an open seat has no bot or name", "type")


class CreateGameSchema(ma.Schema):
    game = fields.String(required=True, metadata={"example": "shithead"})
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "the game's options (see the Options schemas, /catalogue)"},
    )
    seats = fields.List(
        fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(1, MAX_SEATS)
    )
    seed = fields.String(validate=validate.Length(1, MAX_SEED_LENGTH), allow_none=True)
    dealer = fields.Integer(strict=True, allow_none=True)
    deal = fields.Dict(keys=fields.String(), allow_none=True)
    wait_for_bots = fields.Boolean(
        load_default=False,
        metadata={"description": "seat user bots no live worker or connected client serves "
                  "now (the game waits for them); else such a bot is a 422 bot_unavailable"},
    )  # fmt: skip


class JoinSeatSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(1, MAX_NAME_LENGTH))
    entropy = fields.String(
        validate=validate.Regexp(r"^[0-9a-f]{64}$"),
        allow_none=True,
        metadata={"description": "your 32 bytes (64 lowercase hex) for the deal's seed; "
                  "drawn by the server when omitted (docs/fairness.md)"},
    )  # fmt: skip


class SeatEntropySchema(ma.Schema):
    entropy = fields.String(
        required=True,
        validate=validate.Regexp(r"^[0-9a-f]{64}$"),
        metadata={"description": "the bot's own 32 bytes (64 lowercase hex) for the deal's "
                  "seed, drawn at random (docs/fairness.md)"},
    )  # fmt: skip


class EntropyRecordedSchema(ma.Schema):
    id = fields.String()
    seat = fields.Integer()
    entropy = fields.String(metadata={"description": "the seat's entropy, as recorded"})
    source = fields.String(metadata={"description": "always client: the bot's own"})
    version = fields.Integer()
    dealt = fields.Boolean(metadata={"description": "true once every seat's entropy is in "
                                     "and the game is dealt"})  # fmt: skip
    head_hash = head_hash_field()
    receipt_signature = fields.String(
        metadata={"description": "the server's signature of the receipt (docs/fairness.md)"}
    )


class ActionSchema(ma.Schema):
    """An action's own fields (``type`` plus what the game's rules name) and the version."""

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(required=True, metadata={"example": "play"})
    expected_version = fields.Integer(
        strict=True,
        validate=validate.Range(min=0),
        metadata={"description": "the version the action applies to (or send If-Match)"},
    )
    seat = fields.Integer(
        strict=True, metadata={"description": "optional; must be the token's seat"}
    )


class IdempotencyHeadersSchema(ma.Schema):
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Regexp(r"^[\x21-\x7e]{1,200}$"),
        metadata={"description": "retrying with the same key returns the first response"},
    )


class ActionHeadersSchema(IdempotencyHeadersSchema):
    if_match = fields.String(
        data_key="If-Match", metadata={"description": 'the expected version, e.g. "7"'}
    )


class EventsQuerySchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**62))


class EventsPageQuerySchema(EventsQuerySchema):
    limit = fields.Integer(
        load_default=EVENTS_PAGE,
        validate=validate.Range(1, MAX_EVENTS_PAGE),
        metadata={"description": f"events per page (default {EVENTS_PAGE})"},
    )


class ListQuerySchema(ma.Schema):
    game = fields.String(validate=validate.Length(1, 64))
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 100_000))


# -- responses ---------------------------------------------------------------------------
class SeatSchema(ma.Schema):
    seat = fields.Integer()
    type = fields.String(metadata={"description": "open, human or bot"})
    name = fields.String()
    bot = fields.String()


class ForkedSchema(ma.Schema):
    source = fields.String(metadata={"description": "the game forked"})
    version = fields.Integer(metadata={"description": "the source's version it starts from"})
    as_ = fields.Raw(data_key="as", attribute="as", metadata={
        "description": "the point of view: a seat, or null (every card open)"})
    sealed = fields.Boolean(metadata={
        "description": "true for a seat's fork of a game then still played (absent otherwise): "
                       "that seat's alone until the game ends"})


class CreatedSchema(ma.Schema):
    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    commitment = fields.String(metadata={"description": "commitment to the server's secret"})
    prearranged = fields.Boolean(metadata={"description": "a chosen seed or explicit deal"})
    forked = forked_field()
    head_hash = head_hash_field()
    to_act = fields.List(fields.Integer())


class JoinedSchema(ma.Schema):
    id = fields.String()
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(metadata={"description": "the seat's secret; shown once only"})
    seats = fields.List(fields.Nested(SeatSchema))
    version = fields.Integer()
    prearranged = fields.Boolean()
    head_hash = head_hash_field()


class MissingBotSchema(ma.Schema):
    seat = fields.Integer()
    bot = fields.String()
    last_seen = fields.Float(
        allow_none=True, metadata={"description": "the last heartbeat of its worker, if any"}
    )


class ReviewQuerySchema(ma.Schema):
    seat = fields.Integer(required=True, metadata={"description": "the seat reviewed"})


class ReviewSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    game = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    unit = fields.String(metadata={"description": "what the values are"})
    worlds = fields.Integer(metadata={"description": "sampled worlds per decision"})
    seed = fields.String()
    threshold = fields.Float(metadata={"description": "a cost above it is marked costly"})
    decisions = fields.List(fields.Dict(), metadata={
        "description": "version, played, alternatives [{action, value}], best, cost, costly"})
    costliest = fields.Integer(allow_none=True, metadata={
        "description": "the version of the costliest decision (null: none cost anything)"})
    id = fields.String(metadata={"description": "(202) the game"})
    status = fields.String(metadata={"description": "(202) running, or no worker to make it"})


class ReviewPendingSchema(ma.Schema):
    id = fields.String()
    seat = fields.Integer()
    status = fields.String(metadata={"description": "running, or no worker to make it"})


class ForkRequestSchema(ma.Schema):
    at = fields.Integer(required=True, strict=True, metadata={
        "description": "the source's version to start from: where one of its actions ends"})
    as_ = fields.Raw(required=True, data_key="as", metadata={
        "description": 'a seat (its unseen cards dealt afresh) or "open" (the exact position)'})
    seats = fields.List(
        fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(1, MAX_SEATS)
    )


class SummarySchema(ma.Schema):
    id = fields.String()
    game = fields.String()
    title = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    status = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    to_act = fields.List(fields.Integer())
    version = fields.Integer()
    commitment = fields.String(metadata={"description": "commitment to the server's secret"})
    prearranged = fields.Boolean(metadata={"description": "a chosen seed or explicit deal"})
    forked = forked_field()
    head_hash = head_hash_field("; format 1 games: only once over")
    receipt_signature = receipt_signature_field()
    created = fields.Float()
    outcome = Union({}, None, component="GameOutcome", allow_none=True)
    seed = fields.String(metadata={"description": "revealed once the game is over"})
    bots_missing = bots_missing_field()
    spectators = spectators_field()
    awaiting_entropy = fields.List(fields.Integer(), metadata={
        "description": "bot seats whose bot has not sent its own entropy: the deal waits for "
                       "them (POST /games/{id}/seats/{seat}/entropy; docs/bots.md)"})  # fmt: skip
    secret = fields.String(metadata={"description": "the server's secret, revealed at the end"})
    rematch = fields.String(allow_none=True, metadata={
        "description": "once over: the id of its rematch once a seat proposed one (POST "
                       "/games/{id}/rematch), else null"})
    clock = fields.Dict(
        metadata={"description": "a clocked game's clock: settings, each seat's deadline and "
                  "bank (Unix ms) and remaining_ms now (docs/service.md, Clocks)"}
    )  # fmt: skip


class ListedSchema(ma.Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    players = fields.Integer()
    seats = fields.List(fields.Nested(SeatSchema))
    prearranged = fields.Boolean()
    forked = forked_field()
    created = fields.Float()


class GameListSchema(ma.Schema):
    games = fields.List(fields.Nested(ListedSchema))


class ViewSchema(ma.Schema):
    id = fields.String()
    version = fields.Integer()
    seat = fields.Integer(allow_none=True)
    spectators = spectators_field()
    view = Union({}, "game", component="GameView",
                 metadata={"description": "the game's view, with legal_actions"})
    bots_missing = bots_missing_field()
    head_hash = head_hash_field()
    receipt_signature = receipt_signature_field()


class EventItemSchema(ma.Schema):
    version = fields.Integer()
    event = Union({}, "type", component="GameEvent")
    text = fields.String(
        allow_none=True,
        metadata={"description": "the event in game words as you may see it (null: nothing "
                  "worth saying), seats by name"},
    )
    prev_hash = fields.String()
    hash = fields.String()
    command = fields.Dict()
    batch = fields.Integer()


class ActionResultSchema(ma.Schema):
    version = fields.Integer()
    head_hash = head_hash_field()
    receipt_signature = receipt_signature_field()
    events = fields.List(fields.Nested(EventItemSchema))
    view = Union({}, "game", component="GameView")


class EventsSchema(ma.Schema):
    id = fields.String()
    version = fields.Integer()
    over = fields.Boolean()
    events = fields.List(fields.Nested(EventItemSchema))
    head_hash = head_hash_field()
    next_after = fields.Integer(
        allow_none=True,
        metadata={"description": "pass as `after` for the next page; null on the last page"},
    )


class OptionSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    name = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()
    nullable = fields.Boolean()
    doc = fields.String()


class CatalogueEntrySchema(ma.Schema):
    name = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    options = fields.List(fields.Nested(OptionSchema))
    bots = fields.List(
        fields.String(),
        metadata={"description": "the bot names a seat of this game may name (the service's "
                  "own and its operator's; a bot account's name too, not listed)"},
    )


class CatalogueSchema(ma.Schema):
    games = fields.List(fields.Nested(CatalogueEntrySchema))


class ProblemSchema(ma.Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "stable machine code"})
    reason = fields.String()
    current_version = fields.Integer()
    field = fields.String(metadata={"description": "the request field at fault (invalid_field)"})
    errors = fields.Raw()
