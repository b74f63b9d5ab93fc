"""What a click builds is freed the moment it is dropped, by reference counting alone.

Objects in reference cycles wait for Python's garbage collector, which then walks and frees them
all at once: tens of thousands of objects in one pause of 10 to 20 ms, in the middle of
whichever clicks are in flight (the normal-load p99 of bench/knucklebones_latency.py). So the
host leaves no cycles behind a click: not in its messages (discord.ui items point at their
parents), not in the interaction (discord.py's interaction and its response point at each
other), not in a picture's upload. Each test counts what the collector would find.
"""

from __future__ import annotations

import gc
import io
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
import pytest

from bot import present, step
from bot.models import Book, Seat, Table
from bot.pictures import Picture, PictureCache
from bot.present import Channel, Origin
from bot.replies import let_go
from bot.step import Moment
from tests.fixtures.tables import game_specs

SPECS = {spec.engine.key: spec for spec in game_specs()}


@pytest.fixture(autouse=True)
def _settled() -> Iterator[None]:
    """Everything alive so far set aside, as the bot does once connected: each collection below
    then walks only what the test makes."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@contextmanager
def collector_off() -> Iterator[list[int]]:
    """The collector paused; yields a list that receives what it then finds unreachable."""
    found: list[int] = []
    gc.collect()
    gc.disable()
    try:
        yield found
        found.append(gc.collect())
    finally:
        gc.enable()


def _views(plan: present.Plan) -> list[discord.ui.LayoutView]:
    shown = [plan.answer.shown] if isinstance(plan.answer, present.Update) and plan.answer.shown else []
    shown += [op.shown for op in plan.channel if isinstance(op, (present.Post, present.Edit))]
    for dm in plan.dms:
        shown += [dm.shown] + ([dm.superseded] if dm.superseded is not None else [])
    shown += [s for _, s in plan.retire if s is not None]
    return [s.layout for s in shown]


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_message_of_a_whole_game_goes_without_the_collector(key: str) -> None:
    """Every plan of a whole game, each message built and serialized as it is sent, then dropped."""
    spec = SPECS[key]
    engine = spec.engine
    seats = max(2, engine.min_seats)
    table = Table(id=1, guild_id=1, channel_id=5, game=key, host_id=1, seed=7, status="lobby",
                  options=engine.Options().model_dump(),
                  seats=[Seat(user_id=n + 1, name=f"P{n + 1}") for n in range(seats)])
    rng = random.Random(5)
    result = step.start(Moment(spec, table), 0.0)
    book = Book(message_id=77, shown=1)
    built = 0
    while True:
        moment = result.after
        clicker = moment.humans[0] if moment.humans else None
        with collector_off() as found:
            plan = present.present(result, Channel(book), Origin(message_id=77, seat=clicker))
            for view in _views(plan):
                assert view.to_components()
                built += 1
            del plan, view
        assert found == [0], f"{key}: {found[0]} objects left for the collector"
        if result.table.status != "active":
            break
        seat = rng.choice(moment.humans)
        result = step.play(moment, seat, rng.choice(moment.legal(seat)), 0.0)
        book = Book(message_id=77, shown=result.table.version, chapter=moment.chapter)
    assert built > 10


def test_a_discord_ui_view_would_wait_for_the_collector() -> None:
    """The check above can fail: discord.ui's own links are cycles (an item and its view point
    at each other), which is one reason tables are built as plain components (bot/layout.py)."""
    with collector_off() as found:
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay("hello"))
        del view
    assert found[0] > 0


def _interaction(client: discord.Client) -> discord.Interaction:
    data: Any = {
        "id": "1234567890123456789", "application_id": "111111111111111111", "type": 3, "token": "t",
        "version": 1, "channel_id": "222222222222222222", "locale": "en-US", "app_permissions": "0",
        "user": {"id": "444444444444444444", "username": "ann", "discriminator": "0", "avatar": None},
        "data": {"custom_id": "bn:act:1:s0:a.b:0", "component_type": 2},
        "entitlements": [], "authorizing_integration_owners": {}, "attachment_size_limit": 8388608,
    }
    return discord.Interaction(data=data, state=client._connection)


@pytest.mark.parametrize("handled", [True, False])
async def test_a_handled_interaction_goes_without_the_collector(handled: bool) -> None:
    """let_go(), as the client calls it once a click is handled; without it, discord.py's
    interaction and its response keep each other (and the click's message and member) alive."""
    client = discord.Client(intents=discord.Intents.none())
    with collector_off() as found:
        interaction = _interaction(client)
        interaction.response._response_type = discord.InteractionResponseType.message_update  # answered
        if handled:
            let_go(interaction)
            assert interaction.response.is_done()  # what it answered, it still knows
        del interaction
    assert (found == [0]) is handled, found
    await client.close()


@pytest.mark.parametrize("ours", [True, False])
async def test_a_sent_picture_goes_without_the_collector(ours: bool) -> None:
    """A picture's upload as discord.py handles it: reset before the request, closed after."""
    cache = PictureCache()
    picture = Picture(("test", 1), lambda: b"not really a PNG", "p.png", "a die")
    await cache.render(picture)  # drawn once, in a thread; what follows is each send's own work
    with collector_off() as found:
        file = await cache.file(picture) if ours else discord.File(io.BytesIO(b"x"), "p.png")
        file.reset()
        file.close()
        del file
    assert (found == [0]) is ours, found
