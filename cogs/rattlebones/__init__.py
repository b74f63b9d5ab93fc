"""Rattlebones at a Discord table: the board as the table's picture, the acting player's dice
when a side is about to change, and where everyone stands in words.

The engine (rules/rattlebones/) decides everything; this module only shows it and offers its
options as slash-command options. The host attaches one picture per table: the board, except
while a side of a die is being chosen, when the acting player's three dice are what matters.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.errors import Refusal, guarded
from bot.game_cog import GameCog
from bot.games import GameSpec
from bot.models import Table
from bot.pictures import Picture
from bot.render import FIELD_VALUE, clip, safe, seat_names
from cogs.rattlebones.pictures import board_facts, dice_facts, draw_board, draw_dice
from rules import rattlebones as rb
from rules.base import Event
from rules.rattlebones.dice import face_short

if TYPE_CHECKING:
    from bot.client import Boneyard

#: decisions about a side of the rolled die: the table shows that player's dice instead of the board
SIDE_PHASES = ("replace", "aim")
#: events worth a line in history (the rest is in /game log)
STORY_KINDS = ("score", "replace", "thief", "store", "stock", "timeout", "over", "rattlebones")


def said_by(event: Event) -> str:
    """The log's line for an event, said from its kind, seats and figures."""
    return rb.event_text(event.kind, event.seats, event.data)


def name(table: Table, seat: int) -> str:
    return safe(clip(table.seats[seat].name, 20))


def side_word(face: str) -> str:
    """A side in a word or two: pips are bare numbers, so a 9-Pip must not read as nine pips."""
    if face == "nine_pip":
        return "9-Pip"
    if face.startswith("arrow:"):
        return "Arrow→" + face_short(face).removeprefix("->")
    return face_short(face).replace(" pt", "pt")


def faces_line(faces: list[str]) -> str:
    """A die's six sides in order, as short words: `RB 2 Gold 4 5pt x2`."""
    return " ".join(side_word(f) for f in faces)


def standing_line(table: Table, view: rb.RattlebonesView, p: rb.PlayerView) -> str:
    """One player in one short line: score and distance to Rattlebones, then the purse."""
    mark = "▸ " if view.current_seat == p.seat else ""
    stars = f"{p.stars} star" + ("" if p.stars == 1 else "s")
    return (f"{mark}**{name(table, p.seat)}** {p.score} pts, {p.to_go} to go · "
            f"{p.gold} gold · {stars} · {p.stock} stock")


def thrown_line(view: rb.RattlebonesView) -> str:
    """This turn's dice in words: what each shows and whether it is used, in use or waiting."""
    words = []
    using = view.decision.die if view.decision is not None and view.decision.phase not in ("order", "x2") else None
    last = {r.die: i for i, r in enumerate(view.rolls)}
    for i, r in enumerate(view.rolls):
        state = {"pending": "", "done": " ✓", "dropped": " (dropped)"}[r.state]
        if r.die == using and last[r.die] == i and r.state == "done":
            state = " ◂ now"
        words.append(f"die {r.die + 1} {rb.face_name(r.face) if r.face != 'arrow' else 'Arrow'}{state}")
    return "Thrown: " + ", ".join(words) if words else ""


def dice_words(view: rb.RattlebonesView, seat: int) -> str:
    """Every side of a player's dice, for screen readers and for Details."""
    return "\n".join(f"Die {d + 1}: {faces_line(faces)}" for d, faces in enumerate(view.players[seat].dice))


def board_words(view: rb.RattlebonesView) -> str:
    """Where every monkey and the train stand, in words (the board picture's description)."""
    spaces = " · ".join(f"{s.index} {'9-Pip' if s.kind == 'nine_pip' else s.short}" for s in view.spaces)
    monkeys = "; ".join(f"Seat {p.seat + 1} on {', '.join(str(m) for m in p.monkeys)}" for p in view.players)
    return (f"Spaces: {spaces}. Monkeys: {monkeys}. Train on {view.train} "
            f"(worth {view.train_values[view.train]}). Rattlebones on {view.rattlebones}.")


class RattlebonesSpec(GameSpec[rb.RattlebonesView, rb.RattlebonesAction, rb.RattlebonesOptions]):
    engine = rb.ENGINE
    command = "rattlebones"
    colour = discord.Colour.from_rgb(196, 140, 60)
    blurb = ("Race your monkeys round a board and rebuild your dice as you land. "
             "2–4 players, about 20 minutes.")

    def table_embed(self, table: Table, view: rb.RattlebonesView) -> discord.Embed:
        standing = [standing_line(table, view, p) for p in view.players]
        if view.over:
            how = ("a mouse met Rattlebones" if view.end_reason == "rattlebones"
                   else "the turn limit was reached")
            return discord.Embed(title=f"Rattlebones: game over, {how}", colour=self.colour,
                                 description="\n".join(standing + ["", "**Details** shows everyone's dice."]))
        lines = [f"Rattlebones is on **{view.rattlebones}** (started on {view.rattlebones_start})."]
        lines += standing
        thrown = thrown_line(view)
        if thrown:
            lines += ["", thrown]
        decision = view.decision
        if decision is not None and decision.phase in SIDE_PHASES and decision.die is not None:
            me = view.players[decision.seat]
            side = "an Arrow" if decision.side == "arrow" else rb.face_name(decision.side)
            lines.append(f"Die {decision.die + 1} is {faces_line(me.dice[decision.die])}; "
                         f"on offer: {side}.")
        return discord.Embed(title=f"Rattlebones · turn {view.turn}", colour=self.colour,
                             description=clip(seat_names(table, "\n".join(lines)), 4096))

    def picture(self, table: Table, view: rb.RattlebonesView) -> Picture | None:
        """The board, or the acting player's dice while one of its sides is being chosen."""
        decision = view.decision
        if not view.over and decision is not None and decision.phase in SIDE_PHASES:
            dice = dice_facts(view, decision.seat)
            words = seat_names(table, f"Seat {decision.seat + 1}'s dice. " + dice_words(view, decision.seat))
            return Picture(key=("rattlebones-dice", dice), draw=lambda: draw_dice(dice),
                           filename="dice.png", description=clip(words, 1000))
        board = board_facts(view)
        return Picture(key=("rattlebones-board", board), draw=lambda: draw_board(board),
                       filename="board.png", description=clip(seat_names(table, board_words(view)), 1000))

    def details_pictures(self, table: Table, view: rb.RattlebonesView, seat: int | None) -> list[Picture]:
        """Every player's three dice, all six sides showing, so anyone can see what others built."""
        out = []
        for index, _ in enumerate(view.players):
            dice = dice_facts(view, index)
            out.append(Picture(key=("rattlebones-dice", dice), draw=partial(draw_dice, dice),
                               filename=f"dice-{index + 1}.png",
                               description=f"{clip(table.seats[index].name, 40)}'s dice"))
        return out

    def details(self, table: Table, view: rb.RattlebonesView, seat: int | None) -> list[discord.Embed]:
        dice = discord.Embed(title="Everyone's dice", colour=self.colour,
                             description="Sides 1 to 6 of each die; side 1 is always Rattlebones (RB).")
        for p in view.players:
            dice.add_field(name=safe(clip(table.seats[p.seat].name, 256)),
                           value=clip(dice_words(view, p.seat), FIELD_VALUE), inline=False)
        board = discord.Embed(title="The board", colour=self.colour, description=clip(
            seat_names(table, board_words(view)), 4096))
        board.add_field(name="Standings", value=clip(seat_names(table, "\n".join(rb.standings(view))),
                                                     FIELD_VALUE), inline=False)
        supply = ", ".join(f"{'Arrow' if k == 'arrow' else side_word(k)} {n}"
                           for k, n in sorted(view.supply.items()))
        board.add_field(name="Supply", value=clip(
            f"Gold {view.gold_supply} · stars {view.star_supply} · stock tickets {view.stock_supply}\n"
            f"Sides left: {supply}", FIELD_VALUE), inline=False)
        return [dice, board]

    def chapter(self, view: rb.RattlebonesView) -> str:
        return "Game over" if view.over else f"Turn {view.turn}"

    def story(self, table: Table, view: rb.RattlebonesView, events: list[Event]) -> str | None:
        """A turn in a line: what it scored, built, stole or sold (moves are in /game log)."""
        said = [said_by(e) for e in events if e.kind in STORY_KINDS]
        if not said:
            return super().story(table, view, events)
        line = " · ".join(said)
        return line if len(line) <= 380 else line[:379] + "…"

    def headline(self, table: Table, view: rb.RattlebonesView, events: list[Event]) -> str | None:
        """The end, a Thief's haul and a stock payout concern more than the player whose turn it is."""
        news = [e for e in events if e.kind == "over"
                or (e.kind == "thief" and e.data.get("victim") is not None)
                or (e.kind == "stock" and "payout" in e.data)]
        if any(e.kind == "stock" for e in news):
            news += [e for e in events if e.kind == "score" and e.data.get("source") == "stock"]
        return " · ".join(said_by(e) for e in news) if news else None

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

    def rules_text(self, options: rb.RattlebonesOptions) -> str:
        return rb.rules_summary(options)

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


class RattlebonesCog(GameCog, group_name="rattlebones",
                     group_description="Rattlebones: race monkeys and rebuild your dice"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Rattlebones table in this channel")
    @app_commands.describe(
        board="standard14 (14 spaces), compact8 (8 spaces, shorter) or custom",
        custom_spaces="Custom board only: spaces START first, comma-separated; 'tile' = random tile",
        train_values="The train track's values, comma-separated (default 0,1,2,3,4,5,6,7)",
        point_sides="How the 15 point sides split over 1-5: even (3 each) or tapered (5/4/3/2/1)",
        store="More than 4 stars: linear (4 points each less 1) or batches of 4",
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
    ) -> None:
        async def run() -> None:
            options = parse_options(board, custom_spaces, train_values, point_sides, store)
            await self.bot.runtime.open_lobby(interaction, SPEC, options)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RattlebonesCog(bot))
