"""SIGKILLs at random moments, and clicks while the bot restarts: no move a player saw accepted is
lost, none is counted twice, every stored game replays, and every live game's table acts after
the last restart (bench/kills.py runs it big). Then what the kills found, each pinned by itself."""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import step
from bot.models import Book, Seat, Table
from bot.step import Moment
from bot.store import open_store
from tests.e2e.channel import actor, has_controls, live_table, said, settle
from tests.e2e.kills import KillReport, TrapFake, accepted, kill_campaign
from tests.e2e.play import choices, open_table
from tests.fakediscord import BotProcess
from tests.fixtures.tables import game_specs


def assert_nothing_lost_or_doubled(report: KillReport) -> None:
    problems = report.problems
    assert {name: found[:3] for name, found in problems.items() if found} == {}


async def test_kills_on_sqlite_lose_and_double_no_move() -> None:
    report = await kill_campaign(5, seed=3, steps=(1, 3), short=True, finish=False)
    assert report.kills >= 5 and report.moves > 20 and report.accepted > 10
    assert_nothing_lost_or_doubled(report)
    assert report.replayed >= 6


async def test_kills_of_either_process_on_postgres_lose_and_double_no_move(pg_url: str) -> None:
    report = await kill_campaign(3, seed=4, store="postgres", processes=2, pg_url=pg_url, steps=(1, 3), short=True,
                                 finish=False)
    assert report.kills >= 3 and report.moves > 10
    assert_nothing_lost_or_doubled(report)
    assert report.replayed >= 6


# -- what the kills found ------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


async def test_the_store_names_the_games_a_stop_left_behind(store_url: str) -> None:
    """A game in play or ended since a given time whose book shows an older move, and a lobby
    never posted; not a lobby whose book is older (joining rewrites no book), a game shown up to
    date, nor one that ended before that time or was never shown at all (its channel never had
    its table: a game written straight into the store, or whose channel is long gone)."""
    store = await open_store(store_url)
    try:
        ids = []
        for channel in range(7):
            table = await store.create(Table(guild_id=1, channel_id=channel + 1, game="knucklebones", host_id=7,
                                             seats=[Seat(user_id=7, name="Ann")], seed=1))
            ids.append(table.id or 0)
        behind, shown, unposted, joined, ended, cancelled, unshown = ids
        for game_id, status in ((behind, "active"), (shown, "active"), (ended, "finished"), (cancelled, "cancelled"),
                                (unshown, "finished")):
            table = await store.get(game_id)
            assert table is not None
            table.status, table.version = status, 3
            await store.save(table, 0)
        for game_id, book in ((behind, Book(message_id=1, shown=2)), (shown, Book(message_id=2, shown=3)),
                              (joined, Book(message_id=3, shown=0)), (ended, Book(message_id=4, shown=2)),
                              (cancelled, Book(message_id=5, shown=2))):
            await store.put_book(game_id, book)
        assert await store.games_left_behind(time.time() - 60) == [behind, unposted, ended, cancelled]
        assert await store.games_left_behind(time.time() + 60) == [behind, unposted]
    finally:
        await store.close()


KILL_ENV = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING"}


class Den:
    """A channel, two players and a bot that a test may kill and start again on the same store."""

    def __init__(self, fd: TrapFake, db: Path) -> None:
        self.fd, self.db = fd, db
        self.ann, self.bob = fd.add_user("ann"), fd.add_user("bob")
        self.bot = BotProcess(fd, KILL_ENV, db)
        self.again: BotProcess | None = None

    async def restart(self) -> BotProcess:
        self.again = BotProcess(self.fd, KILL_ENV, self.db)
        await self.again.start()
        return self.again


@contextlib.asynccontextmanager
async def den_with_a_bot() -> AsyncIterator[Den]:
    with tempfile.TemporaryDirectory() as tmp:
        fd = TrapFake(channels=("den",))
        await fd.start()
        den = Den(fd, Path(tmp) / "boneyard.sqlite3")
        try:
            await den.bot.start()
            yield den
        finally:
            den.bot.kill()
            if den.again is not None:
                await den.again.stop()
            await fd.stop()


async def test_a_table_a_kill_left_unposted_is_shown_when_the_bot_is_back() -> None:
    """Killed after the clicked table became a line of history and before the next was posted:
    the move counts, and the restarted bot posts the table by itself, so the players are not
    left with nothing to click."""
    async with den_with_a_bot() as den:
        fd, ann, bob, bot = den.fd, den.ann, den.bob, den.bot
        table = await open_table(fd, "den", "bone-duel new", ann, [bob])  # every move passes the turn
        first = actor(table, [ann, bob])
        fd.arm(1, bot.kill)  # the answer is taken; the bot dies before it posts the next table
        custom_id, _ = choices(fd, table)[0]
        click = await fd.click(first, table, custom_id)
        await bot.wait()
        assert accepted(click), click.response
        assert live_table(fd, "den") is None, "the clicked table became history, no new one is out"

        again = await den.restart()
        shown = await fd.wait_until(lambda: live_table(fd, "den"), 10, what="the table posted again")
        other = actor(shown, [ann, bob])
        assert other is not first, "the move counted: the other player is asked"
        answer = await (await fd.click(other, shown, choices(fd, shown)[0][0])).wait_response()
        assert answer["type"] == 7, answer
        await settle(fd)
        assert again.error_records() == []


async def test_a_game_that_ended_as_the_bot_was_killed_shows_it_when_the_bot_is_back() -> None:
    """Killed once the host's "End the game" was answered, before the table was redrawn: the
    table kept the buttons of a game that is over (a click on them only says so). The restarted
    bot shows the game as it ended."""
    async with den_with_a_bot() as den:
        fd, ann, bob, bot = den.fd, den.ann, den.bob, den.bot
        table = await open_table(fd, "den", "knucklebones new", ann, [bob])
        ask = await (await fd.slash(ann, "den", "game end")).response_message()
        fd.arm(1, bot.kill)  # "The game was ended." is the answer; the table is not redrawn yet
        await (await fd.click(ann, ask, fd.buttons(ask)[0]["custom_id"])).wait_response()
        await bot.wait()
        assert has_controls(fd.message(table["id"]) or {}), "the table still offers moves"

        again = await den.restart()
        await fd.wait_until(lambda: not any(has_controls(m) for m in fd.messages("den")), 10,
                            what="no message offering moves of the ended game")
        await settle(fd)
        assert "ended" in said(live_table(fd, "den") or {}).lower()
        assert again.error_records() == []


async def test_a_move_answered_too_late_is_still_shown_and_the_game_goes_on() -> None:
    """A click the bot answers after Discord's three seconds (it came late: a process just back,
    a replayed event) is applied; Discord refuses the late answer, and the channel must still
    show the step, or the table's buttons stay on a moment that has passed and the game is
    stuck. Nothing about it is an error of the bot's."""
    with tempfile.TemporaryDirectory() as tmp:
        fd = TrapFake(channels=("den",))
        await fd.start()
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        bot = BotProcess(fd, {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING"}, Path(tmp) / "b.sqlite3")
        try:
            await bot.start()
            await open_table(fd, "den", "knucklebones new", ann, [bob])
            passed = kept = 0
            for _ in range(8):
                table = live_table(fd, "den")
                assert table is not None
                custom_id, who = choices(fd, table)[0][0], actor(table, [ann, bob])
                click = await fd.click(who, table, custom_id)
                fd.expire(click, 4.0)  # it reached the bot late: Discord refuses any answer now
                await settle(fd, quiet=0.3)
                assert click.response is None
                now = live_table(fd, "den")
                assert now is not None and custom_id not in [c for c, _ in choices(fd, now)], \
                    "the channel shows the moment after the click"
                # the turn passed (the clicked table became history, a new one is posted), or the
                # same player decides again on the table redrawn in place
                passed += now["id"] != table["id"]
                kept += now["id"] == table["id"] and actor(now, [ann, bob]) is who
            assert passed and kept
            assert bot.error_records() == []
        finally:
            await bot.stop()
            await fd.stop()


def test_a_double_click_on_a_choice_made_in_the_open_counts_once() -> None:
    """Stones and Bones' parley offers a seat the same "Give…" menu again after it gives, so
    the second click of a double click (drawn before the first gave) gave twice. A seat's
    clicks on a row drawn before its own last choice in the open are stale; another seat's stay
    good (several players press Ready together), and a press on the row drawn again gives again."""
    spec = next(s for s in game_specs() if s.engine.key == "stones_and_bones")
    engine, rng = spec.engine, random.Random(5)
    table = Table(id=1, guild_id=1, channel_id=1, game=spec.engine.key, host_id=1, status="active", seed=5,
                  seats=[Seat(user_id=n + 1, name=f"P{n}") for n in range(3)])
    options = engine.Options() if spec.tavern is None else spec.tavern.starting_options(engine.Options(), [None] * 3)
    table.state = engine.new_game(3, options, table.seed).model_dump(mode="json")
    now = Moment(spec, table)
    for _ in range(2000):  # random legal moves until a seat may give in the open, beside another seat asked
        gives = [(s, now.shared.index(a)) for s in now.acting for a in now.legal(s)
                 if a in now.shared and getattr(a, "kind", "") == "give"]
        if gives and len(now.acting) > 1:
            break
        seat = rng.choice(now.acting)
        now = step.play(now, seat, rng.choice(now.legal(seat)), 0.0).after
    else:
        raise AssertionError("no parley reached")
    giver, index = gives[0]
    other = next(s for s in now.acting if s != giver)
    drawn = now.open_stamp(now.acting)
    seat, action = step.read_open_click(now, giver, drawn, index)
    after = step.play(now, seat, action, 0.0).after
    assert giver in after.acting and after.shared[index] == action, "the same choice is offered again"
    with pytest.raises(step.Stale):
        step.read_open_click(after, giver, drawn, index)  # the double click's second press
    assert step.read_open_click(after, giver, after.open_stamp(after.acting), index) == (giver, action)
    assert step.read_open_click(after, other, drawn, 0)[0] == other  # another seat's buttons stay good
