"""A paused game, end to end: a player may leave it (or be handed to a bot) while it is paused,
and the bot plays their seat only once the game is resumed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.channel import actor, clean, is_table, pinged, said, top
from tests.e2e.test_knucklebones_e2e import CHANNEL, action_buttons, open_table
from tests.fakediscord import FLAG_EPHEMERAL, FakeDiscord, running_bot, running_fake


def the_table(fd: FakeDiscord) -> dict:
    return next(m for m in reversed(fd.messages(CHANNEL)) if is_table(m))


async def test_a_player_who_leaves_a_paused_game_is_played_by_the_bot_once_it_is_resumed(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "0"}, tmp_path / "p.sqlite3") as bot:
            table = await open_table(fd, ann, [bob])
            leaver = actor(table, [ann, bob])
            stayer = bob if leaver is ann else ann
            await (await fd.slash(ann, CHANNEL, "game pause")).wait_response()
            paused = await fd.wait_until(lambda: "paused" in top(the_table(fd)) and the_table(fd),
                                         timeout=3, what="the paused table")

            left = await (await fd.slash(leaver, CHANNEL, "game leave")).wait_response()
            assert left["data"]["flags"] & FLAG_EPHEMERAL
            assert left["data"]["content"] == (
                "You left the game; a bot plays your seat from here "
                + ("once you resume the game" if leaver is ann else "once the host resumes it")
                + ". `/game rejoin` takes it back.")
            await fd.wait_until(lambda: f"{leaver.name.title()} (bot)" in said(fd.message(paused["id"])),
                                timeout=3, what="the paused table to show the seat a bot's")
            await asyncio.sleep(0.5)
            # paused: the bot has not played the seat, and the table waits as it was
            assert the_table(fd)["id"] == paused["id"] and "paused" in top(fd.message(paused["id"]))
            assert not action_buttons(fd, fd.message(paused["id"]))

            since = len(fd.calls)
            await (await fd.slash(ann, CHANNEL, "game resume")).wait_response()
            fresh = await fd.wait_until(
                lambda: (m := the_table(fd))["id"] != paused["id"] and action_buttons(fd, m) and m, timeout=5, what="the bot's turn played and the next table below")
            assert actor(fresh, [ann, bob]) is stayer
            assert stayer.id in pinged(fd, since, fd.channel(CHANNEL).id)
        clean(fd, bot)
