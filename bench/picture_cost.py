"""What a table's picture costs, game by game: how often a move brings a picture not drawn
before, and what drawing one costs.

The latency bench's players press the same buttons game after game, so its fifty games show
the same few dice and the bot draws a new picture for about one click in twenty. Real players
do not: here every seat plays the game's own AI, seeded, and each state's public table picture
is looked up in a cache as large as the bot's (bot.pictures.CACHE_SIZE). Then the distinct
pictures met are drawn twice, on one thread as a worker draws them: once from a cold start (no
kept tiles, cells or words) and once more with what the first pass kept, the cost a running bot
pays. Pillow's time is most of it; the table text and the rest of a click are not in these
figures (bench/click_cost.py has them).

    .venv/bin/python bench/picture_cost.py
    .venv/bin/python bench/picture_cost.py --games 20 --only knucklebones
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

from bot import pictures  # noqa: E402
from bot.models import Seat, Table  # noqa: E402
from bot.pictures import CACHE_SIZE, Picture  # noqa: E402
from rules.base import Chooser  # noqa: E402
from tests.fixtures.tables import game_specs  # noqa: E402

#: a game that has not ended after this many moves is left (none does with its AI)
MOST_MOVES = 5000


def pictures_met(spec: Any, games: int, seats: int) -> tuple[int, int, dict[Hashable, Picture]]:
    """Moves made, pictures the bot's cache would have had to draw, and the distinct pictures."""
    engine = spec.engine
    cache: OrderedDict[Hashable, None] = OrderedDict()
    drawn = moves = 0
    distinct: dict[Hashable, Picture] = {}
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
            distinct.setdefault(key, picture)
            if key in cache:
                cache.move_to_end(key)
                continue
            drawn += 1
            cache[key] = None
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
    return moves, drawn, distinct


def forget_kept_parts() -> None:
    for kept in (pictures._tile, pictures._cell, pictures._bitmap, pictures.fit_text, pictures.font):
        kept.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="whole games of each game, three seats each")
    parser.add_argument("--only", default=None, help="one game's key (knucklebones, bare_bones...)")
    parser.add_argument("--most", type=int, default=300, help="distinct pictures drawn at most, per game")
    args = parser.parse_args()
    print(f"{'game':<17}{'moves':>7}{'new pictures':>14}{'cold':>9}{'kept':>9}{'size':>9}"
          "   (new pictures per move; ms per picture; kB)")
    for spec in game_specs():
        if args.only not in (None, spec.engine.key):
            continue
        fewest, most = spec.engine.seat_range(spec.engine.Options())
        moves, drawn, distinct = pictures_met(spec, args.games, max(fewest, min(3, most)))
        chosen = list(distinct.values())[:args.most]
        if not chosen:
            print(f"{spec.engine.key:<17}{moves:>7}  no picture")
            continue
        forget_kept_parts()
        began = time.perf_counter()
        sizes = [len(p.draw()) for p in chosen]
        cold = time.perf_counter() - began
        began = time.perf_counter()
        for p in chosen:
            p.draw()
        kept = time.perf_counter() - began
        print(f"{spec.engine.key:<17}{moves:>7}{drawn / moves:>14.2f}{cold * 1000 / len(chosen):>9.2f}"
              f"{kept * 1000 / len(chosen):>9.2f}{sum(sizes) / len(sizes) / 1024:>9.1f}")


if __name__ == "__main__":
    main()
