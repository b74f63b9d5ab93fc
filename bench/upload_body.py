"""CPU of one request carrying a table's picture: discord.py's ``FormData`` against the body
``bot/wire.py`` builds in one piece, both posted through aiohttp to a server on 127.0.0.1 in
this process (the server's share is the same for both: the same bytes arrive).

    .venv/bin/python bench/upload_body.py
    .venv/bin/python bench/upload_body.py --requests 5000 --picture-kb 40
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import sys
import time
from pathlib import Path

import aiohttp
import discord
from aiohttp import web
from discord.http import handle_message_parameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import wire  # noqa: E402


def params(picture: bytes) -> discord.http.MultipartParameters:
    """A table's answer as discord.py prepares it: a layout of a dozen text blocks, one file."""
    view = discord.ui.LayoutView()
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container()
    for n in range(12):
        box.add_item(discord.ui.TextDisplay(f"**Seat {n}** · " + "a line of the table " * 3))
    view.add_item(box)
    return handle_message_parameters(view=view, files=[discord.File(io.BytesIO(picture), filename="table.png")])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--picture-kb", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    picture = os.urandom(args.picture_kb * 1024)

    async def drain(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/upload", drain)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}/upload"
    spent: dict[str, list[float]] = {"FormData": [], "one body": []}
    async with aiohttp.ClientSession() as session:
        for _ in range(args.rounds):
            for way in spent:
                began = time.process_time()
                for _ in range(args.requests):
                    with params(picture) as p:
                        if way == "FormData":
                            form = aiohttp.FormData(quote_fields=False)
                            for part in p.multipart or ():
                                form.add_field(**part)
                            data: object = form
                        else:
                            data = wire.body(p)
                        async with session.post(url, data=data) as response:
                            await response.read()
                spent[way].append((time.process_time() - began) / args.requests * 1000)
    await runner.cleanup()
    for way, times in spent.items():
        print(f"{way:<9} {min(times):.3f} ms of CPU per request (best of {args.rounds}, "
              f"{args.picture_kb} kB picture, message parameters built in both)")


if __name__ == "__main__":
    asyncio.run(main())
