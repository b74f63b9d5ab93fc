"""Stones & Bones end to end, in tavern mode: the real bot process against the fake Discord.

A game-master opens a table without a seat, seats a named NPC with a purse, sets a player's
purse, and two players play to the end by clicking only what the bot rendered: public choices on
the live table (always the newest game message), sealed votes and Tide-rise choices in their
DMs. The whole game is audited as players live it: every time someone must act they are pinged,
the table stays phone-sized, every table that shows a throw carries its picture, and only the
newest copy of anything has buttons. Every test ends with ``clean``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path

from tests.e2e.channel import PNG, Audit, has_controls, live_table, settle, text_length
from tests.e2e.test_knucklebones_e2e import button, clean
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "tavern"
NPC = "One-Eyed Mags"
#: fixed dice, so the game below goes the same way every run: a claim by the NPC in Tide 1
#: (Mutiny on any claim, so the crew may rise against it), then the Tide rise
ENV = {"GAME_SEED": "7", "DEFAULT_TIMER_SECONDS": "0"}
ROLL_MARK = "🎲"
_MENTION = re.compile(r"<@!?(\d+)>")


def live(fd: FakeDiscord) -> dict:
    table = live_table(fd, CHANNEL)
    assert table is not None, "no live table in the channel"
    return table


def description(message: dict) -> str:
    return "\n".join(e.get("description") or "" for e in message.get("embeds") or [])


def text_of(message: dict) -> str:
    return (message.get("content") or "") + json.dumps(message.get("embeds") or [], ensure_ascii=False)


def finished(message: dict) -> bool:
    return "Final standings" in json.dumps(message["embeds"])


def open_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:all:")]


def act_buttons(fd: FakeDiscord, message: dict) -> list[dict]:
    return [b for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


def prompt_line(message: dict) -> str:
    """The line that asks: it starts with the mentions of whoever must answer (a headline
    above it names people too, but never starts with a mention)."""
    return next((line for line in (message.get("content") or "").splitlines() if line.startswith("<@")), "")


def asked(message: dict, players: list[FakeUser]) -> list[FakeUser]:
    """The players the table's prompt mentions, in the order it names them."""
    ids = [int(m) for m in _MENTION.findall(prompt_line(message).partition(": ")[0])]
    return [p for i in ids for p in players if p.id == i]


def may_press(label: str, who: list[FakeUser]) -> list[FakeUser]:
    """Whose button a label is: "Ann: Pick up my Stone" is Ann's; a label naming nobody is for
    everyone asked."""
    named, sep, _ = label.partition(": ")
    if not sep:
        return who
    mine = [p for p in who if re.search(rf"\b{re.escape(p.name.title())}\b", named)]
    return mine or who


def field(message: dict, name: str) -> str:
    for embed in message["embeds"]:
        for f in embed.get("fields", []):
            if f["name"].startswith(name):
                return f["value"]
    return ""


SEALED_TITLES = ("Mutiny vote", "The Tide rises")


def sealed(fd: FakeDiscord, players: list[FakeUser]) -> list[tuple[FakeUser, dict]]:
    """Players whose newest DM holds a sealed choice still to make (a choice made on the table
    comes by DM too, for whoever reads DMs first; those are answered on the table here)."""
    out = []
    for p in players:
        dms = fd.dm_messages(p)
        if dms and act_buttons(fd, dms[-1]) and dms[-1]["embeds"][0]["title"].startswith(SEALED_TITLES):
            out.append((p, dms[-1]))
    return out


def note_new_dms(fd: FakeDiscord, audit: Audit, players: list[FakeUser], seen: set[str]) -> None:
    """Every private view a player was sent counts towards the private-view sizes."""
    for p in players:
        for dm in fd.dm_messages(p):
            if dm["id"] not in seen:
                seen.add(dm["id"])
                audit.note_private(dm)


async def slash_ok(fd: FakeDiscord, user: FakeUser, name: str, options: dict) -> dict:
    answer = await (await fd.slash(user, CHANNEL, name, options)).wait_response()
    assert answer["type"] == 4, answer
    return answer


async def open_gm_table(fd: FakeDiscord, gm: FakeUser, players: list[FakeUser],
                        options: dict | None = None) -> dict:
    """The GM opens a table without a seat, players join, the GM seats the NPC and sets a purse."""
    lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new",
                                  {"gm_mode": True, **(options or {})})).response_message()
    assert "pirate tavern game" in description(lobby)  # the lobby says what the game is
    for p in players:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    said = await slash_ok(fd, gm, "stones-and-bones npc", {"name": NPC, "stake": "3pp"})
    assert said["data"]["flags"] & 64 and NPC in said["data"]["content"]
    said = await slash_ok(fd, gm, "stones-and-bones stake",
                          {"seat-or-player": f"<@{players[0].id}>", "amount": "8gp 5sp"})
    assert "8 gp 5 sp" in said["data"]["content"]
    return await fd.wait_until(lambda: NPC in text_of(fd.message(lobby["id"])) and "8 gp 5 sp"
                               in text_of(fd.message(lobby["id"])) and fd.message(lobby["id"]),
                               timeout=3, what="the lobby to show the NPC and the purse")


async def press(fd: FakeDiscord, audit: Audit, user: FakeUser, message: dict, custom_id: str) -> None:
    audit.clicked(user)
    answer = await (await fd.click(user, message, custom_id)).wait_response()
    assert answer["type"] == 7, answer
    await settle(fd)


class Story:
    """What the players saw happen, read from the rendered messages."""

    def __init__(self) -> None:
        self.mutiny_cried = False
        self.sealed_vote_table = ""
        self.sealed_vote_dm = ""
        self.tide_tables: set[str] = set()
        self.sealed_tide_table = ""
        self.tide_dm = ""
        self.pictures = 0
        #: the headline that revealed the Mutiny votes (the next table's news; it shrinks to
        #: history with that table, so it is caught while live)
        self.votes = ""




async def play(fd: FakeDiscord, players: list[FakeUser], story: Story, audit: Audit, limit: int = 600) -> dict:
    """Click what the bot rendered until the game ends. Public choices: pay and throw (or the
    first button); cry Mutiny once against the NPC Captain; ready; keep; stay aboard. Sealed:
    Yay; at a Tide rise stay until a Mutiny was voted on, then everyone Heaves Down, which ends
    the game."""
    await settle(fd)
    seen: set[str] = set()
    for _ in range(limit):
        note_new_dms(fd, audit, players, seen)
        table = live(fd)
        if "The votes:" in (table.get("content") or "") and not story.votes:
            story.votes = table["content"]
        if finished(table):
            # the game-master's ledger comes with the final table
            await fd.wait_until(lambda: any("ledger" in json.dumps(m.get("embeds") or [])
                                            for m in fd.messages(CHANNEL)), timeout=5, what="the ledger")
            audit.look(set())
            return table
        who = asked(table, players)
        waiting = sealed(fd, players)
        shows_dice = ROLL_MARK in description(table)
        story.pictures += shows_dice
        audit.look({p.id for p in who} | {p.id for p, _ in waiting}, shows_dice=shows_dice)
        shown = open_buttons(fd, table)
        if shown:
            assert who, table.get("content")
            labels = [b["label"] for b in shown]
            if "Mutiny!" in labels:
                captain = re.search(r"Captain \*\*(.+?)\*\*", description(table))
                pick = "Let it be"
                if not story.mutiny_cried and captain and captain[1] == NPC:
                    story.mutiny_cried, pick = True, "Mutiny!"
            elif "Ready to vote" in labels:
                pick = "Ready to vote"
            else:
                pick = labels[0]
            choice = next(b for b in shown if b["label"] == pick)
            await press(fd, audit, may_press(pick, who)[0], table, choice["custom_id"])
            continue
        assert waiting, f"nobody can act: {text_of(table)}"
        for player, dm in waiting:
            labels = [b["label"] for b in act_buttons(fd, dm)]
            if "Yay (back the Mutineer)" in labels:
                story.sealed_vote_table = text_of(live(fd))
                story.sealed_vote_dm = text_of(dm)
                pick = "Yay (back the Mutineer)"
            else:
                story.tide_dm = text_of(dm)
                now = live(fd)
                assert "The Tide rose to" in description(now), text_of(now)
                story.tide_tables.add(now["embeds"][0]["title"])
                if "✅" in description(now) and "⏳" in description(now):
                    story.sealed_tide_table = text_of(now)  # one choice is in, this one not yet
                pick = next(label for label in labels
                            if label.startswith("Heave Down" if story.votes else "Stay"))
            await press(fd, audit, player, dm, button(fd, dm, pick))
    raise AssertionError("the game did not end")


async def test_a_gm_runs_a_tavern_game_with_an_npc_to_the_end(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        players = [fd.add_user("ann"), fd.add_user("bob")]
        ann, bob = players
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await open_gm_table(fd, gm, players, {"mutiny_trigger": "any_claim"})
            seats = field(lobby, "Seats")
            assert seats.splitlines() == ["1. Ann · purse of 8 gp 5 sp", "2. Bob · purse of 5 pp",
                                          f"3. {NPC} (AI) · purse of 3 pp"], seats
            assert "runs this table" in field(lobby, "Game-master")
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            await settle(fd)
            table = live(fd)
            # one short line per pirate, the purse with platinum folded into gold
            pirates = description(table).split("\n\n")[-1].splitlines()
            assert [next(n for n in ("Ann", "Bob", NPC) if n in line) for line in pirates] == ["Ann", "Bob", NPC]
            assert all(re.search(r"\*\* \d+ gp( \d sp)?( \d cp)?$", line) for line in pirates), pirates
            assert ROLL_MARK in description(table) and "→ bet **" in description(table)
            # Details: the bet step by step and every purse in every coin, privately
            details = await (await fd.click(ann, table, button(fd, table, "Details"))).wait_response()
            assert details["data"]["flags"] & 64
            shown = json.dumps(details["data"]["embeds"], ensure_ascii=False)
            assert "× Tide 1" in shown and "5 pp · bought in 5 pp" in shown and "Reading the Bones" in shown
            story = Story()
            audit = Audit(fd, CHANNEL)
            final = await play(fd, players, story, audit)
            # the game ends on a sealed choice made in a DM: the old table shrinks and the final
            # table is posted with the ledger on it, two channel calls like any other step
            audit.assert_targets()
            assert audit.turn_changes >= 10 and story.pictures >= 5
            # a Mutiny was cried against the NPC, voted on in secret, then revealed
            assert story.mutiny_cried
            assert "Sealed vote:" in story.sealed_vote_table and "⏳" in story.sealed_vote_table
            assert "Yay" not in story.sealed_vote_table and "Nay" not in story.sealed_vote_table
            assert "Your sealed vote" in story.sealed_vote_dm and "Captain" in story.sealed_vote_dm
            assert "Purses" not in story.sealed_vote_dm  # the DM holds no copy of the table
            assert re.search(rf"The votes: <@{bob.id}> Yay", story.votes), story.votes  # Bob is pinged
            # the Tide rose; the first choice stayed sealed while the second was awaited
            assert story.tide_tables, text_of(final)
            assert "The Tide rises to" in story.tide_dm and "Your sealed choice" in story.tide_dm
            assert "✅" in story.sealed_tide_table and "⏳" in story.sealed_tide_table
            assert "Heave" not in story.sealed_tide_table
            # both players Heaved Down: the channel was told, pinging them
            said = [m["content"] for m in fd.messages(CHANNEL) if "Heaves Down with" in (m.get("content") or "")]
            assert said and f"<@{ann.id}> Heaves Down" in said[-1] and f"<@{bob.id}> Heaves Down" in said[-1]
            # the channel keeps a story: old tables shrank to one line each, without buttons
            history = [m for m in fd.messages(CHANNEL) if not m.get("embeds") and (m.get("content") or "").startswith("**")]
            assert len(history) >= 10 and all(not fd.buttons(m) and "\n" not in m["content"] for m in history)
            assert any(re.match(r"\*\*Tide 1 · Wave \d\*\* · .*(sinks|claims)", m["content"]) for m in history)
            assert all("<@" not in m["content"] for m in history)  # history pings nobody
            # the ledger: an embed and a CSV the GM keeps; the nets sum to zero
            ledger = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL)
                              if any(a["filename"].endswith(".csv") for a in m.get("attachments") or [])), None),
                timeout=5, what="the ledger")
            books = next(e for e in ledger["embeds"] if "ledger" in e["title"])
            assert "sum to 0 cp" in books["description"]
            assert any(e.get("title") == "Final standings" for e in ledger["embeds"])  # on the final table
            (name, data), = [(n, d) for n, d in fd.attachments(ledger) if n.endswith(".csv")]
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            assert [r["name"] for r in rows] == ["Ann", "Bob", NPC]
            assert [int(r["buy_in_cp"]) for r in rows][:1] == [850] and int(rows[2]["buy_in_cp"]) >= 3000
            assert sum(int(r["net_cp"]) for r in rows) == 0
            for r in rows:
                assert int(r["net_cp"]) == int(r["cash_out_cp"]) - int(r["buy_in_cp"])
            # a player calls the rematch: same seats and purses, reversed, and the game-master
            # (who had no seat) still runs the table
            again = await (await fd.click(ann, final, button(fd, final, "Rematch"))).response_message()
            assert field(again, "Seats").splitlines() == [
                f"1. {NPC} (AI) · purse of 3 pp", "2. Bob · purse of 5 pp", "3. Ann · purse of 8 gp 5 sp"]
            assert f"<@{gm.id}> runs this table" in field(again, "Game-master")
            start = await (await fd.click(ann, again, button(fd, again, "Start"))).wait_response()
            assert start["type"] == 4 and "Only the host" in start["data"]["content"]
            said = await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Salty Pete"})
            assert said["data"]["flags"] & 64 and "Salty Pete" in said["data"]["content"]
        clean(fd, bot)


async def test_two_players_asked_at_once_see_whose_button_is_whose(tmp_path: Path) -> None:
    """After a Sink the Stone lies on the table: the next roller and the Stone's owner are asked
    together. Each button names its player, the prompt says so, and a press of the other
    player's button is refused in one private line without moving the game."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "stones-and-bones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            await settle(fd)
            for _ in range(40):  # pay and throw until a Sunk Stone lies for the other player
                table = live(fd)
                who = asked(table, [ann, bob])
                if len(who) == 2:
                    break
                pay = next(b for b in open_buttons(fd, table) if b["label"].startswith("Pay"))
                await (await fd.click(who[0], table, pay["custom_id"])).wait_response()
                await settle(fd)
            else:
                raise AssertionError("no Stone was left on the table")
            roller, owner = who
            labels = [b["label"] for b in open_buttons(fd, table)]
            assert all(label.startswith((f"{roller.name.title()}: ", f"{owner.name.title()}: ")) for label in labels)
            assert f"{owner.name.title()}: Pick up my Stone" in " | ".join(labels)
            assert "Each button names its player" in prompt_line(table)
            assert "pick up your Stone" in prompt_line(table)
            theirs = next(b for b in open_buttons(fd, table) if b["label"].startswith(f"{roller.name.title()}: Pay"))
            before = fd.message(table["id"])
            refused = await (await fd.click(owner, table, theirs["custom_id"])).wait_response()
            assert refused["type"] == 4 and refused["data"]["flags"] & 64
            assert "not yours" in refused["data"]["content"] and "embeds" not in refused["data"]
            await settle(fd)
            assert fd.message(table["id"]) == before
            # the owner picks the Stone up: the roller's buttons stay, the owner's go
            pick = next(b for b in open_buttons(fd, table) if "Pick up" in b["label"])
            await (await fd.click(owner, table, pick["custom_id"])).wait_response()
            await settle(fd)
            now = live(fd)
            assert asked(now, [ann, bob]) == [roller]
            assert not any("Pick up" in b["label"] for b in open_buttons(fd, now))
            # every table that shows the throw carries its picture, a real PNG
            (name, data), = fd.attachments(now)
            assert name == "bones.png" and data.startswith(PNG)
            assert any(e.get("image", {}).get("url") == "attachment://bones.png" for e in now["embeds"])
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
            await refused(fd, ann, "stones-and-bones stake", {"seat-or-player": "1", "amount": "90gp"},
                          "Only the host")
            # bad input from the GM is refused and changes nothing
            for amount, words in (("12 goats", "is not an amount"), ("0", "from 1 cp"),
                                  ("5gp 5gp", "Name each coin once"), ("1.5", "is not an amount"),
                                  ("99999999pp", "from 1 cp")):
                await refused(fd, gm, "stones-and-bones stake", {"seat-or-player": "Ann", "amount": amount},
                              words)
            await refused(fd, gm, "stones-and-bones stake", {"seat-or-player": "7", "amount": "9gp"},
                          "No seat matches")
            await refused(fd, gm, "stones-and-bones npc", {"name": "<@1> **Mags**"}, "1 to 32 characters")
            await refused(fd, gm, "stones-and-bones npc", {"name": "ann"}, "already called")
            await refused(fd, gm, "stones-and-bones npc", {"name": "Sly Pete", "stake": "a few"},
                          "is not an amount")
            assert fd.message(lobby["id"]) == before
            # the GM's good input shows in the lobby
            await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Sly Pete", "stake": "4gp 2sp 1cp"})
            await slash_ok(fd, gm, "stones-and-bones stake", {"seat-or-player": "ann", "amount": "7"})
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
            await settle(fd)
            table = live(fd)
            assert open_buttons(fd, table)
            # the GM has no seat, so the table's buttons are not theirs
            answer = await (await fd.click(gm, table, open_buttons(fd, table)[0]["custom_id"])).wait_response()
            assert answer["data"]["flags"] & 64 and "not playing" in answer["data"]["content"]
            await refused(fd, ann, "game pause", {}, "Only the host")
            paused = await (await fd.slash(gm, CHANNEL, "game pause")).wait_response()
            assert "paused the game" in paused["data"]["content"]
            table = await fd.wait_until(lambda: "paused" in (live(fd).get("content") or "") and live(fd),
                                        timeout=3, what="the table to say it is paused")
            assert open_buttons(fd, table) == []
            calls = len(fd.calls)
            await asyncio.sleep(2.5)  # well past the 1 s timer: nothing is played while paused
            assert live(fd) == table and len(fd.calls) == calls
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
            assert not re.search(r"\bSB-\d", shown)  # the rulings in words, not their codes
            lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new", {
                "fold": True, "grumbles": True, "mutiny_trigger": "any_claim"})).response_message()
            assert "Grumbles: on" in field(lobby, "House options")
            assert not re.search(r"\bSB-\d", text_of(lobby))
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
    """With these dice Bob's first bet reads exactly as Ann's did, so Bob's row looks the same
    as Ann's. Bob pressing Ann's row at the same moment must not pay Bob's bet on Bones he
    never saw: the row was drawn for Ann alone, and it has shrunk to a line of history."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        env = {"GAME_SEED": "2", "DEFAULT_TIMER_SECONDS": "0"}
        async with running_bot(fd, env, tmp_path / "sb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "stones-and-bones new", {"pilfer": "off"})).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            await settle(fd)
            table = live(fd)
            assert asked(table, [ann, bob]) == [ann]
            row = [b["label"] for b in open_buttons(fd, table)]
            pay = next(b["custom_id"] for b in open_buttons(fd, table) if b["label"].startswith("Pay"))
            first, second = await fd.click(ann, table, pay), await fd.click(bob, table, pay)
            assert (await first.wait_response())["type"] == 7
            late = await second.wait_response()
            assert late["type"] == 4 and late["data"]["flags"] & 64, late
            assert "embeds" not in late["data"], late  # one line, no copy of the table
            await settle(fd)
            now = live(fd)
            assert now["id"] != table["id"] and asked(now, [ann, bob]) == [bob]
            assert [b["label"] for b in open_buttons(fd, now)] == row  # the case this test is about
            old = fd.message(table["id"])
            assert not has_controls(old) and not old["embeds"] and old["content"].startswith("**Tide 1 · Wave 1**")
            assert text_length(now) <= 1000
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            moves = json.dumps(log["embeds"], ensure_ascii=False)
            assert "Ann pays" in moves and "Bob pays" not in moves
        clean(fd, bot)
