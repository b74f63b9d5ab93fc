"""/rolls: saved rolls, history and luck. /roll stays one command with options (Discord lets a
command have options or subcommands, not both), so everything about rolls kept lives here.

A player's saved rolls are theirs in every server and DM; a server's shared ones are set by its
GMs (bot/permissions.is_gm) and offered to everyone there. Names are short and plain (letters,
digits, dashes) because they are typed on phones and listed in autocomplete. Every answer here
is private: a history or a luck figure that counts private rolls is for the roller's eyes.
"""

from __future__ import annotations

import logging
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal, guarded
from bot import layout
from bot.permissions import is_gm
from bot.render import CONTENT, clip, safe
from bot.store import LimitReached, RollAsked, SavedRoll
from cogs.dice.buttons import ForgetButton, KeepButton, RollsPageSelect
from cogs.dice.luck import luck_text
from cogs.dice.pictures import d20_chart
from cogs.dice.post import Poster, rolled, where
from cogs.dice.roll import MODE_CHOICES
from rules.notation import MAX_EXPRESSION, MAX_REPEAT

if TYPE_CHECKING:
    from bot.client import Boneyard

log = logging.getLogger(__name__)

#: saved rolls a player may keep, and a server may share
PLAYER_ROLLS = 50
SERVER_ROLLS = 100
NAME_LENGTH = 32
#: how an autocomplete choice names a server's shared roll (a name never holds a colon)
SHARED = "server:"
HISTORY = 20
#: characters, and lines of rolls, on one page of /rolls list: about what a phone shows at once
PAGE = 800
PAGE_LINES = 20
#: the pages a menu can name
MOST_PAGES = 25
LIST_FOOTER = "-# Roll one with `/rolls use`; it finds them as you type."
_NAME_CHARACTER = re.compile(r"[^\W_]|-")


def check_name(typed: str) -> str:
    """A saved roll's name as it is kept (lower case), or a refusal saying what is wrong with it."""
    name = typed.strip().casefold()
    if not name:
        raise Refusal("A saved roll needs a name: 1 to 32 letters, digits and dashes, like `fire-bolt`.")
    if len(name) > NAME_LENGTH:
        raise Refusal(f"A name is at most {NAME_LENGTH} characters; that one has {len(name)}.")
    bad = next((c for c in name if not _NAME_CHARACTER.fullmatch(c)), None)
    if bad is not None:
        what = ("a space" if bad.isspace() else "a backtick" if bad == "`" else "an underscore" if bad == "_"
                else f"`{bad}`" if bad.isprintable() else "an invisible character")
        raise Refusal(f"A name is letters, digits and dashes only, like `fire-bolt`; that one has {what}.")
    return name


def describe(asked: RollAsked) -> str:
    """A roll's options in one line, as typed: `1d20+7 to hit · advantage · repeat 3`."""
    parts = [asked.expression]
    if asked.mode != "normal":
        parts.append(asked.mode)
    if asked.repeat:
        parts.append(f"repeat {asked.repeat}")
    if asked.target is not None:
        parts.append(f"target {asked.target}" + (f", fail {asked.fail}" if asked.fail is not None else ""))
    return " · ".join(parts)


def place_of(interaction: discord.Interaction) -> str:
    return "in this server" if interaction.guild_id else "in DMs and private chats"


def in_order(name: str) -> list[tuple[int, str]]:
    """A name's place in a list as a reader expects it: ``fire-2`` before ``fire-10``."""
    return [(int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"(\d+)", name.lower())]


@dataclass(frozen=True)
class Section:
    """One part of /rolls list: the player's own saved rolls, or the server's shared ones."""

    title: str
    rolls: list[SavedRoll]
    room: int

    def heading(self, continued: bool = False) -> str:
        return f"**{self.title}** ({len(self.rolls)} of {self.room})" + (", continued" if continued else "")

    def lines(self) -> list[tuple[str, str | None]]:
        """Each roll's line and name, in the order a reader counts, or a line saying there is none."""
        return [(f"`{r.name}` {safe(clip(describe(r), 80))}", r.name)
                for r in sorted(self.rolls, key=lambda r: in_order(r.name))] or [("-# none yet", None)]


@dataclass(frozen=True)
class Page:
    text: str
    #: how the page menu names it
    label: str
    description: str


def list_pages(sections: list[Section], room: int = PAGE, most_lines: int = PAGE_LINES) -> list[Page]:
    """/rolls list a phone screen at a time: whole if it fits one page, else in pages of at most
    ``room`` characters and ``most_lines`` rolls (more of both when 25 pages, all a menu can name,
    would not hold it), the player's own rolls first, each page's sections headed, a section cut
    short heading its rest on the next."""
    whole = "\n\n".join(["\n".join([s.heading(), *(line for line, _ in s.lines())]) for s in sections]
                         + [LIST_FOOTER])
    if len(whole) <= room and sum(len(s.lines()) for s in sections) <= most_lines:
        return [Page(whole, "Page 1", "")]
    while True:
        pages = _packed(sections, room - len(_page_heading(MOST_PAGES, MOST_PAGES)) - len(LIST_FOOTER) - 4,
                        most_lines)
        if len(pages) <= MOST_PAGES:
            break
        room, most_lines = room + 50, most_lines + 1
    out = []
    for number, page in enumerate(pages, 1):
        blocks = ["\n".join([sections[at].heading(continued), *lines]) for at, continued, lines, _ in page]
        names = [name for *_, page_names in page for name in page_names]
        whose = {at for at, _, _, page_names in page if page_names}
        label = f"Page {number}" + (f": {names[0]}" + (f" to {names[-1]}" if len(names) > 1 else "")
                                    if names else "")
        description = ("Yours, then this server's" if len(whose) > 1 else
                       "Your saved rolls" if whose == {0} else "Shared in this server" if whose else "")
        out.append(Page("\n\n".join([_page_heading(number, len(pages)), *blocks, LIST_FOOTER]),
                        clip(label, 100), description))
    return out


def _page_heading(number: int, pages: int) -> str:
    return f"-# Saved rolls, page {number} of {pages}"


#: one page's parts: which section, whether it began on an earlier page, its lines, their names
_Part = tuple[int, bool, list[str], list[str]]


def _packed(sections: list[Section], room: int, most_lines: int) -> list[list[_Part]]:
    """The sections' lines in pages of at most ``room`` characters of headings and lines, and at
    most ``most_lines`` lines."""
    pages: list[list[_Part]] = [[]]
    used = lines = 0
    for at, section in enumerate(sections):
        began = False
        for line, name in section.lines():
            page = pages[-1]
            opens = not page or page[-1][0] != at
            heading = len(section.heading(began)) + 2
            if page and (used + len(line) + 1 + (heading if opens else 0) > room or lines >= most_lines):
                pages.append(page := [])
                opens, used, lines = True, 0, 0
            cost = len(line) + 1 + (heading if opens else 0)
            if opens:
                page.append((at, began, [], []))
            page[-1][2].append(line)
            if name is not None:
                page[-1][3].append(name)
            used += cost
            lines += 1
            began = True
    return pages


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class RollsCog(commands.GroupCog, group_name="rolls", group_description="Your saved rolls, your history and your luck"):
    def __init__(self, bot: Boneyard, poster: Poster) -> None:
        self.bot = bot
        self.poster = poster
        super().__init__()

    @property
    def store(self):  # noqa: ANN201
        return self.poster.store

    # -- saved rolls ------------------------------------------------------------------------

    async def find(self, interaction: discord.Interaction, typed: str) -> SavedRoll:
        """Yours first, then the server's (an autocomplete choice says which it meant)."""
        shared = typed.strip().casefold().startswith(SHARED)
        name = check_name(typed.strip()[len(SHARED):] if shared else typed)
        if not shared:
            for roll in await self.store.saved_rolls(0, interaction.user.id):
                if roll.name == name:
                    return roll
        if interaction.guild_id:
            for roll in await self.store.saved_rolls(interaction.guild_id, 0):
                if roll.name == name:
                    return roll
        server = " and this server has none" if interaction.guild_id else ""
        raise Refusal(f"You have no saved roll named `{name}`{server}. `/rolls list` shows them; "
                      f"`/rolls save` keeps one.")

    async def names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Your saved rolls and the server's whose names hold what you typed, best matches first."""
        typed = current.strip().casefold().removeprefix(SHARED)
        try:
            rolls = await self.store.saved_rolls(0, interaction.user.id)
            if interaction.guild_id:
                rolls += await self.store.saved_rolls(interaction.guild_id, 0)
        except Exception:  # an answer nobody waits for: log it, offer nothing
            log.exception("autocomplete of saved rolls failed")
            return []
        found = sorted((r for r in rolls if typed in r.name), key=lambda r: (not r.name.startswith(typed), r.shared))
        return [app_commands.Choice(name=clip(f"{r.name} · {describe(r)}" + (" (server)" if r.shared else ""), 100),
                                    value=f"{SHARED}{r.name}" if r.shared else r.name) for r in found[:25]]

    @app_commands.command(name="save", description="Save a roll under a name, to roll it with /rolls use")
    @app_commands.describe(
        name="1-32 letters, digits and dashes, e.g. fire-bolt",
        expression="Dice to roll, e.g. 1d20+7 to hit",
        mode="Advantage or disadvantage: the d20 the roll starts with is rolled twice",
        repeat="Roll it this many times",
        target="Count dice showing at least this as successes",
        fail="With a target: take one success away for each die at or below this",
        shared="For everyone in this server (its GMs only)",
    )
    @app_commands.choices(mode=MODE_CHOICES)
    async def save(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_LENGTH],
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
        mode: str = "normal",
        repeat: app_commands.Range[int, 1, MAX_REPEAT] | None = None,
        target: int | None = None,
        fail: int | None = None,
        shared: bool = False,
    ) -> None:
        async def run() -> None:
            kept_as = check_name(name)
            asked = RollAsked(expression=expression, mode=mode, repeat=repeat, target=target, fail=fail)
            # refused now, with the reason, rather than each time it is used
            rolled(asked, random.Random(0))
            guild = interaction.guild_id
            if shared:
                if not guild:
                    raise Refusal("Shared rolls belong to a server; here, save it for yourself (leave `shared` off).")
                if not is_gm(interaction, await self.store.server_settings(guild)):
                    raise Refusal("Only this server's GMs (Manage Server, or the GM role) set its shared rolls; "
                                  "save it for yourself (leave `shared` off).")
            roll = SavedRoll(**asked.model_dump(), guild_id=guild if shared else 0,
                             user_id=0 if shared else interaction.user.id, name=kept_as, by=interaction.user.id)
            room = SERVER_ROLLS if shared else PLAYER_ROLLS
            try:
                replaced = await self.store.put_saved_roll(roll, room)
            except LimitReached:
                whose = "This server shares" if shared else "You keep"
                raise Refusal(f"{whose} {room} saved rolls already, as many as there is room for; "
                              f"delete one first with `/rolls delete`.") from None
            whose = "this server's shared roll" if shared else "your roll"
            await interaction.response.send_message(
                clip(f"{'Replaced' if replaced else 'Saved'} {whose} `{kept_as}`: {safe(describe(roll))}\n"
                     f"Roll it with `/rolls use name:{kept_as}`.", CONTENT), ephemeral=True)

        await guarded(interaction, run)

    @app_commands.command(name="use", description="Roll one of your saved rolls, or one your server shares")
    @app_commands.describe(name="The saved roll (start typing its name)", private="Only you see the result",
                           secret_to="A secret roll: the result goes by DM to you and this person (the GM)")
    async def use(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                  private: bool = False, secret_to: discord.User | None = None) -> None:
        async def run() -> None:
            roll = await self.find(interaction, name)
            asked = RollAsked.model_validate(roll.model_dump(include=set(RollAsked.model_fields)))
            await self.poster.roll(interaction, asked, private=private, secret_to=secret_to, label=roll.name)

        await guarded(interaction, run)

    @app_commands.command(name="list", description="Your saved rolls, and the ones your server shares")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            pages = await self.pages(interaction)
            await interaction.response.send_message(**self.page(pages, 0, interaction.user.id), ephemeral=True)

        await guarded(interaction, run)

    async def pages(self, interaction: discord.Interaction) -> list[Page]:
        sections = [Section("Your saved rolls", await self.store.saved_rolls(0, interaction.user.id), PLAYER_ROLLS)]
        if interaction.guild_id:
            sections.append(Section("Shared in this server, set by its GMs",
                                    await self.store.saved_rolls(interaction.guild_id, 0), SERVER_ROLLS))
        return list_pages(sections)

    @staticmethod
    def page(pages: list[Page], number: int, user_id: int) -> dict[str, Any]:
        """One page of /rolls list, with a menu of every page when there is more than one."""
        number = max(0, min(number, len(pages) - 1))
        if len(pages) == 1:
            return {"content": pages[0].text}
        options = [discord.SelectOption(label=p.label, value=str(i), description=p.description or None,
                                        default=i == number) for i, p in enumerate(pages)]
        view = discord.ui.View(timeout=None)
        view.add_item(RollsPageSelect(user_id, options))
        view.stop()
        return {"content": pages[number].text, "view": view}

    async def turn_page(self, interaction: discord.Interaction, user_id: int, number: int) -> None:
        """Another page of /rolls list, read afresh: rolls saved or deleted since show as they are now."""
        if user_id != interaction.user.id or interaction.message is None or not interaction.message.flags.ephemeral:
            raise Refusal("That list is someone else's; `/rolls list` shows yours.")
        shown = self.page(await self.pages(interaction), number, user_id)
        # a list that now fits one page loses its menu
        await interaction.response.edit_message(**{"view": None, **shown})

    @app_commands.command(name="delete", description="Delete one of your saved rolls (or, for GMs, a shared one)")
    @app_commands.describe(name="The saved roll (start typing its name)")
    async def delete(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        async def run() -> None:
            roll = await self.find(interaction, name)
            if roll.shared and not is_gm(interaction, await self.store.server_settings(roll.guild_id)):
                raise Refusal("Only this server's GMs (Manage Server, or the GM role) delete its shared rolls.")
            await self.store.delete_saved_roll(roll.guild_id, roll.user_id, roll.name)
            whose = "this server's shared roll" if roll.shared else "your roll"
            await interaction.response.send_message(f"Deleted {whose} `{roll.name}`.", ephemeral=True)

        await guarded(interaction, run)

    use.autocomplete("name")(names)
    delete.autocomplete("name")(names)

    # -- history and luck -------------------------------------------------------------------

    @app_commands.command(name="history", description="Your last 20 rolls here (only you see them)")
    async def history(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            rolls = await self.store.roll_history(where(interaction), interaction.user.id, HISTORY)
            if not rolls:
                await interaction.response.send_message(f"You have no rolls kept {place_of(interaction)} yet.",
                                                        ephemeral=True)
                return
            lines = [f"### Your last {'roll' if len(rolls) == 1 else f'{len(rolls)} rolls'} {place_of(interaction)}"]
            for roll in rolls:
                marks = [m for m in (roll.seen if roll.hidden else "", "revealed" if roll.revealed else "") if m]
                what = f"`{roll.label}` " if roll.label else ""
                lines.append(f"**{safe(clip(roll.result, 40))}** · {what}{safe(clip(describe(roll), 60))} · "
                             f"<t:{int(roll.at)}:R>" + "".join(f" · {m}" for m in marks))
            lines.append("-# Private and secret rolls are listed for you alone. `/rolls forget` erases your rolls here.")
            await interaction.response.send_message(clip("\n".join(lines), CONTENT), ephemeral=True)

        await guarded(interaction, run)

    @app_commands.command(name="stats", description="How lucky your dice (or a player's) have been here")
    @app_commands.describe(player="Whose luck (yours if left out); others' private rolls never count")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def run() -> None:
            who = player or interaction.user
            mine = who.id == interaction.user.id
            if not mine and not where(interaction):
                # every DM and private chat shares one tally: another player's would count rolls
                # made in chats the asker is not in
                raise Refusal(f"{safe(who.display_name)}'s luck in DMs and private chats is theirs to see. "
                              "Ask in a server you share for their luck there.")
            luck = await self.store.luck(where(interaction), who.id, hidden=mine)
            whose = "Your" if mine else f"{safe(who.display_name)}'s"
            text = luck_text(luck, whose, place_of(interaction), hidden=mine)
            d20s = luck.faces.get(20)
            if not d20s:
                await interaction.response.send_message(text, ephemeral=True)
                return
            picture = d20_chart(d20s)
            view = layout.Built([layout.text(text), layout.gallery(picture)])
            await interaction.response.send_message(view=view, file=await self.poster.pictures.file(picture),
                                                    ephemeral=True)

        await guarded(interaction, run)

    @app_commands.command(name="forget", description="Erase your rolls here: your history and your luck")
    async def forget(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            count = (await self.store.luck(where(interaction), interaction.user.id, hidden=True)).rolls
            if not count:
                await interaction.response.send_message(f"You have no rolls kept {place_of(interaction)}.",
                                                        ephemeral=True)
                return
            view = discord.ui.View(timeout=None)
            view.add_item(ForgetButton(where(interaction), interaction.user.id, count))
            view.add_item(KeepButton(interaction.user.id))
            view.stop()
            await interaction.response.send_message(
                (f"Erase your one roll {place_of(interaction)}" if count == 1 else
                 f"Erase all {count:,} of your rolls {place_of(interaction)}") + ": your history and your luck here? "
                "Your saved rolls stay.", view=view, ephemeral=True)

        await guarded(interaction, run)

    async def keep(self, interaction: discord.Interaction, user_id: int) -> None:
        """/rolls forget's way back: the question goes with its buttons, and nothing is erased."""
        if user_id != interaction.user.id or interaction.message is None or not interaction.message.flags.ephemeral:
            raise Refusal("That button is someone else's; nothing was erased.")
        await interaction.response.edit_message(
            content=f"Nothing was erased: your history and your luck {place_of(interaction)} stay as they were.",
            view=None)
