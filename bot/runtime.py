"""The table runtime: lobbies, seats, turns, deadlines and the one path every click takes.

interaction -> lock the game -> load -> check the action is legal for this user -> engine.apply
-> bot seats move -> store (one transaction, version check) -> post (bot/posting.py).
Nothing about a game lives in this process between clicks, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot import render
from bot.errors import Refusal
from bot.games import GameSpec
from bot.models import LogEntry, Table
from bot.steps import Steps
from bot.lobby import Lobby
from bot.posting import Change, Poster
from bot.replies import announce, defer, reply, update
from bot.store import Store
from rules.base import Chooser, Event

log = logging.getLogger(__name__)

#: a runaway engine or policy must not hang a click; far above any real game's chain of bot moves
MAX_AUTOMATIC_STEPS = 2_000
RECENT_EVENTS = 6
#: events kept for the line of history a table becomes (a long bot chain keeps its latest)
TURN_EVENTS = 60

#: seconds a click may wait for its game's lock before it is deferred (Discord allows three)
QUEUE_PATIENCE = 1.0


class TableRuntime(Lobby):
    def __init__(self, bot: discord.Client, store: Store, default_timer: int | None, *,
                 game_seed: int | None = None) -> None:
        self.bot = bot
        self.store = store
        self.default_timer = default_timer
        self.game_seed = game_seed
        self.specs: dict[str, GameSpec] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.poster = Poster(bot, store, self.spec, self.state_of)
        self.deadline_changed = asyncio.Event()
        #: when the deadline task wakes next anyway; only an earlier deadline needs to wake it
        self.next_wake = 0.0

    def deadline_written(self, due: float | None) -> None:
        if due is not None and due < self.next_wake:
            self.deadline_changed.set()

    def register(self, spec: GameSpec) -> None:
        self.specs[spec.engine.key] = spec

    def note_message(self, channel_id: int, author_is_me: bool) -> None:
        self.poster.note_message(channel_id, author_is_me)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            # the store's lock: in-process on SQLite, also held in the database when processes
            # share it (no store: a runtime built for a unit test)
            lock = self._locks[game_id] = self.store.game_lock(game_id) if self.store else asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def turn(self, interaction: discord.Interaction, game_id: int) -> AsyncIterator[None]:
        """The game's lock, for one interaction. Whoever holds it may be sending DMs or waiting
        out a rate limit, so an interaction that has queued for a while is deferred: waiting in
        line never runs past Discord's three seconds, and a short wait changes nothing."""
        lock = self.lock(game_id)
        waiting = asyncio.ensure_future(lock.acquire())  # keeps its place in line throughout
        try:
            done, _ = await asyncio.wait({waiting}, timeout=QUEUE_PATIENCE)
            if not done:
                await defer(interaction)
            await waiting
        except BaseException:
            if waiting.done() and not waiting.cancelled():
                lock.release()
            else:
                waiting.cancel()
            raise
        try:
            yield
        finally:
            lock.release()

    def spec(self, table: Table) -> GameSpec:
        return self.specs[table.game]

    # -- loading -------------------------------------------------------------------------------

    async def load(self, game_id: int) -> Table:
        table = await self.store.get(game_id)
        if table is None or table.game not in self.specs:
            raise Refusal("That game no longer exists.")
        return table

    def state_of(self, table: Table) -> BaseModel:
        return self.spec(table).engine.State.model_validate(table.state)

    async def live_table(self, channel_id: int) -> Table:
        table = await self.store.live_in_channel(channel_id)
        if table is None or table.game not in self.specs:
            raise Refusal("There is no game in this channel. Start one with `/<game> new`.")
        return table

    async def latest_table(self, channel_id: int) -> Table:
        """For questions about the past: the live game, else the channel's last one."""
        table = await self.store.latest_in_channel(channel_id)
        if table is None or table.game not in self.specs:
            raise Refusal("No game has been played in this channel yet. Start one with `/<game> new`.")
        return table

    # -- the table's settings ------------------------------------------------------------------

    async def pause(self, interaction: discord.Interaction, paused: bool) -> None:
        """The host (a game-master, say) stops the clock and the moves, and starts them again."""
        table = await self.live_table(interaction.channel_id or 0)
        async with self.turn(interaction, table.id or 0):
            table = await self.load(table.id or 0)
            if table.status != "active":
                raise Refusal("Only a game in play can be paused.")
            if not self.may_manage(interaction, table):
                raise Refusal("Only the host or someone with Manage Channel can pause or resume the game.")
            if table.paused == paused:
                raise Refusal("The game is already paused." if paused else "The game is not paused.")
            table.paused = paused
            who = interaction.user.display_name
            await self._setting_changed(interaction, table,
                                        f"⏸ {who} paused the game." if paused else f"▶ {who} resumed the game.")

    async def _setting_changed(self, interaction: discord.Interaction, table: Table, said: str) -> None:
        """Store a host's change to how the table runs (its clock, a pause): a new move number,
        the deadline it now implies, the channel told, the table redrawn."""
        expected = table.version
        table.version += 1
        due = self._deadline(table)
        await self.store.save(table, expected, interaction_id=interaction.id, deadline=due)
        self.deadline_written(due)
        await announce(interaction, said)
        await self.poster.refresh(table)

    # -- playing -------------------------------------------------------------------------------

    async def act(
        self, interaction: discord.Interaction, game_id: int, drawn_for: int | None, stamp: str,
        choices: Sequence[int],
    ) -> None:
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            self._playable(table)
            spec = self.spec(table)
            engine = spec.engine
            seat = table.seat_of(interaction.user.id)
            state = self.state_of(table)
            owner = seat if drawn_for is None else drawn_for
            current = owner is not None and owner < len(table.seats) and (
                stamp == render.decision_stamp(spec, table, state, owner))
            if not current:
                await self._stale(interaction, table)
                return
            if seat is None:
                raise Refusal(f"You are not playing at this table: {await self._waiting_for(table, state)}.")
            if seat != owner or seat not in engine.to_act(state):
                raise Refusal(f"Not your turn: {await self._waiting_for(table, state)}.")
            actions = engine.legal_actions(state, seat)
            if len(choices) != 1 or not 0 <= choices[0] < len(actions):
                raise Refusal("That choice is not available.")
            await self._play(interaction, table, state, seat, actions[choices[0]])

    async def act_in_open(
        self, interaction: discord.Interaction, game_id: int, stamp: str, index: int
    ) -> None:
        """A click on a choice the table offers to everyone who owes one (Engine.open_actions)."""
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            self._playable(table)
            spec = self.spec(table)
            engine = spec.engine
            state = self.state_of(table)
            seat = table.seat_of(interaction.user.id)
            shown, _, mask = stamp.partition(".")
            try:
                asked = int(mask, 16)
            except ValueError:
                asked = 0
            if shown != render.open_stamp(spec, table, state, ()).partition(".")[0]:
                await self._stale(interaction, table)  # another moment's row
                return
            if seat is None:
                raise Refusal(f"You are not playing at this table: {await self._waiting_for(table, state)}.")
            if seat not in engine.to_act(state):
                raise Refusal(f"Nothing is asked of you now: {await self._waiting_for(table, state)}.")
            if not asked >> seat & 1:
                await self._stale(interaction, table)  # drawn before this seat was asked
                return
            shared = engine.open_actions(state)
            if not 0 <= index < len(shared):
                raise Refusal("That choice is not available.")
            if shared[index] not in engine.legal_actions(state, seat):
                raise Refusal("That choice is not yours to make.")
            await self._play(interaction, table, state, seat, shared[index])

    def _playable(self, table: Table) -> None:
        if table.status != "active":
            raise Refusal("This game is over.")
        if table.paused:
            raise Refusal("The game is paused; the host resumes it with `/game resume`.")

    async def _play(
        self, interaction: discord.Interaction, table: Table, state: BaseModel, seat: int, action: BaseModel
    ) -> None:
        """Apply one checked action, let bot seats answer, store it all, show the new table."""
        engine = self.spec(table).engine
        expected = table.version
        steps = Steps(engine.to_act(state))
        state = self._apply(table, state, seat, action, steps)
        state = self._run_bots(table, state, steps)
        change = await self._commit(table, state, expected, steps, interaction.id)
        await self.poster.answer(interaction, table, change)

    def _apply(self, table: Table, state: BaseModel, seat: int, action: BaseModel | None, steps: Steps) -> BaseModel:
        """One move (``action`` None: the seat's timeout default), logged under its chapter with
        the next move number (the table's own number changes only when the step is stored)."""
        version = table.version + len(steps.entries) + 1
        spec = self.spec(table)
        engine = spec.engine
        chapter = spec.chapter(engine.view(state, None))
        if action is None:
            state, events = engine.on_timeout(state, seat)
            payload: dict[str, Any] = {"timeout": True}
        else:
            state, events = engine.apply(state, seat, action)
            payload = action.model_dump(mode="json")
        steps.entries.append(LogEntry(
            version=version, seat=seat, user_id=table.seats[seat].user_id, action=payload,
            events=[render.seat_names(table, e.text) for e in events], chapter=render.seat_names(table, chapter),
        ))
        steps.events += events
        steps.passed(engine.to_act(state))
        return state

    async def _stale(self, interaction: discord.Interaction, table: Table) -> None:
        """A click from a past moment: say so in one line and point to where the game is now."""
        copy = table.dm_copies.get(interaction.user.id)
        private = interaction.guild_id is None or bool(interaction.message and interaction.message.flags.ephemeral)
        if not private and self._fallen_behind(interaction, table):
            await reply(interaction, ephemeral=True,
                        content="This table had fallen behind the game; here it is again, up to date.")
            state = self.state_of(table)
            acting = [s for s in self.spec(table).engine.to_act(state) if not table.seats[s].ai]
            await self.poster.post(table, strip_old=True, notify=acting)
            return
        if private and copy is not None:
            where = f"your current choice is here: https://discord.com/channels/@me/{copy[0]}/{copy[1]}"
        else:
            where = f"the live table is here: {render.jump_link(table)}"
        await reply(interaction, content=f"That moment has passed; {where}", ephemeral=True)

    def _fallen_behind(self, interaction: discord.Interaction, table: Table) -> bool:
        """The live table's message itself still offers a past moment's buttons: the step was
        stored, and the process stopped before it could show it. A click sent before an edit
        this process made carries the message as it was, so only a version this process has
        not shown is judged by the buttons; a client that merely missed an edit sends the
        message as Discord holds it, up to date, so it is not mistaken either."""
        message = interaction.message
        if message is None or message.id != table.message_id or table.status != "active":
            return False
        if self.poster.shown.get(table.id or 0) == table.version:
            return False  # shown by this process: a click that raced its edit, not a lost step
        drawn = {getattr(c, "custom_id", None) for row in message.components for c in getattr(row, "children", ())}
        now = {getattr(item, "custom_id", None) for item in self.poster.public(table).view.children}
        return drawn - {None} != now - {None}

    async def _waiting_for(self, table: Table, state: BaseModel) -> str:
        seats = self.spec(table).engine.to_act(state)
        who = render._and([table.seats[s].name for s in seats]) if seats else "nobody"
        due = await self.store.deadline_of(table.id or 0)
        return f"waiting for {who}" + (f", whose time runs out <t:{int(due)}:R>" if due else "")

    def _run_bots(self, table: Table, state: BaseModel, steps: Steps) -> BaseModel:
        """Let every bot seat that must act do so, until a person must act or the game ends."""
        engine = self.spec(table).engine
        for _ in range(MAX_AUTOMATIC_STEPS):
            if engine.is_over(state):
                break
            bots = [s for s in engine.to_act(state) if table.seats[s].ai]
            if not bots:
                break
            seat = bots[0]
            version = table.version + len(steps.entries) + 1
            choose = Chooser(random.Random(f"{table.seed}:{version}:{seat}"))
            action = engine.ai_action(state, seat, choose)
            state = self._apply(table, state, seat, action, steps)
        else:
            raise RuntimeError(f"bot seats of game {table.id} did not yield to a person")
        return state

    async def _commit(
        self, table: Table, state: BaseModel, expected: int, steps: Steps, interaction_id: int | None, *,
        notice: str | None = None, history: str | None = None,
    ) -> Change:
        """Write the new state; the table object is only changed once the write succeeded.

        Returns what the poster needs: who is newly asked to act (pinged by a new table), who
        owes a new private decision (judged by each seat's decision stamp, so a seat that goes on
        from one sealed choice to the next is told again), and the old table's line of history
        when the turn changed hands.
        """
        spec = self.spec(table)
        engine = spec.engine
        old_state = self.state_of(table) if table.state is not None else None
        before = self._stamps(table, table.version, old_state) if old_state is not None else {}
        looked = self._public_look(table, old_state) if old_state is not None else None
        entries = steps.entries
        recent = table.recent + [text for entry in entries for text in entry.events]
        # a shallow copy: every field this changes is replaced, never mutated in place
        draft = table.model_copy(update={
            "state": state.model_dump(mode="json"),
            "version": expected + max(1, len(entries)),
            "recent": recent[-RECENT_EVENTS:],
        })
        results = None
        if engine.is_over(state):
            draft.status = "finished"
            # A player who left (their seat kept its user, a bot played on) played this game but
            # did not win it, whatever the bot did: they rank after everyone who stayed.
            last = len(draft.seats) + 1
            results = [
                {
                    "seat": o.seat,
                    "user_id": draft.seats[o.seat].user_id,
                    "rank": last if draft.seats[o.seat].ai and draft.seats[o.seat].user_id else o.rank,
                    "score": o.score,
                }
                for o in engine.outcomes(state)
            ]
        acting = engine.to_act(state) if draft.status == "active" else []
        humans = [s for s in acting if not draft.seats[s].ai]
        throughout = steps.throughout or set()
        newly = [s for s in humans if s not in throughout]
        events = [Event.model_validate(e) for e in table.turn_events] + steps.events
        change = Change(newly_acting=newly, notice=notice, old_message_id=table.message_id)
        seen = engine.view(state, None)
        chapter = spec.chapter(seen)
        if newly or draft.status != "active" or history is not None or (table.chapter and chapter != table.chapter):
            change.history = history or render.history_line(draft, table.chapter, spec.story(draft, events))
            news = spec.headline(draft, events)
            change.headline = render.seat_names(draft, news, mentions=True) if news else None
            draft.chapter = chapter
            draft.turn_events = []
        else:
            draft.turn_events = [e.model_dump() for e in events][-TURN_EVENTS:]
        due = self._deadline(draft, state)
        await self.store.save(
            draft, expected, log=entries, interaction_id=interaction_id, deadline=due, results=results,
        )
        self.deadline_written(due)
        if draft.status == "finished":
            self.poster.finishing.add(table.id or 0)
        for name in Table.model_fields:
            setattr(table, name, getattr(draft, name))
        change.public_changed = looked != self._public_look(table, state, seen) or change.new_turn
        if draft.status == "active":
            now = self._stamps(table, draft.version, state)
            change.fresh = [s for s, stamp in now.items() if before.get(s) != stamp]
        return change

    def _public_look(self, table: Table, state: BaseModel | None, seen: BaseModel | None = None) -> str:
        """Everything the channel's table is drawn from, to tell a change nobody can see (a
        sealed choice being filled in) from one the table must show."""
        if state is None:
            return ""
        engine = self.spec(table).engine
        seen = seen if seen is not None else engine.view(state, None)
        return seen.model_dump_json() + repr(engine.to_act(state)) + repr(
            [(s.name, s.ai, s.dm_closed) for s in table.seats]) + repr((table.status, table.paused, table.timer_seconds))

    def _stamps(self, table: Table, version: int, state: BaseModel) -> dict[int, str]:
        """What each seat owing a decision is asked, as its buttons would carry it."""
        engine = self.spec(table).engine
        return {s: engine.decision_stamp(state, s) or str(version) for s in engine.to_act(state)}

    def _deadline(self, table: Table, state: BaseModel | None = None) -> float | None:
        if table.status != "active" or table.paused:
            return None
        state = state if state is not None else self.state_of(table)
        spec = self.spec(table)
        if not any(not table.seats[s].ai for s in spec.engine.to_act(state)):
            return None
        seconds = spec.timer_seconds(table, state)
        return None if not seconds else time.time() + float(seconds)

    async def expire(self, game_id: int, version: int) -> None:
        """A deadline passed: play the rulings' default for everyone still owing a decision."""
        async with self.lock(game_id):
            table = await self.store.get(game_id)
            if table is None or table.status != "active" or table.version != version or table.paused:
                return
            engine = self.spec(table).engine
            state = self.state_of(table)
            steps = Steps(engine.to_act(state))
            late = [s for s in engine.to_act(state) if not table.seats[s].ai]
            for seat in late:
                if seat in engine.to_act(state):
                    state = self._apply(table, state, seat, None, steps)
            state = self._run_bots(table, state, steps)
            names = render._and([table.seats[s].name for s in late]) if late else "nobody"
            change = await self._commit(table, state, version, steps, None,
                                        notice=f"⏰ Time ran out for {names}; the default was played.")
            await self.poster.answer(None, table, change)

    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.live_table(interaction.channel_id or 0)
        if table.status == "lobby":
            await self.lobby(interaction, table.id or 0, "leave")
            return
        async with self.turn(interaction, table.id or 0):
            table = await self.load(table.id or 0)
            seat = table.seat_of(interaction.user.id)
            if table.status != "active" or seat is None:
                raise Refusal("You do not have a seat in the game here.")
            if table.paused:
                raise Refusal("The game is paused: leave once the host resumes it (a bot then plays your seat).")
            expected = table.version
            state = self.state_of(table)
            steps = Steps(self.spec(table).engine.to_act(state))
            table.seats[seat].ai = True
            table.seats[seat].name = f"{table.seats[seat].name} (bot)"
            state = self._run_bots(table, state, steps)
            table.recent.append(f"{interaction.user.display_name} left; a bot plays their seat.")
            change = await self._commit(table, state, expected, steps, interaction.id,
                                        notice=f"{interaction.user.display_name} left the table; a bot plays their seat.")
            await reply(interaction, content="You left the game; a bot plays your seat from here.", ephemeral=True)
            await self.poster.answer(None, table, change)

    async def end(self, interaction: discord.Interaction, game_id: int) -> None:
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            if not table.live:
                raise Refusal("This game has already ended.")
            if not self.may_manage(interaction, table):
                raise Refusal("Only the host or someone with Manage Channel can end the game.")
            expected = table.version
            table.status = "cancelled"
            table.version += 1
            await self.store.save(table, expected, interaction_id=interaction.id, deadline=None)
            await update(interaction, content="The game was ended.", view=None)
            await self.poster.refresh(table, notice=f"{interaction.user.display_name} ended the game early.")

    def may_manage(self, interaction: discord.Interaction, table: Table) -> bool:
        perms = getattr(interaction, "permissions", None)
        return interaction.user.id == table.host_id or bool(perms and perms.manage_channels)

    async def set_timer(self, interaction: discord.Interaction, seconds: int | None) -> None:
        table = await self.live_table(interaction.channel_id or 0)
        async with self.turn(interaction, table.id or 0):
            table = await self.load(table.id or 0)
            if interaction.user.id != table.host_id:
                raise Refusal("Only the host can change the turn timer.")
            table.timer_seconds = seconds
            said = f"{seconds} seconds per decision" if seconds else "off"
            await self._setting_changed(interaction, table, f"Turn timer: {said}.")

    async def show_table(self, interaction: discord.Interaction) -> None:
        """/game status: the live table again, as the newest message."""
        table = await self.live_table(interaction.channel_id or 0)
        async with self.turn(interaction, table.id or 0):
            table = await self.load(table.id or 0)
            await reply(interaction, content="Here is the table.", ephemeral=True)
            await self.poster.post(table, strip_old=True)

    # -- private answers -------------------------------------------------------------------------

    def _rules_embed(self, spec: GameSpec, table: Table | None) -> discord.Embed:
        engine = spec.engine
        if table is not None and table.game == engine.key:
            options, title = engine.Options.model_validate(table.options), f"{engine.title}: rules in force here"
        else:
            options, title = engine.Options(), f"{engine.title}: rules (default options)"
        return discord.Embed(title=title, description=render.clip(spec.rules_text(options), 4096), colour=spec.colour)

    async def show_rules(self, interaction: discord.Interaction, spec: GameSpec | None = None) -> None:
        """The rules with the rulings and options in force: those of this channel's game (the
        live one, else the last), or, asked about another game, that game's defaults."""
        table = await self.store.latest_in_channel(interaction.channel_id or 0)
        here = table if table is not None and table.game in self.specs else None
        if spec is None:
            if here is None:
                raise Refusal("No game has been played in this channel yet. Start one with `/<game> new`.")
            spec = self.specs[here.game]
        await reply(interaction, embed=self._rules_embed(spec, here), ephemeral=True)

    async def how_to_play(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.load(game_id)
        await reply(interaction, embed=self._rules_embed(self.spec(table), table), ephemeral=True)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None or table.status != "active":
                raise Refusal("You have no hand at this table.")
            await self.poster.show_hand(interaction, table, seat)

    async def show_details(self, interaction: discord.Interaction, game_id: int) -> None:
        """Details: the full sheet and fine print, privately; a seat sees its own secrets too."""
        table = await self.load(game_id)
        if table.state is None:
            raise Refusal("The game has not started yet.")
        spec = self.spec(table)
        seat = table.seat_of(interaction.user.id) if spec.engine.has_private_view() else None
        state = self.state_of(table)
        embeds = render.details_message(spec, table, state, seat)
        files = []
        for picture in spec.details_pictures(table, spec.engine.view(state, seat), seat)[:4]:
            if len(embeds) >= 10:
                break
            files.append(await self.poster.pictures.file(picture))
            shown = discord.Embed(description=picture.description[:4096] or None, colour=spec.colour)
            embeds.append(shown.set_image(url=f"attachment://{picture.filename}"))
        await reply(interaction, embeds=embeds, files=files, ephemeral=True)
