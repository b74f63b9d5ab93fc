"""Knucklebones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered. Every test ends by checking that the fake
saw no late or invalid answer, no unknown route, and that the bot logged no ERROR.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "games"


def button(fd: FakeDiscord, message: dict, label: str) -> str:
    for b in fd.buttons(message):
        if b["label"] == label:
            return b["custom_id"]
    raise AssertionError(f"no {label!r} button in {[b['label'] for b in fd.buttons(message)]}")


def action_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


def table_now(fd: FakeDiscord) -> dict:
    message = fd.last_message(CHANNEL)
    assert message is not None
    return message


def move_number(message: dict) -> int:
    footer = message["embeds"][0]["footer"]["text"]
    found = re.search(r"move (\d+)", footer)
    assert found, footer
    return int(found.group(1))


def actor(message: dict, players: list[FakeUser]) -> FakeUser:
    content = message.get("content") or ""
    for p in players:
        if f"<@{p.id}>" in content:
            return p
    raise AssertionError(f"nobody is prompted in {content!r}")


def finished(message: dict) -> bool:
    return "Final standings" in json.dumps(message["embeds"])


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], bots: int = 0,
                     options: dict | None = None) -> dict:
    lobby = await (await fd.slash(host, CHANNEL, "knucklebones new", options or {})).response_message()
    for p in others:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    for _ in range(bots):
        await (await fd.click(host, lobby, button(fd, lobby, "Add AI"))).wait_response()
    await (await fd.click(host, lobby, button(fd, lobby, "Start"))).wait_response()
    return table_now(fd)


async def click_once(fd: FakeDiscord, players: list[FakeUser], pick: int = -1) -> dict:
    """The prompted player clicks one of the action buttons; returns the table afterwards."""
    table = table_now(fd)
    choices = action_buttons(fd, table)
    assert choices, "the table shows no moves"
    it = await fd.click(actor(table, players), table, choices[pick]["custom_id"])
    answer = await it.wait_response()
    assert answer["type"] == 7, answer
    return table_now(fd)


async def play_to_end(fd: FakeDiscord, players: list[FakeUser], limit: int = 400) -> dict:
    for _ in range(limit):
        table = table_now(fd)
        if finished(table):
            return table
        await click_once(fd, players)
    raise AssertionError("the game did not end")


def clean(fd: FakeDiscord, *bots) -> None:  # noqa: ANN001
    assert fd.violations == [], fd.violations
    assert fd.unknown_routes == [], fd.unknown_routes
    for bot in bots:
        assert bot.error_records() == [], bot.error_records()


async def test_three_players_play_a_whole_game(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob", "cy")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            text = json.dumps(table["embeds"])
            assert "Score sheet" in text and "Ann" in text and "Bob" in text and "Cy" in text
            final = await play_to_end(fd, players)
            standings = final["embeds"][-1]
            assert re.search(r"(wins|share the win) with \d+ points", standings["description"])
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch"]  # the moves are gone
            stats = await (await fd.slash(players[0], CHANNEL, "game stats")).response_message()
            assert "Knucklebones" in json.dumps(stats["embeds"]) and "1 played" in json.dumps(stats["embeds"])
            # a rematch: same players, seats in reverse order (KB-7), hosted by whoever asked
            stranger = fd.add_user("dee")
            refused = await (await fd.click(stranger, final, button(fd, final, "Rematch"))).wait_response()
            assert refused["data"]["flags"] & 64 and "Only the players" in refused["data"]["content"]
            lobby = await (await fd.click(players[1], final, button(fd, final, "Rematch"))).response_message()
            seats = next(f["value"] for f in lobby["embeds"][0]["fields"] if f["name"].startswith("Seats"))
            assert seats.splitlines() == ["1. Cy", "2. Bob (host)", "3. Ann"]
            await fd.wait_until(lambda: fd.buttons(fd.message(final["id"])) == [], timeout=3,
                                what="the rematch button to go")
            await (await fd.click(players[1], lobby, button(fd, lobby, "Start"))).wait_response()
            assert action_buttons(fd, table_now(fd))
        clean(fd, bot)


async def test_wrong_user_and_double_click(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob", "cy")]
        stranger = fd.add_user("dee")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            before = move_number(table)
            current = actor(table, players)
            for wrong in [p for p in players if p is not current] + [stranger]:
                it = await fd.click(wrong, table, action_buttons(fd, table)[0]["custom_id"])
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & 64
            assert table_now(fd) == table and move_number(table_now(fd)) == before

            custom_id = action_buttons(fd, table)[0]["custom_id"]
            first = await fd.click(current, table, custom_id)
            second = await fd.click(current, table, custom_id)
            answers = [await first.wait_response(), await second.wait_response()]
            assert sorted(a["type"] for a in answers) == [4, 7]
            refused = next(a for a in answers if a["type"] == 4)
            assert "moment has passed" in refused["data"]["content"]
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert len([ln for ln in log["embeds"][0]["description"].splitlines() if ln.strip()]) >= 1
            assert move_number(table_now(fd)) > before
        clean(fd, bot)


async def test_sigkill_mid_game_and_the_old_buttons_still_work(tmp_path: Path) -> None:
    db = tmp_path / "kb.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob", "cy")]
        first = await BotProcess(fd, {}, db).start()
        try:
            await open_table(fd, players[0], players[1:])
            for _ in range(4):
                await click_once(fd, players)
            table = table_now(fd)
            before = move_number(table)
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        async with running_bot(fd, {}, db) as second:
            # the message posted by the killed process; its buttons still act
            after = await click_once(fd, players)
            assert after["id"] == table["id"] and move_number(after) > before
            final = await play_to_end(fd, players)
            assert finished(final)
        clean(fd, second)
        assert first.error_records() == []


async def test_turn_timer_plays_the_default(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            late = actor(table, players)
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in (m.get("content") or "")), None),
                timeout=6,
            )
            assert late.name.title() in notice["content"]
            assert move_number(notice) > move_number(table)
            # the old table loses its buttons right after the new one is posted
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the old table to lose its buttons")
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert "scored" in log["embeds"][0]["description"]
        clean(fd, bot)


async def test_ai_seat_plays_its_turns(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, ann, [], bots=2)
            final = await play_to_end(fd, [ann])
            text = json.dumps(final["embeds"])
            assert "Bot 1" in text and "Bot 2" in text
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            assert "Bot 1" in log["embeds"][0]["description"]
        clean(fd, bot)


async def test_busy_channel_and_bad_input(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            again = await fd.slash(bob, CHANNEL, "knucklebones new")
            answer = await again.wait_response()
            assert answer["data"]["flags"] & 64 and "already has a game" in answer["data"]["content"]
            # only the host starts; one player is not enough
            for user, label, words in ((bob, "Start", "Only the host"), (ann, "Start", "at least 2")):
                it = await fd.click(user, lobby, button(fd, lobby, label))
                reply = await it.wait_response()
                assert reply["data"]["flags"] & 64 and words in reply["data"]["content"], reply
            status = await fd.slash(bob, "general", "game status")
            assert "no game" in (await status.wait_response())["data"]["content"]
            end = await fd.slash(bob, CHANNEL, "game end")
            assert "Only the host" in (await end.wait_response())["data"]["content"]
            end = await fd.slash(ann, CHANNEL, "game end")
            confirm = await end.response_message()
            done = await fd.click(ann, confirm, button(fd, confirm, "End the game"))
            await done.wait_response()
            await fd.wait_until(lambda: "ended the game" in (table_now(fd).get("content") or ""),
                                timeout=3, what="the channel to be told the game ended")
            again = await fd.slash(bob, CHANNEL, "knucklebones new")
            assert (await again.wait_response())["type"] == 4  # the channel is free again
        clean(fd, bot)


async def test_pause_stops_moves_and_timers_until_resumed(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, players[0], players[1:])
            refused = await (await fd.slash(players[1], CHANNEL, "game pause")).wait_response()
            assert refused["data"]["flags"] & 64 and "Only the host" in refused["data"]["content"]
            paused = await (await fd.slash(players[0], CHANNEL, "game pause")).wait_response()
            assert "paused the game" in paused["data"]["content"]
            def the_table() -> dict:
                return next(m for m in reversed(fd.messages(CHANNEL)) if m["embeds"])

            table = await fd.wait_until(
                lambda: "paused" in (the_table().get("content") or "") and the_table(), timeout=3,
                what="the table to say it is paused")
            assert action_buttons(fd, table) == []
            before = move_number(table)
            # no moves while paused, not even a leaver's seat played by a bot
            stay = await (await fd.slash(players[1], CHANNEL, "game leave")).wait_response()
            assert stay["data"]["flags"] & 64 and "paused" in stay["data"]["content"]
            await asyncio.sleep(2.5)  # well past the 1 s turn timer
            assert not any("Time ran out" in (m.get("content") or "") for m in fd.messages(CHANNEL))
            assert move_number(the_table()) == before
            await (await fd.slash(players[0], CHANNEL, "game resume")).wait_response()
            await fd.wait_until(
                lambda: any("Time ran out" in (m.get("content") or "") for m in fd.messages(CHANNEL)),
                timeout=6, what="the timer to run again after resume")
        clean(fd, bot)


async def test_the_table_is_edited_while_recent_and_posted_again_once_it_scrolled_away(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            edited = await click_once(fd, players)
            assert edited["id"] == table["id"]  # a click on a recent table edits it in place
            for n in range(4):  # the table scrolls away under the chat
                await fd.post_user_message(players[n % 2], CHANNEL, f"chatter {n}")
            await asyncio.sleep(0.5)  # the bot has seen them (gateway MESSAGE_CREATE)
            choices = action_buttons(fd, edited)
            it = await fd.click(actor(edited, players), edited, choices[-1]["custom_id"])
            assert (await it.wait_response())["type"] == 7
            fresh = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and m["embeds"] and m["id"] != table["id"] and m,
                timeout=3, what="a fresh table at the bottom")
            assert action_buttons(fd, fresh)
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the scrolled-away table to lose its buttons")
        clean(fd, bot)
