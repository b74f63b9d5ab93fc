"""The fuzz campaign at scale: the real bot against the fake Discord, every game played by honest
and dishonest clients, the invariants checked (tests/e2e/fuzz.py says which). Exits 1 on any
violation.

    .venv/bin/python bench/fuzz.py --interactions 2000 --seed 7
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.fuzz import campaign  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    report = await campaign(args.interactions, args.seed)
    lat = report.latencies
    print(f"{report.interactions} interactions in {report.seconds:.0f} s (seed {args.seed}): "
          + ", ".join(f"{k} {n}" for k, n in sorted(report.kinds.items())))
    print(f"first answer p50 {lat[len(lat) // 2] * 1000:.0f} ms, p99 {lat[int(len(lat) * 0.99)] * 1000:.0f} ms; "
          f"games ended {report.games_ended}; {report.replayed} stored games replayed from seed and log")
    for name, found in report.problems.items():
        print(f"{name}: {len(found)}" + (f"  e.g. {str(found[0])[:300]}" if found else ""))
    raise SystemExit(1 if any(report.problems.values()) else 0)


if __name__ == "__main__":
    asyncio.run(main())
