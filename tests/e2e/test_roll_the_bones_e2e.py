"""Roll the Bones end to end: the real bot process against the fake Discord on 127.0.0.1.

Players act only by clicking what the bot rendered: their sealed antes and picks in the newest
DM the bot sent them or, without one, in the table's **My hand** ephemeral copy; bone calls and
Ready on the live table, which is always the newest game message (older tables shrink to a line
of history). Every version of every public message (posts and edits alike) is recorded and
audited against what the players actually sealed: nothing chosen in secret may show, or change
the public table, before its phase closes. Every test ends with ``clean(fd, bot)``.
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
from tests.e2e import channel as ch
from tests.e2e import play
from tests.e2e.test_knucklebones_e2e import CHANNEL, button, clean, finished
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

TITLE = re.compile(r"^Roll the Bones · round (\d+)(?: · tie roll (\d+))?$")
#: "⏳ **Ann** 11 dice: 2×d4 3×d6 3×d8 2×d10 d12🦴 · 🦴 called": waiting for her (⏳) or not (✅)
SEAT_LINE = re.compile(r"^(?P<mark>[✅⏳] )?\*\*(?P<name>[^*]+)\*\* (?P<total>\d+) dic?e: (?P<dice>.*?)(?P<rest>(?: · .*)?)$")
PHASES = (("ante", "**Ante "), ("bone", "**Bone call**"), ("pick", "**Pick**"))
#: a roll as the picture's words say it: "Round 2, roll 1. Ann rolled a d8: 7; Bob rolled the bone d12: 3."
PICTURE = re.compile(r"^Round (\d+), roll (\d+)\. ")
ROLLED = re.compile(r"^(?P<name>.+) rolled (?P<bone>the bone|a) d(?P<sides>\d+): (?P<face>\d+)$")
DIE_NAME = re.compile(r"\bd(4|6|8|10|12)\b")
#: the private copy's title for each sealed phase
PRIVATE_TITLE = {"ante": "your ante", "bone": "your bone call", "pick": "your die"}
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

    def antes(self) -> dict[str, Counter[int]]:
        """The "Antes:" line, once the antes are revealed: {name: dice}."""
        text = self.line("Antes: ")
        assert text is not None, self.lines
        shown = {}
        for part in text.removeprefix("Antes: ").split(" · "):
            found = re.match(r"^(?P<name>.+?) (?P<dice>(?:\d+×)?d\d+.*)$", part)
            assert found, part
            shown[found["name"]] = dice_of(found["dice"])
        return shown

    def comparable(self) -> str:
        """The table minus what a sealed phase may change: who has chosen."""
        embed = copy.deepcopy(self.message["embeds"][0])
        embed.pop("footer", None)
        text = json.dumps(embed, sort_keys=True, ensure_ascii=False)
        return text.replace("✅ **", "**").replace("⏳ **", "**")


def shot_of(message: dict[str, Any] | None) -> Shot | None:
    embeds = (message or {}).get("embeds") or []
    if not embeds:
        return None
    found = TITLE.match(embeds[0].get("title") or "")
    if not found:
        return None
    assert message is not None
    lines = (embeds[0].get("description") or "").splitlines()
    phase = next(p for p, word in PHASES if lines[0].startswith(word))
    seats: dict[str, Counter[int]] = {}
    status: dict[str, str] = {}
    for line in lines:
        seat = SEAT_LINE.match(line)
        if seat:
            seats[seat["name"]] = dice_of(seat["dice"])
            assert sum(seats[seat["name"]].values()) == int(seat["total"]), line
            status[seat["name"]] = (seat["mark"] or "").strip() + seat["rest"]
    return Shot(message, int(found[1]), int(found[2] or 1), phase, seats, status, lines)


def pictured(message: dict[str, Any]) -> tuple[tuple[int, int], dict[str, tuple[int, int, bool]]] | None:
    """The roll a table version's picture shows, from its words: ((round, roll), {name: (sides,
    face, bone)})."""
    for attachment in message.get("attachments") or []:
        words = attachment.get("description") or ""
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
      from who has chosen; its text names no die outside the table; every collection still
      holds the dice its owner is putting in or will roll; no picture shows this roll.
    - Once the ante phase closes, the antes shown are exactly the ones sealed, and they have
      left the collections; once the dice are rolled, the picture shows exactly the picks."""
    checked = Counter[str]()
    first: dict[tuple[int, int, str], Shot] = {}
    antes_seen: set[tuple[int, int]] = set()
    for message in record.versions:
        for embed in message.get("embeds") or []:
            assert " · your " not in (embed.get("title") or ""), "a private view reached the channel"
            assert "**Your " not in (embed.get("description") or ""), "a private view reached the channel"
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
            assert not DIE_NAME.search(message.get("content") or ""), message["content"]
            assert shot.line("Antes: ") is None or shot.phase == "pick"
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
        if shot.phase in ("bone", "pick") and cycle in sealed.antes and cycle not in antes_seen:
            # the first version after the ante closed: the antes revealed are the ones sealed
            shown_antes = shot.antes()
            for name, dice in sealed.antes[cycle].items():
                assert shown_antes.get(name, Counter()) == dice, \
                    f"{name} sealed {dice}, the table shows {shown_antes.get(name)}"
                checked["antes revealed"] += 1
            before = first[(shot.round, shot.cycle, "ante")]
            for name in before.seats:
                assert before.seats[name] - shown_antes.get(name, Counter()) == shot.seats[name], \
                    f"{name}'s ante did not leave"
            antes_seen.add(cycle)
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
    adds = [lb for lb in labels if lb.startswith("Ante a d") and not lb.startswith(f"Ante a d{rtb.BONE}")]
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


def content_of(fd: FakeDiscord) -> str:
    """The live table's content line, or nothing while no table is out yet."""
    return (ch.live_table(fd, CHANNEL) or {}).get("content") or ""


def act_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in FakeDiscord.buttons(message) if b["custom_id"].startswith(("bn:act:", "bn:all:"))]


def is_current(dm: dict[str, Any], shot: Shot) -> bool:
    """A private copy that holds this player's controls for the phase the table is in."""
    title = dm["embeds"][0].get("title", "") if dm.get("embeds") else ""
    tie = f" · tie roll {shot.cycle}" if shot.cycle > 1 else ""
    return title == f"Round {shot.round}{tie} · {PRIVATE_TITLE[shot.phase]}" and bool(act_buttons(dm))


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
            shot = shot_of(table)
            shows = any(line.startswith("🎲 ") for line in (shot.lines if shot else
                        (table["embeds"][0].get("description") or "").splitlines()))
            self.checks.look(acting_users(shot, self.players), shows_dice=shows)
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
        """Press ``label`` on the table: a button for everyone, or one labelled with the names of
        the players it is for."""
        def mine(b: dict[str, Any]) -> bool:
            whose, _, what = b["label"].rpartition(": ")
            return what == label and (not whose or player.name in re.split(r", | and ", whose))

        target = next(b for b in act_buttons(shot.message) if mine(b))
        await self.click(player.user, shot.message, target["custom_id"])

    async def step(self, table: dict[str, Any]) -> None:
        """One move: a bone call or Ready on the table, or one player's sealed choice."""
        by_name = {p.name: p for p in self.players}
        shot = shot_of(table)
        assert shot is not None, table["embeds"][0].get("title")
        if shot.phase == "bone":
            owing = [by_name[n] for n in shot.acting() if n in by_name]
            callers = [p for p in owing if p.caller and "🦴 called" not in shot.status[p.name]
                       and shot.seats[p.name][rtb.BONE]]
            await self.bone_click(callers[0] if callers else owing[0], shot, "Call my bone" if callers else "Ready")
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


async def settled_table(fd: FakeDiscord, channel: str) -> dict[str, Any]:
    """The table once the bot has gone quiet: the antes are sealed in private, so the first
    table may have nothing to press on it."""
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


def description(message: dict[str, Any]) -> str:
    return message["embeds"][0].get("description") or ""


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
                   r"open to (?P<open>[^→]+) → \*\*(?P<taker>[^*]+)\*\*")


def check_reveal(text: str, total: int) -> list[str]:
    """Every pot of the round is there with who could win it and who took it, and the dice
    counts after the round add up to every die of the game. Returns the takers."""
    awards = [AWARD.match(line) for line in text.splitlines() if line.startswith("**")]
    assert awards and all(awards), text
    for award in awards:
        assert award is not None
        assert sum(dice_of(award["dice"]).values()) == int(award["n"]), award[0]
        could = award["open"].strip()
        assert could == "all" or award["taker"] in could.split(", "), award[0]
    counts = re.search(r"^Dice now: (.*)$", text, re.M)
    assert counts, text
    after = [int(x) for x in re.findall(r"\d+→(\d+)", counts[1])]
    assert sum(after) == total, counts[0]
    assert re.search(r"🏆 \*\*\w+\*\* wins the round and takes the \d+ rolled dice", text), text
    return [a["taker"] for a in awards if a is not None]


async def details_of_round(fd: FakeDiscord, user: FakeUser, number: int) -> str:
    """The Details answer's account of round ``number``: where every die went."""
    table = table_of(fd)
    answer = await (await fd.click(user, table, button(fd, table, "Details"))).response_message()
    assert answer["flags"] & 64, "Details answers privately"
    assert sum(ch.text_length({"embeds": [e]}) for e in answer["embeds"]) <= 6000
    fields = {f["name"]: f["value"] for e in answer["embeds"] for f in e.get("fields", [])}
    return fields[f"Round {number}: where the dice went"]


# -- the tests ---------------------------------------------------------------------------------


async def test_a_whole_game_reads_well_on_a_phone(tmp_path: Path) -> None:
    """A whole 3-player game, capped at 3 rounds, under a seed that gives a tie; Ann calls the
    bone whenever she holds one. Measured as the players live it: every change of who must act
    pings them, the live table stays phone-sized and carries the dice as a PNG whenever it shows
    a roll, private copies are short and only the newest has buttons, a private draft never
    touches the channel, and the channel keeps one line of history per phase."""
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

            # the story: one line per finished table, the round results pinged as they happen
            history = [m for m in fd.messages(CHANNEL) if not m["embeds"] and m["id"] != final["id"]]
            assert all(not m["components"] and "\n" not in m["content"] for m in history)
            lines = [m["content"] for m in history]
            for number in range(1, rounds + 1):
                result = rf"^\*\*Round {number}(?: · tie roll \d+)?\*\* · .* → \w+ takes \d+ dice"
                assert any(re.match(result, ln) for ln in lines), lines
                assert any(ln.startswith(f"**Round {number}") and ln.count("Antes: ") for ln in lines), lines
            assert any(" → tie at " in ln for ln in lines), lines
            assert not any(re.search(r"\b[A-Z]{2}-\d+\b", ln) for ln in lines), lines  # no ruling codes
            ids = {p.name: p.user.id for p in players}
            headlines = [v["content"] for v in record.versions if (v.get("content") or "").startswith("🏆 <@")]
            for number in range(1, rounds):
                assert any(re.match(rf"^🏆 <@\d+> wins round {number} rolling \d+ and takes \d+ dice\.", h)
                           for h in headlines), headlines
            over, standings = final["embeds"]
            winner = re.match(r"🏆 (\w+) wins with (\d+) dice!", standings["description"])
            assert winner and f"<@{ids[winner[1]]}>" in final["content"]
            assert [b["label"] for b in fd.buttons(final)] == ["Rematch", "Details"]
            assert pictured(final) is not None and fd.attachments(final)[0][1].startswith(ch.PNG)

            # the bone call: two buttons that say which way they turn, none of them red
            bone_rows = [[(b["label"], b["style"]) for b in fd.buttons(v) if b["custom_id"].startswith("bn:all:")]
                         for v in record.versions if (s := shot_of(v)) is not None and s.phase == "bone"]
            labels = {label for row in bone_rows for label, _ in row}
            assert "Call my bone" in labels and "Ready" in labels, labels
            assert any(lb.endswith(": Withdraw my call") and "Ann" in lb for lb in labels), labels
            assert not any("Call or withdraw" in lb for lb in labels), labels
            assert all(style != DANGER for row in bone_rows for _, style in row)

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
            house = next(f["value"] for f in lobby["embeds"][0]["fields"] if f["name"] == "House options")
            assert "10×d6 and the bone d12" in house and "simple side pots" in house and "round 2" in house
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()

            told = await fd.wait_until(
                lambda: f"<@{bob.id}>: I could not DM you, so press **My hand**" in content_of(fd),
                timeout=5, what="the table to send Bob to My hand")
            assert told
            assert any(r.path.endswith("/messages") and r.code == 50007 for r in fd.requests)  # the DM was refused
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.seats["Bob"] == Counter({6: 10, 12: 1})  # all_d6
            dm = await current_dm(fd, ann, shot)  # Ann's DMs are open: her controls came by DM
            assert "**Your 11 dice**: 10×d6 d12🦴" in description(dm)

            hand = await my_hand(fd, bob)
            assert hand["embeds"][0]["title"] == "Round 1 · your ante"
            assert "**Your 11 dice**: 10×d6 d12🦴" in description(hand)
            assert [b["label"] for b in act_buttons(hand)][-1].startswith("Fill with my smallest: 2×d6")
            assert ch.text_length(hand) <= 400 and "Players" not in json.dumps(hand["embeds"])
            nobody = await (await fd.click(stranger, table_of(fd), button(fd, table_of(fd), "My hand"))).wait_response()
            assert nobody["type"] == 4 and nobody["data"]["flags"] & 64 and "no hand" in nobody["data"]["content"]

            players = [Player(ann, smallest, caller=True), Player(bob, largest_first)]
            game = Game(fd, players, Sealed())
            final = await game.play()
            assert finished(final) and "Roll the Bones: game over" == final["embeds"][0]["title"]
            assert re.match(r"🏆 (Ann|Bob) (wins|and)", final["embeds"][1]["description"]) or \
                "share the win" in final["embeds"][1]["description"]
            assert players[1].via_hand >= 2 and players[1].via_dm == 0 and fd.dm_messages(bob) == []
            assert players[0].via_dm >= 1
            assert audit(record, game.sealed, ["Ann", "Bob"])["antes revealed"] >= 2
        clean(fd, bot)


async def test_a_sealed_choice_made_twice_counts_once(tmp_path: Path) -> None:
    """Double clicks on sealed choices, at once and one after the other from an older copy of
    the controls: each choice counts once, and the reveal shows exactly what was sealed."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        record = PublicRecord(fd, CHANNEL)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            shot = shot_of(await fd.wait_until(lambda: "My hand" in content_of(fd) and table_of(fd)))
            assert shot is not None and shot.phase == "ante"
            dm = await current_dm(fd, ann, shot)

            # Ann adds a d8 with a double click: one d8 in her ante
            await twice_at_once(fd, ann, dm, labelled(dm, "Ante a d8"))
            dm = now(fd, dm)
            assert "**Your ante** 1 of 2: d8" in description(dm)
            assert [b["label"] for b in act_buttons(dm) if b["label"].startswith("Ante a d8")] == ["Ante a d8 (2 free)"]

            # a second copy of her controls (My hand) retires the DM's buttons; the d10 pressed in
            # both, the live copy first, then the DM as her phone still shows it: that one is late
            copy_ = await my_hand(fd, ann)
            await ch.settle(fd)
            assert act_buttons(now(fd, dm)) == [], "the older copy keeps its buttons"
            assert (await (await fd.click(ann, copy_, labelled(copy_, "Ante a d10"))).wait_response())["type"] == 7
            late = await refused(fd, ann, dm, labelled(dm, "Ante a d10"))
            assert "moment has passed" in late["data"]["content"]
            copy_ = now(fd, copy_)
            assert "**Your ante** 2 of 2: d8 d10" in description(copy_)

            # sealing twice at once seals once
            await twice_at_once(fd, ann, copy_, labelled(copy_, "Seal my ante: d8, d10"))
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({8: 1, 10: 1})}})
            assert "sealed" in description(now(fd, copy_))

            # Bob (DMs closed) opens My hand twice: the first copy is retired, a press there refused
            first, second = await my_hand(fd, bob), await my_hand(fd, bob)
            fill = labelled(first, "Fill with my smallest: 2×d4")
            assert fill == labelled(second, "Fill with my smallest: 2×d4")
            assert (await (await fd.click(bob, second, fill)).wait_response())["type"] == 7
            await refused(fd, bob, first, fill)
            second = now(fd, second)
            assert "**Your ante** 2 of 2: 2×d4" in description(second)
            await twice_at_once(fd, bob, second, labelled(second, "Seal my ante: 2×d4"))
            sealed.antes[(1, 1)]["Bob"] = Counter({4: 2})

            # the bone calls: a double Ready on the table counts once (Bob still owes his)
            await ch.settle(fd)
            table = table_of(fd)
            shot = shot_of(table)
            assert shot is not None and shot.phase == "bone"
            await twice_at_once(fd, ann, table, button(fd, table, "Ready"))
            shot = shot_of(table_of(fd))
            assert shot is not None and shot.phase == "bone" and shot.status["Bob"].startswith("⏳")
            assert shot.status["Ann"].startswith("✅")
            await (await fd.click(bob, shot.message, button(fd, shot.message, "Ready"))).wait_response()

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


async def test_each_decision_comes_in_one_dm_edited_by_its_own_clicks(tmp_path: Path) -> None:
    """Whoever owes a decision gets it by a new DM, including the player whose Ready on the
    public table closed the bone calls; their own clicks update that DM in place rather than
    sending a fresh one each time, and only the newest DM keeps buttons."""
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
            # bone call in place.
            titles = {user.name: [m["embeds"][0]["title"] for m in fd.dm_messages(user)] for user in (ann, bob)}
            assert titles == {"ann": ["Round 1 · your ante", "Round 1 · your die"],
                              "bob": ["Round 1 · your bone call", "Round 1 · your die"]}, titles
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
            assert "Time ran out for Ann and Bob" in (table.get("content") or "")
            shot = shot_of(table)
            assert shot is not None
            await Game(fd, [], Sealed()).bone_click(Player(ann, smallest), shot, "Call my bone")
            await ch.settle(fd)
            assert "🦴 called" in shot_of(table_of(fd)).status["Ann"]  # type: ignore[union-attr]
            final = await fd.wait_until(lambda: (t := ch.live_table(fd, CHANNEL)) and finished(t) and t, timeout=30,
                                        what="the game to play itself out")
            assert final["embeds"][1]["title"] == "Final standings"
            # what the defaults sealed, checked like any sealed choice
            sealed = Sealed(antes={(1, 1): {"Ann": Counter({4: 2}), "Bob": Counter({4: 2})}},
                            picks={(1, 1): {"Ann": rtb.BONE, "Bob": 10}})
            checked = audit(record, sealed, ["Ann", "Bob"])
            assert checked["antes revealed"] == 2 and checked["picks revealed"] >= 2, checked
            assert reveals(record)[(1, 1)]["Ann"][::2] == (rtb.BONE, True)
            history = [m["content"] for m in fd.messages(CHANNEL) if not m["embeds"]]
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
            assert final["embeds"][1]["title"] == "Final standings"
            first = next(s for m in record.versions if (s := shot_of(m)) is not None and s.key == (1, 1, "pick"))
            assert first.line("Antes: ") == "Antes: Ann 2×d4 · Bot 1 2×d4 · Bot 2 2×d4"
            assert "🦴 rolls the bone" in first.status["Bot 1"] and "🦴 rolls the bone" in first.status["Bot 2"]
            assert (1, 1) not in reveals(record)
            history = [m["content"] for m in fd.messages(CHANNEL) if not m["embeds"]]
            round_one = next(line for line in history if line.startswith("**Round 1** · "))
            tied, _, deciding = round_one.partition(" → tie at ")
            assert re.search(r"Ann d\d+ \d+ · Bot 1 d12🦴 (\d+) · Bot 2 d12🦴 \1$", tied), round_one
            assert re.search(r"roll again · Bot 1 d\d+ \d+ · Bot 2 d\d+ \d+ → Bot \d takes \d+ dice$",
                             deciding), round_one
            assert "after 1 tie" not in round_one  # spelt out, not just counted
            audit(record, game.sealed, ["Ann", "Bot 1", "Bot 2"])
            assert game.checks is not None
            game.checks.assert_targets()
            mentioned = {m for v in record.versions for m in re.findall(r"<@!?(\d+)>", v.get("content") or "")}
            assert mentioned == {str(ann.id)}, mentioned  # bots are named, never mentioned
        clean(fd, bot)


async def test_two_players_pressing_ready_together_both_count(tmp_path: Path) -> None:
    """Ready is one row of buttons for everyone who owes a call: a press by one player leaves
    the row as it is, so a press by another arriving at the same time counts."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann", dms_closed=True), fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            await fd.wait_until(lambda: "My hand" in content_of(fd), what="the ante")
            for user in (ann, bob):
                hand = await my_hand(fd, user)
                fill = labelled(hand, "Fill with my smallest")
                assert (await (await fd.click(user, hand, fill)).wait_response())["type"] == 7
                hand = now(fd, hand)
                assert (await (await fd.click(user, hand, labelled(hand, "Seal my ante"))).wait_response())["type"] == 7
            table = await fd.wait_until(lambda: (s := live_shot(fd)) is not None and s.phase == "bone" and s.message,
                                        what="the bone calls")
            ready = button(fd, table, "Ready")
            first, second = await fd.click(ann, table, ready), await fd.click(bob, table, ready)
            answers = [await first.wait_response(), await second.wait_response()]
            assert [a["type"] for a in answers] == [7, 7], answers
            shot = await fd.wait_until(lambda: (s := live_shot(fd)) is not None and s.phase == "pick" and s,
                                       what="the picks, once both are Ready")
            assert shot.round == 1
        clean(fd, bot)


async def test_the_bone_call_buttons_say_which_way_they_turn(tmp_path: Path) -> None:
    """Ann calls, then withdraws: the row offers "Call my bone" to whoever has not called and
    "Withdraw my call" to whoever has, each naming its players when not everyone's; a press on
    the other's button is refused privately, and nothing on the row is red."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "rtb.sqlite3") as bot:
            await open_table(fd, ann, [bob], {"max_rounds": 1})
            game = Game(fd, [Player(ann, smallest), Player(bob, smallest)], Sealed())
            table = await game.play(until=lambda shot: shot.phase == "bone")

            def row(message: dict[str, Any]) -> list[str]:
                return [b["label"] for b in fd.buttons(message) if b["custom_id"].startswith("bn:all:")]

            assert row(table) == ["Call my bone", "Ready"]
            await game.bone_click(game.players[0], shot_of(table), "Call my bone")  # type: ignore[arg-type]
            table = await game.look()
            assert row(table) == ["Bob: Call my bone", "Ann: Withdraw my call", "Ready"]
            assert all(b["style"] != DANGER for b in fd.buttons(table))
            shot = shot_of(table)
            assert shot is not None and shot.status["Ann"] == "⏳ · 🦴 called"
            # the call is made on the table, which asks for it: no DM copy of it holds live buttons
            assert not any(act_buttons(m) for m in fd.dm_messages(ann))
            wrong = await (await fd.click(bob, table, button(fd, table, "Ann: Withdraw my call"))).wait_response()
            assert wrong["type"] == 4 and wrong["data"]["flags"] & 64
            await game.bone_click(game.players[0], shot, "Withdraw my call")
            table = await game.look()
            # her two changes are spent, so she is Ready: the row is Bob's alone
            assert row(table) == ["Call my bone", "Ready"]
            shot = shot_of(table)
            assert shot is not None and shot.status["Ann"] == "✅" and shot.acting() == ["Bob"]
        clean(fd, bot)
