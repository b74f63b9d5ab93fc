"""Run the real bot (or any discord.py script) as a subprocess against a FakeDiscord.

A subprocess, not an in-process client, because the end-to-end tests must exercise exactly what
`python -m bot` does in production (settings, logging, start-up, signals), and because a crash or
SIGKILL must be testable: the fake then sees the socket drop and a fresh process re-identify.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from tests.fakediscord.driver import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Well-formed (three base64url parts, as bot.config checks) but obviously fake. It must not start
#: with M or N: those prefixes are how real bot tokens begin, and secret scanners flag them.
FAKE_TOKEN = "T" + "x" * 25 + ".abcdef." + "y" * 30

_RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


class BotProcess:
    """One bot process. `lines` fills continuously from stdout and stderr (interleaved).

    Ready means: after this process started, the fake received an IDENTIFY and sent GUILD_CREATE
    for it and (wait_sync=True) received a command-sync PUT. The real bot syncs in setup_hook,
    i.e. before it connects, so by GUILD_CREATE the sync has normally been seen already.
    """

    def __init__(self, fd: FakeDiscord, env_extra: dict[str, str] | None = None,
                 db_path: str | os.PathLike[str] | None = None, *,
                 command: Sequence[str] | None = None, cwd: str | os.PathLike[str] = REPO_ROOT,
                 token: str = FAKE_TOKEN, log_level: str = "INFO", echo: bool = False) -> None:
        self.fd = fd
        self.env_extra = dict(env_extra or {})
        if db_path is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="boneyard-e2e-")
            db_path = Path(self._tmpdir.name) / "boneyard.sqlite3"
        self.db_path = Path(db_path)
        self.command = list(command) if command else [sys.executable, "-m", "bot"]
        self.cwd = Path(cwd)
        self.token = token
        self.log_level = log_level
        self.echo = echo
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self.started_at: float = 0.0
        self.ready_at: float | None = None
        self.session_id: str | None = None
        self._readers: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ lifecycle
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "PYTHONUNBUFFERED": "1",
            "DISCORD_TOKEN": self.token,
            "DATABASE_PATH": str(self.db_path),
            "DISCORD_API_BASE": self.fd.api_base,
            "DISCORD_GATEWAY_URL": self.fd.gateway_url,
            "DEV_GUILD_ID": str(self.fd.guild_id),
            "LOG_LEVEL": self.log_level,
        })
        env.update(self.env_extra)
        if "GAME_SEED" not in env:
            # Every test deals the same dice each run, so a failure replays; tests differ from one
            # another, so the suite still sees many games. `GAME_SEED=n pytest ...` explores others.
            test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
            env["GAME_SEED"] = str(zlib.crc32(test.encode()))
        return env

    async def start(self, wait_ready: bool = True, *, wait_sync: bool = True, timeout: float = 15.0) -> BotProcess:
        """Spawn the process; with wait_ready, return once it is connected (see class docstring)."""
        assert self.proc is None, "a BotProcess runs once; make a new one to restart"
        self._identifies_before = len(self.fd.identifies)
        self.started_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, cwd=str(self.cwd), env=self.env(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # our signals go to this pid only, never to the test runner
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [asyncio.create_task(self._read(self.proc.stdout), name="bot-stdout"),
                         asyncio.create_task(self._read(self.proc.stderr), name="bot-stderr")]
        if wait_ready:
            await self.wait_ready(timeout=timeout, wait_sync=wait_sync)
        return self

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while True:
            raw = await stream.readline()
            if not raw:
                return
            line = raw.decode(errors="replace").rstrip("\n")
            self.lines.append(line)
            if self.echo:
                print(f"[bot] {line}", file=sys.stderr)
            self.fd._notify()

    async def wait_ready(self, timeout: float = 15.0, *, wait_sync: bool = True) -> None:
        """Until this process identified and got GUILD_CREATE (and synced, if asked); fails fast,
        with the output, if the process exits first."""
        def ready() -> bool | str:
            if self.proc is not None and self.proc.returncode is not None:
                return "exited"
            sessions = [s for s in self.fd._sessions[self._identifies_before:] if s.guild_create_at is not None]
            if not sessions:
                return False
            if wait_sync and not any(t >= self.started_at for t, _ in self.fd.command_syncs):
                return False
            self.session_id = sessions[-1].id
            return True
        try:
            result = await self.fd.wait_until(ready, timeout, what="the bot to connect")
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}\n--- bot output ---\n{self.output()}") from None
        if result == "exited":
            await asyncio.wait(self._readers, timeout=2.0)
            raise RuntimeError(f"bot exited with {self.returncode} before ready:\n{self.output()}")
        self.ready_at = time.monotonic()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc else None

    def kill(self) -> None:
        """SIGKILL, as a crash or OOM kill would; `await wait()` to reap it."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)

    async def wait(self, timeout: float = 5.0) -> int:
        """Wait for exit and for the output readers to drain; returns the exit code."""
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        if self._readers:
            await asyncio.wait(self._readers, timeout=2.0)
        return code

    async def stop(self, grace: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after `grace` seconds. Safe to call twice."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                self.proc.send_signal(signal.SIGKILL)
        code = await self.wait()
        for task in self._readers:
            task.cancel()
        if getattr(self, "_tmpdir", None) is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None
        return code

    async def __aenter__(self) -> BotProcess:
        if self.proc is None:
            await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ output
    def output(self, last: int | None = 200) -> str:
        return "\n".join(self.lines if last is None else self.lines[-last:])

    def error_lines(self) -> list[str]:
        """Lines with " ERROR ", " CRITICAL " or "Traceback": errors inside command and component
        callbacks are only logged by discord.py, so tests must look here to see them."""
        return [ln for ln in self.lines if " ERROR " in ln or " CRITICAL " in ln or "Traceback" in ln]

    def records(self) -> list[str]:
        """Log records: a timestamped line plus its continuation lines (tracebacks), joined."""
        out: list[str] = []
        for ln in self.lines:
            if _RECORD_START.match(ln) or not out:
                out.append(ln)
            else:
                out[-1] += "\n" + ln
        return out

    def error_records(self, *, ignore: Sequence[str | re.Pattern[str]] = ()) -> list[str]:
        """ERROR/CRITICAL records and anything with a traceback, minus those matching any of
        `ignore` (substrings or regexes searched in the whole record, traceback included)."""
        def ignored(rec: str) -> bool:
            return any((p.search(rec) if isinstance(p, re.Pattern) else p in rec) for p in ignore)
        return [r for r in self.records()
                if (" ERROR " in r.split("\n", 1)[0] or " CRITICAL " in r.split("\n", 1)[0] or "Traceback" in r)
                and not ignored(r)]

    async def wait_for_line(self, pattern: str | re.Pattern[str], timeout: float = 5.0) -> str:
        """First output line matching pattern (regex search), waiting for it if needed."""
        rx = re.compile(pattern) if isinstance(pattern, str) else pattern
        return await self.fd.wait_until(lambda: next((ln for ln in self.lines if rx.search(ln)), None), timeout,
                                        what=f"bot output matching {rx.pattern!r}")
