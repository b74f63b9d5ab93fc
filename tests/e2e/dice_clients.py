"""The dice tools under a fuzz run: rolls in the open, in private and in secret to a game-master,
with a stranger at their buttons.

A private roll is seen by its roller alone until they press Reveal; a secret roll by its roller
and the game-master it was made for, never by the channel. So each such roll's result lines
(each names the thirteen dice of 97 sides ``EXPRESSION`` rolls, which make two results alike all
but impossible) are held against everything the channel and every other person is shown after it.
The stranger presses Reveal and Roll again on those rolls and Erase on the roller's history, as
a modified client can: each is refused, privately and saying why, and shows nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.stores import Reader
from tests.e2e.watch import FIRST_ANSWER, LATE_ANSWER, PUBLIC, Watch, answer_problem, newest, strings
from tests.fakediscord import FakeDiscord, FakeUser, Interaction

EXPRESSION = "13d97+5"
#: how a result line names those dice ("-# 13d97 (64, 19, 27, ...) + 5")
RESULT = "13d97 ("
KINDS = ("public", "private", "secret", "again", "reveal", "stranger_reveal", "stranger_again", "stranger_erase")


@dataclass
class Hidden:
    """A roll not shown to the channel: its result lines, and who may see them."""

    roll_id: int | None
    lines: set[str]
    allowed: set[int]
    message: dict[str, Any] | None = None  # the roller's private copy, with its Reveal button
    revealed: bool = False


@dataclass
class DiceRun:
    fd: FakeDiscord
    watch: Watch
    channel: str
    roller: FakeUser
    gm: FakeUser
    stranger: FakeUser
    shy: FakeUser  # a roller whose DMs are closed
    rng: random.Random
    db: Reader
    sent: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    late: list[str] = field(default_factory=list)
    problems: dict[str, list[str]] = field(default_factory=dict)
    hidden: list[Hidden] = field(default_factory=list)

    @property
    def people(self) -> list[FakeUser]:
        return [self.roller, self.gm, self.stranger, self.shy]

    @property
    def interactions(self) -> int:
        return sum(self.sent.values())

    def problem(self, kind: str, text: str) -> None:
        self.problems.setdefault(kind, []).append(text)

    async def one(self) -> None:
        fd, rng = self.fd, self.rng
        kind = rng.choice(KINDS)
        secrets = [h for h in self.hidden if not h.revealed and h.roll_id is not None]
        public = newest(fd, fd.channel(self.channel).id, lambda m: any(
            (b["custom_id"] or "").startswith("bn:roll:again:") for b in fd.buttons(m)))
        if kind.startswith("stranger") and (not secrets or public is None) or kind == "again" and public is None:
            kind = "public"
        if kind == "reveal" and not [h for h in secrets if h.message is not None]:
            kind = "private"
        sent: list[tuple[Interaction, bool]] = []
        roller = rng.choice([self.roller, self.shy])
        new: Hidden | None = None
        if kind == "public":
            sent.append((await fd.slash(rng.choice(self.people), self.channel, "roll", {"expression": EXPRESSION}),
                         False))
        elif kind == "private":
            sent.append((await fd.slash(roller, self.channel, "roll", {"expression": EXPRESSION, "private": True}),
                         False))
            new = Hidden(None, set(), {roller.id})
        elif kind == "secret":
            options = {"expression": EXPRESSION, "secret_to": self.gm, "private": rng.random() < 0.5}
            sent.append((await fd.slash(roller, self.channel, "roll", options), False))
            new = Hidden(None, set(), {roller.id, self.gm.id})
        elif kind == "again":
            assert public is not None
            again = next(b["custom_id"] for b in fd.buttons(public) if (b["custom_id"] or "").startswith("bn:roll:again"))
            sent.append((await fd.click(rng.choice(self.people), public, again, as_seen=True), False))
        elif kind == "reveal":
            mine = rng.choice([h for h in secrets if h.message is not None])
            assert mine.message is not None
            owner = next(p for p in self.people if p.id in mine.allowed)
            mine.revealed = True  # from here on, the channel may read it
            sent.append((await fd.click(owner, mine.message, f"bn:roll:reveal:{mine.roll_id}", as_seen=True), False))
        else:
            assert public is not None
            target = rng.choice(secrets)
            forged = {"stranger_reveal": f"bn:roll:reveal:{target.roll_id}",
                      "stranger_again": f"bn:roll:again:{target.roll_id}",
                      "stranger_erase": f"bn:roll:forget:{fd.channel(self.channel).guild_id}:{min(target.allowed)}"}[kind]
            sent.append((await fd.forge(self.stranger, public, forged, carried=True), True))
        self.sent[kind] += len(sent)
        await self.conclude(kind, sent, new)

    async def conclude(self, kind: str, sent: list[tuple[Interaction, bool]], new: Hidden | None) -> None:
        fd = self.fd
        for it, _ in sent:
            try:
                await it.wait_response(timeout=FIRST_ANSWER)
                if it.latency is not None:
                    self.latencies.append(it.latency)
            except TimeoutError:
                self.late.append(f"dice {kind}")
            if it.response is not None and it.response["type"] in (5, 6):
                try:
                    await fd.wait_until(lambda: it.followup_ids or it.original_edits, LATE_ANSWER, what="the answer")
                except TimeoutError:
                    pass
        await self.quiet()
        for it, refuse in sent:
            wrong = answer_problem(fd, it, refuse)
            if wrong is not None:
                self.problem(*wrong)
        shown = self.watch.shown(self.channel)
        if new is not None:
            it = sent[0][0]
            new.roll_id, new.lines = self._newest_roll(it.user.id)
            mine = next(iter(it.ephemeral.values()), None)
            if any((b["custom_id"] or "") == f"bn:roll:reveal:{new.roll_id}" for b in fd.buttons(mine or {})):
                new.message = mine
            self.hidden = [h for h in self.hidden if not h.revealed][-50:] + [new]
        for item in shown:
            for h in self.hidden:
                if h.revealed or item.audience in h.allowed or not h.lines & item.words:
                    continue
                who = "the channel" if item.audience == PUBLIC else f"user {item.audience}"
                self.problem("secrets shown to others",
                             f"dice {kind}: a hidden roll's {sorted(h.lines & item.words)[:2]} shown to {who} "
                             f"by {item.what}")

    def _newest_roll(self, user: int) -> tuple[int | None, set[str]]:
        """A person's newest roll as the store keeps it: its id (a secret roll has no button
        that names it) and its result lines, word for word as the bot shows them."""
        row = self.db.execute("SELECT id, roll_json FROM rolls WHERE user_id=? ORDER BY id DESC LIMIT 1",
                              (user,)).fetchone()
        if row is None:
            return None, set()
        return row[0], {line for line in strings({"content": json.loads(row[1])["text"]}) if RESULT in line}

    async def quiet(self) -> None:
        seen = -1
        for _ in range(300):
            now = self.watch.count(self.channel)
            if now == seen:
                return
            seen = now
            await asyncio.sleep(0.03)
