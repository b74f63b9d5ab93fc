"""What players read in the host's short answers: a game already in the channel, no game yet, a
stale click, a lobby closed, options a client sent outside what a command declares."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from bot.errors import Refusal
from bot import layout, present
from bot.lobby import Lobby
from bot.models import Book, LogEntry, Seat, Table
from bot.render import option_refusal
from bot.runtime import TableRuntime, stale_text
from bot.step import Moment
from bot.store.records import ServerSettings
from rules.knucklebones import KnucklebonesOptions
from rules.roll_the_bones import RollTheBonesOptions
from tests.fixtures.tables import game_specs

SPECS = {spec.engine.key: spec for spec in game_specs()}


class _Books:
    def __init__(self, message_id: int | None) -> None:
        self.message_id = message_id

    async def book(self, game_id: int) -> Book:
        return Book(message_id=self.message_id)


def _lobby(message_id: int | None, lock: asyncio.Lock | None = None) -> Any:
    runtime: Any = Lobby()
    runtime.specs, runtime.store = SPECS, _Books(message_id)
    held = lock or asyncio.Lock()
    runtime.lock = lambda game_id: held
    return runtime


def _table(status: str) -> Table:
    return Table(id=1, guild_id=3, channel_id=5, game="knucklebones", host_id=1, seed=11, status=status,
                 seats=[Seat(user_id=1, name="Ann")])


async def test_a_busy_channel_links_its_game_with_a_short_masked_link() -> None:
    text = await Lobby._busy_text(_lobby(77), _table("lobby"))
    assert text.startswith("This channel already has a game of Knucklebones waiting in "
                           "[its lobby](https://discord.com/channels/3/5/77).\n")
    text = await Lobby._busy_text(_lobby(77), _table("active"))
    assert text.startswith("This channel already has a game of Knucklebones in play: "
                           "[the table](https://discord.com/channels/3/5/77).\n")


async def test_a_busy_channel_whose_game_has_no_message_yet_does_not_end_in_a_colon() -> None:
    text = await Lobby._busy_text(_lobby(None), _table("lobby"))
    first = text.splitlines()[0]
    assert first == "This channel already has a game of Knucklebones waiting in its lobby."
    assert "https://" not in text


async def test_a_busy_channel_whose_lobby_is_being_posted_waits_for_its_link() -> None:
    """The lobby's opener holds its game's lock until its message is recorded: a second
    `new` a moment later links the lobby the channel is about to show."""
    lock = asyncio.Lock()
    runtime = _lobby(None, lock)
    await lock.acquire()
    asking = asyncio.create_task(Lobby._busy_text(runtime, _table("lobby")))
    await asyncio.sleep(0.05)
    runtime.store.message_id = 77
    lock.release()
    assert "waiting in [its lobby](https://discord.com/channels/3/5/77)." in await asking


class _NoGames:
    """A store with no game anywhere, and one server's settings."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings

    async def live_in_channel(self, channel_id: int) -> None:
        return None

    async def latest_in_channel(self, channel_id: int) -> None:
        return None

    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        return self.settings


def _asked(channel_id: int, guild_id: int | None = None) -> Any:
    """The interaction of a command asked in a channel (of a server, or a DM)."""
    return SimpleNamespace(channel_id=channel_id, guild_id=guild_id,
                           channel=SimpleNamespace(id=channel_id, category_id=None, parent_id=None, parent=None))


def _runtime(store: Any = None) -> TableRuntime:
    runtime = TableRuntime(None, store, None)  # type: ignore[arg-type]
    for spec in SPECS.values():
        runtime.register(spec)
    return runtime


async def test_a_channel_without_a_game_names_the_commands_that_start_one() -> None:
    runtime = _runtime(_NoGames())
    for ask in (runtime.live_table, runtime.latest_table):
        with pytest.raises(Refusal) as refused:
            await ask(_asked(5))
        text = str(refused.value)
        assert "<game>" not in text and "`/knucklebones new`" in text and "`/bone-duel new`" in text, text


async def test_the_commands_named_are_those_the_server_offers_where_it_offers_them() -> None:
    """A server that offers one game, in one channel: the hint names that game's command, and
    elsewhere names the channel, not commands the asker would be refused."""
    runtime = _runtime(_NoGames(ServerSettings(guild_id=1, games=["knucklebones"], channels=[5])))
    with pytest.raises(Refusal) as here:
        await runtime.live_table(_asked(5, guild_id=1))
    assert str(here.value).endswith("Start one with `/knucklebones new`."), here.value
    with pytest.raises(Refusal) as elsewhere:
        await runtime.latest_table(_asked(6, guild_id=1))
    assert str(elsewhere.value).endswith("Tables open only in <#5> here."), elsewhere.value


def test_a_stale_click_links_where_the_game_is_now_with_a_short_masked_link() -> None:
    table = _table("active")
    book = Book(message_id=77, dm_copies={1: [9, 88]})
    assert stale_text(table, book, 2, 70, private=False) == (
        "That moment has passed; here is [the live table](https://discord.com/channels/3/5/77).")
    assert stale_text(table, book, 1, 80, private=True) == (
        "That moment has passed; here is [your current choice](https://discord.com/channels/@me/9/88).")


def test_a_stale_click_on_the_message_that_is_now_the_game_does_not_link_to_itself() -> None:
    table = _table("active")
    book = Book(message_id=77, dm_copies={1: [9, 88]})
    assert stale_text(table, book, 2, 77, private=False) == (
        "That moment has passed: the table shows the game as it is now.")
    assert stale_text(table, book, 1, 88, private=True) == (
        "That moment has passed: your choice shows the game as it is now.")
    assert "https://" not in stale_text(table, Book(), 2, 70, private=False)


def _refusal(cls: Any, options: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as refused:
        cls.model_validate(options)
    return option_refusal(refused.value.errors())


def test_options_outside_a_command_are_refused_in_a_players_words() -> None:
    assert _refusal(KnucklebonesOptions, {"min_active": "many"}) == (
        "That option is not allowed here: `min_active` must be a whole number.")
    assert _refusal(KnucklebonesOptions, {"min_active": 99}) == (
        "That option is not allowed here: `min_active` must be at most 5.")
    assert _refusal(RollTheBonesOptions, {"dice_set": "d1000"}) == (
        "That option is not allowed here: `dice_set` must be one of: mixed, all_d6.")
    assert _refusal(RollTheBonesOptions, {"dice_set": "d1000", "max_rounds": 0}) == (
        "Those options are not allowed here: `dice_set` must be one of: mixed, all_d6; "
        "`max_rounds` must be at least 1.")
    assert "Input should" not in _refusal(KnucklebonesOptions, {"solo": "maybe"})


def test_a_lobby_closed_before_its_game_began_says_so_and_not_that_a_game_ended_early() -> None:
    table = _table("cancelled")
    notice = present.closed_lobby("Ann")
    message = present.table_message(Moment(SPECS["knucklebones"], table), Book(), notice=notice)
    shown = "\n".join(i["content"] for i in layout.items(message.layout) if i["type"] == layout.TEXT)
    assert "Ann closed the lobby; no game was played." in shown
    assert "Knucklebones: lobby cancelled" in shown and "ended" not in shown, shown


def _entry(version: int, chapter: str, *events: str) -> LogEntry:
    return LogEntry(version=version, seat=0, user_id=1, action={}, events=list(events), chapter=chapter)


def test_game_log_splits_a_long_turn_and_names_it_again_on_the_next_page() -> None:
    long_turn = [_entry(v, "Round 3", f"Ann moved piece {v} " + "far " * 20) for v in range(1, 20)]
    latest, *pages = present.log_pages([_entry(0, "Round 2", "Bob passed")] + long_turn, 7)
    bodies = [page.parts[0].text for page in pages]
    assert len(pages) > 2 and all(len(body) <= present.LOG_PAGE for body in bodies), [len(b) for b in bodies]
    assert bodies[0].startswith("**Round 2**\n· Bob passed\n**Round 3**\n· Ann moved piece 1")
    assert all(body.startswith("**Round 3** (continued)\n· Ann moved") for body in bodies[1:])
    rest = len(pages) - 1
    assert [page.title for page in pages] == ["Rounds 2–3"] + [f"Round 3 ({n} of {rest})" for n in range(1, rest + 1)]
    moved = [line for body in bodies for line in body.splitlines() if line.startswith("· Ann")]
    assert [int(line.split()[4]) for line in moved] == list(range(1, 20))  # each once, in order
    assert pages[-1].parts[-1].text == "-# Game #7's moves, oldest first"
    # it opens on a screenful of the latest moves, the newest last
    said = latest.parts[0].text
    assert latest.title == "Latest moves" and present.LOG_PAGE // 2 < len(said) <= present.LOG_PAGE
    assert said.startswith("**Round 3** (continued)\n· Ann moved") and said.endswith(moved[-1])
    assert latest.parts[-1].text == "-# Game #7 · the menu has every move, oldest first"


def test_game_log_pages_keep_their_place_while_the_game_goes_on() -> None:
    """Turning pages during play neither skips nor repeats a move: a new move changes only the
    last page (and the latest moves)."""
    turns = [_entry(v, f"Turn {v}", *(f"Ann rolled {v} " + "x" * 60 for _ in range(4))) for v in range(1, 8)]
    before = [(p.title, p.parts[0].text) for p in present.log_pages(turns, 1)[1:]]
    after = [(p.title, p.parts[0].text) for p in present.log_pages(turns + [_entry(9, "Turn 8", "Bob rolled 6")], 1)[1:]]
    assert after[:len(before) - 1] == before[:-1] and len(after) >= len(before)


def test_game_log_ends_a_page_with_a_turn_unless_the_turn_fits_whole() -> None:
    turns = [_entry(v, f"Turn {v}", *(f"Ann rolled {v} " + "x" * 60 for _ in range(4))) for v in range(1, 7)]
    latest, *pages = present.log_pages(turns, 1)
    for page in pages:
        body = page.parts[0].text
        assert body.startswith("**Turn ") and "(continued)" not in body, body
    assert [page.title for page in pages] == ["Turns 1–2", "Turns 3–4", "Turns 5–6"]
    assert latest.parts[0].text.startswith("**Turn 5**")  # whole turns, as many as a screen holds


def test_game_log_of_more_pages_than_a_menu_holds_leaves_out_the_oldest_and_says_so() -> None:
    turns = [_entry(v, f"Turn {v}", "y" * 290, "z" * 290) for v in range(1, 41)]
    latest, *pages = present.log_pages(turns, 1)
    assert len(pages) + 1 == present.MENU_OPTIONS and latest.title == "Latest moves"
    assert pages[0].parts[0].text == "-# Older moves are not shown: these are the latest."
    assert pages[-1].title == "Turn 40" and pages[0].title == "Turn 17"


def test_game_log_with_no_moves_says_so() -> None:
    assert [(p.title, [part.text for part in p.parts]) for p in present.log_pages([], 3)] == \
        [("Game #3", ["No moves yet."])]


def test_game_log_that_fits_one_page_is_that_page_alone() -> None:
    turns = [_entry(v, f"Turn {v}", "Ann rolled 2") for v in range(1, 4)]
    (only,) = present.log_pages(turns, 1)
    assert only.title == "Turns 1–3" and only.parts[0].text.startswith("**Turn 1**")


def test_game_log_page_of_one_turn_names_it_once() -> None:
    (only,) = present.log_pages([_entry(1, "Turn 1", "Ann threw die 1: 5 pips", "Ann keeps the die")], 1)
    assert only.title == "Turn 1" and only.parts[0].text == "· Ann threw die 1: 5 pips\n· Ann keeps the die"
    turns = [_entry(v, f"Turn {v}", "y" * 290, "z" * 290) for v in range(1, 4)]
    latest, *pages = present.log_pages(turns, 1)
    assert [p.title for p in pages] == ["Turn 1", "Turn 2", "Turn 3"]
    assert all(p.parts[0].text.startswith("· y") for p in pages)


def test_game_log_says_older_moves_are_not_shown_when_it_did_not_read_them() -> None:
    turns = [_entry(v, f"Turn {v}", "Ann rolled 2") for v in range(1, 4)]
    latest, first = present.log_pages(turns, 1, earlier=True)
    assert first.parts[0].text == "-# Older moves are not shown: these are the latest."
