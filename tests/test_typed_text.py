"""What a user typed, said back in a refusal, shows as text: on one line, its mentions and
markdown not applied, a backtick unable to close a code span (the fuzz campaign's bad-input
client found refusals quoting typed text in backticks, and seat names as typed)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.errors import Refusal
from bot.models import Seat, Table
from bot.render import quote
from bot.seats import find_seat
from bot.server_commands import ServerCommands
from cogs.stones_and_bones.money import parse_coins

LACED = "```\n@everyone **bold** <@&123>\n> quote\n```"


def applied(text: str) -> list[str]:
    """Markdown or mentions in ``text`` that Discord would apply."""
    found = [mark for mark in ("@everyone", "**bold**", "<@&", "```") if mark in text]
    found += [line for line in text.split("\n") if line.startswith(("> ", "# "))]
    return found


def test_a_quote_is_one_line_of_text() -> None:
    said = quote(LACED)
    assert "\n" not in said
    assert applied(said) == []
    assert said.startswith("“") and said.endswith("”")
    assert len(quote("x" * 500)) < 100


def test_no_seat_found_says_the_typed_text_and_the_names_as_text() -> None:
    table = Table(guild_id=1, channel_id=1, game="knucklebones", host_id=1, seed=1,
                  seats=[Seat(user_id=1, name="@everyone **Host**"), Seat(name="Gus", ai=True)])
    with pytest.raises(Refusal) as refused:
        find_seat(table, LACED)
    assert "No seat matches" in str(refused.value)
    assert applied(str(refused.value)) == []


def test_an_npc_is_found_by_the_start_of_a_word_of_its_name_when_that_names_one_seat_alone() -> None:
    table = Table(guild_id=1, channel_id=1, game="stones_and_bones", host_id=9, seed=1, host_plays=False,
                  seats=[Seat(user_id=1, name="Joanna"), Seat(name="One-Eyed Mags", ai=True),
                         Seat(name="Salty Magnus", ai=True), Seat(user_id=2, name="Peter")])
    assert find_seat(table, "mags") == 1 and find_seat(table, "SALTY") == 2 and find_seat(table, "eyed") == 1
    with pytest.raises(Refusal, match="could be 2 seats; give more of the name"):
        find_seat(table, "mag")
    # a player is never found by part of their name: /game unseat removes no one by mistake
    for typed in ("ann", "pete", "ma", "gnus"):
        with pytest.raises(Refusal, match="No seat matches"):
            find_seat(table, typed)


def test_a_mention_of_someone_without_a_seat_names_them_and_the_game_master_as_such() -> None:
    table = Table(guild_id=1, channel_id=1, game="stones_and_bones", host_id=9, seed=1, host_plays=False,
                  seats=[Seat(user_id=1, name="Ann")])
    with pytest.raises(Refusal) as refused:
        find_seat(table, "<@9>")
    assert str(refused.value) == "<@9> runs this table as its game-master and has no seat (seats: 1. Ann)."
    with pytest.raises(Refusal) as refused:
        find_seat(table, "<@!5>")
    assert str(refused.value) == "<@5> has no seat at this table (seats: 1. Ann)."


@pytest.mark.parametrize("typed", [LACED, "5gp 5gp `x`", "0 @everyone"])
def test_an_amount_it_cannot_read_is_said_back_as_text(typed: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_coins(typed)
    assert applied(str(refused.value)) == []


def test_an_unknown_game_in_the_settings_is_said_back_as_text() -> None:
    spec = SimpleNamespace(command="knucklebones", engine=SimpleNamespace(title="Knucklebones"))
    cog = SimpleNamespace(runtime=SimpleNamespace(specs={"knucklebones": spec}))
    with pytest.raises(Refusal) as refused:
        ServerCommands._games(cog, "@everyone **bold**, knucklebones")  # type: ignore[arg-type]
    assert "No game is called" in str(refused.value)
    assert applied(str(refused.value)) == []
