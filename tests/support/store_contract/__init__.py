"""The contract suites of the event store's ports, one per port, every adapter passes unchanged.

Each suite (a class: ``EventLogContract``, ``SeatsContract``, ...) holds one port's promises; a
test module runs every suite over one adapter by subclassing it with the ``store`` and ``tamper``
fixtures (``base``). ``SUITES``: every port's suite, as ``service.store.port.EventStore`` is
every port; ``over(adapter, name)``: every suite's test class over one adapter.
"""

from tests.support.store_contract.base import START, action, events, make_meta, rewrite_redis_entry
from tests.support.store_contract.clock_index import ClockIndexContract
from tests.support.store_contract.commitment_log import CommitmentLogContract
from tests.support.store_contract.creations import CreationsContract
from tests.support.store_contract.event_log import EventLogContract
from tests.support.store_contract.exports import ExportsContract
from tests.support.store_contract.health import HealthContract
from tests.support.store_contract.listing import ListingContract
from tests.support.store_contract.quotas import QuotasContract
from tests.support.store_contract.retention import RetentionContract
from tests.support.store_contract.seats import SeatsContract
from tests.support.store_contract.spectators import SpectatorsContract
from tests.support.store_contract.waits import WaitsContract

SUITES = (
    EventLogContract,
    SeatsContract,
    WaitsContract,
    CreationsContract,
    ListingContract,
    RetentionContract,
    QuotasContract,
    ClockIndexContract,
    CommitmentLogContract,
    ExportsContract,
    SpectatorsContract,
    HealthContract,
)



def over(adapter: type, name: str) -> dict[str, type]:
    """Every suite run over ``adapter``: one test class a port, ``Test<Port><name>`` (a test
    module takes them in with ``globals().update(over(...))``)."""
    classes = {}
    for suite in SUITES:
        title = f"Test{suite.__name__.removesuffix('Contract')}{name}"
        classes[title] = type(title, (adapter, suite), {"__module__": adapter.__module__})
    return classes


__all__ = [
    "START",
    "SUITES",
    "ClockIndexContract",
    "CommitmentLogContract",
    "CreationsContract",
    "EventLogContract",
    "ExportsContract",
    "HealthContract",
    "ListingContract",
    "QuotasContract",
    "RetentionContract",
    "SeatsContract",
    "SpectatorsContract",
    "WaitsContract",
    "action",
    "events",
    "make_meta",
    "over",
    "rewrite_redis_entry",
]
