"""Roll the Bones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered: their sealed antes and picks in the DM the
bot sent them or, without one, in the table's **My hand** ephemeral copy; bone calls and Ready
on the public table. Every version of every public message (posts and edits alike) is recorded
and audited against what the players actually sealed: nothing chosen in secret may show, or
change the public table, before its phase closes. Every test ends with ``clean(fd, bot)``.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import roll_the_bones as rtb
from rules.base import Engine
from tests.e2e.test_knucklebones_e2e import CHANNEL, button, clean, finished
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

TITLE = re.compile(r"^Roll the Bones · round (\d+)(?: · tie roll (\d+))?$")
SEAT_LINE = re.compile(r"^\*\*(?P<name>[^*]+)\*\*: (?P<total>\d+) dic?e \((?P<dice>[^)]*)\)(?P<rest>.*)$")
ROLL = re.compile(r"(?:^|· |Roll \d+: )(?P<name>[^·:\n]+): d(?P<sides>\d+)(?P<bone> 🦴)? → \*\*(?P<face>\d+)\*\*")
REVEAL = re.compile(r"Round (\d+): the rolls")
ACCOUNTS = re.compile(r"Round (\d+): where the dice went")
DIE_NAME = re.compile(r"\bd(4|6|8|10|12)\b")
#: the only news a sealed phase may add to the table: who has chosen, never what
SEALED_NEWS = re.compile(r"^[\w ]+ has (sealed their ante|picked a die)\.$")
#: waiting for a DM that the bot owes a player; returns as soon as it arrives
DM_WAIT = 2.0


# -- what the channel showed -------------------------------------------------------------------


class PublicRecord:
    """Every version of every message in the channel, in the order the fake stored them.

    The fake keeps only the latest version of a message, but every post and every edit of a
    channel message reaches the bot through the fake's gateway dispatch: recording there sees
    each version exactly once, whichever route (REST edit, interaction update, webhook) made it.
    Ephemeral messages never pass there, so they are never counted as public."""

    def __init__(self, fd: FakeDiscord, channel: str) -> None:
        self.channel_id = fd.channel(channel).id
        self.versions: list[dict[str, Any]] = []
        dispatch = fd._dispatch_message

        async def recording(event: str, msg: dict[str, Any]) -> None:
            if int(msg["channel_id"]) == self.channel_id:
                self.versions.append(copy.deepcopy(msg))
            await dispatch(event, msg)

        fd._dispatch_message = recording  # type: ignore[method-assign]


def dice_of(text: str) -> Counter[int]:
    """``2×d4 d6 d12🦴`` (the table) or ``2×d4, d6`` (a button label) as {sides: count}."""
    found: Counter[int] = Counter()
    for count, sides in re.findall(r"(?:(\d+)×)?d(\d+)", text):
        found[int(sides)] += int(count or 1)
    return found


@dataclass
class Shot:
    """One public version of the table while a round is being played."""

    message: dict[str, Any]
    round: int
    cycle: int
    phase: str
    seats: dict[str, Counter[int]]
    status: dict[str, str]
    fields: dict[str, str]

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.round, self.cycle, self.phase)

    def recent(self) -> list[str]:
        return [ln for ln in self.fields.get("What just happened", "").splitlines() if ln]

    def comparable(self) -> str:
        """The table minus what a sealed phase may change: who has chosen, the move number
        and the news (audited on its own)."""
        embed = copy.deepcopy(self.message["embeds"][0])
        embed.pop("footer", None)
        embed["fields"] = [f for f in embed.get("fields", []) if f["name"] != "What just happened"]
        text = json.dumps(embed, sort_keys=True, ensure_ascii=False)
        return text.replace(" · ✅ sealed", "").replace(" · ⏳ choosing", "")


def shot_of(message: dict[str, Any]) -> Shot | None:
    embeds = message.get("embeds") or []
    if not embeds:
        return None
    found = TITLE.match(embeds[0].get("title") or "")
    if not found:
        return None
    embed = embeds[0]
    description = embed.get("description") or ""
    phase = next(p for p, word in (("ante", "**Ante**"), ("bone", "**Bone call**"), ("pick", "**Pick**"))
                 if word in description)
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    seats: dict[str, Counter[int]] = {}
    status: dict[str, str] = {}
    for line in fields["Players"].splitlines():
        seat = SEAT_LINE.match(line)
        if seat:
            seats[seat["name"]] = dice_of(seat["dice"])
            assert sum(seats[seat["name"]].values()) == int(seat["total"]), line
            status[seat["name"]] = seat["rest"]
    return Shot(message, int(found[1]), int(found[2] or 1), phase, seats, status, fields)


def move_of(message: dict[str, Any]) -> int:
    found = re.search(r"move (\d+)", message["embeds"][0]["footer"]["text"])
    assert found, message["embeds"][0]["footer"]
    return int(found[1])


def rolls_in(text: str) -> dict[int, dict[str, tuple[int, int, bool]]]:
    """The rolls in a field by cycle ("Roll 2: ..."; unnumbered: the round's only roll):
    {cycle: {name: (sides, face, bone)}}."""
    records = {}
    for line in text.splitlines():
        entries = list(ROLL.finditer(line))
        if entries:
            numbered = re.match(r"Roll (\d+): ", line)
            records[int(numbered[1]) if numbered else 1] = {
                e["name"]: (int(e["sides"]), int(e["face"]), bool(e["bone"])) for e in entries}
    return records


# -- what the players sealed -------------------------------------------------------------------


@dataclass
class Sealed:
    """What the players chose in secret, keyed by (round, cycle): the ground truth the public
    record is audited against."""

    antes: dict[tuple[int, int], dict[str, Counter[int]]] = field(default_factory=dict)
    picks: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)


def audit(record: PublicRecord, sealed: Sealed, names: list[str]) -> dict[str, int]:
    """Check every public version against the sealed choices; returns what was checked.

    - No private view ever reaches the channel.
    - While an ante or a pick is sealed, the table is the same as when the phase opened, apart
      from who has chosen; its news says only who has chosen; its text names no die; every
      collection still holds the dice its owner is putting in or will roll.
    - Once the ante phase closes, the antes shown are exactly the ones sealed, and they have
      left the collections; once the dice are rolled, the rolls shown are exactly the picks."""
    checked = Counter[str]()
    first: dict[tuple[int, int, str], Shot] = {}
    antes_seen: set[tuple[int, int]] = set()
    for message in record.versions:
        for embed in message.get("embeds") or []:
            assert "your dice" not in (embed.get("title") or ""), "a private view reached the channel"
            assert "Your ante" not in (embed.get("description") or ""), "a private view reached the channel"
        shot = shot_of(message)
        if shot is None:
            continue
        checked["versions"] += 1
        baseline = first.setdefault(shot.key, shot)
        cycle = (shot.round, shot.cycle)
        if shot.phase in ("ante", "pick"):
            assert shot.comparable() == baseline.comparable(), (
                f"the public table changed during a sealed {shot.phase} phase:\n"
                f"{baseline.comparable()}\n->\n{shot.comparable()}")
            for line in shot.recent():
                assert line in baseline.recent() or SEALED_NEWS.match(line), f"sealed phase news: {line!r}"
            assert not DIE_NAME.search(message.get("content") or ""), message["content"]
            assert "Antes this roll" not in shot.fields or shot.phase == "pick"
            done_rolls = rolls_in(shot.fields.get("This round so far", ""))
            assert shot.cycle not in done_rolls and len(done_rolls) == shot.cycle - 1, \
                "a roll of this cycle is shown before the dice are thrown"
            if shot.phase == "ante":
                for name, dice in sealed.antes.get(cycle, {}).items():
                    assert not dice - shot.seats[name], f"{name}'s sealed ante left the collection early"
                    checked["sealed antes held"] += 1
            for name, sides in sealed.picks.get(cycle, {}).items():
                if shot.phase == "pick":
                    assert shot.seats[name][sides] >= 1, f"{name}'s picked d{sides} left the collection early"
                    checked["sealed picks held"] += 1
        if shot.phase in ("bone", "pick") and cycle in sealed.antes and cycle not in antes_seen:
            # the first version after the ante closed: the antes revealed are the ones sealed
            shown = {part.split(": ")[0]: dice_of(part.split(": ")[1])
                     for part in shot.fields["Antes this roll"].split(" · ")}
            for name, dice in sealed.antes[cycle].items():
                assert shown[name] == dice, f"{name} sealed {dice}, the table shows {shown.get(name)}"
                checked["antes revealed"] += 1
            before = first[(shot.round, shot.cycle, "ante")]
            for name in shown:
                assert before.seats[name] - shown[name] == shot.seats[name], f"{name}'s ante did not leave"
            antes_seen.add(cycle)
    # every roll shown afterwards is the die its player sealed
    for message in record.versions:
        for embed in message.get("embeds") or []:
            for f in embed.get("fields", []):
                found = REVEAL.match(f["name"])
                if not found:
                    continue
                for cycle_no, rolled in rolls_in(f["value"]).items():
                    for name, sides in sealed.picks.get((int(found[1]), cycle_no), {}).items():
                        assert rolled[name][0] == sides, f"{name} sealed d{sides}, the reveal shows {rolled[name]}"
                        checked["picks revealed"] += 1
    assert set(names) <= {n for key, shot in first.items() for n in shot.seats}
    return dict(checked)


# -- playing by clicking -----------------------------------------------------------------------


@dataclass
class Player:
    user: FakeUser
    #: chooses a button label from the labels the bot rendered for this player
    choose: Callable[[Shot, list[str]], str]
    #: presses the bone call on the table when it may
    caller: bool = False
    via_dm: int = 0
    via_hand: int = 0
    dms_missing: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.user.name.title()


def smallest(shot: Shot, labels: list[str]) -> str:
    """Ante the smallest dice (Fill, then Seal); roll the smallest die offered."""
    for prefix in ("Fill with my smallest", "Seal my ante", "Roll a "):
        for label in labels:
            if label.startswith(prefix):
                return label
    raise AssertionError(f"nothing to press in {labels}")


def largest_first(shot: Shot, labels: list[str]) -> str:
    """Put the largest ordinary die in the ante first, then fill with the smallest; roll the
    smallest die. An ante nobody could guess from the timeout default."""
    adds = [lb for lb in labels if lb.startswith("Ante a d") and not lb.startswith(f"Ante a d{rtb.BONE}")]
    if adds and not any(lb.startswith("Take back") for lb in labels):
        return max(adds, key=lambda lb: int(re.match(r"Ante a d(\d+)", lb)[1]))  # type: ignore[index]
    return smallest(shot, labels)


def table_of(fd: FakeDiscord) -> dict[str, Any]:
    for message in reversed(fd.messages(CHANNEL)):
        if message["embeds"] and message["embeds"][0].get("title", "").startswith("Roll the Bones"):
            return message
    raise AssertionError("no table in the channel")


async def settle(fd: FakeDiscord, move: int) -> dict[str, Any]:
    """The table once it shows ``move`` or later."""
    return await fd.wait_until(lambda: (t := table_of(fd)) and move_of(t) >= move and t, timeout=5,
                               what=f"the table to show move {move}")


def act_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in FakeDiscord.buttons(message) if b["custom_id"].startswith("bn:act:")]


def is_current(dm: dict[str, Any], shot: Shot) -> bool:
    """A DM that holds this player's controls for the phase the table is in."""
    title = dm["embeds"][0].get("title", "") if dm.get("embeds") else ""
    labels = [b["label"] for b in act_buttons(dm)]
    kind = ("Ante a", "Take back", "Fill", "Seal") if shot.phase == "ante" else ("Roll",)
    return title == shot.message["embeds"][0]["title"] + " · your dice" and any(
        lb.startswith(kind) for lb in labels)


async def controls(fd: FakeDiscord, player: Player, shot: Shot) -> dict[str, Any]:
    """Where the bot put this player's sealed choice: its DM, else the table's My hand."""
    if not player.user.dms_closed:
        try:
            return await fd.wait_until(
                lambda: next((m for m in reversed(fd.dm_messages(player.user)) if is_current(m, shot)), None),
                timeout=DM_WAIT, what=f"{player.name}'s DM")
        except TimeoutError:
            player.dms_missing.append((shot.round, shot.cycle, shot.phase))
    hand = await fd.click(player.user, shot.message, button(fd, shot.message, "My hand"))
    private = await hand.response_message()
    assert private["flags"] & 64, "My hand must answer privately"
    player.via_hand += 1
    return private


async def seal_one(fd: FakeDiscord, player: Player, shot: Shot, sealed: Sealed) -> None:
    """The player makes one private click towards their ante or pick; the truth is noted."""
    message = await controls(fd, player, shot)
    while True:
        choices = act_buttons(message)
        labels = [b["label"] for b in choices]
        label = player.choose(shot, labels)
        it = await fd.click(player.user, message, next(b["custom_id"] for b in choices if b["label"] == label))
        answer = await it.wait_response()
        assert answer["type"] == 7, answer
        if message["channel_id"] != str(fd.channel(CHANNEL).id):
            player.via_dm += 1
        cycle = (shot.round, shot.cycle)
        if label.startswith("Seal my ante"):
            sealed.antes.setdefault(cycle, {})[player.name] = dice_of(label.split(":", 1)[1]) if ":" in label else Counter()
        elif label.startswith("Roll"):
            sealed.picks.setdefault(cycle, {})[player.name] = int(re.search(r"d(\d+)", label)[1])  # type: ignore[index]
        message = fd.message(message["id"])
        assert message is not None
        if label.startswith(("Seal", "Roll")):
            await settle(fd, move_of(message))
            return
        # the same private message now holds the next step of the ante


async def bone_click(fd: FakeDiscord, player: Player, shot: Shot, label_prefix: str) -> None:
    target = next(b for b in FakeDiscord.buttons(shot.message) if b["label"].startswith(label_prefix))
    it = await fd.click(player.user, shot.message, target["custom_id"])
    answer = await it.wait_response()
    assert answer["type"] == 7, answer
    await settle(fd, move_of(table_of(fd)))


async def play(fd: FakeDiscord, players: list[Player], sealed: Sealed, limit: int = 500) -> dict[str, Any]:
    """Play until the final standings, one click at a time, in the order of ``players``."""
    by_name = {p.name: p for p in players}
    for _ in range(limit):
        table = table_of(fd)
        if finished(table):
            return table
        shot = shot_of(table)
        assert shot is not None, table["embeds"][0].get("title")
        if shot.phase == "bone":
            owing = [by_name[n] for n, s in shot.status.items() if "⏳ deciding" in s]
            callers = [p for p in owing if p.caller and "🦴 called" not in shot.status[p.name]
                       and shot.seats[p.name][rtb.BONE]]
            if callers:
                await bone_click(fd, callers[0], shot, "Call or withdraw")
            else:
                await bone_click(fd, owing[0], shot, "Ready")
        else:
            owing = [p for p in players if "⏳ choosing" in shot.status.get(p.name, "")]
            assert owing, f"nobody owes a choice in {shot.status}"
            await seal_one(fd, owing[0], shot, sealed)
    raise AssertionError("the game did not end")


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], options: dict[str, Any],
                     bots: int = 0) -> None:
    lobby = await (await fd.slash(host, CHANNEL, "roll-the-bones new", options)).response_message()
    for user in others:
        await (await fd.click(user, lobby, button(fd, lobby, "Join"))).wait_response()
    for _ in range(bots):
        await (await fd.click(host, lobby, button(fd, lobby, "Add AI"))).wait_response()
    await (await fd.click(host, lobby, button(fd, lobby, "Start"))).wait_response()


# -- the seed: the same players, played on the engine alone ------------------------------------


def mirror(engine: Engine[Any, Any, Any], state: rtb.RollTheBonesState, seat: int) -> rtb.RollTheBonesAction:
    """Seat 0 calls the bone whenever it can; seat 1 antes like ``largest_first``, the others
    like ``smallest``; everyone not calling rolls their smallest die: the clicks of the
    three-player test, as engine actions, so a seed can be chosen for what it must show."""
    legal = engine.legal_actions(state, seat)
    kinds = {a.kind: a for a in legal}
    if state.phase == "bone":
        if seat == 0 and "bone_toggle" in kinds and not state.calls[seat]:
            return kinds["bone_toggle"]
        return kinds["ready"]
    if state.phase == "pick":
        return legal[0]
    adds = [a for a in legal if a.kind == "ante_add" and a.sides != rtb.BONE]
    if seat == 1 and adds and not state.drafts[seat]:
        return max(adds, key=lambda a: a.sides or 0)
    return kinds.get("ante_fill") or kinds["ante_confirm"]


def seed_with_a_tie(rounds: int) -> int:
    """The first seed under which the three-player test sees a tie and a bone call, and ends
    with one player holding the most dice."""
    for seed in range(2_000):
        state = rtb.ENGINE.new_game(3, rtb.RollTheBonesOptions(max_rounds=rounds), seed)
        tie = call = False
        while not rtb.ENGINE.is_over(state):
            seat = rtb.ENGINE.to_act(state)[0]
            action = mirror(rtb.ENGINE, state, seat)
            call = call or action.kind == "bone_toggle"
            state, events = rtb.ENGINE.apply(state, seat, action)
            tie = tie or any(e.kind == "tie" for e in events)
        if tie and call and len(rtb.winners(state)) == 1:
            return seed
    raise AssertionError("no seed gives a tie")


# -- the tests ---------------------------------------------------------------------------------


AWARD = re.compile(r"^\*\*(?P<pot>Main pot|Side pot \d+)\*\* \((?P<n>\d+): (?P<dice>[^)]*)\), "
                   r"open to (?P<open>[^→]+) → \*\*(?P<taker>[^*]+)\*\*")


def reveals(record: PublicRecord) -> dict[int, str]:
    """The last public reveal of every round: its rolls, then where the dice went."""
    found: dict[int, str] = {}
    for message in record.versions:
        for embed in message.get("embeds") or []:
            fields = embed.get("fields", [])
            for f, after in zip(fields, fields[1:]):
                if (head := REVEAL.match(f["name"])):
                    assert ACCOUNTS.match(after["name"]), after["name"]
                    found[int(head[1])] = f["value"] + "\n" + after["value"]
    return found


def check_reveal(text: str, total: int) -> list[str]:
    """Every pot of the round is on screen with who could win it and who took it, and the dice
    counts after the round add up to every die of the game. Returns the takers."""
    awards = [AWARD.match(line) for line in text.splitlines() if line.startswith("**")]
    assert awards and all(awards), text
    for award in awards:
        assert award is not None
        assert sum(dice_of(award["dice"]).values()) == int(award["n"]), award[0]
        could = award["open"].strip()
        assert could == "all" or award["taker"] in could.split(", "), award[0]
    now = re.search(r"^Dice now: (.*)$", text, re.M)
    assert now, text
    after = [int(x) for x in re.findall(r"\d+→(\d+)", now[1])]
    assert sum(after) == total, now[0]
    assert re.search(r"🏆 \*\*\w+\*\* wins the round and takes the \d+ rolled dice", text), text
    return [a["taker"] for a in awards if a is not None]


async def test_three_players_bone_call_and_tie_to_the_end(tmp_path: Path) -> None:
    """A whole 3-player game, capped at 3 rounds, under a seed that gives a tie; Ann calls the
    bone whenever she holds one; Cy has DMs closed and plays from My hand."""
    rounds = 3
    seed = seed_with_a_tie(rounds)
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        cy = fd.add_user("cy", dms_closed=True)
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {"GAME_SEED": str(seed)}, tmp_path / "rtb.sqlite3") as bot:
            players = [Player(ann, smallest, caller=True), Player(bob, largest_first), Player(cy, smallest)]
            await open_table(fd, ann, [bob, cy], {"max_rounds": rounds})
            sealed = Sealed()
            final = await play(fd, players, sealed)

            shown = reveals(record)
            assert sorted(shown) == list(range(1, rounds + 1))
            for text in shown.values():
                check_reveal(text, 3 * rtb.START_DICE)
            everything = "\n".join(shown.values())
            # the tie, and Ann's called bone die rolled, as the reveal shows them
            assert re.search(r"→ tie at \d+ between \w+(, \w+)+: every rolled die goes to the centre", everything)
            assert re.search(r"Ann: d12 🦴 → \*\*\d+\*\*", everything)
            assert any("Ann calls the bone die" in json.dumps(m["embeds"], ensure_ascii=False) for m in record.versions)

            # the cap ends the game: the most dice wins (RB-10), named in the final standings
            over, standings = final["embeds"]
            assert over["title"] == "Roll the Bones: game over"
            assert "Round cap reached" in over["description"]
            held = {m["name"]: int(m["total"]) for line in over["fields"][0]["value"].splitlines()
                    if (m := SEAT_LINE.match(line))}
            assert sum(held.values()) == 3 * rtb.START_DICE
            winner = re.match(r"🏆 (\w+) wins with (\d+) dice!", standings["description"])
            assert winner and held[winner[1]] == int(winner[2]) == max(held.values()), (standings, held)
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch"]

            # the sealed choices went by DM, or by My hand for Cy, whose DMs are closed
            by = {p.name: p for p in players}
            assert by["Ann"].via_dm and by["Bob"].via_dm
            assert by["Ann"].dms_missing == by["Bob"].dms_missing == []  # every sealed choice came by DM
            assert by["Cy"].via_hand and not by["Cy"].via_dm and fd.dm_messages(cy) == []
            checked = audit(record, sealed, list(by))
            assert checked["antes revealed"] >= 3 * rounds and checked["picks revealed"] >= rounds, checked
        clean(fd, bot)


async def current_dm(fd: FakeDiscord, user: FakeUser, shot: Shot) -> dict[str, Any]:
    return await fd.wait_until(
        lambda: next((m for m in reversed(fd.dm_messages(user)) if is_current(m, shot)), None),
        timeout=DM_WAIT, what=f"{user.name}'s DM for the {shot.phase}")


async def my_hand(fd: FakeDiscord, user: FakeUser) -> dict[str, Any]:
    table = table_of(fd)
    private = await (await fd.click(user, table, button(fd, table, "My hand"))).response_message()
    assert private["flags"] & 64
    return private


def labelled(message: dict[str, Any], prefix: str) -> str:
    found = [b["custom_id"] for b in act_buttons(message) if b["label"].startswith(prefix)]
    assert len(found) == 1, (prefix, [b["label"] for b in act_buttons(message)])
    return found[0]


async def twice_at_once(fd: FakeDiscord, user: FakeUser, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A double click: both presses reach the bot before either is answered. One is applied
    (the message is updated), the other is refused privately; returns the refusal."""
    first = await fd.click(user, message, custom_id)
    second = await fd.click(user, message, custom_id)
    answers = [await first.wait_response(), await second.wait_response()]
    assert sorted(a["type"] for a in answers) == [4, 7], answers
    refusal = next(a for a in answers if a["type"] == 4)
    assert refusal["data"]["flags"] & 64, refusal
    return refusal


async def refused(fd: FakeDiscord, user: FakeUser, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    answer = await (await fd.click(user, message, custom_id)).wait_response()
    assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
    return answer


def now(fd: FakeDiscord, message: dict[str, Any]) -> dict[str, Any]:
    fresh = fd.message(message["id"])
    assert fresh is not None
    return fresh


async def test_dms_closed_plays_through_my_hand(tmp_path: Path) -> None:
    """Bob's DMs are closed: the bot's DM is refused, the table tells him to press My hand,
    and he plays a whole game from there. Both house options are set from the command."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        stranger = fd.add_user("dee")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "roll-the-bones new",
                                          {"dice_set": "all_d6", "side_pots": "simple", "max_rounds": 2})
                           ).response_message()
            house = next(f["value"] for f in lobby["embeds"][0]["fields"] if f["name"] == "House options")
            assert "10×d6 and the bone d12" in house and "simple side pots" in house and "round 2" in house
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()

            told = await fd.wait_until(
                lambda: f"<@{bob.id}>: I could not DM you, so press **My hand**" in (table_of(fd).get("content") or ""),
                timeout=5, what="the table to send Bob to My hand")
            assert told
            assert any(r.path.endswith("/messages") and r.code == 50007 for r in fd.requests)  # the DM was refused
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.seats["Bob"] == Counter({6: 10, 12: 1})  # all_d6
            dm = await current_dm(fd, ann, shot)  # Ann's DMs are open: her controls came by DM
            assert "**Your dice**: 11 (10×d6 d12🦴)" in dm["embeds"][0]["description"]

            hand = await my_hand(fd, bob)
            assert hand["embeds"][0]["title"].endswith("· your dice")
            assert "**Your dice**: 11 (10×d6 d12🦴)" in hand["embeds"][0]["description"]
            assert [b["label"] for b in act_buttons(hand)][-1].startswith("Fill with my smallest: 2×d6")
            nobody = await (await fd.click(stranger, table_of(fd), button(fd, table_of(fd), "My hand"))).wait_response()
            assert nobody["type"] == 4 and nobody["data"]["flags"] & 64 and "no hand" in nobody["data"]["content"]

            players = [Player(ann, smallest, caller=True), Player(bob, largest_first)]
            sealed = Sealed()
            final = await play(fd, players, sealed)
            assert finished(final) and "Roll the Bones: game over" == final["embeds"][0]["title"]
            assert re.match(r"🏆 (Ann|Bob) (wins|and)", final["embeds"][1]["description"]) or \
                "share the win" in final["embeds"][1]["description"]
            assert players[1].via_hand >= 2 and players[1].via_dm == 0 and fd.dm_messages(bob) == []
            assert players[0].via_dm >= 1
            for text in reveals(record).values():
                check_reveal(text, 2 * rtb.START_DICE)
            assert audit(record, sealed, ["Ann", "Bob"])["antes revealed"] >= 2
        clean(fd, bot)


async def test_a_sealed_choice_made_twice_counts_once(tmp_path: Path) -> None:
    """Double clicks on sealed choices, at once and one after the other from a second copy of
    the controls: each choice counts once, and the reveal shows exactly what was sealed."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            shot = shot_of(await fd.wait_until(lambda: "My hand" in (table_of(fd).get("content") or "") and table_of(fd)))
            assert shot is not None and shot.phase == "ante"
            dm = await current_dm(fd, ann, shot)
            before = move_of(dm)

            # Ann adds a d8 with a double click: one d8 in her ante, one move
            await twice_at_once(fd, ann, dm, labelled(dm, "Ante a d8"))
            dm = now(fd, dm)
            assert "**Your ante** (1/2): d8" in dm["embeds"][0]["description"]
            assert move_of(dm) == before + 1
            assert [b["label"] for b in act_buttons(dm) if b["label"].startswith("Ante a d8")] == ["Ante a d8 (2 free)"]

            # a second copy of her controls (My hand), then the d10 pressed in both, one after the other
            copy_ = await my_hand(fd, ann)
            add_d10 = labelled(copy_, "Ante a d10")
            answer = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"))).wait_response()
            assert answer["type"] == 7
            late = await refused(fd, ann, copy_, add_d10)
            assert "moment has passed" in late["data"]["content"]
            dm = now(fd, dm)
            assert "**Your ante** (2/2): d8 d10" in dm["embeds"][0]["description"]
            assert move_of(dm) == before + 2

            # sealing twice at once seals once
            await twice_at_once(fd, ann, dm, labelled(dm, "Seal my ante: d8, d10"))
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({8: 1, 10: 1})}})
            assert move_of(now(fd, dm)) == before + 3

            # Bob (DMs closed) opens My hand twice and fills in each copy: the second is refused
            first, second = await my_hand(fd, bob), await my_hand(fd, bob)
            fill = labelled(first, "Fill with my smallest: 2×d4")
            assert fill == labelled(second, "Fill with my smallest: 2×d4")
            assert (await (await fd.click(bob, first, fill)).wait_response())["type"] == 7
            await refused(fd, bob, second, fill)
            first = now(fd, first)
            assert "**Your ante** (2/2): 2×d4" in first["embeds"][0]["description"]
            await twice_at_once(fd, bob, first, labelled(first, "Seal my ante: 2×d4"))
            sealed.antes[(1, 1)]["Bob"] = Counter({4: 2})

            # the bone calls: a double Ready on the table counts once (Bob still owes his)
            table = await settle(fd, before + 4)
            shot = shot_of(table)
            assert shot is not None and shot.phase == "bone"
            await twice_at_once(fd, ann, table, button(fd, table, "Ready"))
            table = table_of(fd)
            shot = shot_of(table)
            assert shot is not None and shot.phase == "bone" and "⏳ deciding" in shot.status["Bob"]
            assert "✅ ready" in shot.status["Ann"]
            await (await fd.click(bob, table, button(fd, table, "Ready"))).wait_response()

            # the picks: Bob rolls his smallest die with a double click in My hand
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "pick"
            hand = await my_hand(fd, bob)
            roll = next(b for b in act_buttons(hand) if b["label"].startswith("Roll a "))
            await twice_at_once(fd, bob, hand, roll["custom_id"])
            sealed.picks[(1, 1)] = {"Bob": int(re.search(r"d(\d+)", roll["label"])[1])}  # type: ignore[index]

            final = await play(fd, [Player(ann, smallest), Player(bob, smallest)], sealed)
            shown = reveals(record)
            check_reveal(shown[1], 2 * rtb.START_DICE)
            first_roll = rolls_in(shown[1])[1]
            assert set(first_roll) == {"Ann", "Bob"}  # one die each, whatever was clicked
            assert finished(final)
            checked = audit(record, sealed, ["Ann", "Bob"])
            assert checked["antes revealed"] >= 2 and checked["picks revealed"] >= 1, checked
        clean(fd, bot)


async def test_every_sealed_choice_arrives_in_one_dm(tmp_path: Path) -> None:
    """Whoever owes a sealed choice gets it by DM, including the player whose Ready on the
    public table closed the bone calls; and their own clicks update that DM in place rather
    than sending a fresh one each time."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            sealed = Sealed()
            players = {"Ann": Player(ann, largest_first), "Bob": Player(bob, smallest)}
            shot = shot_of(table_of(fd))
            while shot is not None and shot.phase == "ante":
                owing = [n for n, s in shot.status.items() if "⏳ choosing" in s]
                await seal_one(fd, players[owing[0]], shot, sealed)
                shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "bone"
            await bone_click(fd, players["Ann"], shot, "Ready")
            shot = shot_of(table_of(fd))
            assert shot is not None
            await bone_click(fd, players["Bob"], shot, "Ready")
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "pick"
            await current_dm(fd, ann, shot)
            await current_dm(fd, bob, shot)  # Bob's Ready on the table closed the calls
            assert players["Ann"].via_dm == 3  # Ante a d10, Fill, Seal: all in one DM
            # one DM for the ante, updated in place by their own clicks, and one for the pick
            assert len(fd.dm_messages(ann)) == len(fd.dm_messages(bob)) == 2
        clean(fd, bot)


async def test_timeouts_play_the_rulings_defaults(tmp_path: Path) -> None:
    """RULINGS 2.3 when nobody answers: the smallest dice are anted, a bone call stays as it
    is, and the largest ordinary die (or the called bone die) is rolled."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "2"}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})

            def phase_table(phase: str) -> dict[str, Any] | None:
                shot = shot_of(table_of(fd))
                return shot.message if shot is not None and shot.key == (1, 1, phase) else None

            table = await fd.wait_until(lambda: phase_table("bone"), timeout=8, what="the ante to time out")
            assert "Time ran out for Ann, Bob" in (table.get("content") or "")
            await bone_click(fd, Player(ann, smallest), shot_of(table), "Call or withdraw")  # type: ignore[arg-type]
            assert "🦴 called" in shot_of(table_of(fd)).status["Ann"]  # type: ignore[union-attr]
            final = await fd.wait_until(lambda: finished(table_of(fd)) and table_of(fd), timeout=30,
                                        what="the game to play itself out")
            assert final["embeds"][1]["title"] == "Final standings"
            # what the defaults sealed, checked like any sealed choice
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({4: 2}), "Bob": Counter({4: 2})}},
                            picks={(1, 1): {"Ann": rtb.BONE, "Bob": 10}})
            checked = audit(record, sealed, ["Ann", "Bob"])
            assert checked["antes revealed"] == 2 and checked["picks revealed"] >= 2, checked
            assert re.search(r"Ann: d12 🦴 → \*\*\d+\*\*", reveals(record)[1])
        clean(fd, bot)


async def test_ai_seats_ante_smallest_call_the_bone_and_roll_it(tmp_path: Path) -> None:
    """Two bot seats beside Ann: their sealed choices are made at once and revealed like
    anyone's: the smallest dice anted, the bone called and rolled while they hold one."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [], {"max_rounds": 2}, bots=2)
            sealed = Sealed()
            final = await play(fd, [Player(ann, smallest)], sealed)
            assert final["embeds"][1]["title"] == "Final standings"
            first = next(shot_of(m) for m in record.versions
                         if (s := shot_of(m)) is not None and s.key == (1, 1, "pick"))
            assert first is not None
            assert first.fields["Antes this roll"] == "Ann: 2×d4 · Bot 1: 2×d4 · Bot 2: 2×d4"
            assert "🦴 called" in first.status["Bot 1"] and "🦴 called" in first.status["Bot 2"]
            rolled = rolls_in(reveals(record)[1])[1]
            assert rolled["Bot 1"][0] == rolled["Bot 2"][0] == rtb.BONE and rolled["Bot 1"][2]
            audit(record, sealed, ["Ann", "Bot 1", "Bot 2"])
        clean(fd, bot)


async def test_two_players_pressing_ready_together_both_count(tmp_path: Path) -> None:
    """Ready is one row of buttons for everyone who owes a call: a press by one player changes
    the move number but not the row, so a press by another arriving at the same time counts."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann", dms_closed=True), fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            await fd.wait_until(lambda: "My hand" in (table_of(fd).get("content") or ""), what="the ante")
            for user in (ann, bob):
                hand = await my_hand(fd, user)
                assert (await (await fd.click(user, hand, labelled(hand, "Fill with my smallest"))).wait_response())["type"] == 7
                hand = now(fd, hand)
                assert (await (await fd.click(user, hand, labelled(hand, "Seal my ante"))).wait_response())["type"] == 7
            table = await fd.wait_until(lambda: (s := shot_of(table_of(fd))) is not None and s.phase == "bone"
                                        and table_of(fd), what="the bone calls")
            ready = button(fd, table, "Ready")
            first, second = await fd.click(ann, table, ready), await fd.click(bob, table, ready)
            answers = [await first.wait_response(), await second.wait_response()]
            assert [a["type"] for a in answers] == [7, 7], answers
            shot = await fd.wait_until(lambda: (s := shot_of(table_of(fd))) is not None and s.phase == "pick" and s,
                                       what="the picks, once both are Ready")
            assert shot.round == 1
        clean(fd, bot)
