"""What SIGKILLs at random moments found (tests/e2e/kills.py, bench/kills.py), each pinned by itself."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bot.models import Book, Seat, Table
from bot.store import open_store
from tests.e2e.channel import actor, live_table, settle
from tests.e2e.kills import TrapFake, accepted
from tests.e2e.play import choices, open_table
from tests.fakediscord import BotProcess


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


async def test_the_store_names_the_games_a_stop_left_behind(store_url: str) -> None:
    """A game in play whose book shows an older move, and a lobby never posted; not a lobby
    whose book is older (joining rewrites no book), nor a game shown up to date or over."""
    store = await open_store(store_url)
    try:
        ids = []
        for channel in range(5):
            table = await store.create(Table(guild_id=1, channel_id=channel + 1, game="knucklebones", host_id=7,
                                             seats=[Seat(user_id=7, name="Ann")], seed=1))
            ids.append(table.id or 0)
        behind, shown, unposted, joined, over = ids
        for game_id, status in ((behind, "active"), (shown, "active"), (over, "finished")):
            table = await store.get(game_id)
            assert table is not None
            table.status, table.version = status, 3
            await store.save(table, 0)
        await store.put_book(behind, Book(message_id=1, shown=2))
        await store.put_book(shown, Book(message_id=2, shown=3))
        await store.put_book(joined, Book(message_id=3, shown=0))
        await store.put_book(over, Book(message_id=4, shown=2))
        assert await store.games_left_behind() == [behind, unposted]
    finally:
        await store.close()


async def test_a_table_a_kill_left_unposted_is_shown_when_the_bot_is_back() -> None:
    """Killed after the clicked table became a line of history and before the next was posted:
    the move counts, and the restarted bot posts the table by itself, so the players are not
    left with nothing to click."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "boneyard.sqlite3"
        fd = TrapFake(channels=("den",))
        await fd.start()
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        env = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING"}
        bot = BotProcess(fd, env, db)
        again: BotProcess | None = None
        try:
            await bot.start()
            table = await open_table(fd, "den", "bone-duel new", ann, [bob])  # every move passes the turn
            first = actor(table, [ann, bob])
            fd.arm(1, bot.kill)  # the answer is taken; the bot dies before it posts the next table
            custom_id, _ = choices(fd, table)[0]
            click = await fd.click(first, table, custom_id)
            await bot.wait()
            assert accepted(click), click.response
            assert live_table(fd, "den") is None, "the clicked table became history, no new one is out"

            again = BotProcess(fd, env, db)
            await again.start()
            shown = await fd.wait_until(lambda: live_table(fd, "den"), 10, what="the table posted again")
            other = actor(shown, [ann, bob])
            assert other is not first, "the move counted: the other player is asked"
            answer = await (await fd.click(other, shown, choices(fd, shown)[0][0])).wait_response()
            assert answer["type"] == 7, answer
            await settle(fd)
            assert again.error_records() == []
        finally:
            bot.kill()
            if again is not None:
                await again.stop()
            await fd.stop()
