"""A game-master's session at the table, end to end: what the host does for a table a GM runs
(ending it early with the books kept). Stones & Bones is the game on the table."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from tests.e2e.channel import next_table, said, settle
from tests.e2e.test_knucklebones_e2e import button, clean
from tests.e2e.test_stones_and_bones_e2e import CHANNEL, ENV, NPC, live, open_gm_table
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake


async def started(fd: FakeDiscord, gm: FakeUser, players: list[FakeUser]) -> None:
    """A GM's tavern table (an NPC, a purse set) started, its first table out."""
    lobby = await open_gm_table(fd, gm, players)
    await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
    await next_table(fd, CHANNEL)
    await settle(fd)


async def test_a_game_ended_early_keeps_its_ledger(tmp_path: Path) -> None:
    """The session ends before the game does: the GM ends it, and the ended table carries the
    ledger and its CSV as a finished one does, so the characters' money goes back to the
    campaign."""
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await started(fd, gm, [ann, bob])
            table = live(fd)
            ask = await (await fd.slash(gm, CHANNEL, "game end")).response_message()
            done = await fd.click(gm, ask, button(fd, ask, "End the game"))
            await done.wait_response()
            await fd.wait_until(lambda: "game ended" in said(fd.message(live(fd)["id"])), timeout=10,
                                what="the table to say the game ended")
            await settle(fd)
            ended = live(fd)
            assert ended["id"] == table["id"]  # redrawn where it was: an edit pings nobody
            assert not fd.buttons(ended) and "Bob" in said(ended)
            # the ledger comes below it, with the CSV the GM keeps
            ledger = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if m.get("embeds") and m["embeds"][0].get("title")
                              == "The ledger"), None), timeout=10, what="the ledger below the ended table")
            assert ledger["id"] == fd.messages(CHANNEL)[-1]["id"]
            (name, data), = [(n, d) for n, d in fd.attachments(ledger) if n.endswith(".csv")]
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            assert [r["name"] for r in rows] == ["Ann", "Bob", NPC]
            assert [int(r["buy_in_cp"]) for r in rows] == [850, 5000, 3000]
            # a game ended early has no rematch, even asked for with a forged button
            forged = await (await fd.forge(ann, ended, f"bn:again:{ended_id(ended)}", carried=True)).wait_response()
            assert forged["data"]["flags"] & 64 and forged["data"]["content"].startswith(
                "Only a finished game has a rematch"), forged
        clean(fd, bot)


def ended_id(message: dict) -> int:
    """The game's number, from the footer of its table ("Game #1")."""
    found = re.search(r"Game #(\d+)", said(message))
    assert found, said(message)
    return int(found[1])


async def test_the_gm_hands_an_absent_players_seat_to_a_bot_and_they_take_it_back(tmp_path: Path) -> None:
    """An untimed table waits on whoever must act: a player who walked away stalls everyone.
    The GM hands their seat to a bot mid-game; they take it back when they return, as does a
    player who left by mistake."""
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await started(fd, gm, [ann, bob])
            # only whoever steers the table may, and only a seat a person plays
            for who, seat, words in ((ann, "bob", "Only the game-master"), (gm, NPC, f"{NPC} is the bot's own seat"),
                                     (gm, "zed", "No seat matches")):
                answer = await (await fd.slash(who, CHANNEL, "game unseat", {"seat": seat})).wait_response()
                assert answer["data"]["flags"] & 64 and words in answer["data"]["content"], answer
            early = await (await fd.slash(bob, CHANNEL, "game rejoin")).wait_response()
            assert early["data"]["content"] == "You are playing your seat already."
            handed = await (await fd.slash(gm, CHANNEL, "game unseat", {"seat": "bob"})).wait_response()
            assert handed["data"]["flags"] & 64 and handed["data"]["content"] == \
                "A bot plays Bob's seat from here; they take it back with `/game rejoin`."
            table = await shows(fd, "Gm handed Bob's seat to a bot; `/game rejoin` gives it back to them.")
            assert "Bob (bot)" in table
            for named in ("2", f"<@{bob.id}>", "bob"):  # named as they were, too
                again = await (await fd.slash(gm, CHANNEL, "game unseat", {"seat": named})).wait_response()
                assert again["data"]["content"] == "A bot already plays Bob (bot).", named
            stranger = fd.add_user("dee")
            nothing = await (await fd.slash(stranger, CHANNEL, "game rejoin")).wait_response()
            assert nothing["data"]["content"].startswith("You have no seat to take back here")
            back = await (await fd.slash(bob, CHANNEL, "game rejoin")).wait_response()
            assert back["data"]["content"] == "Your seat is yours again: the table pings you when you are asked."
            table = await shows(fd, "Bob is back and plays their seat again.")
            assert "Bob (bot)" not in table, table
            # a player who left by mistake comes back the same way
            gone = await (await fd.slash(ann, CHANNEL, "game leave")).wait_response()
            assert "`/game rejoin` takes it back" in gone["data"]["content"]
            await (await fd.slash(ann, CHANNEL, "game rejoin")).wait_response()
            assert "Ann (bot)" not in await shows(fd, "Ann is back and plays their seat again.")
        clean(fd, bot)


async def shows(fd: FakeDiscord, words: str) -> str:
    """The live table's words once they hold ``words`` (the table is redrawn just after the
    answer, and a loaded machine may take a moment)."""
    def now() -> str | None:
        text = said(live(fd))
        return text if words in text else None

    return str(await fd.wait_until(now, timeout=10, what=words))


async def test_a_player_who_left_joins_the_rematch_with_the_purse_their_seat_took_home(tmp_path: Path) -> None:
    """A character's purse is what their seat took home: a player who left the game (the bot
    played on for them) and Joins the rematch brings it, not the table's starting purse."""
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await started(fd, gm, [ann, bob])
            for who in (ann, bob):  # both go: the bots play the game out at once
                await (await fd.slash(who, CHANNEL, "game leave")).wait_response()
            final = await fd.wait_until(lambda: "Final standings" in said(live(fd)) and live(fd), timeout=20,
                                        what="the bots to play the game out")
            again = await (await fd.click(gm, final, button(fd, final, "Rematch"))).wait_response()
            assert again["type"] == 4, again
            lobby = await fd.wait_until(lambda: (m := live(fd)) is not None and "a new table" in said(m) and m,
                                        timeout=10, what="the rematch's lobby")
            assert "left the last game: **Join** to play this one." in said(lobby), said(lobby)
            for who in (ann, bob):
                took = re.search(rf"{who.name.title()} \((purse empty|purse of [^)]+)\)", said(lobby))
                assert took, said(lobby)
                joined = await (await fd.click(who, lobby, button(fd, lobby, "Join"))).wait_response()
                shown = said(joined["data"])
                assert f"{who.name.title()} is back with what their seat took home: {took[1]}." in shown, shown
                assert re.search(rf"\d\. {who.name.title()} · {re.escape(took[1])}$", shown, re.M), shown
        clean(fd, bot)
