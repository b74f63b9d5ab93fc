"""What a click's small operations cost inside the saturated bot, against the same operations,
on the same inputs, in a warm loop: why the host's own work costs the bot about twice what
``click_cost.py`` measures, and why no single small saving moves the bot's CPU per click much.

Runs ``knucklebones_latency.py --games 50 --think 0 --pin`` with a ``sitecustomize`` (in a
temporary folder on PYTHONPATH) that, in Boneyard's bot process only, times two calls every
click makes as it saves (``bot.store.base``'s ``orjson.dumps`` of the state, the book and the
log, and pydantic's ``Table.model_dump_json`` of the rest of the table) in the thread's CPU
time, and keeps their last inputs. It then times the same calls on those inputs here, a hundred
thousand times over, and prints both.

    .venv/bin/python bench/in_situ.py
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.models import Table  # noqa: E402

BENCH = Path(__file__).resolve().parent

#: the bot's side: runs in every process the bench starts, and acts in Boneyard's bot alone
SITECUSTOMIZE = '''
import os, pickle, sys, threading, time

def _watch():
    time.sleep(1.0)
    if "bot.runtime" not in sys.modules:  # the bare bot and the twin: nothing to time
        return
    base, models = sys.modules["bot.store.base"], sys.modules["bot.models"]
    spent, last = {}, {}

    def timed(name, call):
        def wrapper(*args, **kwargs):
            began = time.thread_time_ns()
            out = call(*args, **kwargs)
            total = spent.setdefault(name, [0, 0])
            total[0] += time.thread_time_ns() - began
            total[1] += 1
            last[name] = (args, kwargs)
            return out
        return wrapper

    class Orjson:
        dumps = staticmethod(timed("orjson.dumps", base.orjson.dumps))
        OPT_NON_STR_KEYS = base.orjson.OPT_NON_STR_KEYS

    base.orjson = Orjson
    models.Table.model_dump_json = timed("model_dump_json", models.Table.model_dump_json)
    while True:
        time.sleep(1.0)
        with open(os.environ["IN_SITU_OUT"], "wb") as out:
            pickle.dump({"spent": dict(spent), "last": dict(last)}, out)

os.register_at_fork(after_in_child=lambda: threading.Thread(target=_watch, daemon=True).start())
'''

WARM = {
    "orjson.dumps": lambda args, kwargs: (lambda: orjson.dumps(*args, **kwargs)),
    "model_dump_json": lambda args, kwargs: (lambda: Table.model_dump_json(*args, **kwargs)),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "sitecustomize.py").write_text(SITECUSTOMIZE)
        out = Path(folder) / "in_situ.pickle"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [folder, os.environ.get("PYTHONPATH")])),
                   IN_SITU_OUT=str(out))
        run = subprocess.run([sys.executable, str(BENCH / "knucklebones_latency.py"), "--games", "50", "--think", "0",
                              "--pin"], env=env, capture_output=True, text=True, check=True)
        print(run.stdout.strip().splitlines()[-1])
        found = pickle.loads(out.read_bytes())
    print(f"{'call':<15}{'calls':>7}{'in the bot':>13}{'warm':>9}{'ratio':>8}   (us of CPU per call)")
    for name, (total, calls) in sorted(found["spent"].items()):
        args, kwargs = found["last"][name]
        kwargs = {sys.intern(key): value for key, value in kwargs.items()}  # orjson knows its keywords by identity
        number = 100_000
        warm = timeit.timeit(WARM[name](args, kwargs), number=number) / number * 1e6
        inside = total / calls / 1000
        print(f"{name:<15}{calls:>7}{inside:>13.2f}{warm:>9.2f}{inside / warm:>8.1f}   "
              f"(last input: {len(orjson.dumps(args[0], default=Table.model_dump))} bytes of JSON)")


if __name__ == "__main__":
    main()
