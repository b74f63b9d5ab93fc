"""Start-up with bad settings: one clear line, exit code 2, and the token never printed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FAKE_TOKEN, REPO_ROOT


def start(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in an empty folder (no .env) with only these settings."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_LEVEL", "GAME_SEED"))}
    clean["PYTHONPATH"] = str(REPO_ROOT)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def test_a_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "missing" in lines[0], run.stderr
    assert not (tmp_path / "boneyard.sqlite3").exists()


@pytest.mark.parametrize("token", ["not-a-token", "abc.def", "client-secret-pasted-by-mistake-0123456789"])
def test_a_malformed_token_exits_2_and_is_not_echoed(tmp_path: Path, token: str) -> None:
    run = start(tmp_path, DISCORD_TOKEN=token)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], run.stderr
    assert token not in run.stderr + run.stdout


def test_a_bad_setting_beside_a_good_token_names_the_setting_not_the_token(tmp_path: Path) -> None:
    run = start(tmp_path, DISCORD_TOKEN=FAKE_TOKEN, LOG_LEVEL="LOUD")
    assert run.returncode == 2
    assert "LOG_LEVEL" in run.stderr and FAKE_TOKEN not in run.stderr + run.stdout


def test_the_token_is_read_from_dotenv(tmp_path: Path) -> None:
    """A .env with a good token and a bad log level: the token was found (only LOG_LEVEL fails)."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\nLOG_LEVEL=LOUD\n")
    run = start(tmp_path)
    assert run.returncode == 2
    assert "LOG_LEVEL" in run.stderr and "DISCORD_TOKEN" not in run.stderr


async def test_a_second_bot_on_the_same_sqlite_file_exits_2_and_the_first_keeps_working(tmp_path: Path) -> None:
    """Started by hand while the service's runs: each would keep its own copy of the live games,
    and the first would refuse every click on a game the second wrote."""
    from bot.models import Seat, Table
    from bot.store import SqliteStore

    first = await SqliteStore.open(tmp_path / "boneyard.sqlite3", sole=True)
    try:
        table = await first.create(Table(guild_id=1, channel_id=2, game="knucklebones", host_id=7,
                                         seats=[Seat(user_id=7, name="Ann")], seed=1))
        run = await asyncio.to_thread(start, tmp_path, DISCORD_TOKEN=FAKE_TOKEN,
                                      DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1, run.stderr
        assert lines[0] == (f"boneyard: cannot start: another Boneyard (process {os.getpid()}) is running on the "
                            "SQLite database boneyard.sqlite3: stop that one first, or give this one its own "
                            "DATABASE_PATH")
        table.version = 1
        await first.save(table, 0)
        assert (await first.get(table.id or 0)).version == 1  # type: ignore[union-attr]
    finally:
        await first.close()


@pytest.mark.parametrize(("setting", "value", "said"), [
    # the bounds /game timer and /boneyard settings hold a host to, in their words
    ("DEFAULT_TIMER_SECONDS", "5", "a turn timer is 15 seconds or more (0 turns it off)"),
    ("DEFAULT_TIMER_SECONDS", "90000", "a turn timer is 15 to 86400 seconds (0 turns it off)"),
    ("DEFAULT_TIMER_SECONDS", "-1", "a turn timer is 15 to 86400 seconds (0 turns it off)"),
    # what a number setting wants, where pydantic said "Input should be a valid integer"
    ("DEFAULT_TIMER_SECONDS", "5m", "it is a number of seconds, e.g. 300 for five minutes (0 turns timers off)"),
    ("METRICS_PORT", "abc", "it is a port number from 1 to 65535, e.g. 9100"),
    ("METRICS_PORT", "70000", "it is a port number from 1 to 65535, e.g. 9100"),
    ("LOG_FORMAT", "xml", "it is text, or json for a log collector (one JSON object a line)"),
    ("DEV_GUILD_ID", "https://discord.com/channels/@me/123", "it is a server's id, e.g. 123456789012345678: in "
     "Discord turn on Developer Mode, then right-click the server's icon → Copy Server ID (a link to one of its "
     "channels does too)"),
])
def test_a_setting_out_of_its_range_says_what_it_wants(setting: str, value: str, said: str) -> None:
    from pydantic import ValidationError

    from bot.config import Settings, bad_settings

    with pytest.raises(ValidationError) as refused:
        Settings(discord_token=FAKE_TOKEN, _env_file=None, **{setting.lower(): value})  # type: ignore[arg-type]
    assert bad_settings(refused.value) == f"{setting}: {said}"


@pytest.mark.parametrize(("setting", "value", "read"), [
    ("DEFAULT_TIMER_SECONDS", "0", 0),  # no timer
    ("DEFAULT_TIMER_SECONDS", "15", 15),
    ("DEFAULT_TIMER_SECONDS", "86400", 86400),
    ("LOG_FORMAT", "JSON", "json"),  # any case, as LOG_LEVEL
    ("DEV_GUILD_ID", "https://discord.com/channels/123456789012345678/234567890123456789", 123456789012345678),
    ("DEV_GUILD_ID", "https://canary.discord.com/channels/123456789012345678/2/3", 123456789012345678),
])
def test_a_setting_is_read_as_an_admin_would_write_it(setting: str, value: str, read: object) -> None:
    from bot.config import Settings

    settings = Settings(discord_token=FAKE_TOKEN, _env_file=None, **{setting.lower(): value})  # type: ignore[arg-type]
    assert getattr(settings, setting.lower()) == read


def test_a_short_timer_is_left_to_a_discord_of_one_s_own() -> None:
    """The end-to-end tests run their timers out in a second or two, against their fake Discord."""
    from bot.config import Settings

    settings = Settings(discord_token=FAKE_TOKEN, _env_file=None, default_timer_seconds=2,  # type: ignore[call-arg]
                        discord_api_base="http://127.0.0.1:9/api/v10")
    assert settings.default_timer_seconds == 2


def test_a_timer_under_15_seconds_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    run = start(tmp_path, DISCORD_TOKEN=FAKE_TOKEN, DEFAULT_TIMER_SECONDS="5")
    assert run.returncode == 2
    assert run.stderr.strip() == ("boneyard: cannot start: DEFAULT_TIMER_SECONDS: a turn timer is 15 seconds or more "
                                  "(0 turns it off)")


async def test_a_game_seed_left_set_is_warned_of_at_start(tmp_path: Path) -> None:
    """Forgotten in a .env, GAME_SEED gives every new game the same dice, without a word."""
    from bot.store import SqliteStore

    held = await SqliteStore.open(tmp_path / "boneyard.sqlite3", sole=True)  # so it stops after its first lines
    try:
        run = await asyncio.to_thread(start, tmp_path, DISCORD_TOKEN=FAKE_TOKEN, GAME_SEED="7")
    finally:
        await held.close()
    first = run.stderr.splitlines()[0]
    assert " WARNING " in first and first.endswith(
        "GAME_SEED=7: every new game deals the same dice: for tests only; unset it"), run.stderr
    assert run.returncode == 2


def test_a_game_seed_against_a_discord_of_one_s_own_is_what_tests_mean() -> None:
    from bot.config import Settings

    assert Settings(discord_token=FAKE_TOKEN, _env_file=None, game_seed=7,  # type: ignore[call-arg]
                    discord_api_base="http://127.0.0.1:9/api/v10").warnings == []
    assert Settings(discord_token=FAKE_TOKEN, _env_file=None).warnings == []  # type: ignore[call-arg]
