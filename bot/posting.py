"""Where a table's messages go, and when a table is a new message rather than an edit.

A mention pings only in a new message, so every change of who must act posts the table anew
below the old one, which shrinks to a line of history without buttons: the live table is always
the newest game message, and the channel keeps a compact story. Within one player's turn the
table is edited in place. At most two channel calls go out per turn change beyond the
interaction's own answer (shrink the old table, post the new one).

Private views follow the same idea: each goes out as a new DM when its player is newly asked,
and the older copy loses its buttons, so exactly one copy is live.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from pydantic import BaseModel

from bot import render
from bot.games import GameSpec
from bot.models import Table
from bot.pictures import PictureCache
from bot.private import send_private
from bot.replies import reply, update
from bot.store import Store, VersionConflict

log = logging.getLogger(__name__)

#: after this many other messages in the channel, the table is posted afresh instead of edited
SCROLLED_AWAY = 4
#: an ephemeral copy can be edited only while its interaction token lives (15 minutes)
EPHEMERAL_LIFE = 14 * 60.0


@dataclass
class Change:
    """What one step did to a table, as the poster needs it."""

    #: humans who must act now and were not already acting throughout the step: they are pinged
    newly_acting: list[int] = field(default_factory=list)
    #: seats owing a new private decision: they get a new private view
    fresh: list[int] = field(default_factory=list)
    #: the old table's line of history, when this step ended its turn (None: same turn)
    history: str | None = None
    #: news above the new table, pinging whom it names
    headline: str | None = None
    notice: str | None = None
    #: whether the channel's table looks any different (a sealed choice does not change it)
    public_changed: bool = True
    #: the message id of the table before this step (the one that shrinks to history)
    old_message_id: int | None = None

    @property
    def new_turn(self) -> bool:
        return self.history is not None


def history_line(text: str) -> dict[str, Any]:
    """What an old table is edited into: one line, no embed, picture or buttons, pinging nobody
    (a mention in an edit pings nobody anyway; this keeps it from even looking like a ping)."""
    return {"content": text, "embeds": [], "attachments": [], "view": None, "allowed_mentions": render.NO_PINGS}


@dataclass
class _EphemeralCopy:
    interaction: discord.Interaction
    message_id: int | None
    at: float


class Poster:
    def __init__(self, client: discord.Client, store: Store, spec_of: Callable[[Table], GameSpec],
                 state_of: Callable[[Table], BaseModel]) -> None:
        self.client = client
        self.store = store
        self.spec_of = spec_of
        self.state_of = state_of
        self.pictures = PictureCache()
        # channel id -> messages seen since our table message there (in memory: after a restart a
        # table counts as recent, which at worst edits one message that scrolled away)
        self._since_table: dict[int, int] = {}
        # (game id, user id) -> the newest My hand copy, whose buttons are stripped when a newer
        # copy goes out (only while its token lives; in memory, as the token is)
        self._ephemeral: dict[tuple[int, int], _EphemeralCopy] = {}
        #: games whose final table has yet to be followed by the game's finish messages
        self.finishing: set[int] = set()
        #: game id -> the version this process last showed in the channel: a table it has not
        #: shown since it started may be behind the store (TableRuntime._fallen_behind)
        self.shown: dict[int, int] = {}

    # -- channel bookkeeping -------------------------------------------------------------------

    def note_message(self, channel_id: int, author_is_me: bool) -> None:
        if channel_id in self._since_table and not author_is_me:
            self._since_table[channel_id] += 1

    def is_recent(self, table: Table) -> bool:
        return self._since_table.get(table.channel_id, 0) < SCROLLED_AWAY

    # -- building messages ---------------------------------------------------------------------

    def public(self, table: Table, *, notice: str | None = None, headline: str | None = None) -> render.Shown:
        state = self.state_of(table) if table.state is not None else None
        return render.table_message(self.spec_of(table), table, state, notice=notice, headline=headline)

    def private(self, table: Table, seat: int, *, notice: str | None = None) -> render.Shown:
        return render.private_message(self.spec_of(table), table, self.state_of(table), seat, notice=notice)

    async def kwargs(self, shown: render.Shown, *, edit: bool) -> dict[str, Any]:
        """Keyword arguments for a send (``edit=False``) or an edit of the message."""
        out: dict[str, Any] = {"content": shown.content, "embeds": shown.embeds, "view": shown.view,
                               "allowed_mentions": render.PINGS if shown.pings else render.NO_PINGS}
        if shown.picture is not None:
            picture = await self.pictures.file(shown.picture)
            out["attachments" if edit else "files"] = [picture]
        elif edit:
            out["attachments"] = []
        return out

    # -- answering a step ----------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction | None, table: Table, change: Change) -> None:
        """Show the table after a step, answering ``interaction`` (a click or a command) if any;
        then the private copies of whoever owes nothing now lose their buttons."""
        await self._show(interaction, table, change)
        self._showed(table)
        await self._retire_finished(table, interaction)

    def _showed(self, table: Table) -> None:
        if table.status == "active":
            self.shown[table.id or 0] = table.version
        else:
            self.shown.pop(table.id or 0, None)

    async def _show(self, interaction: discord.Interaction | None, table: Table, change: Change) -> None:
        message = interaction.message if interaction is not None else None
        private = message is not None and (message.flags.ephemeral or interaction.guild_id is None)  # type: ignore[union-attr]
        notify = list(change.fresh)
        if interaction is not None and private:
            mine = table.seat_of(interaction.user.id)
            if mine is not None and table.status == "active":
                await update(interaction, **await self.kwargs(self.private(table, mine, notice=change.notice), edit=True))
                notify = [s for s in notify if s != mine]  # their copy was just redrawn in place
            else:
                await update(interaction, view=None)
        if change.new_turn:
            on_old = message is not None and not private and message.id == change.old_message_id
            if on_old:
                await update(interaction, **history_line(change.history or ""))  # type: ignore[arg-type]
            else:
                if interaction is not None and not private:
                    await self._acknowledge(interaction, change.notice)
                await self._shrink(table, change.old_message_id, change.history or "")
            await self.post(table, notice=change.notice if on_old or interaction is None else None,
                            headline=change.headline, notify=notify)
            return
        if interaction is not None and not private:
            if message is not None and message.id == table.message_id and self.is_recent(table):
                await update(interaction, **await self.kwargs(self.public(table, notice=change.notice), edit=True))
                await self.after_show(table, notify)
                return
            if message is not None and message.id == table.message_id:
                await update(interaction, view=None)  # scrolled away: the table comes back below
                await self.post(table, notice=change.notice, notify=notify)
                return
            await self._acknowledge(interaction, change.notice)
        if change.public_changed or (change.notice and interaction is None):
            await self.refresh(table, notice=change.notice if interaction is None else None)
        await self.after_show(table, notify)

    async def _acknowledge(self, interaction: discord.Interaction, notice: str | None) -> None:
        if interaction.message is None:
            await reply(interaction, content=notice or "Done.", ephemeral=True)
        else:
            await update(interaction, view=None)

    async def _shrink(self, table: Table, message_id: int | None, history: str) -> None:
        if message_id is None:
            return
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(**history_line(history))
        except discord.HTTPException:
            log.info("could not shrink the old table message %s of game %s", message_id, table.id)

    async def refresh(self, table: Table, *, notice: str | None = None) -> None:
        """Redraw the live table where it is, or below if chat has scrolled it away."""
        if table.message_id is None or not self.is_recent(table):
            await self.post(table, notice=notice, strip_old=True)
            return
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            await channel.get_partial_message(table.message_id).edit(
                **await self.kwargs(self.public(table, notice=notice), edit=True))
        except discord.NotFound:
            await self.post(table, notice=notice)
            return
        self._showed(table)

    async def post(self, table: Table, *, notice: str | None = None, headline: str | None = None,
                   notify: Sequence[int] = (), strip_old: bool = False) -> None:
        """Post the table as a new message (it pings whom it mentions). Private views go out
        first, so a player whose DMs are closed is asked to press My hand by this new message,
        which pings them, rather than by a later edit, which would not."""
        await self.deliver_private_views(table, notify, refresh=False)
        notify = ()
        channel = self.client.get_partial_messageable(table.channel_id)
        old = table.message_id
        out = await self.kwargs(self.public(table, notice=notice, headline=headline), edit=False)
        self._with_last_words(table, out)
        message = await channel.send(**out)
        await self.set_message(table, message.id)
        self._showed(table)
        if strip_old and old is not None and old != message.id:
            try:
                await channel.get_partial_message(old).edit(view=None)
            except discord.HTTPException:
                log.info("could not strip the old table message %s of game %s", old, table.id)
        await self.after_show(table, notify)

    def _with_last_words(self, table: Table, out: dict[str, Any]) -> None:
        """The game's last words (a ledger, say) ride on the final table when they fit one
        message, so the end of a game costs the channel no extra call."""
        if table.status != "finished" or table.id not in self.finishing:
            return
        spec = self.spec_of(table)
        extras = spec.finish_messages(table, spec.engine.view(self.state_of(table), None))
        embeds = list(out.get("embeds") or [])
        files = list(out.get("files") or [])
        for extra in extras:
            if set(extra) - {"embed", "embeds", "file", "files"}:
                return  # something a table message cannot carry: sent on its own afterwards
            embeds += [extra["embed"]] if "embed" in extra else list(extra.get("embeds") or [])
            files += [extra["file"]] if "file" in extra else list(extra.get("files") or [])
        if len(embeds) > 10 or sum(len(e) for e in embeds) > 6000 or len(files) > 10:
            return
        out["embeds"], out["files"] = embeds, files
        self.finishing.discard(table.id)

    async def set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        self._since_table[table.channel_id] = 0
        try:
            await self.store.save(table, table.version)
        except VersionConflict:
            log.info("game %s moved on before its message id was stored", table.id)

    async def after_show(self, table: Table, notify: Sequence[int]) -> None:
        """Once the table is out: private views to those newly asked, and after the final
        standings, the game's own last words (a ledger, say)."""
        await self.deliver_private_views(table, notify)
        if table.status == "finished" and table.id is not None and table.id in self.finishing:
            self.finishing.discard(table.id)
            spec = self.spec_of(table)
            channel = self.client.get_partial_messageable(table.channel_id)
            for extra in spec.finish_messages(table, spec.engine.view(self.state_of(table), None)):
                await channel.send(**extra)

    # -- private views -------------------------------------------------------------------------

    async def deliver_private_views(self, table: Table, seats: Sequence[int], *, refresh: bool = True) -> None:
        """A new DM for each person newly asked a private decision; the older copy loses its
        buttons. Whoever cannot be DMed is marked, and the table tells them to use My hand."""
        spec = self.spec_of(table)
        if table.status != "active" or not spec.engine.has_private_view():
            return
        state = self.state_of(table)
        shared = spec.engine.open_actions(state)
        changed = closed_changed = False
        for seat in seats:
            info = table.seats[seat]
            if info.ai or info.user_id is None:
                continue
            if all(a in shared for a in spec.engine.legal_actions(state, seat)):
                continue  # a choice made on the table in the open: the table itself asks them
            shown = self.private(table, seat)
            sent = await send_private(self.client, info.user_id, **await self.kwargs(shown, edit=False))
            if sent is not None:
                await self._retire_copies(table, info.user_id)
                table.dm_copies[info.user_id] = [sent.channel.id, sent.id]
                changed = True
            if info.dm_closed == (sent is not None):
                info.dm_closed = sent is None
                changed = closed_changed = True
        if changed:
            await self._save_quietly(table)
        if closed_changed and refresh:
            await self.refresh(table)  # the table now asks them to press My hand, or stops asking

    async def _retire_finished(self, table: Table, interaction: discord.Interaction | None) -> None:
        """A private copy whose player owes nothing now loses its buttons, so it never reads
        as a request (the copy just clicked is redrawn by the answer itself)."""
        if not table.dm_copies:
            return
        acting = set(self.spec_of(table).engine.to_act(self.state_of(table))) if table.status == "active" else set()
        clicked = interaction.message.id if interaction is not None and interaction.message is not None else None
        done = [u for u in table.dm_copies if table.seat_of(u) is None or table.seat_of(u) not in acting]
        for user_id in done:
            await self._retire_copies(table, user_id, keep=clicked)
            table.dm_copies.pop(user_id, None)
        if done:
            await self._save_quietly(table)

    async def _save_quietly(self, table: Table) -> None:
        try:
            await self.store.save(table, table.version)
        except VersionConflict:
            log.info("game %s moved on before its private copies were noted", table.id)

    async def _retire_copies(self, table: Table, user_id: int, *, keep: int | None = None) -> None:
        """Strip the buttons of every older copy of a user's private view."""
        old = table.dm_copies.get(user_id)
        if old is not None and old[1] != keep:
            try:
                await self.client.get_partial_messageable(old[0]).get_partial_message(old[1]).edit(view=None)
            except discord.HTTPException:
                log.info("could not retire an old private copy in game %s", table.id)
            table.dm_copies.pop(user_id, None)
        copy = self._ephemeral.pop((table.id or 0, user_id), None)
        if copy is not None and time.monotonic() - copy.at < EPHEMERAL_LIFE and copy.message_id != keep:
            try:
                if copy.message_id is None:
                    await copy.interaction.edit_original_response(view=None)
                else:
                    await copy.interaction.followup.edit_message(copy.message_id, view=None)
            except discord.HTTPException:
                log.info("could not retire an old My hand copy in game %s", table.id)

    async def show_hand(self, interaction: discord.Interaction, table: Table, seat: int) -> None:
        """My hand: a private copy right here; the older copies lose their buttons."""
        user_id = interaction.user.id
        await self._retire_copies(table, user_id)
        sent = await reply(interaction, ephemeral=True, **await self.kwargs(self.private(table, seat), edit=False))
        self._ephemeral[(table.id or 0, user_id)] = _EphemeralCopy(
            interaction, sent.id if sent is not None else None, time.monotonic())
        await self._save_quietly(table)

