"""Tables before they start: opening a lobby, its seats, the host's changes, the start, rematches.

The runtime (bot/runtime.py) is a Lobby: it brings the store, the deliverer, the game's lock and
``carry``, the second half of a step's straight line, which the start of a game shares with every
other move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Literal

import discord
from pydantic import BaseModel

from bot import present, step
from bot.deliver import Deliverer, legacy_message
from bot.errors import Refusal
from bot.games import GameSpec
from bot.models import Book, Seat, Table
from bot.permissions import host_advice
from bot.present import Origin
from bot.render import and_list, jump_link, runner, safe
from bot.servers import Servers
from bot.replies import in_time, reply, update
from bot.step import Moment, StepResult
from bot.store import ChannelBusy, Store

log = logging.getLogger(__name__)

#: how long a command that finds its channel busy waits for that game's message to be recorded
BUSY_WAIT = 1.0


class Lobby:
    # what the runtime brings
    store: Store
    deliverer: Deliverer
    servers: Servers
    specs: dict[str, GameSpec[Any, Any, Any]]
    game_seed: int | None
    default_timer: int | None

    def spec(self, table: Table) -> GameSpec[Any, Any, Any]: raise NotImplementedError
    def lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[object]: raise NotImplementedError
    def turn(self, interaction: discord.Interaction, game_id: int) -> contextlib.AbstractAsyncContextManager[None]: raise NotImplementedError
    async def load(self, game_id: int, interaction: discord.Interaction | None = None) -> tuple[Moment, Book]: raise NotImplementedError
    def keep(self, text: str, moment: Moment) -> None: raise NotImplementedError
    async def live_table(self, interaction: discord.Interaction) -> Table: raise NotImplementedError
    @staticmethod
    def origin(interaction: discord.Interaction, table: Table) -> Origin: raise NotImplementedError
    async def carry(self, interaction: discord.Interaction | None, result: StepResult, book: Book,
                    origin: Origin, *, said: str | None = None) -> None: raise NotImplementedError

    async def open_lobby(
        self, interaction: discord.Interaction, spec: GameSpec, options: BaseModel, *,
        seats: list[Seat] | None = None, timer_seconds: int | None | Literal["default"] = "default",
        host_plays: bool = True, host_id: int | None = None, notice: str | None = None,
        returning: dict[int, int] | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("Games are played in a server channel, not in DMs.")
        server = await self.servers.of(interaction.guild_id)
        if server.games is not None and spec.engine.key not in server.games:
            raise Refusal(f"This server does not offer {spec.engine.title} (its **games** setting; "
                          "someone with Manage Server changes it with `/boneyard settings`).")
        if server.channels is not None and not allowed_here(interaction.channel, server.channels):
            where = ", ".join(f"<#{c}>" for c in server.channels[:10]) or "no channel"
            raise Refusal(f"Tables open only in {where} here (the server's **channels** setting; someone "
                          "with Manage Server changes it with `/boneyard settings`).")
        if timer_seconds == "default" and server.default_timer is not None:
            timer_seconds = server.default_timer or None
        busy = await self.store.live_in_channel(interaction.channel_id)
        if busy is not None:
            raise Refusal(await self._busy_text(busy))
        table = Table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=spec.engine.key,
            host_id=host_id if host_id is not None else interaction.user.id,
            host_plays=host_plays,
            seats=seats if seats is not None else (
                [Seat(user_id=interaction.user.id, name=interaction.user.display_name)] if host_plays else []
            ),
            returning=returning or {},
            options=options.model_dump(),
            seed=self.game_seed if self.game_seed is not None else random.SystemRandom().getrandbits(63),
            timer_seconds=self.default_timer if timer_seconds == "default" else timer_seconds,
        )
        try:
            table = await in_time(interaction, self.store.create(table))
        except ChannelBusy:
            busy = await self.store.live_in_channel(interaction.channel_id)
            raise Refusal(await self._busy_text(busy)) from None
        async with self.lock(table.id or 0):
            book = Book(shown=table.version)
            shown = present.table_message(Moment(spec, table, pictures=server.pictures), book, notice=notice)
            if interaction.type == discord.InteractionType.application_command and interaction.response.is_done():
                # deferred while the store was slow, its answer is private: the lobby comes below it
                await interaction.followup.send("Your table is open below.", ephemeral=True)
            message = await reply(interaction, **await self.deliverer.kwargs(shown, edit=False))
            if message is None:
                message = await interaction.original_response()
            book.message_id, book.layout = message.id, True
            self.deliverer.posted(table.channel_id, message.id)
            await self.store.put_book(table.id or 0, book)
        advice = host_advice(interaction)
        if advice is not None:  # the lobby is out either way: the game may go on in its message
            try:
                await interaction.followup.send(advice, ephemeral=True)
            except discord.HTTPException:
                log.info("could not tell the host of game %s what the channel lacks", table.id)

    async def _busy_text(self, table: Table | None) -> str:
        if table is None:
            return "This channel already has a game."
        title = self.specs[table.game].engine.title if table.game in self.specs else table.game
        message_id = (await self.store.book(table.id or 0)).message_id
        if not message_id:
            # a lobby opened a moment ago is still being posted, under its game's lock until its
            # message is recorded: a short wait gives the asker a link rather than nothing
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(BUSY_WAIT):
                    async with self.lock(table.id or 0):
                        message_id = (await self.store.book(table.id or 0)).message_id
        lobby = table.status == "lobby"
        if message_id:
            # masked: a bare jump URL wraps over several lines of a phone's screen
            link = jump_link(table, message_id)
            stage = f"waiting in [its lobby]({link})" if lobby else f"in play: [the table]({link})"
        else:  # its post is not recorded yet (still being sent): nothing to link to
            stage = "waiting in its lobby" if lobby else "in play"
        return (
            f"This channel already has a game of {title} {stage}.\n"
            "Use `/game status` to see it, or open a thread to play another game alongside."
        )

    async def lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async with self.turn(interaction, game_id):
            now, book = await self.load(game_id, interaction)
            table = now.table.model_copy(update={"seats": [s.model_copy() for s in now.table.seats]})
            spec = now.spec
            if table.status == "active":
                raise Refusal("This lobby has closed: its game has started. Watch it here, or open a thread "
                              f"and start another there with `/{spec.command} new`.")
            if table.status != "lobby":
                raise Refusal(f"This lobby has closed. Start a new game with `/{spec.command} new`.")
            user = interaction.user
            is_host = user.id == table.host_id
            gm = await self.servers.gm(interaction)
            notice: str | None = None
            if op == "join":
                if is_host and not table.host_plays:
                    raise Refusal("You run this table as its game-master; players and NPCs take the seats.")
                if table.seat_of(user.id) is not None:
                    raise Refusal("You already have a seat at this table.")
                if len(table.seats) >= spec.engine.max_seats:
                    raise Refusal(f"The table is full ({spec.engine.max_seats} seats).")
                stake = table.returning.pop(user.id, None)
                table.seats.append(Seat(user_id=user.id, name=user.display_name, stake=stake))
                took = spec.tavern.stake_text(spec.engine.Options.model_validate(table.options), stake) \
                    if spec.tavern is not None and stake is not None else None
                if took:
                    notice = f"{safe(user.display_name)} is back with what their seat took home: {took}."
            elif op == "leave":
                seat = table.seat_of(user.id)
                if seat is None:
                    raise Refusal("You do not have a seat at this table.")
                if is_host and table.host_plays:
                    raise Refusal("The host cannot leave the lobby; use **Cancel** to close it.")
                table.seats.pop(seat)
                notice = f"{safe(user.display_name)} left the lobby."
            elif op == "ai":
                self._host_only(table, user, "add AI players", gm)
                if len(table.seats) >= spec.engine.max_seats:
                    raise Refusal(f"The table is full ({spec.engine.max_seats} seats).")
                taken = {s.name for s in table.seats}
                number = next(n for n in range(1, len(table.seats) + 2) if f"Bot {n}" not in taken)
                table.seats.append(Seat(name=f"Bot {number}", ai=True))
            elif op == "cancel":
                self._host_only(table, user, "cancel the game", gm)
                table.status = "cancelled"
                notice = present.closed_lobby(user.display_name)
            elif op == "start":
                self._host_only(table, user, "start the game", gm)
                result = step.start(now, time.time())
                book.nudged = 0.0  # a nudge that got the host to start leaves the game's first turn free to nudge
                await self.carry(interaction, result, book, self.origin(interaction, now.table))
                return
            else:
                raise Refusal("Unknown lobby button.")
            await self._lobby_changed(interaction, now, table, book, notice=notice)

    async def _lobby_changed(self, interaction: discord.Interaction, before: Moment, table: Table, book: Book, *,
                             notice: str | None = None, said: str | None = None) -> None:
        """A lobby's one save, then its message redrawn: in place when it was clicked, else
        below a private answer (a command such as /game leave or an NPC seat). A lobby that chat
        has scrolled away comes back below either way, as a table does: whoever is gathering
        players looks at the newest messages."""
        table.version = before.table.version + 1
        text = await in_time(interaction, self.store.save(table, before.table.version,
                                                          interaction_id=interaction.id, deadline=None))
        after = Moment(before.spec, table, pictures=before.pictures)
        self.keep(text, after)
        channel = await self.deliverer.channel(table, book)
        clicked = interaction.message is not None and interaction.message.id == book.message_id
        if clicked and not channel.scrolled:
            shown = present.table_message(after, book, notice=notice)
            await update(interaction, **await self.deliverer.kwargs(
                shown, edit=True, book=book, legacy=legacy_message(interaction.message)))
        elif clicked:
            await self.deliverer.run(present.moved_below(after, channel, notice=notice), table, book, interaction)
        else:
            await reply(interaction, content=said or notice or "Done.", ephemeral=True)
            await self.deliverer.run(present.redraw(after, channel), table, book, interaction)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby with the same players and options, seats in reverse order (KB-7), so the
        table does not have to gather again. Whoever asks hosts it."""
        async with self.turn(interaction, game_id):
            ended, book = await self.load(game_id, interaction)
            old = ended.table
            if old.live:
                raise Refusal("This game is still going.")
            if old.status != "finished" or ended.state is None:  # a lobby closed, a game ended early
                raise Refusal(f"Only a finished game has a rematch; start another with `/{self.spec(old).command} new`.")
            if old.seat_of(interaction.user.id) is None and interaction.user.id != old.host_id \
                    and not await self.servers.gm(interaction):
                raise Refusal("Only the players of this game can ask for a rematch; "
                              f"start your own with `/{self.spec(old).command} new`.")
        seats, notice, returning = rematch_seats(self.spec(old), ended)
        await self.open_lobby(interaction, self.spec(old), self.spec(old).engine.Options.model_validate(old.options),
                              seats=seats, returning=returning, timer_seconds=old.timer_seconds, host_plays=old.host_plays,
                              # a game-master runs the next game too, whoever asked for it
                              host_id=None if old.host_plays else old.host_id, notice=notice)
        if interaction.message is not None:  # the final table stays, without its Rematch button
            try:
                # with its last words (a ledger, say) and the files they brought, kept as they are,
                # where they rode on it (a table posted again, or too full for them, had none)
                carried = {a.filename: a for a in interaction.message.attachments}
                shown = present.table_message(ended, book, rematch=False, last_words=True)
                if not all(f.filename in carried for f in shown.files):
                    shown = present.table_message(ended, book, rematch=False)
                kwargs = await self.deliverer.kwargs(shown, edit=True, legacy=legacy_message(interaction.message))
                kwargs["attachments"] = [carried[f.filename] for f in shown.files] + kwargs.get("attachments", [])
                await interaction.message.edit(**kwargs)
            except discord.HTTPException:
                log.info("could not remove the rematch button of game %s", game_id)

    async def edit_lobby(self, interaction: discord.Interaction, change: Callable[[Table], str], *,
                         what: str = "change the seats") -> None:
        """A host's change to the lobby from a game's own command (an NPC seat, a seat's stake):
        ``change`` edits the table or raises Refusal, and returns what to tell the host; ``what``
        it does, as a refusal names it."""
        table = await self.live_table(interaction)
        async with self.turn(interaction, table.id or 0):
            now, book = await self.load(table.id or 0, interaction)
            if now.table.status != "lobby":
                raise Refusal(f"You can {what} only in the lobby, before the game starts.")
            self._host_only(now.table, interaction.user, what, await self.servers.gm(interaction))
            table = now.table.model_copy(update={"seats": [s.model_copy() for s in now.table.seats]})
            said = change(table)
            await self._lobby_changed(interaction, now, table, book, said=said)

    def _host_only(self, table: Table, user: discord.abc.User, what: str, gm: bool) -> None:
        """The host decides for their table, and so does a GM of the server (its GM role, or
        Manage Server)."""
        if user.id != table.host_id and not gm:
            raise Refusal(f"Only {runner(table)} or a GM of this server can {what}.")


def rematch_seats(spec: GameSpec[Any, Any, Any], ended: Moment) -> tuple[list[Seat], str | None, dict[int, int]]:
    """The seats of a rematch, in reverse order (KB-7), what the lobby says of them, and the
    stakes kept for players who left. A seat starts afresh (its last open choice belonged to the
    old game's count of moves, and would refuse every click of the new one). A player who left
    the game has no seat: they left, and their record must not count a game they never sat in;
    Join takes them back, with what their seat took home where stakes carry forward."""
    table, tavern = ended.table, spec.tavern
    stakes, said = tavern.rematch_stakes(table, ended.public) if tavern is not None \
        else ([seat.stake for seat in table.seats], None)
    kept = list(zip(table.seats, stakes, strict=True))
    carried = said is not None  # stakes carry forward: a seat's is what it took home
    options = spec.engine.Options.model_validate(table.options)
    left = [safe(seat.name.removesuffix(step.LEFT))
            + (f" ({took})" if carried and tavern and (took := tavern.stake_text(options, stake)) else "")
            for seat, stake in kept if seat.left]
    seats = [Seat(user_id=seat.user_id, name=seat.name, ai=seat.ai, stake=stake)
             for seat, stake in reversed(kept) if not seat.left]
    if left:
        said = " ".join(filter(None, [said, f"{and_list(left)} left the last game: **Join** to play this one."]))
    returning = {seat.user_id: stake for seat, stake in kept
                 if carried and seat.left and seat.user_id is not None and stake is not None}
    return seats, said, returning


def lobby_waits_on(now: Moment, asker: int) -> int:
    """Whom a lobby waits for, as a nudge names them: its host (the game-master), once enough
    players have sat down; before that, more players, whom no ping can name."""
    table, engine = now.table, now.engine
    if asker == table.host_id:
        raise Refusal("This is your lobby: press **Start** once everyone has joined.")
    fewest = engine.seat_range(engine.Options.model_validate(table.options))[0]
    if len(table.seats) < fewest:
        short = fewest - len(table.seats)
        raise Refusal(f"The lobby needs {short} more player{'s' if short > 1 else ''} (or **Add AI**) "
                      f"before {runner(table)} can start it.")
    return table.host_id


def allowed_here(channel: object, allowed: list[int]) -> bool:
    """The channel itself, its category, or (a thread) its parent channel or that one's category."""
    ids = {getattr(channel, "id", None), getattr(channel, "category_id", None), getattr(channel, "parent_id", None)}
    parent = getattr(channel, "parent", None)
    ids.add(getattr(parent, "category_id", None))
    return bool(ids & set(allowed))
