"""boneyard-cluster: run the bot as several processes, each with its share of the shards.

A bot in many servers must shard, and one process can only carry so many shards. The launcher
asks Discord how many shards it recommends (or takes ``--shards``), spreads them over
``--processes`` processes as contiguous ranges, and keeps each process running: one that dies is
started again after a short pause that grows while it keeps dying. The processes share one
PostgreSQL store (DATABASE_URL), which is what lets a DM click reach any game from shard 0.

    boneyard-cluster --processes 4              # Discord's recommended shard count
    boneyard-cluster --processes 4 --shards 16
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from dataclasses import dataclass, field

import aiohttp

from bot.config import DISCORD_API, Settings, format_shard_ids
from bot import logs
from bot.main import load_settings

log = logging.getLogger("bot.cluster")

#: a process that ran at least this long before dying is restarted at once, as a fresh failure
HEALTHY_RUN = 60.0
#: the longest pause before restarting a process that keeps dying
MAX_BACKOFF = 60.0
#: exit codes that another try cannot fix (bad settings, a refused token): the cluster stops
FATAL_EXITS = {2}


#: how long a process gets to finish its steps and exit after SIGTERM before it is killed: its
#: own drain (bot.main.DRAIN_SECONDS) and a margin to close the store and the connection
STOP_GRACE = 15.0


def spread(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """Contiguous, as even as possible: 10 shards over 3 processes -> 0-3, 4-6, 7-9."""
    processes = max(1, min(processes, shard_count))
    bounds = [shard_count * k // processes for k in range(processes + 1)]
    return [tuple(range(bounds[k], bounds[k + 1])) for k in range(processes)]


async def recommended(settings: Settings) -> tuple[int, int]:
    """(shard count, identify concurrency) that Discord recommends for this bot."""
    base = (settings.discord_api_base or DISCORD_API).rstrip("/")
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    async with aiohttp.ClientSession() as http, http.get(f"{base}/gateway/bot", headers=headers) as resp:
        if resp.status == 401:
            raise PermissionError("Discord refused the token (DISCORD_TOKEN)")
        resp.raise_for_status()
        data = await resp.json()
    limit = data.get("session_start_limit") or {}
    return int(data["shards"]), int(limit.get("max_concurrency") or 1)


@dataclass
class Member:
    """One process of the cluster and its restart history."""

    index: int
    shards: tuple[int, ...]
    proc: asyncio.subprocess.Process | None = None
    started: float = 0.0
    failures: int = 0
    restarts: int = 0
    waiter: asyncio.Task[int] | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        return f"process {self.index} (shards {format_shard_ids(self.shards)})"


class Cluster:
    def __init__(self, shard_count: int, processes: int, concurrency: int, command: list[str]) -> None:
        self.shard_count = shard_count
        self.concurrency = concurrency
        self.command = command
        self.started_at = time.time()
        self.members = [Member(i, ids) for i, ids in enumerate(spread(shard_count, processes))]
        self.stopping = asyncio.Event()
        self.fatal: int | None = None
        #: METRICS_PORT of the cluster: process i serves its health and metrics on this port + i
        self.metrics_port: int | None = None

    def env(self, member: Member) -> dict[str, str]:
        env = {**os.environ, "SHARD_COUNT": str(self.shard_count), "SHARD_IDS": format_shard_ids(member.shards),
               "CLUSTER_STARTED_AT": repr(self.started_at), "IDENTIFY_CONCURRENCY": str(self.concurrency)}
        if self.metrics_port is not None:
            env["METRICS_PORT"] = str(self.metrics_port + member.index)  # each process its own
        return env

    async def start(self, member: Member) -> None:
        # the children write to our stdout/stderr; each of their lines names its shards and pid
        member.proc = await asyncio.create_subprocess_exec(*self.command, env=self.env(member))
        member.started = time.monotonic()
        port = f", health and metrics on port {self.metrics_port + member.index}" if self.metrics_port else ""
        log.info("%s started, pid %s%s", member.label, member.proc.pid, port)

    async def keep(self, member: Member) -> None:
        """Run one member until the cluster stops, starting it again whenever it dies."""
        while not self.stopping.is_set():
            await self.start(member)
            assert member.proc is not None
            code = await member.proc.wait()
            if self.stopping.is_set():
                return
            ran = time.monotonic() - member.started
            if code in FATAL_EXITS:
                log.error("%s exited with %s: its settings or token are refused; stopping the cluster",
                          member.label, code)
                self.fatal = code
                self.stopping.set()
                return
            member.failures = 0 if ran >= HEALTHY_RUN else member.failures + 1
            pause = 0.0 if member.failures == 0 else min(MAX_BACKOFF, 0.5 * 2 ** (member.failures - 1))
            member.restarts += 1
            log.warning("%s (pid %s) exited with %s after %.0f s; starting it again in %.1f s",
                        member.label, member.proc.pid, code, ran, pause)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), pause)

    async def stop(self, grace: float = STOP_GRACE) -> None:
        self.stopping.set()
        running = [m.proc for m in self.members if m.proc is not None and m.proc.returncode is None]
        for proc in running:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in running:
            try:
                await asyncio.wait_for(proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        log.info("%d shards over %d processes: %s", self.shard_count, len(self.members),
                 "; ".join(m.label for m in self.members))
        keepers = [asyncio.create_task(self.keep(m), name=f"keep-{m.index}") for m in self.members]
        await self.stopping.wait()
        log.info("stopping the cluster")
        await self.stop()
        for task in keepers:
            task.cancel()
        await asyncio.gather(*keepers, return_exceptions=True)
        return self.fatal or 0


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="boneyard-cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, required=True, help="how many bot processes to run")
    parser.add_argument("--shards", type=int, default=None,
                        help="shards of the whole bot (default: as many as Discord recommends)")
    args = parser.parse_args(argv)
    if args.processes < 1 or (args.shards is not None and args.shards < 1):
        parser.error("--processes and --shards must be at least 1")
    return args


async def _main(args: argparse.Namespace, settings: Settings) -> int:
    concurrency = 1
    if args.shards is None:
        try:
            shard_count, concurrency = await recommended(settings)
        except PermissionError as exc:
            print(f"boneyard-cluster: {exc}; reset it in the developer portal.", file=sys.stderr)
            return 2
        log.info("Discord recommends %d shards (%d may identify at once)", shard_count, concurrency)
    else:
        shard_count = args.shards
    if args.processes > shard_count:
        log.warning("%d processes for %d shards: running %d", args.processes, shard_count, shard_count)
    cluster = Cluster(shard_count, args.processes, concurrency, [sys.executable, "-m", "bot"])
    cluster.metrics_port = settings.metrics_port
    return await cluster.run()


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    settings = load_settings()
    logs.setup(settings.log_level, "launcher", json_lines=settings.log_format == "json", secrets=settings.secrets)
    if args.processes > 1 and settings.store_target.dialect != "postgres":
        print("boneyard-cluster: several processes must share one database: set DATABASE_URL to a "
              "postgresql:// URL (a SQLite file belongs to one process).", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(asyncio.run(_main(args, settings)))


if __name__ == "__main__":
    main()
