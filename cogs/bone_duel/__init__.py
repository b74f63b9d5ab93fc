"""Bone Duel at a Discord table: one die, three lanes, one tap a turn.

The engine (rules/bone_duel) decides everything; this module draws both grids facing each other
and offers the three placements as buttons that say what each would score and knock out. A duel
against the bot is one option away (``vs_bot``), in a channel or a thread of one's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.games import GameSpec, Tavern
from bot.models import Seat, Table
from bot.pictures import Picture
from bot.render import safe
from bot.tavern import TavernCog
from cogs.bone_duel.pictures import grids_picture
from rules import bone_duel as bd
from rules.base import Event

if TYPE_CHECKING:
    from bot.client import Boneyard

#: the engine's columns, named as the rulebook does; the picture draws each as a lane across,
#: labelled with this name, the left column on top
LANES = ("Left", "Middle", "Right")


def faces(values: list[int]) -> str:
    return " ".join(str(v) for v in values) or "—"


def knock_words(knocks: list[int]) -> str:
    if not knocks:
        return ""
    return f"knocks out {len(knocks)}×{knocks[0]}" if len(knocks) > 1 else f"knocks out a {knocks[0]}"


#: each side's colour in the picture (its dice run left or right from the middle), as a mark
SIDES = ("🔵", "🔴")


def score_line(table: Table, view: bd.BoneDuelView) -> str:
    """Both players, their side's colour and their totals, the one to act marked."""
    parts = []
    for seat in (0, 1):
        mark = "▸ " if not view.over and view.current == seat else ""
        wins = f" ({view.wins[seat]} won)" if view.best_of_three else ""
        parts.append(f"{mark}{SIDES[seat]} **{safe(table.seats[seat].name)}** {view.totals[seat]}{wins}")
    return " · ".join(parts)


def last_line(table: Table, view: bd.BoneDuelView) -> str:
    last = view.last
    if last is None or last.game != view.game:
        return ""
    who = safe(table.seats[last.seat].name)
    victim = safe(table.seats[1 - last.seat].name)
    line = f"{who} put a **{last.face}** in the {LANES[last.column].lower()} column"
    if last.knocked:
        line += f", knocking out {victim}'s {faces(last.knocked)}"
    return line + "."


def grid_words(table: Table, view: bd.BoneDuelView) -> str:
    """The picture in words, for screen readers and for Details."""
    lines = []
    for seat in (0, 1):
        lanes = ", ".join(f"{LANES[c].lower()} {faces(view.grids[seat][c])} ({view.column_scores[seat][c]})"
                          for c in range(3))
        lines.append(f"{table.seats[seat].name}: {lanes}; total {view.totals[seat]}.")
    return " ".join(lines)


class BoneDuelSpec(GameSpec[bd.BoneDuelView, bd.BoneDuelAction, bd.BoneDuelOptions]):
    engine = bd.ENGINE
    command = "bone-duel"
    colour = discord.Colour.from_rgb(214, 196, 150)
    blurb = "Roll one die, place it in a lane, knock out your rival's matching dice. 2 players, about 2 minutes."
    tavern = Tavern()

    def table_embed(self, table: Table, view: bd.BoneDuelView) -> discord.Embed:
        match = f" · game {view.game}" if view.best_of_three else ""
        if view.over:
            title = "Bone Duel · the match is over" if view.best_of_three else "Bone Duel · the grid is full"
        else:
            title = f"Bone Duel{match}"
        lines = [score_line(table, view)]
        said = last_line(table, view)
        if said:
            lines.append(said)
        if not view.over and view.die is not None:
            lines.append(f"🎲 {safe(table.seats[view.current].name)} rolled a **{view.die}**.")
        return discord.Embed(title=title, description="\n".join(lines), colour=self.colour)

    def picture(self, table: Table, view: bd.BoneDuelView) -> Picture | None:
        return grids_picture(view, grid_words(table, view))

    def details(self, table: Table, view: bd.BoneDuelView, seat: int | None) -> list[discord.Embed]:
        embed = discord.Embed(title="Both grids", colour=self.colour)
        for s in (0, 1):
            embed.add_field(name=safe(table.seats[s].name), inline=False, value="\n".join(
                f"{LANES[c]}: {faces(view.grids[s][c])} → {view.column_scores[s][c]}" for c in range(3)
            ) + f"\n**Total {view.totals[s]}**")
        if view.best_of_three:
            played = [("draw" if w is None else safe(table.seats[w].name)) for w in view.results]
            embed.add_field(name="Match", inline=False,
                            value=f"Games: {', '.join(played) or 'none finished yet'} · first to 2 wins")
        return [embed]

    def chapter(self, view: bd.BoneDuelView) -> str:
        if view.over:
            return "Match over" if view.best_of_three else "Game over"
        return f"Game {view.game}" if view.best_of_three else "The duel"

    def story(self, table: Table, view: bd.BoneDuelView, events: list[Event]) -> str | None:
        """The placements while a table was live, and any knock-out."""
        parts: list[str] = []
        for e in events:
            if e.kind == "place" and e.seat is not None:
                parts.append(f"Seat {e.seat + 1} {e.data['face']} → {LANES[e.data['column']].lower()}")
            elif e.kind == "knock" and parts:
                parts[-1] += f", knocking out {faces(list(e.data['faces']))}"
        return " · ".join(parts) or None

    def headline(self, table: Table, view: bd.BoneDuelView, events: list[Event]) -> str | None:
        """The end of a game of a match: whom it concerns, pinged."""
        done = [e for e in events if e.kind == "game_over"]
        if not done or view.over:
            return None
        e = done[-1]
        totals = "–".join(str(t) for t in e.data["totals"])
        if len(e.seats) == 1:
            return f"🏆 Seat {e.seats[0] + 1} wins game {e.data['game']} ({totals})."
        return f"Game {e.data['game']} is a draw ({totals}): it counts for nobody."

    def action_label(self, view: bd.BoneDuelView, action: bd.BoneDuelAction) -> str:
        preview = next((p for p in view.previews if p.column == action.column), None)
        if preview is None:
            return LANES[action.column]
        knock = knock_words(preview.knocks)
        return f"{LANES[action.column]}: +{preview.gain}" + (f", {knock}" if knock else "")

    def action_style(self, view: bd.BoneDuelView, action: bd.BoneDuelAction) -> discord.ButtonStyle:
        best = max((p.gain for p in view.previews), default=0)
        preview = next((p for p in view.previews if p.column == action.column), None)
        return discord.ButtonStyle.success if preview is not None and preview.gain == best else \
            discord.ButtonStyle.primary

    def prompt(self, table: Table, view: bd.BoneDuelView, seat: int) -> str:
        return f"you rolled a **{view.die}**: pick its column."

    def score_text(self, score: int) -> str:
        return f"{score} points"

    def rules_text(self, options: bd.BoneDuelOptions) -> str:
        return bd.rules_summary(options) + (
            "\n\nOn the table each column is drawn as a lane across, labelled left, middle and right "
            "from top to bottom: yours run from the middle to your side, your rival's opposite "
            "column on the same line. "
            "\n**Tavern mode** (`/bone-duel …`): `new gm_mode:True` runs the table without a seat, "
            "`npc` seats a named NPC.")

    def option_lines(self, options: bd.BoneDuelOptions) -> list[str]:
        lines = []
        if options.best_of_three:
            lines.append("best of three games")
        if not options.knockouts:
            lines.append("no knock-outs")
        return lines


SPEC = BoneDuelSpec()


class BoneDuelCog(TavernCog, group_name="bone-duel", group_description="Bone Duel: the quick 3×3 dice duel"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Bone Duel table in this channel")
    @app_commands.describe(
        vs_bot="Duel the bot: its seat is taken at once, press Start (default off)",
        best_of_three="Play a match: the first to win two games (default off)",
        knockouts="Matching dice knock out the rival's (default on; off is gentler for new players)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
    )
    async def new(self, interaction: discord.Interaction, vs_bot: bool = False, best_of_three: bool = False,
                  knockouts: bool = True, gm_mode: bool = False) -> None:
        async def run() -> None:
            options = bd.BoneDuelOptions(best_of_three=best_of_three, knockouts=knockouts)
            seats = None
            if vs_bot and not gm_mode:
                seats = [Seat(user_id=interaction.user.id, name=interaction.user.display_name),
                         Seat(name="Bot 1", ai=True)]
            await self.bot.runtime.open_lobby(interaction, SPEC, options, seats=seats, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(BoneDuelCog(bot))

