"""Carrying a plan out: the answer, the DMs, the channel's messages, in that order; then the
book records what the channel and the DMs now show.

The one module that sends a game's messages. It decides nothing about what a step looks like
(bot/present.py does); it knows Discord: how a picture is attached, which calls can fail and
what a failure means for the book.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot import layout, wire
from bot.errors import servers_failed
from bot.models import Book, Table
from bot.permissions import THREAD_LOCKED, given_in, lacking, listed, missing_permissions, thread_locked
from bot.pictures import Picture, PictureCache
from bot.present import (
    SCROLLED_AWAY, Channel, Dm, Edit, Extra, Plan, Post, Reply, Shown, Shrink, Update,
)
from bot.private import send_private
from bot.recent import Recent
from bot.render import NO_PINGS, PINGS
from bot.replies import UNKNOWN_INTERACTION, NotAnswered, reply, update
from bot.store import Store

log = logging.getLogger(__name__)


def picture_digest(pictures: list[Picture]) -> str:
    """Stable across processes (unlike ``hash``), so a restarted bot still knows the pictures."""
    return _digest(tuple((p.filename, p.key) for p in pictures)) if pictures else ""


@functools.lru_cache(maxsize=1024)
def _digest(keys: tuple[tuple[str, Hashable], ...]) -> str:
    # a table's few pictures come back click after click: each is worked out once
    return hashlib.blake2s(repr(list(keys)).encode(), digest_size=8).hexdigest()


#: an ephemeral copy can be edited only while its interaction token lives (15 minutes)
EPHEMERAL_LIFE = 14 * 60.0

#: what a superseded copy of a private view or table says instead of its controls
MOVED_ON = "This copy is out of date: the game moved on."
NEWER_COPY = "A newer copy of this is below."


def text_kwargs(text: str, *, legacy: bool = False) -> dict[str, Any]:
    """What an old table or copy is edited into: one line, no picture or controls, pinging
    nobody (a mention in an edit pings nobody anyway; this keeps it from even looking like a
    ping). A message from before layout messages stays a plain one."""
    if legacy:
        return {"content": text, "embeds": [], "attachments": [], "view": None, "allowed_mentions": NO_PINGS}
    return {"view": layout.text_message(text), "attachments": [], "allowed_mentions": NO_PINGS}


def _history(plan: Plan) -> str:
    """The line of history a plan turns the old table into: in the answer, or once the new
    table is out."""
    if isinstance(plan.answer, Update) and plan.answer.history:
        return plan.answer.history
    return next((op.text for op in plan.channel if isinstance(op, Shrink)), "")


def redrawn(book: Book, interaction: discord.Interaction, version: int) -> None:
    """The clicked message, if it is its player's DM copy, now shows the game at ``version``."""
    copy = book.dm_copies.get(interaction.user.id)
    if copy is not None and interaction.message is not None and copy[1] == interaction.message.id:
        book.dm_copies[interaction.user.id] = [copy[0], copy[1], 1, version]  # redrawn: a layout message


def legacy_message(message: discord.Message | None) -> bool:
    """A message posted before tables were layout messages (it has content or embeds)."""
    return message is not None and not message.flags.components_v2


#: Discord's code for a channel that is no more (deleted, or a deleted thread; an archived
#: thread is still there, and a message sent to it opens it again)
UNKNOWN_CHANNEL = 10003


def channel_gone(exc: BaseException) -> bool:
    """Discord says the channel the call was about no longer exists."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL


#: what keeps a message from being posted and is not ours to fix: the bot may not post there
#: (an admin took a permission away), or Discord's servers failed past discord.py's retries
REFUSED = (discord.Forbidden, discord.DiscordServerError)
Refused = discord.Forbidden | discord.DiscordServerError


#: a click's answers that are the clicked message itself, so that editing the answer edits it
EDITED_CLICKED = (discord.InteractionResponseType.message_update, discord.InteractionResponseType.deferred_message_update)


def why(exc: Refused) -> str:
    """The refusal in a log line (a 502's text is Cloudflare's HTML page)."""
    return f"{exc.code} {exc.text}" if isinstance(exc, discord.Forbidden) else f"{exc.status} from Discord's servers"


#: what follows a table that Discord's servers refused (``Deliverer.fell_behind``): the bot
#: posts it again by itself in a few seconds ("soon"); this was one of those tries, and more
#: follow, so whoever set it off has heard already ("trying"); no try follows, as the last one
#: failed or the bot is stopping ("over")
Again = Literal["soon", "trying", "over"]


def table_not_taken(exc: discord.DiscordServerError, *, above: bool = True, soon: bool = True) -> str:
    """Why the new table is not below, where the game goes on meanwhile (``above``: in the
    old table, redrawn), and what posts it (``soon``: the bot itself in a few seconds)."""
    return (f"I could not post the new table here: {servers_failed(exc)}. "
            + ("The table above is up to date: play on there. " if above else "")
            + ("I will post it again shortly, as will the next move." if soon else
               "The next move or `/game status` posts it again."))


#: channels whose chat below their table is counted (the least recent forgotten: a forgotten
#: channel's count is asked of Discord again)
CHANNELS_KEPT = 20_000
#: seconds the chat below a table is asked of Discord for, at most (past this, the table counts
#: as recent): the question stands before a click's answer, which Discord takes for three
#: seconds, of which the game's lock and the save may each have taken almost one
CHAT_ASKED_WITHIN = 0.5
#: seconds between questions about the chat below a table for steps no interaction of its
#: channel set off (a timer, a choice made in a DM): those name no newest message
UNHEARD_ASKED_EVERY = 10.0
#: seconds a table counts as recent without asking again, after Discord failed to say
FAILED_WAIT = 10.0
#: My hand copies kept to retire later (the oldest forgotten first; past 15 minutes their
#: tokens are dead anyway)
COPIES_KEPT = 20_000

@dataclass
class _Below:
    """What is known of the chat below a channel's table."""

    #: our table message there
    table: int
    #: messages below it, up to as many as scroll it away; None: to be asked of Discord
    count: int | None
    #: the channel's newest message, as last heard of
    heard: int
    #: when Discord was last asked (monotonic seconds), and whether it failed to say
    asked: float = -math.inf
    failed: bool = False


@dataclass
class _EphemeralCopy:
    interaction: discord.Interaction
    message_id: int | None
    at: float


class Deliverer:
    def __init__(self, client: discord.Client, store: Store, *,
                 fell_behind: Callable[[int, int, discord.Interaction | None], Again] = lambda *_: "over") -> None:
        self.client = client
        self.store = store
        #: called with a game, its move number and whoever set it off when Discord's servers
        #: refused its table: what follows
        self.fell_behind = fell_behind
        self.pictures = PictureCache()
        # channel id -> what is known of the chat below its table; in memory: a table this
        # process has not posted has it asked of Discord once
        self._below: Recent[int, _Below] = Recent(CHANNELS_KEPT)
        # (game id, user id) -> the newest My hand copy, whose buttons are stripped when a newer
        # copy goes out (only while its token lives; in memory, as the token is)
        self._ephemeral: Recent[tuple[int, int], _EphemeralCopy] = Recent(COPIES_KEPT)

    # -- what the channel shows --------------------------------------------------------------

    def note_newest(self, channel_id: int, newest: int) -> None:
        """Every click and command names the channel's newest message. One newer than the last
        heard of means chat came below the table since: how much is asked of Discord when the
        table next changes, unless chat has scrolled it away already. Read off the
        interactions, where the guild-messages intent would have sent every message of every
        server the bot is in, to count the few below a table."""
        below = self._below.get(channel_id)
        if below is None or newest <= below.heard:
            return
        below.heard = newest
        if below.count is not None and below.count < SCROLLED_AWAY:  # once scrolled away, it stays so
            below.count = None

    def posted(self, channel_id: int, message_id: int) -> None:
        """A table (or a lobby) was just posted in the channel: the newest message there, until
        chat scrolls it away."""
        before = self._below.get(channel_id)
        self._below[channel_id] = _Below(message_id, 0, message_id, *(
            (before.asked, before.failed) if before is not None else ()))

    async def channel(self, table: Table, book: Book, *, heard: bool = True) -> Channel:
        """What the channel shows now: whether chat has scrolled its table away. Asked of Discord
        when something was posted below the table since it was last asked, or this process has
        not posted it (a table from before a restart, or another process's). ``heard``: the step
        comes from an interaction in this channel, which named its newest message; a timer's, or
        a choice made in a DM, did not, so chat below a table still recent is asked about (at
        most every ``UNHEARD_ASKED_EVERY`` seconds). Discord failing to say, the table counts as
        recent, and is asked about again after ``FAILED_WAIT`` seconds."""
        if book.message_id is None:
            return Channel(book)
        below = self._below.get(table.channel_id)
        if below is None or below.table != book.message_id:
            below = self._below[table.channel_id] = _Below(book.message_id, None, book.message_id)
        since = time.monotonic() - below.asked
        unknown = below.count is None or (not heard and below.count < SCROLLED_AWAY and since >= UNHEARD_ASKED_EVERY)
        if unknown and not (below.failed and since < FAILED_WAIT):
            below.asked = time.monotonic()
            counted = await self._count_below(table.channel_id, book.message_id)
            below.failed = counted is None
            if counted is not None:
                count, newest = counted
                # a click heard of meanwhile names a newer message: that one is asked about next
                below.count = count if below.heard <= newest else None
                below.heard = max(below.heard, newest)
                return Channel(book, count >= SCROLLED_AWAY)
        return Channel(book, (below.count or 0) >= SCROLLED_AWAY)

    async def _count_below(self, channel_id: int, message_id: int) -> tuple[int, int] | None:
        """How many messages are below the table, up to as many as scroll it away, and the
        newest of them (else the table); None when Discord does not say in time (the table then
        counts as recent: at worst one change edits a message scrolled away)."""
        try:
            async with asyncio.timeout(CHAT_ASKED_WITHIN):
                below = await self.client.http.logs_from(channel_id, SCROLLED_AWAY, after=message_id)
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("could not read the messages below the table in channel %s (%s)", channel_id,
                     type(exc).__name__)
            return None
        return len(below), max((int(m["id"]) for m in below), default=message_id)

    async def kwargs(self, shown: Shown, *, edit: bool, book: Book | None = None,
                     legacy: bool = False) -> dict[str, Any]:
        """Keyword arguments for a send (``edit=False``) or an edit of the message. With
        ``book``, the message is the live table: an edit that shows the pictures it carries
        already leaves the attachments where they are, and the book notes what it now has.
        ``legacy``: the edited message is a plain one from before layouts, whose content and
        embeds must go as it becomes a layout message."""
        pings = discord.AllowedMentions(users=[discord.Object(u) for u in shown.pinged], everyone=False,
                                        roles=False) if shown.pinged else PINGS if shown.pings else NO_PINGS
        out: dict[str, Any] = {"view": shown.layout, "allowed_mentions": pings}
        if legacy:
            out.update(content=None, embeds=[])
        carried = picture_digest(shown.pictures)
        if book is not None:
            book.layout = True
        if edit and book is not None and carried and carried == book.picture and not legacy:
            return out
        files = [await self.pictures.file(p) for p in shown.pictures]
        if not edit:
            files += shown.files
        if files or edit:
            out["attachments" if edit else "files"] = files
        if book is not None:
            book.picture = carried
        return out

    # -- a plan ------------------------------------------------------------------------------

    async def run(self, plan: Plan, table: Table, book: Book, interaction: discord.Interaction | None, *,
                  replan: Callable[[Channel], Plan] | None = None) -> None:
        """Answer, DM, post; then record the book, once. ``replan`` presents the step again when
        a DM's outcome changed what the table must say (its player must press My hand). The
        book counts the step as shown only once the channel shows it: else a press on the table
        that fell behind posts it again (``TableRuntime._stale``), as does the next start.
        ``interaction``: whoever set the plan off, given its answer if it has one, and told
        privately when the table cannot be posted (None: nobody asked; a timer fired, say)."""
        caught_up = False
        try:
            if plan.answer is not None and interaction is not None:
                picture = book.picture
                try:
                    await self._answer(interaction, plan.answer, book, table.version)
                except (discord.NotFound, discord.DiscordServerError, NotAnswered) as exc:
                    if isinstance(exc, discord.NotFound) and exc.code != UNKNOWN_INTERACTION:
                        raise
                    # The step is stored: the channel must show it all the same, or the clicked
                    # table keeps buttons of a moment that has passed and nothing else to press
                    # (and a new table, and its ping, would never come). A 5xx comes after
                    # discord.py's retries, and a click's answer is given up on after three
                    # seconds of them (replies.ANSWER_PATIENCE): the interaction has died meanwhile.
                    log.warning("interaction %s could not be answered (%s); its step is shown anyway",
                                interaction.id, "too late" if isinstance(exc, discord.NotFound) else
                                "Discord's servers failed it for three seconds" if isinstance(exc, NotAnswered)
                                else why(exc))
                    book.picture = picture
                    await self._answer_late(interaction, plan.answer, book, table.version)
            closed = set(book.dm_closed)
            for dm in plan.dms:
                await self._dm(table, book, dm)
            if replan is not None and set(book.dm_closed) != closed:
                plan = replan(await self.channel(table, book))
            book.repost = False
            drawn: bool | None = True
            for op in plan.channel:
                drawn = await self._channel_op(table, book, op, interaction)
                if drawn is not True:
                    break  # the table could not be posted: nothing after it may go out
            if drawn is False and (line := _history(plan)):
                book.owed = line  # redrawn where this line was to go: it goes there once a table is posted
            clicked = interaction.message.id if interaction is not None and interaction.message is not None else None
            for user_id, shown in plan.retire:
                await self._retire(table, book, user_id, keep=clicked, shown=shown)
            book.chapter, book.turn_events, book.look = plan.chapter, plan.turn_events, plan.look
            caught_up = drawn is not None
        finally:
            if caught_up:
                book.shown = max(book.shown, table.version)
            await self.store.put_book(table.id or 0, book)

    async def _answer(self, interaction: discord.Interaction, answer: Update | Reply, book: Book,
                      version: int) -> None:
        if isinstance(answer, Reply):
            await reply(interaction, content=answer.text, ephemeral=True)
            return
        legacy = legacy_message(interaction.message)
        if answer.shown is not None:
            live = interaction.message is not None and interaction.message.id == book.message_id
            await update(interaction, **await self.kwargs(answer.shown, edit=True, book=book if live else None,
                                                          legacy=legacy))
            redrawn(book, interaction, version)
        else:
            await update(interaction, **text_kwargs(answer.history or MOVED_ON, legacy=legacy))

    async def _answer_late(self, interaction: discord.Interaction, answer: Update | Reply, book: Book,
                           version: int) -> None:
        """What the answer would have shown, edited into the clicked message through its channel
        (an ephemeral copy cannot be: its token died unanswered)."""
        message = interaction.message
        if isinstance(answer, Reply) or message is None or message.flags.ephemeral:
            return
        legacy = legacy_message(message)
        if answer.shown is not None:
            live = message.id == book.message_id
            kwargs = await self.kwargs(answer.shown, edit=True, book=book if live else None, legacy=legacy)
        else:
            kwargs = text_kwargs(answer.history or MOVED_ON, legacy=legacy)
        try:
            await message.edit(**kwargs)
        except discord.HTTPException:
            log.info("could not bring the clicked message %s up to date", message.id)
        else:
            if answer.shown is not None:
                redrawn(book, interaction, version)

    async def _channel_op(self, table: Table, book: Book, op: Post | Edit | Shrink | Extra,
                          interaction: discord.Interaction | None) -> bool | None:
        """One call. False when the table could not be posted but the old one shows the game
        now; None when not even that (the rest must wait in both cases)."""
        if isinstance(op, Post):
            try:
                await self._post(table, book, op.shown, strip=op.strip, strip_text=op.strip_text)
            except REFUSED as exc:
                return await self._not_posted(table, book, op.shown, interaction, exc)
        elif isinstance(op, Edit):
            try:
                live = op.message_id == book.message_id
                await wire.edit(self.client, table.channel_id, op.message_id,
                                **await self.kwargs(op.shown, edit=True, book=book if live else None,
                                                    legacy=live and not book.layout))
            except discord.NotFound:  # deleted: the table is posted anew
                try:
                    await self._post(table, book, op.shown)
                except REFUSED as exc:
                    return await self._not_posted(table, book, op.shown, interaction, exc)
            except discord.Forbidden as exc:  # its new picture (Attach Files)
                return await self._not_posted(table, book, op.shown, interaction, exc)
            except discord.DiscordServerError as exc:  # the table fell behind: posted again soon
                book.repost = True
                self.fell_behind(table.id or 0, table.version, interaction)
                log.warning("game %s: could not edit its table in channel %s (%s)", table.id, table.channel_id,
                            why(exc))
                return None
        elif isinstance(op, Shrink):
            try:
                await wire.edit(self.client, table.channel_id, op.message_id, **text_kwargs(op.text, legacy=not op.layout))
            except discord.HTTPException:
                log.info("could not shrink the old table message %s of game %s", op.message_id, table.id)
        else:
            try:
                # once a game, and in channel.send's own words (GameSpec.last_words)
                await self.client.get_partial_messageable(table.channel_id).send(**op.message)
            except REFUSED as exc:
                log.warning("game %s: cannot post its last words in channel %s (%s)", table.id, table.channel_id,
                            why(exc))
                if interaction is not None:
                    reason = (f"I am missing {listed(self._lacking(table, interaction))} in {self._where(table, interaction)}"
                              if isinstance(exc, discord.Forbidden) else servers_failed(exc))
                    await self._tell(interaction, table, f"I could not post this game's last words here: {reason}.")
        return True

    def _where(self, table: Table, interaction: discord.Interaction) -> str:
        """Where the table channel's permissions are given (a thread's: in its channel)."""
        channel = interaction.channel if interaction.channel_id == table.channel_id else \
            self.client.get_channel(table.channel_id)
        return given_in(channel, table.channel_id)

    def _lacking(self, table: Table, interaction: discord.Interaction) -> list[str]:
        """What the bot lacks in the table's channel: as Discord says with an interaction from
        there, else as the channel's overwrites in the cache say (a choice made in a DM, or an
        interaction from before the permission was taken: a table posted again a while later)."""
        if interaction.channel_id == table.channel_id:
            missing = lacking(interaction.app_permissions, thread=isinstance(interaction.channel, discord.Thread))
            if missing:
                return missing
        channel = self.client.get_channel(table.channel_id)
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread) and channel.guild.me is not None:
            missing = lacking(channel.permissions_for(channel.guild.me), thread=isinstance(channel, discord.Thread))
            if any(m.startswith("Send Messages") for m in missing):
                # discord.py counts links and files as denied to whoever may not send at all,
                # which says nothing of whether the channel denies them
                missing = [m for m in missing if m not in ("Embed Links", "Attach Files")]
            return missing
        return []

    async def _tell(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        """A private line to whoever acted."""
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            log.info("game %s: could not say why a message was not posted", table.id)

    async def _not_posted(self, table: Table, book: Book, shown: Shown, interaction: discord.Interaction | None,
                          exc: Refused) -> bool | None:
        """The table could not be posted: the bot may not post here (an admin took a
        permission away), or Discord's servers failed past discord.py's retries. The game must
        not stall: the old table shows the game as it stands (False), the person who acted is
        told why, and the next step posts the table anew. None: the old table could not be
        redrawn either."""
        book.repost = True
        log.warning("game %s: cannot post its table in channel %s (%s)", table.id, table.channel_id, why(exc))
        again: Again = "over"
        if isinstance(exc, discord.DiscordServerError):
            again = self.fell_behind(table.id or 0, table.version, interaction)
        redrawn: bool | None = None
        if book.message_id is not None and book.shown >= table.version:
            redrawn = False  # it shows this move already (redrawn as an earlier post was refused)
        elif book.message_id is not None:
            try:
                if interaction is not None and interaction.message is not None \
                        and interaction.message.id == book.message_id and interaction.response.type in EDITED_CLICKED:
                    await interaction.edit_original_response(**await self.kwargs(
                        shown, edit=True, book=book, legacy=legacy_message(interaction.message)))
                else:
                    await wire.edit(self.client, table.channel_id, book.message_id,
                                    **await self.kwargs(shown, edit=True, book=book, legacy=not book.layout))
                redrawn = False
            except discord.HTTPException:
                log.info("game %s: could not redraw its table either", table.id)
        if interaction is not None and again != "trying":
            above = redrawn is not None
            if isinstance(exc, discord.Forbidden) and exc.code in THREAD_LOCKED:
                said = thread_locked(above=above)
            elif isinstance(exc, discord.Forbidden):
                said = missing_permissions(self._lacking(table, interaction), self._where(table, interaction),
                                           above=above)
            else:
                said = table_not_taken(exc, above=above, soon=again == "soon")
            await self._tell(interaction, table, said)
        return redrawn

    async def _post(self, table: Table, book: Book, shown: Shown, *, strip: int | None = None,
                    strip_text: str = MOVED_ON) -> None:
        """The table as a new message; the one it replaces (``strip``) keeps one line."""
        legacy = not book.layout
        posted = await wire.post(self.client, table.channel_id, **await self.kwargs(shown, edit=False))
        book.message_id, book.picture, book.layout = posted, picture_digest(shown.pictures), True
        book.owed = ""  # the old message shows it now (stripped below, or by the answer or a Shrink)
        self.posted(table.channel_id, posted)
        if strip is not None and strip != posted:
            try:
                await wire.edit(self.client, table.channel_id, strip, **text_kwargs(strip_text, legacy=legacy))
            except discord.HTTPException:
                log.info("could not strip the old table message %s of game %s", strip, table.id)

    # -- private copies ------------------------------------------------------------------------

    async def _dm(self, table: Table, book: Book, dm: Dm) -> None:
        """A new DM; the older copy says a newer one is below. Whoever cannot be DMed is marked,
        and the table tells them to use My hand."""
        sent = await send_private(self.client, dm.user_id, **await self.kwargs(dm.shown, edit=False))
        if sent is not None:
            await self._retire(table, book, dm.user_id, shown=dm.superseded)
            book.dm_copies[dm.user_id] = [sent.channel.id, sent.id, 1, table.version]
        if sent is None:
            book.dm_closed[dm.seat] = dm.chapter
        else:
            book.dm_closed.pop(dm.seat, None)

    async def _retire(self, table: Table, book: Book, user_id: int, *, keep: int | None = None,
                      shown: Shown | None = None) -> None:
        """Every older copy of a user's private view loses its controls: it shows ``shown`` (what
        they hold now), or else one line saying a newer copy is below."""
        old = book.dm_copies.pop(user_id, None)
        if old is not None and old[1] != keep:
            legacy = len(old) < 3
            try:
                await wire.edit(self.client, old[0], old[1], **await self._superseded(shown, legacy))
            except discord.HTTPException:
                log.info("could not retire an old private copy in game %s", table.id)
        copy = self._ephemeral.pop((table.id or 0, user_id), None)
        if copy is not None and time.monotonic() - copy.at < EPHEMERAL_LIFE and copy.message_id != keep:
            try:
                if copy.message_id is None:
                    await copy.interaction.edit_original_response(**await self._superseded(shown, False))
                else:
                    await copy.interaction.followup.edit_message(copy.message_id, **await self._superseded(shown, False))
            except discord.HTTPException:
                log.info("could not retire an old My hand copy in game %s", table.id)

    async def _superseded(self, shown: Shown | None, legacy: bool) -> dict[str, Any]:
        if legacy:
            return {"view": None}
        if shown is None:
            return text_kwargs(NEWER_COPY)
        return await self.kwargs(shown, edit=True)

    async def hand(self, interaction: discord.Interaction, table: Table, book: Book, shown: Shown) -> None:
        """My hand: a private copy right here; the older copies say a newer one is below."""
        user_id = interaction.user.id
        await self._retire(table, book, user_id)
        sent = await reply(interaction, ephemeral=True, **await self.kwargs(shown, edit=False))
        self._ephemeral[(table.id or 0, user_id)] = _EphemeralCopy(
            interaction, sent.id if sent is not None else None, time.monotonic())
        await self.store.put_book(table.id or 0, book)
