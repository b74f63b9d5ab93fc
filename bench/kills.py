"""The kill campaign at scale, as ``bench/fuzz.py --kills N`` runs it (100 kills unless told;
bench/fuzz.py lists its options): SIGKILLs at random moments while every game is played, on
SQLite or on PostgreSQL with two processes; moves lost or doubled are counted exactly
(tests/e2e/kills.py says how). Exits 1 on any problem.

    .venv/bin/python bench/kills.py --kills 100 --store sqlite
    .venv/bin/python bench/kills.py --kills 100 --store postgres --processes 2
"""

from __future__ import annotations

import sys

from fuzz import run  # bench/fuzz.py, beside this file

if __name__ == "__main__":
    run(["--kills", "100", *sys.argv[1:]])
