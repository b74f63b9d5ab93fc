"""Tavern mode: a game-master runs a table inside their campaign. NPCs played by the bot take
named seats, and where the game has stakes each seat brings its own (a character's purse); the
game may leave a record the game-master keeps (a ledger).

One piece a game opts into: its spec gets a ``Tavern`` (bot/games.py) and its cog the
``TavernCog`` base (``StakesTavernCog`` where the game has stakes), which brings the commands. The host asks ``spec.tavern`` and nothing else about it, so no host
code exists for one game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import Refusal, guarded
from bot.game_cog import GameCog
from bot.games import Tavern
from bot.models import Seat, Table
from bot.render import safe
from bot.seats import find_seat, npc_name

if TYPE_CHECKING:
    from bot.client import Boneyard


__all__ = ["StakesTavernCog", "Tavern", "TavernCog"]


class TavernCog(GameCog):
    """A game cog with tavern mode: ``npc`` seats a named NPC. The game's own ``new`` takes
    ``gm_mode``. A game with stakes takes ``StakesTavernCog``, whose ``npc`` also says what the
    NPC brings: a game without them offers no option that could only be refused."""

    @property
    def tavern(self) -> Tavern:
        tavern = self.spec.tavern
        assert tavern is not None, f"{type(self).__name__} is a TavernCog but its spec has no tavern"
        return tavern

    def _ours(self, table: Table) -> None:
        if table.game != self.spec.engine.key:
            raise Refusal(f"The game in this channel is not {self.spec.engine.title}.")

    @app_commands.command(name="npc", description="Seat an NPC played by the bot (host, in the lobby)")
    @app_commands.describe(name="The NPC's name, as the table will show it")
    async def npc(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        await self._seat_npc(interaction, name, None)

    async def _seat_npc(self, interaction: discord.Interaction, name: str, stake: str | None) -> None:
        tavern, engine = self.tavern, self.spec.engine

        def change(table: Table) -> str:
            self._ours(table)
            if len(table.seats) >= engine.max_seats:
                raise Refusal(f"The table is full ({engine.max_seats} seats).")
            who = npc_name(name, table, tavern.npc_example)
            amount = tavern.parse_stake(stake) if stake is not None else None
            table.seats.append(Seat(name=who, ai=True, stake=amount))
            brings = tavern.stake_text(engine.Options.model_validate(table.options), amount)
            return f"{safe(who)} takes seat {len(table.seats)}" + (f" with a {brings}." if brings else ".")

        await guarded(interaction, lambda: self.bot.runtime.edit_lobby(interaction, change, what="seat an NPC"))


class StakesTavernCog(TavernCog):
    """Tavern mode for a game with stakes (its ``Tavern`` names them: ``stake_word``): each seat
    brings its own, set as an NPC is seated or with ``stake``."""

    def __init__(self, bot: Boneyard) -> None:
        super().__init__(bot)
        if self.tavern.stake_word is None:  # a game's own wiring, found as it loads (not only without -O)
            raise TypeError(f"{type(self).__name__} has stakes but its Tavern names none")

    @app_commands.command(name="npc", description="Seat an NPC played by the bot (host, in the lobby)")
    @app_commands.describe(name="The NPC's name, as the table will show it",
                           stake="What they bring (a purse: 12gp 5sp); left out, what every seat brings")
    async def npc(  # type: ignore[override]  # the same command, with the option Discord shows for stakes
            self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
            stake: app_commands.Range[str, 1, 40] | None = None) -> None:
        await self._seat_npc(interaction, name, stake)

    @app_commands.command(name="stake", description="Set what a seat brings to the table (host, in the lobby)")
    @app_commands.rename(seat_or_player="seat-or-player")
    @app_commands.describe(seat_or_player="A seat number, an @player or an NPC's name",
                           amount="What they bring (a purse: 12gp 5sp, or whole gp like 40)")
    async def stake(self, interaction: discord.Interaction, seat_or_player: app_commands.Range[str, 1, 100],
                    amount: app_commands.Range[str, 1, 40]) -> None:
        tavern = self.tavern

        def change(table: Table) -> str:
            self._ours(table)
            seat = find_seat(table, seat_or_player)
            table.seats[seat].stake = tavern.parse_stake(amount)
            options = self.spec.engine.Options.model_validate(table.options)
            return f"{safe(table.seats[seat].name)} brings a {tavern.stake_text(options, table.seats[seat].stake)}."

        await guarded(interaction, lambda: self.bot.runtime.edit_lobby(
            interaction, change, what=f"set a seat's {tavern.stake_word or 'stake'}"))
