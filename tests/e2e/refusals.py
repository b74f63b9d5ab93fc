"""A table the bot could not post (a permission taken, Discord's servers failing): presses that
want a new table, the old table that must still show the game, and the table coming back once
the next move or ``/game status`` posts it. Shared by the permission and the outage tests."""

from __future__ import annotations

from typing import Any

from tests.e2e.channel import actor, live_table, said, settle
from tests.fakediscord import FakeDiscord, FakeUser, Interaction

CHANNEL = "games"


def private(it: Interaction) -> str:
    """Everything the interaction's user was told privately."""
    shown = {m["id"]: m for m in [*it.ephemeral_messages, *it.followups] if m["flags"] & 64}
    return "\n".join(said(m) for m in shown.values())


def moves(fd: FakeDiscord, message: dict[str, Any]) -> list[str]:
    return [b["custom_id"] for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


async def press_until_a_new_table(fd: FakeDiscord, players: list[FakeUser], table: dict[str, Any]) -> Interaction:
    """The prompted player presses their last move until the game wants a new table (the turn
    passes); the press that wanted it."""
    for _ in range(30):
        before = len(fd.calls)
        it = await fd.click(actor(table, players), table, moves(fd, table)[-1])
        assert (await it.wait_response())["type"] == 7
        await settle(fd)
        if any(c["method"] == "POST" and c["path"] == f"/channels/{fd.channel(CHANNEL).id}/messages"
               for c in fd.calls[before:]):
            return it
        table = live_table(fd, CHANNEL) or table
    raise AssertionError("no new table was wanted")


def still_playable(fd: FakeDiscord, posted: Interaction) -> dict[str, Any]:
    """The table whose post was refused is not there: the clicked one shows the game, with its
    moves, instead of the line of history the press's answer had made it."""
    stuck = live_table(fd, CHANNEL)
    assert stuck is not None and moves(fd, stuck), "the old table shows the game, with its moves"
    assert stuck["id"] == posted.payload["message"]["id"]
    return stuck


async def comes_back(fd: FakeDiscord, players: list[FakeUser], stuck: dict[str, Any], *, by_move: bool,
                     why: str) -> dict[str, Any]:
    """Nothing refuses any more: the next move (``by_move``) or ``/game status`` posts the table
    anew, with its picture; the new table."""
    if by_move:
        it = await fd.click(actor(stuck, players), stuck, moves(fd, stuck)[0])
        assert (await it.wait_response())["type"] == 7
    else:
        it = await fd.slash(players[0], CHANNEL, "game status")
        assert (await it.wait_response())["data"]["flags"] & 64
    await settle(fd)
    fresh = live_table(fd, CHANNEL)
    assert fresh is not None and moves(fd, fresh)
    assert fresh["id"] != stuck["id"], f"{why}: the table was not posted again"
    assert fd.attachments(fresh), "the table comes back with its picture"
    return fresh


def last_move(fd: FakeDiscord, players: list[FakeUser]) -> Any:
    """A step for ``play.play_to_end``: whoever is asked presses their last move."""
    async def step(table: dict[str, Any]) -> None:
        it = await fd.click(actor(table, players), table, moves(fd, table)[-1])
        await it.wait_response()
    return step
