"""No table can be held for ever: every game ends within its move cap, whatever players click.

The rulings promise a hard cap on every game, and an open phase (gifts, toggles, take-backs)
is capped per seat so that players who never move it on cannot hold a table in it: the host
re-arms the table's timer on every move, so the timer alone never rescues such a table.

Every game is found as the ``ENGINE`` of a module or package directly under ``rules/``, so a
game added later is held to this as soon as it is there. Its adversary, seeded, makes whenever
it can a move after which the same seat still owes a decision in the same phase (a gift, a
toggle, a take-back); when a seat has only moves that finish its decision left, the table's
timer sometimes plays its default instead, as it would at a real table.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import random
import types
import typing
import zlib
from typing import Any

import pytest
from pydantic import BaseModel

import rules
from rules.base import Chooser, Engine, GameError

#: games played per engine, spread over its seat counts
GAMES_PER_ENGINE = 200
#: how often the table's timer plays a seat's default once it has no stalling move left
TIMER_ODDS = 0.25


def discover() -> list[tuple[str, Engine[Any, Any, Any] | BaseException]]:
    """Every module or package directly under ``rules/`` with an ``ENGINE`` (base, rng and
    notation have none). One that fails to import is kept with its error, so that a game being
    written fails its own test loudly rather than vanishing from the list."""
    found: list[tuple[str, Engine[Any, Any, Any] | BaseException]] = []
    for info in sorted(pkgutil.iter_modules(rules.__path__), key=lambda i: i.name):
        try:
            module = importlib.import_module(f"rules.{info.name}")
        except Exception as error:  # noqa: BLE001 - reported by that game's test
            found.append((info.name, error))
            continue
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            found.append((info.name, engine))
    return found


GAMES = discover()


def test_the_games_we_know_are_found() -> None:
    """Discovery that found nothing would make the termination test pass vacuously."""
    assert {"knucklebones", "roll_the_bones", "stones_and_bones"} <= {name for name, _ in GAMES}


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


def options_for(engine: Engine[Any, Any, Any], seats: int, rng: random.Random,
                vary: bool) -> BaseModel:
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


# -- the adversary ----------------------------------------------------------------------------


def _phase(state: BaseModel) -> object:
    return getattr(state, "phase", None)


def probe(engine: Engine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random
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


def play(engine: Engine[Any, Any, Any], seats: int, options: BaseModel, seed: int) -> int:
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


@pytest.mark.parametrize("name, engine", GAMES, ids=[name for name, _ in GAMES])
def test_no_table_runs_past_its_move_cap(name: str,
                                         engine: Engine[Any, Any, Any] | BaseException) -> None:
    if isinstance(engine, BaseException):
        raise AssertionError(f"rules.{name} does not import") from engine
    counts = range(engine.min_seats, engine.max_seats + 1)
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
    from rules.base import IllegalAction
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
