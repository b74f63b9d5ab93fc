"""Why the bot did not start, in one line that says what to do, and whether starting it again can
help: exit 1 when it can (a database or Discord not reachable yet: a supervisor, or
boneyard-cluster, tries again), exit 2 when a setting must change first (the cluster then stops
instead of restarting a process that cannot start, forever). The lines name settings and places,
never a password: what Python or a driver says is shown only where it cannot hold one."""

from __future__ import annotations

import sqlite3

import asyncpg

from bot.store import SchemaTooNew, Store, StoreInUse, Target, open_store


class CannotStart(Exception):
    def __init__(self, line: str, *, again: bool) -> None:
        super().__init__(line)
        self.exit_code = 1 if again else 2


def store_failure(target: Target, exc: BaseException) -> CannotStart:
    """What the admin is told when the store does not open (``boneyard doctor`` says the same)."""
    if isinstance(exc, SchemaTooNew):
        return CannotStart(str(exc), again=False)
    if isinstance(exc, StoreInUse):  # started by hand beside the service's, say: it would undo its moves
        return CannotStart(f"{exc}: stop that one first, or give this one its own {target.setting}", again=False)
    if target.dialect == "sqlite":
        return CannotStart(f"cannot open the SQLite database {target.shown} ({_reason(exc)}): check that its "
                           f"folder exists and that the bot may write there ({target.setting})", again=False)
    if isinstance(exc, OSError | TimeoutError):  # refused or unreachable: it may be starting still
        return CannotStart(f"cannot reach PostgreSQL at {target.shown} ({type(exc).__name__}): check that it "
                           "runs, and DATABASE_URL's host and port", again=True)
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        # PostgreSQL 15 and later: only the database's owner may create tables in public
        return CannotStart(f"PostgreSQL at {target.shown} does not let the bot connect or create its tables: make "
                           "its user the database's owner (ALTER DATABASE … OWNER TO …), or GRANT CONNECT ON "
                           "DATABASE and CREATE ON SCHEMA public TO it", again=False)
    if isinstance(exc, ValueError):  # asyncpg reading a URL its own way: never echoed, it may hold the password
        return CannotStart("the PostgreSQL URL does not read as one: percent-encode / # ? @ : in the password "
                           "(%2F %23 %3F %40 %3A)", again=False)
    # the server answered and said no: a password, a database's name, a right
    return CannotStart(f"PostgreSQL at {target.shown} refused the bot ({type(exc).__name__}): check "
                       "DATABASE_URL's user, password and database", again=False)


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


async def opened(target: Target) -> Store:
    """The store, or why not."""
    try:
        return await open_store(target, sole=True)
    except (OSError, TimeoutError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError,
            SchemaTooNew, StoreInUse) as exc:
        raise store_failure(target, exc) from None
    except ValueError as exc:
        if target.dialect != "postgres":
            raise
        raise store_failure(target, exc) from None
