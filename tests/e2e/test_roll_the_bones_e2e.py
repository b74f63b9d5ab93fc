"""Roll the Bones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered: their sealed antes and picks in the newest
DM the bot sent them or, without one, in the table's **My hand** ephemeral copy; bone calls and
Ready on the live table, which is always the newest game message (older tables shrink to a line
of history): a call that is one player's alone sits beside that player's block, a choice that
is everyone's in the row below. Every version of every public message (posts and edits alike)
is recorded and audited against what the players actually sealed: nothing chosen in secret may
show, or change the public table, before its phase closes. Every test ends with
``clean(fd, bot)``.
"""

from __future__ import annotations

import contextlib
import copy
import re
import sqlite3
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import roll_the_bones as rtb
from rules.base import Engine
from tests.e2e import channel as ch
from tests.e2e import play
from tests.e2e.channel import button, clean, finished, walk
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "games"
#: the table's heading: "### Round 2 · bone call", "### Round 1, roll 3 · pick"
TITLE = re.compile(r"^### Round (\d+)(?:, roll (\d+))? · (antes|bone call|pick)$")
PHASES = {"antes": "ante", "bone call": "bone", "pick": "pick"}
#: a player's block: "⏳ **Ann** · not ready · 🦴 called" over "11 dice: 2×d4 3×d6 3×d8 2×d10 d12🦴"
SEAT_LINE = re.compile(r"^(?P<mark>[✅⏳] )?\*\*(?P<name>[^*]+)\*\* · (?P<rest>.*)$")
DICE_LINE = re.compile(r"^(?P<total>\d+) dic?e: (?P<dice>.*)$")
#: a roll as the picture's words say it: "Round 2, roll 1. Ann rolled a d8: 7; Bob rolled the bone d12: 3."
PICTURE = re.compile(r"^Round (\d+), roll (\d+)\. ")
ROLLED = re.compile(r"^(?P<name>.+) rolled (?P<bone>the bone|a) d(?P<sides>\d+): (?P<face>\d+)$")
DIE_NAME = re.compile(r"\bd(4|6|8|10|12)\b")
#: a line of history: "**Round 1, roll 2** · ..."
HISTORY = re.compile(r"^\*\*Round (\d+)(?:, roll (\d+))?\*\* · (?P<story>.*)$")
#: one revealed ante in a line of history: "2×d4", "d8, d10 (all they can spare)", "nothing (...)"
ANTE = re.compile(r"^(?P<dice>nothing|(?:\d+×)?d\d+(?:, (?:\d+×)?d\d+)*)(?: \([^)]*\))?$")
#: the private copy's heading for each sealed phase
PRIVATE_TITLE = {"ante": "your ante", "bone": "your bone call", "pick": "your die"}
READY = rtb.READY_LABEL
#: waiting for a DM that the bot owes a player; returns as soon as it arrives
DM_WAIT = 3.0
DANGER = 4


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


def blocks(message: dict[str, Any]) -> list[str]:
    """The text displays of a layout message, in order (the first is the line that asks)."""
    return [c.get("content") or "" for c in walk(message.get("components") or []) if c.get("type") == 10]


def beside(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The buttons that sit beside a player's block: {the player's name: the button}."""
    out = {}
    for comp in walk(message.get("components") or []):
        accessory = comp.get("accessory") or {}
        if comp.get("type") == 9 and accessory.get("type") == 2:
            text = next((c.get("content") or "" for c in comp.get("components") or [] if c.get("type") == 10), "")
            seat = SEAT_LINE.match(text.split("\n")[0])
            if seat:
                out[seat["name"]] = accessory
    return out


@dataclass
class Shot:
    """One public version of the table while a round is being played."""

    message: dict[str, Any]
    round: int
    cycle: int
    phase: str
    seats: dict[str, Counter[int]]
    status: dict[str, str]
    lines: list[str]

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.round, self.cycle, self.phase)

    def line(self, prefix: str) -> str | None:
        return next((ln for ln in self.lines if ln.startswith(prefix)), None)

    def acting(self) -> list[str]:
        return [name for name, rest in self.status.items() if "⏳" in rest]

    def comparable(self) -> str:
        """The table minus what a sealed phase may change: who has chosen (the marks and the
        words that say it), the line that asks (it names who is still choosing) and the footer
        (the countdown)."""
        shown = [b for b in blocks(self.message)[1:] if not b.startswith("-# ")]
        text = "\n".join(shown).replace("✅ **", "**").replace("⏳ **", "**")
        return re.sub(r"ante sealed|choosing \d+ dic?e to ante|choosing an ante|die picked|picking a die", "(choice)", text)


def shot_of(message: dict[str, Any] | None) -> Shot | None:
    if not message or not ch.is_layout(message):
        return None
    shown = blocks(message)
    head = next((b for b in shown if TITLE.match(b.split("\n")[0])), None)
    if head is None:
        return None
    found = TITLE.match(head.split("\n")[0])
    assert found is not None
    lines = [ln for b in shown for ln in b.split("\n")]
    seats: dict[str, Counter[int]] = {}
    status: dict[str, str] = {}
    for block in shown:
        first, _, second = block.partition("\n")
        seat, dice = SEAT_LINE.match(first), DICE_LINE.match(second)
        if seat and dice:
            seats[seat["name"]] = dice_of(dice["dice"])
            assert sum(seats[seat["name"]].values()) == int(dice["total"]), block
            status[seat["name"]] = (seat["mark"] or "").strip() + " · " + seat["rest"]
    return Shot(message, int(found[1]), int(found[2] or 1), PHASES[found[3]], seats, status, lines)


def pictured(message: dict[str, Any]) -> tuple[tuple[int, int], dict[str, tuple[int, int, bool]]] | None:
    """The roll a table version's picture shows, from its words: ((round, roll), {name: (sides,
    face, bone)})."""
    described = [item.get("description") or "" for c in walk(message.get("components") or [])
                 if c.get("type") == 12 for item in c.get("items") or []]
    for words in described + [a.get("description") or "" for a in message.get("attachments") or []]:
        head = PICTURE.match(words)
        if head:
            entries = [ROLLED.match(e) for e in words[head.end():].split(". ")[0].split("; ")]
            assert all(entries), words
            rolled = {m["name"]: (int(m["sides"]), int(m["face"]), m["bone"] == "the bone")
                      for m in entries if m is not None}
            return (int(head[1]), int(head[2])), rolled
    return None


def reveals(record: PublicRecord) -> dict[tuple[int, int], dict[str, tuple[int, int, bool]]]:
    """Every roll the channel's pictures showed, by (round, roll)."""
    return {found[0]: found[1] for m in record.versions if (found := pictured(m)) is not None}


def history_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The lines of history older tables became."""
    return [ch.said(m) for m in messages if not ch.is_table(m) and ch.said(m).startswith("**")]


def revealed_antes(lines: list[str], names: list[str]) -> dict[tuple[int, int], dict[str, Counter[int]]]:
    """The antes the lines of history revealed, by (round, roll): "Antes: Ann 2×d4 · Bob d8, d10
    (all they can spare)", the story of the table that saw the ante phase close."""
    out: dict[tuple[int, int], dict[str, Counter[int]]] = {}
    for line in lines:
        found = HISTORY.match(line)
        if not found or "Antes: " not in found["story"]:
            continue
        shown: dict[str, Counter[int]] = {}
        for part in found["story"].split("Antes: ", 1)[1].split(" · "):
            name = next((n for n in names if part.startswith(n + " ")), None)
            ante = ANTE.match(part.removeprefix(f"{name} ")) if name is not None else None
            if name is None or ante is None or name in shown:
                break  # the antes end where the story goes on
            shown[name] = dice_of(ante["dice"])
        out[(int(found[1]), int(found[2] or 1))] = shown
    return out


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
      from who has chosen; its line that asks names no die; every collection still holds the
      dice its owner is putting in or will roll; no picture shows this roll.
    - Once the ante phase closes, the antes the line of history reveals are exactly the ones
      sealed, and they have left the collections; once the dice are rolled, the picture shows
      exactly the picks."""
    checked = Counter[str]()
    first: dict[tuple[int, int, str], Shot] = {}
    after_ante: dict[tuple[int, int], Shot] = {}
    for message in record.versions:
        said = ch.said(message)
        assert "· your " not in said and "**Your " not in said, "a private view reached the channel"
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
            assert not DIE_NAME.search(ch.top(message)), ch.top(message)
            shown = pictured(message)
            assert shown is None or shown[0] != cycle, "this roll is shown before the dice are thrown"
            if shot.phase == "ante":
                for name, dice in sealed.antes.get(cycle, {}).items():
                    assert not dice - shot.seats[name], f"{name}'s sealed ante left the collection early"
                    checked["sealed antes held"] += 1
            for name, sides in sealed.picks.get(cycle, {}).items():
                if shot.phase == "pick":
                    assert shot.seats[name][sides] >= 1, f"{name}'s picked d{sides} left the collection early"
                    checked["sealed picks held"] += 1
        if shot.phase in ("bone", "pick"):
            after_ante.setdefault(cycle, shot)
    shrunk = history_lines(record.versions)
    antes = revealed_antes(shrunk, names)
    for cycle, players in sealed.antes.items():
        if cycle not in after_ante:
            continue
        # the antes revealed are the ones sealed, and they left the collections at once
        shown_antes, shot = antes[cycle], after_ante[cycle]
        for name, dice in players.items():
            assert shown_antes.get(name, Counter()) == dice, \
                f"{name} sealed {dice} in {cycle}, the history shows {shown_antes.get(name)}"
            checked["antes revealed"] += 1
        before = first.get((cycle[0], cycle[1], "ante"))
        for name in before.seats if before is not None else []:
            assert before.seats[name] - shown_antes.get(name, Counter()) == shot.seats[name], \
                f"{name}'s ante did not leave"
    for key, rolled in reveals(record).items():
        for name, sides in sealed.picks.get(key, {}).items():
            assert rolled[name][0] == sides, f"{name} sealed d{sides}, the picture shows {rolled[name]}"
            checked["picks revealed"] += 1
    assert set(names) <= {n for shot in first.values() for n in shot.seats}
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
    adds = [lb for lb in labels if lb.startswith("Ante a d")]  # the bone die is "Ante my bone die"
    if adds and not any(lb.startswith("Take back") for lb in labels):
        return max(adds, key=lambda lb: int(re.match(r"Ante a d(\d+)", lb)[1]))  # type: ignore[index]
    return smallest(shot, labels)


def table_of(fd: FakeDiscord) -> dict[str, Any]:
    table = ch.live_table(fd, CHANNEL)
    assert table is not None, "no table in the channel"
    return table


def live_shot(fd: FakeDiscord) -> Shot | None:
    """The live table as a Shot, or None between the old table's shrinking and the new post."""
    return shot_of(ch.live_table(fd, CHANNEL))


def top_of(fd: FakeDiscord) -> str:
    """The live table's line that asks, or nothing while no table is out yet."""
    table = ch.live_table(fd, CHANNEL)
    return ch.top(table) if table is not None else ""


def act_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in FakeDiscord.buttons(message) if b["custom_id"].startswith(("bn:act:", "bn:all:"))]


def heading(message: dict[str, Any]) -> str:
    """A private copy's heading ("Round 1 · your ante"), or its one line once superseded."""
    for block in blocks(message):
        if block.startswith("### "):
            return block.split("\n")[0].removeprefix("### ")
    return ch.said(message)


def is_current(dm: dict[str, Any], shot: Shot) -> bool:
    """A private copy that holds this player's controls for the phase the table is in."""
    tie = f", roll {shot.cycle}" if shot.cycle > 1 else ""
    return heading(dm) == f"Round {shot.round}{tie} · {PRIVATE_TITLE[shot.phase]}" and bool(act_buttons(dm))


def acting_users(shot: Shot | None, players: list[Player]) -> set[int]:
    names = shot.acting() if shot is not None else []
    return {p.user.id for p in players if p.name in names}


@dataclass
class Game:
    """One game being played by clicking, with the audit of what the players were shown."""

    fd: FakeDiscord
    players: list[Player]
    sealed: Sealed
    checks: ch.Audit | None = None
    #: how many private clicks that only drafted an ante left the channel untouched
    quiet_drafts: int = 0

    async def look(self) -> dict[str, Any]:
        await ch.settle(self.fd)
        table = table_of(self.fd)
        if self.checks is not None:
            self.checks.look(acting_users(shot_of(table), self.players), shows_dice=pictured(table) is not None)
        return table

    async def click(self, user: FakeUser, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
        if self.checks is not None:
            self.checks.clicked(user)
        answer = await (await self.fd.click(user, message, custom_id)).wait_response()
        assert answer["type"] == 7, answer
        return answer

    async def controls(self, player: Player, shot: Shot) -> dict[str, Any]:
        """Where the bot put this player's sealed choice: its newest DM, else My hand."""
        fd = self.fd
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

    async def seal_one(self, player: Player, shot: Shot) -> None:
        """The player clicks privately until their ante or pick is sealed; the truth is noted. A
        click that only drafts must leave the channel untouched."""
        fd = self.fd
        message = await self.controls(player, shot)
        while True:
            if self.checks is not None:
                self.checks.note_private(message)
            choices = act_buttons(message)
            labels = [b["label"] for b in choices]
            label = player.choose(shot, labels)
            channel_before = fd.messages(CHANNEL)
            await self.click(player.user, message, next(b["custom_id"] for b in choices if b["label"] == label))
            if message["channel_id"] != str(fd.channel(CHANNEL).id):
                player.via_dm += 1
            cycle = (shot.round, shot.cycle)
            if label.startswith("Seal my ante"):
                sealed = dice_of(label.split(":", 1)[1]) if ":" in label else Counter()
                self.sealed.antes.setdefault(cycle, {})[player.name] = sealed
            elif label.startswith("Roll"):
                die = re.search(r"d(\d+)", label)
                assert die is not None, label
                self.sealed.picks.setdefault(cycle, {})[player.name] = int(die[1])
            await ch.settle(fd)
            if label.startswith(("Seal", "Roll")):
                return
            assert fd.messages(CHANNEL) == channel_before, "a draft click changed the channel"
            self.quiet_drafts += 1
            fresh = fd.message(message["id"])  # the same private message holds the next step
            assert fresh is not None
            message = fresh

    async def bone_click(self, player: Player, shot: Shot, label: str) -> None:
        """Press ``label`` on the table: the button beside the player's own block, else the one
        in the row below, which is for everyone asked."""
        await self.click(player.user, shot.message, bone_button(shot.message, player.name, label))

    async def step(self, table: dict[str, Any]) -> None:
        """One move: a bone call or Ready on the table, or one player's sealed choice."""
        by_name = {p.name: p for p in self.players}
        shot = shot_of(table)
        assert shot is not None, ch.said(table)
        if shot.phase == "bone":
            owing = [by_name[n] for n in shot.acting() if n in by_name]
            callers = [p for p in owing if p.caller and "🦴 called" not in shot.status[p.name]
                       and shot.seats[p.name][rtb.BONE]]
            await self.bone_click(callers[0] if callers else owing[0], shot, "Call my bone" if callers else READY)
        else:
            owing = [p for p in self.players if p.name in shot.acting()]
            assert owing, f"nobody owes a choice in {shot.status}"
            await self.seal_one(owing[0], shot)

    async def play(self, until: Callable[[Shot], bool] | None = None, limit: int = 500) -> dict[str, Any]:
        """Play, one click at a time in the order of ``players``, until the final standings (or
        a table ``until`` accepts); returns that table."""
        for _ in range(limit):
            table = await self.look()
            shot = shot_of(table)
            if finished(table) or (until is not None and shot is not None and until(shot)):
                return table
            await self.step(table)
        raise AssertionError("the game did not end")


def bone_button(message: dict[str, Any], name: str, label: str) -> str:
    """The custom id of ``label`` for this player: beside their block, else in the row."""
    own = beside(message).get(name)
    if own is not None and own["label"] == label:
        return str(own["custom_id"])
    mine = {b["custom_id"] for b in beside(message).values()}
    row = [b for b in act_buttons(message) if b["custom_id"] not in mine and b["label"] == label]
    assert len(row) == 1, (name, label, [b["label"] for b in act_buttons(message)])
    return str(row[0]["custom_id"])


def row_labels(message: dict[str, Any]) -> list[str]:
    """The labels of the open choices in the row below the blocks: everyone's."""
    mine = {b["custom_id"] for b in beside(message).values()}
    return [b["label"] for b in FakeDiscord.buttons(message)
            if b["custom_id"].startswith("bn:all:") and b["custom_id"] not in mine]


async def settled_table(fd: FakeDiscord, channel: str) -> dict[str, Any]:
    """The table once the bot has gone quiet: the antes are sealed in private, so the first
    table may have nothing to press on it."""
    await fd.wait_until(lambda: ch.live_table(fd, channel), what="the first table")
    await ch.settle(fd)
    return table_of(fd)


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], options: dict[str, Any],
                     bots: int = 0) -> dict[str, Any]:
    return await play.open_table(fd, CHANNEL, "roll-the-bones new", host, others, bots, options,
                                 first=settled_table)


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
    answer = await (await fd.click(user, message, custom_id, as_seen=True)).wait_response()
    assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
    return answer


def now(fd: FakeDiscord, message: dict[str, Any]) -> dict[str, Any]:
    fresh = fd.message(message["id"])
    assert fresh is not None
    return fresh


def gallery_words(message: dict[str, Any]) -> str:
    """What a message's picture shows, in its words for screen readers."""
    return " ".join(item.get("description") or "" for c in walk(message.get("components") or [])
                    if c.get("type") == 12 for item in c.get("items") or [])


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


# -- the details of a round --------------------------------------------------------------------


AWARD = re.compile(r"^\*\*(?P<pot>Main pot|Side pot \d+)\*\* \((?P<n>\d+): (?P<dice>[^)]*)\), "
                   r"(?P<open>anyone rolling|only [^→]+?) could win it → \*\*(?P<taker>[^*]+)\*\*")


def check_reveal(text: str, total: int) -> list[str]:
    """Every pot of the round is there with who could win it and who took it, and the dice
    counts after the round add up to every die of the game. Returns the takers."""
    awards = [AWARD.match(line) for line in text.splitlines() if line.startswith("**")]
    assert awards and all(awards), text
    for award in awards:
        assert award is not None
        assert sum(dice_of(award["dice"]).values()) == int(award["n"]), award[0]
        could = award["open"].strip()
        assert could == "anyone rolling" or award["taker"] in re.split(r", | or ", could.removeprefix("only ")), award[0]
    counts = re.search(r"^Dice now: (.*)$", text, re.M)
    assert counts, text
    after = [int(x) for x in re.findall(r"\d+→(\d+)", counts[1])]
    assert sum(after) == total, counts[0]
    assert re.search(r"🏆 \*\*\w+\*\* wins the round and takes the \d+ rolled dice", text), text
    return [a["taker"] for a in awards if a is not None]


async def details_of_round(fd: FakeDiscord, user: FakeUser, number: int) -> str:
    """Details' page on round ``number``: where every die went. Details opens on what matters
    now, a phone screen a page; the round is a tap away in its menu."""
    table = table_of(fd)
    answer = await (await fd.click(user, table, button(fd, table, "Details"))).response_message()
    assert answer["flags"] & 64, "Details answers privately"
    assert ch.is_layout(answer) and blocks(answer)[0].startswith(f"### Round {number + 1} now")
    assert "**Your " in ch.said(answer)  # what matters now: her own dice first
    (menu,) = fd.selects(answer)
    page = next(o["value"] for o in menu["options"] if o["label"] == f"Round {number}: where the dice went")
    turned = await (await fd.select(user, answer, menu["custom_id"], [page])).response_message()
    assert ch.text_length(turned) <= 1200
    return ch.said(turned)


# -- the tests ---------------------------------------------------------------------------------


async def test_a_whole_game_reads_well_on_a_phone(tmp_path: Path) -> None:
    """A whole 3-player game, capped at 3 rounds, under a seed that gives a tie; Ann calls the
    bone whenever she holds one. Measured as the players live it: every change of who must act
    pings them, the live table stays phone-sized and carries the dice as a PNG whenever it shows
    a roll, private copies are short and only the newest has buttons, a private draft never
    touches the channel, and the channel keeps one line of history per phase, which the table
    below it does not repeat."""
    rounds = 3
    seed = seed_with_a_tie(rounds)
    async with running_fake() as fd:
        ann, bob, cy = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("cy")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {"GAME_SEED": str(seed)}, tmp_path / "rtb.sqlite3") as bot:
            players = [Player(ann, smallest, caller=True), Player(bob, largest_first), Player(cy, smallest)]
            await open_table(fd, ann, [bob, cy], {"max_rounds": rounds})
            game = Game(fd, players, Sealed(), ch.Audit(fd, CHANNEL))
            await game.play(until=lambda shot: shot.key == (2, 1, "ante"))
            check_reveal(await details_of_round(fd, ann, 1), 3 * rtb.START_DICE)
            final = await game.play()

            checks = game.checks
            assert checks is not None
            checks.assert_targets()
            assert checks.turn_changes >= 3 * rounds, checks.turn_changes
            assert game.quiet_drafts >= rounds, game.quiet_drafts  # Bob drafts a die first each time

            # the story: one line per finished table, with the round results
            history = [m for m in fd.messages(CHANNEL) if not ch.is_table(m) and m["id"] != final["id"]]
            assert all(not fd.buttons(m) and "\n" not in ch.said(m) for m in history)
            lines = history_lines(fd.messages(CHANNEL))
            for number in range(1, rounds + 1):
                result = rf"^\*\*Round {number}(?:, roll \d+)?\*\* · .* → \w+ takes \d+ dice"
                assert any(re.match(result, ln) for ln in lines), lines
                assert any(ln.startswith(f"**Round {number}") and ln.count("Antes: ") for ln in lines), lines
            assert any(" → tie at " in ln for ln in lines), lines
            assert not any(re.search(r"\b[A-Z]{2}-\d+\b", ln) for ln in lines), lines  # no ruling codes
            # the table below a line of history never says its result again
            for old, new in zip(fd.messages(CHANNEL), fd.messages(CHANNEL)[1:], strict=False):
                result = re.search(r"→ (\w+) takes (\d+) dice", ch.said(old)) if not ch.is_table(old) else None
                if result and ch.is_table(new):
                    assert f"{result[1]} takes {result[2]}" not in ch.said(new), ch.said(new)
            ids = {p.name: p.user.id for p in players}
            winner = re.match(r"🏆 <@(\d+)> wins with (\d+) dice!", ch.top(final).split("\n")[-1])
            assert winner and int(winner[1]) in ids.values(), ch.top(final)
            assert ch.said(final).count("wins with") == 1  # the winner is named once
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]
            assert pictured(final) is not None and fd.attachments(final)[0][1].startswith(ch.PNG)
            # the caption just above the picture says which roll it is, below the standings
            order = ["picture" if c["type"] == 12 else c.get("content") or "" for c in walk(final["components"])
                     if c.get("type") in (10, 12)]
            standings = next(n for n, b in enumerate(order) if b.startswith("### Final standings"))
            assert standings < order.index("-# The last roll") == order.index("picture") - 1, order

            # the bone call: buttons that say which way they turn, none of them red; a call that
            # is one player's own sits beside that player's block
            bone_versions = [v for v in record.versions if (s := shot_of(v)) is not None and s.phase == "bone"]
            labels = {b["label"] for v in bone_versions for b in fd.buttons(v) if b["custom_id"].startswith("bn:all:")}
            assert {"Call my bone", READY, "Withdraw my call"} <= labels, labels
            assert any(beside(v).get("Ann", {}).get("label") == "Withdraw my call" for v in bone_versions)
            assert all(READY not in [b["label"] for b in beside(v).values()] for v in bone_versions)
            assert all(b["style"] != DANGER for v in bone_versions for b in fd.buttons(v))

            # the sealed choices came by DM, one copy live at a time, and were revealed faithfully
            assert all(p.via_dm and not p.dms_missing and not p.via_hand for p in players)
            checked = audit(record, game.sealed, [p.name for p in players])
            assert checked["antes revealed"] >= 3 * rounds and checked["picks revealed"] >= rounds, checked
            shown = reveals(record)
            assert any(rolled["Ann"] == (rtb.BONE, rolled["Ann"][1], True) for rolled in shown.values()), shown
        clean(fd, bot)


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
            house = ch.said(lobby).split("House options", 1)[1]
            assert "10×d6 and the bone d12" in house and "simple side pots" in house and "round 2" in house
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()

            told = await fd.wait_until(
                lambda: f"<@{bob.id}>: I could not DM you, so press **My hand**" in top_of(fd),
                timeout=5, what="the table to send Bob to My hand")
            assert told
            assert any(r.path.endswith("/messages") and r.code == 50007 for r in fd.requests)  # the DM was refused
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.seats["Bob"] == Counter({6: 10, 12: 1})  # all_d6
            dm = await current_dm(fd, ann, shot)  # Ann's DMs are open: her controls came by DM
            assert "**Your 11 dice**: 10×d6 d12🦴" in ch.said(dm)

            hand = await my_hand(fd, bob)
            assert heading(hand) == "Round 1 · your ante"
            assert "**Your 11 dice**: 10×d6 d12🦴" in ch.said(hand)
            assert gallery_words(hand) == "Your dice: 10×d6 d12🦴. In your ante: nothing yet."  # what he decides about
            assert [b["label"] for b in act_buttons(hand)][-1].startswith("Fill with my smallest: 2×d6")
            assert ch.text_length(hand) <= 400 and "Players" not in ch.said(hand) and "Ann" not in ch.said(hand)
            nobody = await (await fd.click(stranger, table_of(fd), button(fd, table_of(fd), "My hand"))).wait_response()
            assert nobody["type"] == 4 and nobody["data"]["flags"] & 64 and "no hand" in nobody["data"]["content"]

            players = [Player(ann, smallest, caller=True), Player(bob, largest_first)]
            game = Game(fd, players, Sealed())
            final = await game.play()
            assert finished(final) and "### Game over" in ch.said(final)
            assert re.search(r"🏆 <@\d+> (wins|and <@\d+> share the win)", ch.top(final)), ch.top(final)
            assert players[1].via_hand >= 2 and players[1].via_dm == 0 and fd.dm_messages(bob) == []
            assert players[0].via_dm >= 1
            assert audit(record, game.sealed, ["Ann", "Bob"])["antes revealed"] >= 2
        clean(fd, bot)


async def antes_asked(fd: FakeDiscord, ann: FakeUser, bob: FakeUser) -> dict[str, Any]:
    """A one-round game of Ann and Bob, both asked their antes by DM: Ann's DM."""
    await open_table(fd, ann, [bob], {"max_rounds": 1})
    await ch.settle(fd)
    shot = shot_of(table_of(fd))
    assert shot is not None and shot.phase == "ante"
    return await current_dm(fd, ann, shot)


async def test_the_end_of_a_game_takes_the_controls_off_every_dm_copy(tmp_path: Path) -> None:
    """The host ends the game while both players' antes are asked in their DMs: Bob's copy
    says the game is over and keeps no buttons. Discord refuses the edit that was to do the
    same to Ann's, so hers still shows buttons: the first press on one does it in place, where
    every press used to be refused privately and the buttons stayed."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            dm = await antes_asked(fd, ann, bob)
            shot = shot_of(table_of(fd))
            assert shot is not None
            theirs = await current_dm(fd, bob, shot)
            where = fd.dm_channel(ann)
            assert where is not None
            fd.fail("PATCH", rf"^/channels/{where.id}/messages/{dm['id']}$", 403, times=None)
            asked = await (await fd.slash(ann, CHANNEL, "game end")).response_message()
            await (await fd.click(ann, asked, button(fd, asked, "End the game"))).wait_response()
            await ch.settle(fd)
            fd.clear_faults()
            over = f"This game is over: the table in <#{fd.channel(CHANNEL).id}> shows how it ended."
            assert ch.said(now(fd, theirs)) == over and act_buttons(now(fd, theirs)) == []
            assert act_buttons(now(fd, dm)), "Discord refused the edit: the DM still shows its buttons"
            late = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"))).wait_response()
            assert late["type"] == 7 and ch.said(late["data"]) == over, late
            assert act_buttons(now(fd, dm)) == [] and ch.said(now(fd, dm)) == over
            # a press on the copy as a phone still shows it is answered the same way
            again = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"), as_seen=True)).wait_response()
            assert again["type"] == 7 and ch.said(again["data"]) == over, again
        clean(fd, bot)


async def test_a_dm_copy_discord_did_not_redraw_is_redrawn_when_pressed(tmp_path: Path) -> None:
    """Ann's press on her DM counts, but Discord loses its answer and refuses the edit after it:
    her DM still shows the moment before, with buttons of a moment that has passed. Her next
    press there redraws it as the game stands (it used to say the copy was current, and
    every press after that said the same), and it acts again."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            dm = await antes_asked(fd, ann, bob)
            where = fd.dm_channel(ann)
            assert where is not None
            fd.fail("POST", r"^/interactions/\d+/[^/]+/callback", 404, 10062)
            fd.fail("PATCH", rf"^/channels/{where.id}/messages/{dm['id']}$", 403)
            await fd.click(ann, dm, labelled(dm, "Ante a d8"))
            await ch.settle(fd)
            fd.clear_faults()
            assert "(0 of 2)" in ch.said(now(fd, dm)), "Discord redrew nothing: the DM shows the moment before"
            pressed = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"))).wait_response()
            assert pressed["type"] == 7, pressed
            shown = ch.said(pressed["data"])
            assert shown.startswith("That moment has passed: this copy now shows the game as it stands.")
            assert "**Your ante** (1 of 2): d8\n" in shown + "\n", shown
            dm = now(fd, dm)
            again = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"))).wait_response()
            assert again["type"] == 7 and "**Your ante** (2 of 2): d8 d10" in ch.said(now(fd, dm))
        clean(fd, bot)


async def test_a_double_click_that_ends_a_dm_choice_keeps_what_the_copy_holds(tmp_path: Path) -> None:
    """Ann seals her ante from her DM with a double click: the first press seals it and her
    copy, asked nothing now, is retired; the second finds it so, and says it did not count
    without taking away what the copy shows (her sealed ante)."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            dm = await antes_asked(fd, ann, bob)
            for kind in ("d8", "d10"):
                await (await fd.click(ann, dm, labelled(dm, f"Ante a {kind}"))).wait_response()
                dm = now(fd, dm)
            seal = labelled(dm, "Seal my ante: d8, d10")
            presses = [await fd.click(ann, dm, seal), await fd.click(ann, dm, seal)]
            answers = [await it.wait_response() for it in presses]
            await ch.settle(fd)
            assert all(a["type"] == 7 for a in answers), answers
            assert "moment has passed" in ch.said(answers[1]["data"]), answers[1]
            assert "**Your ante, sealed**: d8 d10" in ch.said(now(fd, dm)) and act_buttons(now(fd, dm)) == []
        clean(fd, bot)


async def test_a_sealed_choice_made_twice_counts_once(tmp_path: Path) -> None:
    """Double clicks on sealed choices, at once and one after the other from an older copy of
    the controls: each choice counts once, and the reveal shows exactly what was sealed."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            shot = shot_of(await fd.wait_until(lambda: "My hand" in top_of(fd) and table_of(fd)))
            assert shot is not None and shot.phase == "ante"
            dm = await current_dm(fd, ann, shot)

            # Ann adds a d8 with a double click: one d8 in her ante
            await twice_at_once(fd, ann, dm, labelled(dm, "Ante a d8"))
            dm = now(fd, dm)
            assert "**Your ante** (1 of 2): d8\n" in ch.said(dm) + "\n"
            assert gallery_words(dm) == "Your dice: 2×d4 3×d6 3×d8 2×d10 d12🦴. In your ante: d8."
            assert [b["label"] for b in act_buttons(dm) if b["label"].startswith("Take back")] == \
                ["Take back a d8 (3 take-backs left)"]

            # a second copy of her controls (My hand) retires the DM's buttons; the d10 pressed in
            # both, the live copy first, then the DM as her phone still shows it: that one is late
            copy_ = await my_hand(fd, ann)
            await ch.settle(fd)
            assert act_buttons(now(fd, dm)) == [], "the older copy keeps its buttons"
            assert (await (await fd.click(ann, copy_, labelled(copy_, "Ante a d10"))).wait_response())["type"] == 7
            late = await (await fd.click(ann, dm, labelled(dm, "Ante a d10"), as_seen=True)).wait_response()
            # the DM copy pressed says so in place and keeps no controls (had its retiring
            # failed, they would go now)
            assert late["type"] == 7 and "moment has passed" in ch.said(late["data"]), late
            assert act_buttons(now(fd, dm)) == [] and "moment has passed" in ch.said(now(fd, dm))
            copy_ = now(fd, copy_)
            assert "**Your ante** (2 of 2): d8 d10" in ch.said(copy_)

            # sealing twice at once seals once
            await twice_at_once(fd, ann, copy_, labelled(copy_, "Seal my ante: d8, d10"))
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({8: 1, 10: 1})}})
            assert "**Your ante, sealed**: d8 d10" in ch.said(now(fd, copy_))

            # Bob (DMs closed) opens My hand twice: the first copy is retired, a press there refused
            first, second = await my_hand(fd, bob), await my_hand(fd, bob)
            fill = labelled(first, "Fill with my smallest: 2×d4")
            assert fill == labelled(second, "Fill with my smallest: 2×d4")
            assert (await (await fd.click(bob, second, fill)).wait_response())["type"] == 7
            await refused(fd, bob, first, fill)
            second = now(fd, second)
            assert "**Your ante** (2 of 2): 2×d4" in ch.said(second)
            await twice_at_once(fd, bob, second, labelled(second, "Seal my ante: 2×d4"))
            sealed.antes[(1, 1)]["Bob"] = Counter({4: 2})

            # the bone calls: a double Ready on the table counts once (Bob still owes his)
            await ch.settle(fd)
            table = table_of(fd)
            shot = shot_of(table)
            assert shot is not None and shot.phase == "bone"
            await twice_at_once(fd, ann, table, button(fd, table, READY))
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "bone" and shot.status["Bob"].startswith("⏳")
            assert shot.status["Ann"].startswith("✅")
            await (await fd.click(bob, shot.message, button(fd, shot.message, READY))).wait_response()

            # the picks: Bob rolls his smallest die with a double click in My hand
            await ch.settle(fd)
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "pick"
            hand = await my_hand(fd, bob)
            roll = next(b for b in act_buttons(hand) if b["label"].startswith("Roll a "))
            await twice_at_once(fd, bob, hand, roll["custom_id"])
            sealed.picks[(1, 1)] = {"Bob": int(re.search(r"d(\d+)", roll["label"])[1])}  # type: ignore[index]

            game = Game(fd, [Player(ann, smallest), Player(bob, smallest)], sealed)
            final = await game.play()
            assert finished(final)
            assert set(reveals(record)[(1, 1)]) == {"Ann", "Bob"}  # one die each, whatever was clicked
            checked = audit(record, sealed, ["Ann", "Bob"])
            assert checked["antes revealed"] >= 2 and checked["picks revealed"] >= 1, checked
        clean(fd, bot)


async def test_a_refused_press_delivered_again_later_is_still_refused(tmp_path: Path) -> None:
    """Discord may deliver an interaction a second time. A double click's refused press,
    delivered again once its player's own choices have come back to where they were (a die
    added, then taken back: the same choice, the same buttons), makes no move: its player was
    told it had not counted."""
    db = tmp_path / "rtb.sqlite3"

    def moves() -> int:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])

    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, {}, db) as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            shot = shot_of(await fd.wait_until(lambda: "My hand" in top_of(fd) and table_of(fd)))
            assert shot is not None and shot.phase == "ante"
            dm = await current_dm(fd, ann, shot)
            add = labelled(dm, "Ante a d8")
            presses = [await fd.click(ann, dm, add), await fd.click(ann, dm, add)]
            answers = [await it.wait_response() for it in presses]
            assert sorted(a["type"] for a in answers) == [4, 7], answers
            late = next(it for it, a in zip(presses, answers, strict=True) if a["type"] == 4)
            assert "moment has passed" in next(a for a in answers if a["type"] == 4)["data"]["content"]
            dm = now(fd, dm)
            await (await fd.click(ann, dm, labelled(dm, "Take back a d8"))).wait_response()
            dm = now(fd, dm)
            assert labelled(dm, "Ante a d8") == add, "the same choice again: the same button"
            made = moves()
            await fd.deliver_again(late)
            await ch.settle(fd)
            assert moves() == made
            assert "d8" not in ch.said(now(fd, dm)).split("**Your ante**", 1)[1].split("\n", 1)[0]
        clean(fd, bot)


async def test_each_decision_comes_in_one_dm_edited_by_its_own_clicks(tmp_path: Path) -> None:
    """Whoever owes a decision gets it by a new DM, including the player whose Ready on the
    public table closed the bone calls; their own clicks update that DM in place rather than
    sending a fresh one each time, and only the newest DM keeps buttons. An older DM keeps only
    what happened, never a question it can no longer answer."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            game = Game(fd, [Player(ann, largest_first), Player(bob, smallest)], Sealed(), ch.Audit(fd, CHANNEL))
            await game.play(until=lambda shot: shot.phase == "pick")
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "pick"
            await current_dm(fd, ann, shot)
            await current_dm(fd, bob, shot)  # Bob's Ready on the table closed the calls
            assert game.players[0].via_dm == 3  # Ante a d10, Fill, Seal: all in one DM
            # one DM per sealed decision, updated in place by their own clicks: the ante and the
            # pick. The bone call is made on the table, which asks for it, so it brings no DM of
            # its own; Bob sealed last, which closed the antes, so his ante DM turned into the
            # bone call in place, and the pick's DM superseded it.
            headings = {user.name: [heading(m) for m in fd.dm_messages(user)] for user in (ann, bob)}
            assert headings == {"ann": ["Round 1 · your ante", "Round 1 · your die"],
                                "bob": ["Round 1 · your die", "Round 1 · your die"]}, headings
            # Bob's superseded copy keeps what he holds and points to the newer one, with no question
            superseded = ch.said(fd.dm_messages(bob)[0])
            assert "A newer copy of this is below" in superseded and not act_buttons(fd.dm_messages(bob)[0])
            # Ann's old DM reads as what she did, with no instruction left in it
            old = ch.said(fd.dm_messages(ann)[0])
            assert "**Your ante, sealed**: d4 d10" in old
            assert not re.search(r"[Ww]aiting|Choose|press|Pick the", old), old
            for user in (ann, bob):
                assert [bool(act_buttons(m)) for m in fd.dm_messages(user)][-1] is True
                assert sum(bool(act_buttons(m)) for m in fd.dm_messages(user)) == 1
            game.checks.look(acting_users(shot, game.players))  # type: ignore[union-attr]
            assert not game.checks.extra_live_copies and not game.checks.unnotified  # type: ignore[union-attr]
        clean(fd, bot)


async def test_timeouts_play_the_rulings_defaults(tmp_path: Path) -> None:
    """When nobody answers: the smallest dice are anted, a bone call stays as it is, and the
    largest ordinary die (or the called bone die) is rolled."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "2"}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})

            def phase_table(phase: str) -> dict[str, Any] | None:
                shot = shot_of(ch.live_table(fd, CHANNEL))
                return shot.message if shot is not None and shot.key == (1, 1, phase) else None

            table = await fd.wait_until(lambda: phase_table("bone"), timeout=8, what="the ante to time out")
            assert "Time ran out for Ann and Bob" in ch.top(table)
            shot = shot_of(table)
            assert shot is not None
            await Game(fd, [], Sealed()).bone_click(Player(ann, smallest), shot, "Call my bone")
            await ch.settle(fd)
            assert "🦴 called" in shot_of(table_of(fd)).status["Ann"]  # type: ignore[union-attr]
            final = await fd.wait_until(lambda: (t := ch.live_table(fd, CHANNEL)) and finished(t) and t, timeout=30,
                                        what="the game to play itself out")
            assert "### Final standings" in ch.said(final)
            # what the defaults sealed, checked like any sealed choice
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({4: 2}), "Bob": Counter({4: 2})}},
                            picks={(1, 1): {"Ann": rtb.BONE, "Bob": 10}})
            checked = audit(record, sealed, ["Ann", "Bob"])
            assert checked["antes revealed"] == 2 and checked["picks revealed"] >= 2, checked
            assert reveals(record)[(1, 1)]["Ann"][::2] == (rtb.BONE, True)
            history = history_lines(fd.messages(CHANNEL))
            late = "**Round 1** · ⏰ Ann and Bob ran out of time · Antes: "
            assert any(ln.startswith(late) for ln in history), history
        clean(fd, bot)


async def test_ai_seats_ante_smallest_call_the_bone_and_roll_it(tmp_path: Path) -> None:
    """Two bot seats beside Ann: their sealed choices are made at once and revealed like
    anyone's: the smallest dice anted, the bone called and rolled while they hold one. Bot
    seats are never pinged.

    Seed 3 makes the bots tie on their bones while Ann is out of the running: they roll again
    at once, so no table ever shows the tied roll, and the round's line of history spells it
    out."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {"GAME_SEED": "3"}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [], {"max_rounds": 2}, bots=2)
            game = Game(fd, [Player(ann, smallest)], Sealed(), ch.Audit(fd, CHANNEL))
            final = await game.play()
            assert finished(final)
            first = next(s for m in record.versions if (s := shot_of(m)) is not None and s.key == (1, 1, "pick"))
            assert "🦴 rolls the bone die" in first.status["Bot 1"] and "🦴 rolls the bone die" in first.status["Bot 2"]
            assert (1, 1) not in reveals(record)
            history = history_lines(fd.messages(CHANNEL))
            round_one = next(line for line in history if line.startswith("**Round 1** · ") and " → " in line)
            assert "Antes: Ann 2×d4 · Bot 1 2×d4 · Bot 2 2×d4" in round_one
            tied, _, deciding = round_one.partition(" → tie at ")
            assert re.search(r"Ann d\d+ \d+ · Bot 1 d12🦴 (\d+) · Bot 2 d12🦴 \1$", tied), round_one
            assert re.search(r"roll again · Bot 1 d\d+ \d+ · Bot 2 d\d+ \d+ → Bot \d takes \d+ dice$",
                             deciding), round_one
            assert "after 1 tie" not in round_one  # spelt out, not just counted
            audit(record, game.sealed, ["Ann", "Bot 1", "Bot 2"])
            assert game.checks is not None
            game.checks.assert_targets()
            mentioned = {m for v in record.versions for m in re.findall(r"<@!?(\d+)>", ch.said(v))}
            assert mentioned == {str(ann.id)}, mentioned  # bots are named, never mentioned
        clean(fd, bot)


async def test_two_players_pressing_ready_together_both_count(tmp_path: Path) -> None:
    """Ready is one button for everyone who owes a call: a press by one player leaves the row
    as it is, so a press by another arriving at the same time counts."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann", dms_closed=True), fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            await fd.wait_until(lambda: "My hand" in top_of(fd), what="the ante")
            for user in (ann, bob):
                hand = await my_hand(fd, user)
                fill = labelled(hand, "Fill with my smallest")
                assert (await (await fd.click(user, hand, fill)).wait_response())["type"] == 7
                hand = now(fd, hand)
                assert (await (await fd.click(user, hand, labelled(hand, "Seal my ante"))).wait_response())["type"] == 7
            table = await fd.wait_until(lambda: (s := live_shot(fd)) is not None and s.phase == "bone" and s.message,
                                        what="the bone calls")
            assert "each of you presses **I'm ready**" in ch.top(table)  # the button is everyone's, and says so
            ready = button(fd, table, READY)
            first, second = await fd.click(ann, table, ready), await fd.click(bob, table, ready)
            answers = [await first.wait_response(), await second.wait_response()]
            assert [a["type"] for a in answers] == [7, 7], answers
            shot = await fd.wait_until(lambda: (s := live_shot(fd)) is not None and s.phase == "pick" and s,
                                       what="the picks, once both are Ready")
            assert shot.round == 1
        clean(fd, bot)


async def test_the_bone_call_buttons_say_which_way_they_turn(tmp_path: Path) -> None:
    """Ann calls, then withdraws: the table offers "Call my bone" to whoever has not called and
    "Withdraw my call" to whoever has; one that is a single player's own sits beside that
    player's block, which says where they stand. A press on the other's button is refused
    privately, and nothing is red. Her two changes spent, her block says so, a press of Call
    tells her why it is not hers, and the calls wait for her Ready like anyone's (RB-2)."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            game = Game(fd, [Player(ann, smallest), Player(bob, smallest)], Sealed())
            table = await game.play(until=lambda shot: shot.phase == "bone")

            assert row_labels(table) == ["Call my bone", READY] and beside(table) == {}
            await game.bone_click(game.players[0], shot_of(table), "Call my bone")  # type: ignore[arg-type]
            table = await game.look()
            assert {name: b["label"] for name, b in beside(table).items()} == {
                "Ann": "Withdraw my call", "Bob": "Call my bone"}
            assert row_labels(table) == [READY]
            assert all(b["style"] != DANGER for b in fd.buttons(table))
            shot = shot_of(table)
            assert shot is not None and shot.status["Ann"] == "⏳ · not ready · 🦴 called"
            assert shot.status["Bob"] == "⏳ · not ready · bone die not called"
            # the call is made on the table, which asks for it: no DM copy of it holds live buttons
            assert not any(act_buttons(m) for m in fd.dm_messages(ann))
            wrong = await (await fd.click(bob, table, beside(table)["Ann"]["custom_id"])).wait_response()
            assert wrong["type"] == 4 and wrong["data"]["flags"] & 64
            await game.bone_click(game.players[0], shot, "Withdraw my call")
            table = await game.look()
            # her two changes are spent: her call stands, her block says why, her Ready is owed
            shot = shot_of(table)
            assert shot is not None and shot.status["Ann"] == "⏳ · not ready · bone die not called (no changes left)"
            assert {name: b["label"] for name, b in beside(table).items()} == {"Bob": "Call my bone"}
            assert row_labels(table) == [READY] and set(shot.acting()) == {"Ann", "Bob"}
            wrong = await refused(fd, ann, table, beside(table)["Bob"]["custom_id"])
            assert wrong["data"]["content"] == ("“Call my bone” is not yours to choose: you have used your 2 "
                                                "changes of call this roll, so your call stands."), wrong
            await game.bone_click(game.players[0], shot, READY)
            table = await game.look()
            shot = shot_of(table)
            assert shot is not None and shot.status["Ann"] == "✅ · ready · bone die not called (no changes left)"
            assert shot.acting() == ["Bob"] and ch.top(table).startswith(f"<@{bob.id}>: ")
        clean(fd, bot)


async def test_a_newcomer_is_told_what_a_tie_costs_and_which_die_is_the_bone(tmp_path: Path) -> None:
    """How to play, from the lobby, says what a tie costs before anyone meets one; Ann's ante
    DM names her d12 as her bone die, so she does not give it away unknowingly."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "roll-the-bones new", {"max_rounds": 1})).response_message()
            how = await (await fd.click(bob, lobby, button(fd, lobby, "How to play"))).response_message()
            assert "A tie: rolled dice go to the pot; the tied players ante and roll again." in ch.said(how)
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            shot = shot_of(await settled_table(fd, CHANNEL))
            assert shot is not None and shot.phase == "ante"
            dm = await current_dm(fd, ann, shot)
            labels = [b["label"] for b in act_buttons(dm)]
            assert "Ante my bone die (d12)" in labels and "Ante a d12" not in labels, labels
            assert all(len(label) <= 40 for label in labels), labels  # one line on a phone
            await (await fd.click(ann, dm, labelled(dm, "Ante my bone die (d12)"))).wait_response()
            dm = now(fd, dm)
            assert "**Your ante** (1 of 2): d12🦴" in ch.said(dm)  # the table's words for it, too
        clean(fd, bot)


async def test_a_ready_undone_by_a_change_of_call_is_asked_again_by_a_new_message(tmp_path: Path) -> None:
    """Bob presses Ready, then Ann calls her bone: his Ready no longer counts. He is told by a
    new table that pings him and says why, not by an edit of the one he pressed."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            players = [Player(ann, smallest), Player(bob, smallest)]
            game = Game(fd, players, Sealed(), ch.Audit(fd, CHANNEL))
            table = await game.play(until=lambda shot: shot.phase == "bone")
            await game.bone_click(players[1], shot_of(table), READY)  # type: ignore[arg-type]
            pressed = await game.look()
            assert pressed["id"] == table["id"]  # his Ready edits the table in place
            shot = shot_of(pressed)
            assert shot is not None and shot.status["Bob"].startswith("✅") and shot.acting() == ["Ann"]
            since = len(fd.calls)
            await game.bone_click(players[0], shot, "Call my bone")
            again = await game.look()
            assert again["id"] != table["id"], "the re-ask must be a new message"
            assert bob.id in ch.pinged(fd, since, fd.channel(CHANNEL).id)
            assert ch.top(again).split("\n")[0] == (f"🔁 <@{bob.id}>: a change of bone call undoes every Ready, "
                                                    f"so press **{READY}** again.")
            shot = shot_of(again)
            assert shot is not None and set(shot.acting()) == {"Ann", "Bob"}
            old = fd.message(table["id"])
            assert old is not None and ch.said(old) == "**Round 1** · Ann calls their bone die"
            assert game.checks is not None and not game.checks.unnotified, game.checks.unnotified
        clean(fd, bot)
