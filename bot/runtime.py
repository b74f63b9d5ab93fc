"""The table runtime: every click, command and timer as one straight line.

    lock the game -> load it once -> step (bot/step.py: the engine's one legality check, bot
    moves, everything derived once) -> one save -> present (bot/present.py: a plan, no I/O)
    -> deliver (bot/deliver.py: answer, DMs, channel; then the book)

Nothing about a game lives only in this process between clicks, so a restart loses nothing.
What the last step read of a live game is kept, beside the text it was stored as: the next click
on it, finding the store still holds that very text, starts from it rather than parsing the
table and asking the engine everything again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import metrics, present, step
from bot.deliver import Again, Deliverer, legacy_message, redrawn, text_kwargs
from bot.errors import GATE, Refusal
from bot.games import GameSpec, Page
from bot.lobby import Lobby, allowed_here, lobby_waits_on
from bot.models import Book, Table
from bot.present import NOBODY, Origin
from bot.recent import Recent
from bot.render import and_list, jump_link, managers_only, runner, safe
from bot.replies import announce, in_line, in_time, reply, update
from bot.seats import find_seat
from bot.servers import Servers
from bot.step import Moment, Stale, StepResult
from bot.store import Store

log = logging.getLogger(__name__)

#: seconds a click may wait for its game's lock before it is deferred (Discord allows three)
QUEUE_PATIENCE = 1.0
#: lines of the latest moves Details shows
RECENT_EVENTS = 6
#: moves /game log reads, at most: more than its 25 pages can show of any game
LOG_ENTRIES = 2000
#: seconds after Discord's servers refused a table (a 5xx) that it is posted again, if no move
#: or press has done so meanwhile: a 503 is mostly over in moments, and the post pings whoever
#: must act, which the old table, redrawn by an edit, could not
CATCH_UP_AFTER = (3.0, 15.0, 60.0)
#: live games whose last moment stays in memory (20 to 180 kB each, views and legal actions
#: included: bench/kept_moments.py); games clicked less lately are parsed from the store again
MOMENTS_KEPT = 256
#: seconds between two nudges of one table (/game nudge)
NUDGE_GAP = 300.0


@dataclass
class _Tries:
    """The bot's own tries to post a table that Discord's servers refused."""

    #: whose step it was: told should a try be refused for a new reason, or the last one fail
    asker: discord.Interaction | None
    #: tries still to come after the one under way
    left: int
    task: asyncio.Task[None] | None = None
    #: a try is under way: a refusal for this move and asker is its own
    trying: bool = False
    #: Discord's servers refused the try under way (waiting may mend it: the next try follows)
    refused: bool = False


def behind(table: Table, book: Book) -> bool:
    """A game its channel shows an older move of, or a lobby that was never posted (a lobby's
    own book is not rewritten when someone joins: its buttons carry no move), or whose table
    Discord would not post (the old one, redrawn, shows the game, but pinged nobody)."""
    if table.status == "lobby":
        return book.message_id is None
    return book.shown < table.version or book.repost


def stale_text(table: Table, book: Book, user_id: int, pressed: int | None, private: bool) -> str:
    """The answer to a click from a past moment. Its link is masked (a bare jump URL wraps over
    several lines of a phone's screen), and there is none when the pressed message is itself
    where the game is now: a double click's second press finds the table already redrawn."""
    copy = book.dm_copies.get(user_id)
    if private and copy is not None:
        if pressed == copy[1]:
            return "That moment has passed: your choice shows the game as it is now."
        return f"That moment has passed; here is [your current choice](https://discord.com/channels/@me/{copy[0]}/{copy[1]})."
    if pressed is not None and pressed == book.message_id:
        return "That moment has passed: the table shows the game as it is now."
    if not book.message_id:
        return "That moment has passed."
    what = "the live table" if table.live else "the table"
    return f"That moment has passed; here is [{what}]({jump_link(table, book.message_id)})."


#: what a player's DM copy says when a press found it showing an older moment, and it was redrawn
REDRAWN = "That moment has passed: this copy now shows the game as it stands."


def dead_copy(interaction: discord.Interaction, book: Book, *, over: bool = False) -> bool:
    """A DM copy pressed that should show no controls: an older one (Discord failed the edit
    that was to retire it), or any once the game is over. It loses them as it answers, where
    a private refusal would leave buttons that can never act. A copy My hand gave cannot be
    told from the current one here, and is retired by its own token while that lives."""
    message = interaction.message
    if interaction.guild_id is not None or message is None or message.flags.ephemeral:
        return False
    copy = book.dm_copies.get(interaction.user.id)
    return over or copy is None or copy[1] != message.id


class TableRuntime(Lobby):
    def __init__(self, bot: discord.Client, store: Store, default_timer: int | None, *,
                 game_seed: int | None = None) -> None:
        self.bot = bot
        self.store = store
        self.default_timer = default_timer
        self.game_seed = game_seed
        self.specs: dict[str, GameSpec[Any, Any, Any]] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.deliverer = Deliverer(bot, store, fell_behind=self.fell_behind)
        self.servers = Servers(store)
        self.deadline_changed = asyncio.Event()
        #: when the deadline task wakes next anyway; only an earlier deadline needs to wake it
        self.next_wake = 0.0
        #: (game, move number) whose table Discord's servers refused, each posted again soon
        self._catching_up: dict[tuple[int, int], _Tries] = {}
        #: each live game's last moment written, with the text the store holds of it: read again
        #: only while the store still holds that text. Nothing changes a moment's table or state
        #: in place (a step drafts a copy), so what was read of it stays true.
        self._kept: Recent[int, tuple[str, Moment]] = Recent(MOMENTS_KEPT)

    def deadline_written(self, due: float | None) -> None:
        if due is not None and due < self.next_wake:
            self.deadline_changed.set()

    def register(self, spec: GameSpec[Any, Any, Any]) -> None:
        self.specs[spec.engine.key] = spec

    def note_newest(self, channel_id: int, message_id: int) -> None:
        self.deliverer.note_newest(channel_id, message_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            # the store's lock: in-process on SQLite, also held in the database when processes
            # share it (no store: a runtime built for a unit test)
            lock = self._locks[game_id] = self.store.game_lock(game_id) if self.store else asyncio.Lock()
        return lock

    def turn(self, interaction: discord.Interaction, game_id: int) -> _Turn:
        """The game's lock, for one interaction. Whoever holds it may be sending DMs or waiting
        out a rate limit, so an interaction that has queued for a while is deferred: waiting in
        line never runs past Discord's three seconds, and a short wait changes nothing."""
        return _Turn(interaction, self.lock(game_id))

    def spec(self, table: Table) -> GameSpec[Any, Any, Any]:
        return self.specs[table.game]

    # -- loading -------------------------------------------------------------------------------

    async def load(self, game_id: int, interaction: discord.Interaction | None = None) -> tuple[Moment, Book]:
        """The game and its book. With ``interaction``, only where the game is: a click whose id
        names a game of another channel (a forged id) acts on nothing, and permissions are
        always those of the game's own channel."""
        if not 0 < game_id < 2**63:  # a forged id: no game, and no database integer either
            raise Refusal("That game no longer exists.")
        text = await self.store.table_json(game_id)
        kept = self._kept.get(game_id)
        if kept is not None and kept[0] == text:
            moment: Moment | None = kept[1]
            table: Table | None = kept[1].table
        else:
            moment, table = None, Table.model_validate_json(text) if text is not None else None
        if table is None or table.game not in self.specs:
            raise Refusal("That game no longer exists.")
        if interaction is not None and not (
                interaction.channel_id == table.channel_id
                or (interaction.guild_id is None and table.seat_of(interaction.user.id) is not None)):
            raise Refusal("That button belongs to a game somewhere else.")
        book = await self.store.book(game_id)
        server = await self.servers.of(table.guild_id)
        if moment is None:
            shown = book.chapter if book.shown == table.version and book.chapter else None
            moment = Moment(self.specs[table.game], table, chapter=shown)
        moment.pictures = server.pictures  # the server's settings may have changed since it was kept
        return moment, book

    def keep(self, text: str, moment: Moment) -> None:
        """``moment`` is the game the store now holds as ``text``: the next load starts from it."""
        table = moment.table
        if table.live:
            self._kept[table.id or 0] = (text, moment)
        else:
            self._kept.pop(table.id or 0, None)

    async def offered(self, interaction: discord.Interaction) -> tuple[list[GameSpec[Any, Any, Any]], str | None]:
        """The games this server offers, by title; and, where tables open only in some
        channels and this is none of them, where they do open."""
        specs = sorted(self.specs.values(), key=lambda spec: spec.engine.title)
        if interaction.guild_id is None:
            return specs, None
        server = await self.servers.of(interaction.guild_id)
        if server.games is not None:
            specs = [spec for spec in specs if spec.engine.key in server.games]
        if server.channels is not None and not allowed_here(interaction.channel, server.channels):
            return specs, "Tables open only in " + (", ".join(f"<#{c}>" for c in server.channels[:10]) or
                                                    "no channel") + " here."
        return specs, None

    async def start_hint(self, interaction: discord.Interaction) -> str:
        """The commands that open a table here, named as a player types them (the player asking
        where a game is has none in front of them to copy from): only the games this server
        offers, and, where tables open only in some channels, those channels instead."""
        specs, elsewhere = await self.offered(interaction)
        if elsewhere is not None:
            return elsewhere
        commands = ", ".join(f"`/{command} new`" for command in sorted(spec.command for spec in specs))
        return f"Start one with {commands}." if commands else "No game is offered here."

    async def live_table(self, interaction: discord.Interaction) -> Table:
        table = await self.store.live_in_channel(interaction.channel_id or 0)
        if table is None or table.game not in self.specs:
            raise Refusal(f"There is no game in this channel. {await self.start_hint(interaction)}")
        return table

    async def latest_table(self, interaction: discord.Interaction) -> Table:
        """For questions about the past: the live game, else the channel's last one."""
        table = await self.store.latest_in_channel(interaction.channel_id or 0)
        if table is None or table.game not in self.specs:
            raise Refusal(f"No game has been played in this channel yet. {await self.start_hint(interaction)}")
        return table

    # -- a table left behind ------------------------------------------------------------------

    async def catch_up(self, game_id: int, *, notify: bool, at: int | None = None,
                       asker: discord.Interaction | None = None) -> bool:
        """Post the table of a game its channel shows an older move of (the old one loses its
        buttons), pinging whoever must act; ``notify``: their private views go out again too;
        ``at``: only while the game is still at that move; ``asker``: told should it not post.
        Whether it was tried. Under the game's lock, so a step still being shown is waited
        for, and not shown twice."""
        async with self.lock(game_id):
            now, book = await self.load(game_id)
            if not behind(now.table, book) or at not in (None, now.table.version):
                return False
            plan = present.again(now, book, notify=now.humans if notify else ())
            await self.deliverer.run(plan, now.table, book, asker)
            return True

    def fell_behind(self, game_id: int, version: int, asker: discord.Interaction | None) -> Again:
        """Discord's servers refused the table of this move: it is posted again in a few seconds,
        then later, unless a move or a press on the table has posted it by then. Those are the
        only ways back otherwise, and the player who must act next may not be looking. Should
        a try be refused too (a permission taken meanwhile, say), ``asker``, whose step it was,
        hears why: their interaction lives 15 minutes, the tries take about one. What follows,
        for the deliverer to tell: a try refused by the servers again has been told of already,
        unless it was the last."""
        key = (game_id, version)
        tries = self._catching_up.get(key)
        if tries is not None and tries.trying and asker is tries.asker:  # a try below, refused once more
            tries.refused = True
            return "trying" if tries.left else "over"
        if tries is not None:
            return "soon"  # another press of the same move: the tries below post it
        if not GATE.open:
            return "over"  # stopping: the next process posts it as it starts
        tries = self._catching_up[key] = _Tries(asker, left=len(CATCH_UP_AFTER))
        tries.task = asyncio.create_task(self._catch_up_soon(game_id, version, tries), name=f"catch up game {game_id}")
        tries.task.add_done_callback(lambda _: self._catching_up.pop(key, None))
        return "soon"

    async def _catch_up_soon(self, game_id: int, version: int, tries: _Tries) -> None:
        for wait in CATCH_UP_AFTER:
            await asyncio.sleep(wait)
            if not GATE.open:
                return  # stopping: the next process posts what is behind as it starts
            tries.left -= 1
            tries.trying, tries.refused = True, False
            try:
                async with GATE.step():
                    if not await self.catch_up(game_id, notify=False, at=version, asker=tries.asker):
                        return  # shown by now, or moved on (the move that did posts it, or tries itself)
            except discord.HTTPException as exc:  # its channel deleted, say: the next move or start tries again
                log.warning("game %s: could not post its table again (%s %s)", game_id, exc.status, exc.code)
                return
            except Exception:
                log.exception("could not post again the table of game %s", game_id)
                return
            finally:
                tries.trying = False
            if not tries.refused:
                # posted; or refused for a reason that waiting does not mend (a permission taken),
                # which the player has heard, with what brings the table back
                return

    # -- the one path of a step ------------------------------------------------------------------

    async def carry(self, interaction: discord.Interaction | None, result: StepResult, book: Book,
                    origin: Origin, *, said: str | None = None) -> None:
        """Save the step once, then show it: the second half of every step's straight line.
        ``said``: the interaction's private answer, given once the step is stored; the step
        itself is then shown as if nobody asked (someone left: the table says so), though the
        one who asked still hears should the table not post."""
        table = result.table
        # an untimed game had no deadline row to remove: its saves leave that table alone
        timed = table.deadline is not None or result.before.table.deadline is not None
        self.keep(await in_time(interaction, self.store.save(
            table, result.before.table.version, log=result.entries,
            interaction_id=interaction.id if interaction is not None else None,
            deadline=table.deadline if timed else "keep", results=result.results)), result.after)
        self.deadline_written(table.deadline)
        if said is not None and interaction is not None:
            await reply(interaction, content=said, ephemeral=True)
            origin = NOBODY
        # a click or command in the table's channel named its newest message; a timer or a DM did
        # not, which matters only where the table may be edited in place
        heard = interaction is not None and interaction.channel_id == table.channel_id
        channel = await self.deliverer.channel(table, book, heard=heard or present.posts_anew(result, book))
        await self.deliverer.run(present.present(result, channel, origin), table, book, interaction,
                                 replan=lambda now: present.present(result, now, origin, answered=True))

    @staticmethod
    def origin(interaction: discord.Interaction, table: Table) -> Origin:
        message = interaction.message
        private = message is not None and (message.flags.ephemeral or interaction.guild_id is None)
        return Origin(message_id=message.id if message is not None else None, private=private,
                      seat=table.seat_of(interaction.user.id))

    # -- playing -------------------------------------------------------------------------------

    async def act(self, interaction: discord.Interaction, game_id: int, drawn_for: int | None, stamp: str,
                  choices: Sequence[int]) -> None:
        """A click on a seat's own controls."""
        await self._click(interaction, game_id, lambda now, seat: step.read_click(now, seat, drawn_for, stamp, choices))

    async def act_in_open(self, interaction: discord.Interaction, game_id: int, stamp: str, index: int) -> None:
        """A click on a choice the table offers to everyone who owes one (Engine.open_actions)."""
        await self._click(interaction, game_id, lambda now, seat: step.read_open_click(now, seat, stamp, index))

    async def _click(self, interaction: discord.Interaction, game_id: int,
                     read: Callable[[Moment, int | None], tuple[int, Any]]) -> None:
        """The straight line of a move: lock, load, read the click, step, save, present, deliver."""
        async with self.turn(interaction, game_id):
            now, book = await self.load(game_id, interaction)
            if not now.table.live and dead_copy(interaction, book, over=True):
                await update(interaction, **text_kwargs(present.game_over(now.table), legacy=legacy_message(interaction.message)))
                return
            try:
                seat, action = read(now, now.table.seat_of(interaction.user.id))
            except Stale:
                # told it did not count, it must not count should Discord deliver it again
                await in_time(interaction, self.store.hold_interaction(interaction.id, game_id))
                await self._stale(interaction, now, book)
                return
            result = step.play(now, seat, action, time.time())
            await self.carry(interaction, result, book, self.origin(interaction, now.table))

    async def expire(self, game_id: int, version: int) -> None:
        """A deadline passed: play the rulings' default for everyone still owing a decision."""
        async with self.lock(game_id):
            now, book = await self.load(game_id)
            table = now.table
            if table.status != "active" or table.version != version or table.paused:
                return
            fired = time.time()
            if table.deadline is not None:
                metrics.DEADLINE_LATENESS.observe(max(0.0, fired - table.deadline))
            metrics.DEADLINES_FIRED.inc()
            await self.carry(None, step.expire(now, fired), book, NOBODY)

    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.live_table(interaction)
        if table.status == "lobby":
            await self.lobby(interaction, table.id or 0, "leave")
            return
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            seat = now.table.seat_of(interaction.user.id)
            if now.table.status != "active" or seat is None:
                raise Refusal("You do not have a seat in the game here.")
            when = ""  # a paused game: the bot moves once it is resumed
            if now.table.paused:
                when = " once you resume the game" if interaction.user.id == now.table.host_id \
                    else f" once {runner(now.table)} resumes it"
            result = step.leave(now, seat, interaction.user.display_name, time.time())
            await self.carry(interaction, result, book, NOBODY,
                             said=f"You left the game; a bot plays your seat from here{when}. "
                                  "`/game rejoin` takes it back.")

    async def hand_to_bot(self, interaction: discord.Interaction, typed: str) -> None:
        """/game unseat in play: the host or a GM hands an absent player's seat to a bot, so an
        untimed table does not wait on them for good. The seat stays theirs to take back."""
        table = await self.live_table(interaction)
        gm = await self.servers.gm(interaction)
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            if not self.may_manage(interaction, now.table, gm):
                raise Refusal(managers_only(now.table, "hand a seat to a bot"))
            if now.table.status != "active":
                raise Refusal("This game has already ended.")
            # a player who left is named as they were (find_seat knows only who plays a seat)
            named = typed.strip().casefold()
            seat = next((i for i, s in enumerate(now.table.seats) if s.left and named in (
                f"<@{s.user_id}>", f"<@!{s.user_id}>", s.name.removesuffix(step.LEFT).casefold())), None)
            if seat is None:
                seat = find_seat(now.table, typed)
            gone = now.table.seats[seat]
            if gone.ai and gone.user_id is None:
                raise Refusal(f"{safe(gone.name)} is the bot's own seat: seats are removed only in the lobby, "
                              "before the game starts.")
            if gone.ai:
                raise Refusal(f"A bot already plays {safe(gone.name)}.")
            who, name = safe(interaction.user.display_name), safe(gone.name)
            result = step.leave(now, seat, gone.name, time.time(),
                                notice=f"{who} handed {name}'s seat to a bot; `/game rejoin` gives it back to them.")
            await self.carry(interaction, result, book, NOBODY,
                             said=f"A bot plays {name}'s seat from here; they take it back with `/game rejoin`.")

    async def rejoin(self, interaction: discord.Interaction) -> None:
        """A player who left (or was handed to a bot) takes their seat back."""
        table = await self.live_table(interaction)
        if table.status == "lobby":
            raise Refusal("The game has not started yet: press **Join** on the lobby to take a seat.")
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            if now.table.seat_of(interaction.user.id) is not None:
                raise Refusal("You are playing your seat already.")
            seats = now.table.seats
            seat = next((i for i, s in enumerate(seats) if s.left and s.user_id == interaction.user.id), None)
            if now.table.status != "active" or seat is None:
                raise Refusal("You have no seat to take back here: `/game rejoin` returns a seat a bot plays "
                              "since its player left this game.")
            result = step.rejoin(now, seat, interaction.user.display_name, time.time())
            await self.carry(interaction, result, book, NOBODY,
                             said="Your seat is yours again: the table pings you when you are asked.")

    async def _stale(self, interaction: discord.Interaction, now: Moment, book: Book) -> None:
        """A click from a past moment: say so in one line and point to where the game is now.
        On a live table the process stopped before updating (a step stored, never shown), the
        table is posted again, up to date, pinging whoever must act."""
        metrics.note_outcome("stale")
        table, message = now.table, interaction.message
        private = interaction.guild_id is None or bool(message and message.flags.ephemeral)
        behind = (not private and message is not None and message.id == book.message_id
                  and now.playing and book.shown < table.version)
        if behind:
            await reply(interaction, ephemeral=True,
                        content="This table had fallen behind the game; here it is again, up to date.")
            plan = present.again(now, book, notify=now.humans)
            await self.deliverer.run(plan, table, book, interaction)
            return
        copy, seat = book.dm_copies.get(interaction.user.id), table.seat_of(interaction.user.id)
        if copy is not None and message is not None and copy[1] == message.id and seat is not None \
                and now.playing and (len(copy) < 4 or copy[3] < table.version):
            # the copy that answers, pressed, shows an older moment (Discord failed to redraw it,
            # or another's step changed what it holds): redrawn as the game stands, it acts again
            shown = present.private_message(now, seat, notice=REDRAWN)
            await update(interaction, **await self.deliverer.kwargs(shown, edit=True, legacy=legacy_message(message)))
            redrawn(book, interaction, table.version)
            await self.store.put_book(table.id or 0, book)
            return
        text = stale_text(table, book, interaction.user.id, message.id if message else None, private)
        if dead_copy(interaction, book):
            # what they hold stays (the second press of a double click that ended their turn
            # finds the copy already retired), under a line saying the press did not count
            kwargs = await self.deliverer.kwargs(present.private_message(now, seat, notice=text, asking=False),
                                                 edit=True, legacy=legacy_message(message)) \
                if seat is not None and now.playing else text_kwargs(text, legacy=legacy_message(message))
            await update(interaction, **kwargs)
            return
        await reply(interaction, content=text, ephemeral=True)

    # -- the table's settings ------------------------------------------------------------------

    async def _resettle(self, interaction: discord.Interaction, game_id: int, said: str | None,
                        check: Any, **changes: Any) -> None:
        """A host's change to how the table runs (its clock, a pause, the end): one save, the
        channel told, the table redrawn."""
        async with self.turn(interaction, game_id):
            now, book = await self.load(game_id, interaction)
            check(now.table)
            result = step.resettle(now, time.time(), **changes)
            table = result.table
            self.keep(await in_time(interaction, self.store.save(
                table, now.table.version, log=result.entries, interaction_id=interaction.id,
                deadline=table.deadline, results=result.results)), result.after)
            self.deadline_written(table.deadline)
            if said is None:  # the end: the confirmation is the answer, the notice goes on the table
                lobby = now.table.status == "lobby"
                await update(interaction, content="The lobby was closed." if lobby else "The game was ended.", view=None)
                notice = present.closed_lobby(interaction.user.display_name) if lobby else \
                    f"{safe(interaction.user.display_name)} ended the game early."
            else:
                await announce(interaction, said)
                notice = None
            if result.entries:  # resumed, the bot played seats it took while paused: a step like any
                plan = present.present(result, await self.deliverer.channel(table, book), NOBODY)
            else:
                plan = present.redraw(result.after, await self.deliverer.channel(table, book), notice=notice)
            await self.deliverer.run(plan, table, book, interaction)

    async def pause(self, interaction: discord.Interaction, paused: bool) -> None:
        """The host (a game-master, say) stops the clock and the moves, and starts them again."""
        table = await self.live_table(interaction)
        gm = await self.servers.gm(interaction)

        def check(now: Table) -> None:
            if now.status != "active":
                raise Refusal("Only a game in play can be paused.")
            if not self.may_manage(interaction, now, gm):
                raise Refusal(managers_only(now, "pause or resume the game"))
            if now.paused == paused:
                raise Refusal("The game is already paused." if paused else "The game is not paused.")

        who = safe(interaction.user.display_name)
        said = f"⏸ {who} paused the game." if paused else f"▶ {who} resumed the game."
        await self._resettle(interaction, table.id or 0, said, check, paused=paused)

    async def set_timer(self, interaction: discord.Interaction, seconds: int | None) -> None:
        table = await self.live_table(interaction)
        gm = await self.servers.gm(interaction)

        def check(now: Table) -> None:
            if not self.may_manage(interaction, now, gm):  # as for a pause: whoever may steer the table
                raise Refusal(managers_only(now, "change the turn timer"))

        said = f"{seconds} seconds per decision" if seconds else "off"
        await self._resettle(interaction, table.id or 0, f"Turn timer: {said}.", check, timer_seconds=seconds)

    async def end(self, interaction: discord.Interaction, game_id: int) -> None:
        gm = await self.servers.gm(interaction)

        def check(now: Table) -> None:
            if not now.live:
                raise Refusal("This game has already ended.")
            if not self.may_manage(interaction, now, gm):
                raise Refusal(managers_only(now, "end the game"))

        await self._resettle(interaction, game_id, None, check, status="cancelled")

    def may_manage(self, interaction: discord.Interaction, table: Table, gm: bool) -> bool:
        """The host, a GM of the server, or someone who may manage the channel anyway."""
        perms = getattr(interaction, "permissions", None)
        return interaction.user.id == table.host_id or gm or bool(perms and perms.manage_channels)

    async def show_table(self, interaction: discord.Interaction) -> None:
        """/game status: the live table again, as the newest message."""
        table = await self.live_table(interaction)
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            # said before it is tried (an answer waits for nothing), so worded as what happens next:
            # should the table not post, its asker hears which permission is missing
            await reply(interaction, content="The table comes below, as the newest message.", ephemeral=True)
            await self.deliverer.run(present.again(now, book, ping=False), now.table, book, interaction)

    async def nudge(self, interaction: discord.Interaction) -> None:
        """/game nudge: whoever the table waits for is pinged again, with the table as the newest
        message: a player in a game, the host of a lobby that is ready to start. An untimed table
        waits on an absent player for good, and the ping they were given when asked is long
        buried; a nudge at most every few minutes, asked by someone at the table or who runs it,
        cannot be turned into a stranger's ping machine."""
        table = await self.live_table(interaction)
        gm = await self.servers.gm(interaction)
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            table, mine = now.table, now.table.seat_of(interaction.user.id)
            if mine is None and not self.may_manage(interaction, table, gm):
                raise Refusal(f"Only the players, {runner(table)}, a GM of this server or someone "
                              "with Manage Channel can nudge.")
            if not table.live:
                raise Refusal("This game has already ended.")
            if table.status == "lobby":
                waited, named = [lobby_waits_on(now, interaction.user.id)], runner(table)
                why = f"{len(table.seats)} players are seated: press **Start** when you are ready."
            else:
                if table.paused:
                    raise Refusal(f"The game is paused: nobody can move until {runner(table)} resumes it.")
                seats = [s for s in now.humans if s != mine]
                if not seats:
                    raise Refusal("The table waits for you." if mine in now.humans
                                  else "The table waits for nobody right now.")
                waited = [table.seats[s].user_id or 0 for s in seats]
                why = "the table waits for you."
                named = and_list([safe(table.seats[s].name) for s in seats])
            at = time.time()
            if at < book.nudged + NUDGE_GAP:
                raise Refusal(f"The table was nudged <t:{int(book.nudged)}:R>; another nudge can come "
                              f"<t:{int(book.nudged + NUDGE_GAP)}:R>.")
            book.nudged = at
            shown = "lobby" if table.status == "lobby" else "table"
            await reply(interaction, content=f"Nudged {named}: the {shown} comes below, as the newest message.",
                        ephemeral=True)
            nudge = f"👋 {safe(interaction.user.display_name)} nudges {and_list([f'<@{u}>' for u in waited])}: {why}"
            await self.deliverer.run(present.again(now, book, nudge=nudge, nudged=waited), table, book, interaction)

    # -- private answers -------------------------------------------------------------------------

    def _rules_pages(self, spec: GameSpec[Any, Any, Any], table: Table | None) -> tuple[list[Page], str]:
        """The rules with the options in force at ``table``, else the game's defaults; and what a
        page menu must name to find them again."""
        engine = spec.engine
        if table is not None and table.game == engine.key:
            options, title, book = engine.Options.model_validate(table.options), "rules in force here", "rules"
        else:
            options, title, book = engine.Options(), "rules (default options)", engine.key
        pages = spec.rules_pages(options)
        first = pages[0]
        pages[0] = Page(f"{engine.title}: {title}" if first.title == "How to play" else first.title,
                        first.parts, first.picture)
        return pages, book

    async def show_rules(self, interaction: discord.Interaction, spec: GameSpec[Any, Any, Any] | None = None) -> None:
        """The rules with the rulings and options in force: those of this channel's game (the
        live one, else the last), or, asked about another game, that game's defaults."""
        table = await self.store.latest_in_channel(interaction.channel_id or 0)
        here = table if table is not None and table.game in self.specs else None
        if spec is None:
            if here is None:
                raise Refusal(f"No game has been played in this channel yet. {await self.start_hint(interaction)}")
            spec = self.specs[here.game]
        pages, book = self._rules_pages(spec, here)
        moment = Moment(spec, here) if here is not None and here.game == spec.engine.key else None
        await self._private_pages(interaction, spec, moment, book, pages, 0, (here.id or 0) if moment and here else 0)

    async def how_to_play(self, interaction: discord.Interaction, game_id: int) -> None:
        now, _ = await self.load(game_id, interaction)
        pages, book = self._rules_pages(now.spec, now.table)
        await self._private_pages(interaction, now.spec, now, book, pages, 0, game_id)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        async with self.turn(interaction, game_id):
            now, book = await self.load(game_id, interaction)
            seat = now.table.seat_of(interaction.user.id)
            if seat is None or now.table.status != "active":
                raise Refusal("You have no hand at this table.")
            await self.deliverer.hand(interaction, now.table, book, present.private_message(now, seat))

    async def _details(self, now: Moment, user_id: int) -> list[Page]:
        if now.state is None:
            raise Refusal("The game has not started yet.")
        seat = now.table.seat_of(user_id)
        moves = await self.store.recent_log(now.table.id or 0, limit=RECENT_EVENTS)
        recent = [text for entry in moves for text in entry.texts][-RECENT_EVENTS:]
        return present.details_pages(now, seat, recent)

    async def show_details(self, interaction: discord.Interaction, game_id: int) -> None:
        """Details: the full sheet and fine print, privately, a page at a time; a seat sees its
        own secrets too."""
        now, _ = await self.load(game_id, interaction)
        await self._private_pages(interaction, now.spec, now, "details", await self._details(now, interaction.user.id),
                                  0, game_id)

    async def turn_page(self, interaction: discord.Interaction, game_id: int, book: str, page: int) -> None:
        """Another page of Details or of the rules, in place of the one shown."""
        if book == "details":
            now, _ = await self.load(game_id, interaction)
            pages = await self._details(now, interaction.user.id)
            spec, moment = now.spec, now
        elif book == "log":
            spec, moment, pages = await self._log(game_id)
        elif book == "rules":
            now, _ = await self.load(game_id, interaction)
            pages, book = self._rules_pages(now.spec, now.table)
            spec, moment = now.spec, now
        elif book in self.specs:
            spec, moment = self.specs[book], None
            pages, book = self._rules_pages(spec, None)
        else:
            raise Refusal("That menu is out of date: ask again.")
        shown = present.pages_message(moment or _about(spec, game_id), book, pages, page)
        await update(interaction, **await self.deliverer.kwargs(shown, edit=True))

    async def _log(self, game_id: int) -> tuple[GameSpec[Any, Any, Any], Moment, list[Page]]:
        """The game's moves a page at a time, the latest moves first."""
        table = await self.store.get(game_id)
        if table is None or table.game not in self.specs:
            raise Refusal("That game is no longer kept.")
        spec = self.specs[table.game]
        entries = await self.store.recent_log(game_id, limit=LOG_ENTRIES + 1)
        pages = present.log_pages(entries[-LOG_ENTRIES:], game_id, earlier=len(entries) > LOG_ENTRIES)
        return spec, _about(spec, game_id), pages

    async def show_log(self, interaction: discord.Interaction) -> None:
        """/game log: the channel's game (the live one, else the last), opened on its newest moves."""
        table = await self.latest_table(interaction)
        spec, moment, pages = await self._log(table.id or 0)
        await self._private_pages(interaction, spec, moment, "log", pages, 0, table.id or 0)

    async def _private_pages(self, interaction: discord.Interaction, spec: GameSpec[Any, Any, Any],
                             moment: Moment | None, book: str, pages: list[Page], page: int, game_id: int) -> None:
        shown = present.pages_message(moment or _about(spec, game_id), book, pages, page)
        await reply(interaction, ephemeral=True, **await self.deliverer.kwargs(shown, edit=False))


class _Turn:
    """``async with``: TableRuntime.turn (a class, not a generator: every click enters one)."""

    __slots__ = ("interaction", "lock")

    def __init__(self, interaction: discord.Interaction, lock: asyncio.Lock) -> None:
        self.interaction, self.lock = interaction, lock

    async def __aenter__(self) -> None:
        if type(self.lock) is asyncio.Lock and not self.lock.locked():
            await self.lock.acquire()  # free and in this process only: taken at once, nothing to wait for
        else:
            await in_line(self.interaction, self.lock, QUEUE_PATIENCE)

    async def __aexit__(self, *exc: object) -> None:
        self.lock.release()


def _about(spec: GameSpec[Any, Any, Any], game_id: int) -> Moment:
    """A game's pages with no table of its own here (the rules of another game)."""
    table = Table(id=game_id, guild_id=0, channel_id=0, game=spec.engine.key, host_id=0, seed=0)
    return Moment(spec, table)
