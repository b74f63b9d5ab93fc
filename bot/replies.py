"""Answering an interaction the same way whether or not it was deferred first.

A click that has to wait for its game's lock (another click, a timer, DMs being sent) is
deferred before it waits, so Discord's three seconds never run out in the queue. What answers it
afterwards must then use the follow-up routes; these helpers choose the route, so the code that
handles a click never needs to know whether it waited.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import aiohttp
import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot import wire

T = TypeVar("T")

#: Discord's answer to an interaction answered after its three seconds: it told the user the
#: interaction failed, and no answer can follow (the interaction reached the bot late: a process
#: just back, an event replayed on a resumed connection, a stalled loop)
UNKNOWN_INTERACTION = 10062

#: seconds a step may wait on the store before its interaction is deferred (Discord allows
#: three for the first answer; the game's lock may have taken one already)
STORE_PATIENCE = 1.0
#: seconds a click's first answer is tried for. Past Discord's three it can only fail, and
#: discord.py's retries of a 5xx (1, 3, 5, 7 s apart) would hold the game's lock, and every
#: click behind it, for half a minute of an outage; given up, the step is shown through the
#: channel instead (bot/deliver.py)
ANSWER_PATIENCE = 3.0


#: seconds between looks at the waits whose patience may have run out: what is due happens at
#: most this late
WATCH_TICK = 0.25


class _Watch:
    """What must happen once a click's wait runs past its patience (a defer, giving the answer
    up), looked at every WATCH_TICK by one timer of the event loop's. Every click waits twice,
    on its save and on its answer, and is done long before either patience runs out: a timer
    each, armed and cancelled on every click, filled the loop's heap with cancelled timers that
    every other timer then sorted past. Here a wait costs an entry in a dict, one dict for each
    patience: its waits fall due in the order they were armed, so a tick reads only those due
    (a saturated bot has hundreds armed at once)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        #: the thread running ``loop``, which a watch is looked up from (asyncio's own lookup of
        #: the running loop asks the system for the process id, three times a click)
        self.thread = threading.get_ident()
        self._due: dict[float, dict[int, tuple[float, Callable[[], object]]]] = {}
        self._keys = itertools.count()
        self._ticking = False

    def arm(self, patience: float, then: Callable[[], object]) -> tuple[float, int]:
        key = next(self._keys)
        waits = self._due.get(patience)
        if waits is None:
            waits = self._due[patience] = {}
        waits[key] = (self.loop.time() + patience, then)
        if not self._ticking:
            self._ticking = True
            self.loop.call_later(WATCH_TICK, self._tick)
        return patience, key

    def disarm(self, armed: tuple[float, int]) -> None:
        waits = self._due.get(armed[0])
        if waits is not None:
            waits.pop(armed[1], None)

    def _tick(self) -> None:
        now = self.loop.time()
        for waits in list(self._due.values()):  # what fires may arm a wait of a patience new here
            due = []
            for key, (when, _) in waits.items():
                if when > now:
                    break
                due.append(key)
            for key in due:
                # at once, as a timer's callback would run: the wait it watches is still on
                try:
                    waits.pop(key)[1]()
                except Exception as exc:
                    self.loop.call_exception_handler({"message": "a click's patience ran out badly", "exception": exc})
        self._ticking = any(self._due.values())
        if self._ticking:
            self.loop.call_later(WATCH_TICK, self._tick)


_watching: _Watch | None = None


def _watch() -> _Watch:
    """The running loop's watch (a process runs one loop; a test, one at a time: a watch left
    with waits on a loop before keeps ticking there, held by its own timer)."""
    global _watching
    watching = _watching
    if watching is not None and watching.thread == threading.get_ident() and watching.loop.is_running():
        return watching
    loop = asyncio.get_running_loop()
    if watching is None or watching.loop is not loop:
        watching = _watching = _Watch(loop)
    else:
        watching.thread = threading.get_ident()  # the same loop, run on another thread now
    return watching


class NotAnswered(Exception):
    """Discord's servers failed a click's first answer for all of ANSWER_PATIENCE: the
    interaction has died unanswered (its user read "This interaction failed")."""


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge now, answer later. A button click keeps its message as it is; a command shows
    an ephemeral "thinking…" (a refusal must stay private, and a deferred answer keeps the
    visibility of its defer: see ``announce`` for answers the channel should see)."""
    if interaction.response.is_done():
        return
    if interaction.type == discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def in_time(interaction: discord.Interaction | None, work: Awaitable[T]) -> T:
    """``work`` done, the interaction deferred first should it take longer than STORE_PATIENCE:
    a store kept waiting by another program must not run the click past Discord's three
    seconds."""
    if interaction is None:
        return await work
    deferring: list[asyncio.Task[None]] = []
    watch = _watch()
    patience = watch.arm(STORE_PATIENCE, lambda: deferring.append(asyncio.ensure_future(defer(interaction))))
    try:
        return await work
    finally:
        watch.disarm(patience)
        if deferring:  # answered only once the defer is: two first answers, and Discord refuses one
            await deferring[0]


async def in_line(interaction: discord.Interaction, lock: asyncio.Lock, patience: float) -> None:
    """``lock`` taken in turn, the interaction deferred should the wait take ``patience``; the
    click keeps its place in line throughout. The watch looks at the wait, as at a save's
    (in_time): the line behind a busy game is where a saturated bot's clicks wait, and a task
    and a timer for each of them was a fiftieth of its work. A defer that fails takes the click
    out of the line at once, with the defer's error: nobody is left to answer it."""
    watch = _watch()
    click = asyncio.current_task(watch.loop)
    assert click is not None
    deferring: list[asyncio.Task[None]] = []
    waiting = True

    def failed(task: asyncio.Task[None]) -> None:
        if waiting and not task.cancelled() and task.exception() is not None:
            click.cancel()

    def late() -> None:
        task = asyncio.ensure_future(defer(interaction))
        task.add_done_callback(failed)
        deferring.append(task)

    patient = watch.arm(patience, late)
    try:
        await lock.acquire()
    except asyncio.CancelledError:
        refused = deferring[0] if deferring and deferring[0].done() and not deferring[0].cancelled() else None
        if refused is not None and refused.exception() is not None:
            click.uncancel()  # the cancel was ours: the click ends with the defer's error instead
            raise cast(BaseException, refused.exception()) from None
        raise
    finally:
        waiting = False
        watch.disarm(patient)
    if deferring:  # answered only once the defer is: two first answers, and Discord refuses one
        try:
            await deferring[0]
        except BaseException:
            lock.release()  # taken, then the defer failed: give it back
            raise


def let_go(interaction: discord.Interaction) -> None:
    """Called once a click is handled. discord.py's interaction and its ``response`` point at
    each other, so each click's interaction, with its message, member and user, waited for the
    garbage collector, whose pauses then fell on the clicks in flight. The response keeps what
    it answered (``is_done()``) but can answer no more; a later edit goes by the token
    (``edit_original_response``), as it does anyway."""
    interaction.response._parent = None  # type: ignore[assignment]


async def reply(interaction: discord.Interaction, **kwargs: Any) -> discord.Message | None:
    """A new message answering the interaction (``ephemeral=True`` for the user's eyes only).
    Returns the message when it was sent as a follow-up; an initial answer returns None."""
    if interaction.response.is_done():
        # a follow-up takes no None for a view or an embed: leave such keys out
        return await interaction.followup.send(wait=True, **{k: v for k, v in kwargs.items() if v is not None})
    await interaction.response.send_message(**kwargs)
    return None


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose button was clicked."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await _edit_clicked(interaction, **kwargs)


async def _edit_clicked(interaction: discord.Interaction, **kwargs: Any) -> None:
    """discord.py's ``edit_message``, without asking Discord for the edited message back: every
    click would otherwise read and parse the whole table it just sent, only to throw it away
    (a twentieth of a click's cost); a picture goes in a body built in one piece (bot/wire.py).
    Rate limits and errors are still discord.py's own, as its webhook adapter makes the call,
    for at most ANSWER_PATIENCE (then NotAnswered)."""
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value, previous_allowed_mentions=state.allowed_mentions, **kwargs)
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                  webhook_id=interaction.id, webhook_token=interaction.token)
    with params:
        prebuilt = wire.body(params)
        session = interaction._session if prebuilt is None else cast(
            aiohttp.ClientSession, wire.Prebuilt(interaction._session, prebuilt))
        watch = _watch()
        try:
            async with asyncio.timeout(None) as patience:  # set to expire by the watch, if ever
                given_up = watch.arm(ANSWER_PATIENCE, lambda: patience.reschedule(-1.0))
                try:
                    await async_context.get().request(
                        route, session=session, proxy=state.http.proxy, proxy_auth=state.http.proxy_auth,
                        payload=params.payload if prebuilt is None else None)
                finally:
                    watch.disarm(given_up)
        except TimeoutError:
            raise NotAnswered(f"interaction {interaction.id}") from None
    interaction.response._response_type = discord.InteractionResponseType.message_update


async def announce(interaction: discord.Interaction, text: str) -> None:
    """A command's answer that the whole channel should see (the game was paused). Deferred, the
    answer can only be private, so the user is told there and the channel gets its own message."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text)
        return
    await interaction.followup.send("Done.", ephemeral=True)
    if interaction.channel is not None:
        await interaction.channel.send(text)  # type: ignore[union-attr]
