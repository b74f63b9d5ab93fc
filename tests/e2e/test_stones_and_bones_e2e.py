"""Stones & Bones end to end, in tavern mode: the real bot process against the fake Discord.

A game-master opens a table without a seat, seats a named NPC with a purse, sets a player's
purse, and two players play to the end by clicking only what the bot rendered: public choices on
the table, sealed votes and Tide-rise choices in their DMs. Every test ends with ``clean``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path

from tests.e2e.test_knucklebones_e2e import button, clean, move_number
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "tavern"
NPC = "One-Eyed Mags"
#: fixed dice, so the game below goes the same way every run: a claim by the NPC in Tide 1
#: (Mutiny on any claim, so the crew may rise against it), then the Tide rise
ENV = {"GAME_SEED": "7", "DEFAULT_TIMER_SECONDS": "0"}


def is_table(message: dict) -> bool:
    return any((e.get("title") or "").startswith("Stones & Bones") and "ledger" not in (e.get("title") or "")
               for e in message.get("embeds") or [])


def table_now(fd: FakeDiscord) -> dict:
    return next(m for m in reversed(fd.messages(CHANNEL)) if is_table(m))


def text_of(message: dict) -> str:
    return (message.get("content") or "") + json.dumps(message.get("embeds") or [], ensure_ascii=False)


def finished(message: dict) -> bool:
    return "Final standings" in json.dumps(message["embeds"])


def open_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:all:")]


def act_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


def asked(message: dict, players: list[FakeUser]) -> list[FakeUser]:
    """The players the table mentions on its first line of prompts, in the order it names them."""
    content = message.get("content") or ""
    found = sorted((content.index(f"<@{p.id}>"), p) for p in players if f"<@{p.id}>" in content)
    return [p for _, p in found]


def field(message: dict, name: str) -> str:
    for embed in message["embeds"]:
        for f in embed.get("fields", []):
            if f["name"].startswith(name):
                return f["value"]
    return ""


async def slash_ok(fd: FakeDiscord, user: FakeUser, name: str, options: dict) -> dict:
    answer = await (await fd.slash(user, CHANNEL, name, options)).wait_response()
    assert answer["type"] == 4, answer
    return answer


async def open_gm_table(fd: FakeDiscord, gm: FakeUser, players: list[FakeUser],
                        options: dict | None = None) -> dict:
    """The GM opens a table without a seat, players join, the GM seats the NPC and sets a purse."""
    lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new",
                                  {"gm_mode": True, **(options or {})})).response_message()
    for p in players:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    said = await slash_ok(fd, gm, "stones-and-bones npc", {"name": NPC, "purse": "3pp"})
    assert said["data"]["flags"] & 64 and NPC in said["data"]["content"]
    said = await slash_ok(fd, gm, "stones-and-bones purse",
                          {"seat-or-player": f"<@{players[0].id}>", "amount": "8gp 5sp"})
    assert "8 gp 5 sp" in said["data"]["content"]
    return await fd.wait_until(lambda: NPC in text_of(fd.messages(CHANNEL)[-1]) and "8 gp 5 sp"
                               in text_of(fd.messages(CHANNEL)[-1]) and fd.messages(CHANNEL)[-1],
                               timeout=3, what="the lobby to show the NPC and the purse")


async def click_open(fd: FakeDiscord, user: FakeUser, table: dict, label_start: str) -> None:
    choice = next(b for b in open_buttons(fd, table) if b["label"].startswith(label_start))
    answer = await (await fd.click(user, table, choice["custom_id"])).wait_response()
    assert answer["type"] == 7, answer


async def dm_with_buttons(fd: FakeDiscord, user: FakeUser) -> dict | None:
    dms = fd.dm_messages(user)
    return dms[-1] if dms and act_buttons(fd, dms[-1]) else None


class Story:
    """What the players saw happen, read from the rendered messages."""

    def __init__(self) -> None:
        self.mutiny_cried = False
        self.vote_revealed = ""
        self.sealed_vote_seen = ""
        self.tides_risen: set[str] = set()
        self.sealed_tide_seen = ""
        self.heaved: list[str] = []


async def play(fd: FakeDiscord, players: list[FakeUser], story: Story, limit: int = 600) -> dict:
    """Click what the bot rendered until the game ends. Public choices: pay and throw; cry
    Mutiny once against the NPC Captain; ready; keep; stay aboard. Sealed: Yay; at a Tide rise
    stay until a Mutiny was voted on, then everyone Heaves Down, which ends the game."""
    for _ in range(limit):
        table = table_now(fd)
        if finished(table):
            return table
        shown = open_buttons(fd, table)
        if shown:
            who = asked(table, players)
            assert who, table.get("content")
            labels = [b["label"] for b in shown]
            if "Mutiny!" in labels:
                captain = re.search(r"Captain \*\*(.+?)\*\*", table["embeds"][0]["description"])
                if not story.mutiny_cried and captain and captain[1] == NPC:
                    story.mutiny_cried = True
                    await click_open(fd, who[0], table, "Mutiny!")
                else:
                    await click_open(fd, who[0], table, "Let it be")
            elif "Ready to vote" in labels:
                await click_open(fd, who[0], table, "Ready to vote")
            else:
                await click_open(fd, who[0], table, labels[0])
            continue
        # a sealed phase: each player owing a choice has it in their DMs
        waiting = await fd.wait_until(
            lambda: [(p, m) for p in players if (m := fd.dm_messages(p) and fd.dm_messages(p)[-1])
                     and act_buttons(fd, m)] or finished(table_now(fd)),
            timeout=5, what="a sealed choice by DM")
        if waiting is True:
            continue
        for player, dm in waiting:
            labels = [b["label"] for b in act_buttons(fd, dm)]
            if "Yay (back the Mutineer)" in labels:
                story.sealed_vote_seen = field(table_now(fd), "Mutiny!")
                pick = "Yay (back the Mutineer)"
            else:
                seen = field(table_now(fd), "Tide-rise choices (sealed")
                assert seen, "a Tide-rise choice was asked but the table shows no Tide rise"
                story.tides_risen.add(table_now(fd)["embeds"][0]["title"])
                others = [p.name.title() for p in players if p is not player]
                if any(f"{name}: ✅ chosen" in seen for name in others):
                    story.sealed_tide_seen = text_of(table_now(fd))  # theirs is in, this one not yet
                pick = next(label for label in labels
                            if label.startswith("Heave Down" if story.vote_revealed else "Stay"))
            answer = await (await fd.click(player, dm, button(fd, dm, pick))).wait_response()
            assert answer["type"] == 7, answer
        before = move_number(table)
        await fd.wait_until(lambda: move_number(table_now(fd)) > before, timeout=5,
                            what="the table to move on after the sealed choices")
        votes = field(table_now(fd), "Mutiny!")
        if votes.find("Votes: ") >= 0 and not story.vote_revealed:
            story.vote_revealed = votes
    raise AssertionError("the game did not end")


async def test_a_gm_runs_a_tavern_game_with_an_npc_to_the_end(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await open_gm_table(fd, gm, players, {"mutiny_trigger": "any_claim"})
            seats = field(lobby, "Seats")
            assert seats.splitlines() == ["1. Ann · purse of 8 gp 5 sp", "2. Bob · purse of 5 pp",
                                          f"3. {NPC} (AI) · purse of 3 pp"], seats
            assert "runs this table" in field(lobby, "Game-master")
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            table = table_now(fd)
            purses = field(table, "Purses").splitlines()
            assert [re.sub(r"[^A-Za-z -]", "", line.split(":")[0]).strip() for line in purses] == \
                ["Ann", "Bob", NPC], purses
            assert all(re.search(r"\*\*: (\d+ (pp|gp|sp|cp) ?)+ · net [+-]?", line) for line in purses), purses
            assert "The Bones" in field(table, "This turn") and "× Tide 1" in field(table, "This turn")
            story = Story()
            final = await play(fd, players, story)
            # a Mutiny was cried against the NPC, voted on in secret, then revealed
            assert story.mutiny_cried
            assert "sealed until all are in" in story.sealed_vote_seen and "⏳" in story.sealed_vote_seen
            assert "Yay" not in story.sealed_vote_seen
            assert re.search(r"Votes: \w+ Yay", story.vote_revealed), story.vote_revealed
            # the Tide rose; the first choice stayed sealed while the second was awaited
            assert story.tides_risen, text_of(final)
            assert "✅ chosen" in story.sealed_tide_seen and "⏳ choosing" in story.sealed_tide_seen
            assert "Heaves Down" not in story.sealed_tide_seen
            # both players Heaved Down: the NPC is the last afloat, and the cash-outs were shown
            assert "Heaves Down with" in text_of(final)
            # the ledger: an embed and a CSV the GM keeps; the nets sum to zero
            ledger = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if m.get("attachments")), None),
                timeout=5, what="the ledger")
            assert "ledger" in ledger["embeds"][0]["title"] and "sum to 0 cp" in ledger["embeds"][0]["description"]
            (name, data), = fd.attachments(ledger)
            assert name.endswith(".csv")
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            assert [r["name"] for r in rows] == ["Ann", "Bob", NPC]
            assert [int(r["buy_in_cp"]) for r in rows][:1] == [850] and int(rows[2]["buy_in_cp"]) >= 3000
            assert sum(int(r["net_cp"]) for r in rows) == 0
            for r in rows:
                assert int(r["net_cp"]) == int(r["cash_out_cp"]) - int(r["buy_in_cp"])
            # a player calls the rematch: same seats and purses, reversed, and the game-master
            # (who had no seat) still runs the table
            ann = players[0]
            again = await (await fd.click(ann, final, button(fd, final, "Rematch"))).response_message()
            assert field(again, "Seats").splitlines() == [
                f"1. {NPC} (AI) · purse of 3 pp", "2. Bob · purse of 5 pp", "3. Ann · purse of 8 gp 5 sp"]
            assert f"<@{gm.id}> runs this table" in field(again, "Game-master")
            start = await (await fd.click(ann, again, button(fd, again, "Start"))).wait_response()
            assert start["type"] == 4 and "Only the host" in start["data"]["content"]
            said = await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Salty Pete"})
            assert said["data"]["flags"] & 64 and "Salty Pete" in said["data"]["content"]
        clean(fd, bot)


async def refused(fd: FakeDiscord, user: FakeUser, name: str, options: dict, words: str) -> None:
    answer = await (await fd.slash(user, CHANNEL, name, options)).wait_response()
    assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
    assert words in answer["data"]["content"], answer["data"]["content"]


async def test_only_the_gm_manages_the_lobby_and_bad_input_changes_nothing(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm, ann, bob = fd.add_user("gm"), fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            await refused(fd, gm, "stones-and-bones new", {"starting_purse": "lots"}, "is not an amount")
            assert fd.messages(CHANNEL) == []  # no table was opened
            lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new",
                                          {"gm_mode": True, "starting_purse": "20"})).response_message()
            assert field(lobby, "House options") == "starting purse: 2 pp"
            # the game-master runs the table and takes no seat
            answer = await (await fd.click(gm, lobby, button(fd, lobby, "Join"))).wait_response()
            assert answer["data"]["flags"] & 64 and "game-master" in answer["data"]["content"]
            await (await fd.click(ann, lobby, button(fd, lobby, "Join"))).wait_response()
            before = fd.message(lobby["id"])
            assert field(before, "Seats").splitlines() == ["1. Ann · purse of 2 pp"]
            # players cannot seat NPCs or set purses
            await refused(fd, ann, "stones-and-bones npc", {"name": "Sly Pete"}, "Only the host")
            await refused(fd, ann, "stones-and-bones purse", {"seat-or-player": "1", "amount": "90gp"},
                          "Only the host")
            # bad input from the GM is refused and changes nothing
            for amount, words in (("12 goats", "is not an amount"), ("0", "from 1 cp"),
                                  ("5gp 5gp", "Name each coin once"), ("1.5", "is not an amount"),
                                  ("99999999pp", "from 1 cp")):
                await refused(fd, gm, "stones-and-bones purse", {"seat-or-player": "Ann", "amount": amount},
                              words)
            await refused(fd, gm, "stones-and-bones purse", {"seat-or-player": "7", "amount": "9gp"},
                          "No seat matches")
            await refused(fd, gm, "stones-and-bones npc", {"name": "<@1> **Mags**"}, "1 to 32 characters")
            await refused(fd, gm, "stones-and-bones npc", {"name": "ann"}, "already called")
            await refused(fd, gm, "stones-and-bones npc", {"name": "Sly Pete", "purse": "a few"},
                          "is not an amount")
            assert fd.message(lobby["id"]) == before and move_number(fd.message(lobby["id"])) == move_number(before)
            # the GM's good input shows in the lobby
            await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Sly Pete", "purse": "4gp 2sp 1cp"})
            await slash_ok(fd, gm, "stones-and-bones purse", {"seat-or-player": "ann", "amount": "7"})
            await fd.wait_until(lambda: field(fd.message(lobby["id"]), "Seats").splitlines()
                                == ["1. Ann · purse of 7 gp", "2. Sly Pete (AI) · purse of 4 gp 2 sp 1 cp"],
                                timeout=3, what="the lobby to show both purses")
            await refused(fd, bob, "stones-and-bones npc", {"name": "Nobody"}, "Only the host")
        clean(fd, bot)


async def test_the_gm_pauses_and_resumes_without_a_seat(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm, ann, bob = fd.add_user("gm"), fd.add_user("ann"), fd.add_user("bob")
        env = {**ENV, "DEFAULT_TIMER_SECONDS": "1"}
        async with running_bot(fd, env, tmp_path / "sb.sqlite3") as bot:
            lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new", {"gm_mode": True})).response_message()
            for p in (ann, bob):
                await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            table = table_now(fd)
            assert open_buttons(fd, table)
            # the GM has no seat, so the table's buttons are not theirs
            answer = await (await fd.click(gm, table, open_buttons(fd, table)[0]["custom_id"])).wait_response()
            assert answer["data"]["flags"] & 64 and "not playing" in answer["data"]["content"]
            await refused(fd, ann, "game pause", {}, "Only the host")
            paused = await (await fd.slash(gm, CHANNEL, "game pause")).wait_response()
            assert "paused the game" in paused["data"]["content"]
            table = await fd.wait_until(lambda: "paused" in (table_now(fd).get("content") or "") and table_now(fd),
                                        timeout=3, what="the table to say it is paused")
            assert open_buttons(fd, table) == []
            before = move_number(table)
            await asyncio.sleep(2.5)  # well past the 1 s timer: nothing is played while paused
            assert move_number(table_now(fd)) == before
            assert not any("Time ran out" in (m.get("content") or "") for m in fd.messages(CHANNEL))
            await (await fd.slash(gm, CHANNEL, "game resume")).wait_response()
            await fd.wait_until(lambda: any("Time ran out" in (m.get("content") or "")
                                            for m in fd.messages(CHANNEL)),
                                timeout=6, what="the timer to run again after resume")
            # the GM ends the game they run
            end = await (await fd.slash(gm, CHANNEL, "game end")).response_message()
            await (await fd.click(gm, end, button(fd, end, "End the game"))).wait_response()
            await fd.wait_until(lambda: any("ended the game" in (m.get("content") or "")
                                            for m in fd.messages(CHANNEL)), timeout=3, what="the end")
        clean(fd, bot)


async def test_the_rules_commands_show_every_ruling_in_force_unclipped(tmp_path: Path) -> None:
    """``/stones-and-bones rules`` (the defaults) and ``/game rules`` (this table's options) show
    the whole rules text: the rulings, house choices and timeouts, with nothing clipped."""
    from cogs.stones_and_bones import SPEC
    from rules.stones_and_bones import StonesAndBonesOptions

    async with running_fake() as fd:
        gm = fd.add_user("gm")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            answer = await slash_ok(fd, gm, "stones-and-bones rules", {})
            assert answer["data"]["flags"] & 64
            shown = answer["data"]["embeds"][0]["description"]
            assert shown == SPEC.rules_text(StonesAndBonesOptions())
            assert "a won Mutiny lifts the Curse" in shown and shown.endswith("at the end.")
            lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new", {
                "fold": True, "grumbles": True, "mutiny_trigger": "any_claim"})).response_message()
            assert "Grumbles: on" in field(lobby, "House options")
            options = StonesAndBonesOptions(fold=True, grumbles=True, mutiny_trigger="any_claim")
            for command in ("game rules", "stones-and-bones rules"):  # at this table: its options
                answer = await slash_ok(fd, gm, command, {})
                assert answer["data"]["flags"] & 64
                assert answer["data"]["embeds"][0]["title"] == "Stones & Bones: rules in force here"
                shown = answer["data"]["embeds"][0]["description"]
                assert shown == SPEC.rules_text(options)
            for words in ("if you can pay it, **fold**", "goes back to its payer", "on any claim",
                          "no Grumbles, no objection", "2,000-turn safety cap"):
                assert words in shown, words
        clean(fd, bot)


async def test_a_row_drawn_for_one_turn_never_plays_the_next(tmp_path: Path) -> None:
    """With these dice Bob's first bet reads exactly as Ann's did, so the table's row looks the
    same after Ann pays. Bob pressing Ann's row at the same moment must not pay Bob's bet on
    Bones he never saw: the row was drawn for Ann alone."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        env = {"GAME_SEED": "2", "DEFAULT_TIMER_SECONDS": "0"}
        async with running_bot(fd, env, tmp_path / "sb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "stones-and-bones new", {"pilfer": "off"})).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            table = table_now(fd)
            assert asked(table, [ann, bob]) == [ann]
            row = [b["label"] for b in open_buttons(fd, table)]
            pay = next(b["custom_id"] for b in open_buttons(fd, table) if b["label"].startswith("Pay"))
            first, second = await fd.click(ann, table, pay), await fd.click(bob, table, pay)
            assert (await first.wait_response())["type"] == 7
            late = await second.wait_response()
            assert late["type"] == 4 and late["data"]["flags"] & 64 and "moment has passed" in late["data"]["content"]
            now = await fd.wait_until(lambda: asked(table_now(fd), [ann, bob]) == [bob] and table_now(fd),
                                      timeout=3, what="Bob's turn")
            assert [b["label"] for b in open_buttons(fd, now)] == row  # the case this test is about
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            moves = log["embeds"][0]["description"]
            assert "Ann pays" in moves and "Bob pays" not in moves
        clean(fd, bot)
