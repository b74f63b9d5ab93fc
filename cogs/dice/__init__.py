"""The dice tools for tabletop RPG tables: `/roll` and `/roll-bones`. Cogs like the games', but no
game: they register no GameSpec, so the host never takes them for one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.dice import roll, roll_bones

if TYPE_CHECKING:
    from bot.client import Boneyard


async def setup(bot: Boneyard) -> None:
    await roll.setup(bot)
    await roll_bones.setup(bot)
