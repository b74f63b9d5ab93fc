"""Bone Duel end to end: the real bot against the fake Discord, played only by clicking what the
bot rendered."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import Audit, actor, clean, finished, is_table, live_table, lobby_seats, next_table, said, settle, texts, top
from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "games"


def lanes(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


async def open_duel(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], options: dict | None = None,
                    bots: int = 0) -> dict:
    return await play.open_table(fd, CHANNEL, "bone-duel new", host, others, bots, options)


async def click_once(fd: FakeDiscord, players: list[FakeUser], audit: Audit | None = None) -> dict:
    return await play.click_once(fd, CHANNEL, players, lambda options: options[0], audit=audit, shows_dice=True)


async def play_to_end(fd: FakeDiscord, players: list[FakeUser], audit: Audit | None = None) -> dict:
    return await play.play_to_end(fd, CHANNEL, lambda _: click_once(fd, players, audit), limit=80)


async def test_two_friends_play_a_duel_on_their_phones(tmp_path: Path) -> None:
    """A whole duel by clicks: every turn pings the player who must place, each table shows both
    grids as a picture and three row buttons, named as the picture's rows, that say what they
    would score, and the end names the winner."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "duel.sqlite3") as bot:
            table = await open_duel(fd, players[0], players[1:])
            assert "Ann" in said(table) and "Bob" in said(table)
            assert "attachment://duel.png" in json.dumps(table["components"])
            # the die to place is in the question, and the picture (its words say so) names both
            die = re.search(r"you rolled a \*\*(\d)\*\*", top(table))
            assert die is not None
            alt = json.dumps(table["components"])
            assert f"has a {die.group(1)} to place" in alt and "Ann:" in alt and "Bob:" in alt
            labels = [b["label"] for b in lanes(fd, table)]
            assert [label.split(":")[0] for label in labels] == ["Top", "Middle", "Bottom"]
            assert all("+" in label for label in labels), labels
            audit = Audit(fd, CHANNEL)
            audit.look({actor(table, players).id})
            final = await play_to_end(fd, players, audit)
            assert finished(final)
            assert "Final standings" in said(final) and "points" in said(final)
            assert said(final).count("🏆") == 1  # the winner is named once
            # each turn became a line of history that says what was placed; the table below
            # it never repeats that
            lines = [said(m) for m in fd.messages(CHANNEL) if not is_table(m)][1:]  # the lobby first
            assert len(lines) >= 9 and all(re.match(r"\S.* put a \d in the (top|middle|bottom) row", line) for line in lines), lines
            assert not any("put a" in said(m) for m in fd.messages(CHANNEL) if is_table(m))
            assert audit.unnotified == [] and audit.missing_pictures == [] and audit.busy_steps == []
            assert audit.turn_changes >= 9  # nine placements each at least; knock-outs make more
            audit.assert_targets(median=500, most=700)
        clean(fd, bot)


async def test_a_best_of_three_match_against_the_bot(tmp_path: Path) -> None:
    """One player against the bot, a match: the loser of a game starts the next, the table says
    which game it is, the first table of the next game shows how the last one ended (its final
    grids, with the totals its headline gives), and the match ends when someone has won two."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "duel.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "bone-duel new",
                                          {"vs_bot": True, "best_of_three": True})).response_message()
            assert "2. Bot 1" in lobby_seats(lobby)
            await (await fd.click(ann, lobby, next(b["custom_id"] for b in fd.buttons(lobby)
                                                    if b["label"] == "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            games_seen: set[str] = set()
            ends_shown = 0
            for _ in range(120):
                await settle(fd)
                table = live_table(fd, CHANNEL)
                assert table is not None
                if finished(table):
                    break
                title = texts(table)[1].splitlines()[0]
                if title not in games_seen and title != "### Bone Duel · game 1":
                    # a new game's first table: the last game's grids, their totals as its headline
                    ended = int(title.rsplit(" ", 1)[1]) - 1
                    alt = json.dumps(table["components"])
                    assert f"Game {ended} ended: Ann: top " in alt and f"Game {ended + 1}: Ann: top empty" in alt, alt
                    news = re.search(rf"wins game {ended}, (\d+) to (\d+)|Game {ended} is a draw, (\d+) to (\d+)",
                                     said(table))
                    assert news is not None, said(table)
                    a, b = (int(n) for n in news.groups() if n is not None)
                    shown = [int(n) for n in re.findall(r"total (\d+)\.", alt.split(f"Game {ended + 1}:")[0])]
                    assert sorted(shown) == sorted((a, b)), (shown, a, b)
                    ends_shown += 1
                games_seen.add(title)
                await click_once(fd, [ann])
            table = live_table(fd, CHANNEL)
            assert table is not None and finished(table)
            assert "match is over" in said(table) and said(table).count("🏆") == 1
            assert {"### Bone Duel · game 1", "### Bone Duel · game 2"} <= games_seen, games_seen
            assert ends_shown == len(games_seen) - 1 >= 1
        clean(fd, bot)


async def test_sigkill_mid_duel_and_the_old_buttons_still_work(tmp_path: Path) -> None:
    db = tmp_path / "duel.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        first = await BotProcess(fd, {}, db).start()
        try:
            await open_duel(fd, players[0], players[1:])
            for _ in range(3):
                await click_once(fd, players)
            table = live_table(fd, CHANNEL)
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        async with running_bot(fd, {}, db) as second:
            assert table is not None
            it = await fd.click(actor(table, players), table, lanes(fd, table)[0]["custom_id"])
            assert (await it.wait_response())["type"] == 7  # the killed process's buttons still act
            await settle(fd)
            final = await play_to_end(fd, players)
            assert finished(final)
        clean(fd, second)
        assert first.error_records() == []


async def test_time_running_out_places_the_die_in_the_topmost_row_with_room(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "duel.sqlite3") as bot:
            table = await open_duel(fd, players[0], players[1:])
            late = actor(table, players)
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in said(m)), None),
                timeout=6)
            assert late.name.title() in top(notice)
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert "the die goes into the topmost row with room" in said(log)
        clean(fd, bot)
