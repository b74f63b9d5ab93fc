"""boneyard-cluster: shards spread over processes, a dead process started again, one command sync."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pydantic import ValidationError

from bot.cluster import Cluster, spread
from bot.config import Settings, format_shard_ids, parse_shard_ids
from tests.fakediscord import FAKE_TOKEN, REPO_ROOT, BotProcess, running_fake


def test_shards_are_spread_in_even_contiguous_ranges() -> None:
    assert spread(10, 3) == [(0, 1, 2), (3, 4, 5), (6, 7, 8, 9)]
    assert spread(4, 4) == [(0,), (1,), (2,), (3,)]
    assert spread(2, 5) == [(0,), (1,)]  # never a process without a shard
    assert sorted(s for part in spread(37, 6) for s in part) == list(range(37))
    assert parse_shard_ids("0-3,8, 10-11") == (0, 1, 2, 3, 8, 10, 11)
    assert format_shard_ids(parse_shard_ids("4,0-2,3")) == "0-4"


def test_shard_and_database_settings() -> None:
    example = Settings(_env_file=REPO_ROOT / ".env.example", discord_token=FAKE_TOKEN)  # type: ignore[call-arg]
    assert (example.shard_count, example.shard_ids, example.database_url) == (None, None, None)
    assert example.store_target.dialect == "sqlite" and example.syncs_commands
    four = Settings(discord_token=FAKE_TOKEN, shard_count=4, shard_ids="1-2",  # type: ignore[call-arg]
                    database_url="postgresql://bone:s3cret@db/boneyard")
    assert four.shard_ids == (1, 2) and four.shard_label == "shards 1-2/4" and not four.syncs_commands
    assert four.store_target.dialect == "postgres" and "s3cret" not in repr(four)
    for bad in ({"shard_ids": "0-1"}, {"shard_count": 2, "shard_ids": "1-2"}, {"shard_count": 2, "shard_ids": "x"}):
        with pytest.raises(ValidationError, match="(?i)shard_ids"):
            Settings(discord_token=FAKE_TOKEN, **bad)  # type: ignore[arg-type]


def test_a_bad_database_url_is_named_and_not_echoed(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "SHARD_", "DISCORD_"))}
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={**env, "DISCORD_TOKEN": FAKE_TOKEN, "PYTHONPATH": str(REPO_ROOT),
                              "DATABASE_URL": "mysql://bone:s3cret@db/x"})
    assert run.returncode == 2 and "DATABASE_URL" in run.stderr and "mysql://" in run.stderr
    assert "s3cret" not in run.stderr + run.stdout


def test_several_processes_refuse_a_sqlite_store(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "SHARD_"))}
    run = subprocess.run([sys.executable, "-m", "bot.cluster", "--processes", "2", "--shards", "2"],
                         cwd=tmp_path, env={**env, "DISCORD_TOKEN": FAKE_TOKEN, "PYTHONPATH": str(REPO_ROOT)},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "DATABASE_URL" in run.stderr


def _pid_of(launcher: BotProcess, index: int) -> int | None:
    pids = [int(m[1]) for ln in launcher.lines if (m := re.search(rf"process {index} \(shards .*\) started, pid (\d+)", ln))]
    return pids[-1] if pids else None


async def test_the_launcher_runs_every_shard_and_restarts_a_dead_process(pg_url: str) -> None:
    async with running_fake(channels=(), shards=2, max_concurrency=2) as fd:
        fd.add_guild("Harbour", channels=["harbour"], shard=0)
        fd.add_guild("Crypt", channels=["crypt"], shard=1)
        ann = fd.add_user("ann")
        launcher = BotProcess(fd, {"DATABASE_URL": pg_url, "DEV_GUILD_ID": "", "DEFAULT_TIMER_SECONDS": "0"},
                              command=[sys.executable, "-m", "bot.cluster", "--processes", "2"])
        await launcher.start(wait_ready=False)
        try:
            def shards_up(count: int) -> bool:
                live = [s for s in fd._sessions if s.guild_create_at is not None and s.live]
                return len(live) >= 2 and len(fd._sessions) >= count

            await fd.wait_until(lambda: shards_up(2) and fd.command_syncs, 30, what="both shards and a sync")
            assert sorted(s.shard for s in fd._sessions) == [(0, 2), (1, 2)]  # Discord's recommended two
            for channel in ("harbour", "crypt"):
                it = await fd.slash(ann, channel, "game rules")
                assert (await it.wait_response(timeout=10))["type"] == 4
            first = _pid_of(launcher, 1)
            assert first is not None

            os.kill(first, signal.SIGKILL)  # the process with shard 1 dies
            await launcher.wait_for_line(r"process 1 \(shards 1\) \(pid \d+\) exited with -9", timeout=10)
            await fd.wait_until(lambda: shards_up(3) and fd._sessions[-1].shard == (1, 2), 30,
                                what="shard 1 to identify again")
            second = _pid_of(launcher, 1)
            assert second is not None and second != first
            it = await fd.slash(ann, "crypt", "game rules")
            assert (await it.wait_response(timeout=10))["type"] == 4 and it.shard == 1
            assert len(fd.command_syncs) == 1  # only the process with shard 0 syncs, and only once
            children = [_pid_of(launcher, 0), second]
        finally:
            code = await launcher.stop(grace=15)
        assert code == 0, launcher.output()
        for pid in children:  # the launcher took its processes down with it
            with pytest.raises(ProcessLookupError):
                os.kill(pid or 0, 0)
        assert fd.violations == [] and fd.unknown_routes == []
        assert launcher.error_records() == [], launcher.error_records()


def test_each_process_of_a_cluster_serves_its_metrics_on_a_port_of_its_own() -> None:
    cluster = Cluster(8, 3, 1, ["true"])
    assert "METRICS_PORT" not in cluster.env(cluster.members[0])  # unset: none is served
    cluster.metrics_port = 9460
    assert [cluster.env(m)["METRICS_PORT"] for m in cluster.members] == ["9460", "9461", "9462"]
