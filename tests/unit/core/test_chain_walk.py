"""The hash chain is walked by one function: the store, the service's fold and the replay audit
name the same first broken event with the same words."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import pytest

from domain.chain import GENESIS, link_hash, link_hash_text, walk
from domain.events import canonical_json
from domain.registry import get_game
from replays.checks import Discrepancy
from replays.checks import check_chain as replay_check_chain
from replays.format import RecordedEvent
from service.folding import Loaded, fold_stored
from service.store.port import ChainBroken, StoredEvent
from service.store.records import check_chain as store_check_chain
from tests.support.store_contract import make_meta

Link = dict[str, Any]


def _chain(n: int) -> list[Link]:
    links, prev = [], GENESIS
    for version in range(1, n + 1):
        event = {"type": "fake.Played", "schema": 1, "n": version}
        digest = link_hash(prev, event)
        links.append({"version": version, "event": event, "prev_hash": prev, "hash": digest})
        prev = digest
    return links


def _gap(links: list[Link]) -> list[Link]:
    return [link for link in links if link["version"] != 3]


def _bad_prev(links: list[Link]) -> list[Link]:
    links[2] = {**links[2], "prev_hash": "f" * 64}
    return links


def _bad_hash(links: list[Link]) -> list[Link]:
    links[2] = {**links[2], "event": {**links[2]["event"], "n": 99}}
    return links


def _from_store(links: list[Link]) -> tuple[int | None, str]:
    entries = [
        (link["version"], {"event": canonical_json(link["event"]), "prev_hash": link["prev_hash"],
                           "hash": link["hash"]})
        for link in links
    ]
    report = store_check_chain(entries)
    assert not report.ok
    return report.broken_at, report.problem


def _from_fold(links: list[Link]) -> tuple[int | None, str]:
    stored = [
        StoredEvent(link["version"], link["event"], link["prev_hash"], link["hash"],
                    raw=canonical_json(link["event"]))
        for link in links
    ]
    loaded = Loaded(make_meta(), get_game("shithead"), None, 0, GENESIS)
    with pytest.raises(ChainBroken) as err:
        fold_stored(loaded, stored)
    version, problem = str(err.value).split(": event ", 1)[1].split(": ", 1)
    return int(version), problem


def _from_replay(links: list[Link]) -> tuple[int | None, str]:
    recorded = [
        RecordedEvent(version=link["version"], event=json.loads(canonical_json(link["event"])),
                      prev_hash=link["prev_hash"], hash=link["hash"])
        for link in links
    ]
    with pytest.raises(Discrepancy) as err:
        replay_check_chain(recorded)
    return err.value.version, err.value.reason


@pytest.mark.parametrize("forge", [_gap, _bad_prev, _bad_hash], ids=["gap", "prev", "hash"])
def test_every_reader_names_the_same_break_in_the_same_words(forge: Any) -> None:
    found = {reader.__name__: reader(forge(_chain(5))) for reader in
             (_from_store, _from_fold, _from_replay)}
    assert len(set(found.values())) == 1, found
    ((version, _),) = set(found.values())
    assert version == 3


@pytest.mark.parametrize("salt", ["", "s", "ab" * 16, "f" * 64, "k" * 65, "é" * 40, "x" * 200])
def test_a_salted_link_is_the_hmac_sha256_of_the_hash_before_and_the_event_text(salt: str) -> None:
    text = canonical_json({"type": "fake.Played", "schema": 1, "n": "é"})
    message = (GENESIS + text).encode()
    expected = (
        hmac.new(salt.encode(), message, hashlib.sha256).hexdigest() if salt
        else hashlib.sha256(message).hexdigest()
    )
    assert link_hash_text(GENESIS, text, salt) == expected
    assert walk([(1, GENESIS, expected, text)], salt=salt).ok
    assert not walk([(1, GENESIS, expected, text + " ")], salt=salt).ok
