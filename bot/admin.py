"""``boneyard backup PATH`` and ``boneyard doctor``: what an admin runs beside a live bot; and
``boneyard restore BACKUP``, which waits for it to be stopped.

A backup of a SQLite store uses SQLite's online backup, page by page under the database's own
locks, so a bot writing meanwhile (WAL mode) never yields a torn copy; the copy is checked
before it is called done. PostgreSQL has its own tool for that, and the admin is told so.
The doctor reads the same settings the bot does and says, a line per problem, what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import importlib.util
import os
import socket
import sqlite3
import sys
import time
from pathlib import Path

import aiohttp
import asyncpg
from pydantic import ValidationError

from bot.config import DISCORD_API, Settings, StoreSettings, bad_settings, said, unknown_settings
from bot.startup import store_failure
from bot.store import SchemaTooNew, _migrations
from bot.store.base import StoreInUse, Target
from bot.store.sqlite import held, hold


def _sqlite_store(command: str, usage: str, argv: list[str], postgres: str) -> Target | None:
    """The SQLite store a file command works on, or None once it has said why not (a wrong
    argument, bad settings, or the games in PostgreSQL: ``postgres`` says which tool to use)."""
    if len(argv) != 1 or argv[0].startswith("-"):
        print(f"usage: boneyard {command} {usage}", file=sys.stderr)
        return None
    try:
        target = StoreSettings().store_target
    except ValidationError as exc:
        print(f"boneyard {command}: {bad_settings(exc)}", file=sys.stderr)
        return None
    if target.dialect == "postgres":
        print(f"boneyard {command}: the games are in PostgreSQL; {postgres}", file=sys.stderr)
        return None
    return target


def backup(argv: list[str]) -> int:
    target = _sqlite_store("backup", "PATH   (a consistent copy of the running SQLite store)", argv,
                           "back them up with its own tool, e.g. "
                           "pg_dump --format=custom --file=boneyard.dump \"$DATABASE_URL\"")
    if target is None:
        return 2
    source, copy = Path(target.location), Path(argv[0])
    if not source.exists():
        print(f"boneyard backup: there is no store at {target.shown} ({target.setting})", file=sys.stderr)
        return 2
    if copy.exists():
        print(f"boneyard backup: {copy} exists already; give a new file", file=sys.stderr)
        return 2
    if not copy.parent.is_dir():
        print(f"boneyard backup: there is no folder {copy.parent}; create it, or give a path in one", file=sys.stderr)
        return 2
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30) as src, sqlite3.connect(copy) as dst:
            src.backup(dst, pages=256, sleep=0.005)  # in steps, so the bot's writes go on meanwhile
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
            games = dst.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error as exc:
        copy.unlink(missing_ok=True)  # half a copy is no backup, and would block the next try
        print(f"boneyard backup: could not copy {target.shown} ({target.setting}) to {copy.resolve()} ({exc}): "
              "check that it is Boneyard's database and that both folders may be read and written", file=sys.stderr)
        return 2
    if check != "ok":
        print(f"boneyard backup: the copy failed its integrity check ({check}); it was not kept", file=sys.stderr)
        copy.unlink()
        return 1
    print(f"Backed up {games} games to {copy} (integrity check: ok).")
    return 0


def restore(argv: list[str]) -> int:
    """The backup in place of the store, with the bot stopped. The store's -wal and -shm go
    (SQLite would replay a -wal left beside it over the restored file: rows of the old store, or
    a corrupt file), and the store replaced is kept beside it: a restore can be undone."""
    target = _sqlite_store("restore", "BACKUP   (with the bot stopped: the backup in place of the SQLite store)",
                           argv, "restore them with its own tool, e.g. "
                           "pg_restore --clean --dbname=\"$DATABASE_URL\" boneyard.dump")
    if target is None:
        return 2
    backup_file, store = Path(argv[0]), Path(target.location)
    if not backup_file.is_file():
        print(f"boneyard restore: there is no file {backup_file}", file=sys.stderr)
        return 2
    try:
        lock = hold(store)
    except StoreInUse as exc:
        print(f"boneyard restore: {exc}: stop it first, then restore", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"boneyard restore: {store_failure(target, exc)}", file=sys.stderr)
        return 2
    try:
        return _restore(backup_file, store, target.shown)
    finally:
        os.close(lock)


def _restore(backup_file: Path, store: Path, shown: str) -> int:
    latest = _migrations("sqlite")[-1][0]
    incoming = store.with_name(f"{store.name}.restoring")
    incoming.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as src:
            check = src.execute("PRAGMA integrity_check").fetchone()[0]
            schema = src.execute("PRAGMA user_version").fetchone()[0]
            games = src.execute("SELECT COUNT(*) FROM games").fetchone()[0] if check == "ok" else 0
            if check == "ok" and schema <= latest:
                with contextlib.closing(sqlite3.connect(incoming)) as dst:
                    src.backup(dst)
    except sqlite3.Error as exc:
        incoming.unlink(missing_ok=True)
        print(f"boneyard restore: {backup_file} is no Boneyard backup ({exc}); the store was left as it was",
              file=sys.stderr)
        return 2
    if check != "ok":
        print(f"boneyard restore: {backup_file} failed its integrity check ({check}); the store was left as it was",
              file=sys.stderr)
        return 2
    if schema > latest:
        incoming.unlink(missing_ok=True)
        print(f"boneyard restore: {SchemaTooNew(schema, latest)}; the store was left as it was", file=sys.stderr)
        return 2
    kept = None
    if store.exists():  # copied with its -wal, whatever it holds: the restore can be undone
        kept = store.with_name(f"{store.name}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
        # (closed before the files are replaced: Windows refuses to remove a file still open)
        with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as old, \
                contextlib.closing(sqlite3.connect(kept)) as aside:
            old.backup(aside)
    for leftover in (Path(f"{store}-wal"), Path(f"{store}-shm"), Path(f"{store}-journal")):
        leftover.unlink(missing_ok=True)
    os.replace(incoming, store)
    print(f"Restored {games} games from {backup_file} to {shown} (integrity check: ok)."
          + (f" The store it replaced is kept as {kept}." if kept else ""))
    return 0


def doctor(argv: list[str]) -> int:
    """One line per problem and what to do about it; exit 1 if there is any. Run beside the
    bot, it says so (the store it reads and the port it serves are the bot's own, not problems)."""
    problems = settings_problems()
    if not problems:  # a token of the right shape: does Discord take it? the cogs, are they there?
        settings = Settings()
        problems += asyncio.run(discord_problems(settings))
        problems += cog_problems(settings)
    try:
        stored = StoreSettings()
    except ValidationError:
        stored = None  # its problems are listed already: the store and port cannot be looked at
    notes = []
    if stored is not None:
        target = stored.store_target
        running = held(target.location) if target.dialect == "sqlite" else None
        problems += asyncio.run(store_problems(stored))
        if running is not None:
            port = f" (METRICS_PORT {stored.metrics_port} is its own)" if stored.metrics_port is not None else ""
            notes.append(f"{str(running)[0].upper()}{str(running)[1:]}{port}: a second would not start beside it")
        else:
            problems += port_problems(stored)
    for line in problems:
        print(f"✗ {line}")
    for line in notes:
        print(f"ℹ {line}")
    if not problems:
        print("✓ Settings, database and metrics port are all in order.")
    for line in unknown_settings():  # maybe another tool's: a warning, not a problem
        print(f"⚠ {line}")
    return 1 if problems else 0


def settings_problems() -> list[str]:
    try:
        Settings()
    except ValidationError as exc:
        out = []
        for err in exc.errors(include_input=False):
            name = ".".join(str(p) for p in err["loc"]).upper()
            if name == "DISCORD_TOKEN" and err["type"] == "missing":
                out.append("DISCORD_TOKEN is not set: copy the bot token from the Discord developer portal "
                           "(Bot → Reset Token) into the environment or .env")
            elif name == "DISCORD_TOKEN":
                out.append("DISCORD_TOKEN does not look like a bot token (three parts with dots): copy it again "
                           "from the developer portal, not the client secret or the application id")
            else:
                out.append(f"{name + ': ' if name else ''}{said(err)}; fix it in the environment or .env")
        return out
    return []


async def discord_problems(settings: Settings) -> list[str]:
    """Whether Discord takes the token, asked as the bot's login asks (GET /users/@me)."""
    base = (settings.discord_api_base or DISCORD_API).rstrip("/")
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http, \
                http.get(f"{base}/users/@me", headers=headers) as answer:
            if answer.status == 401:
                return ["Discord refused DISCORD_TOKEN (it was reset, or belongs to another application): reset it "
                        "in the developer portal (Bot → Reset Token) and copy the new one into the environment or .env"]
            if answer.status >= 400:
                return [f"Discord answered {answer.status} when asked about the token: try again in a while"]
        if settings.dev_guild_id is not None:  # where the bot syncs its commands at start
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http, \
                    http.get(f"{base}/guilds/{settings.dev_guild_id}", headers=headers) as answer:
                if answer.status in (403, 404):
                    return [f"DEV_GUILD_ID {settings.dev_guild_id} is no server this bot is in: invite it there "
                            "(see the README), or unset DEV_GUILD_ID to sync the commands globally"]
    except (aiohttp.ClientError, TimeoutError) as exc:
        return [f"Discord cannot be reached from here ({type(exc).__name__}): check this machine's network and DNS"]
    return []


def cog_problems(settings: Settings) -> list[str]:
    """An EXTRA_COGS module this Python cannot find stops the bot at start: said as it says it.
    Looked up, not imported: the doctor runs none of its code."""
    out = []
    for name in (n.strip() for n in settings.extra_cogs.split(",")):
        try:
            found = bool(name) and importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a package on its path is missing
            found = False
        if name and not found:
            out.append(f"EXTRA_COGS: {name} is no module this Python can import (install it into the bot's .venv "
                       "with pip, or put its folder on PYTHONPATH)")
    return out


async def store_problems(stored: StoreSettings) -> list[str]:
    """What would stop the bot opening its store, worded as the bot itself would say it."""
    target = stored.store_target
    latest = _migrations("postgres" if target.dialect == "postgres" else "sqlite")[-1][0]
    try:
        if target.dialect == "postgres":
            conn = await asyncio.wait_for(asyncpg.connect(target.location), 10)
            try:
                have = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM boneyard_schema") \
                    if await conn.fetchval("SELECT to_regclass('boneyard_schema') IS NOT NULL") else 0
                # a fresh database (schema 0) is fine, if the bot may create its tables there
                if have == 0 and not await conn.fetchval("SELECT has_schema_privilege('public', 'CREATE')"):
                    raise asyncpg.InsufficientPrivilegeError("permission denied for schema public")
            finally:
                await conn.close()
        else:
            path = Path(target.location)
            if not path.exists():  # a fresh install: the bot creates the file at its first start, if it may
                folder = path.parent
                if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
                    raise PermissionError(errno.EACCES, "the folder is missing, or the bot may not write there")
                return []
            if not os.access(path, os.R_OK | os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, "the bot may not write the file or its folder")
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                have = conn.execute("PRAGMA user_version").fetchone()[0]
    except (TimeoutError, OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error) as exc:
        return [str(store_failure(target, exc))]
    if have > latest:
        return [str(SchemaTooNew(have, latest))]
    if 0 < have < latest:
        saving = "pg_dump" if target.dialect == "postgres" else "boneyard backup"
        return [f"the database is at schema {have} of {latest}: back it up ({saving}), then start the "
                "bot once; it migrates the schema as it starts"]
    return []


def port_problems(stored: StoreSettings) -> list[str]:
    if stored.metrics_port is None:
        return []
    with socket.socket() as probe:
        try:
            probe.bind((stored.metrics_host, stored.metrics_port))
        except socket.gaierror:
            return [f"METRICS_HOST {stored.metrics_host} is no address of this machine: use 127.0.0.1, or 0.0.0.0 "
                    "for every interface"]
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                return [f"METRICS_PORT {stored.metrics_port} on {stored.metrics_host} cannot be served "
                        f"({exc.strerror}): choose another port, or fix METRICS_HOST"]
            return [f"METRICS_PORT {stored.metrics_port} on {stored.metrics_host} is taken (another Boneyard, or "
                    "another service): stop it or choose another port"]
    return []
