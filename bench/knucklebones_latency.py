"""Latency of a click, from the injected interaction to the bot's callback, under load.

Drives N concurrent Knucklebones games (three players each, only by clicking what the bot
rendered) through the fake Discord on 127.0.0.1, then the same number of clicks through a
baseline bot that answers without any engine or store (tests/fakediscord/minibot.py), and
prints p50/p95/p99 and actions per second for both, and their ratio.

Players pause between clicks (``--think``, mean milliseconds, uniform 0.5x-1.5x), as people do;
``--think 0`` instead clicks again the moment the table answers, which saturates the machine and
measures throughput (latency then is mostly waiting in line behind the other 49 games).

    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 1000
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 0
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 1000 --metrics-port 9464
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 0 --baseline picture
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 0 --pin
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 0 --pin --rounds 5
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 0 --pin --varied
    .venv/bin/python bench/knucklebones_latency.py --games 50 --think 1000 --pin --twin --detail

``--pin`` (Linux) runs this driver and the fake on the first core and each bot, every thread of
it, on the second: a saturated bot's CPU per click then varies by about a tenth between runs
instead of a quarter, as neither bot competes with the fake for a core. ``--rounds N`` runs
both bots N times in turn and reports the median of each ratio, for a figure that one slow
minute on a shared machine does not move.

By default every player presses the last button offered, so the fifty games show the same few
dice and the bot draws a new picture for about one click in twenty. ``--varied`` has them press
any button, seeded: the dice then differ from click to click as in real play, and nearly every
click draws its picture (a few milliseconds of Pillow in a worker thread, in the CPU figures).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.channel import finished, top  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake  # noqa: E402

MINIBOT = [sys.executable, str(Path(__file__).resolve().parent.parent / "tests" / "fakediscord" / "minibot.py")]
TWIN = [sys.executable, str(Path(__file__).resolve().parent / "traffic_twin.py")]


@dataclass(frozen=True)
class Usage:
    """A process's CPU so far, user and system apart, and how many times its threads went to
    sleep (voluntary context switches). ``--detail`` prints them per click: whether a bot's
    extra cost is work done (user time) or waking up more often (switches, system time)."""

    user: float = 0.0
    system: float = 0.0
    sleeps: int = 0

    @property
    def cpu(self) -> float:
        return self.user + self.system

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.user + other.user, self.system + other.system, self.sleeps + other.sleeps)

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.user - other.user, self.system - other.system, self.sleeps - other.sleeps)


def usage(pid: int) -> Usage:
    """A process's usage so far: a per-click cost that, unlike latency, other load on the machine
    does not distort. Linux /proc; NaN CPU elsewhere. The CPU is the process's own count, which
    keeps the time of threads that have ended; the sleeps are summed over the threads alive."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return Usage(float("nan"), float("nan"), 0)
    tick = os.sysconf("SC_CLK_TCK")
    sleeps = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/task/{thread}/status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    sleeps += int(line.split()[1])
    return Usage(int(fields[11]) / tick, int(fields[12]) / tick, sleeps)


#: ``--detail``: each bot's CPU per click split into user and system time, and its sleeps
DETAIL = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """This process (the players and the fake Discord) keeps every message of the run, and its
    collector's full passes grew to 0.1-0.2 s by the end of a run: every click in flight then
    waited, and the wait was counted as the bot's latency, whichever bot it was. Paused while a
    bot is measured, collected after."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


#: the cores ``--pin`` uses: the driver and the fake, and the bot under test
PINNED: tuple[int, int] | None = None


def pin_bot(pid: int | None) -> None:
    """Every thread of the bot (the store's and the pictures' too) onto the bot's core."""
    if PINNED is None or not pid:
        return
    for thread in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(thread), {PINNED[1]})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def report(name: str, latencies: list[float], seconds: float, used: Usage) -> dict[str, float]:
    ms = [v * 1000 for v in latencies]
    figures = {
        "p50": percentile(ms, 50), "p95": percentile(ms, 95), "p99": percentile(ms, 99),
        "mean": statistics.fmean(ms), "per_s": len(ms) / seconds, "cpu": used.cpu * 1000 / len(ms),
    }
    print(f"{name:<12} n={len(ms):>5}  p50={figures['p50']:6.2f} ms  p95={figures['p95']:6.2f} ms  "
          f"p99={figures['p99']:6.2f} ms  mean={figures['mean']:6.2f} ms  {figures['per_s']:7.1f} actions/s  "
          f"bot CPU {figures['cpu']:5.2f} ms/click")
    if DETAIL:
        print(f"{'':<12} per click: user {used.user * 1000 / len(ms):.2f} ms, system {used.system * 1000 / len(ms):.2f} ms, "
              f"{used.sleeps / len(ms):.1f} sleeps of its threads")
    return figures


def _button(fd: FakeDiscord, message: dict, label: str) -> str:
    return next(b["custom_id"] for b in fd.buttons(message) if b["label"] == label)


async def pause(think: float, rng: random.Random) -> None:
    if think > 0:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))


async def deal(fd: FakeDiscord, channel: str, players: list[FakeUser]) -> None:
    """A game opened, joined and started, its first table posted: what comes before the clicks
    measured, as the baseline's messages are posted before its clicks are."""
    host = players[0]
    lobby = await (await fd.slash(host, channel, "knucklebones new")).response_message()
    for p in players[1:]:
        await (await fd.click(p, lobby, _button(fd, lobby, "Join"))).wait_response()
    start = await fd.click(host, lobby, _button(fd, lobby, "Start"))
    await start.wait_response()
    await fd.wait_until(lambda: any(b["custom_id"].startswith("bn:act:")
                                    for b in fd.buttons(fd.last_message(channel) or {})), 10)


async def play_one(fd: FakeDiscord, channel: str, players: list[FakeUser], latencies: list[float],
                   think: float = 0.0, varied: bool = False) -> int:
    """One whole game, dealt already; every click's latency goes into ``latencies``. Returns the
    clicks made. ``varied``: each click is any of the buttons offered (seeded by the channel),
    as players choose, rather than always the last one."""
    clicks = 0
    by_id = {str(p.id): p for p in players}
    rng, choose = random.Random(channel), random.Random(f"{channel}:choose")
    while True:
        table = fd.last_message(channel)
        assert table is not None
        actions = [b for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
        if not actions:
            if finished(table):
                return clicks
            await asyncio.sleep(0.005)
            continue
        content = top(table)
        actor = next(p for uid, p in by_id.items() if f"<@{uid}>" in content)
        await pause(think, rng)
        it = await fd.click(actor, table, (choose.choice(actions) if varied else actions[-1])["custom_id"])
        await it.wait_response(timeout=10)
        if it.latency is not None:
            latencies.append(it.latency)
        clicks += 1


def recorded(fd: FakeDiscord, games: int) -> list[list[list[dict[str, Any]]]]:
    """Every request Boneyard made for each game's counted clicks, click by click: the clicked
    table's answer, then whatever it posted in that channel before the game's next click."""
    clicked = {it.id: it for it in fd.interactions if it.type == 3 and it.name.startswith("bn:act:")}
    channel_of = {it.id: it.channel_id for it in fd.interactions}
    channels = {fd.channel(f"t{i}").id: i for i in range(games)}
    scripts: list[list[list[dict[str, Any]]]] = [[] for _ in range(games)]
    current: dict[int, list[dict[str, Any]] | None] = {}
    for call in fd.calls:
        parts = call["path"].split("/")
        files = [[name, base64.b64encode(data).decode()] for name, data in call.get("uploads") or ()]
        if call["method"] == "POST" and parts[1] == "interactions":
            it = clicked.get(int(parts[2]))
            if it is not None:
                current[it.channel_id] = [{"kind": "answer", "payload": call["json"], "files": files}]
                scripts[channels[it.channel_id]].append(current[it.channel_id])  # type: ignore[arg-type]
            else:
                current.pop(channel_of.get(int(parts[2]), 0), None)  # a click not counted: the lobby's
        elif parts[1] == "channels" and parts[3:] == ["messages"] and call["method"] == "POST":
            step = current.get(int(parts[2]))
            if step is not None:
                step.append({"kind": "post", "payload": call["json"], "files": files})
        elif parts[1] == "channels" and call["method"] != "GET" and current.get(int(parts[2])) is not None:
            raise SystemExit(f"the twin cannot replay {call['method']} {call['path']} yet")
    return scripts


async def bench_games(games: int, think: float, metrics_port: int | None = None,
                      scripts: list[Any] | None = None, varied: bool = False) -> tuple[list[float], float, Usage]:
    async with running_fake(channels=tuple(f"t{i}" for i in range(games))) as fd:
        players = [fd.add_user(name) for name in ("ann", "bob", "cy")]
        with tempfile.TemporaryDirectory() as tmp:
            env = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING"}
            if metrics_port is not None:
                env["METRICS_PORT"] = str(metrics_port)
            async with running_bot(fd, env, Path(tmp) / "bench.sqlite3") as bot:
                pin_bot(bot.pid)
                latencies: list[float] = []
                await asyncio.gather(*(deal(fd, f"t{i}", players) for i in range(games)))
                began, cpu = time.perf_counter(), usage(bot.pid or 0)
                with collector_paused():
                    await asyncio.gather(*(play_one(fd, f"t{i}", players, latencies, think, varied) for i in range(games)))
                figures = latencies, time.perf_counter() - began, usage(bot.pid or 0) - cpu
        if scripts is not None:
            scripts += recorded(fd, games)
        return figures


async def bench_twin(scripts: list[list[list[dict[str, Any]]]], think: float) -> tuple[list[float], float, Usage]:
    """Boneyard's recorded requests replayed by a bot that does nothing else (traffic_twin.py)."""
    async with running_fake(channels=tuple(f"t{i}" for i in range(len(scripts)))) as fd:
        user = fd.add_user("ann")
        with tempfile.TemporaryDirectory() as tmp:
            script = Path(tmp) / "script.json"
            script.write_text(json.dumps(scripts))
            async with running_bot(fd, {"LOG_LEVEL": "WARNING", "TWIN_SCRIPT": str(script)}, command=TWIN) as bot:
                pin_bot(bot.pid)
                for i in range(len(scripts)):
                    await (await fd.slash(user, f"t{i}", "twin", {"game": i})).response_message()
                latencies: list[float] = []

                async def clicker(i: int) -> None:
                    rng = random.Random(i)
                    for _ in scripts[i]:
                        await pause(think, rng)
                        waited = time.monotonic()
                        while True:
                            last = fd.last_message(f"t{i}") or {}
                            ids = [b["custom_id"] for b in fd.buttons(last)]
                            if ids:
                                break
                            if time.monotonic() - waited > 10:
                                raise RuntimeError(f"the twin posted no table to click in t{i}")
                            await asyncio.sleep(0.005)  # the next table is still being posted
                        it = await fd.click(user, last, ids[-1])
                        await it.wait_response(timeout=10)
                        if it.latency is not None:
                            latencies.append(it.latency)

                began, cpu = time.perf_counter(), usage(bot.pid or 0)
                with collector_paused():
                    await asyncio.gather(*(clicker(i) for i in range(len(scripts))))
                return latencies, time.perf_counter() - began, usage(bot.pid or 0) - cpu


async def bench_baseline(games: int, clicks_per_game: int, think: float,
                         picture: bool = False) -> tuple[list[float], float, Usage]:
    async with running_fake(channels=tuple(f"t{i}" for i in range(games))) as fd:
        user = fd.add_user("ann")
        async with running_bot(fd, {"LOG_LEVEL": "WARNING"}, command=MINIBOT) as bot:
            pin_bot(bot.pid)
            command, button = ("pingpic", "mini:countpic") if picture else ("ping", "mini:count")
            messages = [await (await fd.slash(user, f"t{i}", command)).response_message() for i in range(games)]
            latencies: list[float] = []

            async def clicker(message: dict) -> None:
                rng = random.Random(message["id"])
                for _ in range(clicks_per_game):
                    await pause(think, rng)
                    it = await fd.click(user, message["id"], button)
                    await it.wait_response(timeout=10)
                    if it.latency is not None:
                        latencies.append(it.latency)

            began, cpu = time.perf_counter(), usage(bot.pid or 0)
            with collector_paused():
                await asyncio.gather(*(clicker(m) for m in messages))
            return latencies, time.perf_counter() - began, usage(bot.pid or 0) - cpu


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--think", type=float, default=1000.0,
                        help="mean pause before each click, in ms (0: click as fast as possible)")
    parser.add_argument("--metrics-port", type=int, default=None,
                        help="serve /healthz and /metrics on this port meanwhile (their cost is in the CPU)")
    parser.add_argument("--baseline", choices=("plain", "picture"), default="plain",
                        help="picture: the bare bot also draws and attaches a picture to every answer")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run both bots this many times in turn and print the median of each ratio: "
                             "on a shared machine one run's CPU per click can be a fifth off")
    parser.add_argument("--twin", action="store_true",
                        help="also replay Boneyard's own requests through a bot that does nothing else "
                             "(traffic_twin.py): the floor the messages as they are set")
    parser.add_argument("--varied", action="store_true",
                        help="players click any button offered, not always the last: the dice, and so the "
                             "pictures, then vary as in real play (most clicks draw a new picture)")
    parser.add_argument("--detail", action="store_true",
                        help="each bot's CPU per click as user and system time, and how often its threads slept")
    parser.add_argument("--pin", action="store_true",
                        help="this driver and the fake on the first core, each bot on the second (Linux)")
    args = parser.parse_args()
    global DETAIL
    DETAIL = args.detail
    if args.pin:
        global PINNED
        PINNED = (0, 1)
        os.sched_setaffinity(0, {PINNED[0]})
    think = args.think / 1000
    ratios: list[dict[str, float]] = []
    for round_ in range(args.rounds):
        scripts: list[Any] | None = [] if args.twin else None
        latencies, seconds, cpu = await bench_games(args.games, think, args.metrics_port, scripts, args.varied)
        per_game = max(1, len(latencies) // args.games)
        base_lat, base_seconds, base_cpu = await bench_baseline(args.games, per_game, think,
                                                                args.baseline == "picture")
        if args.rounds > 1:
            print(f"round {round_ + 1} of {args.rounds}")
        print(f"{args.games} concurrent games, {len(latencies)} clicks ({per_game} per game), "
              f"think time {args.think:g} ms")
        game = report("boneyard", latencies, seconds, cpu)
        base = report("baseline" if args.baseline == "plain" else "base+pic", base_lat, base_seconds, base_cpu)
        print(f"overhead     p50 x{game['p50'] / base['p50']:.2f}  p99 x{game['p99'] / base['p99']:.2f}  "
              f"CPU x{game['cpu'] / base['cpu']:.2f}  actions/s {game['per_s'] / base['per_s']:.0%}")
        ratios.append({"p99": game["p99"] / base["p99"], "cpu": game["cpu"] / base["cpu"],
                       "per_s": game["per_s"] / base["per_s"], "game_cpu": game["cpu"], "base_cpu": base["cpu"]})
        if scripts is not None:
            twin = report("twin", *await bench_twin(scripts, think))
            print(f"twin         the same requests with no host: CPU x{twin['cpu'] / base['cpu']:.2f} the baseline's; "
                  f"boneyard's host adds {game['cpu'] - twin['cpu']:.2f} ms per click (x{game['cpu'] / twin['cpu']:.2f} the twin)")
            ratios[-1].update(twin_cpu=twin["cpu"], twin_ratio=twin["cpu"] / base["cpu"])
    if args.rounds > 1:
        mid = {key: statistics.median(r[key] for r in ratios) for key in ratios[0]}
        print(f"median of {args.rounds} rounds: CPU per click {mid['game_cpu']:.2f} ms against {mid['base_cpu']:.2f} ms, "
              f"ratio x{mid['cpu']:.2f}; p99 x{mid['p99']:.2f}; actions/s {mid['per_s']:.0%} of the baseline's")
        if "twin_cpu" in mid:
            print(f"  twin: {mid['twin_cpu']:.2f} ms per click, x{mid['twin_ratio']:.2f} the baseline's")

if __name__ == "__main__":
    asyncio.run(main())
