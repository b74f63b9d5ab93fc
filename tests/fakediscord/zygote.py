"""Bot processes forked from one that has already imported what the bot imports, for the tests.

The suite starts ``python -m bot`` more than a hundred times, and each start spends most of its
second importing: discord.py, pydantic's models of every game, d20's grammar, Pillow. This
process imports the bot's modules and its games' rules once, then forks on request; each child
becomes ``python -m bot`` from there on: its own session, the test's environment, working
folder and standard streams, ``bot/__main__.py`` run as ``__main__``. The cogs themselves are
not imported here, so each child loads its extensions and registers its games as a fresh
process does.

    python -m tests.fakediscord.zygote SOCKET      (started by botproc.py; it ends with its stdin)

A request is a JSON line ``{"env": ..., "cwd": ...}`` sent with three file descriptors (the
child's stdin, stdout, stderr); the answer is the child's pid, then, once it exits, its exit
code as ``subprocess`` gives it (minus the signal that killed it), each on a line.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import runpy
import selectors
import signal
import socket
import sys
from typing import Any

#: what the bot imports before it loads its extensions, and what its extensions import from the
#: host and from outside; the extensions (cogs.*) are left for each child to load
PRELOAD = ("bot.main", "bot.client", "bot.games", "bot.render", "bot.pictures", "bot.models", "bot.errors",
           "bot.tavern", "bot.layout", "bot.store", "rules.notation", "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont")


def preload() -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    rules = importlib.import_module("rules")
    for found in pkgutil.iter_modules(rules.__path__):
        importlib.import_module(f"rules.{found.name}")


def serve(path: str) -> dict[str, Any]:
    """Fork a child for each request until stdin closes (then exit); returns, in a child only,
    the request it is to run."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    woken_r, woken_w = os.pipe()
    os.set_blocking(woken_w, False)
    signal.set_wakeup_fd(woken_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # the wakeup fd is written: the loop reaps
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(woken_r, selectors.EVENT_READ, "reap")
    selector.register(sys.stdin, selectors.EVENT_READ, "end")
    children: dict[int, socket.socket] = {}
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.data == "end":
                for pid in children:
                    os.kill(pid, signal.SIGKILL)
                raise SystemExit(0)
            if key.data == "reap":
                os.read(woken_r, 4096)
                while children:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    conn = children.pop(pid, None)
                    if conn is not None:
                        conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
                        conn.close()
                continue
            conn, _ = listener.accept()
            raw, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            request = json.loads(raw)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                selector.close()
                for sock in (listener, conn, *children.values()):
                    sock.close()
                for target, fd in enumerate(fds):
                    os.dup2(fd, target)
                os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # the pipes, and the fds just received
                return request
            for fd in fds:
                os.close(fd)
            children[pid] = conn
            conn.sendall(f"{pid}\n".encode())


def become(request: dict[str, Any]) -> None:
    """This child, from here on: ``python -m bot`` started in the request's folder and
    environment."""
    os.setsid()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [sys.argv[0]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    preload()
    become(serve(sys.argv[1]))
