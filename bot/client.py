"""The bot process: connects its shards, opens the store, loads every game cog, syncs commands.

One process may run every shard (the default), or a cluster of processes (boneyard-cluster)
each runs some of them over one shared PostgreSQL store; then only the process with shard 0
syncs the slash commands, so they are not synced once per process.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import pkgutil
import time
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import layout, metrics, privacy, retention
from bot.components import ALL_ITEMS
from bot.config import Settings
from bot.deadlines import CHANNEL_GONE, SERVER_LEFT, cancel_if_gone, cancel_unseen, run_deadlines, still_there
from bot.errors import GATE, Refusal, guarded, tell
from bot.left_behind import show_tables_left_behind
from bot.replies import let_go
from bot.runtime import TableRuntime
from bot.startup import CannotStart, opened
from bot.store import Store

log = logging.getLogger(__name__)


def extensions(extra: str = "") -> list[str]:
    """Every package in cogs/ (each game's, and the dice tools), then EXTRA_COGS: a new game
    changes nothing here. Found by name, as discord.py loads extensions, so the host never
    imports a game; a game is known as one when its cog registers its GameSpec."""
    package = importlib.import_module("cogs")
    found = [f"cogs.{m.name}" for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")]
    return sorted(found) + [name.strip() for name in extra.split(",") if name.strip()]


class BoneyardTree(app_commands.CommandTree["Boneyard"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause: Exception = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            cause = Refusal("That command has changed since your Discord app last loaded the list; "
                            "close and reopen the command menu, then try again.")
        elif isinstance(cause, app_commands.CheckFailure | app_commands.TransformerError):
            cause = Refusal(str(cause))

        async def reraise() -> None:
            raise cause

        await guarded(interaction, reraise)


#: seconds between two IDENTIFYs in one of Discord's identify buckets
IDENTIFY_GAP = 5.0
#: new objects between two collections of the youngest generation (Python's default: 700)
YOUNG_OBJECTS_COLLECTED = 20_000


class Boneyard(commands.AutoShardedBot):
    def __init__(self, settings: Settings) -> None:
        # no voice here: discord.py's two warnings that it would not work only send admins looking
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # Servers (to know where the bot is, and when it leaves one), and nothing else: every
        # other event Discord would send is only work and traffic here. Not even servers' new
        # messages: every message of every server the bot is in, to learn of the few below a
        # table, which each click and command tells (the channel's newest message).
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=BoneyardTree,
            # players' names reach messages: a nickname like "<@&role>" or "@everyone" pings nobody
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
            # Tables are edited by id and clicks carry their message: a cache of the channel's
            # last thousand messages would only be more objects for the collector to walk.
            max_messages=None,
            guild_ready_timeout=0.05 if settings.discord_api_base else 2.0,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,  # type: ignore[arg-type]
            # aiohttp's trace of every request costs a click a few percent of its CPU: it
            # counts the REST calls only where /metrics can be read
            http_trace=metrics.http_trace() if settings.metrics_port is not None else None,  # type: ignore[arg-type]
            # games and the table commands live in servers; the dice tools declare their own
            # wider reach (a user's install, DMs, private chats)
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )
        self.settings = settings
        # A click carries its whole message, whose layout discord.py would build into component
        # objects (dozens on a table) only for the one question asked of them: does the message
        # carry the clicked id? Asked of the event as it is, and the layout left unbuilt.
        self._parse_interaction = self._connection.parsers["INTERACTION_CREATE"]
        self._connection.parsers["INTERACTION_CREATE"] = self._interaction_created
        self.runtime: TableRuntime = None  # type: ignore[assignment]  # set in setup_hook
        self._store: Store | None = None  # opened at login
        #: every persistent item registered, the host's and the cogs' (the dice tools' buttons)
        self.claimed: list[type[discord.ui.DynamicItem[Any]]] = []
        self._deadline_task: asyncio.Task[Any] | None = None
        self._frozen = False
        self._metrics: web.AppRunner | None = None
        self._retention_task: asyncio.Task[Any] | None = None
        #: the tables a stopped process left behind, posted again once connected
        self._left_behind: asyncio.Task[Any] | None = None

    async def login(self, token: str) -> None:
        """The store first: a database that cannot be opened stops the bot before it says a word
        to Discord; then Discord, whose being out of reach is said in a line, not a traceback."""
        self._store = await opened(self.settings.store_target)
        try:
            await super().login(token)
        except (aiohttp.ClientError, OSError) as exc:
            raise CannotStart(f"cannot reach Discord ({type(exc).__name__}): check this machine's network and "
                              "DNS", again=True) from None

    async def setup_hook(self) -> None:
        target = self.settings.store_target
        store = self._store
        assert store is not None, "opened at login, which calls this hook"
        if self.settings.metrics_port is not None:
            store = metrics.TimedStore(store)  # type: ignore[assignment]
        log.info("games are kept in %s", target.shown)
        self.runtime = TableRuntime(self, store, self.settings.default_timer_seconds or None,
                                    game_seed=self.settings.game_seed)
        store.watch_deadlines(self.runtime.deadline_written)
        await self.load_extension("bot.commands")
        await self.load_extension("bot.server_commands")
        await self.load_extension("bot.help")
        for name in extensions(self.settings.extra_cogs):
            try:
                await self.load_extension(name)
            except (commands.ExtensionNotFound, ModuleNotFoundError) as exc:
                missing = getattr(exc, "name", None) or name  # a package on its path may be what is missing
                if not (name == missing or name.startswith(f"{missing}.")):
                    raise
                raise CannotStart(f"EXTRA_COGS: {name} is no module this Python can import (install it into the bot's "
                                  ".venv with pip, or put its folder on PYTHONPATH)", again=False) from None
            except commands.ExtensionError as exc:
                if not name.startswith("cogs."):  # a cog of our own that fails is a bug: its traceback shows
                    cause = exc.__cause__ or exc
                    raise CannotStart(f"EXTRA_COGS: {name} failed to load ({type(cause).__name__}: {cause})",
                                      again=False) from None
                raise
        self.add_dynamic_items(*ALL_ITEMS, *privacy.ITEMS)
        self._deadline_task = asyncio.create_task(
            run_deadlines(self.runtime, gone=lambda game_id, told: cancel_if_gone(self.runtime, game_id, told)),
            name="deadlines")
        self._retention_task = asyncio.create_task(
            retention.run_retention(store, self.settings.keep_finished_days), name="retention")
        if self.settings.metrics_port is not None:
            host, port = self.settings.metrics_host, self.settings.metrics_port
            try:
                self._metrics = await metrics.serve(self, store, host, port)
            except OSError as exc:
                raise CannotStart(f"cannot serve metrics on {host}:{port} ({exc.strerror or type(exc).__name__}): "
                                  "choose another METRICS_PORT, or fix METRICS_HOST", again=False) from None
        if not self.settings.syncs_commands:
            log.info("games: %s; the process with shard 0 syncs the commands", ", ".join(sorted(self.runtime.specs)))
            return
        synced = await self._sync_commands(store)
        log.info("synced %d commands; games: %s", len(synced), ", ".join(sorted(self.runtime.specs)))

    async def _sync_commands(self, store: Store) -> list[app_commands.AppCommand]:
        """Globally, or to ``DEV_GUILD_ID`` alone. A server synced to alone before keeps its
        copies until they are cleared, and would show every command twice beside the global
        ones: each start clears those of the servers it no longer syncs to alone."""
        dev = self.settings.dev_guild_id
        kept: set[int] = set()
        for old in sorted(await store.command_guilds() - {dev or 0}):
            guild = discord.Object(id=old)
            self.tree.clear_commands(guild=guild)
            try:
                await self.tree.sync(guild=guild)
                log.info("cleared the commands synced to server %d alone before (DEV_GUILD_ID)", old)
            except (discord.Forbidden, discord.NotFound):
                pass  # the bot is no longer in that server, and its commands went with it
            except discord.HTTPException as exc:
                kept.add(old)  # tried again at the next start
                log.warning("could not clear the commands synced to server %d before (%s): they show twice "
                            "there until the next start clears them", old, exc.status)
        if dev:
            guild = discord.Object(id=dev)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound):
                raise CannotStart(f"DEV_GUILD_ID {dev}: the bot is not in that server (or was invited without the "
                                  "applications.commands scope), or it is no server's id (in Discord turn on "
                                  "Developer Mode, then right-click the server's icon → Copy Server ID; or unset "
                                  "DEV_GUILD_ID)", again=False) from None
            kept.add(dev)
            try:
                doubled = bool(await self.tree.fetch_commands())
            except discord.HTTPException:
                doubled = False  # only a warning hangs on it: the bot starts all the same
            if doubled:
                log.warning("commands synced globally before show twice in server %d beside its own copies; "
                            "they go once DEV_GUILD_ID is unset", dev)
        else:
            synced = await self.tree.sync()
        await store.put_command_guilds(kept)
        return synced

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """The host's and the cogs' persistent items, routed by on_interaction below rather than
        by discord.py, which first rebuilds the clicked message's whole view (a layout's dozens
        of items, in reference cycles the collector must then free) only to find the item that
        the custom id alone names."""
        self.claimed.extend(items)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord lets ``identify_concurrency`` shards identify every 5 seconds. Processes of a
        cluster start together, so each shard waits for its own slot counted from the cluster's
        start; a lone process keeps discord.py's own pacing."""
        started = self.settings.cluster_started_at
        if started is None or shard_id is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        slot = started + (shard_id // self.settings.identify_concurrency) * IDENTIFY_GAP
        wait = slot - time.time()
        if wait > 0:
            log.info("shard %s identifies in %.1f s, in its turn", shard_id, wait)
            await asyncio.sleep(wait)
        elif not initial:
            await asyncio.sleep(IDENTIFY_GAP)  # a reconnect long after the start: Discord's own pace

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self._frozen:
            # Everything loaded so far (discord.py, the cogs, the command tree) lives as long as
            # the process: moved out of the collector's sight, a full collection walks only what
            # games create, and stops pausing every click in flight for tens of milliseconds.
            gc.collect()
            gc.freeze()
            # A click leaves no reference cycles (tests/test_no_collector.py): what it builds
            # goes by reference counting, and the collector finds next to nothing. Run every
            # 700 new objects, it would walk the clicks in flight again and again for nothing;
            # every 20,000, it runs a few times in a thousand clicks.
            gc.set_threshold(YOUNG_OBJECTS_COLLECTED, 10, 10)
            self._frozen = True
        if self._left_behind is None:
            self._left_behind = asyncio.create_task(show_tables_left_behind(self.runtime), name="left behind")

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %s of %s is ready", shard_id, self.shard_count)
        # A server that invited the bot back while it was offline keeps its data; one that
        # removed it meanwhile sent no event, and is missing from the servers Discord lists.
        try:
            store = self.runtime.store
            left = set(await store.guilds_left())
            here = {guild.id for guild in self.guilds if guild.shard_id == shard_id}
            for guild_id in here & left:
                await store.mark_guild_back(guild_id)
            for guild_id in await store.guilds_hosted() - here - left:
                if (guild_id >> 22) % (self.shard_count or 1) == shard_id:
                    log.info("server %s removed the bot while it was away: its data goes after the grace period",
                             guild_id)
                    await store.mark_guild_left(guild_id, time.time())
                    await self._cancel_unseen(await store.live_in_guild(guild_id), SERVER_LEFT)
            # a channel deleted meanwhile sent no event either: an untimed game there would
            # stay in play for good, unseen (a timed one's timer finds it gone)
            for game_id, guild_id, channel_id in await store.live_channels():
                if guild_id in here and not await still_there(self, channel_id):
                    await self._cancel_unseen([game_id], CHANNEL_GONE)
        except Exception:
            if not self.is_closed():  # stopping already: the next start looks again
                log.warning("could not check which servers came back", exc_info=True)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data goes after a grace period, unless it invites us back.
        Its games are cancelled now: the bot can show them nowhere, and their timers would
        play them out unseen into the players' stats."""
        await self.runtime.store.mark_guild_left(guild.id, time.time())
        await self._cancel_unseen(await self.runtime.store.live_in_guild(guild.id), SERVER_LEFT)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted: its game ends (its threads' games too: discord.py tells of each
        thread it knew, below, and the timers of the rest find them gone)."""
        await self._channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread deleted (not archived: an archived thread's game goes on, and its next table
        opens the thread again)."""
        await self._channel_gone(payload.thread_id)

    async def _channel_gone(self, channel_id: int) -> None:
        try:
            table = await self.runtime.store.live_in_channel(channel_id)
        except Exception:
            log.warning("could not look for a game in deleted channel %s; its timer finds it gone", channel_id,
                        exc_info=True)
            return
        if table is not None:
            await self._cancel_unseen([table.id or 0], CHANNEL_GONE)

    async def _cancel_unseen(self, games: list[int], why: str) -> None:
        for game_id in games:
            try:
                async with GATE.step():
                    await cancel_unseen(self.runtime, game_id, why)
            except Exception:
                log.warning("game %s: %s, and it could not be cancelled", game_id, why, exc_info=True)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.runtime.store.mark_guild_back(guild.id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a persistent item goes to its callback. One that none claims (a forged,
        cut or long-gone id), or that its message does not carry, is answered all the same, so
        nobody sees "This interaction failed"."""
        if interaction.type != discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        try:
            for kind in self.claimed:
                match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
                if match is not None:
                    clicked = await kind.from_custom_id(interaction, discord.ui.Button(custom_id=custom_id), match)
                    await clicked.callback(interaction)
                    return
            await tell(interaction, "That button is no longer in use.")
        finally:
            let_go(interaction)

    def _interaction_created(self, data: dict[str, Any]) -> None:
        """A click whose id its message does not carry (forged, or cut) has its id blanked: no
        item claims it, and it is answered as one no longer in use. Every interaction names its
        channel's newest message: whether chat came below a table since."""
        message, clicked = data.get("message"), data.get("data")
        if data.get("type") == discord.InteractionType.component.value and isinstance(clicked, dict):
            if message is None or not layout.carries(message.get("components") or (), clicked.get("custom_id")):
                clicked["custom_id"] = ""
            if message is not None:
                message["components"] = []
        channel = data.get("channel")
        if isinstance(channel, dict) and self.runtime is not None:
            newest, where = str(channel.get("last_message_id")), str(channel.get("id"))
            if newest.isdigit() and where.isdigit():
                self.runtime.note_newest(int(where), int(newest))
        self._parse_interaction(data)

    async def shut_down(self, patience: float) -> None:
        """A clean stop (SIGTERM, SIGINT): no new clicks, the steps in flight saved and shown,
        then the store and the connection closed."""
        log.info("stopping: finishing the steps in flight (at most %.0f s)", patience)
        if not await GATE.close(patience):
            log.warning("stopping with %d step(s) still in flight", GATE.active)
        await self.close()

    async def close(self) -> None:
        GATE.open = False
        for task in (self._deadline_task, self._retention_task, self._left_behind):
            if task:
                task.cancel()
        if self._metrics is not None:
            await self._metrics.cleanup()
            self._metrics = None
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
