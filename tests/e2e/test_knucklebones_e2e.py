"""Knucklebones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered. Every test ends by checking that the fake
saw no late or invalid answer, no unknown route, and that the bot logged no ERROR.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from tests.e2e import channel, play
from tests.e2e.channel import (
    Audit, actor, button, clean, finished, is_table, live_table, lobby_seats, next_table, said, settle, top,
)
from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, running_bot, running_fake

#: the gateway's intent bit for servers (Discord's numbering)
GUILDS = 1 << 0
CHANNEL = "games"


def action_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


def table_now(fd: FakeDiscord) -> dict:
    """The live table: the newest game message (older tables have shrunk to history lines)."""
    message = live_table(fd, CHANNEL)
    assert message is not None
    return message


def history(fd: FakeDiscord) -> list[str]:
    """The one-line stories older tables became."""
    return [said(m) for m in fd.messages(CHANNEL) if not is_table(m) and said(m).startswith("**")]


def rune_decision(fd: FakeDiscord, table: dict) -> None:
    """Issue 19: a table that asks about a die names it by one number in the question, in the
    words, on the picture's caption (the picture's alt text says it) and on the Keep button."""
    asked = re.search(r"Die (\d) shows a (\d)", top(table))
    if asked is None:
        return
    number, face = asked.groups()
    labels = [b["label"] for b in action_buttons(fd, table)]
    assert labels[0] == f"Keep die {number} ({face})", labels
    doubled = "(, doubled[ a-z0-9]*)?"  # a die doubled before its own rune acts
    assert re.search(rf"die {number}: \*\*{face}\*\*{doubled}, deciding now", said(table).replace("\u00a0", " "))
    assert re.search(rf"die {number}: {face}{doubled}, deciding now", json.dumps(table["components"]))
    assert len(set(labels)) == len(labels)  # two dice with the same rune are told apart


def dice_counted(table: dict) -> None:
    """The table says how many dice its player has, and lists that many active dice."""
    words = said(table).replace("\u00a0", " ")
    counted = re.search(r"'s (\d) dice:\*\* ([^;\n]*)", words)
    if counted is None:
        return  # the finished table
    assert len(re.findall(r"\bdie \d: ", counted.group(2))) == int(counted.group(1)), words


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], bots: int = 0,
                     options: dict | None = None) -> dict:
    return await play.open_table(fd, CHANNEL, "knucklebones new", host, others, bots, options)


async def click_once(fd: FakeDiscord, players: list[FakeUser], pick: int = -1, audit: Audit | None = None) -> dict:
    """The prompted player clicks one of the action buttons; returns the table afterwards."""
    rune_decision(fd, table_now(fd))
    dice_counted(table_now(fd))
    return await play.click_once(fd, CHANNEL, players, lambda options: options[pick], audit=audit)


async def play_to_end(fd: FakeDiscord, players: list[FakeUser], limit: int = 400, audit: Audit | None = None) -> dict:
    if audit is not None:
        audit.look({actor(table_now(fd), players).id})
    return await play.play_to_end(fd, CHANNEL, lambda _: click_once(fd, players, audit=audit), limit=limit)


async def test_three_players_play_a_whole_game(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob", "cy")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            text = said(table)
            assert "Ann" in text and "Bob" in text and "Cy" in text
            assert "attachment://dice.png" in json.dumps(table["components"])
            # a first game: Details opens on the player's own sheet, each open item with its
            # points, what it needs and whether the dice meet it now, on one phone screen
            mover = actor(table, players)
            sheet = await (await fd.click(mover, table, button(fd, table, "Details"))).response_message()
            assert sheet["flags"] & 64 and channel.text_length(sheet) <= 700
            assert re.search(r"\*\*Five of a Kind\*\* \(40 for 5 of one rune\): (not met|scores 40) now", said(sheet))
            audit = Audit(fd, CHANNEL)
            final = await play_to_end(fd, players, audit=audit)
            # 21 turns change hands (and the rune decisions within a turn stay edits): every
            # new player to act is pinged by a new message
            assert audit.turn_changes >= 20
            audit.assert_targets(median=700, most=1000)
            assert re.search(r"(wins|share the win) with \d+ points", top(final))
            assert "🏆 <@" in top(final) and said(final).count("🏆") == 1  # the winner is pinged, once
            assert "Final standings" in said(final)
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]  # the moves are gone
            # the channel keeps a compact story: one line per turn, naming what was scored
            lines = history(fd)
            assert len(lines) >= 21 and sum("scored" in line for line in lines) >= 21
            # the dice the 5s and 6s added or removed after scoring, and how many the next
            # player rolls (over 21 turns, some 5 adds a die)
            changes = [line for line in lines if re.search(r" · (a 5|5s) added |(a 6|6s) removed ", line)]
            assert changes and all(re.search(r": (Ann|Bob|Cy) rolls \d dice$", line) for line in changes), lines
            assert all(len(said(m)) <= 400 and not fd.buttons(m) for m in fd.messages(CHANNEL) if not is_table(m))
            board = (await (await fd.slash(players[0], CHANNEL, "game stats")).response_message())["embeds"][0]
            assert board["title"] == "Leaderboard" and board["fields"][0]["name"] == "Knucklebones"
            ranks = board["fields"][0]["value"].splitlines()
            assert len(ranks) == 3 and ranks[0].startswith("1. <@") and "won of 1" in ranks[0]
            mine = await (await fd.slash(players[0], CHANNEL, "game stats", {"player": str(players[0].id)})
                          ).response_message()
            assert "Knucklebones**: " in mine["embeds"][0]["description"] and "of 1 played" in mine["embeds"][0]["description"]
            # a rematch: same players, seats in reverse order (KB-7), hosted by whoever asked
            stranger = fd.add_user("dee")
            refused = await (await fd.click(stranger, final, button(fd, final, "Rematch"))).wait_response()
            assert refused["data"]["flags"] & 64 and "Only the players" in refused["data"]["content"]
            lobby = await (await fd.click(players[1], final, button(fd, final, "Rematch"))).response_message()
            assert lobby_seats(lobby) == ["1. Cy", "2. Bob (host)", "3. Ann"]
            await fd.wait_until(lambda: [b["label"] for b in fd.buttons(fd.message(final["id"]))] == ["Details"],
                                timeout=3, what="the rematch button to go")
            assert "Final standings" in said(fd.message(final["id"]) or {})  # the table itself stays
            await (await fd.click(players[1], lobby, button(fd, lobby, "Start"))).wait_response()
            assert action_buttons(fd, await next_table(fd, CHANNEL))
        clean(fd, bot)


async def test_wrong_user_and_double_click(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob", "cy")]
        stranger = fd.add_user("dee")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            current = actor(table, players)
            calls = len(fd.calls)
            wrongs = [p for p in players if p is not current] + [stranger]
            for wrong in wrongs:
                it = await fd.click(wrong, table, action_buttons(fd, table)[0]["custom_id"])
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & 64
                # one short private line saying whose turn it is; no copy of the table
                words = answer["data"]["content"]
                assert current.name.title() in words and not answer["data"].get("embeds"), answer
                assert ("Not your turn" if wrong in players else "not playing") in words
            await settle(fd)
            assert table_now(fd) == table and len(fd.calls) == calls + len(wrongs)  # nothing else was sent
            # Join pressed on the lobby once the game has begun (a phone that had not redrawn it)
            lobby = fd.messages(CHANNEL)[0]
            late = await fd.forge(stranger, lobby, "bn:lobby:1:join", carried=True)
            assert said((await late.wait_response())["data"]) == (
                "This lobby has closed: its game has started. Watch it here, or open a thread and start "
                "another there with `/knucklebones new`.")
            await settle(fd)
            calls = len(fd.calls)

            custom_id = action_buttons(fd, table)[0]["custom_id"]
            first = await fd.click(current, table, custom_id)
            second = await fd.click(current, table, custom_id)
            answers = [await first.wait_response(), await second.wait_response()]
            assert sorted(a["type"] for a in answers) == [4, 7]
            refused = next(a for a in answers if a["type"] == 4)
            # the second press finds the message it pressed already redrawn: no link to itself
            assert refused["data"]["content"] == "That moment has passed: the table shows the game as it is now."
            assert not refused["data"].get("embeds")
            await settle(fd)
            # once the turn has passed, the old table is a line of history; a client that still
            # shows its buttons gets an answer, never a failure
            for _ in range(30):
                if table_now(fd)["id"] != table["id"]:
                    break
                await click_once(fd, players)
            stale = await (await fd.click(current, table, custom_id, as_seen=True)).wait_response()
            assert stale["data"]["flags"] & 64 and "moment has passed" in stale["data"]["content"]
            live = table_now(fd)["id"]  # a short masked jump link to the live table, not a copy
            link = f"https://discord.com/channels/{fd.guild_id}/{fd.channel(CHANNEL).id}/{live}"
            assert stale["data"]["content"] == f"That moment has passed; here is [the live table]({link}).", stale
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert len([ln for ln in said(log).splitlines() if ln.strip()]) >= 1
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
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        async with running_bot(fd, {}, db) as second:
            # the message posted by the killed process; its buttons still act
            before = len(fd.calls)
            after = await click_once(fd, players)
            # the old process's message answered the click (edited in place, or shrunk to
            # history with the next player's table below it)
            assert any(c["path"].startswith("/interactions/") and c["status"] in (200, 204) for c in fd.calls[before:])
            old = fd.message(table["id"])
            assert after["id"] == table["id"] or (not is_table(old) and not fd.buttons(old))
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
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in said(m)), None),
                timeout=6,
            )
            assert late.name.title() in top(notice)
            assert notice["id"] != table["id"]  # a new message: the next player is pinged
            # the old table shrinks to a line of history right after the new one is posted
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the old table to lose its buttons")
            assert not is_table(fd.message(table["id"]))
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert "scored" in said(log)
        clean(fd, bot)


async def test_ai_seat_plays_its_turns(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, ann, [], bots=2)
            final = await play_to_end(fd, [ann])
            text = said(final)
            assert "Bot 1" in text and "Bot 2" in text
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            assert "Bot 1" in said(log)
        clean(fd, bot)


async def test_game_log_pages_the_whole_game_and_opens_on_the_newest(tmp_path: Path) -> None:
    """/game log: a screen of the latest moves first, then every move of a finished game a phone
    screen a page, oldest first, each page a choice of its menu."""
    import sqlite3

    db = tmp_path / "kb.sqlite3"
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, db) as bot:
            await open_table(fd, ann, [], bots=2)
            await play_to_end(fd, [ann])
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            menu = [m for m in fd.selects(log) if m["custom_id"].startswith("bn:page:")]
            assert log["flags"] & 64 and menu, "a whole game takes more than one page"
            options = menu[0]["options"]
            count = len(options)
            assert top(log).startswith(f"### Latest moves  ·  page 1 of {count}") and options[0].get("default")
            pages = {0: said(log)}
            for option in options[1:]:
                turned = await (await fd.select(ann, log, menu[0]["custom_id"], [option["value"]])).wait_response()
                assert turned["type"] == 7, turned
                pages[int(option["value"])] = said(turned["data"])
                assert top(turned["data"]).startswith(f"### {option['label']}"), (option, top(turned["data"]))
            texts = [pages[i] for i in range(count)]
            assert all(len(text) <= 1000 for text in texts), [len(text) for text in texts]
            assert texts[1].splitlines()[1].startswith("**Turn 1**"), texts[1]
            assert "Every score sheet is full" in texts[0] and "Every score sheet is full" in texts[-1]
            # every event the game logged, once and in order, across the pages after the latest
            shown = [line for text in texts[1:] for line in text.splitlines() if line.startswith("· ")]
            with sqlite3.connect(db) as conn:
                logged = [e for (events,) in conn.execute("SELECT events FROM actions ORDER BY version")
                          for e in json.loads(events) if not e.startswith("\u241e")]
            assert [line.removeprefix("· ") for line in shown] == logged
        clean(fd, bot)


async def test_busy_channel_and_bad_input(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            again = await fd.slash(bob, CHANNEL, "knucklebones new")
            answer = await again.wait_response()
            assert answer["data"]["flags"] & 64 and "already has a game" in answer["data"]["content"]
            link = f"https://discord.com/channels/{fd.guild_id}/{fd.channel(CHANNEL).id}/{lobby['id']}"
            assert f"waiting in [its lobby]({link})." in answer["data"]["content"]
            # only the host starts; one player is not enough
            for user, label, words in ((bob, "Start", "Only the host"), (ann, "Start", "at least 2 players: wait for "
                                                                                   "someone to press **Join**")):
                it = await fd.click(user, lobby, button(fd, lobby, label))
                reply = await it.wait_response()
                assert reply["data"]["flags"] & 64 and words in reply["data"]["content"], reply
            status = await fd.slash(bob, "general", "game status")
            assert "no game" in (await status.wait_response())["data"]["content"]
            end = await fd.slash(bob, CHANNEL, "game end")
            assert "Only the host" in (await end.wait_response())["data"]["content"]
            end = await fd.slash(ann, CHANNEL, "game end")
            confirm = await end.response_message()
            # a lobby never started: it is closed, not "ended early"
            assert confirm["content"].startswith("Close the lobby for everyone?")
            done = await fd.click(ann, confirm, button(fd, confirm, "Close the lobby"))
            assert said((await done.wait_response())["data"]) == "The lobby was closed."
            await fd.wait_until(lambda: "Ann closed the lobby; no game was played." in said(fd.message(lobby["id"])),
                                timeout=3, what="the lobby to say it was closed")
            closed = said(fd.message(lobby["id"]))
            assert "lobby cancelled" in closed and "ended before it finished" not in closed, closed
            # a Join pressed late, on the lobby as a phone still shows it, has a way forward
            late = await fd.click(bob, lobby, button(fd, lobby, "Join"), as_seen=True)
            assert said((await late.wait_response())["data"]) == \
                "This lobby has closed. Start a new game with `/knucklebones new`."
            again = await fd.slash(bob, CHANNEL, "knucklebones new")
            assert (await again.wait_response())["type"] == 4  # the channel is free again
        clean(fd, bot)


async def test_the_question_that_ends_a_game_has_a_way_back(tmp_path: Path) -> None:
    """/game end asks first; its other button leaves the game as it was."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_table(fd, ann, [bob])
            ask = await (await fd.slash(ann, CHANNEL, "game end")).response_message()
            assert [b["label"] for b in fd.buttons(ask)] == ["End the game", "Keep playing"]
            kept = await (await fd.click(ann, ask, button(fd, ask, "Keep playing"))).wait_response()
            assert kept["type"] == 7 and said(kept["data"]) == "Nothing changed: the game goes on."
            assert not fd.buttons(kept["data"])
            await settle(fd)
            assert table_now(fd)["id"] == table["id"] and action_buttons(fd, table_now(fd))
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
                return next(m for m in reversed(fd.messages(CHANNEL)) if is_table(m))

            table = await fd.wait_until(
                lambda: "paused" in top(the_table()) and the_table(), timeout=3,
                what="the table to say it is paused")
            assert action_buttons(fd, table) == []
            before = (table["id"], said(table))
            # no moves while paused, not even a leaver's seat played by a bot
            stay = await (await fd.slash(players[1], CHANNEL, "game leave")).wait_response()
            assert stay["data"]["flags"] & 64 and "from here once the host resumes it" in stay["data"]["content"]
            await asyncio.sleep(2.5)  # well past the 1 s turn timer
            assert not any("Time ran out" in said(m) for m in fd.messages(CHANNEL))
            assert the_table()["id"] == before[0] and "paused" in top(the_table())
            await (await fd.slash(players[0], CHANNEL, "game resume")).wait_response()
            await fd.wait_until(
                lambda: any("Time ran out" in said(m) for m in fd.messages(CHANNEL)),
                timeout=6, what="the timer to run again after resume")
        clean(fd, bot)


async def test_the_table_is_edited_while_recent_and_posted_again_once_it_scrolled_away(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            # one intent and no more: servers. Not their messages: a click says what scrolled a table away
            assert {s.intents for s in fd._sessions} == {GUILDS}
            table = await open_table(fd, players[0], players[1:])
            # a click within a turn (a rune decision) on a recent table edits it in place
            for _ in range(50):
                if action_buttons(fd, table)[0]["label"].startswith("Keep"):
                    break
                await click_once(fd, players, pick=0)
                table = table_now(fd)
            else:
                raise AssertionError("no rune decision came up")
            edited = await click_once(fd, players, pick=0)
            if edited["id"] != table["id"]:  # that decision ended the turn; try the next one
                assert not is_table(fd.message(table["id"]))
            table = edited
            for n in range(4):  # the table scrolls away under the chat
                await fd.post_user_message(players[n % 2], CHANNEL, f"chatter {n}")
            choices = action_buttons(fd, edited)
            it = await fd.click(actor(edited, players), edited, choices[-1]["custom_id"])
            assert (await it.wait_response())["type"] == 7
            fresh = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and is_table(m) and m["id"] != table["id"] and m,
                timeout=3, what="a fresh table at the bottom")
            assert action_buttons(fd, fresh)
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the scrolled-away table to lose its buttons")
        clean(fd, bot)


async def test_a_lobby_scrolled_away_comes_back_below_when_it_changes(tmp_path: Path) -> None:
    """A lobby is a table too: while it is among the newest messages, a press edits it in
    place; once chat has scrolled it away, a press, or a command that changes it, posts it again
    as the newest message, and the old one says where it went and keeps no buttons."""
    async with running_fake() as fd:
        ann, bob, cy = (fd.add_user(n) for n in ("ann", "bob", "cy"))
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            answer = await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            assert answer["type"] == 7 and lobby_seats(answer["data"])[-1].endswith("Bob"), "edited in place"

            async def chatter() -> None:
                await settle(fd)  # the lobby's post is done: what follows is chat since it
                for n in range(4):
                    await fd.post_user_message(ann, CHANNEL, f"chatter {n}")

            await chatter()
            answer = await (await fd.click(cy, lobby, button(fd, lobby, "Join"))).wait_response()
            assert answer["type"] == 7 and said(answer["data"]) == "The lobby moved below."
            fresh = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and is_table(m) and m["id"] != lobby["id"] and m,
                timeout=3, what="the lobby posted again below")
            assert [s.split(". ", 1)[1] for s in lobby_seats(fresh)] == ["Ann (host)", "Bob", "Cy"]
            assert button(fd, fresh, "Start") and fd.buttons(fd.message(lobby["id"])) == []

            await chatter()
            left = await (await fd.slash(cy, CHANNEL, "game leave")).wait_response()
            assert "Cy left the lobby" in left["data"]["content"]
            newest = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and is_table(m) and m["id"] != fresh["id"] and m,
                timeout=3, what="the lobby posted again below after a command")
            assert len(lobby_seats(newest)) == 2
            await fd.wait_until(lambda: said(fd.message(fresh["id"])) == "The lobby moved below.", timeout=3,
                                what="the old lobby to say where it went")
            assert fd.buttons(fd.message(fresh["id"])) == []

            # the new lobby is recent: a press edits it where it is, and the game starts from it
            await (await fd.click(cy, newest, button(fd, newest, "Join"))).wait_response()
            assert fd.last_message(CHANNEL)["id"] == newest["id"] and len(lobby_seats(fd.message(newest["id"]))) == 3
            await (await fd.click(ann, newest, button(fd, newest, "Start"))).wait_response()
            assert action_buttons(fd, await next_table(fd, CHANNEL))
        clean(fd, bot)


def _reads(fd: FakeDiscord, since: int) -> int:
    """The bot's reads of a channel's messages since the call ``since``."""
    return sum(c["method"] == "GET" and c["path"].endswith("/messages") for c in fd.calls[since:])


async def _moved_below(fd: FakeDiscord, who: FakeUser, lobby: dict, label: str) -> dict:
    """A press on a lobby chat has scrolled away: the pressed one says where it went, and the
    lobby is the newest message again; that one."""
    answer = await (await fd.click(who, lobby, button(fd, lobby, label))).wait_response()
    assert answer["type"] == 7 and said(answer["data"]) == "The lobby moved below."
    return await fd.wait_until(
        lambda: (m := fd.last_message(CHANNEL)) is not None and is_table(m) and m["id"] != lobby["id"] and m,
        timeout=3, what="the lobby posted again below")


async def _edited_in_place(fd: FakeDiscord, who: FakeUser, lobby: dict, label: str, seats: int) -> None:
    """A press on a lobby still counted as recent: it is edited where it is, nothing posted."""
    before = len(fd.messages(CHANNEL))
    answer = await (await fd.click(who, lobby, button(fd, lobby, label))).wait_response()
    assert answer["type"] == 7 and len(lobby_seats(answer["data"])) == seats
    await settle(fd)
    assert len(fd.messages(CHANNEL)) == before, "edited where it is"


async def test_whatever_is_posted_below_a_lobby_scrolls_it_away_and_a_restart_asks_discord(tmp_path: Path) -> None:
    """Four messages below a lobby scroll it away, whoever wrote them: a /roll's answer (this
    bot's own) counts as a player's line does. A new process has not seen what came while the
    bot was down: the first change to a lobby it did not post asks Discord, once, what lies
    below. Should Discord not say, the lobby counts as recent, and the press is answered in time."""
    db = tmp_path / "kb.sqlite3"
    async with running_fake() as fd:
        ann, bob, cy = (fd.add_user(n) for n in ("ann", "bob", "cy"))
        async with running_bot(fd, {}, db) as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await settle(fd)
        clean(fd, bot)
        for n in range(2):
            await fd.post_user_message(ann, CHANNEL, f"chatter while the bot was away {n}")
        async with running_bot(fd, {}, db) as bot:
            asked = len(fd.calls)
            await _edited_in_place(fd, cy, lobby, "Join", 3)  # two lines below: recent
            assert _reads(fd, asked) == 1
            roll = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d6"})).wait_response()
            assert roll["type"] == 4 and not roll["data"].get("flags", 0) & 64  # a public answer, below the lobby
            await settle(fd)
            await _edited_in_place(fd, cy, lobby, "Leave", 2)  # three below
            # asked again once a press names a newer message than the last heard of (the roll's)
            assert _reads(fd, asked) == 2
            await _edited_in_place(fd, cy, lobby, "Join", 3)
            await _edited_in_place(fd, cy, lobby, "Leave", 2)
            assert _reads(fd, asked) == 2, "nothing new below: nothing asked"
        clean(fd, bot)
        await fd.post_user_message(bob, CHANNEL, "one more line while the bot was away")
        async with running_bot(fd, {}, db) as bot:
            asked = len(fd.calls)
            # two lines, the roll and one more line: four below, the roll counted by Discord's answer too
            fresh = await _moved_below(fd, cy, lobby, "Join")
            assert [s.split(". ", 1)[1] for s in lobby_seats(fresh)] == ["Ann (host)", "Bob", "Cy"]
            assert _reads(fd, asked) == 1
            # the lobby posted by this process: what came below it is asked once a press names it
            await settle(fd)  # the lobby's post is done: what follows is below it
            for n in range(3):
                await fd.post_user_message(bob, CHANNEL, f"chatter {n}")
            await (await fd.slash(bob, CHANNEL, "roll", {"expression": "2d6"})).wait_response()
            await settle(fd)
            newest = await _moved_below(fd, cy, fresh, "Leave")  # the roll counted, as a player's line is
            assert len(lobby_seats(newest)) == 2 and _reads(fd, asked) == 2
        clean(fd, bot)
        # Discord's servers fail the question: the lobby counts as recent, the press is answered in time
        for n in range(4):
            await fd.post_user_message(ann, CHANNEL, f"more chatter {n}")
        fd.fail("GET", r"^/channels/\d+/messages$", 503, times=None)
        async with running_bot(fd, {}, db) as bot:
            await _edited_in_place(fd, cy, newest, "Join", 3)
        fd.clear_faults()
        clean(fd, bot)


async def test_a_step_stored_but_never_shown_is_shown_at_the_next_click(tmp_path: Path) -> None:
    """The process stops after storing a step and before showing it: the channel's table still
    offers the moment before. Its next click says so in one private line and posts the table as
    the game stands, pinging whoever must act, and the game plays on from there."""
    db = tmp_path / "kb.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, db) as first:
            await open_table(fd, players[0], players[1:])
            await click_once(fd, players)
            table = table_now(fd)
            who, custom_id = actor(table, players), action_buttons(fd, table)[-1]["custom_id"]
        clean(fd, first)
        acting = players[await play.store_a_step_never_shown(db, fd.channel(CHANNEL).id)]
        async with running_bot(fd, {}, db) as second:
            since = len(fd.calls)
            answer = await (await fd.click(who, table, custom_id)).wait_response()
            assert answer["data"]["flags"] & 64 and "fallen behind" in answer["data"]["content"], answer
            # the new table, once posted (its picture is drawn first, which a busy machine makes slow)
            await fd.wait_until(lambda: (m := live_table(fd, CHANNEL)) is not None and m["id"] != table["id"],
                                timeout=10, what="the table posted again")
            fresh = await next_table(fd, CHANNEL)
            old = fd.message(table["id"])
            assert fresh["id"] != table["id"] and not is_table(old) and not fd.buttons(old)
            assert actor(fresh, players) == acting
            await settle(fd)
            assert channel.pinged(fd, since, fd.channel(CHANNEL).id) == {acting.id}
            final = await play_to_end(fd, players)
            assert finished(final)
        clean(fd, second)
