"""Knucklebones at a Discord table: rune dice, each named by its number, and the score sheets.

The engine (rules/knucklebones/) decides everything; this module only draws it and offers
its options as slash-command options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.games import GameSpec, Page, Part, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.render import clip, safe, seat_names
from bot.tavern import TavernCog
from cogs.knucklebones.pictures import dice_picture
from rules import knucklebones as kb
from rules.base import Event, counted

if TYPE_CHECKING:
    from bot.client import Boneyard

NBSP = "\u00a0"
WORD_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
#: what each rune does, for the legend behind Details
RUNE_ACTIONS = {
    1: "does nothing by itself",
    2: "may be spent to reroll another die",
    3: "adds an inactive die and rolls it",
    4: "may be spent to double another die",
    5: "adds an inactive die after scoring, if one is left",
    6: "leaves the active dice after scoring, unless that leaves too few",
}


def in_picture_order(view: kb.KnucklebonesView) -> list[kb.DieView]:
    """The dice as the picture draws them: active first, then inactive, each by its number."""
    return sorted(view.dice, key=lambda d: (not d.active, d.number))


def die_words(die: kb.DieView, *, marked: bool = True) -> str:
    """"die 3: **4**, doubled": an active die by the number the picture and the buttons give
    it, so two dice showing the same rune are told apart in words too."""
    if die.face is None:
        return f"die {die.number}: new, rolled next turn"  # a 5 added it
    if die.spent:
        face = f"~~{die.face}~~" if marked else str(die.face)
        return f"die {die.number}: {face}, spent"
    text = f"die {die.number}: " + (f"**{die.face}**" if marked else str(die.face))
    if die.doubled:
        text += ", doubled" if die.doubled == 1 else f", doubled {die.doubled} times"
    if die.pending:
        text += ", deciding now"
    return text


def dice_line(view: kb.KnucklebonesView, *, marked: bool = True) -> str:
    """The dice in the picture's order: the active ones, then which are inactive. ``marked``:
    in markdown, each die's words kept on one line (a phone wraps between dice only)."""
    order = in_picture_order(view)
    active = [die_words(d, marked=marked) for d in order if d.active]
    if marked:
        active = [words.replace(" ", NBSP) for words in active]
    inactive = [f"die {d.number}" for d in order if not d.active]
    rest = f"; inactive: {' and '.join(inactive) if len(inactive) <= 2 else ', '.join(inactive)}" if inactive else ""
    return " · ".join(active) + rest


def still_to_act(view: kb.KnucklebonesView) -> str:
    """The dice whose runes act before scoring after this decision, in order."""
    return ", ".join(f"die {view.dice[i].number} (a {view.dice[i].face})" for i in view.waiting)


def meets_now(view: kb.KnucklebonesView, limit: int = 3) -> str:
    """While a 2 or a 4 waits, the open items the dice meet as they lie, best first: what a
    reroll or a double risks or could improve, which the scoring buttons show only later."""
    if view.phase not in ("reroll", "double"):
        return ""
    met = sorted(view.met, key=lambda k: -view.preview[k])
    if not met:
        return "The dice meet no open item now."
    names = {i.key: i.name for i in view.items}
    more = f" and {len(met) - limit} more" if len(met) > limit else ""
    return "Scores now: " + ", ".join(f"{names[k]} ({view.preview[k]})" for k in met[:limit]) + more + "."


def score_lines(table: Table, view: kb.KnucklebonesView) -> str:
    """One short line per player, so six players read on a phone: the total and items left."""
    lines = []
    for sheet in view.sheets:
        left = len(view.items) - sheet.filled
        lines.append(f"**{clip(safe(table.seats[sheet.seat].name), 40)}**: {counted(sheet.total, 'point')}, "
                     f"{left} {'item' if left == 1 else 'items'} left")
    return "\n".join(lines)


def title_name(name: str) -> str:
    """A name for a page's title, which shows both as a heading and as a menu's option: without
    the characters markdown, links and mentions are made of, it reads the same in both."""
    inside = WORD_UNDERSCORE.sub(" ", name)  # an underscore within a word formats nothing
    kept = "".join(" " if c in "*~|`[]()<>#@\\:" else c for c in inside)
    return " ".join(kept.split()) or "A player"


def sheet_lines(view: kb.KnucklebonesView, sheet: kb.SheetView) -> str:
    """A score sheet, one line per item. An item not scored yet says what it is worth and needs
    (a first game's player has not learnt the sheet), and for the player to act, what it would
    score with the dice as they lie."""
    lines = []
    for item in view.items:
        scored = sheet.items.get(item.key)
        if scored is not None:
            lines.append(f"**{item.name}**: scored {scored}")
            continue
        worth = kb.worth_text(item)
        line = f"**{item.name}** ({worth}, {item.needs})" if item.points == "sum" else \
            f"**{item.name}** ({worth} for {item.needs})"
        if sheet.seat == view.current_seat and item.key in view.preview:
            now = view.preview[item.key]
            line += f": scores {now} now" if item.key in view.met else ": not met now"
        else:
            line += ": not scored yet"
        lines.append(line)
    return "\n".join(lines) + f"\n**Total: {counted(sheet.total, 'point')}**"


def items_text(view: kb.KnucklebonesView) -> str:
    return "\n".join(
        f"**{i.name}** ({'the sum of the dice' if i.points == 'sum' else counted(i.points, 'point')}): {i.requirement}"
        for i in view.items)


def dice_legend() -> str:
    runes = "\n".join(f"**{face}** {what}" for face, what in RUNE_ACTIONS.items())
    return (f"Each die shows a rune, its number (1 to 6) in the corner, and its own number under it "
            f"(die 1 to die 7), which the buttons use.\n{runes}\n\n"
            "In the picture: an orange ring is the die being decided; a red cross, a die spent this "
            "turn; x2, a doubled die; grey, an inactive die.")


#: what a history line's story may take, names in: the host clips the line at 400 characters,
#: and the chapter ("Turns 37–42 · ") stands before it
STORY_ROOM = 375


@dataclass
class _Turn:
    """One turn of a history line: what was scored, and what its 5s and 6s did to the dice
    passed on (``passed``: the seat that rolls them next, and how many)."""

    scored: str
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    passed: tuple[int, int] | None = None

    def told(self, *, last: bool, brief: bool = False) -> str:
        if self.passed is None or not (self.added or self.removed):
            return self.scored
        if last:
            return f"{self.scored} · {kb.passing_text(self.added, self.removed, *self.passed)}"
        return self.scored if brief else f"{self.scored} · {kb.change_text(self.added, self.removed)}"


class KnucklebonesSpec(GameSpec[kb.KnucklebonesView, kb.KnucklebonesAction, kb.KnucklebonesOptions]):
    engine = kb.ENGINE
    #: a game-master can run it in a campaign: a table without their seat, NPCs played by the bot
    tavern = Tavern()
    command = "knucklebones"
    colour = discord.Colour.from_rgb(138, 94, 58)
    blurb = "Roll seven rune dice, bend them with their runes, fill a score sheet. 2–6 players, about 5 minutes a player."

    def table_parts(self, table: Table, view: kb.KnucklebonesView) -> list[Part]:
        if view.over:
            return [Part(f"### Knucklebones · every sheet is full\n{view.turns_total} turns played. "
                         "**Details** shows every sheet.")]
        who = safe(table.seats[view.current_seat or 0].name)
        lines = [f"### Knucklebones · turn {view.turn} of {view.turns_total}",
                 f"**{who}'s {view.active_count} dice:** {dice_line(view)}"]
        later = still_to_act(view)
        if later:
            lines.append(f"Still to act, in order: {later}.")
        met = meets_now(view)
        if met:
            lines.append(met)
        return [Part("\n".join(lines)), Part(score_lines(table, view))]

    def picture(self, table: Table, view: kb.KnucklebonesView) -> Picture | None:
        if view.over or not any(d.active and d.face is not None for d in view.dice):
            return None
        return dice_picture(view, "Dice: " + dice_line(view, marked=False) + ".")

    def details_pages(self, table: Table, view: kb.KnucklebonesView, seat: int | None) -> list[Page]:
        """The asker's sheet first (else the sheet of whoever is playing), then the others',
        what each item needs, and what the dice and their marks mean."""
        first = seat if seat is not None else view.current_seat if view.current_seat is not None else 0
        order = [first] + [s.seat for s in view.sheets if s.seat != first]
        pages = []
        for s in order:
            title = "Your sheet" if s == seat else f"{clip(title_name(table.seats[s].name), 60)}'s sheet"
            pages.append(Page(title, [Part(sheet_lines(view, view.sheets[s]))]))
        pages.append(Page("What each item needs", [Part(items_text(view))]))
        pages.append(Page("The dice", [Part(dice_legend())]))
        return pages

    def rules_pages(self, options: kb.KnucklebonesOptions) -> list[Page]:
        pages = [Page("How to play", [Part(kb.how_to_play(options))])]
        pages += [Page(f"Rules: {title.lower()}", [Part(text)]) for title, text in kb.rules_sections(options)]
        pages.append(Page("Words", [Part("\n".join(f"**{word}**: {meaning}" for word, meaning in kb.WORDS))]))
        return pages

    def chapter(self, view: kb.KnucklebonesView) -> str:
        return "Game over" if view.over else f"Turn {view.turn}"

    def opens_chapter(self, event: Event) -> bool:
        """A turn begins with its roll, which the move that ends the turn before makes: the log
        files the roll, and the runes that act by themselves after it, under the new turn."""
        return event.kind == "roll"

    def story(self, table: Table, view: kb.KnucklebonesView, events: list[Event]) -> str | None:
        """A turn in a line: what was scored (by the timer, for a player whose time ran out), and
        the dice the 5s and 6s added or removed after it, with how many the next player rolls,
        who would otherwise find one die more or less on their table unexplained (the runes
        before scoring are on the player's own table, and all of it in /game log). Where bot
        seats played several turns in one step and their changes would not all fit a history
        line, the turns before the last leave theirs out, so the line keeps the last change, the
        one the player now asked inherits."""
        turns: list[_Turn] = []
        timed_out: set[int | None] = set()  # seats whose timer plays the rest of their turn
        for e in events:
            if e.kind == "timeout":
                timed_out.add(e.seat)
            elif e.kind == "score":
                turns.append(_Turn(kb.score_text(e.seats, e.data, timed_out=e.seat in timed_out)))
                timed_out.discard(e.seat)
            elif not turns or turns[-1].passed is not None:
                continue
            elif e.kind == "add" and e.data["face"] == kb.ADD_AFTER:
                turns[-1].added.append(e.data["added"])
            elif e.kind == "remove":
                turns[-1].removed.append(e.data["die"])
            elif e.kind == "roll":  # the next seat's turn begins: this one's change is complete
                turns[-1].passed = (e.seats[0], len(e.data["faces"]))
        if not turns:
            return super().story(table, view, events)
        line = "; ".join(t.told(last=n == len(turns) - 1) for n, t in enumerate(turns))
        if len(seat_names(table, line)) > STORY_ROOM:
            line = "; ".join(t.told(last=n == len(turns) - 1, brief=True) for n, t in enumerate(turns))
        return line

    def action_label(self, view: kb.KnucklebonesView, action: kb.KnucklebonesAction) -> str:
        return kb.action_label(view, action)

    def action_style(self, view: kb.KnucklebonesView, action: kb.KnucklebonesAction) -> discord.ButtonStyle:
        if action.kind in ("skip_reroll", "skip_double"):
            return discord.ButtonStyle.secondary
        if action.kind == "score":
            return discord.ButtonStyle.success if action.item in view.met else discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: kb.KnucklebonesView, seat: int) -> str:
        if view.pending is not None:
            return view.pending.prompt
        return "pick an item to score: the green ones are met; one not met scores 0."

    def score_text(self, score: int, view: kb.KnucklebonesView) -> str:
        return counted(score, "point")

    def option_lines(self, options: kb.KnucklebonesOptions) -> list[str]:
        lines = []
        if options.min_active != kb.KnucklebonesOptions().min_active:
            lines.append(f"a 6 may take the active dice down to {options.min_active}")
        if options.stack_doubles:
            lines.append("a die may be doubled more than once")
        if options.solo:
            lines.append("solo play allowed")
        return lines


SPEC = KnucklebonesSpec()


class KnucklebonesCog(TavernCog, group_name="knucklebones",
                      group_description="Knucklebones: rune dice and a score sheet"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Knucklebones table in this channel")
    @app_commands.describe(
        min_active="Fewest active dice a 6 may leave (default 5)",
        stack_doubles="Let a die be doubled more than once (default off)",
        solo="Allow a table of one player (default off)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
    )
    @app_commands.choices(min_active=[app_commands.Choice(name=str(n), value=n) for n in range(1, 6)])
    async def new(
        self,
        interaction: discord.Interaction,
        min_active: int = 5,
        stack_doubles: bool = False,
        solo: bool = False,
        gm_mode: bool = False,
    ) -> None:
        async def run() -> None:
            options = kb.KnucklebonesOptions(min_active=min_active, stack_doubles=stack_doubles, solo=solo)
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(KnucklebonesCog(bot))
