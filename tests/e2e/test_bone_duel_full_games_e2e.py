"""Bone Duel played through as its players read it: a match against the bot from the lobby's
rules to the last game, every line of history read back."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.channel import button, clean, finished, is_table, live_table, next_table, read_pages, said, settle
from tests.e2e.test_bone_duel_e2e import CHANNEL, click_once
from tests.fakediscord import running_bot, running_fake


async def test_a_match_against_the_bot_says_why_it_played_and_how_each_game_ended(tmp_path: Path) -> None:
    """The rules open on How to play and page through whole screens; the bot's placements say
    what they were after; each game's end stays in the history with why it ended and who won;
    the match ends with its games and one winner."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "duel.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "bone-duel new",
                                          {"vs_bot": True, "best_of_three": True})).response_message()
            rules = await (await fd.click(ann, lobby, button(fd, lobby, "How to play"))).response_message()
            pages = await read_pages(fd, ann, rules)
            assert "green gains the most" in pages[0]
            assert all(len(page) > 400 for page in pages), [len(page) for page in pages]
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            for _ in range(150):
                await settle(fd)
                table = live_table(fd, CHANNEL)
                assert table is not None
                if finished(table):
                    break
                await click_once(fd, [ann])
            table = live_table(fd, CHANNEL)
            assert table is not None and finished(table) and "match is over" in said(table)
            history = "\n".join(said(m) for m in fd.messages(CHANNEL) if not is_table(m))
            ends = re.findall(r"(Ann|Bot 1)'s grid is full, so game (\d) is over: (?:(Ann|Bot 1) wins, (\d+) to (\d+)"
                              r"|a draw at (\d+) each)", history)
            games = [int(end[1]) for end in ends]
            assert games == list(range(1, len(games) + 1)) and len(games) >= 2, history
            # the standings' games, as the history told them
            for _, game, winner, a, b, _draw in ends:
                if winner:
                    assert f"Game {game}: {winner} won, {a} to {b}" in said(table)
            assert re.search(r"Bot 1 put a (\d) in the \w+ row, (pairing their \1s|for three \1s|where Ann can never)",
                             history), history
            assert "@" not in "".join(re.findall(r"🏆[^\n]*wins game", "\n".join(said(m) for m in fd.messages(CHANNEL))))
        clean(fd, bot)
