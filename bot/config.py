"""Settings, read from the environment or a `.env` file in the working directory."""

from __future__ import annotations

import difflib
import re
from urllib.parse import quote, urlsplit
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from dotenv import dotenv_values
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.store.base import Target, parse_target

#: Discord's API, unless DISCORD_API_BASE names another
DISCORD_API = "https://discord.com/api/v10"

#: a turn timer's bounds, as /game timer and /boneyard settings take them (0: no timer)
TIMER_MIN_SECONDS = 15
TIMER_MAX_SECONDS = 86400


def timer_fault(seconds: int) -> str | None:
    """Why a turn timer cannot be, in the words every place that sets one uses (a command's
    declared range is checked again here: a client may send anything)."""
    if not 0 <= seconds <= TIMER_MAX_SECONDS:
        return f"A turn timer is {TIMER_MIN_SECONDS} to {TIMER_MAX_SECONDS} seconds (0 turns it off)."
    if 0 < seconds < TIMER_MIN_SECONDS:
        return f"A turn timer is {TIMER_MIN_SECONDS} seconds or more (0 turns it off)."
    return None


def _as_setting(fault: str | None) -> str:
    """A refusal's sentence as a setting's complaint reads it: within a line, after a colon."""
    text = fault or ""
    return text[:1].lower() + text[1:].rstrip(".")

#: what a setting that must be a number (or one of a few words) wants, said when it is not one
#: (pydantic would say "Input should be a valid integer", naming neither the unit nor an example)
WANTS = {
    "metrics_port": "a port number from 1 to 65535, e.g. 9100",
    "default_timer_seconds": "a number of seconds, e.g. 300 for five minutes (0 turns timers off)",
    "keep_finished_days": "a number of days, e.g. 90",
    "shard_count": "a number of shards, e.g. 4",
    "identify_concurrency": "a number of shards, e.g. 1",
    "game_seed": "a whole number from 0 to 2**63-1: the seed a reported game's row holds",
    "log_format": "text, or json for a log collector (one JSON object a line)",
    "cluster_started_at": "a time in seconds (boneyard-cluster sets it)",
}

# a channel's or message's link, copied in Discord: its first number is the server's id
_SERVER_LINK = re.compile(r"^https?://(?:\w+\.)?discord(?:app)?\.com/channels/(\d+)(?:/\d+)*/?$")

# Three base64url parts, as Discord issues them; checked so a pasted client secret or a
# truncated token fails with one clear line instead of a login traceback.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


SERVER_ID = ("it is a server's id, e.g. 123456789012345678: in Discord turn on Developer Mode, then right-click "
             "the server's icon → Copy Server ID (a link to one of its channels does too)")


class StoreSettings(BaseSettings):
    """Where the games are kept: all that the admin commands (backup, doctor) need, so they run
    without a token."""

    # hide_input_in_errors: a settings error that reaches a traceback must not print a URL's password
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      hide_input_in_errors=True)

    #: sqlite:///path or postgresql://…; secret, because a PostgreSQL URL may carry a password
    database_url: SecretStr | None = None
    database_path: Path = Path("boneyard.sqlite3")
    metrics_port: int | None = Field(None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"

    @model_validator(mode="before")
    @classmethod
    def _blank_is_default(cls, data: Any) -> Any:
        """A setting left blank (``METRICS_HOST=`` in .env, or a container passing an empty
        variable) means its default, every setting alike: a blank METRICS_HOST served /metrics
        on every interface, where its default is this machine alone."""
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if not (isinstance(value, str) and not value.strip())}
        return data

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            try:
                parse_target(value.get_secret_value())
            except ValueError as exc:
                raise ValueError(str(exc)) from None  # the message never holds the URL itself
        return value

    @property
    def store_target(self) -> Target:
        """DATABASE_URL if given, else the SQLite file DATABASE_PATH."""
        if self.database_url is not None:
            return parse_target(self.database_url.get_secret_value())
        return parse_target(self.database_path)


class Settings(StoreSettings):
    discord_token: SecretStr = Field(description="The bot token from the Discord developer portal.")
    #: shards of the whole bot (unset: as many as Discord recommends, all in this process)
    shard_count: int | None = Field(None, ge=1)
    #: the shards this process runs, e.g. "0-3" or "0,2,4-5" (unset: all of them)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    #: set by boneyard-cluster: when the cluster started and how many shards Discord lets
    #: identify at once, so that processes starting together pace their IDENTIFYs
    cluster_started_at: float | None = None
    identify_concurrency: int = Field(1, ge=1)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    default_timer_seconds: int = 300
    #: days a finished game's moves (/game log) are kept; its result and the stats stay for good
    keep_finished_days: int = Field(90, ge=1)
    #: extra extension modules with game cogs of your own, comma-separated
    extra_cogs: str = ""
    #: "json": one JSON object per log line, for a log collector
    log_format: Literal["text", "json"] = "text"
    #: every new game gets these dice (to replay a reported game); unset: a fresh random seed
    game_seed: int | None = Field(None, ge=0, lt=2**63)

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if token.lower().startswith("bot "):
            token = token[4:]
        if not _TOKEN_SHAPE.match(token):
            raise ValueError("it does not look like a bot token (three parts with dots): copy it again from the "
                             "developer portal (Bot → Reset Token), not the client secret or the application id")
        return SecretStr(token)

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        value = value.upper()
        if value not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("default_timer_seconds")
    @classmethod
    def _timer(cls, value: int) -> int:
        """The bounds /game timer and /boneyard settings hold a host to, in their words (the
        lower one in _short_timer)."""
        if not 0 <= value <= TIMER_MAX_SECONDS:
            raise ValueError(_as_setting(timer_fault(value)))
        return value

    @model_validator(mode="after")
    def _short_timer(self) -> Self:
        """Under 15 seconds a player cannot read the table and answer over Discord; only a
        Discord-compatible API of one's own (DISCORD_API_BASE: the end-to-end tests run out
        their timers in a second or two) is let have it."""
        if 0 < self.default_timer_seconds < TIMER_MIN_SECONDS and self.discord_api_base is None:
            raise ValueError(f"DEFAULT_TIMER_SECONDS: {_as_setting(timer_fault(self.default_timer_seconds))}")
        return self

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _server_link(cls, value: object) -> object:
        """A link copied from the server (a channel's, a message's) names it: its first number."""
        if isinstance(value, str) and (link := _SERVER_LINK.match(value.strip())):
            return int(link[1])
        if isinstance(value, str) and not value.strip().isdigit():
            raise ValueError(SERVER_ID)
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ranges(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @field_validator("dev_guild_id")
    @classmethod
    def _server_id(cls, value: int | None) -> int | None:
        if value is not None and not 0 < value < 2**64:
            raise ValueError(SERVER_ID)
        return value

    @field_validator("discord_api_base", "discord_gateway_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^(https?|wss?)://[^/\s]+", value.strip()):
            raise ValueError("it is a URL such as https://discord.com/api/v10")
        return value.strip() if value is not None else None

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards of the whole bot)")
            if not self.shard_ids or max(self.shard_ids) >= self.shard_count:
                raise ValueError(f"SHARD_IDS must be shards 0 to {self.shard_count - 1}")
        return self

    @property
    def secrets(self) -> list[str]:
        """What no log line may show: the token, and the database's password if its URL has one."""
        found = [self.discord_token.get_secret_value()]
        if self.database_url is not None:
            password = urlsplit(self.database_url.get_secret_value()).password
            if password:
                found += [password, quote(password, safe="")]
        return found

    @property
    def warnings(self) -> list[str]:
        """What the log says at start about a setting that is fine for tests and wrong for
        players: forgotten in a .env, it would go unnoticed. (Against a Discord of one's own,
        DISCORD_API_BASE, it is what the tests mean.)"""
        if self.game_seed is not None and self.discord_api_base is None:
            return [f"GAME_SEED={self.game_seed}: every new game deals the same dice: for tests only; unset it"]
        return []

    @property
    def syncs_commands(self) -> bool:
        """One process of a cluster syncs the slash commands: the one that runs shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def shard_label(self) -> str:
        """Which shards this process runs, for its log lines."""
        if self.shard_count is None:
            return "all shards"
        ids = self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))
        return f"shard{'s' if len(ids) > 1 else ''} {format_shard_ids(ids)}/{self.shard_count}"


def unknown_settings(env_file: Path = Path(".env")) -> list[str]:
    """Lines of the .env file that set nothing Boneyard reads but look like a setting it does,
    with that setting: a typo (``METRIC_PORT=9100``) is otherwise ignored without a word. (A
    .env may hold other tools' settings too: those are left alone.)"""
    if not env_file.is_file():
        return []
    known = [name.upper() for name in Settings.model_fields]
    out = []
    for key in dotenv_values(env_file):
        if key.upper() not in known:
            near = difflib.get_close_matches(key.upper(), known, n=1, cutoff=0.75)
            if near:
                out.append(f"{key} in {env_file.resolve()} is no setting Boneyard reads (did you mean {near[0]}?)")
    return out


def said(err: Any) -> str:
    """A setting's problem as its validator words it, without pydantic's "Value error, " before it."""
    cause = err.get("ctx", {}).get("error") if err["type"] == "value_error" else None
    if cause is not None:
        return str(cause)
    wants = WANTS.get(str(err["loc"][-1])) if err["loc"] else None
    if wants and err["type"].startswith(("int_", "float_", "greater_than", "less_than", "literal_")):
        return f"it is {wants}"
    return str(err["msg"])


def bad_settings(exc: ValidationError) -> str:
    """Every setting's problem in one line, each named as the environment names it."""
    return "; ".join(
        (f"{name}: " if (name := '.'.join(str(p) for p in err['loc']).upper()) else "")
        + (f"missing (set it in the environment or in {Path('.env').resolve()})" if err["type"] == "missing"
           else said(err))
        for err in exc.errors(include_input=False)
    )


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """"0-3" or "0,2,4-5" -> (0, 1, 2, 3) or (0, 2, 4, 5)."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError('it is a list of shard numbers and ranges, e.g. "0-3" or "0,2,4-5"')
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {part} runs backwards")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def format_shard_ids(ids: tuple[int, ...] | list[int]) -> str:
    """The shortest "0-3,6" form of a set of shard numbers (what SHARD_IDS takes)."""
    out: list[str] = []
    ordered = sorted(set(ids))
    start = prev = None
    for n in [*ordered, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ",".join(out)
