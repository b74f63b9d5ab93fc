"""Rattlebones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered (a button, or the select the host makes of a
long list). Every test ends by checking that the fake saw no late or invalid answer, no unknown
route, and that the bot logged no ERROR.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import Audit, actor, button, clean, finished, is_layout, is_table, live_table, said, top
from tests.e2e.play import Choice
from tests.fakediscord import (
    BotProcess,
    FakeDiscord,
    FakeUser,
    running_bot,
    running_fake,
)

CHANNEL = "games"
PNG = b"\x89PNG\r\n\x1a\n"


def table_now(fd: FakeDiscord) -> dict:
    message = live_table(fd, CHANNEL)
    assert message is not None
    return message


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], bots: int = 0,
                     options: dict | None = None) -> dict:
    return await play.open_table(fd, CHANNEL, "rattlebones new", host, others, bots, options)


async def click_once(fd: FakeDiscord, players: list[FakeUser], rng: random.Random,
                     audit: Audit | None = None, stats: dict[str, int] | None = None) -> dict:
    """The prompted player picks one of the rendered choices; returns the table afterwards."""
    def pick(options: list[Choice]) -> Choice:
        chosen = rng.choice(options)
        if stats is not None and chosen[1] is not None:
            stats["selects"] = stats.get("selects", 0) + 1
        return chosen

    after = await play.click_once(fd, CHANNEL, players, pick, audit=audit, shows_dice=True)
    if stats is not None:
        names = [name for name, _ in fd.attachments(after)]
        assert len(names) == 1, names  # the board and the dice replace each other, never pile up
        stats[names[0]] = stats.get(names[0], 0) + 1
    return after


async def play_to_end(fd: FakeDiscord, players: list[FakeUser], rng: random.Random, limit: int = 600,
                      audit: Audit | None = None, stats: dict[str, int] | None = None) -> dict:
    if audit is not None:
        audit.look({actor(table_now(fd), players).id}, shows_dice=True)
    return await play.play_to_end(fd, CHANNEL, lambda _: click_once(fd, players, rng, audit, stats), limit=limit)


async def test_three_players_race_to_the_end(tmp_path: Path) -> None:
    """Two people and an AI seat; a train worth 20 everywhere keeps the race short."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "rb.sqlite3") as bot:
            rules = await (await fd.slash(players[0], CHANNEL, "rattlebones rules")).wait_response()
            assert "Rattlebones" in json.dumps(rules)
            bad = await (await fd.slash(players[0], CHANNEL, "rattlebones new", {"train_values": "1,x"})
                         ).wait_response()
            assert bad["data"]["flags"] & 64 and "train track" in bad["data"]["content"]
            table = await open_table(fd, players[0], players[1:], bots=1,
                                     options={"train_values": "20,20,20,20,20,20,20,20"})
            text = said(table)
            assert "Ann" in text and "Bob" in text and "Bot 1" in text and is_layout(table)
            assert "Rattlebones is on **60**" in text  # 3 players: Rattlebones waits on 60
            # the first player is asked which die to throw beside their dice, in words and as the picture
            first = actor(table, players).name.title()
            assert f"**{first}'s dice**" in text and "Die 3: Rattlebones, 2 pips" in text
            assert "attachment://dice.png" in json.dumps(table["components"])
            audit = Audit(fd, CHANNEL)
            stats: dict[str, int] = {}
            final = await play_to_end(fd, players, random.Random(3), audit=audit, stats=stats)
            assert audit.turn_changes >= 10
            audit.assert_targets(median=700, most=1000)
            # the dice while throwing or changing a side, the board while monkeys moved
            assert stats.get("board.png", 0) > 10 and stats.get("dice.png", 0) > 10, stats
            ending = said(final)
            assert "Game over" in ending and "attachment://board.png" in json.dumps(final["components"])
            assert "🏆" in top(final) and ("🏆 <@" in top(final) or "Bot 1 wins" in top(final))
            assert ending.count(" wins") == 1  # the winner is named once
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]
            # Details: every player's dice in words and as pictures, privately, a page each
            asked = await fd.click(players[1], final, button(fd, final, "Details"))
            answer = await asked.wait_response()
            assert answer["data"]["flags"] & 64
            private = await asked.response_message()
            menu = fd.selects(private)[0]
            pages = {o["label"]: o["value"] for o in menu["options"]}
            # Bob asked: his own dice are "Your dice"
            assert {"Ann's dice", "Your dice", "Bot 1's dice", "The board"} <= set(pages), pages
            for name, title in (("Ann", "Ann's dice"), ("Bob", "Your dice"), ("Bot 1", "Bot 1's dice")):
                turned = await fd.select(players[1], private, menu["custom_id"], [pages[title]])
                await turned.wait_response()
                page = fd.message(private["id"]) or {}
                shown = said(page)
                assert (f"**{name}**" in shown or title == "Your dice") and title in shown, shown
                assert shown.count("Die 3: Rattlebones") == 1
                pictures = [data for _, data in fd.attachments(page)]
                assert len(pictures) == 1 and pictures[0].startswith(PNG)
            lines = [said(m) for m in fd.messages(CHANNEL) if not is_table(m) and said(m).startswith("**Turn ")]
            assert len(lines) >= 10 and all(len(line) <= 400 for line in lines)
            assert all(" · " in line for line in lines)  # never only the turn's number
        clean(fd, bot)


async def test_sigkill_mid_turn_and_the_old_buttons_still_work(tmp_path: Path) -> None:
    db = tmp_path / "rb.sqlite3"
    rng = random.Random(5)
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        first = await BotProcess(fd, {}, db).start()
        try:
            await open_table(fd, players[0], players[1:], options={"board": "compact8"})
            for _ in range(40):  # until a turn is under way: its dice are thrown
                await click_once(fd, players, rng)
                if "Rolled this turn" in said(table_now(fd)):
                    break
            else:
                raise AssertionError("no turn got under way")
            table = table_now(fd)
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        async with running_bot(fd, {}, db) as second:
            before = len(fd.calls)
            await click_once(fd, players, rng)
            assert any(c["path"].startswith("/interactions/") and c["status"] in (200, 204) for c in fd.calls[before:])
            assert table_now(fd)["id"] == table["id"] or fd.buttons(fd.message(table["id"]) or {}) == []
            # the game goes on from where it stood: two more changes of turn, each leaving a line of history

            def turns() -> int:
                return sum(said(m).startswith("**Turn ") for m in fd.messages(CHANNEL) if not is_table(m))

            start, changes = turns(), 0
            for _ in range(60):
                now = table_now(fd)
                if finished(now):
                    break
                changes = turns() - start
                if changes >= 2:
                    break
                await click_once(fd, players, rng)
            assert changes >= 2 or finished(table_now(fd))
        clean(fd, second)
        assert first.error_records() == []


async def test_turn_timer_plays_the_default(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "rb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            late = actor(table, players)
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in top(m)), None),
                timeout=6,
            )
            assert late.name.title() in top(notice)
            assert notice["id"] != table["id"]  # a new message: the next player is pinged
            assert actor(notice, players) is not late
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the old table to lose its buttons")
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert "ran out of time" in said(log)
        clean(fd, bot)


async def test_a_first_timer_reads_why_what_and_what_happened(tmp_path: Path) -> None:
    """Review of first-time players on phones: the first table said only "Choose a die to
    roll."; a side on offer never said what it does; a turn that paid 1 gold to roll two dice
    left a line of history without the gold or one of the dice."""
    rng = random.Random(4)
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"GAME_SEED": "5"}, tmp_path / "rb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            assert top(table).endswith("Choose a die to roll. Its pips move a monkey; where it lands, "
                                       "you may give that die the space's side.")
            offers = 0

            def pick(options: list[Choice]) -> Choice:
                """Pay for two dice whenever there is gold; else anything."""
                labels = {b["custom_id"]: b["label"] for b in fd.buttons(table_now(fd))}
                paid = [o for o in options if labels.get(o[0], "").startswith("Pay 1 gold")]
                return paid[0] if paid else rng.choice(options)

            def paid_lines() -> list[str]:
                return [said(m) for m in fd.messages(CHANNEL) if not is_table(m) and " pays 1 gold: " in said(m)]

            for _ in range(300):
                now = table_now(fd)
                if paid_lines() or finished(now):
                    break
                if "On offer: a new **" in said(now):
                    offers += 1
                    assert "\nWhen rolled, it will " in said(now), said(now)
                await play.click_once(fd, CHANNEL, players, pick)
            assert offers and paid_lines(), "no turn paid for two dice"
            line = paid_lines()[0]
            # the gold, and each of the two dice with what it did
            assert len(re.findall(r"\bdie \d \([^)]+\) ", line)) >= 2 and len(line) <= 400, line
            # later turns no longer explain the roll
            assert "Its pips move a monkey" not in top(table_now(fd))
        clean(fd, bot)
