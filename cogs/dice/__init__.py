"""The dice tools for tabletop RPG tables: `/roll`, `/rolls` and `/roll-bones`. Cogs like the games',
but no game: they register no GameSpec, so the host never takes them for one. Their buttons are
registered here, with the cogs, so the host need not know them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.dice import roll_bones
from cogs.dice.buttons import ITEMS
from cogs.dice.post import Poster
from cogs.dice.roll import RollCog
from cogs.dice.saved import RollsCog

if TYPE_CHECKING:
    from bot.client import Boneyard


async def setup(bot: Boneyard) -> None:
    poster = Poster(bot)
    await bot.add_cog(RollCog(bot, poster))
    await bot.add_cog(RollsCog(bot, poster))
    await roll_bones.setup(bot)
    bot.add_dynamic_items(*ITEMS)
