"""Log lines for people (the default) or for a log collector (``LOG_FORMAT=json``: one JSON
object a line), and never a secret in either: the token and the database password are blanked
out of every line, whatever logged them."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
from collections.abc import Iterable

#: what the line being logged concerns (an interaction, its guild, a game), set where each
#: interaction is handled, so every line logged on its way carries them
CONTEXT: contextvars.ContextVar[dict[str, int]] = contextvars.ContextVar("log_context", default={})  # noqa: B039

HIDDEN = "[hidden]"


def concerning(**ids: int | None) -> contextvars.Token[dict[str, int]]:
    return CONTEXT.set({**CONTEXT.get(), **{k: v for k, v in ids.items() if v is not None}})


class Redact(logging.Filter):
    """Blank the secrets out of a record's message and its traceback before any handler sees it."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            record.msg, record.args = self._clean(record.getMessage()), None
            if record.exc_info:
                record.exc_text = self._clean(logging.Formatter().formatException(record.exc_info))
                record.exc_info = None
        return True


class Reconnects(logging.Filter):
    """discord.py logs every try to reconnect at ERROR with the whole traceback of why: while
    Discord is out of reach that is a screenful every few seconds for one known cause. Each
    becomes one WARNING line naming the cause; the bot keeps trying on its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name in ("discord.client", "discord.shard") and str(record.msg).startswith("Attempting a reconnect") \
                and record.exc_info and record.exc_info[1] is not None:
            cause = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(cause).__name__}: {cause})"
            record.args, record.exc_info, record.exc_text = None, None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class JsonLines(logging.Formatter):
    def __init__(self, shard: str) -> None:
        super().__init__()
        self.shard = shard

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname, "logger": record.name, "message": record.getMessage(),
            "shard": self.shard, "process": record.process,
        }
        line.update(CONTEXT.get())
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


def text_format(shard_label: str) -> str:
    """Every line names this process and its shards: the processes of a cluster write to one
    terminal or journal, and a line must say which of them saw what."""
    return f"%(asctime)s %(levelname)s [{shard_label} pid %(process)d] %(name)s: %(message)s"


def setup(level: str, shard_label: str, *, json_lines: bool = False, secrets: Iterable[str] = ()) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines(shard_label) if json_lines else logging.Formatter(text_format(shard_label)))
    handler.addFilter(Reconnects())
    handler.addFilter(Redact(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for talkative in PAYLOADS:
        logging.getLogger(talkative).setLevel(max(logging.INFO, logging.getLevelName(level)))


#: discord.py's loggers that write whole payloads and URLs at DEBUG: every gateway event (a
#: click's interaction token, which answers for the bot for 15 minutes, and players' names and
#: ids), every request with its body, every follow-up's URL (the token again). LOG_LEVEL=DEBUG
#: is for the bot's own lines; these stay at INFO.
PAYLOADS = ("discord.http", "discord.gateway", "discord.webhook")
