"""Rattlebones engine: the rulebook's worked examples and the RULINGS.md 3.4 golden cases with
forced dice, scripted cases for every side and every kind of space, and a simulation of 600 games
that checks the 3.5 invariants after every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from rules.base import Chooser, Event, GameError, IllegalAction
from rules.rattlebones import (
    DATA,
    ENGINE,
    MAX_TURNS,
    MOVES_PER_TURN,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesState,
    RattlebonesView,
    action_label,
    event_text,
    glossary,
    leaders,
    load_board_data,
    rules_sections,
    rules_summary,
    standings,
    star_chart,
    star_value,
    stock_payout,
)
from rules.rattlebones.board import BoardData
from rules.rattlebones.dice import adjacent, follow

START_DIE = ["rb", "pip:2", "pip:3", "pip:4", "pip:5", "pip:6"]
#: standard14's printed spaces with a fixed choice of tiles, so a test knows every space
BOARD = ("start", "x2", "gold", "thief", "roll_again", "stock", "star", "arrow", "train",
         "place", "nine_pip", "gamble", "plus_one", "arrow")


def R(kind: str, **fields: object) -> RattlebonesAction:  # noqa: N802 - reads as the model
    return RattlebonesAction(kind=kind, **fields)  # type: ignore[arg-type]


def game(seats: int = 2, dice: Sequence[Sequence[Sequence[str]]] | None = None,
         spaces: Sequence[str] = BOARD, **options: object) -> RattlebonesState:
    """Seat 1 to act on a known board; ``dice`` sets each seat's three dice (by seat)."""
    opts = RattlebonesOptions(board="custom", custom_spaces=tuple(spaces), **options)  # type: ignore[arg-type]
    state = ENGINE.new_game(seats, opts, seed=5)
    state.current = state.start_seat = 0
    for seat, seat_dice in enumerate(dice or []):
        for d, faces in enumerate(seat_dice):
            _set_die(state, seat, d, list(faces))
    return state


def _set_die(state: RattlebonesState, seat: int, die: int, faces: list[str]) -> None:
    """Stage a die: the sides it takes come out of the supply, pips it loses leave the game."""
    old = state.players[seat].dice[die]
    for face in old:
        key = _key(face)
        if key:
            state.supply[key] += 1
        elif face.startswith("pip"):
            state.pips_in_play -= 1
    for face in faces:
        key = _key(face)
        if key:
            state.supply[key] -= 1
            assert state.supply[key] >= 0
        elif face.startswith("pip"):
            state.pips_in_play += 1
    state.players[seat].dice[die] = faces


def _key(face: str) -> str | None:
    if face == "rb" or face.startswith("pip"):
        return None
    if face.startswith("points"):
        return face
    return face.split(":")[0]


FIVES = ["rb", "points:5", "points:5", "points:5", "pip:5", "pip:6"]  # RT-4: only 3 of them


def die(*faces: str) -> list[str]:
    """A die from its sides 2-6 (side 1 is always the icon)."""
    assert len(faces) == 5
    return ["rb", *faces]


def act(state: RattlebonesState, kind: str, **fields: object) -> tuple[RattlebonesState, list[str]]:
    new, events = ENGINE.apply(state, state.current, R(kind, **fields))
    return new, [e.text for e in events]


def throw(state: RattlebonesState, dice: Sequence[int], slots: Sequence[int]
          ) -> tuple[RattlebonesState, list[str]]:
    """Throw ``dice`` showing sides ``slots`` (0-based: 0 is the icon)."""
    state.dice.forced = [s + 1 for s in slots]
    return act(state, "roll", dice=tuple(dice))


def kinds(state: RattlebonesState) -> list[str]:
    return [a.kind for a in ENGINE.legal_actions(state, state.current)]


def me(state: RattlebonesState, seat: int = 0):  # noqa: ANN201 - a Player
    return state.players[seat]


# -- setting up -----------------------------------------------------------------------------


def test_new_game_standard14_and_the_random_tiles() -> None:
    seen_tiles: Counter[str] = Counter()
    starts = set()
    for seed in range(60):
        state = ENGINE.new_game(3, RattlebonesOptions(), seed)
        assert len(state.board) == 14 and state.board[0] == "start"
        fixed = {2: "gold", 4: "roll_again", 6: "star", 8: "train", 10: "nine_pip", 12: "plus_one"}
        assert all(state.board[i] == k for i, k in fixed.items())
        assert state.tiles == [1, 3, 5, 7, 9, 11, 13]
        tiles = [state.board[i] for i in state.tiles]
        assert len(set(tiles)) == 7 and set(tiles) <= set(DATA.tiles)
        seen_tiles.update(tiles)
        starts.add(state.start_seat)
        assert state.rattlebones == 60 and state.train == 0
        assert all(p.monkeys == [0, 0, 0] and p.score == 0 and p.dice == [START_DIE] * 3
                   for p in state.players)
        assert (state.gold, state.stars, state.stock) == (20, 20, 5)
        # RT-4: a pile of 15 for each kind on the board, point sides 3 of each value
        assert state.supply["gold"] == 15 and state.supply["points:3"] == 3
        assert set(state.supply) == ({k for k in state.board if k not in ("start", "plus_one")}
                                     | {f"points:{v}" for v in range(1, 6)})
    assert set(seen_tiles) == set(DATA.tiles)  # every tile turns up over 60 boards
    assert starts == {0, 1, 2}  # RT-13: the start player is random


def test_compact8_is_start_and_seven_tiles() -> None:
    state = ENGINE.new_game(2, RattlebonesOptions(board="compact8"), 4)
    assert len(state.board) == 8 and state.board[0] == "start"
    assert len(set(state.board[1:])) == 7 and state.tiles == list(range(1, 8))


@pytest.mark.parametrize(("seats", "start"), [(2, 55), (3, 60), (4, 65)])
def test_rattlebones_starts_on_55_60_65(seats: int, start: int) -> None:  # RTG-10
    assert ENGINE.new_game(seats, RattlebonesOptions(), 1).rattlebones == start


def test_seat_counts_and_options_are_checked() -> None:
    for seats in (1, 5):
        with pytest.raises(GameError):
            ENGINE.new_game(seats, RattlebonesOptions(), 1)
    assert ENGINE.seat_range(RattlebonesOptions()) == (2, 4)
    with pytest.raises(ValidationError):
        RattlebonesOptions(board="custom")
    with pytest.raises(ValidationError):
        RattlebonesOptions(board="custom", custom_spaces=("gold", "start", "star", "x2"))
    with pytest.raises(ValidationError):
        RattlebonesOptions(board="standard14", custom_spaces=BOARD)
    with pytest.raises(ValidationError):
        RattlebonesOptions(train_values=(0,))
    with pytest.raises(ValidationError):
        RattlebonesOptions(point_sides="uneven")  # type: ignore[arg-type]
    tapered = ENGINE.new_game(2, RattlebonesOptions(point_sides="tapered"), 1)
    assert [tapered.supply[f"points:{v}"] for v in range(1, 6)] == [5, 4, 3, 2, 1]


def test_the_board_data_is_validated() -> None:
    raw = json.loads(DATA.model_dump_json())
    assert load_board_data() == DATA
    broken = dict(raw, start_die=["pip:2", "rb", "pip:3", "pip:4", "pip:5", "pip:6"])
    with pytest.raises(ValidationError):
        BoardData.model_validate(broken)
    broken = dict(raw, point_sides={"even": [3, 3, 3, 3, 2]})
    with pytest.raises(ValidationError):
        BoardData.model_validate(broken)
    broken = dict(raw, tiles=raw["tiles"][:-1] + ["start"])
    with pytest.raises(ValidationError):
        BoardData.model_validate(broken)
    layout = dict(raw["boards"]["compact8"], spaces=["start", "volcano", "tile", "tile"])
    with pytest.raises(ValidationError):
        BoardData.model_validate(dict(raw, boards=dict(raw["boards"], compact8=layout)))


def test_same_seed_same_game() -> None:
    a = ENGINE.new_game(4, RattlebonesOptions(), 99)
    b = ENGINE.new_game(4, RattlebonesOptions(), 99)
    assert a == b
    assert ENGINE.new_game(4, RattlebonesOptions(), 98).board != a.board or True


# -- the rulebook's worked examples and RULINGS 3.4 -------------------------------------------


def test_rulebook_turn_example_thief_then_rattlebones_then_arrow() -> None:
    """«He rolls a 3-pip and a Rattlebones Icon»: 3 onto THIEF, replace a side of that die;
    Rattlebones back, then one space onto ARROW, replace a side of *that* die."""
    state = game(spaces=("start", "gold", "star", "thief", "arrow", "train", "x2", "plus_one"))
    me(state).gold = 1
    state.gold -= 1
    state, texts = throw(state, [0, 1], [2, 0])  # die 1 shows 3 pips, die 2 the icon
    assert me(state).gold == 0 and state.gold == 20 and state.phase == "order"
    state, texts = act(state, "use", die=0)
    assert me(state).monkeys[0] == 3 and state.phase == "replace"
    legal = ENGINE.legal_actions(state, 0)
    assert R("keep") in legal and all(a.slot != 0 for a in legal)  # never the icon
    state, texts = act(state, "replace", slot=2)
    assert me(state).dice[0] == die("pip:2", "thief", "pip:4", "pip:5", "pip:6")
    # the icon is the only die left, so it is used at once: Rattlebones first, then a monkey
    # the line names whose skull it was (history can hold two players' turns in one line)
    assert state.rattlebones == 54 and "Seat 1 moves Rattlebones back to 54" in texts
    assert state.phase == "monkey"
    state, _ = act(state, "monkey", monkey=0)  # the one that just moved
    assert me(state).monkeys == [4, 0, 0] and state.phase == "replace"
    state, _ = act(state, "replace", slot=5)
    assert state.phase == "aim"
    assert kinds(state) == ["aim"] * 4 and [a.slot for a in ENGINE.legal_actions(state, 0)] == [1, 2, 3, 4]
    state, _ = act(state, "aim", slot=1)
    assert me(state).dice[1] == die("pip:2", "pip:3", "pip:4", "pip:5", "arrow:1")
    assert state.current == 1 and state.phase == "roll"  # «His turn ends.»


def test_rtg1_x2_gold_gold_is_three_gold() -> None:
    state = game(dice=[[die("x2", "x2", "x2", "x2", "x2"), die(*["gold"] * 5), die(*["gold"] * 5)]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [1, 1, 1])
    assert me(state).gold == 0 and state.gold_spent == 2
    state, _ = act(state, "use", die=1)
    # RT-6: the x2 may go on die 2 at once, or wait
    assert ENGINE.legal_actions(state, 0) == [R("use", die=2), R("double", die=0, target=1)]
    state, _ = act(state, "use", die=2)
    assert me(state).gold == 2 and state.phase == "x2"
    assert [a.target for a in ENGINE.legal_actions(state, 0) if a.kind == "double"] == [1, 2]
    state, texts = act(state, "double", die=0, target=1)
    assert me(state).gold == 3 and state.current == 1  # 3 gold, not 4
    assert state.gold + sum(p.gold for p in state.players) == 20


def test_rtg2_x2_x2_gold_is_two_gold() -> None:
    state = game(dice=[[die(*["x2"] * 5), die(*["x2"] * 5), die(*["gold"] * 5)]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [1, 1, 1])
    assert me(state).gold == 1 and state.phase == "x2"
    state, texts = act(state, "double", die=0, target=2)
    assert me(state).gold == 2 and state.current == 1  # the second x2 has nothing left
    assert "x2 on die 2 has nothing to double" in texts


@pytest.mark.parametrize(("target", "gold", "stars"), [(1, 2, 1), (2, 1, 2)])
def test_rtg3_x2_gold_star_doubles_one_or_the_other(target: int, gold: int, stars: int) -> None:
    state = game(dice=[[die(*["x2"] * 5), die(*["gold"] * 5), die(*["star"] * 5)]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [3, 3, 3])
    state, _ = act(state, "use", die=1)
    state, _ = act(state, "use", die=2)
    assert {a.target for a in ENGINE.legal_actions(state, 0) if a.kind == "double"} == {1, 2}
    state, _ = act(state, "double", die=0, target=target)
    assert (me(state).gold, me(state).stars) == (gold, stars)


def test_rtg4_roll_again_with_an_unrolled_die_x2_and_3_points_is_6() -> None:
    state = game(dice=[[die("roll_again", "x2", "pip:4", "pip:5", "pip:6"),
                        die("points:3", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE]])
    state, texts = throw(state, [0], [1])
    assert state.phase == "add_die" and kinds(state) == ["add_die", "add_die"]
    # the buttons say what they do: which die comes along with the Roll Again die (review: "Throw
    # die 2 along" under "choose the die to throw along" said neither)
    view = ENGINE.view(state, None)
    assert view.decision is not None and view.decision.prompt == "Roll Again: choose a die to roll with die 1."
    assert [action_label(view, a) for a in ENGINE.legal_actions(state, 0)] == ["Roll die 2 with die 1",
                                                                               "Roll die 3 with die 1"]
    state.dice.forced = [3, 2]  # die 1 shows x2, die 2 shows 3 points
    state, texts = act(state, "add_die", die=1)
    assert "Roll Again: die 1 is rolled again with die 2" in texts
    assert me(state).score == 3 and state.phase == "x2"
    state, _ = act(state, "double", die=0, target=1)
    assert me(state).score == 6 and state.current == 1


def test_roll_again_at_most_twice_and_ignored_once_every_die_is_thrown() -> None:
    """«Any ROLL AGAIN sides showing when all dice have been rolled are disregarded»: the throw
    that uses up the last die drops them at once, so they are never offered as a die to use."""
    state = game(dice=[[die(*["roll_again"] * 5), die(*["roll_again"] * 5), die(*["gold"] * 5)]])
    state, _ = throw(state, [0], [1])
    state.dice.forced = [2, 2]
    state, _ = act(state, "add_die", die=1)
    assert state.phase == "order"  # two Roll Agains showing, die 3 not thrown yet
    state.dice.forced = [3, 4]
    state, texts = act(state, "use", die=0)  # the last unrolled die comes along by itself
    assert "Roll Again: die 1 is rolled again with die 3" in texts
    assert "Roll Again on die 2 is ignored: every die has been rolled this turn" in texts
    assert "Roll Again on die 1 is ignored: every die has been rolled this turn" in texts
    # die 3's gold was the only die left to use, so it went by itself and the turn is over
    assert me(state).gold == 1 and state.current == 1


def test_rtg5_paying_two_gold_every_roll_again_is_ignored() -> None:
    state = game(dice=[[die(*["roll_again"] * 5)] * 3])
    me(state).gold, state.gold = 2, 18
    state, texts = throw(state, [0, 1, 2], [2, 2, 2])
    assert me(state).gold == 0 and state.gold == 20
    # nothing to choose: every Roll Again is disregarded as the dice land, and the turn ends
    assert [t for t in texts if "ignored" in t] == [
        f"Roll Again on die {d} is ignored: every die has been rolled this turn" for d in (1, 2, 3)]
    assert state.current == 1 and state.phase == "roll"


def test_roll_again_showing_once_every_die_is_thrown_is_never_a_choice() -> None:
    """Review rbx call 248: "Use die 1: Roll Again" was offered after all three dice were
    thrown; only the dice that do something are offered now."""
    state = game(dice=[[die(*["roll_again"] * 5), die(*["stock"] * 5), START_DIE]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [1, 1, 1])  # Roll Again, Stock, 2 pips
    uses = [a.die for a in ENGINE.legal_actions(state, 0) if a.kind == "use"]
    assert uses == [1, 2]
    view = ENGINE.view(state, None)
    assert [r.state for r in view.rolls] == ["dropped", "pending", "pending"]


def test_a_game_saved_with_a_roll_again_left_showing_plays_on() -> None:
    """A game saved before Roll Again was disregarded as the dice land: its state still holds
    one pending once every die is thrown. Stored and loaded, it plays on as the rule says (the
    Roll Again disregarded when used, by a person or by the bot), never into a question with no
    answer."""
    state = game(dice=[[die(*["roll_again"] * 5), die(*["stock"] * 5), START_DIE]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [1, 1, 1])
    state.rolls[0].state = "pending"  # as the engine before the change left it
    old = type(state).model_validate(json.loads(state.model_dump_json()))
    assert 0 in [a.die for a in ENGINE.legal_actions(old, 0) if a.kind == "use"]
    after, texts = act(old, "use", die=0)
    assert after.rolls[0].state == "dropped" and after.phase != "add_die"
    assert ENGINE.legal_actions(after, ENGINE.to_act(after)[0]), "a question with no answer"
    bot = ENGINE.ai_action(old, 0, Chooser(random.Random(1)))
    assert bot in ENGINE.legal_actions(old, 0)


def test_rtg6_nine_pip_five_onto_the_store_sells_two_stars_for_7() -> None:
    state = game(dice=[[die("nine_pip", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(state).monkeys = [9, 2, 2]
    me(state).stars, state.stars = 2, 18
    state, _ = throw(state, [0], [1])
    assert state.phase == "monkey"
    state, _ = act(state, "monkey", monkey=0)
    assert state.phase == "distance" and [a.n for a in ENGINE.legal_actions(state, 0)] == list(range(1, 10))
    state, _ = act(state, "distance", n=5)
    assert me(state).monkeys[0] == 0 and state.phase == "store"
    assert [a.n for a in ENGINE.legal_actions(state, 0)] == [0, 1, 2]
    state, texts = act(state, "sell", n=2)
    assert me(state).score == 7 and me(state).stars == 0 and state.stars == 20


def test_rtg7_thief_takes_per_victim_and_skips_who_has_nothing() -> None:
    state = game(seats=4, dice=[[die(*["thief"] * 5), START_DIE, START_DIE]])
    b, c, d = state.players[1], state.players[2], state.players[3]
    b.gold, b.stars, c.gold, c.stock = 2, 1, 1, 1
    state.gold, state.stars, state.stock = 17, 19, 4
    state, _ = throw(state, [0], [1])
    assert state.phase == "thief" and [a.take for a in ENGINE.legal_actions(state, 0)] == ["gold", "star"]
    state, _ = act(state, "steal", victim=1, take="gold")
    assert [a.take for a in ENGINE.legal_actions(state, 0)] == ["gold", "stock"]
    state, texts = act(state, "steal", victim=2, take="stock")
    b, c, d = state.players[1], state.players[2], state.players[3]
    assert (b.gold, b.stars, c.gold, c.stock) == (1, 1, 1, 0)
    assert (d.gold, d.stars, d.stock) == (0, 0, 0)
    assert (me(state).gold, me(state).stock) == (1, 1) and state.current == 1
    assert state.stock == 4  # a stolen ticket never comes from the supply


def test_thief_takes_at_once_from_a_victim_with_one_kind_and_nobody_has_anything() -> None:
    state = game(seats=3, dice=[[die(*["thief"] * 5), START_DIE, START_DIE]])
    state.players[2].stars, state.stars = 1, 19
    state, texts = throw(state, [0], [1])
    assert "Seat 1 steals 1 star from Seat 3" in texts and state.current == 1
    state = game(seats=3, dice=[[die(*["thief"] * 5), START_DIE, START_DIE]])
    state, texts = throw(state, [0], [1])
    assert "Thief: nobody has anything to take" in texts


@pytest.mark.parametrize("t", [0, 3, 7])
def test_rtg8_arrow_to_the_train_scores_its_space_and_moves_it(t: int) -> None:
    state = game(dice=[[die("arrow:2", "train", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    state.train = t
    state, texts = throw(state, [0], [1])
    assert me(state).score == t and state.train == (t + 1) % 8
    assert state.current == 1


def test_rtg10_the_star_chart_and_more_than_four_stars() -> None:
    assert [star_value(n) for n in range(6)] == [0, 3, 7, 11, 15, 19]
    assert [star_value(n, "batches") for n in (4, 5, 8, 9)] == [15, 18, 30, 33]
    assert [star_value(n) for n in (8, 20)] == [31, 79]


@pytest.mark.parametrize(("holdings", "paid"), [
    ([5, 0, 0, 0], [15, 0, 0, 0]),
    ([4, 1, 0, 0], [10, 5, 0, 0]),
    ([2, 3, 0], [5, 10, 0]),
    ([3, 1, 1, 0], [10, 2, 2, 0]),
    ([2, 2, 1, 0], [7, 7, 2, 0]),
    ([2, 1, 1, 1], [10, 2, 2, 2]),
    ([0, 5], [0, 15]),
])
def test_rtg10_stock_payouts(holdings: list[int], paid: list[int]) -> None:
    assert stock_payout(holdings) == paid


def test_the_fifth_ticket_from_the_supply_pays_out_and_the_tickets_go_back() -> None:
    state = game(seats=3, dice=[[die(*["stock"] * 5), START_DIE, START_DIE]])
    me(state).stock, state.players[1].stock, state.players[2].stock = 1, 2, 1
    state.stock = 1
    state, texts = throw(state, [0], [1])
    assert "The last stock ticket is taken: the stock pays out" in texts
    assert [p.score for p in state.players] == [7, 7, 2]  # 2-2-1
    assert state.stock == 5 and all(p.stock == 0 for p in state.players)


# -- every side -----------------------------------------------------------------------------


def test_gold_and_star_give_nothing_when_the_supply_is_empty() -> None:
    state = game(dice=[[die(*["gold"] * 5), die(*["star"] * 5), START_DIE]])
    state.players[1].gold, state.gold = 20, 0
    state.players[1].stars, state.stars = 20, 0
    me(state).gold = 0
    state, texts = throw(state, [0], [1])
    assert me(state).gold == 0 and "No gold left in the supply" in texts
    state = game(dice=[[die(*["star"] * 5), START_DIE, START_DIE]])
    state.players[1].stars, state.stars = 20, 0
    state, texts = throw(state, [0], [1])
    assert me(state).stars == 0 and "No stars left in the supply" in texts


def test_an_arrow_to_x2_is_an_x2_and_to_roll_again_throws_the_arrow_die_again() -> None:
    state = game(dice=[[die("arrow:2", "x2", "pip:4", "pip:5", "pip:6"), die(*["gold"] * 5), START_DIE]])
    me(state).gold, state.gold = 1, 19
    state, _ = throw(state, [0, 1], [1, 1])  # the arrow (x2) and a gold
    assert me(state).gold == 1 and state.phase == "x2"
    state, _ = act(state, "double", die=0, target=1)
    assert me(state).gold == 2
    state = game(dice=[[die("arrow:2", "roll_again", "pip:4", "pip:5", "pip:6"), START_DIE,
                        die(*["gold"] * 5)]])
    state.dice.forced = [2]
    state, _ = act(state, "roll", dice=(0,))
    state.dice.forced = [6, 2]  # die 1 shows 6 pips, die 3 gold
    state, texts = act(state, "add_die", die=2)
    assert "Roll Again: die 1 is rolled again with die 3" in texts and state.phase == "order"
    state, _ = act(state, "use", die=2)
    assert me(state).gold == 1 and me(state).monkeys == [6, 0, 0]  # then die 1 moves 6 (one choice)


def test_points_and_1234_places() -> None:
    state = game(seats=4, dice=[[die(*["place"] * 5), START_DIE, START_DIE]])
    for seat, score in enumerate([10, 12, 12, 3]):
        state.players[seat].score = score
    state, texts = throw(state, [0], [1])
    assert me(state).score == 13  # RT-9: two players strictly ahead -> third place, 3 points
    state = game(seats=2, dice=[[die(*["place"] * 5), START_DIE, START_DIE]])
    state.players[0].score = state.players[1].score = 4
    state, _ = throw(state, [0], [1])
    assert me(state).score == 5  # tied for first: 1 point
    state = game(dice=[[die("points:4", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    state, _ = throw(state, [0], [1])
    assert me(state).score == 4


def test_train_wraps_and_its_values_are_an_option() -> None:
    state = game(dice=[[die(*["train"] * 5), START_DIE, START_DIE]], train_values=(2, 9, 4))
    state.train = 2
    state, _ = throw(state, [0], [1])
    assert me(state).score == 4 and state.train == 0


def test_gamble_scores_points_or_steps_rattlebones_back_without_a_move() -> None:
    state = game(dice=[[die(*["gamble"] * 5), START_DIE, START_DIE]])
    state, texts = throw(state, [0], [1])
    state.dice.forced = []
    state = game(dice=[[die(*["gamble"] * 5), START_DIE, START_DIE]])
    state.dice.forced = [2, 4]  # the side, then the Gamble die's 4th face: 5 points
    state, texts = act(state, "roll", dice=(0,))
    assert me(state).score == 5 and "The Gamble die shows 5 points" in texts
    state = game(dice=[[die(*["gamble"] * 5), START_DIE, START_DIE]])
    state.dice.forced = [2, 6]  # the icon
    state, texts = act(state, "roll", dice=(0,))
    assert state.rattlebones == 54 and me(state).monkeys == [0, 0, 0] and state.current == 1
    assert "Seat 1 moves Rattlebones back to 54" in texts


def test_x2_does_not_double_the_gamble_die_or_a_thief() -> None:
    state = game(seats=2, dice=[[die(*["x2"] * 5), die(*["gamble"] * 5), die(*["thief"] * 5)]])
    me(state).gold, state.gold = 2, 18
    state.players[1].gold, state.gold = 1, 17
    state.dice.forced = [2, 2, 2, 2]  # x2, Gamble, Thief; the Gamble die shows 3 points
    state, texts = act(state, "roll", dice=(0, 1, 2))
    state, texts = act(state, "use", die=1)
    assert me(state).score == 3 and state.current == 1  # the Thief went last by itself
    assert any("x2 on die 1 has nothing to double" in t for t in texts)


def test_an_x2_may_double_before_a_later_die_ends_the_game() -> None:
    """RT-6: «as soon as both dice have resolved»: the 5 doubled before the icon is used."""
    state = game(dice=[[die(*["x2"] * 5), FIVES, START_DIE]])
    me(state).gold, state.gold = 2, 18
    state.rattlebones, me(state).score, state.players[1].score = 12, 0, 10
    state, _ = throw(state, [0, 1, 2], [1, 1, 0])  # x2, 5 points, the icon
    state, _ = act(state, "use", die=1)
    assert me(state).score == 5 and R("double", die=0, target=1) in ENGINE.legal_actions(state, 0)
    state, texts = act(state, "double", die=0, target=1)
    assert me(state).score == 10 and state.phase in ("monkey", "replace", "over")
    late = game(dice=[[die(*["x2"] * 5), FIVES, START_DIE]])
    late.players[0].gold, late.gold = 2, 18
    late.rattlebones, late.players[1].score = 11, 10
    late, _ = throw(late, [0, 1, 2], [1, 1, 0])
    late, _ = act(late, "use", die=2)  # the icon first: Rattlebones meets Seat 2 on 10
    assert ENGINE.is_over(late) and late.players[0].score == 0
    assert [o.rank for o in ENGINE.outcomes(late)] == [2, 1]


def test_an_x2_may_be_left_unused_and_bonus_points_can_end_the_game() -> None:
    state = game(dice=[[die(*["x2"] * 5), FIVES, START_DIE]])
    me(state).gold, state.gold = 1, 19
    state.rattlebones, me(state).score = 10, 1
    state, _ = throw(state, [0, 1], [1, 1])
    assert me(state).score == 6 and kinds(state) == ["double", "no_double"]
    declined, _ = act(state, "no_double", die=0)
    assert declined.players[0].score == 6 and declined.current == 1
    state, texts = act(state, "double", die=0, target=1)
    assert me(state).score == 11 and ENGINE.is_over(state) and state.end_reason == "rattlebones"


def test_arrow_to_pips_moves_and_lands_for_the_arrow_die() -> None:
    state = game(dice=[[START_DIE, die("arrow:3", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE]])
    state, texts = throw(state, [1], [1])  # the arrow on side 2 points at side 4: 4 pips
    assert me(state).monkeys == [4, 0, 0] and state.phase == "replace"
    state, _ = act(state, "replace", slot=4)
    assert me(state).dice[1][4] == "roll_again" and me(state).dice[0] == START_DIE


def prompt(state: RattlebonesState) -> str:
    decision = ENGINE.view(state, None).decision
    assert decision is not None
    return decision.prompt


def test_a_landing_says_what_the_die_showed_and_where_the_monkey_went() -> None:
    """Review rb3 call 14: the first turn's throw and move go by themselves (one die, every
    monkey on Start), so the landing's question is where a new player learns of them."""
    state = game()
    state, _ = throw(state, [0], [1])  # 2 pips, onto Gold
    assert state.phase == "replace"
    assert prompt(state) == ("Die 1 showed 2 pips: your monkey moved from Start / Store (0) to Gold (2). "
                             "Choose a side of die 1 to change, or keep it.")
    skull = game()
    skull, _ = throw(skull, [1], [0])  # the icon: Rattlebones back, then one space onto x2
    assert prompt(skull).startswith("Die 2 showed Rattlebones: Rattlebones stepped back to 54, and your "
                                    "monkey moved from Start / Store (0) to x2 (1). ")
    arrow = game(dice=[[START_DIE, die("arrow:3", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE]])
    arrow, _ = throw(arrow, [1], [1])  # the arrow points at 4 pips
    assert prompt(arrow).startswith("Die 2 showed Arrow to side 4, so 4 pips: your monkey moved from Start / Store (0) "
                                    "to Roll Again (4). ")
    store = game(dice=[[die("nine_pip", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(store).monkeys = [9, 9, 9]
    me(store).stars, store.stars = 2, 18
    store, _ = throw(store, [0], [1])
    store, _ = act(store, "distance", n=5)
    assert prompt(store) == ("Die 1 showed 9-Pip: your monkey moved from 1234 (9) to Start / Store (0). "
                             "How many of your 2 stars do you sell at the Store?")


def test_the_store_counts_stars_and_points_unmistakably() -> None:
    """Review: "How many of your 1 stars do you sell" and "1 for 3, 2 for 7" (1 point for 3
    stars?)."""
    store = game(dice=[[die("nine_pip", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(store).monkeys = [9, 9, 9]
    me(store).stars, store.stars = 1, 19
    store, _ = throw(store, [0], [1])
    store, _ = act(store, "distance", n=5)
    assert prompt(store).endswith(". Do you sell your 1 star at the Store?")
    chart = "1 star → 3 points, 2 stars → 7 points, 3 stars → 11 points, 4 stars → 15 points"
    assert star_chart() == chart
    # the rules and the glossary say it the same way
    assert f"sells stars: {chart};" in dict(rules_sections())["The board and your dice"]
    words = dict(w for _, group in glossary() for w in group)
    assert chart in words["Start / Store"] and " for 3" not in words["Start / Store"]


def test_the_first_turns_say_why_a_die_is_rolled() -> None:
    """Review: the first table said only "Choose a die to roll." over three dice alike."""
    state = game(seats=2)
    why = "Its pips move a monkey; where it lands, you may give that die the space's side."
    assert prompt(state) == f"Choose a die to roll. {why}"
    state.turn = 4  # each player's second turn still says it
    assert prompt(state).endswith(why)
    state.turn = 5  # then it has done its work
    state.players[0].gold = 1
    assert prompt(state) == "Choose a die to roll (or pay 1 gold for two)."


def test_arrow_to_the_icon_does_the_rattlebones_move_and_a_cycle_does_nothing() -> None:
    state = game(dice=[[die("arrow:0", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    state, texts = throw(state, [0], [1])
    assert state.rattlebones == 54 and me(state).monkeys == [1, 0, 0]
    cycle = die("arrow:2", "arrow:1", "pip:4", "pip:5", "pip:6")
    assert follow(cycle, 1) == (None, [1, 2])
    state = game(dice=[[cycle, START_DIE, START_DIE]])
    state, texts = throw(state, [0], [2])
    assert "The arrows on die 1 go round in a circle: nothing happens" in texts
    assert state.current == 1 and me(state).score == 0


def test_arrow_through_an_arrow_follows_on() -> None:
    faces = die("arrow:2", "arrow:5", "pip:4", "pip:5", "gold")
    assert follow(faces, 1) == ("gold", [1, 2, 5])
    state = game(dice=[[faces, START_DIE, START_DIE]])
    state, texts = throw(state, [0], [1])
    assert me(state).gold == 1


def test_arrow_geometry_is_a_standard_d6() -> None:
    assert adjacent(0) == [1, 2, 3, 4] and adjacent(1) == [0, 2, 3, 5] and adjacent(2) == [0, 1, 4, 5]
    for slot in range(6):
        assert 5 - slot not in adjacent(slot) and slot not in adjacent(slot)


# -- every landing space --------------------------------------------------------------------


@pytest.mark.parametrize("space", [1, 2, 3, 4, 5, 6, 8, 9, 10, 11])
def test_landing_puts_that_space_side_on_the_die_rolled(space: int) -> None:
    kind = BOARD[space]
    state = game(dice=[[START_DIE, START_DIE, START_DIE]])
    me(state).monkeys = [space - 1 if space > 1 else 0, 13, 13]
    steps = 1 if space > 1 else 1
    state, _ = throw(state, [2], [0] if steps == 1 else [steps - 1])
    if state.phase == "monkey":
        state, _ = act(state, "monkey", monkey=0)
    assert me(state).monkeys[0] == space and state.phase == "replace"
    assert [a.slot for a in ENGINE.legal_actions(state, 0)[1:]] == [1, 2, 3, 4, 5]
    before_supply, before_pips = state.supply[kind], state.pips_in_play
    state, texts = act(state, "replace", slot=3)
    assert me(state).dice[2] == ["rb", "pip:2", "pip:3", kind, "pip:5", "pip:6"]
    assert me(state).dice[0] == START_DIE and me(state).dice[1] == START_DIE
    assert state.supply[kind] == before_supply - 1 and state.pips_in_play == before_pips - 1


def test_replaced_action_sides_go_back_and_an_empty_pile_offers_nothing() -> None:
    state = game(dice=[[START_DIE, START_DIE, die("x2", "pip:3", "pip:4", "pip:5", "pip:6")]])
    me(state).monkeys = [1, 13, 13]  # one step onto Gold
    state, _ = throw(state, [2], [0])
    state, _ = act(state, "monkey", monkey=0)
    x2_before = state.supply["x2"]
    state, _ = act(state, "replace", slot=1)
    assert state.supply["x2"] == x2_before + 1 and me(state).dice[2][1] == "gold"
    state = game(dice=[[START_DIE, START_DIE, START_DIE]])
    state.supply["gold"] = 0
    me(state).monkeys = [1, 1, 1]
    state, texts = throw(state, [0], [0])
    assert "No Gold side is left to put on the die" in texts and state.current == 1


def test_keep_leaves_the_die_alone() -> None:
    state = game()
    me(state).monkeys = [1, 1, 1]
    state, _ = throw(state, [0], [0])
    state, texts = act(state, "keep")
    assert me(state).dice[0] == START_DIE and "Seat 1 keeps the die as it is" in texts


def test_plus_one_adds_a_one_or_upgrades_a_point_side_of_that_die_up_to_5() -> None:
    faces = die("points:2", "points:5", "pip:4", "pip:5", "pip:6")
    state = game(dice=[[faces, die("points:1", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE]])
    me(state).monkeys = [11, 11, 11]  # one step onto +1 (space 12)
    state, _ = throw(state, [0], [0])
    legal = ENGINE.legal_actions(state, 0)
    assert [(a.kind, a.slot) for a in legal] == [
        ("keep", None), ("replace", 1), ("replace", 2), ("replace", 3), ("replace", 4),
        ("replace", 5), ("upgrade", 1)]  # 5 is the maximum; die 2's point side is not offered
    state, texts = act(state, "upgrade", slot=1)
    assert me(state).dice[0][1] == "points:3" and state.supply["points:2"] == 3
    assert state.supply["points:3"] == 2


def test_plus_one_upgrade_is_blocked_when_that_value_is_out() -> None:
    state = game(dice=[[die("points:2", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    state.supply["points:3"] = 0
    state.supply["points:1"] = 0
    me(state).monkeys = [11, 11, 11]
    state, texts = throw(state, [0], [0])
    assert state.current == 1 and "No 1 point side is left to put on the die" in texts


def test_the_store_sells_any_number_of_stars_and_start_without_stars_does_nothing() -> None:
    state = game(dice=[[START_DIE] * 3])
    me(state).stars, state.stars = 6, 14
    me(state).monkeys = [13, 13, 13]
    state, _ = throw(state, [0], [0])
    assert state.phase == "store" and [a.n for a in ENGINE.legal_actions(state, 0)] == list(range(7))
    sold, _ = act(state, "sell", n=6)
    assert sold.players[0].score == 23 and sold.stars == 20  # RT-8: 4n-1
    batches = game(dice=[[START_DIE] * 3], store="batches")
    batches.players[0].stars, batches.stars = 6, 14
    batches.players[0].monkeys = [13, 13, 13]
    batches, _ = throw(batches, [0], [0])
    batches, _ = act(batches, "sell", n=6)
    assert batches.players[0].score == 22  # 15 + 7
    none = game()
    none.players[0].monkeys = [13, 13, 13]
    none, _ = throw(none, [0], [0])
    assert none.current == 1  # passing or landing on START does nothing else


def test_monkeys_sharing_a_space_are_one_choice_and_a_lone_choice_is_not_asked() -> None:
    state = game()
    me(state).monkeys = [3, 3, 5]
    state, _ = throw(state, [0], [1])
    assert [a.monkey for a in ENGINE.legal_actions(state, 0)] == [0, 2]


# -- the end --------------------------------------------------------------------------------


def test_the_icon_ending_the_game_skips_the_monkey_and_drops_the_other_dice() -> None:
    state = game(dice=[[START_DIE, FIVES, START_DIE]])
    me(state).score, state.rattlebones = 20, 21
    me(state).gold, state.gold = 1, 19
    state, _ = throw(state, [0, 1], [0, 1])
    state, texts = act(state, "use", die=0)
    assert ENGINE.is_over(state) and state.rattlebones == 20
    assert me(state).monkeys == [0, 0, 0] and me(state).score == 20  # die 2 never scored
    assert [r.state for r in state.rolls] == ["done", "dropped"]
    assert ENGINE.to_act(state) == [] and ENGINE.legal_actions(state, 0) == []
    assert [o.rank for o in ENGINE.outcomes(state)] == [1, 2]


def test_points_passing_rattlebones_end_the_game_mid_turn_and_the_leader_wins() -> None:
    state = game(seats=3, dice=[[FIVES, START_DIE, START_DIE]])
    state.rattlebones = 30
    state.players[0].score, state.players[1].score = 27, 26
    state, texts = throw(state, [0], [1])
    assert ENGINE.is_over(state) and "Seat 1 wins" in texts[-1]
    assert [o.rank for o in ENGINE.outcomes(state)] == [1, 2, 3]


def test_ties_go_to_gold_stars_and_stock_then_stay_tied() -> None:
    state = game(seats=3)
    for p, (score, gold, stars, stock) in zip(state.players, [(30, 1, 1, 0), (30, 0, 1, 2), (29, 9, 9, 0)], strict=True):
        p.score, p.gold, p.stars, p.stock = score, gold, stars, stock
    state.phase = "over"
    assert [o.rank for o in ENGINE.outcomes(state)] == [2, 1, 3]
    state.players[0].stock = 1
    assert [o.rank for o in ENGINE.outcomes(state)] == [1, 1, 3]


def test_the_turn_cap_ends_the_game_on_the_scores() -> None:
    state = game()
    state.turn = MAX_TURNS
    me(state).score = 3
    state, texts = throw(state, [0], [1])
    state, texts = act(state, "monkey", monkey=0) if state.phase == "monkey" else (state, texts)
    if state.phase == "replace":
        state, texts = act(state, "keep")
    assert ENGINE.is_over(state) and state.end_reason == "cap"
    assert "2000-turn limit" in texts[-1] and ENGINE.outcomes(state)[0].rank == 1


def test_move_cap_covers_every_turn_to_the_turn_cap() -> None:
    assert ENGINE.move_cap(4, RattlebonesOptions()) == MAX_TURNS * MOVES_PER_TURN


# -- the contract -----------------------------------------------------------------------------


def test_illegal_actions_raise_and_leave_the_state_alone() -> None:
    state = game()
    before = state.model_dump()
    for seat, action in [(1, R("roll", dice=(0,))), (0, R("roll", dice=(0, 1))),
                         (0, R("roll", dice=(0, 1, 2))), (0, R("keep")), (0, R("sell", n=0))]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert state.model_dump() == before
    state, _ = throw(state, [0], [1])
    assert state.phase == "monkey" or state.phase == "replace"
    before = state.model_dump()
    for action in [R("replace", slot=0), R("monkey", monkey=5), R("roll", dice=(1,))]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, action)
    assert state.model_dump() == before


def test_apply_does_not_touch_its_input() -> None:
    state = game(dice=[[die(*["gold"] * 5), START_DIE, START_DIE]])
    state.dice.forced = [2]
    before = state.model_dump()
    after, _ = ENGINE.apply(state, 0, R("roll", dice=(0,)))
    assert state.model_dump() == before and after.players[0].gold == 1


def test_legal_actions_for_a_throw_depend_on_gold() -> None:
    state = game()
    assert [a.dice for a in ENGINE.legal_actions(state, 0)] == [(0,), (1,), (2,)]
    me(state).gold = 1
    assert len(ENGINE.legal_actions(state, 0)) == 6
    me(state).gold = 2
    assert ENGINE.legal_actions(state, 0)[-1].dice == (0, 1, 2)
    assert ENGINE.legal_actions(state, 1) == []


def test_timeout_plays_the_rest_of_the_turn_by_the_defaults() -> None:
    state = game(seats=3, dice=[[die("thief", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(state).monkeys = [5, 2, 9]
    state.players[1].gold, state.players[1].stars, state.gold, state.stars = 1, 1, 19, 19
    state.dice.forced = [3]  # the leftmost die shows 3 pips
    state, events = ENGINE.on_timeout(state, 0)
    texts = [e.text for e in events]
    assert me(state).monkeys == [5, 5, 9]  # the rearmost monkey moved, on 2
    assert me(state).dice[0][2] == "pip:3" and state.current == 1  # no new side taken
    assert texts[0].startswith("Seat 1 ran out of time")
    # the Thief: gold before stars
    state = game(seats=2, dice=[[die(*["thief"] * 5), START_DIE, START_DIE]])
    state.players[1].gold, state.players[1].stars, state.gold, state.stars = 1, 1, 19, 19
    state.dice.forced = [2]
    state, _ = ENGINE.on_timeout(state, 0)
    assert me(state).gold == 1 and state.players[1].stars == 1
    # the Store: every star sold
    state = game()
    me(state).stars, state.stars, me(state).monkeys = 3, 17, [13, 13, 13]
    state.dice.forced = [1]
    state, _ = ENGINE.on_timeout(state, 0)
    assert me(state).score == 11 and me(state).stars == 0
    with pytest.raises(IllegalAction):
        ENGINE.on_timeout(state, 0)


def test_timeout_x2_goes_on_the_largest_gain() -> None:
    state = game(dice=[[die(*["x2"] * 5), die("points:2", "pip:3", "pip:4", "pip:5", "pip:6"),
                        die("points:4", "pip:3", "pip:4", "pip:5", "pip:6")]])
    me(state).gold, state.gold = 2, 18
    state, _ = throw(state, [0, 1, 2], [1, 1, 1])
    state, _ = ENGINE.on_timeout(state, 0)
    assert me(state).score == 10


def test_ai_sells_at_three_steals_gold_first_and_builds_toward_points() -> None:
    choose = Chooser(random.Random(1))
    state = game()
    me(state).stars, state.stars, me(state).monkeys = 2, 18, [13, 13, 13]
    state, _ = throw(state, [0], [0])
    assert ENGINE.ai_action(state, 0, choose) == R("sell", n=0)
    me(state).stars, state.stars = 3, 17
    assert ENGINE.ai_action(state, 0, choose) == R("sell", n=3)
    state = game(seats=2, dice=[[die(*["thief"] * 5), START_DIE, START_DIE]])
    p = state.players[1]
    p.gold, p.stars, p.stock, state.gold, state.stars, state.stock = 1, 1, 1, 19, 19, 4
    state, _ = throw(state, [0], [1])
    assert ENGINE.ai_action(state, 0, choose) == R("steal", victim=1, take="gold")
    state.players[1].gold = 0
    assert ENGINE.ai_action(state, 0, choose) == R("steal", victim=1, take="star")
    # +1: the point side goes up; a fresh 1-point side replaces pips
    state = game(dice=[[die("points:3", "pip:3", "pip:4", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(state).monkeys = [11, 11, 11]
    state, _ = throw(state, [0], [0])
    action = ENGINE.ai_action(state, 0, choose)
    assert action.kind in ("upgrade", "replace") and action.slot != 1 or action == R("upgrade", slot=1)
    after, _ = ENGINE.apply(state, 0, action)
    assert sum(int(f.split(":")[1]) for f in after.players[0].dice[0] if f.startswith("points")) > 3
    # x2 space: an x2 replaces pips
    state = game()
    me(state).monkeys = [0, 0, 0]
    state, _ = throw(state, [0], [0])
    assert ENGINE.ai_action(state, 0, choose).kind == "replace"


def test_the_bot_beats_random_play() -> None:
    rng = random.Random(3)
    wins = 0
    for g in range(40):
        state = ENGINE.new_game(2, RattlebonesOptions(), g)
        choose = Chooser(random.Random(g))
        bot = g % 2
        while not ENGINE.is_over(state):
            seat = state.current
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.ai_action(state, seat, choose) if seat == bot else rng.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
        wins += any(o.seat == bot and o.rank == 1 for o in ENGINE.outcomes(state))
    assert wins >= 32


def test_view_and_labels_are_what_a_table_needs() -> None:
    state = game(seats=3, dice=[[die("x2", "pip:3", "gold", "pip:5", "pip:6"), START_DIE, START_DIE]])
    me(state).gold, state.gold, me(state).stars, state.stars = 2, 18, 3, 17
    view = ENGINE.view(state, None)
    assert isinstance(view, RattlebonesView) and view == ENGINE.view(state, 1)
    assert view.current_seat == 0 and view.rattlebones == 60 and view.rattlebones_start == 60
    assert [s.name for s in view.spaces][:3] == ["Start / Store", "x2", "Gold"]
    assert view.decision is not None and "pay 1 gold for two or 2 gold for all three" in view.decision.prompt
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, 0)]
    assert labels[0] == "Roll die 1" and labels[-1] == "Pay 2 gold: roll all three dice"
    assert standings(view)[0] == "Seat 1: 0 points (60 from Rattlebones), 2 gold, 3 stars, 0 stock"


def test_every_label_of_many_games_is_short_and_distinct() -> None:
    rng = random.Random(8)
    for g in range(25):
        state = ENGINE.new_game(rng.randint(2, 4), RattlebonesOptions(board=rng.choice(["standard14", "compact8"])), g)
        while not ENGINE.is_over(state):
            seat = state.current
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat)
            labels = [action_label(view, a) for a in legal]
            assert all(0 < len(x) <= 80 for x in labels) and len(set(labels)) == len(labels), labels
            assert 1 <= len(legal) <= 25 and view.decision is not None and view.decision.prompt
            state, _ = ENGINE.apply(state, seat, rng.choice(legal))


def test_rules_summary_is_in_words_and_shows_the_options() -> None:
    text = rules_summary()
    assert "RT-" not in text and "OPT" not in text and len(text) < 4000
    assert "3 of 1, 3 of 2" in text and "0, 1, 2, 3, 4, 5, 6, 7" in text
    other = rules_summary(RattlebonesOptions(board="compact8", point_sides="tapered", store="batches",
                                             train_values=(1, 2, 3)))
    assert "8 spaces" in other and "5 of 1, 4 of 2" in other and "batches" in other and "1, 2, 3" in other


# -- simulations -----------------------------------------------------------------------------


def check_state(state: RattlebonesState) -> None:
    """RULINGS 3.5 within a state (legal actions are checked by the caller, once a step)."""
    n = len(state.board)
    split = DATA.point_sides[state.options.point_sides]
    dice = [d for p in state.players for d in p.dice]
    assert len(dice) == 3 * state.seats and all(len(d) == 6 and d[0] == "rb" for d in dice)
    assert all(0 <= m < n for p in state.players for m in p.monkeys)
    faces = Counter([f for d in dice for f in d])
    on_dice: Counter[str] = Counter()
    pips = 0
    for face, count in faces.items():
        if face.startswith("pip"):
            pips += count
        elif face != "rb":
            on_dice[_key(face) or ""] += count
    assert faces["rb"] == 3 * state.seats  # only ever on side 1
    for key, left in state.supply.items():
        total = split[int(key[-1]) - 1] if key.startswith("points:") else 15
        assert left >= 0 and left + on_dice[key] == total, key
    assert on_dice.keys() <= state.supply.keys()
    assert pips == state.pips_in_play
    assert state.gold + sum(p.gold for p in state.players) == 20
    assert state.stars + sum(p.stars for p in state.players) == 20
    assert state.stock + sum(p.stock for p in state.players) == 5 and state.stock >= 1
    assert 0 <= state.train < len(state.options.train_values)
    assert state.gold_spent <= 2 and len({r.die for r in state.rolls}) <= 3 and len(state.rolls) <= 5
    assert state.turn_moves <= MOVES_PER_TURN and state.turn < MAX_TURNS
    over = state.phase == "over"
    assert over == (max(p.score for p in state.players) >= state.rattlebones)
    if over:
        assert state.end_reason == "rattlebones" and ENGINE.to_act(state) == []
        top = max(p.score for p in state.players)
        assert all(state.players[o.seat].score == top for o in ENGINE.outcomes(state) if o.rank == 1)
    else:
        assert ENGINE.to_act(state) == [state.current]


def check_step(before: RattlebonesState, after: RattlebonesState) -> None:
    """RULINGS 3.5 across a step: scores never fall, Rattlebones never climbs, pips only go."""
    assert all(a.score >= b.score for a, b in zip(after.players, before.players, strict=True))
    assert after.rattlebones <= before.rattlebones
    assert after.pips_in_play <= before.pips_in_play


def random_game(rng: random.Random, seed: int, round_trip: bool
                ) -> tuple[RattlebonesState, int, RattlebonesOptions, list[tuple[int, RattlebonesAction]]]:
    seats = rng.randint(2, 4)
    options = RattlebonesOptions(board=rng.choice(["standard14", "standard14", "compact8"]),
                                 point_sides=rng.choice(["even", "tapered"]),
                                 store=rng.choice(["linear", "batches"]))
    state = ENGINE.new_game(seats, options, seed)
    log: list[tuple[int, RattlebonesAction]] = []
    check_state(state)
    while not ENGINE.is_over(state):
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        assert 1 <= len(legal) <= 25  # one select menu at most
        action = rng.choice(legal)
        after, _ = ENGINE.apply(state, seat, action)
        check_state(after)
        check_step(state, after)
        if round_trip:
            assert RattlebonesState.model_validate_json(after.model_dump_json()) == after
        log.append((seat, action))
        state = after
    assert len(log) <= ENGINE.move_cap(seats, options)
    return state, seats, options, log


#: seeded random games; the last branch of the engine and of the checks a thousand reach (an
#: upgrade with that supply used up) comes in the 515th
RANDOM_GAMES = 600


def test_random_games_keep_the_invariants_and_replay() -> None:
    rng = random.Random(20241123)
    seen: set[tuple[int, str]] = set()
    kinds_used: Counter[str] = Counter()
    for g in range(RANDOM_GAMES):
        seed = rng.getrandbits(63)
        final, seats, options, log = random_game(rng, seed, round_trip=g % 20 == 0)
        seen.add((seats, options.board))
        kinds_used.update(a.kind for _, a in log)
        assert RattlebonesState.model_validate_json(final.model_dump_json()) == final
        if g % 20 == 0:  # replay from the seed and the log gives the same game
            state = ENGINE.new_game(seats, options, seed)
            for seat, action in log:
                state, _ = ENGINE.apply(state, seat, action)
            assert state == final
    assert seen == {(s, b) for s in (2, 3, 4) for b in ("standard14", "compact8")}
    assert set(kinds_used) == {"roll", "use", "monkey", "distance", "keep", "replace", "upgrade",
                               "aim", "sell", "add_die", "steal", "double", "no_double"}


def test_bots_and_timeouts_always_move_legally_and_finish() -> None:
    rng = random.Random(7)
    for g in range(120):
        seats = rng.randint(2, 4)
        state = ENGINE.new_game(seats, RattlebonesOptions(board=rng.choice(["standard14", "compact8"])), g)
        timed_out = {s for s in range(seats) if rng.random() < 0.4}
        choose = Chooser(random.Random(g))
        moves = 0
        while not ENGINE.is_over(state):
            seat = state.current
            if seat in timed_out:
                turn = state.turn
                state, events = ENGINE.on_timeout(state, seat)
                assert state.turn == turn + 1 or ENGINE.is_over(state)
            else:
                action = ENGINE.ai_action(state, seat, choose)
                assert action in ENGINE.legal_actions(state, seat)
                state, _ = ENGINE.apply(state, seat, action)
            moves += 1
            check_state(state)
            assert ENGINE.is_over(state) or ENGINE.legal_actions(state, state.current)
        assert moves <= ENGINE.move_cap(seats, state.options)


def test_events_name_seats_as_the_host_expects() -> None:
    state = game(dice=[[die(*["gold"] * 5), START_DIE, START_DIE]])
    state.dice.forced = [2]
    _, events = ENGINE.apply(state, 0, R("roll", dice=(0,)))
    assert all(isinstance(e, Event) and e.seat == 0 for e in events)
    assert [e.text for e in events] == ["Seat 1 rolls die 1: Gold", "Seat 1 takes 1 gold"]


def test_events_carry_their_seats_and_figures() -> None:
    """A cog tells a turn from an event's kind, seats and figures; the log's line is made from
    those alone, so nothing a player reads needs the English parsed back."""
    state = game(seats=3, dice=[[die(*["stock"] * 5), START_DIE, START_DIE]])
    me(state).stock, state.players[1].stock, state.players[2].stock = 1, 2, 1
    state.stock = 1
    state.dice.forced = [2]
    _, events = ENGINE.apply(state, 0, R("roll", dice=(0,)))
    payout = next(e for e in events if e.kind == "stock" and "payout" in e.data)
    assert payout.seats == (0, 1, 2) and payout.data["payout"] == [7, 7, 2]
    scored = [(e.seat, e.seats, e.data) for e in events if e.kind == "score"]
    assert scored == [(s, (s,), {"points": n, "total": n, "source": "stock", "tickets": t})
                      for s, n, t in ((0, 7, 2), (1, 7, 2), (2, 2, 1))]
    rng = random.Random(11)
    for g in range(30):
        state = ENGINE.new_game(2 + g % 3, RattlebonesOptions(), g)
        choose = Chooser(random.Random(g))
        while not ENGINE.is_over(state):
            seat = state.current
            if rng.random() < 0.1:
                state, events = ENGINE.on_timeout(state, seat)
            else:
                state, events = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, choose))
            for e in events:
                assert e.seats and (e.seat is None or e.seats[0] == e.seat)
                assert e.text == event_text(e.kind, e.seats, e.data)
                if e.kind == "over":
                    assert list(e.seats) == leaders(state)
