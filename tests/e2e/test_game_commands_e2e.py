"""The /game commands every table shares, and the last line of defence against a bug, end to end.

Knucklebones is the game on the table; what is tested is the host: the turn timer, the rules in
force, leaving mid-game, re-posting the table, and an unexpected exception still answering.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e.test_knucklebones_e2e import (
    CHANNEL, actor, clean, finished, open_table, play_to_end, table_now,
)
from tests.fakediscord import FLAG_EPHEMERAL, running_bot, running_fake


def footer(message: dict) -> str:
    return message["embeds"][0]["footer"]["text"]


async def test_timer_rules_status_and_leave(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        stranger = fd.add_user("dee")
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "300"}, tmp_path / "g.sqlite3") as bot:
            table = await open_table(fd, ann, [bob], options={"min_active": 3})
            assert "turn timer 5 min 00 s" in footer(table)

            # the timer: host only, at least 15 s, and off
            refused = await (await fd.slash(bob, CHANNEL, "game timer", {"seconds": 60})).wait_response()
            assert refused["data"]["flags"] & FLAG_EPHEMERAL and "Only the host" in refused["data"]["content"]
            short = await (await fd.slash(ann, CHANNEL, "game timer", {"seconds": 5})).wait_response()
            assert short["data"]["flags"] & FLAG_EPHEMERAL and "15 or more" in short["data"]["content"]
            assert "turn timer 5 min 00 s" in footer(table_now(fd))  # refusals changed nothing
            done = await (await fd.slash(ann, CHANNEL, "game timer", {"seconds": 75})).wait_response()
            assert done["data"]["content"] == "Turn timer: 75 seconds per decision."
            await fd.wait_until(lambda: "turn timer 1 min 15 s" in footer(fd.message(table["id"])),
                                timeout=3, what="the table to show the new timer")
            off = await (await fd.slash(ann, CHANNEL, "game timer")).wait_response()
            assert off["data"]["content"] == "Turn timer: off."
            await fd.wait_until(lambda: "turn timer off" in footer(fd.message(table["id"])),
                                timeout=3, what="the table to show the timer off")

            # the rules in force, privately, with this table's option
            rules = await (await fd.slash(stranger, CHANNEL, "game rules")).wait_response()
            assert rules["data"]["flags"] & FLAG_EPHEMERAL
            text = json.dumps(rules["data"]["embeds"])
            assert "Knucklebones: rules in force" in text and "at least **3** active dice" in text

            # the table again, as a fresh message at the bottom of the channel
            before = len(fd.messages(CHANNEL))
            status = await (await fd.slash(bob, CHANNEL, "game status")).wait_response()
            assert status["data"]["flags"] & FLAG_EPHEMERAL
            await fd.wait_until(lambda: len(fd.messages(CHANNEL)) > before, timeout=3, what="a re-posted table")
            assert table_now(fd)["embeds"][0]["title"] == table["embeds"][0]["title"]

            # leaving: a stranger has no seat; Bob's seat is played by a bot from then on
            nobody = await (await fd.slash(stranger, CHANNEL, "game leave")).wait_response()
            assert nobody["data"]["flags"] & FLAG_EPHEMERAL and "do not have a seat" in nobody["data"]["content"]
            left = await (await fd.slash(bob, CHANNEL, "game leave")).wait_response()
            assert left["data"]["flags"] & FLAG_EPHEMERAL and "a bot plays your seat" in left["data"]["content"]
            await fd.wait_until(lambda: "Bob left" in json.dumps(table_now(fd)),
                                timeout=3, what="the table to say Bob left")
            assert actor(table_now(fd), [ann]) is ann  # the bot has played any turn it owed
            final = await play_to_end(fd, [ann])  # only Ann clicks: the bot seat plays itself
            assert finished(final)
            assert re.search(r"(wins|share the win) with \d+ points", final["embeds"][-1]["description"])
            stats = await (await fd.slash(bob, CHANNEL, "game stats", {"player": ann})).wait_response()
            assert "Knucklebones" in json.dumps(stats["data"]["embeds"])
            assert "of 1 played" in json.dumps(stats["data"]["embeds"])
        clean(fd, bot)


async def test_an_unexpected_error_answers_with_a_reference_and_is_logged(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        env = {"EXTRA_COGS": "tests.fixtures.broken_cog"}
        async with running_bot(fd, env, tmp_path / "g.sqlite3") as bot:
            for command in ("broken", "broken-unguarded"):
                answer = await (await fd.slash(ann, CHANNEL, command)).wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL
                found = re.search(r"something went wrong on our side \(reference ([0-9A-Z]{4,})\)",
                                  answer["data"]["content"])
                assert found, answer
                await fd.wait_until(lambda: any(found.group(1) in r for r in bot.error_records()),
                                    timeout=3, what="the error to be logged with its reference")
            errors = bot.error_records()
            assert len(errors) == 2 and all("RuntimeError" in r for r in errors), errors
            assert fd.violations == [] and fd.unknown_routes == []
            # the bot goes on serving
            roll = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d6"})).wait_response()
            assert roll["type"] == 4 and roll["data"].get("embeds")
        assert len(bot.error_records()) == 2
