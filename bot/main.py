"""Start-up: settings, logging, the optional Discord-compatible endpoint, then run.

``boneyard`` runs the bot; ``boneyard migrate-db --from … --to …`` copies a store (bot/migrate.py).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
import yarl
from pydantic import ValidationError

from bot import logs
from bot.config import Settings, bad_settings, unknown_settings
from bot.startup import CannotStart

def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        print(f"boneyard: cannot start: {bad_settings(exc)}", file=sys.stderr)
        raise SystemExit(2) from None


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to a Discord-compatible API instead of discord.com (the end-to-end tests do)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


#: seconds a stopping process gives the steps in flight to be saved and shown
DRAIN_SECONDS = 10.0


async def _run(settings: Settings) -> None:
    from bot.client import Boneyard

    bot = Boneyard(settings)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not stopping:  # a second signal changes nothing: the first is being honoured
            stopping.append(asyncio.create_task(bot.shut_down(DRAIN_SECONDS), name="shutdown"))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value(), reconnect=True)
    if stopping:
        await stopping[0]


USAGE = ("usage: boneyard                (run the bot; settings from the environment or .env)\n"
         "       boneyard doctor         (check the settings, the database and the metrics port)\n"
         "       boneyard backup PATH    (a consistent copy of the running SQLite store)\n"
         "       boneyard restore BACKUP (with the bot stopped: the backup in place of the SQLite store)\n"
         "       boneyard migrate-db --from sqlite:///FILE --to postgresql://…\n"
         "       boneyard --version\n"
         "       boneyard-cluster --processes N   (several processes sharing the shards; see the README)")
HELP = ("-h", "--help")
#: the admin commands (bot/admin.py), each a function of its arguments there
ADMIN = ("backup", "doctor", "restore")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "migrate-db":
        from bot.migrate import main as migrate

        raise SystemExit(migrate(args[1:]))
    if args and args[0] in ADMIN and not set(args[1:]) & set(HELP):
        from bot import admin

        raise SystemExit(getattr(admin, args[0])(args[1:]))
    if args and args[0] == "--version":
        from importlib.metadata import version

        print(f"boneyard {version('boneyard')}")
        raise SystemExit(0)
    if args:
        asked = args[0] in HELP or (args[0] in ADMIN and bool(set(args[1:]) & set(HELP)))
        print(USAGE, file=sys.stdout if asked else sys.stderr)  # asked for: it is the answer, not an error
        raise SystemExit(0 if asked else 2)
    settings = load_settings()
    logs.setup(settings.log_level, settings.shard_label, json_lines=settings.log_format == "json",
               secrets=settings.secrets)
    for line in unknown_settings():
        logging.getLogger("boneyard").warning("%s; it is ignored", line)
    for line in settings.warnings:
        logging.getLogger("boneyard").warning("%s", line)
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(_run(settings))
    except CannotStart as exc:
        line = str(exc)
        for secret in settings.secrets:
            line = line.replace(secret, "***")
        print(f"boneyard: cannot start: {line}", file=sys.stderr)
        raise SystemExit(exc.exit_code) from None
    except discord.LoginFailure:
        print("boneyard: Discord refused the token (DISCORD_TOKEN); reset it in the developer portal.", file=sys.stderr)
        raise SystemExit(2) from None
    except discord.PrivilegedIntentsRequired:
        print("boneyard: this bot asked for an intent that is not enabled in the developer portal.", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
