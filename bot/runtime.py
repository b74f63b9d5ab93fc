"""The table runtime: lobbies, seats, turns, deadlines and the one path every click takes.

interaction -> lock the game -> load -> check the action is legal for this user -> engine.apply
-> bot seats move -> store (one transaction, version check) -> render -> respond.
Nothing about a game lives in this process between clicks, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord
from pydantic import BaseModel

from bot import render
from bot.errors import Refusal
from bot.games import GameSpec
from bot.models import LogEntry, Seat, Table
from bot.private import send_private
from bot.replies import announce, defer, reply, update
from bot.store import ChannelBusy, Store, VersionConflict
from rules.base import Chooser, Event, GameError

if TYPE_CHECKING:
    from bot.client import Boneyard

log = logging.getLogger(__name__)

#: a runaway engine or policy must not hang a click; far above any real game's chain of bot moves
MAX_AUTOMATIC_STEPS = 2_000
#: after this many other messages in the channel, the table is posted afresh instead of edited
SCROLLED_AWAY = 4
RECENT_EVENTS = 6


#: seconds a click may wait for its game's lock before it is deferred (Discord allows three)
QUEUE_PATIENCE = 1.0

class TableRuntime:
    def __init__(self, bot: Boneyard, store: Store, default_timer: int | None, *,
                 game_seed: int | None = None) -> None:
        self.bot = bot
        self.store = store
        self.default_timer = default_timer
        self.game_seed = game_seed
        self.specs: dict[str, GameSpec] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # channel id -> messages seen since our table message there (in memory: after a
        # restart a table counts as recent, which at worst edits one message that scrolled away)
        self._since_table: dict[int, int] = {}
        self.deadline_changed = asyncio.Event()
        #: when the deadline task wakes next anyway; only an earlier deadline needs to wake it
        self.next_wake = 0.0
        #: games whose final table has yet to be followed by the game's finish messages
        self._just_finished: set[int] = set()

    def deadline_written(self, due: float | None) -> None:
        if due is not None and due < self.next_wake:
            self.deadline_changed.set()

    def register(self, spec: GameSpec) -> None:
        self.specs[spec.engine.key] = spec

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
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

    def note_message(self, channel_id: int, author_is_me: bool) -> None:
        if channel_id in self._since_table and not author_is_me:
            self._since_table[channel_id] += 1

    def _is_recent(self, table: Table) -> bool:
        return self._since_table.get(table.channel_id, 0) < SCROLLED_AWAY

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

    # -- lobby ---------------------------------------------------------------------------------

    async def open_lobby(
        self, interaction: discord.Interaction, spec: GameSpec, options: BaseModel, *,
        seats: list[Seat] | None = None, timer_seconds: int | None | Literal["default"] = "default",
        host_plays: bool = True, host_id: int | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("Games are played in a server channel, not in DMs.")
        busy = await self.store.live_in_channel(interaction.channel_id)
        if busy is not None:
            raise Refusal(self._busy_text(busy))
        table = Table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=spec.engine.key,
            host_id=host_id if host_id is not None else interaction.user.id,
            host_plays=host_plays,
            seats=seats if seats is not None else (
                [Seat(user_id=interaction.user.id, name=interaction.user.display_name)] if host_plays else []
            ),
            options=options.model_dump(),
            seed=self.game_seed if self.game_seed is not None else random.SystemRandom().getrandbits(63),
            timer_seconds=self.default_timer if timer_seconds == "default" else timer_seconds,
        )
        try:
            table = await self.store.create(table)
        except ChannelBusy:
            busy = await self.store.live_in_channel(interaction.channel_id)
            raise Refusal(self._busy_text(busy)) from None
        async with self.lock(table.id or 0):
            message = await reply(interaction, **self._message(table))
            if message is None:
                message = await interaction.original_response()
            await self._set_message(table, message.id)

    def _busy_text(self, table: Table | None) -> str:
        if table is None:
            return "This channel already has a game."
        title = self.specs[table.game].engine.title if table.game in self.specs else table.game
        where = (
            f" https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
            if table.message_id
            else ""
        )
        stage = "waiting in its lobby" if table.status == "lobby" else "in play"
        return (
            f"This channel already has a game of {title} {stage}:{where}\n"
            "Use `/game status` to see it, or open a thread to play another game alongside."
        )

    async def lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            if table.status != "lobby":
                raise Refusal("This lobby has closed; the game has already started or ended.")
            spec = self.spec(table)
            user = interaction.user
            is_host = user.id == table.host_id
            expected = table.version
            notice: str | None = None
            if op == "join":
                if is_host and not table.host_plays:
                    raise Refusal("You run this table as its game-master; players and NPCs take the seats.")
                if table.seat_of(user.id) is not None:
                    raise Refusal("You already have a seat at this table.")
                if len(table.seats) >= spec.engine.max_seats:
                    raise Refusal(f"The table is full ({spec.engine.max_seats} seats).")
                table.seats.append(Seat(user_id=user.id, name=user.display_name))
            elif op == "leave":
                seat = table.seat_of(user.id)
                if seat is None:
                    raise Refusal("You do not have a seat at this table.")
                if is_host and table.host_plays:
                    raise Refusal("The host cannot leave the lobby; use **Cancel** to close it.")
                table.seats.pop(seat)
                notice = f"{user.display_name} left the lobby."

            elif op == "ai":
                self._host_only(table, user, "add AI players")
                if len(table.seats) >= spec.engine.max_seats:
                    raise Refusal(f"The table is full ({spec.engine.max_seats} seats).")
                taken = {s.name for s in table.seats}
                number = next(n for n in range(1, len(table.seats) + 2) if f"Bot {n}" not in taken)
                table.seats.append(Seat(name=f"Bot {number}", ai=True))
            elif op == "cancel":
                self._host_only(table, user, "cancel the game")
                table.status = "cancelled"
                notice = f"{user.display_name} cancelled the game."
            elif op == "start":
                self._host_only(table, user, "start the game")
                state, entries = self._start(table, spec)
                fresh = await self._commit(table, state, expected, entries, interaction.id)
                await self._respond_with_table(interaction, table, notify=fresh)
                return
            else:
                raise Refusal("Unknown lobby button.")
            table.version += 1
            await self.store.save(table, expected, interaction_id=interaction.id, deadline=None)
            await self._respond_with_table(interaction, table, notice=notice)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby with the same players and options, seats in reverse order (KB-7), so the
        table does not have to gather again. Whoever asks hosts it."""
        async with self.turn(interaction, game_id):
            old = await self.load(game_id)
            if old.live:
                raise Refusal("This game is still going.")
            if old.seat_of(interaction.user.id) is None and interaction.user.id != old.host_id:
                raise Refusal("Only the players of this game can ask for a rematch; "
                              f"start your own with `/{self.spec(old).command} new`.")
        seats = [seat.model_copy(update={"dm_closed": False}) for seat in reversed(old.seats)]
        await self.open_lobby(interaction, self.spec(old), self.spec(old).engine.Options.model_validate(old.options),
                              seats=seats, timer_seconds=old.timer_seconds, host_plays=old.host_plays,
                              # a game-master runs the next game too, whoever asked for it
                              host_id=None if old.host_plays else old.host_id)
        if interaction.message is not None:
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException:
                log.info("could not remove the rematch button of game %s", game_id)

    async def edit_lobby(self, interaction: discord.Interaction, change: Callable[[Table], str]) -> None:
        """A host's change to the lobby from a game's own command (an NPC seat, a seat's stake):
        ``change`` edits the table or raises Refusal, and returns what to tell the host."""
        table = await self.live_table(interaction.channel_id or 0)
        async with self.turn(interaction, table.id or 0):
            table = await self.load(table.id or 0)
            if table.status != "lobby":
                raise Refusal("Seats can only be changed in the lobby, before the game starts.")
            self._host_only(table, interaction.user, "change the seats")
            expected = table.version
            said = change(table)
            table.version += 1
            await self.store.save(table, expected, interaction_id=interaction.id, deadline=None)
            await reply(interaction, content=said, ephemeral=True)
            await self._refresh_table(table)

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
        await self._refresh_table(table)

    def _host_only(self, table: Table, user: discord.abc.User, what: str) -> None:
        if user.id != table.host_id:
            raise Refusal(f"Only the host can {what}.")

    def _start(self, table: Table, spec: GameSpec) -> tuple[BaseModel, list[LogEntry]]:
        engine = spec.engine
        options = spec.start_options(table, engine.Options.model_validate(table.options))
        fewest, _ = engine.seat_range(options)
        if len(table.seats) < fewest:
            raise Refusal(f"{engine.title} needs at least {fewest} players; press **Join** or **Add AI**.")
        try:
            state = engine.new_game(len(table.seats), options, table.seed)
        except GameError as exc:
            raise Refusal(str(exc)) from None
        table.recent = [f"The game begins with {render.names(table)}."]
        state, entries = self._run_bots(table, state, table.version + 1)
        table.status = "active"
        return state, entries

    # -- playing -------------------------------------------------------------------------------

    def stamp(self, table: Table, state: BaseModel, seat: int) -> str:
        """What the seat's buttons carry; a click whose stamp differs is from a past moment."""
        return self.spec(table).engine.decision_stamp(state, seat) or str(table.version)

    async def act(
        self, interaction: discord.Interaction, game_id: int, stamp: str, choices: Sequence[int]
    ) -> None:
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            self._playable(table)
            engine = self.spec(table).engine
            seat = table.seat_of(interaction.user.id)
            state = self.state_of(table)
            if stamp != (str(table.version) if seat is None else self.stamp(table, state, seat)):
                await self._stale(interaction, table)
                return
            if seat is None:
                raise Refusal("You are not playing at this table.")
            if seat not in engine.to_act(state):
                raise Refusal(f"It is not your turn: waiting for {self._waiting_for(table, state)}.")
            actions = engine.legal_actions(state, seat)
            if len(choices) != 1 or not 0 <= choices[0] < len(actions):
                raise Refusal("That choice is not available.")
            await self._play(interaction, table, state, seat, actions[choices[0]])

    def open_stamp(self, table: Table, state: BaseModel, asked: Sequence[int]) -> str:
        """What a row of open choices is tied to: the choices as labelled, and the seats it was
        shown to. Several players pressing Ready together must all count, so another player's
        click, which changes the move number but not the row, leaves the buttons good for the
        seats that were asked; a row drawn for one player's turn never counts for the next."""
        spec = self.spec(table)
        public = spec.engine.view(state, None)
        shown = [[a.model_dump(mode="json"), spec.action_label(public, a)] for a in spec.engine.open_actions(state)]
        digest = hashlib.blake2s(json.dumps(shown, sort_keys=True).encode(), digest_size=5).hexdigest()
        return f"{digest}.{sum(1 << s for s in asked):x}"

    async def act_in_open(
        self, interaction: discord.Interaction, game_id: int, stamp: str, index: int
    ) -> None:
        """A click on a choice the table offers to everyone who owes one (Engine.open_actions)."""
        async with self.turn(interaction, game_id):
            table = await self.load(game_id)
            self._playable(table)
            engine = self.spec(table).engine
            state = self.state_of(table)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("You are not playing at this table.")
            shown, _, mask = stamp.partition(".")
            try:
                asked = int(mask, 16)
            except ValueError:
                asked = 0
            if shown != self.open_stamp(table, state, ()).partition(".")[0] or not asked >> seat & 1:
                await self._stale(interaction, table)  # another moment's row, or one drawn for others
                return
            if seat not in engine.to_act(state):
                raise Refusal(f"Nothing is asked of you now: waiting for {self._waiting_for(table, state)}.")
            shared = engine.open_actions(state)
            if not 0 <= index < len(shared):
                raise Refusal("That choice is not available.")
            if shared[index] not in engine.legal_actions(state, seat):
                raise Refusal("You cannot make that choice now.")
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
        state, events = engine.apply(state, seat, action)
        entries = [self._entry(table, expected + 1, seat, action, events)]
        state, more = self._run_bots(table, state, expected + 2)
        entries += more
        fresh = await self._commit(table, state, expected, entries, interaction.id)
        await self._respond_with_table(interaction, table, notify=fresh)

    async def _stale(self, interaction: discord.Interaction, table: Table) -> None:
        message = self._message(table, for_user=interaction.user.id)
        message["content"] = render.clip(
            "That moment has passed. Here is the table now:\n" + (message["content"] or ""), render.CONTENT)
        message.pop("allowed_mentions", None)
        await reply(interaction, ephemeral=True, **message)

    def _waiting_for(self, table: Table, state: BaseModel) -> str:
        seats = self.spec(table).engine.to_act(state)
        return ", ".join(table.seats[s].name for s in seats) or "nobody"

    def _entry(
        self, table: Table, version: int, seat: int | None, action: BaseModel | dict[str, Any],
        events: list[Event],
    ) -> LogEntry:
        payload = action if isinstance(action, dict) else action.model_dump(mode="json")
        return LogEntry(
            version=version,
            seat=seat,
            user_id=None if seat is None else table.seats[seat].user_id,
            action=payload,
            events=[render.event_text(table, e) for e in events],
        )

    def _run_bots(
        self, table: Table, state: BaseModel, next_version: int
    ) -> tuple[BaseModel, list[LogEntry]]:
        """Let every bot seat that must act do so, until a person must act or the game ends."""
        engine = self.spec(table).engine
        entries: list[LogEntry] = []
        for _ in range(MAX_AUTOMATIC_STEPS):
            if engine.is_over(state):
                break
            bots = [s for s in engine.to_act(state) if table.seats[s].ai]
            if not bots:
                break
            seat = bots[0]
            version = next_version + len(entries)
            choose = Chooser(random.Random(f"{table.seed}:{version}:{seat}"))
            action = engine.ai_action(state, seat, choose)
            state, events = engine.apply(state, seat, action)
            entries.append(self._entry(table, version, seat, action, events))
        else:
            raise RuntimeError(f"bot seats of game {table.id} did not yield to a person")
        return state, entries

    async def _commit(
        self,
        table: Table,
        state: BaseModel,
        expected: int,
        entries: list[LogEntry],
        interaction_id: int | None,
    ) -> list[int]:
        """Write the new state; the table object is only changed once the write succeeded.

        Returns the seats that owe a decision now and did not owe this one before (a new
        phase, or their own choice was undone): they get their private view. Judged by each
        seat's decision stamp, so a seat that goes on from one sealed choice to the next (a
        parley, then a vote) is told again, and one whose pending choice is untouched is not.
        """
        engine = self.spec(table).engine
        before = self._stamps(table, table.version, self.state_of(table)) if table.state is not None else {}
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
        due = self._deadline(draft, state)
        await self.store.save(
            draft, expected, log=entries, interaction_id=interaction_id, deadline=due, results=results,
        )
        self.deadline_written(due)
        if draft.status == "finished":
            self._just_finished.add(table.id or 0)
        for name in Table.model_fields:
            setattr(table, name, getattr(draft, name))
        if draft.status != "active":
            return []
        now = self._stamps(table, draft.version, state)
        return [s for s, stamp in now.items() if before.get(s) != stamp]

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
            entries: list[LogEntry] = []
            late = [s for s in engine.to_act(state) if not table.seats[s].ai]
            for seat in late:
                if seat not in engine.to_act(state):
                    continue
                state, events = engine.on_timeout(state, seat)
                entries.append(
                    self._entry(table, version + 1 + len(entries), seat, {"timeout": True}, events)
                )
            state, more = self._run_bots(table, state, version + 1 + len(entries))
            entries += more
            names = ", ".join(table.seats[s].name for s in late)
            fresh = await self._commit(table, state, version, entries, None)
            await self.post_table(
                table, notice=f"⏰ Time ran out for {names}; the default was played.", notify=fresh
            )

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
            table.seats[seat].ai = True
            table.seats[seat].name = f"{table.seats[seat].name} (bot)"
            state, entries = self._run_bots(table, self.state_of(table), expected + 1)
            table.recent.append(f"{interaction.user.display_name} left; a bot plays their seat.")
            fresh = await self._commit(table, state, expected, entries, interaction.id)
            await reply(interaction, content="You left the game; a bot plays your seat from here.", ephemeral=True)
            await self.post_table(
                table, notice=f"{interaction.user.display_name} left the table.", notify=fresh
            )

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
            await self.post_table(
                table, notice=f"{interaction.user.display_name} ended the game early."
            )

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

    async def show_rules(self, interaction: discord.Interaction, spec: GameSpec | None = None) -> None:
        """The rules with the rulings and options in force: those of this channel's game (the
        live one, else the last), or, asked about another game, that game's defaults."""
        table = await self.store.latest_in_channel(interaction.channel_id or 0)
        here = table is not None and table.game in self.specs
        if spec is None:
            if not here:
                raise Refusal("No game has been played in this channel yet. Start one with `/<game> new`.")
            spec = self.specs[table.game]  # type: ignore[union-attr]
        engine = spec.engine
        if here and table.game == engine.key:  # type: ignore[union-attr]
            options, title = engine.Options.model_validate(table.options), f"{engine.title}: rules in force here"  # type: ignore[union-attr]
        else:
            options, title = engine.Options(), f"{engine.title}: rules (default options)"
        embed = discord.Embed(title=title, description=render.clip(spec.rules_text(options), 4096),
                              colour=spec.colour)
        await reply(interaction, embed=embed, ephemeral=True)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.load(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.status != "active":
            raise Refusal("You have no hand at this table.")
        await reply(interaction, ephemeral=True, **self._message(table, for_user=interaction.user.id))

    async def deliver_private_views(self, table: Table, seats: Sequence[int]) -> None:
        """Send each newly acting person their private view; note who must use My hand instead."""
        spec = self.spec(table)
        if table.status != "active" or not spec.engine.has_private_view():
            return
        if spec.engine.open_actions(self.state_of(table)):
            return  # they choose on the table itself, which has just mentioned them
        changed = False
        for seat in seats:
            info = table.seats[seat]
            if info.ai or info.user_id is None:
                continue
            delivered = await send_private(self.bot, info.user_id, **self._message(table, for_user=info.user_id))
            if info.dm_closed == delivered:
                info.dm_closed = not delivered
                changed = True
        if changed:
            await self.store.save(table, table.version)
            await self._refresh_table(table)

    # -- rendering and responding --------------------------------------------------------------

    def _message(self, table: Table, *, for_user: int | None = None, notice: str | None = None
                 ) -> dict[str, Any]:
        return render.table_message(self, table, for_user=for_user, notice=notice)

    async def _respond_with_table(
        self, interaction: discord.Interaction, table: Table, *, notice: str | None = None,
        notify: Sequence[int] = (),
    ) -> None:
        """Answer a click with the new table: edit it while recent, else post it afresh."""
        message = interaction.message
        if message is None:  # a command (/game leave in a lobby), not a click on the table
            await reply(interaction, content=notice or "Done.", ephemeral=True)
            await self._refresh_table(table)
            await self._after_show(table, notify)
            return
        on_table = message.id == table.message_id
        private = message.flags.ephemeral or interaction.guild_id is None
        if private:
            await update(interaction, 
                **self._message(table, for_user=interaction.user.id, notice=notice)
            )
            # the clicker's own private view was just redrawn in place: no second copy for them
            mine = table.seat_of(interaction.user.id)
            notify = [s for s in notify if s != mine]
            await self._refresh_table(table)
        elif on_table and self._is_recent(table):
            await update(interaction, **self._message(table, notice=notice))
        else:
            await update(interaction, view=None)
            await self.post_table(table, notice=notice, replace=False, notify=notify)
            return  # post_table has done what follows a shown table
        await self._after_show(table, notify)

    async def _refresh_table(self, table: Table) -> None:
        if table.message_id is None or not self._is_recent(table):
            await self.post_table(table)
            return
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.get_partial_message(table.message_id).edit(**self._message(table))
        except discord.NotFound:
            await self.post_table(table, replace=False)

    async def post_table(
        self, table: Table, *, notice: str | None = None, replace: bool = True,
        notify: Sequence[int] = (),
    ) -> None:
        """Post the table as a new message and strip the buttons from the old one."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.message_id
        message = await channel.send(**self._message(table, notice=notice))
        await self._set_message(table, message.id)
        if replace and old is not None and old != message.id:
            try:
                await channel.get_partial_message(old).edit(view=None)
            except discord.HTTPException:
                log.info("could not strip the old table message %s of game %s", old, table.id)
        await self._after_show(table, notify)

    async def _after_show(self, table: Table, notify: Sequence[int]) -> None:
        """Once a new table is out: hands to those who must now choose, and after the final
        standings, the game's own last words (a ledger, say)."""
        await self.deliver_private_views(table, notify)
        if table.id in self._just_finished:
            self._just_finished.discard(table.id)
            spec = self.spec(table)
            channel = self.bot.get_partial_messageable(table.channel_id)
            for message in spec.finish_messages(table, spec.engine.view(self.state_of(table), None)):
                await channel.send(**message)

    async def _set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        self._since_table[table.channel_id] = 0
        try:
            await self.store.save(table, table.version)
        except VersionConflict:
            log.info("game %s moved on before its message id was stored", table.id)

