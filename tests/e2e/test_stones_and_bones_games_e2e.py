"""Stones & Bones played whole, as a crew of friends plays it: two players, a full table of six
with bots, and a table whose timer runs out on a player who looks away. Players press only what
the bot rendered, on the table or in their DMs; every test ends with ``clean``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e.channel import Audit, button, clean, finished, next_table, said, settle, top
from tests.e2e.test_stones_and_bones_e2e import (
    CHANNEL,
    Choice,
    asked,
    choices,
    history,
    live,
    may_press,
    note_new_dms,
    press,
    private_choices,
    sealed,
)
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

ENV = {"GAME_SEED": "11", "DEFAULT_TIMER_SECONDS": "0"}


async def open_table(fd: FakeDiscord, players: list[FakeUser], bots: int, options: dict | None = None) -> None:
    host, *others = players
    lobby = await (await fd.slash(host, CHANNEL, "stones-and-bones new", options or {})).response_message()
    for p in others:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    for _ in range(bots):
        await (await fd.click(host, lobby, button(fd, lobby, "Add AI"))).wait_response()
    await (await fd.click(host, lobby, button(fd, lobby, "Start"))).wait_response()
    await next_table(fd, CHANNEL)
    await settle(fd)


def pick_public(labels: list[str], cried: bool) -> str:
    for wanted in ("Mutiny!" if not cried else "Let it be", "Ready to vote", "Keep it all", "Stay aboard"):
        if wanted in labels:
            return wanted
    return next((label for label in labels if label.startswith("Pay")), labels[0])


def timeouts(fd: FakeDiscord) -> int:
    """How often the timer ran out: each time, a new table said so (it shrinks later)."""
    return sum(1 for c in fd.calls if c["method"] == "POST" and c["path"].endswith("/messages")
               and "Time ran out" in json.dumps(c["json"]))


async def play(fd: FakeDiscord, players: list[FakeUser], audit: Audit | None, *, end_at_tide: int = 7,
               away: FakeUser | None = None, away_for: int = 0, limit: int = 2000) -> tuple[dict, dict[str, int]]:
    """Click what the bot rendered to the end: pay and throw, cry Mutiny once, ready, Yay,
    keep the coffer, stay aboard, stay at each Tide rise until ``end_at_tide``, then vote to
    end. ``away`` presses nothing until their time ran out ``away_for`` times. What happened,
    counted by kind."""
    seen: set[str] = set()
    told = {"mutiny": 0, "vote": 0, "tide": 0, "clicks": 0}
    for _ in range(limit):
        await settle(fd)
        if audit is not None:
            note_new_dms(fd, audit, players, seen)
        table = live(fd)
        if finished(table):
            if audit is not None:
                audit.look(set())
            return table, told
        who = asked(table, players)
        waiting = sealed(fd, players)
        if away is not None and timeouts(fd) < away_for:
            if who == [away] or [p for p, _ in waiting] == [away]:
                ran_out = timeouts(fd)
                await fd.wait_until(lambda: timeouts(fd) > ran_out, timeout=10, what="the timer to run out")
                continue
            who = [p for p in who if p is not away]
            waiting = [(p, dm) for p, dm in waiting if p is not away]
        elif away is not None:  # they are back: the host turns the timer off, so nobody is hurried
            answer = await (await fd.slash(players[0], CHANNEL, "game timer", {"seconds": 0})).wait_response()
            assert answer["type"] == 4, answer
            away = None
            continue
        if audit is not None:
            audit.look({p.id for p in who} | {p.id for p, _ in waiting})
        shown = [c for c in choices(fd, table) if c.owner is None or c.owner in [p.name.title() for p in who]]
        if shown and who:
            pick = pick_public([c.label for c in shown], told["mutiny"] > 0)
            told["mutiny"] += pick == "Mutiny!"
            choice = next(c for c in shown if c.label == pick)
            await press(fd, audit or Audit(fd, CHANNEL), may_press(choice, who)[0], table, choice)
            told["clicks"] += 1
            continue
        assert waiting, f"nobody can act: {said(table)}"
        for player, dm in waiting:
            offered = private_choices(fd, dm)
            labels = [c.label for c in offered]
            if "Yay (back the Mutineer)" in labels:
                told["vote"] += 1
                pick = "Yay (back the Mutineer)"
            else:
                told["tide"] += 1
                rose = re.search(r"Tide (\d+)", top(dm))
                assert rose, top(dm)
                pick = "Vote to end the game (all must agree)" if int(rose[1]) >= end_at_tide else "Stay"
            choice: Choice = next(c for c in offered if c.label == pick)
            await press(fd, audit or Audit(fd, CHANNEL), player, dm, choice)
            told["clicks"] += 1
    raise AssertionError("the game did not end")


async def test_two_players_play_a_whole_game(tmp_path: Path) -> None:
    """With two players a Sunk Stone lies on the table for the other, who is asked (to pick it
    up) while they throw next: each throw is still a table of its own that pings its roller,
    and shrinks to one line saying how it went, where one table was rewritten throw after
    throw and its line piled ten throws into one clipped line."""
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await open_table(fd, players, 0)
            audit = Audit(fd, CHANNEL)
            final, told = await play(fd, players, audit)
            audit.assert_targets()
            assert "wins with a net of" in said(final) and told["tide"] >= 2, (said(final), told)
            # friends at a plain table have the standings: no game-master's ledger, no CSV to keep
            await settle(fd)
            assert not any("The ledger" in said(m) or fd.attachments(m) and any(
                n.endswith(".csv") for n, _ in fd.attachments(m)) for m in fd.messages(CHANNEL)), said(final)
            lines = [said(m) for m in history(fd)]
            throws = [line for line in lines if re.match(r"\*\*Tide \d · Wave \d · Turn \d+\*\* · ", line)]
            assert len(throws) >= 20, lines
            for line in throws:  # one throw a line: its Sink or claim, never the next throw's
                assert len(re.findall(r"\b(sinks|claims|walks the Plank)\b", line)) == 1, line
            assert any(re.match(r"\*\*Tide \d · Wave \d · Mutiny\*\* · \w+, who won the Challenge, keeps", line)
                       for line in lines), lines
        clean(fd, bot)


async def test_a_full_table_of_six_with_four_bots(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await open_table(fd, players, 4)
            audit = Audit(fd, CHANNEL)
            final, told = await play(fd, players, audit, end_at_tide=3)
            audit.assert_targets()
            assert told["mutiny"] == 1 and told["vote"] >= 1, told
            # the players voted to end, the bots did not: the news says why the game went on
            lines = [said(m) for m in history(fd)]
            assert any("votes to end the game" in line and "the game goes on" in line for line in lines), lines
            standings = said(final).split("### Final standings")[1]
            assert all(name in standings for name in ("Ann", "Bob", "Bot 1", "Bot 4")), standings
        clean(fd, bot)


async def test_a_player_who_looks_away_is_played_for_when_the_timer_runs_out(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        bob = players[1]
        env = {**ENV, "DEFAULT_TIMER_SECONDS": "2"}
        async with running_bot(fd, env, tmp_path / "sb.sqlite3") as bot:
            await open_table(fd, players, 1)
            final, told = await play(fd, players, None, end_at_tide=2, away=bob, away_for=3)
            assert "wins with a net of" in said(final), said(final)
            assert timeouts(fd) >= 3
            lines = [said(m) for m in history(fd)]
            assert any("Bob ran out of time: the bet is paid and the Stone thrown" in line for line in lines), lines
        clean(fd, bot)
