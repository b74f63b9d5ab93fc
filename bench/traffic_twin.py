"""A bot that sends Boneyard's Discord traffic and does nothing else: the floor of a click's cost.

``knucklebones_latency.py --baseline twin`` records every request Boneyard made for each game's
clicks (the clicked table's answer, the tables posted for the next player, their pictures) and
has this bot replay them, click for click, over the same transport Boneyard uses (``bot.wire``,
the webhook adapter), with the same gateway shortcuts (``bot.client``). No store, no engine, no
presenting: what is left of Boneyard's CPU per click above this bot's is the host's own work,
and this bot's own ratio to the bare bot is how far the messages players see, as they are, put
the issue's target out of reach of any host.

Run by the bench as a script, with the environment ``python -m bot`` reads and ``TWIN_SCRIPT``:
a JSON list, one script per game, each a list of clicks, each a list of requests
(``{"kind": "answer" | "post", "payload": ..., "files": [[name, base64], ...]}``).
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
from discord.http import Route
from discord.utils import _to_json
from discord.webhook.async_ import async_context

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import layout, wire  # noqa: E402
from tests.fakediscord.minibot import run_against_fake  # noqa: E402

log = logging.getLogger("twin")

Request = dict[str, Any]


class _Parts:
    """What ``wire.body`` reads of discord.py's MultipartParameters: the parts in order."""

    def __init__(self, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        self.multipart = [{"name": "payload_json", "value": _to_json(payload)}] + [
            {"name": f"files[{n}]", "value": io.BytesIO(data), "filename": name}
            for n, (name, data) in enumerate(files)]


def _files(request: Request) -> list[tuple[str, bytes]]:
    return [(name, base64.b64decode(data)) for name, data in request["files"]]


class Twin(discord.Client):
    def __init__(self, scripts: list[list[list[Request]]]) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # Boneyard's one intent (bot/client.py)
        super().__init__(intents=intents, max_messages=None, guild_ready_timeout=0.05,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
        self.tree = discord.app_commands.CommandTree(self)
        self.scripts = scripts
        #: each channel's script, and how far it has been played
        self.playing: dict[int, tuple[list[list[Request]], int]] = {}
        # Boneyard's gateway shortcuts (bot/client.py), so the floor pays what Boneyard pays
        parse = self._connection.parsers["INTERACTION_CREATE"]

        def created(data: dict[str, Any]) -> None:
            if data.get("message") is not None:
                message = data["message"]
                layout.walk(list(message.get("components") or ()))  # Boneyard checks the clicked id is there
                message["components"] = []
            parse(data)

        self._connection.parsers["INTERACTION_CREATE"] = created

    async def setup_hook(self) -> None:
        @self.tree.command(description="Post a button that starts the replay")
        async def twin(interaction: discord.Interaction, game: int) -> None:
            if interaction.channel_id is not None:
                self.playing[interaction.channel_id] = (self.scripts[game], 0)
            go = layout.Built([layout.text("ready"), *layout.rows([layout.button("twin:go", "Go", discord.ButtonStyle.primary)])])
            await interaction.response.send_message(view=go)

        guild = discord.Object(id=int(os.environ["DEV_GUILD_ID"]))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component or interaction.channel_id is None:
            return
        channel = interaction.channel_id
        script, at = self.playing[channel]
        self.playing[channel] = (script, at + 1)
        for request in script[at]:
            if request["kind"] == "answer":
                await self._answer(interaction, request)
            else:
                await self._post(channel, request)
        interaction.response._parent = None  # type: ignore[assignment]  # as bot.replies.let_go

    async def _answer(self, interaction: discord.Interaction, request: Request) -> None:
        state = interaction._state
        route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                      webhook_id=interaction.id, webhook_token=interaction.token)
        files = _files(request)
        prebuilt = wire.body(cast(Any, _Parts(request["payload"], files))) if files else None
        session = interaction._session if prebuilt is None else cast(
            aiohttp.ClientSession, wire.Prebuilt(interaction._session, prebuilt))
        await async_context.get().request(route, session=session, proxy=state.http.proxy,
                                          proxy_auth=state.http.proxy_auth,
                                          payload=request["payload"] if prebuilt is None else None)
        interaction.response._response_type = discord.InteractionResponseType.message_update

    async def _post(self, channel: int, request: Request) -> None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        files = _files(request)
        if files:
            await self.http.request(route, data=wire.body(cast(Any, _Parts(request["payload"], files))))
        else:
            await self.http.request(route, json=request["payload"])


def main() -> None:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), stream=sys.stderr)
    run_against_fake(Twin(json.loads(Path(os.environ["TWIN_SCRIPT"]).read_text())))


if __name__ == "__main__":
    main()
