"""Rattlebones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered (a button, or the select the host makes of a
long list). Every test ends by checking that the fake saw no late or invalid answer, no unknown
route, and that the bot logged no ERROR.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import Audit, actor, button, clean, finished, live_table
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
            text = json.dumps(table["embeds"])
            assert "Ann" in text and "Bob" in text and "Bot 1" in text and "attachment://board.png" in text
            assert "(started on 60)" in text  # 3 players: Rattlebones waits on 60
            audit = Audit(fd, CHANNEL)
            stats: dict[str, int] = {}
            final = await play_to_end(fd, players, random.Random(3), audit=audit, stats=stats)
            assert audit.turn_changes >= 10
            audit.assert_targets(median=700, most=1000)
            # the board on most tables, the dice while a side was being chosen
            assert stats.get("board.png", 0) > 10 and stats.get("dice.png", 0) >= 1, stats
            assert "game over" in json.dumps(final["embeds"])
            assert "🏆" in final["content"] and ("🏆 <@" in final["content"] or "Bot 1 wins" in final["content"])
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]
            # Details: every player's dice in words and as pictures, privately
            asked = await fd.click(players[1], final, button(fd, final, "Details"))
            answer = await asked.wait_response()
            assert answer["data"]["flags"] & 64
            shown = json.dumps(answer["data"]["embeds"])
            assert all(n in shown for n in ("Ann", "Bob", "Bot 1")) and shown.count("Die 3: RB") == 3
            private = await asked.response_message()
            pictures = [data for _, data in fd.attachments(private)]
            assert len(pictures) == 3 and all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pictures)
            assert sum("attachment://dice-" in json.dumps(e) for e in private["embeds"]) == 3
            lines = [m["content"] for m in fd.messages(CHANNEL) if not m["embeds"]
                     and (m.get("content") or "").startswith("**Turn ")]
            assert len(lines) >= 10 and all(len(line) <= 400 for line in lines)
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
                if "Thrown:" in json.dumps(table_now(fd)["embeds"]):
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
            assert any(c["path"].startswith("/interactions/") and c["status"] == 200 for c in fd.calls[before:])
            assert table_now(fd)["id"] == table["id"] or fd.message(table["id"])["components"] == []
            # the game goes on from where it stood: two more changes of turn
            turn = json.loads(json.dumps(table_now(fd)["embeds"]))[0]["title"]
            changes = 0
            for _ in range(60):
                now = table_now(fd)
                if finished(now):
                    break
                if now["embeds"][0]["title"] != turn:
                    turn, changes = now["embeds"][0]["title"], changes + 1
                    if changes == 2:
                        break
                await click_once(fd, players, rng)
            assert changes == 2 or finished(table_now(fd))
        clean(fd, second)
        assert first.error_records() == []


async def test_turn_timer_plays_the_default(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "rb.sqlite3") as bot:
            table = await open_table(fd, players[0], players[1:])
            late = actor(table, players)
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in (m.get("content") or "")), None),
                timeout=6,
            )
            assert late.name.title() in notice["content"]
            assert notice["id"] != table["id"]  # a new message: the next player is pinged
            assert actor(notice, players) is not late
            await fd.wait_until(lambda: fd.buttons(fd.message(table["id"])) == [], timeout=3,
                                what="the old table to lose its buttons")
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert "ran out of time" in log["embeds"][0]["description"]
        clean(fd, bot)
