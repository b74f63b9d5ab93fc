"""A server's turn timer stays within what /boneyard settings declares, whatever a client
sends (the fuzz campaign's bad-input client saved -1 s and 86,401 s, which Discord's own client
never sends)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.errors import Refusal
from bot.server_commands import ServerCommands
from bot.store.records import ServerSettings


def changed(default_timer: int) -> ServerSettings:
    return ServerCommands._changed(SimpleNamespace(), ServerSettings(guild_id=1), None, False,  # type: ignore[arg-type]
                                   default_timer, None, None, None, False, None)


@pytest.mark.parametrize("seconds", [-1, -(2**53), 86401, 2**53])
def test_a_timer_past_the_declared_range_is_refused(seconds: int) -> None:
    with pytest.raises(Refusal, match="15 to 86400 seconds"):
        changed(seconds)


@pytest.mark.parametrize("seconds", [0, 15, 86400])
def test_a_timer_within_it_is_kept(seconds: int) -> None:
    assert changed(seconds).default_timer == seconds
