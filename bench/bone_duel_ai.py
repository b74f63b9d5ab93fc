"""The Bone Duel bot against a player who places at random and against a greedy player (the
column that adds most to its own total now, the leftmost on ties): 1,000 seeded single games
each, the bot starting every other game. Prints the bot's win, draw and loss rates and the mean
time of one of its decisions.

    .venv/bin/python bench/bone_duel_ai.py
    .venv/bin/python bench/bone_duel_ai.py --games 200 --no-knockouts
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.base import Chooser  # noqa: E402
from rules.bone_duel import (  # noqa: E402
    ACTIONS,
    ENGINE,
    BoneDuelAction,
    BoneDuelOptions,
    BoneDuelState,
    greedy_column,
    totals,
)

Player = Callable[[BoneDuelState, int], BoneDuelAction]


def random_player(rng: random.Random) -> Player:
    return lambda state, seat: rng.choice(ENGINE.legal_actions(state, seat))


def greedy_player(state: BoneDuelState, seat: int) -> BoneDuelAction:
    return ACTIONS[greedy_column(state, seat)]


def match(opponent: Player, games: int, options: BoneDuelOptions, seed: int
          ) -> tuple[list[int], float, int, list[int]]:
    """[wins, draws, losses] of the bot, its thinking seconds, its decisions, game lengths."""
    chooser = Chooser(random.Random(seed))
    record, spent, decisions, lengths = [0, 0, 0], 0.0, 0, []
    for game in range(games):
        state = ENGINE.new_game(2, options, seed * 100_003 + game)
        bot = state.current if game % 2 == 0 else 1 - state.current
        moves = 0
        while not state.over:
            seat = state.current
            if seat == bot:
                start = time.perf_counter()
                action = ENGINE.ai_action(state, seat, chooser)
                spent += time.perf_counter() - start
                decisions += 1
            else:
                action = opponent(state, seat)
            state, _ = ENGINE.apply(state, seat, action)
            moves += 1
        lengths.append(moves)
        scores = totals(state)
        mine, theirs = scores[bot], scores[1 - bot]
        record[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    return record, spent, decisions, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-knockouts", action="store_true")
    args = parser.parse_args()
    options = BoneDuelOptions(knockouts=not args.no_knockouts)
    for name, opponent in (("random", random_player(random.Random(args.seed))),
                           ("greedy", greedy_player)):
        (won, drawn, lost), spent, decisions, lengths = match(opponent, args.games, options, args.seed)
        n = args.games
        print(f"vs {name:<6}  won {won / n:6.1%}  drawn {drawn / n:5.1%}  lost {lost / n:6.1%}  "
              f"({n} games; {spent / decisions * 1e6:6.0f} µs a decision; "
              f"placements a game: mean {sum(lengths) / n:.1f}, most {max(lengths)})")


if __name__ == "__main__":
    main()
