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

# Three base64url parts, as Discord issues them; checked so a pasted client secret or a
# truncated token fails with one clear line instead of a login traceback.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


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
    default_timer_seconds: int = Field(300, ge=0)
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

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ranges(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @field_validator("dev_guild_id")
    @classmethod
    def _server_id(cls, value: int | None) -> int | None:
        if value is not None and not 0 < value < 2**64:
            raise ValueError("it is a server's id: in Discord turn on Developer Mode, then right-click the "
                             "server's icon → Copy Server ID")
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
    return str(cause) if cause is not None else str(err["msg"])


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
