"""A message's body built in one piece (bot/wire.py) reads, part for part, as the FormData
discord.py would have sent: the JSON payload first, then each file under its name."""

from __future__ import annotations

import io
import json

import aiohttp
import discord
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from discord.http import handle_message_parameters

from bot import layout, wire


async def _parts(body: aiohttp.payload.BytesPayload) -> list[tuple[str | None, str | None, bytes]]:
    """(field name, filename, bytes) of each part, as aiohttp's own multipart reader reads them
    on a server on 127.0.0.1, as the fake Discord does."""
    found: list[tuple[str | None, str | None, bytes]] = []

    async def read(request: web.Request) -> web.Response:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            assert isinstance(part, aiohttp.BodyPartReader)
            found.append((part.name, part.filename, bytes(await part.read())))
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/", read)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        assert (await client.post("/", data=body)).status == 204
    return found


async def test_a_message_with_pictures_is_one_body_with_its_payload_and_files() -> None:
    picture, ledger = bytes(range(256)) * 40, b"name,coins\r\nAnn,3\r\n"
    view = layout.Built([layout.text("**Turn 3** · Ann")])
    params = handle_message_parameters(view=view, files=[
        discord.File(io.BytesIO(picture), filename="dice.png"),
        discord.File(io.BytesIO(ledger), filename='ledger "final".csv')])
    body = wire.body(params)
    assert body is not None and body.content_type.startswith("multipart/form-data; boundary=")
    (name, filename, payload), *files = await _parts(body)
    assert name == "payload_json" and filename is None
    sent = json.loads(payload)
    assert sent["components"] == view.to_components() and sent["flags"] & discord.MessageFlags(
        components_v2=True).value
    assert [a["filename"] for a in sent["attachments"]] == ["dice.png", 'ledger "final".csv']
    assert files == [("files[0]", "dice.png", picture), ("files[1]", "ledger %22final%22.csv", ledger)]


def test_a_message_without_files_has_no_body_of_its_own() -> None:
    """It goes as JSON, as discord.py sends it."""
    assert wire.body(handle_message_parameters(view=layout.text_message("hello"))) is None
