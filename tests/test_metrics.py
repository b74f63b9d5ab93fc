"""The pieces of /healthz and /metrics that need no bot process: why a process is unhealthy,
REST routes as one series each, and the store's calls timed by name."""

from __future__ import annotations

from typing import Any

from bot import metrics


class _Shard:
    def __init__(self, closed: bool) -> None:
        self.closed, self.latency = closed, 0.05

    def is_closed(self) -> bool:
        return self.closed

    def is_ws_ratelimited(self) -> bool:
        return False


class _Client:
    def __init__(self, ready: bool, closed: list[bool]) -> None:
        self.ready, self.shards = ready, {i: _Shard(c) for i, c in enumerate(closed)}

    def is_ready(self) -> bool:
        return self.ready


class _Store:
    def __init__(self, answers: bool) -> None:
        self.answers = answers
        self.saved = 0

    async def ping(self) -> None:
        if not self.answers:
            raise ConnectionError("gone")

    async def save(self, *args: Any) -> None:
        self.saved += 1


async def test_a_healthy_process_has_no_problems() -> None:
    assert await metrics.problems(_Client(True, [False, False]), _Store(True)) == []  # type: ignore[arg-type]


async def test_each_reason_to_be_unhealthy_is_named() -> None:
    found = await metrics.problems(_Client(False, [False, True]), _Store(False))  # type: ignore[arg-type]
    assert found == ["not connected to Discord yet", "shard 1 is disconnected",
                     "the store does not answer (ConnectionError)"]


def test_rest_routes_lose_their_ids_and_tokens() -> None:
    assert metrics.route_of("/api/v10/channels/1574798879554011141/messages/1574798879554011142") \
        == "/channels/{id}/messages/{id}"
    assert metrics.route_of("/api/v10/interactions/1574798890220126208/aW50ZXJhY3Rpb246abc/callback") \
        == "/interactions/{id}/{token}/callback"
    assert metrics.route_of("/api/v10/webhooks/1574798879554011137/aW50ZXJh-x_y/messages/@original?wait=1") \
        == "/webhooks/{id}/{token}/messages/@original"


async def test_store_calls_are_timed_by_name() -> None:
    store = _Store(True)
    timed = metrics.TimedStore(store)  # type: ignore[arg-type]
    before = metrics.STORE_SECONDS.labels("save")._sum.get()
    count = _count("save")
    await timed.save(1, 2)
    await timed.save(3, 4)
    assert store.saved == 2 and _count("save") == count + 2
    assert metrics.STORE_SECONDS.labels("save")._sum.get() >= before


def _count(op: str) -> float:
    for family in metrics.REGISTRY.collect():
        for sample in family.samples:
            if sample.name == "boneyard_store_query_seconds_count" and sample.labels.get("op") == op:
                return sample.value
    return 0.0


async def test_requests_are_traced_only_where_the_metrics_are_served() -> None:
    """aiohttp's trace of every request costs a click a few percent of its CPU: a bot whose
    metrics nobody can read does not pay it."""
    from bot.client import Boneyard
    from bot.config import Settings
    from tests.fakediscord import FAKE_TOKEN

    served = Boneyard(Settings(discord_token=FAKE_TOKEN, metrics_port=9108))  # type: ignore[call-arg]
    unserved = Boneyard(Settings(discord_token=FAKE_TOKEN, metrics_port=None))  # type: ignore[call-arg]
    assert served.http.http_trace is not None and unserved.http.http_trace is None
    await served.http.close()
    await unserved.http.close()
