"""Bone Duel at a Discord table: one die, three rows a player, one tap a turn.

The engine (rules/bone_duel) decides everything; this module draws both grids facing each other
and offers the three placements as buttons that say what each would score and knock out. A duel
against the bot is one option away (``vs_bot``), in a channel or a thread of one's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.games import GameSpec, Page, Part, Tavern, split_screens
from bot.models import Seat, Table
from bot.pictures import Picture
from bot.render import safe
from bot.tavern import TavernCog
from cogs.bone_duel.pictures import grids_picture
from rules import bone_duel as bd
from rules.base import Event, counted

if TYPE_CHECKING:
    from bot.client import Boneyard

#: the engine's columns as the buttons name them: the picture draws each as a row across, the
#: rulebook's left column on top, so a button names the row a player sees (``bd.COLUMN_NAMES``
#: says why)
COLUMN_LABELS = tuple(name.title() for name in bd.COLUMN_NAMES)
#: each side's colour in the picture (its name's disc, its scores), as a mark in words
SIDES = ("🔵", "🔴")


def faces(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def knock_words(knocks: list[int], takes: int) -> str:
    """What a knock-out does to the rival: the dice, and the points they lose where that is not
    plain (two 6s take 24, a lone 6 takes 6)."""
    if not knocks:
        return ""
    return f"knocks out {bd.faces_text(knocks)}" + (f" (−{takes})" if len(knocks) > 1 else "")


def players_lines(table: Table, view: bd.BoneDuelView) -> str:
    """Both players, their side's colour and their totals (and games won in a match)."""
    lines = []
    for seat in (0, 1):
        won = view.wins[seat]
        wins = f", {won} {'game' if won == 1 else 'games'} won" if view.best_of_three else ""
        lines.append(f"{SIDES[seat]} **{safe(table.seats[seat].name)}**: {counted(view.totals[seat], 'point')}{wins}")
    return "\n".join(lines)


def shows_last_game(view: bd.BoneDuelView) -> bd.FinishedGame | None:
    """The game before this one, while each player makes their first placement in this one:
    the move that ends a game of a match starts the next at once, so without it the grids that
    made the score would be gone before anyone saw them."""
    last = view.last_game
    if view.over or last is None or last.game != view.game - 1 or view.turn > 2:
        return None
    return last


def _rows_words(table: Table, grids: list[list[list[int]]], scores: list[list[int]], totals: list[int]) -> list[str]:
    lines = []
    for seat in (0, 1):
        rows = ", ".join(f"{COLUMN_LABELS[c].lower()} {faces(grids[seat][c]) or 'empty'} ({scores[seat][c]})"
                         for c in range(3))
        lines.append(f"{table.seats[seat].name}: {rows}; total {totals[seat]}.")
    return lines


def grid_words(table: Table, view: bd.BoneDuelView) -> str:
    """The picture in words, for screen readers."""
    lines = []
    ended = shows_last_game(view)
    if ended is not None:
        lines.append(f"Game {ended.game} ended:")
        lines += _rows_words(table, ended.grids, ended.column_scores, ended.totals)
        lines.append(f"Game {view.game}:")
    lines += _rows_words(table, view.grids, view.column_scores, view.totals)
    if view.die is not None and not view.over:
        lines.append(f"{table.seats[view.current].name} has a {view.die} to place.")
    return " ".join(lines)


def grid_text(table: Table, view: bd.BoneDuelView, seat: int) -> str:
    """One player's grid, a row a line: its dice and what they score."""
    lines = [f"{SIDES[seat]} **{safe(table.seats[seat].name)}**: {counted(view.totals[seat], 'point')}"]
    for c in range(3):
        dice = view.grids[seat][c]
        lines.append(f"{COLUMN_LABELS[c]}: {faces(dice)} = {view.column_scores[seat][c]}" if dice else f"{COLUMN_LABELS[c]}: empty")
    return "\n".join(lines)


def game_result(table: Table, winner: int | None, scores: list[int] | None) -> str:
    """A finished game of a match with its score, the winner's first, as the game's own
    headline and a single game's standings give it (``scores`` None: no totals were kept for
    that game, and the line tells only who won rather than fail the whole table)."""
    if winner is None:
        return f"a draw at {scores[0]} each" if scores else "a draw"
    won = f"{safe(table.seats[winner].name)} won"
    return f"{won}, {scores[winner]} to {scores[1 - winner]}" if scores else won


def match_text(table: Table, view: bd.BoneDuelView) -> str:
    totals = view.game_totals
    played = [f"Game {n}: {game_result(table, w, totals[n - 1] if n <= len(totals) else None)}"
              for n, w in enumerate(view.results, start=1)]
    if view.over:
        return "\n".join(played)
    return "\n".join([*played, f"Game {view.game}: being played", "The first to win two games wins the match."])


class BoneDuelSpec(GameSpec[bd.BoneDuelView, bd.BoneDuelAction, bd.BoneDuelOptions]):
    engine = bd.ENGINE
    command = "bone-duel"
    colour = discord.Colour.from_rgb(214, 196, 150)
    blurb = "Roll one die, place it in a row, knock out your rival's matching dice. 2 players, about 2 minutes."
    tavern = Tavern()

    def table_parts(self, table: Table, view: bd.BoneDuelView) -> list[Part]:
        """The title and both players' totals: the last placement is the history line just
        above, the die to place is in the line that asks and in the picture."""
        if view.over:
            title = "Bone Duel · the match is over" if view.best_of_three else "Bone Duel · the game is over"
            parts = [Part(f"### {title}")]
            if view.best_of_three:
                parts.append(Part(match_text(table, view)))
            return parts
        match = f" · game {view.game}" if view.best_of_three else ""
        return [Part(f"### Bone Duel{match}\n{players_lines(table, view)}")]

    def picture(self, table: Table, view: bd.BoneDuelView) -> Picture | None:
        """Both grids; at the start of a game of a match, the last game's final grids above them."""
        return grids_picture(view, grid_words(table, view), names=(table.seats[0].name, table.seats[1].name),
                             ended=shows_last_game(view))

    def details_pages(self, table: Table, view: bd.BoneDuelView, seat: int | None) -> list[Page]:
        """Both grids in words, the asker's first; in a match, the games so far."""
        order = (seat, 1 - seat) if seat in (0, 1) else (0, 1)
        pages = [Page("Both grids", [Part(grid_text(table, view, s)) for s in order]
                      + [Part("-# Matching dice multiply: 2, 2, 4 scores 2 × 2 × 2 + 4 = 12.")])]
        if view.best_of_three:
            pages.append(Page("The match", [Part(match_text(table, view))]))
        return pages

    def rules_pages(self, options: bd.BoneDuelOptions) -> list[Page]:
        full = bd.rules_summary(options) + (
            "\n**Tavern mode** (`/bone-duel …`): `new gm_mode:True` runs the table without a seat, "
            "`npc` seats a named NPC.")
        screens = split_screens(full)
        rules = [Page("Full rules" if len(screens) == 1 else f"Full rules {n} of {len(screens)}", [Part(text)])
                 for n, text in enumerate(screens, start=1)]
        return [Page("How to play", [Part(bd.how_to_play(options))]), *rules,
                Page("Words", [Part("\n".join(f"**{word}**: {meaning}" for word, meaning in bd.WORDS))])]

    def chapter(self, view: bd.BoneDuelView) -> str:
        """The turn, as every game's history and log are headed; a match names its game first,
        as its turns count again from 1 in each game."""
        if view.over:
            return "Match over" if view.best_of_three else "Game over"
        return f"Game {view.game} · Turn {view.turn}" if view.best_of_three else f"Turn {view.turn}"

    def opens_chapter(self, event: Event) -> bool:
        """A turn begins with the die rolled for its player, which the move that ends the turn
        before makes: the log files that roll under the turn it opens."""
        return event.kind == "roll"

    def story(self, table: Table, view: bd.BoneDuelView, events: list[Event]) -> str | None:
        """The placements while a table was live, what each knocked out, what a bot's was
        after (a player facing the bot sees why it chose that row), and a game's end: why it
        ended and who won, which the history keeps when the next game's table replaces it."""
        parts: list[str] = []
        for e in events:
            if e.kind == "place" and e.seat is not None:
                part = f"Seat {e.seat + 1} put a {e.data['face']} in the {bd.column_name(e.data['column'])}"
                reason = bd.bot_reason(e.seat, e.data) if table.seats[e.seat].ai else None
                parts.append(f"{part}, {reason}" if reason else part)
            elif e.kind == "knock" and parts:
                parts[-1] += f", knocking out Seat {e.seats[1] + 1}'s {bd.faces_text(list(e.data['faces']), owned=True)}"
            elif e.kind == "game_over":
                parts.append(e.text.rstrip("."))
        return "; ".join(parts) + "." if parts else None

    def headline(self, table: Table, view: bd.BoneDuelView, events: list[Event]) -> str | None:
        """The end of a game of a match, above the next game's first table. The winner is
        named, not pinged: the game needs nothing of them, and the player it needs is pinged
        by the question below."""
        done = [e for e in events if e.kind == "game_over"]
        if not done or view.over:
            return None
        e = done[-1]
        a, b = e.data["totals"]
        if len(e.seats) == 1:
            win, lose = (a, b) if e.seats[0] == 0 else (b, a)
            return f"🏆 {safe(table.seats[e.seats[0]].name)} wins game {e.data['game']}, {win} to {lose}."
        return f"Game {e.data['game']} is a draw, {a} to {b}: it counts for nobody."

    def action_label(self, view: bd.BoneDuelView, action: bd.BoneDuelAction) -> str:
        preview = next((p for p in view.previews if p.column == action.column), None)
        if preview is None:
            return COLUMN_LABELS[action.column]
        knock = knock_words(preview.knocks, preview.takes)
        return f"{COLUMN_LABELS[action.column]}: +{preview.gain}" + (f", {knock}" if knock else "")

    def action_style(self, view: bd.BoneDuelView, action: bd.BoneDuelAction) -> discord.ButtonStyle:
        """Green for the rows that gain most on the rival, points added and knocked out together:
        a new player takes green for the best move, and a knock-out of two 6s (24 off the
        rival) beats a pair that adds 18."""
        best = max((p.swing for p in view.previews), default=0)
        preview = next((p for p in view.previews if p.column == action.column), None)
        return discord.ButtonStyle.success if preview is not None and preview.swing == best else \
            discord.ButtonStyle.primary

    def prompt(self, table: Table, view: bd.BoneDuelView, seat: int) -> str:
        return f"you rolled a **{view.die}**: pick the row to put it in."

    def score_text(self, score: int, view: bd.BoneDuelView) -> str:
        """A match is won by games, a single game by points."""
        return counted(score, "game" if view.best_of_three else "point")

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

