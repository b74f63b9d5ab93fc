"""Engine words become table words: "Seat 2" is whoever sits there, whatever players call themselves."""

from __future__ import annotations

from bot.models import Seat, Table
from bot.render import seat_names


def table_of(*names: str) -> Table:
    return Table(guild_id=1, channel_id=1, game="stonesandbones", host_id=1, seed=1,
                 seats=[Seat(user_id=i + 1, name=n) for i, n in enumerate(names)])


def test_seats_become_names() -> None:
    table = table_of("Ann", "Bob", "One-Eyed Mags")
    assert seat_names(table, "Seat 3 gives Seat 2 5 gp.") == "One-Eyed Mags gives Bob 5 gp."


def test_a_name_that_reads_like_a_seat_is_never_rewritten_again() -> None:
    table = table_of("Ann", "Bob", "Seat 1")
    assert seat_names(table, "Seat 3 gives Seat 2 5 gp.") == "Seat 1 gives Bob 5 gp."
    assert seat_names(table_of("Seat 2", "Seat 1"), "Seat 1 pays Seat 2.") == "Seat 2 pays Seat 1."


def test_seat_ten_is_not_seat_one_and_unknown_seats_stay() -> None:
    table = table_of(*(f"P{i}" for i in range(1, 11)))
    assert seat_names(table, "Seat 10 and Seat 1") == "P10 and P1"
    assert seat_names(table_of("Ann"), "Seat 4 and Seats 1") == "Seat 4 and Seats 1"
