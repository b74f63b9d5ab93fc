"""What every game store offers, whichever database holds the games.

The runtime, the cogs and the commands only ever see this interface: a game written on SQLite or
on PostgreSQL reads, conflicts, expires and counts towards the stats the same way. The backends
differ only where the databases do (one process owning a file, or many sharing a server).
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Literal
from urllib.parse import urlsplit

import orjson

from bot.models import Book, LogEntry, Table
from bot.store.records import Luck, SavedRoll, ServerSettings, StoredRoll

#: seconds an applied interaction id is remembered (Discord retries within 15 minutes)
INTERACTIONS_KEPT = 24 * 3600.0
#: old interaction ids deleted per transaction: a day of a busy bot's clicks must not hold the
#: writer's lock, and the clicks queued behind it, in one go
INTERACTIONS_BATCH = 5000
#: when Discord's ids start counting (2015-01-01, in seconds)
DISCORD_EPOCH = 1420070400.0
#: seconds a claimed deadline belongs to the process that claimed it; if that process dies while
#: applying it, another one takes it over after this long (the game lock and the version check
#: keep a late second attempt from playing anything twice)
CLAIM_SECONDS = 30.0

Dialect = Literal["sqlite", "postgres"]


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Someone else wrote the game since it was loaded; the caller's view of it is stale."""


class DuplicateInteraction(StoreError):
    """This Discord interaction was applied already (a retried or doubled click)."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or in play."""


class StoreUnavailable(StoreError):
    """The database did not take a write in time (another program held it past the busy
    timeout, or the connection to it was lost): none of that write happened, so the same step
    may simply be tried again."""


class SchemaTooNew(StoreError):
    """The database was migrated by a newer Boneyard. This one would misread, or overwrite, what
    it does not know of: it does not start on it (a downgrade is the backup taken before)."""

    def __init__(self, have: int, known: int) -> None:
        super().__init__(f"the database is at schema {have}, newer than this Boneyard knows ({known}): "
                         "run the Boneyard that migrated it, or upgrade this one")


class StoreInUse(StoreError):
    """Another Boneyard holds this SQLite file. Each keeps its own copy of the live games (the
    file has one writer, so a click reads no row): a second would overwrite the first's moves,
    and the first refuse every click on a game the second wrote."""

    def __init__(self, location: str, pid: int | None) -> None:
        self.location, self.pid = location, pid
        super().__init__(f"{running(pid)} is running on the SQLite database {location}")


def running(pid: int | None) -> str:
    """"another Boneyard (process 123)", as a line about the one holding a SQLite file says it."""
    return f"another Boneyard (process {pid})" if pid else "another Boneyard"


class LimitReached(StoreError):
    """A new saved roll would take its owner past the number they may keep."""


#: every this many rolls of one player in one place, their rolls past the kept number are pruned
PRUNE_EVERY = 50
#: dice of more sides than this roll but do not count for /rolls stats (a d10000 has no luck to tell)
LUCK_SIDES = 100


def _migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str]]:
    """(number, SQL) of one dialect's migrations. Both dialects carry the same numbers, so a
    schema version means the same tables on either database."""
    found = []
    for entry in resources.files("bot.migrations").joinpath(dialect).iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


def first_id_at(seconds: float) -> int:
    """The smallest Discord id made at ``seconds`` or later. An id counts the milliseconds
    since DISCORD_EPOCH in its high bits, so the interactions applied before a time are the
    ids below this one: the primary key finds them, and no index on their time is kept up on
    every click."""
    return max(0, int((seconds - DISCORD_EPOCH) * 1000)) << 22


def statements(sql: str) -> list[str]:
    """A migration file as single statements (migrations hold no semicolons inside literals)."""
    return [s.strip() for s in sql.split(";") if s.strip()]


@dataclass(frozen=True)
class Target:
    """Where the games live, as DATABASE_URL (or DATABASE_PATH) names it."""

    dialect: Dialect
    #: the SQLite file, or the PostgreSQL connection string (which may hold a password)
    location: str
    #: the setting that named it, for messages that ask the admin to change it
    setting: str = "DATABASE_URL"

    @property
    def shown(self) -> str:
        """For logs and messages: never the password. A SQLite file as an absolute path: a
        relative one lies in whatever folder the bot was started from, and a bot started from
        another (a service without its working directory) makes a new, empty one there."""
        if self.dialect == "sqlite":
            return str(Path(self.location).resolve())
        parts = urlsplit(self.location)
        hosts = ",".join(f"{_bracketed(host)}{':' if port else ''}{port}" for host, port in _hosts(self.location))
        user = f"{parts.username}@" if parts.username else ""
        return f"postgresql://{user}{hosts}{parts.path}"


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host or "localhost"


def _hosts(url: str) -> list[tuple[str, str]]:
    """A PostgreSQL URL's hosts and ports, read as asyncpg reads them (several, comma-separated,
    for a failover list); a port as written, "" when there is none."""
    out = []
    for part in urlsplit(url).netloc.rpartition("@")[2].split(","):
        if part.startswith("["):
            host, _, rest = part[1:].partition("]")
            out.append((host, rest.removeprefix(":")))
        else:
            host, _, port = part.partition(":")
            out.append((host, port))
    return out


def parse_target(target: str | Path) -> Target:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db``, a bare path (SQLite), or
    ``postgresql://…`` / ``postgres://…``."""
    if isinstance(target, Path):
        return Target("sqlite", str(target), setting="DATABASE_PATH")
    text = target.strip()
    lowered = text.lower()
    if lowered.startswith(("postgresql://", "postgres://")):
        # an "@" past the hosts is a password's, unescaped: what follows its / ? or # would be
        # read (and shown) as the host, path or port
        hosts, *after_hosts = re.split(r"[/?#]", text.split("://", 1)[1], maxsplit=1)
        # and a second "@" before them: asyncpg reads the host from the first, this from the last
        if "@" in "".join(after_hosts) or hosts.count("@") > 1 or not all(port == "" or (port.isdigit() and 0 < int(port) < 65536)
                                         for _, port in _hosts(text)):
            # Never the URL, nor what was read as a port: with an unescaped "/" in the password,
            # that is a part of the password (asyncpg's own error would quote it).
            raise ValueError("the PostgreSQL URL's host or port does not read as one: percent-encode "
                             "/ # ? @ : in the password (%2F %23 %3F %40 %3A)")
        return Target("postgres", text)
    if lowered.startswith("sqlite://"):
        rest = text[len("sqlite://"):]
        if not rest.startswith("/") or rest == "/":
            raise ValueError("a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
        return Target("sqlite", rest[1:])
    if "://" in text:
        raise ValueError(f"unsupported database URL scheme: {text.split('://', 1)[0]}://")
    return Target("sqlite", text)


#: what forgetting a player deletes or changes, as ``player_data`` and ``forget_player`` count it:
#: finished games where their seat becomes a former player, their records (one per server and
#: game), their saved rolls, and their rolls (history and luck)
PLAYER_DATA = ("games", "stats", "saved_rolls", "rolls")
#: the name a forgotten player's seat shows in the games they finished
FORMER_PLAYER = "a former player"
#: games whose logs one pruning transaction deletes, so clicks wait for no long write
PRUNE_BATCH = 100
#: (user id, guild id, game) -> (played, won): a change to the per-server totals
Tally = dict[tuple[int, int, str], tuple[int, int]]


def tally(replaced: Iterable[Any], written: Iterable[Any]) -> Tally:
    """What writing ``written`` results over the ``replaced`` ones (both (user id, guild id, game,
    rank) rows) changes in the per-server totals: nothing a game that was never finished before."""
    change: dict[tuple[int, int, str], list[int]] = {}
    for sign, rows in ((-1, replaced), (1, written)):
        for user_id, guild_id, game, rank in rows:
            if user_id is None:
                continue
            counts = change.setdefault((int(user_id), int(guild_id), str(game)), [0, 0])
            counts[0] += sign
            counts[1] += sign * (rank == 1)
    return {key: (played, won) for key, (played, won) in change.items() if played or won}


def log_rows(game_id: int | None, log: Iterable[LogEntry], at: float) -> list[tuple[Any, ...]]:
    """A step's moves as the actions table holds them (game_id, version, seat, user_id, action,
    events, chapter, at), their JSON written by orjson: several times json's speed, on every
    click."""
    return [(game_id, e.version, e.seat, e.user_id, _json(e.action), _json(e.events), e.chapter, at) for e in log]


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def table_text(table: Table) -> str:
    """A table as its row holds it. Its state is a dict of JSON values already (the step's
    Moment wrote it so), which orjson writes three times as fast as pydantic, who looks at each
    value of a field typed ``Any`` anew; the rest is pydantic's."""
    return f'{table.model_dump_json(exclude={"state"})[:-1]},"state":{_json(table.state)}}}'


def book_text(book: Book) -> str:
    """A book as its row holds it: every field of it is plain JSON already, so orjson writes it
    straight from its fields, in half pydantic's time, on every click."""
    return _json(book.__dict__)


def without_player(table_json: str, user_id: int) -> str:
    """A finished game as it stays for the others once a player is forgotten: their seat is a
    former player's, with neither their id nor their name."""
    table = Table.model_validate_json(table_json)
    for seat in table.seats:
        if seat.user_id == user_id:
            seat.user_id, seat.name = None, FORMER_PLAYER
    if table.host_id == user_id:
        table.host_id = 0
    table.returning.pop(user_id, None)
    return table_text(table)


def book_without_player(book_json: str, user_id: int) -> str:
    """A finished game's bookkeeping once a player is forgotten: where their private copy was
    sent (their DM channel) goes with them."""
    book = Book.model_validate_json(book_json)
    book.dm_copies.pop(user_id, None)
    return book_text(book)


class Store(ABC):
    """One game store; ``bot.store.open_store(url_or_path)`` opens the backend the target names."""

    #: which database the backend speaks ("sqlite" or "postgres")
    dialect: ClassVar[Dialect]

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    # -- reading -----------------------------------------------------------------------------

    async def get(self, game_id: int) -> Table | None:
        """A fresh copy of the game: callers change it freely and only save() makes it count."""
        text = await self.table_json(game_id)
        return Table.model_validate_json(text) if text is not None else None

    @abstractmethod
    async def table_json(self, game_id: int) -> str | None:
        """The game as stored: the same text for the same stored game, so a reader that kept
        what it parsed of it last time knows, comparing texts, whether that still holds."""

    @abstractmethod
    async def book(self, game_id: int) -> Book:
        """What the channel shows of the game, as the last delivery left it (empty if nothing
        was delivered yet): a fresh copy, as with ``get``."""

    @abstractmethod
    async def live_in_channel(self, channel_id: int) -> Table | None: ...

    @abstractmethod
    async def live_in_guild(self, guild_id: int) -> list[int]:
        """The games in a lobby or in play in a server (the bot was removed from it)."""

    @abstractmethod
    async def live_channels(self) -> list[tuple[int, int, int]]:
        """(game, server, channel) of every game in a lobby or in play: a start looks whether
        each channel is still there."""

    @abstractmethod
    async def latest_in_channel(self, channel_id: int) -> Table | None:
        """The live game of a channel, else the one it played last."""

    @abstractmethod
    async def recent_log(self, game_id: int, limit: int = 15) -> list[LogEntry]:
        """The newest ``limit`` moves, oldest first (a negative limit: every move)."""

    async def full_log(self, game_id: int) -> list[LogEntry]:
        return await self.recent_log(game_id, limit=-1)

    @abstractmethod
    async def interaction_seen(self, interaction_id: int) -> bool: ...

    @abstractmethod
    async def games_left_behind(self, ended_since: float) -> list[int]:
        """Games whose channel does not show them: a game in play, or one that ended after
        ``ended_since``, whose book shows an older move, or a lobby that was never posted. A
        step is saved before it is shown and its book written after, so only a process stopped
        in between leaves one."""

    @abstractmethod
    async def next_deadline(self) -> tuple[int, int, float] | None:
        """(game, version, when to look again): the earliest deadline, or the end of its claim
        when another process is applying it right now."""

    @abstractmethod
    async def deadline_of(self, game_id: int) -> float | None:
        """When the decision the game waits for times out (None: no timer runs)."""

    @abstractmethod
    async def postpone_overdue(self, now: float, until: float) -> int:
        """Move every unclaimed deadline that passed (before ``now``) while the bot was down to
        ``until``: nobody could act then, so nobody should lose a turn for it."""

    @abstractmethod
    async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
        """Claim the deadlines due by ``now`` for this process, oldest first: a deadline another
        process has claimed (and not given up for CLAIM_SECONDS) is not returned, so each fires
        once however many processes look."""

    @abstractmethod
    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        """(game, played, won) for one player in one guild."""

    @abstractmethod
    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[str, int, int, int]]:
        """(game, user id, played, won) for a guild's players, most wins first within each game."""

    @abstractmethod
    async def game_counts(self) -> dict[str, int]:
        """Games stored, by status (for the metrics)."""

    @abstractmethod
    async def deadlines_due(self, now: float) -> int:
        """Turn timers whose time has come and that no process has claimed (for the metrics)."""

    @abstractmethod
    async def ping(self) -> None:
        """Raise unless the store answers a trivial query (for the health check)."""

    # -- writing -----------------------------------------------------------------------------

    @abstractmethod
    async def create(self, table: Table) -> Table: ...

    @abstractmethod
    async def save(
        self,
        table: Table,
        expected_version: int,
        *,
        log: Iterable[LogEntry] = (),
        interaction_id: int | None = None,
        deadline: float | None | Literal["keep"] = "keep",
        results: list[dict[str, Any]] | None = None,
    ) -> str:
        """Write ``table`` if the stored version is still ``expected_version``, all or nothing;
        the text written, as ``table_json`` reads it back.

        The deadline row is replaced (or removed when ``deadline`` is None) unless it is "keep",
        so a stale timer can never fire on a newer state.
        """

    @abstractmethod
    async def put_book(self, game_id: int, book: Book) -> None:
        """Write what a delivery left in the channel: no version check, as bookkeeping never
        changes the game, and the newest delivery's word is the one to keep."""

    @abstractmethod
    async def hold_interaction(self, interaction_id: int, game_id: int) -> None:
        """An interaction answered without a move (its moment had passed) goes in the ledger as
        a move's does: should Discord deliver it again once the seat's own choices have come back
        to that moment (a die added, then taken back), it must not make a move its player was
        told had not counted. Bookkeeping, not the game: no version."""

    @abstractmethod
    async def drop_deadline(self, game_id: int, version: int) -> None:
        """Forget a deadline that cannot be applied, so it does not fire forever."""

    # -- working beside other processes ------------------------------------------------------

    def game_lock(self, game_id: int) -> asyncio.Lock:
        """The lock a click holds on its game from load to save. One process owns a SQLite file,
        so an in-process lock is all it takes; a shared database adds its own."""
        return asyncio.Lock()

    def watch_deadlines(self, written: Callable[[float], None]) -> None:
        """Call ``written(due)`` when another process writes a deadline (nothing to hear when
        this process is the only one)."""
        return None

    # -- a server's settings, saved rolls and the rolls made -----------------------------------

    @abstractmethod
    async def server_settings(self, guild_id: int) -> ServerSettings:
        """A server's settings (the defaults when it never changed one)."""

    @abstractmethod
    async def put_server_settings(self, settings: ServerSettings) -> None: ...

    @abstractmethod
    async def saved_rolls(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        """One owner's saved rolls by name: a player's own (guild 0) or a server's (user 0)."""

    @abstractmethod
    async def put_saved_roll(self, roll: SavedRoll, limit: int) -> bool:
        """Save ``roll`` under its name, replacing the owner's roll of that name (True) or adding
        one (False); raise LimitReached, saving nothing, when the owner keeps ``limit`` already."""

    @abstractmethod
    async def delete_saved_roll(self, guild_id: int, user_id: int, name: str) -> bool:
        """False when the owner has no roll of that name."""

    @abstractmethod
    async def record_roll(self, roll: StoredRoll, faces: dict[tuple[int, int], int], keep: int) -> StoredRoll:
        """Keep a roll made, with the count of each (sides, natural face) it rolled for the
        player's luck; return it with its id. Every PRUNE_EVERY rolls of the player in that
        place, their rolls older than the newest ``keep`` are deleted."""

    @abstractmethod
    async def stored_roll(self, roll_id: int) -> StoredRoll | None: ...

    @abstractmethod
    async def mark_revealed(self, roll_id: int) -> bool:
        """Mark a private roll shown to the channel: True only the first time."""

    @abstractmethod
    async def roll_history(self, guild_id: int, user_id: int, limit: int = 20) -> list[StoredRoll]:
        """One player's newest rolls in one place, newest first, hidden ones included (only the
        roller is ever shown them)."""

    @abstractmethod
    async def luck(self, guild_id: int, user_id: int, *, hidden: bool) -> Luck:
        """Every die one player rolled in one place; ``hidden``: their private and secret rolls
        too (for the roller's own eyes only)."""

    @abstractmethod
    async def forget_rolls(self, guild_id: int, user_id: int) -> int:
        """Erase one player's rolls in one place; how many there were."""

    # -- keeping the data bounded, and forgetting ----------------------------------------------

    @abstractmethod
    async def prune(self, now: float, keep_days: float) -> int:
        """Delete the move logs of the games that ended more than ``keep_days`` before ``now``;
        their results and the stats stay; and the interactions applied more than
        INTERACTIONS_KEPT ago. How many moves were deleted. ``now`` is the present: a process
        looks at each game once, the next round only at the games that ended since."""

    @abstractmethod
    async def player_data(self, user_id: int) -> dict[str, int]:
        """What ``forget_player`` would delete or change, counted (the keys of PLAYER_DATA)."""

    @abstractmethod
    async def forget_player(self, user_id: int) -> dict[str, int]:
        """Delete one player's records in every server, their saved rolls and their rolls, and
        make their seats in finished games a former player's (the games and the others' results
        stay); what was done, counted as ``player_data`` counts it. Live games are left alone:
        the player is still seated there."""

    @abstractmethod
    async def mark_guild_left(self, guild_id: int, at: float) -> None:
        """The bot was removed from a server (its data goes after a grace period; the first
        time counts if it is told twice)."""

    @abstractmethod
    async def mark_guild_back(self, guild_id: int) -> None:
        """The bot is in the server again: its data stays."""

    @abstractmethod
    async def guilds_hosted(self) -> set[int]:
        """Servers with games or settings here: the bot was in each when it made them."""

    @abstractmethod
    async def guilds_left(self) -> dict[int, float]:
        """Servers the bot was removed from, and when."""

    @abstractmethod
    async def command_guilds(self) -> set[int]:
        """The servers the slash commands were last synced to one by one (``DEV_GUILD_ID``)."""

    @abstractmethod
    async def put_command_guilds(self, guilds: set[int]) -> None:
        """Those servers from now on, in place of the ones before."""

    @abstractmethod
    async def forget_guilds_left_before(self, t: float) -> int:
        """Delete everything of the servers left before ``t``: games, logs, results, stats,
        settings, saved rolls and rolls. How many servers were forgotten."""
