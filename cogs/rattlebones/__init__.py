"""Rattlebones at a Discord table: what the acting player decides about, as the table's picture
and in words, where everyone stands, and Details and the rules a phone screen at a time.

The engine (rules/rattlebones/) decides everything; this module only shows it and offers its
options as slash-command options. The table's one picture is what the decision is about: the
acting player's three dice while they choose what to throw or how to change a die (the side on
offer drawn below it), the board while monkeys move and at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.errors import Refusal, guarded
from bot.games import GameSpec, Page, Part, Tavern, split_screens
from bot.models import Table
from bot.pictures import Picture
from bot.render import clip, seat_names
from bot.tavern import TavernCog
from cogs.rattlebones import history
from cogs.rattlebones.pictures import board_facts, dice_facts, draw_board, draw_dice
from cogs.rattlebones.words import (
    SIDE_PHASES, asked_block, board_words, dice_lines, ending_block, holdings, pawn, said_by,
    standings_block, supply_words, title_name, who,
)
from rules import rattlebones as rb
from rules.base import Event, counted

if TYPE_CHECKING:
    from bot.client import Boneyard

#: decisions about the acting player's dice: the table shows them; every other shows the board
DICE_PHASES = ("roll", "add_die", "x2", *SIDE_PHASES)


class RattlebonesSpec(GameSpec[rb.RattlebonesView, rb.RattlebonesAction, rb.RattlebonesOptions]):
    engine = rb.ENGINE
    #: a game-master can run it in a campaign: a table without their seat, NPCs played by the bot
    tavern = Tavern()
    command = "rattlebones"
    colour = discord.Colour.from_rgb(196, 140, 60)
    blurb = ("Race your monkeys round a board and rebuild your dice as you land. "
             "2–4 players, about 20 minutes.")

    def table_parts(self, table: Table, view: rb.RattlebonesView) -> list[Part]:
        """Where everyone stands, then what the acting player decides about (right above its
        picture and the buttons)."""
        if view.over:
            return [Part(seat_names(table, ending_block(view)))]
        parts = [Part(seat_names(table, standings_block(view)))]
        if view.decision is not None:
            parts.append(Part(seat_names(table, asked_block(view)), seat=view.decision.seat))
        return parts

    def dice_picture(self, table: Table, view: rb.RattlebonesView, seat: int, filename: str = "dice.png") -> Picture:
        dice = dice_facts(view, seat, table.seats[seat].name)
        words = seat_names(table, f"{who(seat)}'s dice, sides 1 to 6. " + dice_lines(view.players[seat].dice))
        return Picture(key=("rattlebones-dice", dice), draw=lambda: draw_dice(dice), filename=filename,
                       description=clip(words, 1000))

    def board_picture(self, table: Table, view: rb.RattlebonesView) -> Picture:
        board = board_facts(view, tuple(s.name for s in table.seats))
        return Picture(key=("rattlebones-board", board), draw=lambda: draw_board(board),
                       filename="board.png", description=clip(seat_names(table, board_words(view)), 1000))

    def picture(self, table: Table, view: rb.RattlebonesView) -> Picture | None:
        """What the decision is about: the acting player's dice, or the board."""
        decision = view.decision
        if not view.over and decision is not None and decision.phase in DICE_PHASES:
            return self.dice_picture(table, view, decision.seat)
        return self.board_picture(table, view)

    def details_pages(self, table: Table, view: rb.RattlebonesView, seat: int | None) -> list[Page]:
        """Your dice first (else those of the player whose turn it is), then the board, the
        other players' dice and the supply."""
        first = seat if seat is not None else view.current_seat
        order = ([first] if first is not None else []) + [p.seat for p in view.players if p.seat != first]

        def dice_page(index: int) -> Page:
            p = view.players[index]
            text = (f"**{who(index)}** ({pawn(index)}): {counted(p.score, 'point')} · {holdings(p)}\n"
                    f"Sides 1 to 6 of each die; side 1 is always Rattlebones.\n{dice_lines(p.dice)}")
            title = "Your dice" if index == seat else f"{title_name(table.seats[index].name)}'s dice"
            return Page(title, [Part(seat_names(table, text))],
                        self.dice_picture(table, view, index, f"dice-{index + 1}.png"))

        standing = "\n".join(f"**{who(p.seat)}** ({pawn(p.seat)}): {counted(p.score, 'point')}, "
                             + (f"{p.to_go} from Rattlebones" if p.to_go else "met Rattlebones")
                             + f"; monkeys on {', '.join(str(m) for m in p.monkeys)}"
                             for p in view.players)
        board = Page("The board", [Part(seat_names(table, f"Rattlebones is on **{view.rattlebones}** (started "
                                                          f"on {view.rattlebones_start}).\n{standing}"))],
                     self.board_picture(table, view))
        supply = Page("The supply", [Part(supply_words(view))])
        pages = [dice_page(i) for i in order]
        if view.over or first is None:
            return [board, *pages, supply]
        return [pages[0], board, *pages[1:], supply]

    def rules_pages(self, options: rb.RattlebonesOptions) -> list[Page]:
        """How to play on one screen; the full rules a section a page; the game's words."""
        pages = [Page("How to play", [Part(rb.how_to_play(options))])]
        for title, text in rb.rules_sections(options):
            pages += [Page(title, [Part(screen)]) for screen in split_screens(text)]
        for group, words in rb.glossary():
            pages.append(Page(f"Words: {group}", [Part("\n".join(f"**{word}**: {meaning}." for word, meaning in words))]))
        return pages

    def chapter(self, view: rb.RattlebonesView) -> str:
        return "Game over" if view.over else f"Turn {view.turn}"

    def story(self, table: Table, view: rb.RattlebonesView, events: list[Event]) -> str | None:
        """Each turn in a line: the gold it paid and what each die did (see ``history``). A
        Thief's haul and a stock payout are told here too, though the next table's headline
        says them: once that table shrinks, this line is all that is left of them."""
        return history.story(table, view, events)

    def headline(self, table: Table, view: rb.RattlebonesView, events: list[Event]) -> str | None:
        """A Thief's haul and a stock payout concern more than the player whose turn it is."""
        news = _news(events)
        return " · ".join(said_by(e) for e in news) if news else None

    def score_text(self, score: int, view: rb.RattlebonesView) -> str:
        return counted(score, "point")

    def action_label(self, view: rb.RattlebonesView, action: rb.RattlebonesAction) -> str:
        return rb.action_label(view, action)

    def action_style(self, view: rb.RattlebonesView, action: rb.RattlebonesAction) -> discord.ButtonStyle:
        if action.kind in ("keep", "no_double") or (action.kind == "sell" and not action.n):
            return discord.ButtonStyle.secondary
        if action.kind in ("replace", "upgrade"):
            return discord.ButtonStyle.success
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: rb.RattlebonesView, seat: int) -> str:
        if view.decision is None:
            return "your move."
        return seat_names(table, view.decision.prompt)

    def option_lines(self, options: rb.RattlebonesOptions) -> list[str]:
        default = rb.RattlebonesOptions()
        lines = []
        if options.board != default.board:
            lines.append(f"board: {options.board}")
        if options.custom_spaces:
            lines.append("spaces: " + ", ".join(options.custom_spaces))
        if options.train_values != default.train_values:
            lines.append("train track: " + ", ".join(str(v) for v in options.train_values))
        if options.point_sides != default.point_sides:
            lines.append("point sides 5/4/3/2/1 for values 1 to 5")
        if options.store != default.store:
            lines.append("more than 4 stars sell in batches of 4")
        return lines


def _news(events: list[Event]) -> list[Event]:
    """What concerns more than the player whose turn it is: a Thief's haul, a stock payout and
    the points it paid."""
    news = [e for e in events if (e.kind == "thief" and e.data.get("victim") is not None)
            or (e.kind == "stock" and "payout" in e.data)]
    if any(e.kind == "stock" for e in news):
        news += [e for e in events if e.kind == "score" and e.data.get("source") == "stock"]
    return news


SPEC = RattlebonesSpec()


def parse_options(board: str, custom_spaces: str | None, train_values: str | None,
                  point_sides: str, store: str) -> rb.RattlebonesOptions:
    """Slash-command text to options; a mistake becomes a private line, not a failure."""
    fields: dict[str, object] = {"board": board, "point_sides": point_sides, "store": store}
    if custom_spaces:
        fields["custom_spaces"] = tuple(s.strip() for s in custom_spaces.split(",") if s.strip())
    if train_values:
        try:
            fields["train_values"] = tuple(int(v) for v in train_values.replace(" ", "").split(",") if v)
        except ValueError:
            raise Refusal("The train track is numbers separated by commas, e.g. 0,1,2,3,4,5,6,7.") from None
    try:
        return rb.RattlebonesOptions.model_validate(fields)
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        said = clip(first.removeprefix("Value error, "), 300)  # it may quote every space typed
        raise Refusal(f"Those options don't make a board: {said}") from None


class RattlebonesCog(TavernCog, group_name="rattlebones",
                     group_description="Rattlebones: race monkeys and rebuild your dice"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Rattlebones table in this channel")
    @app_commands.describe(
        board="standard14 (14 spaces), compact8 (8 spaces, shorter) or custom",
        custom_spaces="Custom board only: spaces START first, comma-separated; 'tile' = random tile",
        train_values="The train track's values, comma-separated (default 0,1,2,3,4,5,6,7)",
        point_sides="How the 15 point sides split over 1-5: even (3 each) or tapered (5/4/3/2/1)",
        store="More than 4 stars: linear (4 points each less 1) or batches of 4",
        gm_mode="Run the table as game-master without taking a seat (default off)",
    )
    @app_commands.choices(
        board=[app_commands.Choice(name=b, value=b) for b in ("standard14", "compact8", "custom")],
        point_sides=[app_commands.Choice(name=p, value=p) for p in ("even", "tapered")],
        store=[app_commands.Choice(name=s, value=s) for s in ("linear", "batches")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        board: str = "standard14",
        custom_spaces: str | None = None,
        train_values: str | None = None,
        point_sides: str = "even",
        store: str = "linear",
        gm_mode: bool = False,
    ) -> None:
        async def run() -> None:
            options = parse_options(board, custom_spaces, train_values, point_sides, store)
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RattlebonesCog(bot))
