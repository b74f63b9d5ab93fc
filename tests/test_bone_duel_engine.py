"""Bone Duel engine: the rulebook's scoring examples and worked example as golden cases, the
end, the options, the match, the timeout, and the bot player against simple players."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules.base import Chooser, GameError, IllegalAction
from rules.bone_duel import (
    ENGINE,
    GAME_PLACEMENTS,
    MATCH_GAMES,
    BoneDuelAction,
    BoneDuelOptions,
    BoneDuelState,
    Placement,
    Preview,
    column_score,
    greedy_column,
    rules_summary,
    totals,
)

A = BoneDuelAction


def staged(mine: Sequence[Sequence[int]], theirs: Sequence[Sequence[int]], die: int, *,
           current: int = 0, then: Sequence[int] = (), **options: bool) -> BoneDuelState:
    """Seat ``current`` to place a rolled ``die`` with grids ``mine`` (its own) and ``theirs``;
    ``then`` are the rolls that follow."""
    state = ENGINE.new_game(2, BoneDuelOptions(**options), seed=7)
    grids = [[list(c) for c in mine], [list(c) for c in theirs]]
    state.grids = grids if current == 0 else grids[::-1]
    state.current = state.starter = current
    state.die = die
    state.dice.forced = list(then)
    return state


def place(state: BoneDuelState, column: int) -> tuple[BoneDuelState, list[str], list[str]]:
    """The current seat places in ``column``: the new state, the events' kinds and texts."""
    new, events = ENGINE.apply(state, state.current, A(column=column))
    return new, [e.kind for e in events], [e.text for e in events]


# -- scoring: the rulebook's examples ---------------------------------------------------------


@pytest.mark.parametrize("dice, score", [
    ([4], 4),            # «4 alone: 4»
    ([4, 4], 16),        # «Two 4s: 4 × 2 × 2 = 16»
    ([4, 4, 4], 36),     # «Three 4s: 4 × 3 × 3 = 36»
    ([2, 2, 5], 13),     # «2, 2, 5: 2 × 2 × 2 + 5 = 13»
    ([2, 5, 2], 13),     # the order does not matter
    ([1, 3, 6], 10),     # «1, 3, 6: 10»
    ([3, 3, 3], 27),     # the worked example
    ([], 0),
])
def test_column_scores_of_the_rulebook(dice: list[int], score: int) -> None:
    assert column_score(dice) == score


def test_a_total_is_the_three_columns() -> None:
    state = staged([[4, 4], [2, 2, 5], [1, 3, 6]], [[], [], []], die=1)
    assert totals(state) == [16 + 13 + 10, 0]
    assert ENGINE.view(state, 0).column_scores == [[16, 13, 10], [0, 0, 0]]


def test_the_worked_example() -> None:
    """Ann's left column 3, 3 faces Bob's 3, 6; Ann rolls a 3 and places it left: Bob's 3 is
    knocked out (his column is now 6); Ann's column scores 27, Bob's 6."""
    ann, bob = 0, 1
    state = staged([[3, 3], [], []], [[3, 6], [], []], die=3, then=[5])
    assert ENGINE.view(state, None).previews[0] == Preview(column=0, gain=27 - 12, knocks=[3], takes=3,
                                                                 score_after=27)
    new, kinds, texts = place(state, 0)
    assert new.grids[ann][0] == [3, 3, 3] and new.grids[bob][0] == [6]
    view = ENGINE.view(new, None)
    assert view.column_scores[ann][0] == 27 and view.column_scores[bob][0] == 6
    assert view.totals == [27, 6]
    assert kinds == ["place", "knock", "roll"]
    assert texts == [
        "Seat 1 places a 3 in the top row (total 27).",
        "Seat 1's 3 knocks a 3 out of Seat 2's top row (total 6).",
        "Seat 2 rolls a 5.",
    ]
    assert new.last == Placement(seat=ann, column=0, row=2, face=3, knocked=[3], game=1)
    assert new.current == bob and new.die == 5 and ENGINE.to_act(new) == [bob]
    assert state.grids[bob][0] == [3, 6]  # apply left its input alone


def test_events_carry_their_figures() -> None:
    state = staged([[2], [], []], [[2, 5, 2], [], []], die=2, then=[4])
    _, events = ENGINE.apply(state, 0, A(column=0))
    place_, knock, roll = events
    # a pair of 2s (+6), what a bot's placement is said to be after; the facing row was full,
    # but the knock-out opens it again
    assert place_.seats == (0,) and place_.data == {"column": 0, "row": 1, "face": 2, "score_after": 8,
                                                    "column_score": 8, "gain": 6, "matching": 2,
                                                    "facing_full": False}
    assert knock.seats == (0, 1) and knock.data == {"column": 0, "faces": [2, 2], "victim_after": 5}
    assert knock.text == "Seat 1's 2 knocks two 2s out of Seat 2's top row (total 5)."
    assert roll.seat == 1 and roll.data == {"face": 4}


def test_the_rest_of_a_knocked_column_keeps_its_order() -> None:
    state = staged([[], [], []], [[], [1, 4, 6], []], die=4, then=[1])
    new, _, _ = place(state, 1)
    assert new.grids[1][1] == [1, 6]


def test_no_knock_outs() -> None:
    state = staged([[3, 3], [], []], [[3, 6], [], []], die=3, then=[5], knockouts=False)
    assert ENGINE.view(state, None).previews[0].knocks == []
    new, kinds, _ = place(state, 0)
    assert new.grids == [[[3, 3, 3], [], []], [[3, 6], [], []]]
    assert kinds == ["place", "roll"] and new.last is not None and new.last.knocked == []
    assert ENGINE.view(new, 1).knockouts is False


# -- moves -------------------------------------------------------------------------------------


def test_legal_actions_one_per_column_with_room() -> None:
    state = staged([[1], [2, 2], []], [[1, 1, 1], [], []], die=6)
    assert ENGINE.legal_actions(state, 0) == [A(column=0), A(column=1), A(column=2)]
    assert ENGINE.legal_actions(state, 1) == []


def test_legal_actions_with_one_column_left() -> None:
    state = staged([[1, 2, 3], [], [4, 5, 6]], [[], [], []], die=2)
    assert ENGINE.legal_actions(state, 0) == [A(column=1)]
    assert [p.column for p in ENGINE.view(state, 0).previews] == [1]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, A(column=0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, A(column=1))  # not Seat 2's turn


def test_a_column_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        A(column=3)


def test_the_timeout_default_is_the_leftmost_column_with_room() -> None:
    state = staged([[1, 2, 3], [4], []], [[], [], []], die=4, then=[2])
    assert ENGINE.timeout_action(state, 0) == A(column=1)
    new, events = ENGINE.on_timeout(state, 0)
    assert [e.kind for e in events] == ["timeout", "place", "roll"]
    assert events[0].text == "Seat 1 ran out of time: the die goes into the topmost row with room."
    assert new.grids[0][1] == [4, 4]
    with pytest.raises(IllegalAction):
        ENGINE.on_timeout(new, 0)


def test_two_seats_only_and_a_random_start() -> None:
    for seats in (1, 3):
        with pytest.raises(GameError):
            ENGINE.new_game(seats, BoneDuelOptions(), seed=1)
    starts = set()
    for seed in range(30):
        state = ENGINE.new_game(2, BoneDuelOptions(), seed)
        assert state.current == state.starter and state.die in range(1, 7)
        assert state.grids == [[[], [], []], [[], [], []]] and state.game == 1
        starts.add(state.current)
    assert starts == {0, 1}
    assert ENGINE.new_game(2, BoneDuelOptions(), 5) == ENGINE.new_game(2, BoneDuelOptions(), 5)


def test_every_seat_sees_the_same() -> None:
    state = staged([[1], [], []], [[2], [], []], die=3)
    assert ENGINE.view(state, 0) == ENGINE.view(state, 1) == ENGINE.view(state, None)


# -- the end -------------------------------------------------------------------------------------


def test_the_game_ends_at_a_full_grid_after_the_knock_out() -> None:
    """Seat 1 fills its grid with a 6 that knocks out Seat 2's two 6s: the totals are counted
    after the knock-out, which turns a loss into a win, and nobody rolls again."""
    mine = [[1, 1, 2], [1, 2, 3], [1, 2]]  # 6 + 6 + 3 = 15 before the last die
    theirs = [[], [], [6, 6]]  # 24
    state = staged(mine, theirs, die=6)
    new, kinds, texts = place(state, 2)
    assert kinds == ["place", "knock", "game_over"]
    assert totals(new) == [15 + 6, 0]
    assert texts[-1] == "Seat 1's grid is full, so the game is over: Seat 1 wins, 21 to 0."
    assert new.over and new.die is None and ENGINE.to_act(new) == []
    assert ENGINE.legal_actions(new, 0) == ENGINE.legal_actions(new, 1) == []
    outcomes = ENGINE.outcomes(new)
    assert [(o.seat, o.rank, o.score) for o in outcomes] == [(0, 1, 21), (1, 2, 0)]
    view = ENGINE.view(new, None)
    assert view.winners == [0] and view.results == [0] and view.previews == []


def test_the_game_ends_when_the_other_grid_is_full_too() -> None:
    """Only the placer's grid can fill, but the check is «either player's grid»: a staged
    full opponent grid ends the game at once, whoever placed."""
    state = staged([[], [], []], [[1, 2, 3], [1, 2, 3], [1, 2, 3]], die=4)
    new, kinds, _ = place(state, 1)
    assert new.over and kinds[-1] == "game_over"


def test_a_full_grid_with_equal_totals_is_a_draw() -> None:
    state = staged([[1, 2, 3], [1, 2, 3], [1, 2]], [[6, 6], [], []], die=3)  # 6+6+3+3 = 18 to 24
    state.grids[1] = [[6], [6], [6]]  # 18
    new, _, texts = place(state, 2)
    assert totals(new) == [18, 18] and texts[-1] == "Seat 1's grid is full, so the game is over: a draw at 18 each."
    assert ENGINE.view(new, None).winners == [0, 1]
    assert [o.rank for o in ENGINE.outcomes(new)] == [1, 1]
    assert new.results == [None] and new.wins == [0, 0]


def test_a_game_ends_at_the_placement_limit() -> None:
    state = staged([[5], [], []], [[], [], []], die=1)
    state.placements = GAME_PLACEMENTS - 1
    new, _, texts = place(state, 1)
    assert new.over and texts[-1] == ("60 dice have been placed, the most a game allows, so the game is over: "
                                        "Seat 1 wins, 6 to 0.")
    assert ENGINE.move_cap(2, BoneDuelOptions()) == GAME_PLACEMENTS
    assert ENGINE.move_cap(2, BoneDuelOptions(best_of_three=True)) == GAME_PLACEMENTS * MATCH_GAMES


# -- best of three --------------------------------------------------------------------------------


ALMOST_FULL = [[1, 2, 3], [1, 2, 3], [1, 2]]  # 15 before a last die


def test_best_of_three_the_loser_starts_the_next_game() -> None:
    state = staged(ALMOST_FULL, [[5], [], []], die=4, best_of_three=True, then=[2])
    new, kinds, texts = place(state, 2)  # 19 to 5: Seat 1 wins game 1
    assert kinds == ["place", "game_over", "roll"]
    assert texts[1:] == ["Seat 1's grid is full, so game 1 is over: Seat 1 wins, 19 to 5.",
                         "Seat 2 rolls a 2."]
    assert not new.over and new.game == 2 and new.wins == [1, 0] and new.results == [0]
    assert new.starter == new.current == 1 and new.die == 2 and new.placements == 0
    assert new.grids == [[[], [], []], [[], [], []]]
    assert new.last is not None and new.last.game == 1
    view = ENGINE.view(new, None)
    assert view.game == 2 and view.wins == [1, 0] and view.winners == [] and view.best_of_three


def test_the_game_that_ends_keeps_its_final_grids_after_the_next_one_empties_them() -> None:
    """The move that ends game 1 starts game 2 on empty grids; the grids that made the score
    stay in the state and the view, with the die that ended it and what it knocked out."""
    state = staged(ALMOST_FULL, [[5], [], [4, 4]], die=4, best_of_three=True, then=[2])
    assert state.last_game is None and ENGINE.view(state, None).last_game is None
    new, _, _ = place(state, 2)  # a 4 fills Seat 1's grid and knocks out Seat 2's two 4s: 19 to 5
    assert new.game == 2 and new.grids == [[[], [], []], [[], [], []]]
    ended = ENGINE.view(new, None).last_game
    assert ended is not None and ended == new.last_game
    assert ended.game == 1 and ended.winner == 0 and ended.totals == [19, 5]
    assert ended.grids == [[[1, 2, 3], [1, 2, 3], [1, 2, 4]], [[5], [], []]]
    assert ended.column_scores == [[6, 6, 7], [5, 0, 0]]
    assert ended.last == Placement(seat=0, column=2, row=2, face=4, knocked=[4, 4], game=1)
    assert state.last_game is None  # apply left its input alone
    # the next game's moves leave it as it ended, until that game ends in its turn
    later, _, _ = place(new, 0)
    assert later.last_game == ended and later.grids[1][0] == [2]


def test_best_of_three_after_a_draw_the_other_player_starts() -> None:
    state = staged(ALMOST_FULL, [[6], [6], [6]], die=3, current=1, best_of_three=True, then=[6])
    assert state.starter == 1
    new, _, texts = place(state, 2)  # 18 each
    assert texts[1] == "Seat 2's grid is full, so game 1 is over: a draw at 18 each."
    assert new.results == [None] and new.wins == [0, 0] and new.game == 2
    assert new.starter == new.current == 0  # not Seat 2, who started the drawn game


def test_best_of_three_two_wins_end_the_match() -> None:
    state = staged(ALMOST_FULL, [[5], [], []], die=4, current=1, best_of_three=True)
    state.game, state.wins, state.results = 3, [1, 1], [0, 1]
    new, kinds, texts = place(state, 2)
    assert kinds == ["place", "game_over", "match_over"]
    assert texts[-1] == "Seat 2 wins the match, 2 games to 1."
    assert new.over and new.wins == [1, 2] and new.results == [0, 1, 1]
    assert ENGINE.view(new, None).winners == [1]
    assert [(o.seat, o.rank, o.score) for o in ENGINE.outcomes(new)] == [(0, 2, 1), (1, 1, 2)]


def test_best_of_three_ends_after_the_last_game_allowed() -> None:
    """Drawn games count for nobody; after MATCH_GAMES games the most wins take the match, and
    equal wins draw it."""
    state = staged(ALMOST_FULL, [[6], [6], [6]], die=3, best_of_three=True)
    state.game, state.wins, state.results = MATCH_GAMES, [1, 1], [0, 1, None, None]
    new, kinds, texts = place(state, 2)  # a draw
    assert kinds == ["place", "game_over", "match_over"]
    assert texts[-1] == f"The match is a draw: 1 game won each after {MATCH_GAMES} games."
    assert new.over and ENGINE.view(new, None).winners == [0, 1]
    assert [o.rank for o in ENGINE.outcomes(new)] == [1, 1]

    state.wins, state.results = [1, 0], [0, None, None, None]
    new, _, texts = place(state, 2)
    assert new.over and ENGINE.view(new, None).winners == [0]
    assert texts[-1] == "Seat 1 wins the match, 1 game to 0."  # one win, so "game", not "games"


def test_a_best_of_three_match_plays_to_its_end() -> None:
    for seed in range(20):
        state = ENGINE.new_game(2, BoneDuelOptions(best_of_three=True), seed)
        moves = 0
        while not state.over:
            state, _ = ENGINE.apply(state, state.current, ENGINE.legal_actions(state, state.current)[-1])
            moves += 1
        assert moves <= ENGINE.move_cap(2, state.options)
        assert max(state.wins) == 2 or state.game == MATCH_GAMES
        assert len(state.results) == state.game


# -- words ----------------------------------------------------------------------------------------


def test_rules_summary_says_the_options_the_timeout_and_the_caps() -> None:
    plain = rules_summary(BoneDuelOptions())
    assert "knocked out" in plain and "topmost row with room" in plain
    assert "its left column is the top row" in plain  # a reader of the rulebook finds its columns
    assert str(GAME_PLACEMENTS) in plain and "Best of three" not in plain
    match = rules_summary(BoneDuelOptions(best_of_three=True, knockouts=False))
    assert "Best of three" in match and f"after {MATCH_GAMES} games" in match
    assert "No knock-outs" in match


# -- the bot player -----------------------------------------------------------------------------


def test_the_bot_plays_a_legal_column_and_is_deterministic() -> None:
    chooser = Chooser(random.Random(1))
    state = staged([[1, 2, 3], [], [5, 5]], [[], [5], []], die=5)
    move = ENGINE.ai_action(state, 0, chooser)
    assert move in ENGINE.legal_actions(state, 0)
    assert move == A(column=2)  # 5 5 5 is worth 45
    assert ENGINE.ai_action(state, 0, chooser) == move


def test_greedy_is_the_best_own_gain_leftmost_on_ties() -> None:
    state = staged([[], [2], [3]], [[], [], []], die=3)
    assert greedy_column(state, 0) == 2
    state.die = 6
    assert greedy_column(state, 0) == 0


def _play(bot_options: BoneDuelOptions, opponent: str, games: int) -> list[int]:
    rng = random.Random(3)
    chooser = Chooser(rng)
    record = [0, 0, 0]
    for game in range(games):
        state = ENGINE.new_game(2, bot_options, 1000 + game)
        bot = state.current if game % 2 == 0 else 1 - state.current
        while not state.over:
            seat = state.current
            if seat == bot:
                action = ENGINE.ai_action(state, seat, chooser)
            elif opponent == "random":
                action = rng.choice(ENGINE.legal_actions(state, seat))
            else:
                action = A(column=greedy_column(state, seat))
            state, _ = ENGINE.apply(state, seat, action)
        mine, theirs = totals(state)[bot], totals(state)[1 - bot]
        record[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    return record


def test_the_bot_beats_simple_players() -> None:
    """A quick check; bench/bone_duel_ai.py measures over 1,000 games each."""
    won, _, _ = _play(BoneDuelOptions(), "random", 200)
    assert won >= 0.72 * 200
    won, _, _ = _play(BoneDuelOptions(), "greedy", 200)
    assert won >= 0.5 * 200
