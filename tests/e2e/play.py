"""How end-to-end tests of every game play: open a table, click what was rendered, go on to the end.

Players act only through what the bot rendered; what differs between games (the command that
opens a table, which of the rendered moves a player picks, where their controls are) comes in as
parameters, so each game's tests say only that.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.e2e.channel import Audit, actor, button, finished, live_table, next_table, settle
from tests.fakediscord import FakeDiscord, FakeUser

#: a move rendered on a table: (the button's custom id, None) or (a select's custom id, a value)
Choice = tuple[str, str | None]
#: waits for the first table of a game in a channel and returns it
FirstTable = Callable[[FakeDiscord, str], Awaitable[dict[str, Any]]]


async def open_table(fd: FakeDiscord, channel: str, command: str, host: FakeUser, others: list[FakeUser],
                     bots: int = 0, options: dict[str, Any] | None = None, *,
                     first: FirstTable = next_table) -> dict[str, Any]:
    """A lobby opened with ``command``, joined by ``others``, filled with ``bots``, started; the
    first table, as ``first`` waits for it (by default: one with something to press)."""
    lobby = await (await fd.slash(host, channel, command, options or {})).response_message()
    for p in others:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    for _ in range(bots):
        await (await fd.click(host, lobby, button(fd, lobby, "Add AI"))).wait_response()
    await (await fd.click(host, lobby, button(fd, lobby, "Start"))).wait_response()
    return await first(fd, channel)


def choices(fd: FakeDiscord, message: dict[str, Any]) -> list[Choice]:
    """The moves a table offers the player it prompts: its buttons, then every option of its
    select (the host makes a long list one select)."""
    found: list[Choice] = [
        (b["custom_id"], None) for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]
    for s in fd.selects(message):
        if s["custom_id"].startswith("bn:pick:"):
            found += [(s["custom_id"], o["value"]) for o in s["options"]]
    return found


async def click_once(fd: FakeDiscord, channel: str, players: list[FakeUser],
                     pick: Callable[[list[Choice]], Choice], *, audit: Audit | None = None,
                     shows_dice: bool | None = None) -> dict[str, Any]:
    """The prompted player presses the move ``pick`` chooses on the live table; the table after."""
    table = live_table(fd, channel)
    assert table is not None
    options = choices(fd, table)
    assert options, "the table shows no moves"
    who = actor(table, players)
    if audit is not None:
        audit.clicked(who)
    custom_id, value = pick(options)
    if value is None:
        it = await fd.click(who, table, custom_id)
    else:
        it = await fd.select(who, table, custom_id, [value])
    answer = await it.wait_response()
    assert answer["type"] == 7, answer
    after = await next_table(fd, channel)
    if audit is not None:
        audit.look(set() if finished(after) else {actor(after, players).id}, shows_dice=shows_dice)
    return after


async def play_to_end(fd: FakeDiscord, channel: str, step: Callable[[dict[str, Any]], Awaitable[object]], *,
                      limit: int, quiet: float | None = None) -> dict[str, Any]:
    """``step(table)`` makes one move while the live table is not the final standings (after
    the bot fell ``quiet`` for that long, if given); the final table."""
    for _ in range(limit):
        if quiet is not None:
            await settle(fd, quiet=quiet)
        table = live_table(fd, channel)
        assert table is not None
        if finished(table):
            return table
        await step(table)
    raise AssertionError("the game did not end")


async def store_a_step_never_shown(db: Any, channel_id: int) -> int:
    """What a process that stopped between storing a step and showing it leaves behind: the
    Knucklebones game in the channel one move further on than its table shows. The seat now
    asked to act."""
    from bot.store import open_store
    from rules.knucklebones import ENGINE

    store = await open_store(db)
    try:
        game = await store.live_in_channel(channel_id)
        assert game is not None and game.state is not None
        state = ENGINE.State.model_validate(game.state)
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        game.state, game.version = state.model_dump(mode="json"), game.version + 1
        await store.save(game, game.version - 1)
        return ENGINE.to_act(state)[0]
    finally:
        await store.close()
