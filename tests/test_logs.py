"""What an admin reads in the log while Discord is out of reach."""

from __future__ import annotations

import io
import logging

import pytest

from bot import logs


def test_a_reconnect_is_one_line_naming_its_cause_and_never_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(logs.sys, "stderr", out)
    root = logging.getLogger()
    kept = root.handlers[:], root.level
    try:
        logs.setup("INFO", "all shards", secrets=["Sekrit.Token.Value"])
        try:
            raise ConnectionRefusedError(111, "Connect call failed Sekrit.Token.Value")
        except OSError:
            logging.getLogger("discord.client").exception("Attempting a reconnect in %.2fs", 4.5)
        try:
            raise ValueError("a bug")
        except ValueError:
            logging.getLogger("bot.runtime").exception("a click failed")
    finally:
        root.handlers[:], level = kept[0], kept[1]
        root.setLevel(level)
    lines = out.getvalue().splitlines()
    reconnect = [line for line in lines if "Attempting a reconnect" in line]
    assert len(reconnect) == 1 and " WARNING " in reconnect[0], lines
    assert "in 4.50s (ConnectionRefusedError: " in reconnect[0] and "Sekrit" not in out.getvalue()
    # another error keeps its traceback
    assert any("Traceback" in line for line in lines) and any("ValueError: a bug" in line for line in lines)


def test_debug_is_the_bot_s_own_lines_not_discord_s_payloads() -> None:
    """discord.py writes every gateway event (a click's interaction token, players' names), every
    request's body and every follow-up's URL at DEBUG: those loggers stay at INFO."""
    root = logging.getLogger()
    kept = root.handlers[:], root.level
    try:
        logs.setup("DEBUG", "all shards")
        assert logging.getLogger("bot.runtime").isEnabledFor(logging.DEBUG)
        for name in ("discord.gateway", "discord.http", "discord.webhook.async_"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
            assert logging.getLogger(name).isEnabledFor(logging.INFO), name
    finally:
        root.handlers[:], level = kept[0], kept[1]
        root.setLevel(level)
