"""A step is computed once and written once: every game played to its end through the host's
own path (step, one save, present, deliver) against a store on a real SQLite file and a Discord
that only records what it is sent. Per step: one write of the game, one of its book, the public
view of each state the step passes through read once, and each seat's private view at most once.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from collections.abc import AsyncIterator
from typing import Any

import discord
import orjson
import pytest
from aiohttp.payload import BytesPayload
from discord.http import Route

from bot import layout, present, step
from bot.components import ActionButton
from bot.models import Book, Seat, Table
from bot.present import NOBODY, Channel, Origin, Post, Shrink
from bot.runtime import TableRuntime
from bot.step import Moment
from bot.store import SqliteStore, Store, open_store
from bot.store.base import table_text
from bot.store.records import ServerSettings
from tests import kit
from tests.fixtures.tables import game_specs

SPECS = {spec.engine.key: spec for spec in game_specs()}
_ids = itertools.count(1000)


class _Message:
    def __init__(self, channel_id: int) -> None:
        self.id = next(_ids)
        self.channel = type("C", (), {"id": channel_id})()


class _Channel:
    """A channel or DM that records what the deliverer sends."""

    def __init__(self, sent: list[tuple[str, dict[str, Any]]], channel_id: int) -> None:
        self.sent, self.id = sent, channel_id

    async def send(self, **message: Any) -> _Message:
        self.sent.append(("send", message))
        return _Message(self.id)

    def get_partial_message(self, message_id: int) -> _Channel:
        return self

    async def edit(self, **message: Any) -> None:
        self.sent.append(("edit", message))


class _Http:
    """The REST calls a table's messages go by (bot/wire.py), recorded as the JSON they carry."""

    def __init__(self, sent: list[tuple[str, dict[str, Any]]]) -> None:
        self.sent = sent

    async def request(self, route: Route, *, json: dict[str, Any] | None = None,
                      data: BytesPayload | None = None) -> dict[str, Any]:
        if data is not None:
            raw = data._value.split(b"\r\n\r\n", 1)[1].split(b"\r\n--", 1)[0]
            json = orjson.loads(raw)
        self.sent.append(("send" if route.method == "POST" else "edit", json or {}))
        return {"id": str(next(_ids))}

    async def logs_from(self, channel_id: int, limit: int, *, after: int) -> list[dict[str, Any]]:
        """Nobody chats in these channels: nothing below a table."""
        return []


def _texts(payload: dict[str, Any]) -> str:
    """Every word a message's components show."""
    found: list[str] = []
    pending = list(payload.get("components") or [])
    while pending:
        component = pending.pop(0)
        if component.get("type") == discord.ComponentType.text_display.value:
            found.append(component["content"])
        pending[:0] = list(component.get("components") or []) + [a for a in [component.get("accessory")] if a]
    return "\n".join(found)


class _Client:
    allowed_mentions = None

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.http = _Http(self.sent)

    def get_partial_messageable(self, channel_id: int) -> _Channel:
        return _Channel(self.sent, channel_id)

    def get_user(self, user_id: int) -> _Channel:
        return _Channel(self.sent, user_id)


class _Counting:
    """The store, counting the writes each step makes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writes: Counter[str] = Counter()

    async def save(self, *args: Any, **kwargs: Any) -> str:
        self.writes["game"] += 1
        return await self.store.save(*args, **kwargs)

    async def put_book(self, *args: Any) -> None:
        self.writes["book"] += 1
        await self.store.put_book(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest.mark.parametrize("key", sorted(SPECS))
async def test_every_step_is_computed_once_and_written_once(key: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    spec = SPECS[key]
    engine = spec.engine
    views: list[tuple[int | None, str]] = []
    real_view = engine.view

    def counted(state: Any, seat: int | None) -> Any:
        views.append((seat, state.model_dump_json()))
        return real_view(state, seat)

    monkeypatch.setattr(engine, "view", counted)
    store = _Counting(await open_store(tmp_path / "games.sqlite3"))
    client = _Client()
    runtime = TableRuntime(client, store, None)  # type: ignore[arg-type]
    runtime.register(spec)
    seats = max(2, engine.min_seats)
    table = await store.create(Table(
        guild_id=1, channel_id=5, game=key, host_id=1, seed=7, options=engine.Options().model_dump(),
        seats=[Seat(user_id=n + 1, name=f"P{n + 1}") for n in range(seats - 1)] + [Seat(name="Bot 1", ai=True)]))
    rng = random.Random(3)
    now, book = await runtime.load(table.id or 0)
    result = step.start(now, 0.0)
    steps = 0
    while True:
        views.clear()
        store.writes.clear()
        await runtime.carry(None, result, book, NOBODY)
        assert store.writes == {"game": 1, "book": 1}, f"step {steps}: {store.writes}"
        passed = [s for s, _ in views if s is None]
        assert len(views) == len(set(views)), f"step {steps} read a view twice: {Counter(views).most_common(2)}"
        assert len(passed) <= len(result.entries) + 1
        if result.table.status != "active":
            break
        now, book = await runtime.load(table.id or 0)
        seat = rng.choice(now.humans)
        result = step.play(now, seat, rng.choice(now.legal(seat)), 0.0)
        steps += 1
        assert steps < 3000
    assert steps > 0
    sends = [m for kind, m in client.sent if kind == "send" and m.get("flags", 0) & discord.MessageFlags(
        components_v2=True).value]
    assert sends, "no table was ever posted"
    await store.close()


def _same(kept: Moment, text: str) -> None:
    """What a kept moment says of its game is what a fresh reading of the stored text says."""
    assert table_text(kept.table) == text, "the kept table was changed in place"
    fresh = Moment(kept.spec, Table.model_validate_json(text))
    assert kept.state is not None and fresh.state is not None
    assert kept.state.model_dump(mode="json") == fresh.state.model_dump(mode="json"), "the kept state was changed"
    assert (kept.acting, kept.humans, kept.stamps, kept.chapter, kept.look) == (
        fresh.acting, fresh.humans, fresh.stamps, fresh.chapter, fresh.look)
    assert kept.shared == fresh.shared and kept.open_choices == fresh.open_choices
    for seat in range(len(kept.table.seats)):
        assert kept.view(seat).model_dump_json() == fresh.view(seat).model_dump_json()
        assert kept.legal(seat) == fresh.legal(seat)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on a SQLite file, closed however the test ends (its thread would keep pytest
    from exiting)."""
    opened = await open_store(tmp_path / "games.sqlite3")
    yield opened
    await opened.close()


@pytest.mark.parametrize("key", sorted(SPECS))
async def test_a_click_starts_from_the_moment_the_last_step_left_while_the_store_holds_it(
        key: str, store: Store) -> None:
    """The next click on a game starts from the moment the last step left, with all that was
    read of it, and that moment is the game exactly as stored, at every step of a whole game of
    each game, timeouts included. The server's settings are read afresh each time (pictures
    turned off mid-game). Once another process writes the game, the kept moment no longer
    counts: the click reads what that process wrote. The deadline row is the table's deadline
    throughout, as the table's timer is turned on and off, and as its rules' own windows open
    and close on an untimed table."""
    spec = SPECS[key]
    engine = spec.engine
    runtime = TableRuntime(_Client(), store, None)  # type: ignore[arg-type]
    runtime.register(spec)
    seats = max(2, engine.min_seats)
    table = await store.create(Table(
        guild_id=1, channel_id=5, game=key, host_id=1, seed=5, options=engine.Options().model_dump(),
        seats=[Seat(user_id=n + 1, name=f"P{n + 1}") for n in range(seats - 1)] + [Seat(name="Bot 1", ai=True)]))
    game_id = table.id or 0
    rng = random.Random(11)
    now, book = await runtime.load(game_id)
    result = step.start(now, 0.0)
    elsewhere = 0
    for steps in itertools.count():
        assert steps < 3000
        await runtime.carry(None, result, book, NOBODY)
        assert await store.deadline_of(game_id) == (result.table.deadline if result.table.live else None)
        if result.table.status != "active":
            break
        now, book = await runtime.load(game_id)
        assert now is result.after, "the click parsed the game again"
        _same(now, await store.table_json(game_id) or "")
        if steps in (4, 12):  # the host turns the table's timer on, then off again
            timed = step.resettle(now, steps + 0.5, timer_seconds=30 if steps == 4 else None)
            runtime.keep(await store.save(timed.table, now.table.version, deadline=timed.table.deadline), timed.after)
            assert await store.deadline_of(game_id) == timed.table.deadline
            assert timed.table.deadline is not None or steps == 12
            now, book = await runtime.load(game_id)
        if steps == 2:  # the server turns its pictures off: the kept moment draws none from now on
            await runtime.servers.put(ServerSettings(guild_id=1, pictures=False))
            assert (await runtime.load(game_id))[0] is now and not now.pictures
        if steps % 7 == 3:  # another process moves the game on: its write, not the kept moment, counts
            seat = now.humans[0]
            theirs = step.play(Moment(spec, await store.get(game_id) or table), seat, now.legal(seat)[0], 0.0)
            await store.save(theirs.table, now.table.version, log=theirs.entries, deadline=theirs.table.deadline)
            now, book = await runtime.load(game_id)
            assert now is not result.after and now.table.version == theirs.table.version
            _same(now, await store.table_json(game_id) or "")
            elsewhere += 1
            if now.table.status != "active":
                break
        at = float(steps)  # each step at its own time, so each deadline differs from the last
        if rng.random() < 0.15:
            result = step.expire(now, at)
        else:
            seat = rng.choice(now.humans)
            result = step.play(now, seat, rng.choice(now.legal(seat)), at)
    assert elsewhere > 0


async def test_a_step_that_ends_a_timed_wait_removes_its_deadline(store: Store) -> None:
    """A timed step replaces the deadline row; a step that leaves nothing timed removes it; an
    untimed game's steps have no row to remove and touch none."""
    spec = SPECS["knucklebones"]
    runtime = TableRuntime(_Client(), store, None)  # type: ignore[arg-type]
    runtime.register(spec)
    table = await store.create(Table(guild_id=1, channel_id=5, game="knucklebones", host_id=1, seed=5,
                                     seats=[Seat(user_id=1, name="P1"), Seat(user_id=2, name="P2")]))
    game_id = table.id or 0

    async def click(now: Moment, at: float) -> step.StepResult:
        seat = now.humans[0]
        result = step.play(now, seat, now.legal(seat)[0], at)
        await runtime.carry(None, result, (await runtime.load(game_id))[1], NOBODY)
        return result

    now, book = await runtime.load(game_id)
    await runtime.carry(None, step.start(now, 0.0), book, NOBODY)
    assert await store.deadline_of(game_id) is None
    now, _ = await runtime.load(game_id)
    timed = step.resettle(now, 1.0, timer_seconds=30)
    runtime.keep(await store.save(timed.table, now.table.version, deadline=timed.table.deadline), timed.after)
    assert await store.deadline_of(game_id) == 31.0
    assert (await click(timed.after, 2.0)).table.deadline == await store.deadline_of(game_id) == 32.0
    now, _ = await runtime.load(game_id)
    # the same game as a step with nothing timed would find it (a rule's own window that closed)
    untimed = Moment(spec, now.table.model_copy(update={"timer_seconds": None}))
    assert untimed.table.deadline == 32.0
    assert (await click(untimed, 3.0)).table.deadline is None
    assert await store.deadline_of(game_id) is None
    statements: list[str] = []
    assert isinstance(store, SqliteStore)
    store._quick.set_trace_callback(statements.append)
    await click((await runtime.load(game_id))[0], 4.0)
    assert await store.deadline_of(game_id) is None
    assert any("UPDATE games" in s for s in statements) and not any("deadlines" in s for s in statements)


def _moment(state_table: Table) -> Moment:
    return Moment(SPECS["knucklebones"], state_table)


def _knucklebones_table(version: int = 3) -> Table:
    engine = SPECS["knucklebones"].engine
    state = engine.new_game(2, engine.Options(), 11)
    return Table(id=1, guild_id=1, channel_id=5, game="knucklebones", host_id=1, seed=11, status="active",
                 version=version, state=state.model_dump(mode="json"),
                 seats=[Seat(user_id=1, name="Ann"), Seat(user_id=2, name="Bob")])


def test_a_turn_that_changes_hands_shrinks_the_clicked_table_and_posts_the_next() -> None:
    """The plan, without Discord: a click on the live table that ends a turn turns it into a
    line of history in the answer, then posts the new table, which pings the next player."""
    before = _moment(_knucklebones_table())
    first = seat = before.acting[0]
    for _ in range(20):  # the first player's decisions, to the one that ends their turn
        result = step.play(before, seat, before.legal(seat)[-1], 0.0)
        if result.newly:
            break
        before = result.after
    assert result.newly and result.newly != [first]
    book = Book(message_id=77, shown=3, chapter=before.chapter, look="x")
    seat = first
    plan = present.present(result, Channel(book), Origin(message_id=77, seat=seat))
    # the clicked table becomes history in the answer itself; the new table is the one post
    assert isinstance(plan.answer, present.Update) and plan.answer.shown is None
    assert plan.answer.history is not None and plan.answer.history.startswith(f"**{before.chapter}**")
    assert [type(op) for op in plan.channel] == [Post]
    posted = plan.channel[0]
    following = f"<@{result.table.seats[result.newly[0]].user_id}>"
    assert isinstance(posted, Post) and posted.shown.pings and following in kit.top(posted.shown)
    # the same step from a command (no message clicked): the old table shrinks in the channel
    plan = present.present(result, Channel(book), Origin(message_id=None, seat=seat))
    assert isinstance(plan.answer, present.Reply)
    assert [type(op) for op in plan.channel] == [Post, Shrink]


def test_a_click_within_a_turn_on_a_table_scrolled_away_says_where_the_table_went() -> None:
    """A decision that keeps the turn where it is, pressed on a live table that chat has
    scrolled away: the table comes back as the newest message, and the pressed one says so, as
    a lobby pressed there does (the game has not moved on: it moved below)."""
    before = _moment(_knucklebones_table())
    seat = before.acting[0]
    for _ in range(20):
        result = step.play(before, seat, before.legal(seat)[0], 0.0)
        if not result.newly and result.history is None:
            break
        before, seat = result.after, result.after.acting[0]
    else:
        raise AssertionError("no decision within a turn came up")
    book = Book(message_id=77, shown=3, chapter=result.after.chapter, look="x")
    recent = present.present(result, Channel(book), Origin(message_id=77, seat=seat))
    assert isinstance(recent.answer, present.Update) and recent.answer.shown is not None and recent.channel == []
    scrolled = present.present(result, Channel(book, scrolled=True), Origin(message_id=77, seat=seat))
    assert scrolled.answer == present.Update(history="The table moved below.")
    assert [type(op) for op in scrolled.channel] == [Post] and scrolled.channel[0].strip is None  # type: ignore[union-attr]


def test_a_step_nobody_can_see_costs_the_channel_nothing() -> None:
    """A timer step that changes nothing public (here: the same moment presented twice) leaves
    the channel alone; the same step with a notice redraws the table to say it."""
    before = _moment(_knucklebones_table())
    result = step.resettle(before, 0.0)
    book = Book(message_id=77, shown=3, chapter=before.chapter, look=present.look(result.after, Book()))
    plan = present.present(result, Channel(book), NOBODY)
    assert plan.channel == [] and plan.answer is None
    noticed = step.StepResult(before=result.before, after=result.after, notice="⏰ Time ran out")
    plan = present.present(noticed, Channel(book), NOBODY)
    assert [type(op) for op in plan.channel] == [present.Edit]
    scrolled = present.present(noticed, Channel(book, scrolled=True), NOBODY)
    assert [type(op) for op in scrolled.channel] == [Post] and scrolled.channel[0].strip == 77  # type: ignore[union-attr]


def test_the_look_follows_what_the_channel_may_see() -> None:
    """A game with secrets is looked at through its public view: what only a seat may see can
    change under it (another hand, another order of the pile) without the look changing. In a
    game without secrets every stored step shows, a move or a host's change alike."""
    bare = SPECS["bare_bones"].engine
    state = bare.new_game(3, bare.Options(), 5)
    table = Table(id=2, guild_id=1, channel_id=6, game="bare_bones", host_id=1, seed=5, status="active",
                  state=state.model_dump(mode="json"), seats=[Seat(user_id=u, name=f"P{u}") for u in (1, 2, 3)])
    hidden = bare.scramble_hidden(state, None, random.Random(3))
    assert hidden != state
    assert Moment(SPECS["bare_bones"], table, hidden).look == Moment(SPECS["bare_bones"], table, state).look
    before = _moment(_knucklebones_table())
    seat = before.acting[0]
    after = step.play(before, seat, before.legal(seat)[0], 0.0).after
    assert after.look != before.look
    assert Moment(SPECS["knucklebones"], after.table).look == after.look  # the same state read back
    assert step.resettle(after, 0.0, paused=True).after.look != after.look


def test_a_step_leaves_the_moment_it_started_from_as_it_was() -> None:
    """A step drafts a new table: the moment it started from may still be read (a click that
    lost the race for the store starts again from it), so nothing of it changes, seats
    included, whether a seat moves in the open or is left to a bot."""
    stones = SPECS["stones_and_bones"]
    state = stones.engine.new_game(3, stones.engine.Options(), 4)
    table = Table(id=3, guild_id=1, channel_id=7, game="stones_and_bones", host_id=1, seed=4, status="active",
                  state=state.model_dump(mode="json"), seats=[Seat(user_id=u, name=f"P{u}") for u in (1, 2, 3)])
    before = Moment(stones, table)
    seats = [seat.model_copy() for seat in table.seats]
    assert before.shared, "the first call is made in the open"
    seat, action = step.read_open_click(before, 0, before.open_stamp(before.humans), 0)
    moved = step.play(before, seat, action, 0.0).after
    assert moved.table.seats[seat].moved == moved.table.version != 0
    left = step.leave(before, 1, "P2", 0.0).after
    assert left.table.seats[1].ai and left.table.seats[1].name == "P2 (bot)"
    assert table.seats == seats and before.table is table


def test_a_rematch_seats_whoever_stayed_afresh_and_not_who_left() -> None:
    """A seat's last open choice counts moves of the old game: carried into the rematch, it
    refused every press there as a double click. A player who left is not seated again (their
    record would count a game they never sat in); the lobby says so, and Join takes them back."""
    from bot.lobby import rematch_seats

    stones = SPECS["stones_and_bones"]
    state = stones.engine.new_game(3, stones.engine.Options(), 4)
    table = Table(id=3, guild_id=1, channel_id=7, game="stones_and_bones", host_id=1, seed=4, status="active",
                  state=state.model_dump(mode="json"),
                  seats=[Seat(user_id=1, name="Ann"), Seat(user_id=2, name="Cy"), Seat(name="Mags", ai=True)])
    before = Moment(stones, table)
    seat, action = step.read_open_click(before, 0, before.open_stamp(before.humans), 0)
    moved = step.play(before, seat, action, 0.0).after
    left = step.leave(moved, 1, "Cy", 0.0).after
    assert left.table.seats[seat].moved > 0
    seats, notice, returning = rematch_seats(stones, left)
    assert returning == {}, "no stakes carry forward: Cy Joins as anyone does"
    assert [(s.name, s.user_id, s.ai, s.moved) for s in seats] == [("Mags", None, True, 0), ("Ann", 1, False, 0)]
    assert notice is not None and "Cy left the last game: **Join** to play this one." in notice
    shown = present.lobby_message(stones, table.model_copy(update={"seats": seats}), notice=notice)
    assert "1. Mags (NPC)" in kit.words(shown) and "Cy" in kit.words(shown)



def test_a_tavern_rematch_names_what_a_player_who_left_took_home() -> None:
    """Where stakes carry forward, the game-master reads what the seat of a player who left took
    home, to give it back should they Join."""
    from bot.lobby import rematch_seats

    stones = SPECS["stones_and_bones"]
    assert stones.tavern is not None
    options = stones.tavern.starting_options(stones.engine.Options(), [850, 5000, 3000])
    state = stones.engine.new_game(3, options, 4)
    table = Table(id=3, guild_id=1, channel_id=7, game="stones_and_bones", host_id=1, seed=4, status="active",
                  state=state.model_dump(mode="json"), options=options.model_dump(),
                  seats=[Seat(user_id=1, name="Ann", stake=850), Seat(user_id=2, name="Cy", stake=5000),
                         Seat(name="Mags", ai=True, stake=3000)])
    left = step.leave(Moment(stones, table), 1, "Cy", 0.0).after
    seats, notice, returning = rematch_seats(stones, left)
    assert [s.name for s in seats] == ["Mags", "Ann"]
    home = stones.tavern.rematch_stakes(left.table, left.public)[0][1]
    took = stones.tavern.stake_text(options, home)
    assert took and notice is not None and f"Cy ({took}) left the last game: **Join** to play this one." in notice
    assert home is not None and returning == {2: home}, "Cy's purse waits for them to Join"
    # it waits in the lobby alone: the game starts without it, and a player forgotten takes it along
    lobby = Table(id=4, guild_id=1, channel_id=7, game="stones_and_bones", host_id=1, seed=5, status="lobby",
                  options=options.model_dump(), seats=seats, returning=returning)
    from bot.store.base import table_text, without_player
    assert Table.model_validate_json(without_player(table_text(lobby), 2)).returning == {}
    assert step.start(Moment(stones, lobby), 0.0).table.returning == {}


def test_the_roll_that_ends_a_turn_is_logged_under_the_turn_it_begins() -> None:
    """Knucklebones: the move that scores also rolls for the next player. /game log files the
    score under the turn that ends and the roll under the turn it begins."""
    from bot.present import log_pages

    before = _moment(_knucklebones_table())
    seat = before.acting[0]
    for _ in range(20):
        result = step.play(before, seat, before.legal(seat)[-1], 0.0)
        if result.newly:
            break
        before = result.after
    assert result.newly
    ending = result.entries[-1]
    chapters = [chapter for chapter, _ in ending.by_chapter()]
    assert chapters == [before.chapter, result.after.chapter] and chapters[0] != chapters[1], chapters
    (_, scored), (_, rolled) = ending.by_chapter()
    assert any("scored" in t for t in scored) and any("rolled" in t or "roll" in t for t in rolled), (scored, rolled)
    assert not any(t.startswith("\u241e") for t in ending.texts)
    text = "\n".join(part.text for page in log_pages(result.entries, 1) for part in page.parts)
    assert text.index(f"**{result.after.chapter}**") < text.index(rolled[0])


class _Clicked:
    """The clicked table, as a click carries it: a late answer is edited into it through its
    channel."""

    def __init__(self, message_id: int, sent: list[tuple[str, dict[str, Any]]]) -> None:
        self.id, self.sent = message_id, sent
        self.flags = discord.MessageFlags(components_v2=True)

    async def edit(self, **message: Any) -> None:
        self.sent.append(("late edit", message))


class _Click:
    """A click on the live table, as much of discord.Interaction as the host reads of it."""

    def __init__(self, message: _Clicked, user_id: int) -> None:
        self.id = next(_ids)
        self.message = message
        self.channel_id, self.guild_id = 5, 1
        self.user = type("U", (), {"id": user_id})()


async def test_a_move_whose_answer_discord_would_not_take_is_shown_through_the_channel(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's servers fail the answer to a move past discord.py's retries (half a minute of
    5xx): the move is stored, so the channel shows it anyway, as for an answer that came too
    late. The clicked table is edited through the channel into the game as it now stands (a
    move within the turn) or into its line of history, under a new table that pings the next
    player (a move that passes the turn); the step counts as shown. Before, the 5xx ended the
    click: no new table, no ping, and the player read "something went wrong on our side"."""
    import bot.deliver

    async def refused(interaction: Any, **kwargs: Any) -> None:
        raise discord.DiscordServerError(type("R", (), {"status": 503, "reason": "Service Unavailable"})(), "")

    monkeypatch.setattr(bot.deliver, "update", refused)
    spec = SPECS["knucklebones"]
    store = await open_store(tmp_path / "games.sqlite3")
    client = _Client()
    runtime = TableRuntime(client, store, None)  # type: ignore[arg-type]
    runtime.register(spec)
    table = await store.create(Table(guild_id=1, channel_id=5, game="knucklebones", host_id=1, seed=7,
                                     options=spec.engine.Options().model_dump(),
                                     seats=[Seat(user_id=1, name="Ann"), Seat(user_id=2, name="Bob")]))
    now, book = await runtime.load(table.id or 0)
    await runtime.carry(None, step.start(now, 0.0), book, NOBODY)
    seen: Counter[str] = Counter()
    while len(seen) < 2:
        now, book = await runtime.load(table.id or 0)
        live = book.message_id
        assert live is not None
        seat = now.humans[0]
        result = step.play(now, seat, now.legal(seat)[-1], 0.0)
        click = _Click(_Clicked(live, client.sent), now.table.seats[seat].user_id or 0)
        client.sent.clear()
        await runtime.carry(click, result, book, runtime.origin(click, now.table))  # type: ignore[arg-type]
        kinds = [kind for kind, _ in client.sent]
        assert kinds[0] == "late edit", kinds
        book = await store.book(table.id or 0)
        assert book.shown == result.table.version, "the step counts as shown"
        if result.newly:
            seen["new table"] += 1
            assert kinds == ["late edit", "send"], kinds
            assert not _moves(client.sent[0][1]["view"]), "the clicked table became its line of history"
            following = f"<@{result.table.seats[result.newly[0]].user_id}>"
            assert following in _texts(client.sent[1][1]) and book.message_id != live
        else:
            seen["in place"] += 1
            assert kinds == ["late edit"], kinds
            assert _moves(client.sent[0][1]["view"]) and book.message_id == live
            assert present.table_message(result.after, book).layout.to_components() == \
                client.sent[0][1]["view"].to_components(), "the clicked table shows the game as it now stands"
    await store.close()


def _moves(view: discord.ui.LayoutView) -> list[layout.Component]:
    return [i for i in layout.items(view) if ActionButton.__discord_ui_compiled_template__.fullmatch(
        i.get("custom_id", ""))]


def test_the_lobby_line_tells_what_bot_seats_did_before_anyone_was_asked() -> None:
    """A bot seat that plays first (an NPC Captain, a Bot's opening turn) moves before the first
    table is posted; the lobby's line of history says so, or nobody would see it happen."""
    spec = SPECS["knucklebones"]
    for seed in range(40):
        lobby = Table(id=1, guild_id=1, channel_id=5, game="knucklebones", host_id=1, seed=seed, version=2,
                      seats=[Seat(name="Old Marrow", ai=True), Seat(user_id=1, name="Ann")],
                      options=spec.engine.Options().model_dump())
        result = step.start(Moment(spec, lobby), 0.0)
        if result.entries:
            break
    else:
        raise AssertionError("Old Marrow never played first")
    plan = present.present(result, Channel(Book(message_id=77)), Origin(message_id=77))
    line = plan.answer.history  # type: ignore[union-attr]
    said, _, story = line.partition("sat down. ")
    assert said == "🎲 **Knucklebones** · Old Marrow and Ann " and story.startswith(f"**{result.entries[0].chapter}** · ")
    assert "Old Marrow scored" in story and "\n" not in line, line


def test_a_player_whose_dms_refused_the_bot_is_tried_again_only_in_a_later_turn_or_round() -> None:
    """Each refused DM is a request Discord counts against the bot, and delays the table: a
    seat marked as closed is asked by the table (My hand) for the rest of the turn or round."""
    spec = SPECS["roll_the_bones"]
    lobby = Table(id=1, guild_id=1, channel_id=5, game="roll_the_bones", host_id=1, seed=3, version=2,
                  seats=[Seat(user_id=1, name="Ann"), Seat(user_id=2, name="Bob")],
                  options=spec.engine.Options().model_dump())
    after = step.start(Moment(spec, lobby), 0.0).after
    assert after.chapter and [dm.seat for dm in present.dms(after, Book(), [0, 1])] == [0, 1]
    # refused in this round: the table asks Bob (My hand), whatever chapter its table opened in
    same = Book(chapter="an earlier round", dm_closed={1: after.chapter})
    assert [dm.seat for dm in present.dms(after, same, [0, 1])] == [0]
    # refused in an earlier one: tried again (he may have opened his DMs since)
    earlier = Book(chapter=after.chapter, dm_closed={1: "an earlier round"})
    assert [(dm.seat, dm.chapter) for dm in present.dms(after, earlier, [0, 1])] == [(0, after.chapter), (1, after.chapter)]
    # a book from before refusals were dated: tried once, then dated
    assert [dm.seat for dm in present.dms(after, Book(chapter=after.chapter, dm_closed=[1]), [0, 1])] == [0, 1]


def test_an_old_tables_line_names_the_turns_bot_seats_played_after_it() -> None:
    """Ann's move ends her turn, and the bot seat plays its whole turn in the same step: the
    old table's line says both turns, where it filed the bot's turn under Ann's."""
    spec = SPECS["knucklebones"]
    for seed in range(40):
        lobby = Table(id=1, guild_id=1, channel_id=5, game="knucklebones", host_id=1, seed=seed, version=2,
                      seats=[Seat(user_id=1, name="Ann"), Seat(name="Old Marrow", ai=True)],
                      options=spec.engine.Options().model_dump())
        started = step.start(Moment(spec, lobby), 0.0)
        if not started.entries:
            break
    else:
        raise AssertionError("Old Marrow always played first")
    now = started.after
    for _ in range(50):  # Ann plays on until her move hands the dice to the bot seat
        result = step.play(now, 0, now.legal(0)[0], 0.0)
        if any(entry.seat == 1 for entry in result.entries):
            break
        now = result.after
    else:
        raise AssertionError("Old Marrow never played")
    plan = present.present(result, Channel(Book(message_id=77, chapter=now.chapter)), Origin(message_id=77))
    line = plan.answer.history  # type: ignore[union-attr]
    bots = [c for e in result.entries if e.seat == 1 for c, _ in e.by_chapter() if c != result.after.chapter]
    assert bots and bots[-1] != now.chapter, (now.chapter, bots)
    first, last = now.chapter.removeprefix("Turn "), bots[-1].removeprefix("Turn ")
    assert line.startswith(f"**Turns {first}–{last}** · Ann ") and "Old Marrow" in line, line


@pytest.mark.parametrize(("first", "last", "said"), [
    ("Game 1 · Turn 17", "Game 1 · Turn 18", "Game 1 · Turns 17–18"),
    ("Tide 1 · Wave 3", "Tide 1 · Wave 5", "Tide 1 · Waves 3–5"),
    ("Round 9", "Round 10", "Rounds 9–10"),
    ("Game 1 · Turn 21", "Game 2 · Turn 1", "Game 1 · Turn 21 to Game 2 · Turn 1"),
    ("Tide 1 · Wave 4", "Tide 2 · Wave 1", "Tide 1 · Wave 4 to Tide 2 · Wave 1"),
    ("The Draft", "Turn 1", "The Draft to Turn 1"),
    ("Round 2", "Turn 2", "Round 2 to Turn 2"),
])
def test_chapters_that_differ_only_in_their_number_are_said_once(first: str, last: str, said: str) -> None:
    """A line of history is read on a phone: "Game 1 · Turn 17 to Game 1 · Turn 18" says its
    game and its word twice."""
    assert present._log_title([first, "", last]) == said


async def test_a_nudge_pings_the_nudged_alone_whoever_else_the_table_mentions() -> None:
    """Where everyone acts at once, the table's top line mentions the one who nudged too: the
    nudge's message pings only whom the nudge names."""
    from bot.deliver import Deliverer

    now = _moment(_knucklebones_table())
    waited = now.table.seats[now.acting[0]].user_id or 0
    other = 3 - waited
    plan = present.again(now, Book(message_id=77), nudge=f"👋 <@{other}> nudges <@{waited}>", nudged=[waited])
    posted = plan.channel[0]
    assert isinstance(posted, Post) and posted.strip == 77
    assert posted.shown.pings and posted.shown.pinged == (waited,)
    kwargs = await Deliverer(client=None, store=None).kwargs(posted.shown, edit=False)  # type: ignore[arg-type]
    mentions = kwargs["allowed_mentions"].to_dict()
    assert mentions["parse"] == [] and mentions["users"] == [waited]
    # /game status: the table again, pinging nobody
    status = present.again(now, Book(message_id=77), ping=False).channel[0]
    assert isinstance(status, Post) and not status.shown.pings and not status.shown.pinged


def test_a_resumed_game_whose_seats_all_left_is_played_to_its_end_and_counted() -> None:
    """Everyone left while the game was paused: the bots take the seats at once but play only
    when it is resumed, and then to the end, with the moves logged and the results recorded."""
    now = _moment(_knucklebones_table())
    paused = step.resettle(now, 0.0, paused=True).after
    for seat, name in ((0, "Ann"), (1, "Bob")):
        left = step.leave(paused, seat, name, 0.0)
        assert left.entries == [] and left.table.status == "active", "a paused game plays nothing"
        paused = left.after
    resumed = step.resettle(paused, 1.0, paused=False)
    assert resumed.table.status == "finished" and not resumed.table.paused and resumed.table.deadline is None
    assert resumed.entries and resumed.results is not None and len(resumed.results) == 2
    assert resumed.table.version == paused.table.version + len(resumed.entries)
