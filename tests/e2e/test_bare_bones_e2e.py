"""Bare Bones end to end: the real bot process against the fake Discord on 127.0.0.1.

Every decision in Bare Bones is its player's own, so the buttons come with the hand: in the
newest DM the bot sent, or, for a player whose DMs are closed, in the **My hand** copy the table
offers. Players act only by clicking what was rendered there. Bot seats keep the games short.
Every test ends with ``clean(fd, bot)``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e import channel as ch
from tests.e2e import play
from tests.e2e.channel import button, clean
from tests.fakediscord import (
    BotProcess,
    FakeDiscord,
    FakeUser,
    buttons,
    running_bot,
    running_fake,
    selects,
)

CHANNEL = "games"
#: what a public message must never carry: the private view's own headings
PRIVATE_MARKS = ("Your hand", "Your turn ·", "Your dice", "Action Units left", "Draw pile ", "Your deck so far")


def table_of(fd: FakeDiscord) -> dict[str, Any]:
    table = ch.live_table(fd, CHANNEL)
    assert table is not None
    return table


def act_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if (b["custom_id"] or "").startswith("bn:act:")]


def act_selects(message: dict[str, Any]) -> list[dict[str, Any]]:
    """More than 20 answers (a Loan Shark's amounts) come as menus of 25."""
    return [s for s in selects(message) if (s["custom_id"] or "").startswith("bn:pick:")]


def controls_of(message: dict[str, Any]) -> list[str]:
    return [b["label"] for b in act_buttons(message)] + [o["label"] for s in act_selects(message) for o in s["options"]]


def acting(fd: FakeDiscord, users: list[FakeUser]) -> list[FakeUser]:
    """Whom the live table waits for: named in "Waiting for …" or sent to My hand."""
    asks = ch.top(table_of(fd))
    waiting = re.search(r"Waiting for (.+?) \(choosing in DMs\)", asks)
    names = waiting[1] if waiting else ""
    return [u for u in users if u.name.title() in names or f"<@{u.id}>: I could not DM you" in asks]


def public_text(fd: FakeDiscord) -> str:
    return json.dumps([m for m in fd.messages(CHANNEL)], ensure_ascii=False)


MENTION = re.compile(r"<@!?(\d+)>")


def pinged_unasked(fd: FakeDiscord) -> list[str]:
    """Lines of new channel messages that ping someone they do not ask to act ("<@id>: …" asks;
    the host's line naming the winner is the end's one ping). Edits ping nobody."""
    channel_id = fd.channel(CHANNEL).id
    out = []
    for call in fd.calls:
        body = call["json"] or {}
        if call["method"] != "POST" or call["path"] != f"/channels/{channel_id}/messages" or call["status"] >= 400:
            continue
        allowed = body.get("allowed_mentions")
        if allowed is not None and "users" not in (allowed.get("parse") or []) and not allowed.get("users"):
            continue
        for line in ch.said(body).splitlines():
            if MENTION.search(line) and not (re.match(r"<@!?\d+>:", line) or re.search(r"wins with|share the win", line)):
                out.append(line)
    return out


async def open_table(fd: FakeDiscord, host: FakeUser, others: list[FakeUser], bots: int,
                     options: dict | None = None) -> dict[str, Any]:
    return await play.open_table(fd, CHANNEL, "bare-bones new", host, others, bots, options,
                                 first=lambda fd, _: started(fd))


async def started(fd: FakeDiscord) -> dict[str, Any]:
    """The first table of a game: every control is private, so the table has only Details and
    My hand to show it is live."""
    def ready() -> dict[str, Any] | None:
        table = ch.live_table(fd, CHANNEL)
        return table if table and "### The Draft: pick" in ch.said(table) else None

    await fd.wait_until(ready, 10, what="the first table")
    await ch.settle(fd, quiet=0.05)
    return table_of(fd)


class Hands:
    """Where each player's controls are: their newest DM, or the My hand copy they opened."""

    def __init__(self, fd: FakeDiscord, audit: ch.Audit | None = None) -> None:
        self.fd = fd
        self.audit = audit
        self.mine: dict[int, str] = {}  # user id -> message id of the My hand copy
        self.via_dm = 0
        self.via_hand = 0
        self.labels: list[str] = []
        self.drafted: dict[int, list[str]] = {}
        #: decisions seen without their subject in the same message
        self.unseen: list[str] = []
        #: each Loan Shark question: its answers, and the menus they came in
        self.loans: list[tuple[int, int]] = []

    async def controls(self, user: FakeUser) -> dict[str, Any]:
        fd = self.fd
        if not user.dms_closed:
            return await fd.wait_until(
                lambda: next((m for m in reversed(fd.dm_messages(user)) if controls_of(m)), None),
                timeout=5, what=f"{user.name}'s DM with buttons")
        held = fd.message(self.mine[user.id]) if user.id in self.mine else None
        if held is not None and controls_of(held):
            return held
        table = table_of(fd)
        private = await (await fd.click(user, table, button(fd, table, "My hand"))).response_message()
        assert private["flags"] & 64, "My hand must answer privately"
        self.mine[user.id] = private["id"]
        return private

    async def step(self, user: FakeUser, choose: Any = None) -> str:
        """The user clicks one of their buttons (the first, unless ``choose`` picks a label)."""
        fd = self.fd
        message = await self.controls(user)
        if self.audit is not None:
            self.audit.note_private(message)
        labels = controls_of(message)
        self.check_subject(message, labels)
        # in the Draft each player takes a Hot Potato, a Joyride and a Loan Shark, so all come up
        taken = self.drafted.setdefault(user.id, [])
        wanted = [x for x in labels if x.startswith(("Draft Hot Potato", "Draft Joyride", "Draft Loan Shark"))
                  and x not in taken]
        label = wanted[0] if wanted else choose(labels) if choose else None
        if label and label.startswith("Draft "):
            taken.append(label)
        label = label if label in labels else labels[0]
        self.labels.append(label)
        if self.audit is not None:
            self.audit.clicked(user)
        picker = next((m for m in act_selects(message) if any(o["label"] == label for o in m["options"])), None)
        if picker is not None:
            value = next(o["value"] for o in picker["options"] if o["label"] == label)
            it = await fd.select(user, message, picker["custom_id"], [value])
        else:
            it = await fd.click(user, message, next(b["custom_id"] for b in act_buttons(message) if b["label"] == label))
        answer = await it.wait_response()
        assert answer["type"] == 7, answer
        if user.dms_closed:
            self.via_hand += 1
        else:
            self.via_dm += 1
        return label

    def check_subject(self, message: dict[str, Any], labels: list[str]) -> None:
        """The dice re-rolled or bought with show in the same message, as a picture and in
        words, with the coins; the Draft's cards say what each does."""
        said = ch.said(message)
        picture = any(c.get("type") == 12 for c in ch.walk(message.get("components") or []))
        if any(x.startswith(("Re-roll", "Done re-rolling")) for x in labels) and not (
                picture and "**Your dice**" in said):
            self.unseen.append(f"re-roll without its dice: {said[:200]}")
        if any(x.startswith("Done buying") for x in labels) and "left to spend" in said and not (
                picture and "Scored:" in said or "No dice were rolled" in said):
            self.unseen.append(f"buying without the dice: {said[:200]}")
        offers = [o for m in act_selects(message) for o in m["options"] if o["label"].startswith("Buy ")]
        if any(x.startswith("Buy ") for x in labels) and not (offers and all(o.get("description") for o in offers)):
            self.unseen.append(f"buying without what the cards do: {said[:200]}")
        if any(x.startswith("Draft ") for x in labels) and "The cards you may draft" not in said:
            self.unseen.append(f"a Draft pick without what the cards do: {said[:200]}")
        shown = len(re.sub(r"<(?:#|@[!&]?)\d+>", "#channel", said))  # a mention shows as a name
        if any(x.startswith("Draft ") for x in labels) and shown > 700:  # a phone shows about 700 characters at once
            self.unseen.append(f"a Draft pick longer than a phone's screen ({shown}): {said}")
        if any(x.startswith("Borrow ") for x in labels):
            self.loans.append((len(labels), len(act_selects(message))))


#: a set with a Hot Potato and cards that ask questions, all but Greed draftable
CUSTOM = "Hot Potato, Joyride, Loan Shark, Mimic, Pairs, Greed, Yard Sale"


def policy(labels: list[str]) -> str:
    """A player who plays everything, takes a bonus match, buys what they can and passes their
    Hot Potatoes on: every kind of decision shows up, and every stage ends."""
    more = [x for x in labels if x.startswith("Borrow more")]
    if more:
        return more[0]  # the larger amounts, a step away
    if "Borrow 26 coins" in labels:
        return "Borrow 26 coins"  # an amount from the second menu of the larger ones
    for want in ("Play Hot Potato", "Play Joyride", "Bonus match", "Hot Potato onto", "Buy ", "Play ", "Draft "):
        found = [x for x in labels if x.startswith(want)]
        if found:
            return found[-1] if want in ("Buy ", "Draft ") else found[0]
    return labels[0]


async def play_to_end(fd: FakeDiscord, users: list[FakeUser], hands: Hands, audit: ch.Audit | None,
                      limit: int = 900) -> dict[str, Any]:
    async def step(table: dict[str, Any]) -> None:
        now = acting(fd, users)
        if audit is not None:
            audit.look({u.id for u in now})
        assert now, ch.top(table)
        await hands.step(now[0], policy)

    return await play.play_to_end(fd, CHANNEL, step, limit=limit, quiet=0.05)


async def test_three_players_play_to_the_end_by_dm_and_my_hand(tmp_path: Path) -> None:
    """Ann plays by DM, Bob (DMs closed) through My hand, a bot takes the third seat: the Draft,
    12 rounds and the final scoresheet, by clicking only what was rendered; no hand is ever
    shown in the channel; the table keeps to the phone-sized targets."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, {}, tmp_path / "bb.sqlite3") as bot:
            table = await open_table(fd, ann, [bob], bots=1, options={
                "action_set": "custom", "custom_actions": CUSTOM})
            assert re.search(r"### The Draft: pick \d of 9", ch.said(table))
            audit = ch.Audit(fd, CHANNEL)
            hands = Hands(fd, audit)
            final = await play_to_end(fd, [ann, bob], hands, audit)
            audit.assert_targets(median=700, most=1000, private_median=400)
            assert hands.via_dm > 20 and hands.via_hand > 20
            # Bob's DMs refused the bot: tried again at most once a round (the Draft and 12
            # rounds), where every decision of his tried, and was refused
            where = fd.dm_channel(bob)
            refused = [c for c in fd.calls if where is not None and c["status"] == 403
                       and c["path"] == f"/channels/{where.id}/messages"]
            assert 1 <= len(refused) <= 13, len(refused)
            labels = hands.labels
            assert any(x.startswith("Draft ") for x in labels)
            assert any(x.startswith("Buy ") for x in labels)
            assert any(x.startswith("Play ") and "Action Unit" in x for x in labels)  # an Action
            assert any(x.startswith("Bonus match") for x in labels)
            assert any(x.startswith("Hot Potato onto") for x in labels)
            assert any(x.startswith(("Joyride", "Borrow their")) for x in labels)  # a card's question
            # every decision came with its subject; Loan Shark's amounts up to the dearest card
            # came as buttons, the larger ones a step away as menus of 25
            assert not hands.unseen, hands.unseen[:3]
            assert any(x.startswith("Borrow more (13 to ") for x in labels) and "Borrow 26 coins" in labels
            assert all(menus == (-(-n // 25) if n > 20 else 0) for n, menus in hands.loans), hands.loans
            sheet = ch.said(final)
            assert "### The final scoresheet" in sheet
            assert re.search(r"\nCards +\+\d+", sheet) and re.search(r"\n12 +\d+", sheet)
            # the winner is named once, in the line that pings, above the final standings
            assert re.search(r"(wins|share the win) with -?\d+ points", ch.top(final))
            assert len(re.findall(r"wins|share the win", sheet)) == 1 and "Final standings" in sheet
            # the private views never reached the channel
            text = public_text(fd)
            for mark in PRIVATE_MARKS:
                assert mark not in text, mark
            # the channel keeps one line of story per turn, under its round, never empty and
            # never saying again what the message below it says
            messages = fd.messages(CHANNEL)
            history = [ch.said(m) for m in messages if not ch.is_table(m) and not ch.has_controls(m)]
            assert any(line.startswith("**Round 12**") for line in history)
            assert any(re.search(r"Ann: \d+ points? and \d+ coins?", line) for line in history)
            assert any("bought " in line for line in history)
            for line, below in zip(messages, messages[1:], strict=False):
                said = ch.said(line)
                if ch.is_table(line) or ch.has_controls(line):
                    continue
                story = said.split("** · ", 1)[-1]
                assert story.strip() and story not in ch.said(below), (said, ch.said(below)[:300])
            # a Hot Potato put on a draw pile is told in the turn's line of history, by name: a
            # new message pings only whom it asks to act
            assert any(re.search(r"put (a Hot Potato|\d Hot Potatoes) on top of \w[\w ]*'s draw pile", line)
                       for line in history)
            assert not [line for line in history if MENTION.search(line)]
            assert not pinged_unasked(fd), pinged_unasked(fd)[:3]
            # Details opens on the scoresheet, the Supply a page away
            details = await (await fd.click(ann, final, button(fd, final, "Details"))).response_message()
            assert details["flags"] & 64 and "### Scoresheet" in ch.said(details)
            pages = [o["label"] for s in selects(details) for o in s["options"]]
            assert "Supply: Actions" in pages and "Your cards" in pages
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            assert "Round 12" in ch.said(log)
            # the rules open on How to play, the game's words a page away
            rules = await (await fd.slash(ann, CHANNEL, "game rules")).response_message()
            assert "How to play" in ch.top(rules) or "rules in force here" in ch.top(rules)
            assert "Words" in [o["label"] for s in selects(rules) for o in s["options"]]
        clean(fd, bot)


async def test_restart_mid_turn_continues_from_the_old_buttons(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        first = await BotProcess(fd, {}, db).start()
        try:
            await open_table(fd, ann, [], bots=1)
            hands = Hands(fd)
            # the Draft, then into Ann's first turn
            while not any(x.startswith("Done playing") for x in
                          controls_of(await hands.controls(ann))):
                await hands.step(ann, policy)
                await ch.settle(fd, quiet=0.05)
            dm = await hands.controls(ann)
            first.kill()
            await first.wait()
        finally:
            await first.stop()
        async with running_bot(fd, {}, db) as second:
            # the DM the killed process sent still plays: its first card goes into play
            before = len(fd.calls)
            label = act_buttons(dm)[0]["label"]
            assert label.startswith("Play ")
            answer = await (await fd.click(ann, dm, act_buttons(dm)[0]["custom_id"])).wait_response()
            assert answer["type"] == 7, answer
            assert any(c["path"].startswith("/interactions/") and c["status"] in (200, 204) for c in fd.calls[before:])
            await ch.settle(fd, quiet=0.05)
            played = label.removeprefix("Play ").split(" (")[0].removesuffix(" Dice Card")
            assert played in ch.said(table_of(fd)).split("In play: ")[1].splitlines()[0]
            # and the turn goes on from the new process to its end, told in a line of history
            hands = Hands(fd)
            for _ in range(40):
                if ann not in acting(fd, [ann]):
                    break
                await hands.step(ann, policy)
                await ch.settle(fd, quiet=0.05)
            assert any(ch.said(m).startswith("**Round 1** · Ann") for m in fd.messages(CHANNEL)
                       if not ch.is_table(m)), [ch.said(m)[:80] for m in fd.messages(CHANNEL)]
        clean(fd, second)
        assert first.error_records() == []


async def test_timeouts_play_the_default_and_bots_fill_the_table(tmp_path: Path) -> None:
    """Nobody clicks: each of Ann's decisions times out (the highest-cost Dice Card in the
    Draft, then all Dice Cards, the best score, nothing bought), while two bots play theirs."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "1"}, tmp_path / "bb.sqlite3") as bot:
            await open_table(fd, ann, [], bots=2)
            notice = await fd.wait_until(
                lambda: next((m for m in fd.messages(CHANNEL) if "Time ran out" in ch.top(m)), None),
                timeout=8, what="a timeout")
            assert "Ann" in ch.top(notice)
            # the Draft's 3 picks of Ann, then her first turn, all by the timer
            await fd.wait_until(lambda: "Round 1" in json.dumps(fd.messages(CHANNEL)) and any(
                ch.said(m).startswith("**Round 1**") and "Ann" in ch.said(m)
                for m in fd.messages(CHANNEL)), timeout=15, what="Ann's first turn timed out")
            log = await (await fd.slash(ann, CHANNEL, "game log")).response_message()
            text = "\n".join(await ch.read_pages(fd, ann, log))  # the whole game so far
            assert "ran out of time" in text and "Bot 1" in text and "Bot 2" in text
        clean(fd, bot)


async def test_tavern_mode_seats_named_npcs(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm, ann = fd.add_user("gm"), fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "bb.sqlite3") as bot:
            # a game without stakes offers no option to give an NPC one, nor a stake command
            synced = {c["name"]: c for scope in fd.commands.values() for c in scope}
            subs = {o["name"]: o for o in synced["bare-bones"]["options"]}
            assert [o["name"] for o in subs["npc"]["options"]] == ["name"] and "stake" not in subs
            staked = {o["name"]: o for o in synced["stones-and-bones"]["options"]}
            assert [o["name"] for o in staked["npc"]["options"]] == ["name", "stake"] and "stake" in staked
            lobby = await (await fd.slash(gm, CHANNEL, "bare-bones new", {"gm_mode": True})).response_message()
            told = await (await fd.slash(gm, CHANNEL, "bare-bones npc", {"name": "Old Marrow"})).wait_response()
            assert "Old Marrow takes seat" in json.dumps(told)
            again = await (await fd.slash(gm, CHANNEL, "bare-bones npc", {"name": "old marrow"})).wait_response()
            assert "Old Marrow already sits at this table" in json.dumps(again)
            await (await fd.click(ann, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(gm, lobby, button(fd, lobby, "Start"))).wait_response()
            table = await started(fd)
            text = ch.said(table)
            assert "Old Marrow" in text and "Ann" in text and "Gm" not in text
        clean(fd, bot)


async def until_buying(fd: FakeDiscord, users: list[FakeUser], hands: Hands) -> tuple[FakeUser, dict[str, Any]]:
    """Play on (the Draft, a turn's cards and dice) until someone's DM asks what they buy."""
    for _ in range(60):
        await ch.settle(fd, quiet=0.05)
        now = acting(fd, users)[0]
        message = await hands.controls(now)
        if any(x.startswith("Done buying") for x in controls_of(message)):
            return now, message
        await hands.step(now, policy)
    raise AssertionError("no one came to buy")


async def test_my_hand_out_of_turn_says_whom_the_game_waits_for(tmp_path: Path) -> None:
    """Bob presses My hand while Ann picks in the Draft, and later while Ann buys: the reply
    names her and what she is doing, and says his own question comes by DM."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {"GAME_SEED": "9"}, tmp_path / "bb.sqlite3") as bot:
            table = await open_table(fd, ann, [bob], bots=0)
            users = [ann, bob]
            picking = acting(fd, users)[0]
            other = bob if picking is ann else ann
            mine = await (await fd.click(other, table, button(fd, table, "My hand"))).response_message()
            assert mine["flags"] & 64
            said = ch.said(mine)
            assert f"**{picking.name.title()}** is picking; your pick comes by DM." in said, said
            hands = Hands(fd)
            buyer, _ = await until_buying(fd, users, hands)
            other = bob if buyer is ann else ann
            table = table_of(fd)
            mine = await (await fd.click(other, table, button(fd, table, "My hand"))).response_message()
            said = ch.said(mine)
            assert f"**{buyer.name.title()}'s turn** (buying); yours comes by DM." in said, said
            assert not controls_of(mine)
        clean(fd, bot)


async def test_the_buy_dm_is_one_menu_of_the_cards_and_done_buying(tmp_path: Path) -> None:
    """Buying, the cards on offer are one menu, each option with its price and what it does,
    and Done buying a button below it, where fourteen buttons filled a phone's screen; a card
    picked is bought once, and a pick from the menu as it was before is refused, buying
    nothing."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {"GAME_SEED": "9"}, tmp_path / "bb.sqlite3") as bot:
            await open_table(fd, ann, [bob], bots=0)
            buyer, message = await until_buying(fd, [ann, bob], Hands(fd))
            menus = act_selects(message)
            assert [m["placeholder"] for m in menus] == ["Buy a card…"], menus
            offers = menus[0]["options"]
            assert len(offers) >= 10 and all(o["label"].startswith("Buy ") for o in offers)
            for o in offers:
                assert re.match(r"\d+ coins?(, \d Action Units?)?: \S", o["description"]), o
                assert len(o["description"]) <= 100 and len(o["label"]) <= 100
            assert [b["label"] for b in act_buttons(message)] == [next(
                x for x in controls_of(message) if x.startswith("Done buying"))]
            said = ch.said(message)
            assert "left to spend" in said and len(said) <= 700, said
            # the cheapest card, from the menu
            first = min(offers, key=lambda o: int(o["description"].split(" ")[0]))
            picked = await fd.select(buyer, message, menus[0]["custom_id"], [first["value"]])
            assert (await picked.wait_response())["type"] == 7
            await ch.settle(fd, quiet=0.05)
            now = fd.message(message["id"])
            left = [o["label"] for m in act_selects(now) for o in m["options"]]
            assert act_selects(now)[0]["custom_id"] != menus[0]["custom_id"]  # a new moment
            assert first["label"] not in left and len(left) < len(offers)  # one of each name
            assert f"**Bought**: {first['label'].removeprefix('Buy ')}" in ch.said(now)
            # the menu as it was, picked again: refused, and nothing more is bought
            other = next(o for o in offers if o["label"] in left)
            stale = await (await fd.forge(buyer, now, menus[0]["custom_id"], values=[other["value"]],
                                          carried=True)).wait_response()
            assert stale["data"]["flags"] & 64 and "moment has passed" in stale["data"]["content"], stale
            await ch.settle(fd, quiet=0.05)
            assert [o["label"] for m in act_selects(fd.message(message["id"])) for o in m["options"]] == left
            bought = re.search(r"Bought: (.+)", ch.said(table_of(fd)))
            assert bought and bought[1] == first["label"].removeprefix("Buy ") + (
                " Dice Card" if "Action Unit" not in first["description"] else ""), ch.said(table_of(fd))
        clean(fd, bot)
