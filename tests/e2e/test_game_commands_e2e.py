"""The /game commands every table shares, and the last line of defence against a bug, end to end.

Knucklebones is the game on the table; what is tested is the host: the turn timer, the rules in
force, leaving mid-game, re-posting the table, and an unexpected exception still answering.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from tests.e2e.channel import footer, lobby_seats, pinged, read_pages, said, texts, top
from tests.e2e.test_knucklebones_e2e import (
    CHANNEL, actor, button, clean, finished, open_table, play_to_end, table_now,
)
from tests.fakediscord import FLAG_EPHEMERAL, BotProcess, FakeDiscord, FakeUser, running_bot, running_fake


async def test_timer_rules_status_and_leave(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        stranger = fd.add_user("dee")
        mod = fd.add_user("mo", manager=True)  # Manage Channel, and no seat
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "300"}, tmp_path / "g.sqlite3") as bot:
            table = await open_table(fd, ann, [bob], options={"min_active": 3})
            assert footer(table).endswith("· 5 min per move") and "Time runs out <t:" in footer(table)

            # the timer: host only, at least 15 s, and off
            refused = await (await fd.slash(bob, CHANNEL, "game timer", {"seconds": 60})).wait_response()
            assert refused["data"]["flags"] & FLAG_EPHEMERAL and "Only the host" in refused["data"]["content"]
            short = await (await fd.slash(ann, CHANNEL, "game timer", {"seconds": 5})).wait_response()
            assert short["data"]["flags"] & FLAG_EPHEMERAL and short["data"]["content"] == "A turn timer is 15 seconds or more (0 turns it off)."
            assert footer(table_now(fd)).endswith("· 5 min per move")  # refusals changed nothing
            done = await (await fd.slash(ann, CHANNEL, "game timer", {"seconds": 75})).wait_response()
            assert done["data"]["content"] == "Turn timer: 75 seconds per decision."
            await fd.wait_until(lambda: footer(fd.message(table["id"])).endswith("· 75 s per move"),
                                timeout=3, what="the table to show the new timer")
            # whoever may pause or end the table may set its clock too: Manage Channel here
            moderated = await (await fd.slash(mod, CHANNEL, "game timer", {"seconds": 90})).wait_response()
            assert moderated["data"]["content"] == "Turn timer: 90 seconds per decision."
            # asked with no value, it says what the timer is, to anyone, and changes nothing
            asked = await (await fd.slash(stranger, CHANNEL, "game timer")).wait_response()
            assert asked["data"]["flags"] & FLAG_EPHEMERAL and asked["data"]["content"] == (
                "Turn timer: 90 seconds per decision. The host, a GM of this server or someone with Manage Channel "
                "can change it with `/game timer seconds:` (0 turns it off)."), asked
            off = await (await fd.slash(ann, CHANNEL, "game timer", {"seconds": 0})).wait_response()
            assert off["data"]["content"] == "Turn timer: off."
            await fd.wait_until(lambda: not footer(fd.message(table["id"])),  # no timer: nothing to count down
                                timeout=3, what="the table to show the timer off")
            asked = await (await fd.slash(ann, CHANNEL, "game timer")).wait_response()
            assert asked["data"]["content"] == ("Turn timer: off. The host, a GM of this server or someone with "
                                                "Manage Channel can set one with `/game timer seconds:` (15 or more)."), asked

            # the rules in force, privately, with this table's option
            rules = await (await fd.slash(stranger, CHANNEL, "game rules")).response_message()
            assert rules["flags"] & FLAG_EPHEMERAL
            text = "\n".join(await read_pages(fd, stranger, rules))
            assert "Knucklebones: rules in force" in text and "at least **3** active dice" in text

            # the table again, as a fresh message at the bottom of the channel
            before, calls = len(fd.messages(CHANNEL)), len(fd.calls)
            status = await (await fd.slash(stranger, CHANNEL, "game status")).wait_response()
            assert status["data"]["flags"] & FLAG_EPHEMERAL
            await fd.wait_until(lambda: len(fd.messages(CHANNEL)) > before, timeout=3, what="a re-posted table")
            assert texts(table_now(fd))[1] == texts(table)[1]  # the same table: no move was made
            # whoever is asked was pinged when asked: a stranger's /game status does not buzz them again
            assert f"<@{actor(table_now(fd), [ann, bob]).id}>" in texts(table_now(fd))[0]
            assert pinged(fd, calls, fd.channel(CHANNEL).id) == set()

            # leaving: a stranger has no seat; Bob's seat is played by a bot from then on
            nobody = await (await fd.slash(stranger, CHANNEL, "game leave")).wait_response()
            assert nobody["data"]["flags"] & FLAG_EPHEMERAL and "do not have a seat" in nobody["data"]["content"]
            left = await (await fd.slash(bob, CHANNEL, "game leave")).wait_response()
            assert left["data"]["flags"] & FLAG_EPHEMERAL and "a bot plays your seat" in left["data"]["content"]
            await fd.wait_until(lambda: "Bob left" in said(table_now(fd)),
                                timeout=3, what="the table to say Bob left")
            assert actor(table_now(fd), [ann]) is ann  # the bot has played any turn it owed
            final = await play_to_end(fd, [ann])  # only Ann clicks: the bot seat plays itself
            assert finished(final)
            assert re.search(r"(wins|share the win) with \d+ points", top(final))
            stats = await (await fd.slash(bob, CHANNEL, "game stats", {"player": ann})).wait_response()
            assert "Knucklebones" in json.dumps(stats["data"]["embeds"])
            assert "of 1 played" in json.dumps(stats["data"]["embeds"])
            # Bob left: the game counts as played, never as won, whatever his bot did
            stats = await (await fd.slash(bob, CHANNEL, "game stats", {"player": bob})).wait_response()
            assert "**Knucklebones**: 0 won of 1 played" in stats["data"]["embeds"][0]["description"]
            board = await (await fd.slash(bob, CHANNEL, "game stats")).wait_response()
            ranks = board["data"]["embeds"][0]["fields"][0]["value"].splitlines()
            assert ranks[-1] == f"2. <@{bob.id}>: 0 won of 1"  # a leaver ranks after who stayed
            # no rate after one game each, and the footer says when one shows
            assert board["data"]["embeds"][0]["footer"]["text"].startswith(
                "A win rate shows once a player has finished 3 games")
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
            assert roll["type"] == 4 and "# " in said(roll["data"])  # a roll's result, in words
        assert len(bot.error_records()) == 2


async def test_discord_failing_a_command_is_told_as_discords_failure_and_not_logged_as_an_error(
        tmp_path: Path) -> None:
    """A 503 from Discord (which discord.py does not try again) on a call a command makes: the
    user reads that Discord's servers failed and may try again, not "something went wrong on our
    side"; the log has a warning, not an error with a traceback."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        env = {"EXTRA_COGS": "tests.fixtures.broken_cog"}
        async with running_bot(fd, env, tmp_path / "g.sqlite3") as bot:
            fd.fail("POST", r"^/channels/\d+/messages$", 503)
            answer = await (await fd.slash(ann, CHANNEL, "post-here")).wait_response()
            assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL
            assert answer["data"]["content"] == ("Discord's servers failed just now (they answered 503), so I could "
                                                 "not finish that. Try again in a moment."), answer
            assert len(fd.fault_hits) == 1
            again = await (await fd.slash(ann, CHANNEL, "post-here")).wait_response()
            assert again["data"]["content"] == "Posted."
            assert said(fd.messages(CHANNEL)[-1]) == "a line"
            assert " WARNING " in await bot.wait_for_line(r"Discord's servers failed interaction \d+ \(503\)")
        clean(fd, bot)


async def test_leaving_a_lobby_by_command_is_answered_and_leaves_one_lobby(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "g.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            left = await (await fd.slash(bob, CHANNEL, "game leave")).response_message()
            assert left["flags"] & FLAG_EPHEMERAL and "Bob left the lobby" in left["content"]

            def seats() -> list[str]:
                return lobby_seats(fd.message(lobby["id"]) or {})

            await fd.wait_until(lambda: seats() == ["1. Ann (host)"], timeout=3, what="the lobby without Bob")
            with_buttons = [m for m in fd.messages(CHANNEL) if fd.buttons(m)]
            assert [m["id"] for m in with_buttons] == [lobby["id"]]
            again = await (await fd.slash(bob, CHANNEL, "game leave")).wait_response()
            assert again["data"]["flags"] & FLAG_EPHEMERAL and "do not have a seat" in again["data"]["content"]
        clean(fd, bot)


class SlowDMs(FakeDiscord):
    """Opening a DM takes 0.8 s, as it may on a busy day: four seats keep a game busy for 3 s."""

    async def _r_create_dm(self, request, m):  # noqa: ANN001, ANN202
        await asyncio.sleep(0.8)
        return await super()._r_create_dm(request, m)


async def test_clicks_queued_behind_slow_dms_are_deferred_not_lost(tmp_path: Path) -> None:
    fd = SlowDMs()
    await fd.start()
    try:
        users = [fd.add_user(n) for n in ("ann", "bob", "cy", "dee")]
        env = {"EXTRA_COGS": "tests.fixtures.sealed_game"}
        async with running_bot(fd, env, tmp_path / "s.sqlite3") as bot:
            lobby = await (await fd.slash(users[0], CHANNEL, "sealedpick new")).response_message()
            for user in users[1:]:
                await (await fd.click(user, lobby, button(fd, lobby, "Join"))).wait_response()
            start = await fd.click(users[0], lobby, button(fd, lobby, "Start"))
            assert (await start.wait_response())["type"] == 7
            # Ann's DM is out after 0.8 s, Bob's after 1.6 s; all four take 3.2 s, under the lock
            dm = await fd.wait_until(lambda: fd.dm_messages(users[0])[-1:] or None, timeout=3)
            ann_pick = fd.buttons(dm[0])[0]
            pick = await fd.click(users[0], dm[0], ann_pick["custom_id"])
            status = await fd.slash(users[1], CHANNEL, "game status")
            bob_dm = await fd.wait_until(lambda: fd.dm_messages(users[1])[-1:] or None, timeout=3)
            bob_pick = await fd.click(users[1], bob_dm[0], fd.buttons(bob_dm[0])[-1]["custom_id"])
            assert (await pick.wait_response())["type"] == 6  # deferred while it waited in line
            assert (await status.wait_response())["type"] == 5
            assert (await bob_pick.wait_response())["type"] == 6
            answered = await status.response_message(timeout=6)
            assert answered["flags"] & FLAG_EPHEMERAL and answered["content"] == "The table comes below, as the newest message."
            edited = await pick.response_message(timeout=6)  # the DM now shows the sealed pick
            assert f"You picked {ann_pick['label']}." in said(edited)
            await bob_pick.response_message(timeout=6)
            # they were applied in the order they were clicked, though both waited and were deferred
            log = await (await fd.slash(users[2], CHANNEL, "game log")).response_message()
            moves = said(log)
            assert moves.index("Ann has chosen") < moves.index("Bob has chosen"), moves
            await fd.wait_until(lambda: all(fd.dm_messages(u) for u in users), timeout=6, what="every DM")
            assert fd.violations == [], fd.violations  # nothing answered late
        clean(fd, bot)
    finally:
        await fd.stop()


async def test_a_turn_timer_survives_a_sigkill(tmp_path: Path) -> None:
    """The timer runs out while the bot is down: the new process finds it in the store and, after
    a short grace (the player could not act meanwhile), plays the default."""
    db = tmp_path / "k.sqlite3"
    env = {"DEFAULT_TIMER_SECONDS": "1"}
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        first = await BotProcess(fd, env, db).start()
        try:
            table = await open_table(fd, ann, [bob])
            late = actor(table, [ann, bob])
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        await asyncio.sleep(1.5)  # the timer runs out while no bot is running
        assert not any("Time ran out" in said(m) for m in fd.messages(CHANNEL))
        async with running_bot(fd, env, db) as second:
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in said(m)), None),
                timeout=25, what="the stored deadline to expire in the new process")
            assert late.name.title() in top(notice)
            assert any("ran out while the bot was down: 1;" in line for line in second.lines)
        clean(fd, second)
        assert first.error_records() == []


async def test_the_host_unseats_a_seat_added_by_mistake(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "g.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            for _ in range(2):
                await (await fd.click(ann, lobby, button(fd, lobby, "Add AI"))).wait_response()

            def seats() -> list[str]:
                return lobby_seats(fd.message(lobby["id"]) or {})

            async def unseat(user: FakeUser, which: str) -> dict:
                return (await (await fd.slash(user, CHANNEL, "game unseat", {"seat": which})).wait_response())["data"]

            assert seats() == ["1. Ann (host)", "2. Bob", "3. Bot 1", "4. Bot 2"]
            for user, which, words in ((bob, "Bot 1", "Only the host"), (ann, "Ann", "host keeps their seat"),
                                       (ann, "9", "No seat matches")):
                refused = await unseat(user, which)
                assert refused["flags"] & FLAG_EPHEMERAL and words in refused["content"], refused
            assert seats() == ["1. Ann (host)", "2. Bob", "3. Bot 1", "4. Bot 2"]  # refusals changed nothing
            done = await unseat(ann, "bot 1")
            assert done["flags"] & FLAG_EPHEMERAL and "Bot 1 no longer has a seat" in done["content"]
            await fd.wait_until(lambda: seats() == ["1. Ann (host)", "2. Bob", "3. Bot 2"], timeout=3,
                                what="Bot 1 to go")
            await (await fd.click(ann, lobby, button(fd, lobby, "Add AI"))).wait_response()
            await fd.wait_until(lambda: seats()[-1] == "4. Bot 1", timeout=3, what="a new bot with a free name")
            await unseat(ann, f"<@{bob.id}>")
            await fd.wait_until(lambda: seats() == ["1. Ann (host)", "2. Bot 2", "3. Bot 1"], timeout=3,
                                what="Bob to go")
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            late = await unseat(ann, "2")
            assert late["flags"] & FLAG_EPHEMERAL and late["content"] == \
                "Bot 2 is the bot's own seat: seats are removed only in the lobby, before the game starts."
        clean(fd, bot)
