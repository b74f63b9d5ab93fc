"""What a table's picture costs, game by game: how often a move brings a picture not drawn
before, and what drawing it costs.

The latency bench's players press the same buttons game after game, so its fifty games show
the same few dice and the bot draws a new picture for about one click in twenty. Real players
do not: here every seat plays the game's own AI, seeded, game after game, and each move's public
table picture is looked up in a cache as large as the bot's (bot.pictures.CACHE_SIZE); one it
does not hold is drawn there and then, on one thread as a worker draws it, with whatever the
earlier moves left kept (tiles, words, parts). Pillow's time is most of it; the table text and
the rest of a click are not in these figures (bench/click_cost.py has them).

    .venv/bin/python bench/picture_cost.py
    .venv/bin/python bench/picture_cost.py --games 30 --only bone_duel
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.models import Seat, Table  # noqa: E402
from bot.pictures import CACHE_SIZE  # noqa: E402
from rules.base import Chooser  # noqa: E402
from tests.fixtures.tables import game_specs  # noqa: E402

#: a game that has not ended after this many moves is left (none does with its AI)
MOST_MOVES = 5000


def drawing(spec: Any, games: int, seats: int) -> tuple[int, int, float, int]:
    """Moves made, pictures drawn, the seconds drawing them took, and their bytes."""
    engine = spec.engine
    cache: OrderedDict[Hashable, None] = OrderedDict()
    moves = drawn = size = 0
    spent = 0.0
    for seed in range(games):
        table = Table(guild_id=1, channel_id=1, game=engine.key, host_id=1, seed=seed, status="active",
                      seats=[Seat(user_id=i + 1, name=name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee")[:seats])])
        state = engine.new_game(seats, engine.Options(), seed)
        choose = Chooser(random.Random(seed))
        for _ in range(MOST_MOVES):
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            state, _ = engine.apply(state, seat, engine.ai_action(state, seat, choose))
            moves += 1
            picture = spec.picture(table, engine.view(state, None))
            if picture is None:
                continue
            key = (picture.filename, picture.key)
            if key in cache:
                cache.move_to_end(key)
                continue
            began = time.perf_counter()
            size += len(picture.draw())
            spent += time.perf_counter() - began
            drawn += 1
            cache[key] = None
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
    return moves, drawn, spent, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="whole games of each game, three seats each (two where a game takes two)")
    parser.add_argument("--only", default=None, help="one game's key (knucklebones, bare_bones...)")
    args = parser.parse_args()
    print(f"{'game':<17}{'moves':>7}{'drawn/move':>12}{'ms/move':>9}{'ms/drawn':>10}{'kB':>7}")
    for spec in game_specs():
        if args.only not in (None, spec.engine.key):
            continue
        fewest, most = spec.engine.seat_range(spec.engine.Options())
        moves, drawn, spent, size = drawing(spec, args.games, max(fewest, min(3, most)))
        print(f"{spec.engine.key:<17}{moves:>7}{drawn / moves:>12.2f}{spent * 1000 / moves:>9.2f}"
              f"{spent * 1000 / max(1, drawn):>10.2f}{size / max(1, drawn) / 1024:>7.1f}")


if __name__ == "__main__":
    main()
