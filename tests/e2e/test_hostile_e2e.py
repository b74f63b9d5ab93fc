"""What a public bot meets besides honest play: lost permissions, forged and malformed clicks,
stale commands, hostile names. Each test goes through the real bot and the fake Discord, which
refuses what Discord refuses."""

from __future__ import annotations

from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import actor, clean, live_table, settle
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "games"


async def open_knucklebones(fd: FakeDiscord, players: list[FakeUser]) -> dict:
    return await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])


def moves(fd: FakeDiscord, message: dict) -> list[str]:
    return [b["custom_id"] for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


async def test_a_table_that_cannot_be_posted_never_stalls_the_game(tmp_path: Path) -> None:
    """An admin takes Send Messages away mid-game: the turn still passes, the old table shows
    the game as it stands (never a history line with no live table below it), the player who
    acted is told which permission is missing, and once it is back the next move posts the
    table anew, pinging whoever must act."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_knucklebones(fd, players)
            first = actor(table, players)
            fd.channel(CHANNEL).bot_forbidden = True
            told = None
            for _ in range(30):  # the first player's decisions, to the one that ends their turn
                it = await fd.click(first, table, moves(fd, table)[-1])
                assert (await it.wait_response())["type"] == 7
                await settle(fd)
                table = fd.message(table["id"])
                told = next((m for m in it.followups if "could not post" in (m.get("content") or "")), None)
                if told is not None:
                    break
            assert told is not None, "nobody was told the table could not be posted"
            assert told["flags"] & 64 and "**Send Messages**" in told["content"]
            # the game did not stall: the same message is the live table, for the next player
            assert live_table(fd, CHANNEL)["id"] == table["id"] and moves(fd, table)
            second = actor(table, players)
            assert second is not first
            fd.channel(CHANNEL).bot_forbidden = False
            since = len(fd.calls)
            it = await fd.click(second, table, moves(fd, table)[0])
            assert (await it.wait_response())["type"] == 7
            await settle(fd)
            fresh = live_table(fd, CHANNEL)
            assert fresh is not None and fresh["id"] != table["id"], "the table was not posted again"
            assert fd.message(table["id"])["embeds"] == []  # the old one shrank, once the new was out
            pinged = [c for c in fd.calls[since:] if c["method"] == "POST" and c["path"].endswith("/messages")]
            assert pinged, "no new message pinged the player"
        clean(fd, bot)
