"""What every game engine promises, held for every game at every seat count it allows.

Every game is found as the ``ENGINE`` of a module or package directly under ``rules/``, so a
game added later is held to all of this as soon as it is there, with no new test code; one that
fails to import fails its tests rather than vanishing from the list.

Seeded random games (bot players, random clicks and the table's timer mixed) check after every
step what the host relies on: who acts and what is legal (``legal_actions`` deterministic, never
empty for a seat the game waits for, everything else refused without a trace), that ``apply``
leaves its input alone, the JSON round trip of every state, the outcomes at the end, and that the
log replays to the same end. The secrets: whatever ``scramble_hidden`` changes, no viewer's view
may change with it, a seat's view built beside the public one (``seat_view``) must be its view,
and a game with private views must scramble something.

The rulings promise that no table can be held for ever: an adversary, seeded, makes whenever it
can a move after which the same seat still owes a decision in the same phase (a gift, a toggle,
a take-back); when a seat has only moves that finish its decision left, the table's timer
sometimes plays its default instead, as it would at a real table. Every game must end within its
``move_cap``. An open phase is capped per seat so that players who never move it on cannot hold a
table in it: the host re-arms the table's timer on every move, so the timer alone never rescues
such a table.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import random
import types
import typing
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

import rules
from bot import models
from bot.store.base import table_text
from rules.base import Chooser, Engine, GameError, IllegalAction

AnyEngine = Engine[Any, Any, Any]

#: adversarial games per engine, spread over its seat counts
GAMES_PER_ENGINE = 120
#: how often the table's timer plays a seat's default once it has no stalling move left
TIMER_ODDS = 0.25
#: random games per seat count, checked after every step
RANDOM_GAMES_PER_SEAT_COUNT = 4
#: moves refused per state: a seat and a move it may not make, drawn from moves seen so far
ILLEGAL_TRIES = 2


def discover() -> list[tuple[str, AnyEngine | BaseException]]:
    """Every module or package directly under ``rules/`` with an ``ENGINE`` (base, rng and
    notation have none). One that fails to import is kept with its error, so that a game being
    written fails its own tests loudly rather than vanishing from the list."""
    found: list[tuple[str, AnyEngine | BaseException]] = []
    for info in sorted(pkgutil.iter_modules(rules.__path__), key=lambda i: i.name):
        try:
            module = importlib.import_module(f"rules.{info.name}")
        except Exception as error:  # noqa: BLE001 - reported by that game's tests
            found.append((info.name, error))
            continue
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            found.append((info.name, engine))
    return found


GAMES = discover()
IDS = [name for name, _ in GAMES]


def imported(name: str, engine: AnyEngine | BaseException) -> AnyEngine:
    if isinstance(engine, BaseException):
        raise AssertionError(f"rules.{name} does not import") from engine
    return engine


def test_the_games_we_know_are_found() -> None:
    """Discovery that found nothing would make every other test here pass vacuously."""
    assert {"bare_bones", "knucklebones", "rattlebones", "roll_the_bones", "stones_and_bones"} <= set(IDS)


# -- options ----------------------------------------------------------------------------------


def _choices(annotation: Any) -> list[Any] | None:
    """The values of a Literal or bool field (through ``Optional``); None for anything else."""
    if annotation is bool:
        return [False, True]
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(inner) == 1:
            return _choices(inner[0])
    return None


def options_for(engine: AnyEngine, seats: int, rng: random.Random, vary: bool) -> BaseModel:
    """The defaults, or (``vary``) every Literal and bool option drawn at random, so that the
    rarer phases (a Mutiny on any claim, Grumbles, folds) are played too. A seat count the
    defaults refuse (a solo table) takes the first option that allows it."""
    options_type: type[BaseModel] = engine.Options
    default = options_type()
    options = default
    if vary:
        drawn = {name: rng.choice(values) for name, field in options_type.model_fields.items()
                 if (values := _choices(field.annotation)) is not None}
        try:
            options = options_type.model_validate({**default.model_dump(), **drawn})
            engine.new_game(seats, options, 0)
        except (ValueError, GameError):  # a combination the game refuses: play the defaults
            options = default
    low, high = engine.seat_range(options)
    if low <= seats <= high:
        return options
    for name, field in options_type.model_fields.items():
        if field.annotation is bool:
            flipped = options.model_copy(update={name: not getattr(options, name)})
            low, high = engine.seat_range(flipped)
            if low <= seats <= high:
                return flipped
    raise AssertionError(f"{engine.title} claims {seats} seats but no options allow them")


def seat_counts(engine: AnyEngine) -> range:
    return range(engine.min_seats, engine.max_seats + 1)


# -- random games, checked after every step -----------------------------------------------------


Log = list[tuple[int, BaseModel | None]]


class Table:
    """One seeded game of bots, random clicks and timeouts, every state checked on the way."""

    def __init__(self, name: str, engine: AnyEngine, seats: int, game: int) -> None:
        self.engine = engine
        self.seats = seats
        self.seed = zlib.crc32(f"{name}/random/{seats}/{game}".encode())
        self.rng = random.Random(self.seed)
        self.options = options_for(engine, seats, self.rng, vary=game % 2 == 1)
        self.game_seed = self.rng.getrandbits(48)
        self.where = f"{engine.title}, {seats} seats, seed {self.seed}, {self.options!r}"
        self.chooser = Chooser(random.Random(self.seed + 1))
        #: every move seen legal for some seat, to try where it is not
        self.seen: dict[str, BaseModel] = {}

    def new_game(self) -> BaseModel:
        return self.engine.new_game(self.seats, self.options, self.game_seed)

    def play(self, check: Callable[[BaseModel, BaseModel], None]) -> tuple[BaseModel, Log]:
        """To the end; ``check(state, restored)`` sees every state (and its JSON copy) first."""
        engine, rng = self.engine, self.rng
        state = self.new_game()
        cap = engine.move_cap(self.seats, self.options)
        log: Log = []
        while True:
            restored = type(state).model_validate_json(state.model_dump_json())
            assert restored == state, f"{self.where}, move {len(log)}: the JSON round trip differs"
            stored = models.Table(guild_id=1, channel_id=1, game=self.where, host_id=1, seed=1,
                                  state=state.model_dump(mode="json"))
            assert type(state).model_validate(models.Table.model_validate_json(table_text(stored)).state) == state, (
                f"{self.where}, move {len(log)}: the state as the store writes it reads back otherwise")
            check(state, restored)
            if engine.is_over(state):
                return state, log
            assert len(log) < cap, f"{self.where}: not over after {cap} moves, the move cap"
            seat = rng.choice(engine.to_act(state))
            roll = rng.random()
            if roll < 0.15:
                after, _ = engine.on_timeout(state, seat)
                log.append((seat, None))
            else:
                action = (engine.ai_action(state, seat, self.chooser) if roll < 0.55
                          else rng.choice(engine.legal_actions(state, seat)))
                after, _ = engine.apply(state, seat, action)
                log.append((seat, action))
            assert state == restored, f"{self.where}, move {len(log)}: apply changed its input"
            state = after

    def check_moves(self, state: BaseModel, restored: BaseModel) -> None:
        """Who acts and what is legal; what is not legal is refused and changes nothing."""
        engine, rng = self.engine, self.rng
        waiting = engine.to_act(state)
        if engine.is_over(state):
            outcomes = engine.outcomes(state)
            assert sorted(o.seat for o in outcomes) == list(range(self.seats)), (self.where, outcomes)
            assert min(o.rank for o in outcomes) == 1, (self.where, outcomes)
            return
        assert waiting, f"{self.where}: the game is not over but waits for nobody"
        assert len(set(waiting)) == len(waiting) and all(0 <= s < self.seats for s in waiting), (
            self.where, waiting)
        legal = {}
        for seat in range(self.seats):
            moves = engine.legal_actions(state, seat)
            assert moves == engine.legal_actions(restored, seat), (
                f"{self.where}: legal_actions of seat {seat} differ for the same state")
            if seat in waiting:
                assert moves, f"{self.where}: seat {seat} owes a decision but has no legal move"
            legal[seat] = moves
            for move in moves:
                self.seen.setdefault(move.model_dump_json(), move)
        pool = list(self.seen.values())
        for _ in range(ILLEGAL_TRIES):
            seat = rng.randrange(self.seats)
            wrong = [m for m in rng.sample(pool, min(len(pool), 8)) if m not in legal[seat]]
            if not wrong:
                continue
            with pytest.raises(IllegalAction):
                engine.apply(state, seat, wrong[0])
            assert state == restored, f"{self.where}: a refused {wrong[0]!r} changed the state"

    def check_secrets(self, state: BaseModel, restored: BaseModel) -> None:
        """No viewer (each seat, and the channel) can tell the state from its scrambled twin."""
        engine = self.engine
        public = engine.view(state, None)
        for viewer in [None, *range(self.seats)]:
            mine = engine.view(state, viewer)
            twin = engine.scramble_hidden(state, viewer, self.rng)
            assert engine.view(twin, viewer) == mine, (
                f"{self.where}: viewer {viewer} sees a difference scramble_hidden made")
            if viewer is not None:  # the host builds a seat's view beside the public one it read
                beside = engine.seat_view(state, viewer, public)
                assert type(beside) is type(mine) and beside.model_dump() == mine.model_dump(), (
                    f"{self.where}: seat {viewer}'s view built beside the public one is not its view")
        assert state == restored, f"{self.where}: scramble_hidden changed its input"


@pytest.mark.parametrize("name, engine", GAMES, ids=IDS)
def test_random_games_keep_every_promise(name: str, engine: AnyEngine | BaseException) -> None:
    engine = imported(name, engine)
    for seats in seat_counts(engine):
        for game in range(RANDOM_GAMES_PER_SEAT_COUNT):
            table = Table(name, engine, seats, game)

            def check(state: BaseModel, restored: BaseModel) -> None:
                table.check_moves(state, restored)
                table.check_secrets(state, restored)

            try:
                end, log = table.play(check)
            except GameError as error:  # every move was legal: a refusal is a bug here
                raise AssertionError(f"{table.where}: {error}") from error
            replay = table.new_game()
            for seat, action in log:
                replay, _ = (engine.on_timeout(replay, seat) if action is None
                             else engine.apply(replay, seat, action))
            assert replay == end, f"{table.where}: the log of {len(log)} moves replays elsewhere"


def _scrambles_something(name: str, engine: AnyEngine) -> bool:
    for seats in seat_counts(engine):
        for game in range(RANDOM_GAMES_PER_SEAT_COUNT):
            table = Table(name, engine, seats, game)
            found = False

            def look(state: BaseModel, restored: BaseModel) -> None:
                nonlocal found
                found = found or any(engine.scramble_hidden(state, viewer, table.rng) != state
                                     for viewer in [None, *range(seats)])

            table.play(look)
            if found:
                return True
    return False


@pytest.mark.parametrize("name, engine", [
    (name, engine) for name, engine in GAMES if isinstance(engine, BaseException) or engine.has_private_view()
], ids=[name for name, engine in GAMES if isinstance(engine, BaseException) or engine.has_private_view()])
def test_a_game_with_secrets_scrambles_them(name: str, engine: AnyEngine | BaseException) -> None:
    """The view check above holds trivially for a scramble that changes nothing: a game that
    sends private views must declare its secrets by changing them."""
    engine = imported(name, engine)
    assert _scrambles_something(name, engine), f"{engine.title}: scramble_hidden never changes a state"


# -- the adversary ------------------------------------------------------------------------------


def _phase(state: BaseModel) -> object:
    return getattr(state, "phase", None)


def probe(engine: AnyEngine, state: BaseModel, seat: int, rng: random.Random
          ) -> tuple[BaseModel | None, BaseModel]:
    """``seat``'s legal moves in random order until one leaves it owing a decision in the same
    phase: the state after that stalling move (None if it has none), and the state after the
    first move tried, a move drawn at random, for when the adversary must move on."""
    legal = list(engine.legal_actions(state, seat))
    assert legal, f"{engine.title}: seat {seat} owes a decision but has no legal move"
    rng.shuffle(legal)
    first: BaseModel | None = None
    for action in legal:
        after, _ = engine.apply(state, seat, action)
        if first is None:
            first = after
        if (not engine.is_over(after) and seat in engine.to_act(after)
                and _phase(after) == _phase(state)):
            return after, first
    assert first is not None
    return None, first


def play(engine: AnyEngine, seats: int, options: BaseModel, seed: int) -> int:
    """One adversarial game; the number of moves it took (timeouts included)."""
    rng = random.Random(seed)
    state = engine.new_game(seats, options, rng.getrandbits(48))
    cap = engine.move_cap(seats, options)
    moves = 0
    while not engine.is_over(state):
        assert moves < cap, (f"{engine.title}: {seats} seats, seed {seed}, {options!r}: not over "
                             f"after {cap} moves, the move cap (phase {_phase(state)!r})")
        waiting = list(engine.to_act(state))
        assert waiting, f"{engine.title}: the game is not over but waits for nobody"
        rng.shuffle(waiting)
        fallback: BaseModel | None = None
        for seat in waiting:
            stalled, moved_on = probe(engine, state, seat, rng)
            if stalled is not None:
                state = stalled
                break
            fallback = fallback or moved_on
        else:  # nobody can stall: the first seat moves on, or the timer moves it on
            if rng.random() < TIMER_ODDS:
                state, _ = engine.on_timeout(state, waiting[0])
            else:
                assert fallback is not None
                state = fallback
        moves += 1
    return moves


@pytest.mark.parametrize("name, engine", GAMES, ids=IDS)
def test_no_table_runs_past_its_move_cap(name: str, engine: AnyEngine | BaseException) -> None:
    engine = imported(name, engine)
    counts = seat_counts(engine)
    per_count = math.ceil(GAMES_PER_ENGINE / len(counts))
    played = 0
    for seats in counts:
        for game in range(per_count):
            seed = zlib.crc32(f"{name}/{seats}/{game}".encode())
            options = options_for(engine, seats, random.Random(seed), vary=game % 2 == 1)
            try:
                moves = play(engine, seats, options, seed)
            except GameError as error:  # a refusal is a bug here: every move was legal
                raise AssertionError(f"{name}: {seats} seats, seed {seed}: {error}") from error
            assert moves <= engine.move_cap(seats, options)
            played += 1
    assert played >= GAMES_PER_ENGINE


# -- the caps, one by one -----------------------------------------------------------------------


def test_a_parley_ping_pong_ends_when_the_gifts_run_out() -> None:
    """Two players passing one gold piece back and forth once held a Mutiny parley for over
    1,700 clicks: the parley ends only when all are Ready. Now each seat gives three gifts at
    most, then Ready is all it has left."""
    from rules.stones_and_bones import ENGINE as SB
    from rules.stones_and_bones import StonesAndBonesAction as Move
    from rules.stones_and_bones import StonesAndBonesOptions, rules_summary

    # Seat 1 wins the roll-off for Captain, throws 3 7 12 16 and Floats with a 7: a plunder.
    state = SB.new_game(4, StonesAndBonesOptions(), seed=11, forced=[20, 1, 1, 1, 3, 7, 12, 16, 7])
    state, _ = SB.apply(state, 0, Move(kind="pay"))
    state, _ = SB.apply(state, 2, Move(kind="mutiny"))
    assert state.phase == "parley"
    purses = [p.purse for p in state.pirates]
    opened = SB.view(state, None).mutiny
    assert opened is not None and opened.gifts_left == {0: 3, 1: 3, 2: 3, 3: 3}

    giver, taker, passes = 0, 1, 0
    while passes < 1000:
        gift = Move(kind="give", target=taker, amount=100)
        if gift not in SB.legal_actions(state, giver):
            break
        state, events = SB.apply(state, giver, gift)
        assert [e.text for e in events] == [f"Seat {giver + 1} gives Seat {taker + 1} 1 gp."]
        giver, taker, passes = taker, giver, passes + 1

    assert passes == 6 and state.phase == "parley"
    assert [p.purse for p in state.pirates] == purses  # the coin went round three times
    for seat in (0, 1):
        assert SB.legal_actions(state, seat) == [Move(kind="ready")]
        with pytest.raises(IllegalAction):
            SB.apply(state, seat, Move(kind="give", target=1 - seat, amount=100))
    view = SB.view(state, None)
    assert view.mutiny is not None and view.mutiny.gifts_left == {0: 0, 1: 0, 2: 3, 3: 3}
    assert "at most three gifts each" in view.question
    assert "parley (deals, at most three gifts each)" in rules_summary()

    for seat in (0, 1, 2, 3):
        state, _ = SB.apply(state, seat, Move(kind="ready"))
    assert state.phase == "vote"


def test_an_ante_is_taken_back_three_times_at_most() -> None:
    """Adding a die to a sealed ante and taking it back again would hold the table as surely
    as a parley: three take-backs per ante, then only adding and sealing are left."""
    from rules.roll_the_bones import ENGINE as RB
    from rules.roll_the_bones import RollTheBonesAction as Move
    from rules.roll_the_bones import RollTheBonesOptions, action_label

    state = RB.new_game(2, RollTheBonesOptions(), seed=1)
    add, take_back = Move(kind="ante_add", sides=12), Move(kind="ante_remove", sides=12)
    labels = []
    for _ in range(100):
        state, _ = RB.apply(state, 0, add)
        if take_back not in RB.legal_actions(state, 0):
            break
        labels.append(action_label(RB.view(state, 0), take_back))
        state, _ = RB.apply(state, 0, take_back)
    assert labels == ["Take back a d12 (3 take-backs left)", "Take back a d12 (2 take-backs left)",
                      "Take back a d12 (1 take-back left)"]
    assert state.drafts[0] == [12] and state.phase == "ante"
    assert not any(a.kind == "ante_remove" for a in RB.legal_actions(state, 0))
    me = RB.view(state, 0).me
    assert me is not None and me.take_backs_left == 0 and "take back no more dice" in me.prompt
    # a bot taking the seat over keeps to what is left: fill and seal, not take back
    assert RB.ai_action(state, 0, Chooser(random.Random(0))) == Move(kind="ante_fill")
    state, _ = RB.apply(state, 0, Move(kind="ante_fill"))
    state, _ = RB.apply(state, 0, Move(kind="ante_confirm"))
    assert 0 not in RB.to_act(state)
    # the next roll's ante starts with three again
    assert RB.view(state, 1).me.take_backs_left == 3  # type: ignore[union-attr]


def test_a_round_of_endless_ties_is_settled_on_its_last_roll() -> None:
    """Ties roll again, so one round could roll for ever; the last roll a round may take is
    settled by a roll-off among the tied (the dice the roll-off throws move nowhere)."""
    from rules.roll_the_bones import ENGINE as RB
    from rules.roll_the_bones import ROLLS_PER_ROUND, RollTheBonesOptions, start_round

    state = RB.new_game(2, RollTheBonesOptions(), seed=1)
    state.hands = [[4], [4]]  # a last die each: every tie keeps them and rolls again
    state.dice.forced = [3, 3] * ROLLS_PER_ROUND + [5, 2]  # then the roll-off: Seat 1 5, Seat 2 2
    state, events = start_round(state)
    assert RB.is_over(state) and not state.dice.forced
    report = state.last_round
    assert report is not None and len(report.rolls) == ROLLS_PER_ROUND
    assert [r.result for r in report.rolls] == ["last_die_tie"] * (ROLLS_PER_ROUND - 1) + ["win"]
    assert report.winner == 0 and state.hands == [[4, 4], []]
    assert (f"Tie at 3 between Seat 1 and Seat 2 on the round's last roll ({ROLLS_PER_ROUND}): "
            "a d12 roll-off (Seat 1 5, Seat 2 2) decides it.") in [e.text for e in events]


class _Pip(BaseModel):
    face: int | None = None
    kind: typing.Literal["bone", "stone"] = "bone"
    marks: tuple[int, ...] = ()


class _Frozen(BaseModel):
    model_config = {"frozen": True}
    name: str = "x"


class _Cup(BaseModel):
    pips: list[_Pip]
    tally: dict[str, int | None]
    seal: _Frozen = _Frozen()
    note: str | None = None


def test_a_copied_state_shares_only_what_cannot_change() -> None:
    """copy_state copies a model of numbers, words and tuples by its fields alone, and rebuilds
    every list, dict and mutable model inside a state: changing the copy changes nothing of
    the original, whose equal it is."""
    from rules.base import copy_state

    cup = _Cup(pips=[_Pip(face=1), _Pip(face=2, marks=(1, 2))], tally={"a": 1, "b": None})
    copied = copy_state(cup)
    assert copied == cup and copied is not cup
    assert copied.pips is not cup.pips and copied.pips[0] is not cup.pips[0] and copied.tally is not cup.tally
    assert copied.seal is cup.seal  # frozen: shared
    copied.pips[0].face = 6
    copied.tally["a"] = 9
    assert cup.pips[0].face == 1 and cup.tally == {"a": 1, "b": None}
    pip = copy_state(_Pip(face=3))
    assert pip == _Pip(face=3) and pip.__dict__ is not _Pip(face=3).__dict__
