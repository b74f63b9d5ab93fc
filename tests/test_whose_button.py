"""A click on another seat's button says whose it is, even while both seats choose at once (the
fuzz campaign found "Not your turn" told to a player whose turn it was, pressing a button of
someone else's private copy during a sealed ante)."""

from __future__ import annotations

import pytest

from bot.errors import Refusal
from bot.models import Seat, Table
from bot.step import Moment, read_click
from tests.fixtures.tables import game_specs


def ante() -> Moment:
    spec = next(s for s in game_specs() if s.engine.key == "roll_the_bones")
    state = spec.engine.new_game(3, spec.engine.Options(), 5)
    table = Table(id=1, guild_id=1, channel_id=1, game="roll_the_bones", host_id=1, seed=5, status="active",
                  seats=[Seat(user_id=i + 1, name=n) for i, n in enumerate(("Ann", "Bob", "Cy"))],
                  state=state.model_dump(mode="json"), version=1)
    now = Moment(spec, table)
    assert len(now.acting) == 3, "every seat antes at once"
    return now


def test_a_seat_choosing_too_is_told_the_button_is_another_s() -> None:
    now = ante()
    with pytest.raises(Refusal) as refused:
        read_click(now, 1, 0, now.stamp(0), [0])
    said = str(refused.value)
    assert "Ann's" in said and "Not your turn" not in said


def test_its_own_button_still_counts() -> None:
    now = ante()
    assert read_click(now, 1, 1, now.stamp(1), [0])[0] == 1
