"""Settings, read from the environment or a `.env` file in the working directory."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Three base64url parts, as Discord issues them; checked so a pasted client secret or a
# truncated token fails with one clear line instead of a login traceback.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="The bot token from the Discord developer portal.")
    database_path: Path = Path("boneyard.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    default_timer_seconds: int = Field(300, ge=0)
    #: extra extension modules with game cogs of your own, comma-separated
    extra_cogs: str = ""
    #: every new game gets these dice (to replay a reported game); unset: a fresh random seed
    game_seed: int | None = Field(None, ge=0, lt=2**63)

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if token.lower().startswith("bot "):
            token = token[4:]
        if not _TOKEN_SHAPE.match(token):
            raise ValueError("DISCORD_TOKEN does not look like a bot token")
        return SecretStr(token)

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        value = value.upper()
        if value not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return value

    @field_validator("dev_guild_id", "discord_api_base", "discord_gateway_url", "game_seed", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if value == "" else value
