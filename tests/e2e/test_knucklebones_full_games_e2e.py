"""Knucklebones played through as a table of friends would: two players, the most players a
table seats (bots filling it), and a player whose timer keeps running out.

Each game is played only by clicking what the bot rendered, to its end: the final table names
the winner with their points and offers a rematch.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.channel import clean, finished, said, top
from tests.e2e.test_knucklebones_e2e import history, open_table, play_to_end, table_now
from tests.fakediscord import FakeDiscord, running_bot, running_fake


def assert_final(fd: FakeDiscord, final: dict, names: list[str]) -> None:
    assert finished(final)
    assert re.search(r"(wins|share the win) with \d+ points", top(final)), top(final)
    assert "Final standings" in said(final)
    assert all(name in said(final) for name in names), said(final)
    assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]


async def test_two_players_play_a_whole_game(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, players[0], players[1:])
            final = await play_to_end(fd, players)
            assert_final(fd, final, ["Ann", "Bob"])
            assert sum("scored" in line for line in history(fd)) >= 13
        clean(fd, bot)


async def test_a_full_table_of_six_with_bots_plays_to_the_end(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, players[0], players[1:], bots=4)
            final = await play_to_end(fd, players)
            assert_final(fd, final, ["Ann", "Bob", "Bot 1", "Bot 4"])
        clean(fd, bot)


async def test_a_player_whose_timer_runs_out_every_turn_still_finishes(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "kb.sqlite3") as bot:
            await open_table(fd, ann, [], bots=1)
            final = await fd.wait_until(lambda: next(iter([t for t in [table_now(fd)] if finished(t)]), None),
                                        timeout=60, what="the game to end on timeouts")
            assert_final(fd, final, ["Ann", "Bot 1"])
            # each of Ann's turns is told in the history as what her timer scored for her
            lines = history(fd)
            timed = sum(line.count("Ann ran out of time and scored ") for line in lines)
            assert timed >= 6 and not any("default item" in line for line in lines), lines
        clean(fd, bot)
