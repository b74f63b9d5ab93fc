"""The fuzz campaign at scale: the real bot against the fake Discord, every game played by honest
and dishonest clients at several tables at once, every case held to the invariants
(tests/e2e/fuzz.py says which). Prints every figure; exits 1 on any violation.

    .venv/bin/python bench/fuzz.py --interactions 100000 --tables 3 --seed 7

About 125 interactions a second on two shared cores: 100,000 take some 14 minutes and 1.2 GB of memory.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.fuzz import Report, campaign  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))]


def show(report: Report, seed: int) -> None:
    lat = report.latencies
    print(f"{report.interactions} interactions in {report.seconds:.0f} s ({report.interactions / report.seconds:.0f}/s), "
          f"seed {seed}, {report.tables} tables at once")
    print("interactions by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.sent.items())))
    print("cases by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.kinds.items())))
    print(f"first answer: p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 {percentile(lat, 0.99) * 1000:.0f} ms, "
          f"max {lat[-1] * 1000:.0f} ms")
    print(f"games ended {report.games_ended}; {report.moves_followed} moves replayed as they were made; "
          f"{report.replayed} stored games replayed from seed and log at the end; "
          f"{report.messages_read} messages read for secrets and mentions")
    stalls = report.fake_stalls
    print(f"the fake's own process stalled past 0.5 s {len(stalls)} times"
          + (f", at most {max(stalls):.1f} s" if stalls else ""))
    print("violations by invariant:")
    for name, found in sorted(report.problems.items()):
        print(f"  {name}: {len(found)}" + (f"  e.g. {str(found[0])[:300]}" if found else ""))
    total = sum(len(found) for found in report.problems.values())
    print(f"violations in all: {total}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tables", type=int, default=3, help="tables of each game played at once")
    parser.add_argument("--no-bad-input", action="store_true",
                        help="leave out the client that sends every slash option at and past its limits")
    parser.add_argument("--details", metavar="FILE", help="write every violation found, in full, to FILE")
    args = parser.parse_args()
    report = await campaign(args.interactions, args.seed, tables_per_game=args.tables,
                            bad_input=not args.no_bad_input,
                            progress=lambda n, s: print(f"… {n} interactions, {s:.0f} s", file=sys.stderr, flush=True))
    show(report, args.seed)
    if args.details:
        with open(args.details, "w", encoding="utf-8") as out:
            for name, found in sorted(report.problems.items()):
                for problem in found:
                    out.write(f"== {name}\n{problem}\n")
    raise SystemExit(1 if any(report.problems.values()) else 0)


if __name__ == "__main__":
    asyncio.run(main())
