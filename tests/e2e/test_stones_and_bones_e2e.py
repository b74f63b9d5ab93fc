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
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.channel import (
    PNG,
    Audit,
    button,
    clean,
    finished,
    has_controls,
    is_layout,
    is_table,
    live_table,
    next_table,
    said,
    settle,
    text_length,
    texts,
    top,
)
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


@dataclass(frozen=True)
class Choice:
    """One move a table or a DM offers: a button, or one option of a menu. ``owner``: the name
    a menu of one seat's own choices is headed by (None: anyone asked may make it)."""

    label: str
    custom_id: str
    value: str | None = None
    owner: str | None = None


def choices(fd: FakeDiscord, message: dict, prefixes: tuple[str, ...] = ("bn:all:", "bn:allpick:")) -> list[Choice]:
    found = [Choice(b["label"], b["custom_id"]) for b in fd.buttons(message) if b["custom_id"].startswith(prefixes)]
    for menu in fd.selects(message):
        if menu["custom_id"].startswith(prefixes):
            placeholder = menu.get("placeholder") or ""
            owner = placeholder[: -len(": choose…")] if placeholder.endswith(": choose…") else None
            found += [Choice(o["label"], menu["custom_id"], o["value"], owner) for o in menu["options"]]
    return found


def private_choices(fd: FakeDiscord, message: dict) -> list[Choice]:
    return choices(fd, message, ("bn:act:", "bn:pick:"))


def prompt_line(message: dict) -> str:
    """The line that asks: it starts with the mentions of whoever must answer."""
    return next((line for line in top(message).splitlines() if line.startswith("<@")), "")


def asked(message: dict, players: list[FakeUser]) -> list[FakeUser]:
    """The players the table's prompt mentions, in the order it names them."""
    ids = [int(m) for m in _MENTION.findall(prompt_line(message).partition(": ")[0])]
    return [p for i in ids for p in players if p.id == i]


def may_press(choice: Choice, who: list[FakeUser]) -> list[FakeUser]:
    """Whose choice it is: a menu headed by a name is that player's; the rest is everyone's asked."""
    if choice.owner is None:
        return who
    return [p for p in who if p.name.title() == choice.owner] or who


def field(message: dict, name: str) -> str:
    """A block of the lobby headed by ``name`` in bold: the lines under it (or the rest of its line)."""
    for text in texts(message):
        if text.startswith(f"**{name}"):
            head, _, rest = text.partition("\n")
            return rest if rest else head.partition(":** ")[2]
    return ""


def history(fd: FakeDiscord) -> list[dict]:
    """The one-line stories older tables became."""
    return [m for m in fd.messages(CHANNEL) if not is_table(m) and said(m).startswith("**")]


def sealed(fd: FakeDiscord, players: list[FakeUser]) -> list[tuple[FakeUser, dict]]:
    """Players whose newest DM holds a sealed choice still to make (a choice made on the table
    is made there)."""
    out = []
    for p in players:
        dms = fd.dm_messages(p)
        if dms and private_choices(fd, dms[-1]) and top(dms[-1]).startswith(("Your sealed vote", "Your sealed choice")):
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
    assert "pirate tavern game" in said(lobby)  # the lobby says what the game is
    for p in players:
        await (await fd.click(p, lobby, button(fd, lobby, "Join"))).wait_response()
    answer = await slash_ok(fd, gm, "stones-and-bones npc", {"name": NPC, "stake": "3pp"})
    assert answer["data"]["flags"] & 64 and NPC in answer["data"]["content"]
    answer = await slash_ok(fd, gm, "stones-and-bones stake",
                            {"seat-or-player": f"<@{players[0].id}>", "amount": "8gp 5sp"})
    assert "8 gp 5 sp" in answer["data"]["content"]
    return await fd.wait_until(lambda: NPC in said(fd.message(lobby["id"])) and "8 gp 5 sp"
                               in said(fd.message(lobby["id"])) and fd.message(lobby["id"]),
                               timeout=3, what="the lobby to show the NPC and the purse")


async def press(fd: FakeDiscord, audit: Audit, user: FakeUser, message: dict, choice: Choice) -> None:
    audit.clicked(user)
    if choice.value is None:
        it = await fd.click(user, message, choice.custom_id)
    else:
        it = await fd.select(user, message, choice.custom_id, [choice.value])
    answer = await it.wait_response()
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
        self.tide_chooser = ""
        self.pictures = 0


async def play(fd: FakeDiscord, players: list[FakeUser], story: Story, audit: Audit, limit: int = 600) -> dict:
    """Click what the bot rendered until the game ends. Public choices: pay and throw (or the
    first choice); cry Mutiny once against the NPC Captain; ready; keep; stay aboard. Sealed:
    Yay; at a Tide rise stay until a Mutiny was voted on, then everyone Heaves Down, which ends
    the game."""
    await settle(fd)
    seen: set[str] = set()
    for _ in range(limit):
        note_new_dms(fd, audit, players, seen)
        table = live(fd)
        if finished(table):
            audit.look(set())
            return table
        who = asked(table, players)
        waiting = sealed(fd, players)
        shows_dice = ROLL_MARK in said(table)
        story.pictures += shows_dice
        audit.look({p.id for p in who} | {p.id for p, _ in waiting}, shows_dice=shows_dice)
        shown = choices(fd, table)
        if shown:
            assert who, top(table)
            labels = [c.label for c in shown]
            if "Mutiny!" in labels:
                captain = re.search(r"Captain \*\*(.+?)\*\*", said(table))
                pick = "Let it be"
                if not story.mutiny_cried and captain and captain[1] == NPC:
                    story.mutiny_cried, pick = True, "Mutiny!"
            elif "Ready to vote" in labels:
                pick = "Ready to vote"
            else:
                pick = labels[0]
            choice = next(c for c in shown if c.label == pick)
            await press(fd, audit, may_press(choice, who)[0], table, choice)
            continue
        assert waiting, f"nobody can act: {said(table)}"
        for player, dm in waiting:
            offered = private_choices(fd, dm)
            labels = [c.label for c in offered]
            if "Yay (back the Mutineer)" in labels:
                story.sealed_vote_table = said(live(fd))
                story.sealed_vote_dm = said(dm)
                pick = "Yay (back the Mutineer)"
            else:
                story.tide_dm = said(dm)
                now = live(fd)
                rose = re.search(r"The Tide rose to (\d+)", said(now))
                assert rose, said(now)
                story.tide_tables.add(rose[0])
                if "Chosen, sealed until all are in" in said(now) and "Waiting for" in top(now):
                    story.sealed_tide_table = said(now)  # one choice is in, this one not yet
                    story.tide_chooser = player.name.title()
                voted = any("The votes:" in said(m) for m in history(fd))
                pick = next(label for label in labels if label.startswith("Heave Down" if voted else "Stay"))
            await press(fd, audit, player, dm, next(c for c in offered if c.label == pick))
    raise AssertionError("the game did not end")


async def test_a_gm_runs_a_tavern_game_with_an_npc_to_the_end(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        players = [fd.add_user("ann"), fd.add_user("bob")]
        ann, bob = players
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await open_gm_table(fd, gm, players, {"mutiny_trigger": "any_claim"})
            seats = field(lobby, "Seats")
            assert seats.splitlines() == ["1. Ann · purse of 8 gp 5 sp", "2. Bob · purse of 50 gp",
                                          f"3. {NPC} (NPC) · purse of 30 gp"], seats
            assert field(lobby, "Game-master") == (f"<@{gm.id}> runs this table and takes no seat. "
                                                   "`/stones-and-bones npc` seats an NPC, `/stones-and-bones stake` "
                                                   "a seat's purse."), field(lobby, "Game-master")
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            table = live(fd)
            assert is_layout(table)
            # one short block per pirate, the purse in gold, silver and copper
            pirates = [t for t in texts(table) if t.startswith("**") and "Tide" not in t]
            assert [next(n for n in ("Ann", "Bob", NPC) if n in line) for line in pirates] == ["Ann", "Bob", NPC]
            assert all(re.search(r"\*\* \d+ gp( \d sp)?( \d cp)?( · Captain)?$", line) for line in pirates), pirates
            assert ROLL_MARK in said(table) and "→ bet **" in said(table)
            # Details: the bet step by step first, every purse a tap away, privately
            details = await (await fd.click(ann, table, button(fd, table, "Details"))).wait_response()
            assert details["data"]["flags"] & 64
            shown = said(details["data"])
            assert "× Tide 1" in shown and "Your purse: **8 gp 4 sp**" in shown  # (after the ante)
            pages = [o["label"] for m in fd.selects(details["data"]) for o in m["options"]]
            assert pages[:3] == ["This turn", "Purses", "Reading the Bones"], pages
            story = Story()
            audit = Audit(fd, CHANNEL)
            final = await play(fd, players, story, audit)
            # the game ends on a sealed choice made in a DM: the old table shrinks and the final
            # table is posted with the ledger on it, two channel calls like any other step
            audit.assert_targets()
            assert audit.turn_changes >= 10 and story.pictures >= 5
            # a Mutiny was cried against the NPC, voted on in secret, then revealed
            assert story.mutiny_cried
            assert "Voted, sealed until all are in" in story.sealed_vote_table or "Waiting for" in story.sealed_vote_table
            assert "Yay" not in story.sealed_vote_table and "Nay" not in story.sealed_vote_table
            assert "Your sealed vote" in story.sealed_vote_dm and "Captain" in story.sealed_vote_dm
            assert "Purses" not in story.sealed_vote_dm  # the DM holds no copy of the table
            lines = [said(m) for m in history(fd)]
            votes = next(line for line in lines if "The votes:" in line)
            assert re.search(r"The votes: (Bob|Ann) Yay", votes), votes  # history names them, pings nobody
            # the Tide rose; the first choice stayed sealed while the second was awaited
            assert story.tide_tables, said(final)
            assert "The Tide rose to" in story.tide_dm and "Your sealed choice" in story.tide_dm
            assert "Chosen, sealed until all are in" in story.sealed_tide_table
            assert not re.search(r"(Ann|Bob) (stays|buys in|Heaves Down|votes to end)", story.sealed_tide_table)
            # both players Heaved Down: the line above the final table says so, once
            heaved = [line for line in lines if "Heaves Down with" in line]
            assert len(heaved) == 1 and "Ann Heaves Down with" in heaved[0] and "Bob Heaves Down with" in heaved[0]
            assert "Heaves Down" not in said(final)  # the final table does not repeat it
            # the winner is named (and pinged) once, at the top of the final table
            assert said(final).count("wins with a net of") == 1 and top(final).startswith("🏆 ")
            # the channel keeps a story: old tables shrank to one line each, never empty
            assert len(lines) >= 10 and all(not fd.buttons(m) and "\n" not in said(m) for m in history(fd))
            assert all(re.match(r"\*\*[^*]+\*\* · \S", line) for line in lines), lines
            assert any(re.match(r"\*\*Tide 1 · Wave \d · Turns? [\d–]+\*\* · .*(sinks|claims)", line) for line in lines)
            assert all("<@" not in line for line in lines)  # history pings nobody
            # the ledger rides on the final table with a CSV the GM keeps; the nets sum to zero
            assert "### The ledger" in said(final) and "sum to 0 cp" in said(final)
            assert "Final standings" in said(final)
            (name, data), = [(n, d) for n, d in fd.attachments(final) if n.endswith(".csv")]
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            assert [r["name"] for r in rows] == ["Ann", "Bob", NPC]
            assert [int(r["buy_in_cp"]) for r in rows][:1] == [850] and int(rows[2]["buy_in_cp"]) >= 3000
            assert sum(int(r["net_cp"]) for r in rows) == 0
            for r in rows:
                assert int(r["net_cp"]) == int(r["cash_out_cp"]) - int(r["buy_in_cp"])
            # whoever's sealed choice ended the game is told it counted, not that their copy is old
            ended = [said(m) for p in players for m in fd.dm_messages(p) if said(m).startswith("✓ Done")]
            assert ended == [f"✓ Done: that ended the game. The final table is in <#{fd.channel(CHANNEL).id}>."], ended
            # a player calls the rematch: the same seats, reversed, each with the purse it took
            # home, and the game-master (who had no seat) still runs the table
            again = await (await fd.click(ann, final, button(fd, final, "Rematch"))).response_message()
            # the final table keeps its ledger and the CSV, and loses only its Rematch button
            await fd.wait_until(lambda: "Rematch" not in [b["label"] for b in fd.buttons(fd.message(final["id"]))],
                                timeout=3, what="the final table without its Rematch button")
            kept = fd.message(final["id"])
            assert "### The ledger" in said(kept) and "Final standings" in said(kept)
            assert [n for n, _ in fd.attachments(kept) if n.endswith(".csv")] == [name]
            assert [b["label"] for b in fd.buttons(kept)] == ["Details"]
            took = {r["name"]: r["cash_out"] for r in rows}
            assert field(again, "Seats").splitlines() == [
                f"1. {NPC} (NPC) · purse of {took[NPC]}", f"2. Bob · purse of {took['Bob']}",
                f"3. Ann · purse of {took['Ann']}"], (field(again, "Seats"), took)
            assert top(again).startswith("Each purse is what its seat took home from the last game; "
                                         "`/stones-and-bones stake` changes one."), top(again)
            assert f"<@{gm.id}> runs this table" in field(again, "Game-master")
            assert "The game-master presses **Start**" in said(again) and "The host presses" not in said(again)
            start = await (await fd.click(ann, again, button(fd, again, "Start"))).wait_response()
            assert start["type"] == 4 and f"Only the game-master (<@{gm.id}>) or a GM" in start["data"]["content"]
            answer = await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Salty Pete"})
            assert answer["data"]["flags"] & 64 and "Salty Pete" in answer["data"]["content"]
            # the rematch plays: a player's first press counts (the old game's count of moves
            # stays with the old game), and the table moves on
            await (await fd.click(gm, again, button(fd, again, "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            await settle(fd)
            table = live(fd)
            shown = choices(fd, table)
            who = asked(table, players)
            assert shown and who, said(table)
            pressed = await fd.click(may_press(shown[0], who)[0], table, shown[0].custom_id)
            answer = await pressed.wait_response()
            assert answer["type"] == 7 and "moment has passed" not in json.dumps(answer), answer
            await fd.wait_until(lambda: live(fd)["id"] != table["id"] or said(live(fd)) != said(table), timeout=10,
                                what="the rematch's table to move on")
        clean(fd, bot)


async def test_a_game_ended_early_takes_each_purse_home_and_names_the_coffer(tmp_path: Path) -> None:
    """The session ends mid-Wave: the ledger below the ended table counts each purse at the
    table as taken home, and names the money the coffer holds, which nobody had won."""
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await open_gm_table(fd, gm, players)
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            table = live(fd)
            shown = choices(fd, table)
            await press(fd, Audit(fd, CHANNEL), may_press(shown[0], asked(table, players))[0], table, shown[0])
            coffer = re.search(r"Coffer \*\*([^*]+)\*\*", said(live(fd)))
            assert coffer, said(live(fd))
            ask = await (await fd.slash(gm, CHANNEL, "game end")).response_message()
            await (await fd.click(gm, ask, button(fd, ask, "End the game"))).wait_response()
            await fd.wait_until(lambda: "game ended" in said(fd.message(live(fd)["id"])), timeout=3,
                                what="the table to say the game ended")
            await settle(fd)
            ended, ledger = live(fd), fd.messages(CHANNEL)[-1]
            assert ledger["embeds"][0]["title"] == "The ledger", ledger
            lines = ledger["embeds"][0]["description"].split("\n")
            assert lines[0] == "The game ended early: each purse at the table is cashed out as it stood."
            (_, data), = [(n, d) for n, d in fd.attachments(ledger) if n.endswith(".csv")]
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            for row, line in zip(rows, lines[1:4], strict=True):  # each purse as the ended table shows it
                assert line.startswith(f"**{row['name']}**: bought in {row['buy_in']} · cashed out "
                                       f"{row['cash_out']} · net **"), (line, row)
                assert f"**{row['name']}** {row['cash_out']}" in said(ended), (row, said(ended))
            left = sum(int(r["buy_in_cp"]) - int(r["cash_out_cp"]) for r in rows)
            assert left > 0 and lines[4] == (f"💰 {coffer[1]} stays in the coffer (the Wave's antes and bets): the game "
                                             "ended before anyone won it."), lines[4]
            assert lines[5].startswith("Every copper is accounted for: the nets sum to -"), lines[5]
        clean(fd, bot)


async def test_two_players_asked_at_once_each_have_their_own_controls(tmp_path: Path) -> None:
    """After a Sink the Stone lies on the table: the next roller and the Stone's owner are asked
    together. The question gives each their part by name, each one's choices are in a menu
    headed by their name (no label names a player), and a pick from the other player's menu is
    refused in one private line without moving the game."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "stones-and-bones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            await next_table(fd, CHANNEL)
            for _ in range(40):  # pay and throw until a Sunk Stone lies for the other player
                table = live(fd)
                who = asked(table, [ann, bob])
                if len(who) == 2:
                    break
                pay = next(c for c in choices(fd, table) if c.label.startswith("Pay"))
                it = await (fd.click(who[0], table, pay.custom_id) if pay.value is None
                            else fd.select(who[0], table, pay.custom_id, [pay.value]))
                await it.wait_response()
                await settle(fd)
            else:
                raise AssertionError("no Stone was left on the table")
            roller, owner = who
            offered = choices(fd, table)
            assert {c.owner for c in offered} == {roller.name.title(), owner.name.title()}
            assert not any(c.label.startswith((f"{roller.name.title()}: ", f"{owner.name.title()}: ")) for c in offered)
            assert any(c.owner == owner.name.title() and c.label.startswith("Pick up my Stone") for c in offered)
            assert "names its player" not in said(table)
            assert f"**{roller.name.title()}**, your throw: pay" in prompt_line(table)
            assert f"**{owner.name.title()}**, your Stone" in prompt_line(table)
            theirs = next(c for c in offered if c.owner == roller.name.title() and c.label.startswith("Pay"))
            before = fd.message(table["id"])
            refused = await (await fd.select(owner, table, theirs.custom_id, [theirs.value or "0"])).wait_response()
            assert refused["type"] == 4 and refused["data"]["flags"] & 64
            assert "not yours" in refused["data"]["content"] and "embeds" not in refused["data"]
            await settle(fd)
            assert fd.message(table["id"]) == before
            # the owner picks the Stone up: the roller's choices stay, the owner's go
            pick = next(c for c in offered if "Pick up" in c.label)
            await (await fd.select(owner, table, pick.custom_id, [pick.value or "0"])).wait_response()
            await settle(fd)
            now = live(fd)
            assert asked(now, [ann, bob]) == [roller]
            assert not any("Pick up" in c.label for c in choices(fd, now))
            # every table that shows the throw carries its picture, a real PNG
            (name, data), = fd.attachments(now)
            assert name == "bones.png" and data.startswith(PNG)
            assert "attachment://bones.png" in json.dumps(now["components"])
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
            assert field(lobby, "House options") == "starting purse: 20 gp"
            # the game-master runs the table and takes no seat
            answer = await (await fd.click(gm, lobby, button(fd, lobby, "Join"))).wait_response()
            assert answer["data"]["flags"] & 64 and "game-master" in answer["data"]["content"]
            await (await fd.click(ann, lobby, button(fd, lobby, "Join"))).wait_response()
            before = fd.message(lobby["id"])
            assert field(before, "Seats").splitlines() == ["1. Ann · purse of 20 gp"]
            # players cannot seat NPCs or set purses
            await refused(fd, ann, "stones-and-bones npc", {"name": "Sly Pete"}, "Only the game-master")
            await refused(fd, ann, "stones-and-bones stake", {"seat-or-player": "1", "amount": "90gp"},
                          f"Only the game-master (<@{gm.id}>) or a GM of this server can set a seat's purse.")
            # bad input from the GM is refused and changes nothing
            for amount, words in (("12 goats", "is not an amount"), ("0", "from 1 cp"),
                                  ("5gp 5gp", "Name each coin once"), ("1.5", "is not an amount"),
                                  ("99999999pp", "from 1 cp to 10,000,000 gp; “99999999pp” is 999,999,990 gp.")):
                await refused(fd, gm, "stones-and-bones stake", {"seat-or-player": "Ann", "amount": amount},
                              words)
            await refused(fd, gm, "stones-and-bones stake", {"seat-or-player": "7", "amount": "9gp"},
                          "No seat matches")
            await refused(fd, gm, "stones-and-bones stake", {"seat-or-player": f"<@{gm.id}>", "amount": "9gp"},
                          f"<@{gm.id}> runs this table as its game-master and has no seat (seats: 1. Ann).")
            await refused(fd, gm, "stones-and-bones npc", {"name": "<@1> **Mags**"}, "1 to 32 characters")
            await refused(fd, gm, "stones-and-bones npc", {"name": "ann"}, "Ann already sits at this table")
            await refused(fd, gm, "stones-and-bones npc", {"name": "bot  2"}, "“bot 2” is how the lobby names")
            await refused(fd, gm, "stones-and-bones npc", {"name": "Sly Pete", "stake": "a few"},
                          "is not an amount")
            assert fd.message(lobby["id"]) == before
            # the GM's good input shows in the lobby
            await slash_ok(fd, gm, "stones-and-bones npc", {"name": "Bot Keeper", "stake": "4gp 2sp 1cp"})
            await slash_ok(fd, gm, "stones-and-bones stake", {"seat-or-player": "ann", "amount": "7"})
            await fd.wait_until(lambda: field(fd.message(lobby["id"]), "Seats").splitlines()
                                == ["1. Ann · purse of 7 gp", "2. Bot Keeper (NPC) · purse of 4 gp 2 sp 1 cp"],
                                timeout=3, what="the lobby to show both purses")
            await refused(fd, bob, "stones-and-bones npc", {"name": "Nobody"}, "Only the game-master")
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
            await next_table(fd, CHANNEL)
            table = live(fd)
            assert choices(fd, table)
            # the GM has no seat, so the table's buttons are not theirs
            answer = await (await fd.click(gm, table, choices(fd, table)[0].custom_id)).wait_response()
            assert answer["data"]["flags"] & 64 and "not playing" in answer["data"]["content"]
            await refused(fd, ann, "game pause", {}, f"Only the game-master (<@{gm.id}>), a GM")
            paused = await (await fd.slash(gm, CHANNEL, "game pause")).wait_response()
            assert "paused the game" in paused["data"]["content"]
            table = await fd.wait_until(lambda: "paused" in top(live(fd)) and live(fd),
                                        timeout=3, what="the table to say it is paused")
            assert choices(fd, table) == []
            assert f"The game-master (<@{gm.id}>) resumes it with `/game resume`." in top(table)
            # a player may leave a paused game: the bot takes the seat and plays it once resumed
            left = await (await fd.slash(ann, CHANNEL, "game leave")).wait_response()
            assert f"from here once the game-master (<@{gm.id}>) resumes it" in left["data"]["content"], left
            table = await fd.wait_until(lambda: "Ann (bot)" in said(live(fd)) and live(fd),
                                        timeout=3, what="the paused table to show Ann's seat a bot's")
            calls = len(fd.calls)
            await asyncio.sleep(2.5)  # well past the 1 s timer: nothing is played while paused
            assert live(fd) == table and len(fd.calls) == calls
            assert not any("Time ran out" in said(m) for m in fd.messages(CHANNEL))
            await (await fd.slash(gm, CHANNEL, "game resume")).wait_response()
            await fd.wait_until(lambda: any("Time ran out" in said(m)
                                            for m in fd.messages(CHANNEL)),
                                timeout=6, what="the timer to run again after resume")
            # the GM ends the game they run
            end = await (await fd.slash(gm, CHANNEL, "game end")).response_message()
            await (await fd.click(gm, end, button(fd, end, "End the game"))).wait_response()
            ended = await fd.wait_until(lambda: next((m for m in fd.messages(CHANNEL) if "ended the game" in said(m)),
                                                     None), timeout=3, what="the end")
            # where the game stood, for the campaign: every purse, and no control left
            assert "this is where it stood" in said(ended) and not fd.buttons(ended)
            assert all(re.search(rf"\*\*{re.escape(name)}\*\* \d+ gp", said(ended))
                       for name in ("Ann (bot)", "Bob")), said(ended)
        clean(fd, bot)


async def every_page(fd: FakeDiscord, user: FakeUser, command: str) -> list[tuple[str, str]]:
    """The pages a rules answer shows, each (title, words), turned with its page menu."""
    first = await (await fd.slash(user, CHANNEL, command, {})).response_message()
    assert first["flags"] & 64 and is_layout(first)
    (menu,) = [m for m in fd.selects(first) if m["custom_id"].startswith("bn:page:")]
    pages = [(menu["options"][0]["label"], said(first))]
    for option in menu["options"][1:]:
        shown = await (await fd.select(user, first, menu["custom_id"], [option["value"]])).response_message()
        pages.append((option["label"], said(shown)))
    return pages


async def test_the_rules_commands_show_every_ruling_in_force_unclipped(tmp_path: Path) -> None:
    """``/stones-and-bones rules`` (the defaults) and ``/game rules`` (this table's options) open
    on How to play, one screen, and hold the whole rules text a page a section: the rulings,
    house choices and timeouts, with nothing clipped; then the game's words."""
    from rules.stones_and_bones import StonesAndBonesOptions, how_to_play, rules_sections

    async with running_fake() as fd:
        gm = fd.add_user("gm")
        async with running_bot(fd, ENV, tmp_path / "sb.sqlite3") as bot:
            pages = await every_page(fd, gm, "stones-and-bones rules")
            titles = [title for title, _ in pages]
            assert titles[0] == "Stones & Bones: rules (default options)" and titles[-1].startswith("Words")
            assert how_to_play(StonesAndBonesOptions()) in pages[0][1]
            shown = "\n".join(words for _, words in pages)
            for _, section in rules_sections(StonesAndBonesOptions()):
                assert section in shown
            assert "a won Mutiny lifts the Curse" in shown and "a ledger (on the final table" in shown
            assert not re.search(r"\bSB-\d", shown)  # the rulings in words, not their codes
            lobby = await (await fd.slash(gm, CHANNEL, "stones-and-bones new", {
                "fold": True, "grumbles": True, "mutiny_trigger": "any_claim"})).response_message()
            assert "Grumbles: on" in field(lobby, "House options")
            assert not re.search(r"\bSB-\d", said(lobby))
            options = StonesAndBonesOptions(fold=True, grumbles=True, mutiny_trigger="any_claim")
            for command in ("game rules", "stones-and-bones rules"):  # at this table: its options
                pages = await every_page(fd, gm, command)
                assert pages[0][0] == "Stones & Bones: rules in force here"
                shown = "\n".join(words for _, words in pages)
                for _, section in rules_sections(options):
                    assert section in shown
            for words in ("if you can pay it, **fold**", "goes back to its payer", "on any claim",
                          "no Grumbles, no objection", "2,000-turn safety cap", "**Grumbles**: pay"):
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
            await next_table(fd, CHANNEL)
            table = live(fd)
            assert asked(table, [ann, bob]) == [ann]
            row = [c.label for c in choices(fd, table)]
            pay = next(c.custom_id for c in choices(fd, table) if c.label.startswith("Pay"))
            first, second = await fd.click(ann, table, pay), await fd.click(bob, table, pay)
            assert (await first.wait_response())["type"] == 7
            late = await second.wait_response()
            assert late["type"] == 4 and late["data"]["flags"] & 64, late
            assert "embeds" not in late["data"], late  # one line, no copy of the table
            await settle(fd)
            now = live(fd)
            assert now["id"] != table["id"] and asked(now, [ann, bob]) == [bob]
            assert [c.label for c in choices(fd, now)] == row  # the case this test is about
            old = fd.message(table["id"])
            assert not has_controls(old) and not is_table(old) and said(old).startswith("**Tide 1 · Wave 1 · Turn 1** · Ann")
            assert text_length(now) <= 1000
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            moves = said(log)
            assert "Ann pays" in moves and "Bob pays" not in moves
        clean(fd, bot)
