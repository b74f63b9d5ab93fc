"""What an admin's supervisor and Prometheus can ask of a running bot: ``/healthz`` and ``/metrics``.

Served only with ``METRICS_PORT`` set, on 127.0.0.1 unless ``METRICS_HOST`` says otherwise. The
counters a click touches itself are always counted (a few microseconds per click). What wraps
every REST call and every store call (aiohttp's request trace, the store's timer) is put in place
only when the metrics are served: together they cost a click 4 to 7% of its CPU, for figures
nobody could read otherwise. What costs a query (games in the store, deadlines due, whether the
store answers) is read only when someone scrapes.
"""

from __future__ import annotations

import contextvars
import inspect
import logging
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    import discord

    from bot.store import Store

log = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)

INTERACTIONS = Counter("boneyard_interactions", "Interactions answered, by kind and outcome",
                       ["kind", "outcome"], registry=REGISTRY)
INTERACTION_SECONDS = Histogram(
    "boneyard_interaction_seconds", "Time from an interaction's arrival to the end of its handling",
    ["kind"], registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
REST_CALLS = Counter("boneyard_rest_calls", "Calls to Discord's REST API, by route and status",
                     ["method", "route", "status"], registry=REGISTRY)
DMS_REFUSED = Counter("boneyard_dms_refused", "Private views Discord would not deliver by DM", registry=REGISTRY)
DEADLINES_FIRED = Counter("boneyard_deadlines_fired", "Turn timers that ran out and were applied",
                          registry=REGISTRY)
DEADLINE_LATENESS = Histogram("boneyard_deadline_lateness_seconds", "How long after its time a turn timer fired",
                              registry=REGISTRY, buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0, 30.0, 60.0))
STORE_SECONDS = Histogram("boneyard_store_query_seconds", "Time of each call to the game store, by operation",
                          ["op"], registry=REGISTRY,
                          buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))

#: what the handling of the current interaction came to, when it is not "applied" or a refusal
_outcome: contextvars.ContextVar[str | None] = contextvars.ContextVar("outcome", default=None)


def note_outcome(outcome: str) -> None:
    """Mark the interaction being handled (a stale click answered with "that moment has passed")."""
    _outcome.set(outcome)


def interaction_kind(interaction: discord.Interaction) -> str:
    return {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}.get(int(interaction.type.value), "other")


class Handling:
    """Times one interaction's handling and counts its outcome."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.kind = interaction_kind(interaction)
        self.began = time.perf_counter()
        self.token = _outcome.set(None)

    def done(self, outcome: str) -> None:
        marked = _outcome.get()
        _outcome.reset(self.token)
        labelled(INTERACTIONS, self.kind, marked or outcome).inc()
        labelled(INTERACTION_SECONDS, self.kind).observe(time.perf_counter() - self.began)


#: each series a metric has been given, by its labels: prometheus_client checks and looks up
#: labels under a lock on every ``labels()`` call, a click's largest cost in this module
_series: dict[tuple[object, tuple[str, ...]], Any] = {}


def labelled(metric: Counter | Histogram, *values: str) -> Any:
    """``metric.labels(*values)``, looked up once per series (their label values are few)."""
    series = _series.get((metric, values))
    if series is None:
        series = _series[(metric, values)] = metric.labels(*values)
    return series


_SNOWFLAKE = re.compile(r"/\d{15,21}(?=/|$)")
_TOKEN = re.compile(r"/(interactions|webhooks)/(\{id\})/[^/]+")


def route_of(path: str) -> str:
    """A REST path with its ids and tokens taken out, so each route is one series."""
    path = _SNOWFLAKE.sub("/{id}", path.split("?", 1)[0])
    path = _TOKEN.sub(r"/\1/\2/{token}", path)
    return path.removeprefix("/api/v10")


def http_trace() -> aiohttp.TraceConfig:
    """Every request discord.py makes, a 429 it then waits out included, counted as it ends."""
    trace = aiohttp.TraceConfig()

    async def ended(session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        labelled(REST_CALLS, params.method, route_of(params.url.path), str(params.response.status)).inc()

    trace.on_request_end.append(ended)
    return trace


class LiveFigures(Collector):
    """What is read when Prometheus scrapes: the shards' connections and the store's counts."""

    def __init__(self, client: discord.AutoShardedClient, store: Store) -> None:
        self.client, self.store = client, store
        self.games: dict[str, int] = {}
        self.due = 0

    async def refresh(self) -> None:
        self.games = await self.store.game_counts()
        self.due = await self.store.deadlines_due(time.time())

    def collect(self) -> Iterator[GaugeMetricFamily]:
        connected = GaugeMetricFamily("boneyard_gateway_connected", "1 while a shard's gateway connection is up",
                                      labels=["shard"])
        latency = GaugeMetricFamily("boneyard_gateway_latency_seconds", "Heartbeat round trip of each shard",
                                    labels=["shard"])
        for shard_id, shard in sorted(self.client.shards.items()):
            up = not shard.is_closed() and not shard.is_ws_ratelimited() and self.client.is_ready()
            connected.add_metric([str(shard_id)], 1.0 if up else 0.0)
            if shard.latency == shard.latency:  # NaN before the first heartbeat
                latency.add_metric([str(shard_id)], shard.latency)
        yield connected
        yield latency
        games = GaugeMetricFamily("boneyard_games", "Games in the store, by status", labels=["status"])
        for status in ("lobby", "active", "finished", "cancelled"):
            games.add_metric([status], self.games.get(status, 0))
        yield games
        yield GaugeMetricFamily("boneyard_deadlines_due", "Turn timers whose time has come that no process is firing yet",
                                value=self.due)


class TimedStore:
    """The store, each of its calls timed by name: what the store costs a click, seen from the
    bot (queue, thread hop and query together)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not inspect.iscoroutinefunction(found):
            return found
        timer = STORE_SECONDS.labels(name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await found(*args, **kwargs)
            finally:
                timer.observe(time.perf_counter() - began)

        setattr(self, name, timed)  # found once per name
        return timed


async def problems(client: discord.AutoShardedClient, store: Store) -> list[str]:
    """Why this process is not healthy; empty when it is."""
    found = []
    if not client.is_ready():
        found.append("not connected to Discord yet")
    for shard_id, shard in sorted(client.shards.items()):
        if shard.is_closed():
            found.append(f"shard {shard_id} is disconnected")
    try:
        await store.ping()
    except Exception as exc:
        found.append(f"the store does not answer ({type(exc).__name__})")
    return found


async def serve(client: discord.AutoShardedClient, store: Store, host: str, port: int) -> web.AppRunner:
    """Start the two endpoints; the caller cleans the runner up at shutdown."""
    figures = LiveFigures(client, store)
    REGISTRY.register(figures)

    async def healthz(request: web.Request) -> web.Response:
        found = await problems(client, store)
        if found:
            return web.Response(status=503, text="unhealthy: " + "; ".join(found) + "\n")
        return web.Response(text="ok\n")

    async def metrics(request: web.Request) -> web.Response:
        try:
            await figures.refresh()
        except Exception:
            log.warning("metrics: the store's counts could not be read", exc_info=True)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("health and metrics on http://%s:%d/healthz and /metrics", host, port)
    return runner
