"""How fast /roll parses, rolls and draws: rolls per second for everyday expressions, and the time
of the largest rolls the limits allow (1,000 dice; the worst refused ones are timed too, since a
refusal must be as quick as an answer). /roll-bones is timed the same way (throw, read, embed).

    .venv/bin/python bench/roll_speed.py
    .venv/bin/python bench/roll_speed.py --seconds 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.dice.text import roll_text  # noqa: E402
from cogs.dice.roll_bones import MAX_TIDE, bones_embed, roll_bones  # noqa: E402
from rules.notation import RollError, roll  # noqa: E402

TYPICAL = ["1d20+5", "4d6kh3", "8d6", "2d20kh1+7", "10d10e10", "1d20[attack]+5 sneak attack"]
LARGEST = [
    ("1000d6", {}),
    ("1000d10000kh500", {}),
    ("50d6", {"repeat": 20}),
    ("1000d10", {"target": 7, "fail": 1}),
    ("1000d6" + "kh999pl1" * 61, {}),
]
REFUSED = ["1d1e1", "400d6" + "rrh1" * 123, "-" * 499 + "1", "9" * 497 + "d6"]


def once(expression: str, rng: random.Random, **options: int) -> None:
    """Everything /roll does before sending: parse, roll, draw the reply."""
    try:
        roll_text(roll(expression, rng=rng, **options))
    except RollError:
        pass


def bones(rng: random.Random) -> None:
    """Everything /roll-bones does before sending: throw, read at a random Tide, draw the embed."""
    bones_embed(roll_bones(rng.randint(1, MAX_TIDE), rng=rng), "bench")


def rate(action: Callable[[], None], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            action()
        count += 100
    return count / elapsed


def worst(expression: str, rng: random.Random, runs: int = 5, **options: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        once(expression, rng, **options)
        times.append(time.perf_counter() - start)
    return max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time spent on each typical expression")
    args = parser.parse_args()
    rng = random.Random(1)
    print("typical expressions (parse + roll + reply text):")
    for expression in TYPICAL:
        print(f"  {expression:32} {rate(partial(once, expression, rng), args.seconds):10,.0f} rolls/s")
    print("largest allowed rolls (slowest of 5):")
    for expression, options in LARGEST:
        label = expression if len(expression) <= 30 else expression[:27] + "..."
        extra = " ".join(f"{k}={v}" for k, v in options.items())
        print(f"  {label:32} {extra:18} {worst(expression, rng, **options) * 1000:8.1f} ms")
    print("refused at a limit (slowest of 5):")
    for expression in REFUSED:
        label = expression if len(expression) <= 30 else expression[:27] + "..."
        print(f"  {label:32} {'':18} {worst(expression, rng) * 1000:8.1f} ms")
    print("/roll-bones (throw + reading + embed):")
    print(f"  {'four Bones, Tide 1-6':32} {rate(partial(bones, rng), args.seconds):10,.0f} rolls/s")


if __name__ == "__main__":
    main()
