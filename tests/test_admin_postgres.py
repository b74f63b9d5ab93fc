"""`boneyard doctor` and the bot's start-up on a PostgreSQL database as an admin first makes one:
empty, and owned (or not) by the bot's user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.startup import store_failure
from bot.store import open_store
from bot.store.base import parse_target

REPO = Path(__file__).resolve().parent.parent


def doctor(database_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH")}
    return subprocess.run([sys.executable, "-m", "bot", "doctor"], env={**env, "DATABASE_URL": database_url},
                          cwd=cwd, capture_output=True, text=True, timeout=60)


def as_user(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:{password}@{host}"))


async def test_a_fresh_database_is_in_order_and_one_its_user_may_not_fill_is_named(pg_url: str, tmp_path: Path) -> None:
    fresh = doctor(pg_url, tmp_path)
    store_lines = [line for line in fresh.stdout.splitlines() if "DISCORD_TOKEN" not in line]
    assert store_lines == [], fresh.stdout  # a database made for the bot: it makes its tables at its first start
    # PostgreSQL 15 and later: a user granted the database, but not its owner, may not create tables
    weak = f"weak_{os.getpid()}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"DROP ROLE IF EXISTS {weak}")
        await admin.execute(f"CREATE ROLE {weak} LOGIN PASSWORD 'w3ak'")
        await admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        url = as_user(pg_url, weak, "w3ak")
        told = doctor(url, tmp_path)
        assert "does not let the bot connect or create its tables" in told.stdout and "CREATE ON SCHEMA public" in \
            told.stdout, told.stdout
        assert "w3ak" not in told.stdout + told.stderr
        try:
            await open_store(parse_target(url))
        except asyncpg.InsufficientPrivilegeError as exc:
            assert "does not let the bot connect or create its tables" in str(store_failure(parse_target(url), exc))
        else:
            raise AssertionError("the store opened without the right to create its tables")
    finally:
        await admin.execute(f"DROP OWNED BY {weak}")
        await admin.execute(f"DROP ROLE IF EXISTS {weak}")
        await admin.close()
