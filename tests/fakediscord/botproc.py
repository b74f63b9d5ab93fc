"""Run the real bot (or any discord.py script) as a subprocess against a FakeDiscord.

A subprocess, not an in-process client, because the end-to-end tests must exercise exactly what
`python -m bot` does in production (settings, logging, start-up, signals), and because a crash or
SIGKILL must be testable: the fake then sees the socket drop and a fresh process re-identify.

The bot itself (``python -m bot`` in the repository, on SQLite) is forked from a zygote that
imported its modules once (zygote.py), and is that command from there on, in a session of its
own; other commands, working folders and PostgreSQL bots are started afresh, and so is every
bot with BONEYARD_TEST_EXEC=1.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
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


class _Forked:
    """A bot process the zygote forked (tests/fakediscord/zygote.py): as much of asyncio's
    Process as BotProcess uses. The zygote is its parent and tells its exit code."""

    def __init__(self, pid: int, told: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._exited = asyncio.ensure_future(self._watch(told, writer))

    async def _watch(self, told: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = await told.readline()
        self.returncode = int(line) if line.strip() else -signal.SIGKILL  # no line: the zygote died with it
        writer.close()

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    async def wait(self) -> int:
        await asyncio.shield(self._exited)
        assert self.returncode is not None
        return self.returncode


class _Zygote:
    """The worker's zygote, started at its first fork: a process that imported the bot's modules
    once and forks a bot from there (a start then costs a tenth of a second instead of a
    second). It ends with this process (its stdin closes)."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="boneyard-zygote-")
        self.path = str(Path(self.folder.name) / "fork.sock")
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.fakediscord.zygote", self.path], cwd=REPO_ROOT,
                                     env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline() != b"ready\n":
            raise RuntimeError(f"the zygote did not start (exit code {self.proc.wait()})")
        atexit.register(self.close)

    def serves(self, env: dict[str, str], cwd: Path) -> bool:
        """Whether a child of the zygote is the process ``python -m bot`` would be: the same
        working folder (the first place modules are looked for) and the same settings read as
        the interpreter starts (PYTHON*). Not on PostgreSQL: ``settle`` finds a bot's database
        server in the environment its process was started with, which a child does not change."""
        python = {k: v for k, v in env.items() if k.startswith("PYTHON")}
        return (cwd == REPO_ROOT and self.proc.poll() is None and "DATABASE_URL" not in env
                and python == {k: v for k, v in self.env.items() if k.startswith("PYTHON")})

    async def fork(self, env: dict[str, str], cwd: Path) -> tuple[_Forked, asyncio.StreamReader, asyncio.StreamReader]:
        loop = asyncio.get_running_loop()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        null = os.open(os.devnull, os.O_RDONLY)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)  # a local socket: at once
            socket.send_fds(sock, [json.dumps({"env": env, "cwd": str(cwd)}).encode()], [null, out_w, err_w])
        except OSError:
            sock.close()
            raise
        finally:
            for fd in (null, out_w, err_w):
                os.close(fd)
        told, writer = await asyncio.open_unix_connection(sock=sock)
        pid = int(await told.readline())
        readers = []
        for fd in (out_r, err_r):
            reader = asyncio.StreamReader(loop=loop)
            await loop.connect_read_pipe(lambda r=reader: asyncio.StreamReaderProtocol(r, loop=loop),  # type: ignore[misc]
                                         os.fdopen(fd, "rb", buffering=0))
            readers.append(reader)
        return _Forked(pid, told, writer), readers[0], readers[1]

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.folder.cleanup()


_zygote: _Zygote | None = None
_starting = threading.Lock()


def _the_zygote() -> _Zygote | None:
    """This process's zygote, started if need be (run it in a thread: the start takes a
    second); None where bots are to be started afresh (BONEYARD_TEST_EXEC=1: every one as
    production starts it, at the cost of its imports)."""
    global _zygote
    if os.environ.get("BONEYARD_TEST_EXEC") == "1" or not hasattr(socket, "send_fds") or not hasattr(os, "fork"):
        return None
    with _starting:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = _Zygote()
        return _zygote


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
        self.forked = False  # a child of the zygote (see _Zygote), not a process of its own
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
        env = self.env()
        zygote = await asyncio.to_thread(_the_zygote) if self.command == [sys.executable, "-m", "bot"] else None
        if zygote is not None and zygote.serves(env, self.cwd):
            self.forked = True
            self.proc, stdout, stderr = await zygote.fork(env, self.cwd)  # type: ignore[assignment]
        else:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, cwd=str(self.cwd), env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # our signals go to this pid only, never to the test runner
            )
            assert self.proc.stdout is not None and self.proc.stderr is not None
            stdout, stderr = self.proc.stdout, self.proc.stderr
        self._readers = [asyncio.create_task(self._read(stdout), name="bot-stdout"),
                         asyncio.create_task(self._read(stderr), name="bot-stderr")]
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
