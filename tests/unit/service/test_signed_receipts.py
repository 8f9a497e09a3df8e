"""Signed receipts (docs/fairness.md): the server signs every receipt it gives (game, version,
head hash) with its long-lived Ed25519 key, publishes the public key, and ``cardroom replay
verify --receipts R --public-key K`` checks each signature, so a seat can show anyone what the
server acknowledged. Issue 30: receipts were bare hashes, the server's word."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask.testing import FlaskClient

from service.cli import main
from service.receipts import log_head_message, signature_holds
from service.store.commitment_log import link as commitment_link
from tests.support.api import Table, make_app


def _signed_app(tmp_path: Path) -> FlaskClient:
    return make_app(CARDROOM_SIGNING_KEY=str(tmp_path / "keys" / "signing-key.pem")).test_client()


def _played(client: FlaskClient) -> tuple[Table, list[dict[str, Any]]]:
    """A Sixty-Six game of two people played to its end; every receipt a seat was given."""
    table = Table(client, game="sixty_six", players=2, seed=None)
    kept: list[dict[str, Any]] = []
    while True:
        views = [table.view(seat) for seat in (0, 1)]
        kept += [{k: v[k] for k in ("version", "head_hash", "receipt_signature")} for v in views]
        movers = [s for s in (0, 1) if views[s]["view"]["legal_actions"]]
        if views[0]["view"]["outcome"] is not None or not movers:
            return table, kept
        seat = movers[0]
        answer = table.act(seat, views[seat]["view"]["legal_actions"][0], views[seat]["version"])
        assert answer.status_code == 200, answer.json
        kept.append({k: answer.json[k] for k in ("version", "head_hash", "receipt_signature")})


def test_the_key_is_made_on_first_use_kept_private_and_published(tmp_path: Path) -> None:
    client = _signed_app(tmp_path)
    key_file = tmp_path / "keys" / "signing-key.pem"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    published = client.get("/fairness/key").json
    assert published["algorithm"] == "Ed25519" and len(published["public_key"]) == 64
    again = _signed_app(tmp_path).get("/fairness/key").json  # a restart reads the same key
    assert again["public_key"] == published["public_key"]


def test_every_receipt_a_seat_is_given_is_signed_by_the_published_key(tmp_path: Path) -> None:
    client = _signed_app(tmp_path)
    key = client.get("/fairness/key").json["public_key"]
    table, kept = _played(client)
    summary = table.summary()
    assert signature_holds(key, table.id, summary["version"], summary["head_hash"],
                           summary["receipt_signature"])  # fmt: skip
    for receipt in kept:
        assert signature_holds(key, table.id, receipt["version"], receipt["head_hash"],
                               receipt["receipt_signature"]), receipt  # fmt: skip
    first = kept[0]
    assert not signature_holds(key, table.id, first["version"] + 1, first["head_hash"],
                               first["receipt_signature"])  # fmt: skip
    assert not signature_holds(key, "another-game", first["version"], first["head_hash"],
                               first["receipt_signature"])  # fmt: skip


def test_replay_verify_checks_the_signatures_of_the_receipts_kept(tmp_path: Path) -> None:
    client = _signed_app(tmp_path)
    key = client.get("/fairness/key").json["public_key"]
    table, kept = _played(client)
    replay = tmp_path / "game.replay.json"
    replay.write_bytes(client.get(f"/games/{table.id}/replay").get_data())
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps(kept))
    verify = ["replay", "verify", str(replay), "--receipts", str(receipts)]
    assert main([*verify, "--public-key", key]) == 0
    other = _signed_app(tmp_path / "elsewhere").get("/fairness/key").json["public_key"]
    assert main([*verify, "--public-key", other]) == 1  # not that server's key
    forged = [dict(kept[0], receipt_signature="00" * 64), *kept[1:]]
    receipts.write_text(json.dumps(forged))
    assert main([*verify, "--public-key", key]) == 1
    receipts.write_text(json.dumps([[r["version"], r["head_hash"]] for r in kept]))
    assert main([*verify, "--public-key", key]) == 1  # bare hashes: the server's word only
    assert main(verify) == 0


def test_a_server_without_a_key_gives_unsigned_receipts(client: FlaskClient) -> None:
    assert client.get("/fairness/key").json["public_key"] is None
    table = Table(client, game="sixty_six", players=2, seed=None)
    view = table.view(0)
    assert "head_hash" in view and "receipt_signature" not in view


def test_the_commitment_log_holds_every_game_once_chained_with_a_signed_head(
    tmp_path: Path,
) -> None:
    """Issue 30: a public, append-only, hash-chained log of every game's commitment, so the
    server cannot show different commitments to different people."""
    client = _signed_app(tmp_path)
    key = client.get("/fairness/key").json["public_key"]
    tables = [Table(client, game="sixty_six", players=2, seed=None) for _ in range(3)]
    log = client.get("/fairness/log?after=0&limit=1000").json
    entries = log["entries"]
    assert [e["index"] for e in entries] == list(range(1, len(entries) + 1))
    assert [(e["game"], e["commitment"]) for e in entries] == [
        (t.id, t.summary()["commitment"]) for t in tables]
    prev = "0" * 64
    for entry in entries:
        assert entry["prev"] == prev and entry["hash"] == commitment_link(
            prev, entry["game"], entry["commitment"])
        prev = entry["hash"]
    head = log["head"]
    assert (head["index"], head["hash"]) == (entries[-1]["index"], prev)
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key))
    public.verify(bytes.fromhex(head["signature"]), log_head_message(head["index"], head["hash"]))
    assert client.get("/fairness/log?after=3").json == {"entries": [], "head": None}
    assert client.get(f"/fairness/log/{tables[1].id}").json == entries[1]
    assert client.get("/fairness/log/no-such-game").status_code == 404
    assert client.get("/fairness/log?limit=0").status_code == 422
