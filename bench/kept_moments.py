"""The memory a live game's kept moment holds, game by game: what ``runtime.MOMENTS_KEPT`` bounds.

The runtime keeps each live game's last moment (its table, parsed state, views, legal actions,
stamps) so that the next click starts from it. This plays seeded games through step and
present, as a click does, and prints the size of what stays kept after each click: the
moment's own objects, not the game's engine or the classes they share.

    .venv/bin/python bench/kept_moments.py
    .venv/bin/python bench/kept_moments.py --seats 4 --clicks 60
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import present, step  # noqa: E402
from bot.models import Book, Seat, Table  # noqa: E402
from bot.present import Channel, Origin  # noqa: E402
from bot.runtime import MOMENTS_KEPT  # noqa: E402
from bot.step import Moment  # noqa: E402
from rules.base import Chooser  # noqa: E402
from tests.fixtures.tables import game_specs  # noqa: E402

#: whose objects count as the moment's own: the rest (pydantic's machinery, the engine) is shared
OWN = ("builtins", "bot", "rules", "cogs")


def size_of(root: object, shared: list[object]) -> int:
    """Bytes of every object reachable from ``root`` that belongs to it alone."""
    seen = {id(s) for s in shared}
    pending, size = [root], 0
    while pending:
        item = pending.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType, types.MethodType)):
            continue
        seen.add(id(item))
        if not type(item).__module__.startswith(OWN):
            continue
        size += sys.getsizeof(item)
        pending.extend(gc.get_referents(item))
    return size


def kept_sizes(spec: Any, seats: int, clicks: int) -> list[int]:
    engine = spec.engine
    table = Table(id=1, guild_id=1, channel_id=5, game=engine.key, host_id=1, seed=5,
                  options=engine.Options().model_dump(),
                  seats=[Seat(user_id=n + 1, name=f"Player {n + 1}") for n in range(seats)])
    result = step.start(Moment(spec, table), 0.0)
    choose, sizes = Chooser(random.Random(5)), []
    for _ in range(clicks):
        now = result.after
        if not now.playing:
            break
        seat = now.humans[0]
        result = step.play(now, seat, engine.ai_action(now.state, seat, choose), 0.0)
        present.present(result, Channel(Book(message_id=7)), Origin(message_id=7, seat=seat))
        sizes.append(size_of((result.table.model_dump_json(), result.after), [spec, engine]))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4, help="seats at each table (within the game's range)")
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    print(f"{'game':<17}{'seats':>6}{'mean kB':>9}{'max kB':>8}   (at most {MOMENTS_KEPT} live games kept)")
    for spec in game_specs():
        fewest, most = spec.engine.seat_range(spec.engine.Options())
        seats = max(fewest, min(args.seats, most))
        sizes = kept_sizes(spec, seats, args.clicks)
        print(f"{spec.engine.key:<17}{seats:>6}{sum(sizes) / len(sizes) / 1024:>9.0f}{max(sizes) / 1024:>8.0f}")


if __name__ == "__main__":
    main()
