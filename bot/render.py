"""The messages of a table: lobby, live table, private view, final standings, history lines.

Games draw their own board (GameSpec.table_embed, picture); this module frames it, adds the
buttons drawn from the engine's legal actions, and keeps every message inside Discord's limits.
It builds messages and sends nothing: bot/posting.py decides where they go.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from pydantic import BaseModel

from bot.components import (
    ActionButton, ActionSelect, DetailsButton, HandButton, HowToButton, LobbyButton, OpenButton, RematchButton,
)
from bot.games import GameSpec
from bot.models import Table
from bot.pictures import Picture

log = logging.getLogger(__name__)

MAX_BUTTONS = 20  # four rows of five; the fifth row is kept for Details and My hand
#: beyond MAX_BUTTONS choices, menus of Discord's 25 options each, one per row of those four
MENU_OPTIONS, MENU_ROWS = 25, 4
EMBED_DESCRIPTION = 4096
FIELD_VALUE = 1024
CONTENT = 2000
PINGS = discord.AllowedMentions(users=True, everyone=False, roles=False)
NO_PINGS = discord.AllowedMentions.none()


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def names(table: Table) -> str:
    people = [seat.name for seat in table.seats]
    return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]


_SEAT = re.compile(r"\bSeat (\d+)\b")


def seat_names(table: Table, text: str, *, mentions: bool = False) -> str:
    """Engines speak of "Seat 2"; the table knows who sits there. One pass, so a player who
    calls themselves "Seat 1" is never taken for the player in seat 1. With ``mentions``, seated
    people become mentions (bots keep their names)."""
    def name(found: re.Match[str]) -> str:
        number = int(found[1])
        if not 1 <= number <= len(table.seats):
            return found[0]
        return mention(table, number - 1) if mentions else table.seats[number - 1].name

    return _SEAT.sub(name, text)


def mention(table: Table, seat: int) -> str:
    info = table.seats[seat]
    return info.name if info.ai or info.user_id is None else f"<@{info.user_id}>"


def jump_link(table: Table, message_id: int | None = None) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message_id or table.message_id}"


@dataclass
class Shown:
    """One message's parts before it is sent: the picture is still to be drawn (off the loop)."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    picture: Picture | None = None
    pings: bool = False


def _frozen(view: discord.ui.View) -> discord.ui.View:
    # Clicks are routed by the registered dynamic items; stopping the view keeps discord.py from
    # holding a copy of every message's view in memory for the life of the process.
    view.stop()
    return view


def _content(lines: list[str]) -> str | None:
    return clip("\n".join(line for line in lines if line), CONTENT) or None


def timer_text(table: Table) -> str:
    seconds = table.timer_seconds
    if not seconds:
        return "no turn timer"
    if seconds % 60 == 0:
        return f"{seconds // 60} min per move"
    return f"{seconds} s per move" if seconds < 120 else f"{seconds // 60} min {seconds % 60} s per move"


def footer(table: Table) -> str:
    return f"Game #{table.id} · {timer_text(table)}"


def table_message(
    spec: GameSpec, table: Table, state: BaseModel | None, *, notice: str | None = None,
    headline: str | None = None,
) -> Shown:
    """The public table: the channel's view, with the buttons of whoever acts in the open."""
    engine = spec.engine
    lines = [headline or "", notice or ""]
    view = discord.ui.View(timeout=None)
    gid = table.id or 0

    if table.status == "lobby":
        for op in ("join", "leave", "start", "cancel", "ai"):
            view.add_item(LobbyButton(gid, op))
        view.add_item(HowToButton(gid, row=1))
        return Shown(_content(lines), [lobby_embed(spec, table)], _frozen(view))

    if table.status == "cancelled" or state is None:
        embed = discord.Embed(
            title=f"{engine.title}: game ended",
            description=f"This game was ended before it finished. Start another with `/{spec.command} new`.",
            colour=discord.Colour.dark_grey(),
        )
        return Shown(_content(lines), [embed], _frozen(view))

    public = engine.view(state, None)
    embed = spec.table_embed(table, public)
    picture = spec.picture(table, public)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    embed.set_footer(text=footer(table))

    if table.status == "finished":
        view.add_item(RematchButton(gid))
        view.add_item(DetailsButton(gid))
        standings, winners = standings_embed(spec, table, state)
        lines.append(winners)
        return Shown(_content(lines), [embed, standings], _frozen(view), picture, pings=True)

    if table.paused:
        lines.append("⏸ The game is paused. The host resumes it with `/game resume`.")
        view.add_item(DetailsButton(gid, row=4))
        return Shown(_content(lines), [embed], _frozen(view), picture)

    acting = engine.to_act(state)
    private_game = engine.has_private_view()
    humans = [s for s in acting if not table.seats[s].ai]
    shared = engine.open_actions(state)
    if shared and humans:
        lines.append(", ".join(mention(table, s) for s in humans) + ": " + spec.open_prompt(table, public))
        _add_open(view, spec, table, state, public, humans, shared)
    elif private_game:
        if humans:
            closed = [s for s in humans if table.seats[s].dm_closed]
            by_dm = [table.seats[s].name for s in humans if not table.seats[s].dm_closed]
            if by_dm:
                lines.append("Waiting for " + _and(by_dm) + " (choosing in DMs).")
            if closed:
                lines.append(", ".join(mention(table, s) for s in closed)
                             + ": I could not DM you, so press **My hand** to choose.")
    elif len(humans) == 1:
        seat = humans[0]
        lines.append(f"{mention(table, seat)}: {spec.prompt(table, public, seat)}")
        _add_actions(view, spec, table, state, seat, public)
    elif humans:
        lines.append("Waiting for " + _and([table.seats[s].name for s in humans]) + ".")
    view.add_item(DetailsButton(gid, row=4))
    if private_game:
        view.add_item(HandButton(gid, row=4))
    return Shown(_content(lines), [embed], _frozen(view), picture, pings=True)


def private_message(spec: GameSpec, table: Table, state: BaseModel, seat: int, *, notice: str | None = None) -> Shown:
    """One seat's own view: their hand or sealed choice with its buttons, and nothing public."""
    engine = spec.engine
    seen = engine.view(state, seat)
    embed = spec.private_embed(table, seat, seen)
    embed.set_footer(text=f"Game #{table.id} · only you see this")
    view = discord.ui.View(timeout=None)
    lines = [notice or ""]
    if table.status == "active" and not table.paused and seat in engine.to_act(state):
        lines.append(spec.prompt(table, seen, seat))
        _add_actions(view, spec, table, state, seat, seen)
    elif table.paused:
        lines.append("⏸ The game is paused.")
    return Shown(_content(lines), [embed], _frozen(view))


def _and(people: list[str]) -> str:
    return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]


def decision_stamp(spec: GameSpec, table: Table, state: BaseModel, seat: int) -> str:
    """What a seat's buttons carry; a click whose stamp differs is from a past moment."""
    return spec.engine.decision_stamp(state, seat) or str(table.version)


def _add_actions(view: discord.ui.View, spec: GameSpec, table: Table, state: Any, seat: int, seen: Any) -> None:
    actions = spec.engine.legal_actions(state, seat)
    gid = table.id or 0
    stamp = decision_stamp(spec, table, state, seat)
    if len(actions) <= MAX_BUTTONS:
        for index, action in enumerate(actions):
            view.add_item(
                ActionButton(gid, seat, stamp, index, seat_names(table, spec.action_label(seen, action)),
                             spec.action_style(seen, action), row=index // 5)
            )
        return
    labels = [clip(seat_names(table, spec.action_label(seen, a)), 100) for a in actions]
    pages = range(0, min(len(labels), MENU_OPTIONS * MENU_ROWS), MENU_OPTIONS)
    if len(labels) > MENU_OPTIONS * MENU_ROWS:
        log.warning("game %s offers %d choices; menus show the first %d", gid, len(labels), MENU_OPTIONS * MENU_ROWS)
    for row, start in enumerate(pages):
        page = labels[start:start + MENU_OPTIONS]
        options = [discord.SelectOption(label=label, value=str(start + i)) for i, label in enumerate(page)]
        placeholder = "Choose…" if len(pages) == 1 else clip(f"{page[0]} … {page[-1]}", 150)
        view.add_item(ActionSelect(gid, seat, stamp, options, placeholder=placeholder, row=row, page=row))


def open_stamp(spec: GameSpec, table: Table, state: BaseModel, asked: list[int] | tuple[int, ...]) -> str:
    """What a row of open choices is tied to: the choices as labelled, and the seats it was
    shown to. Several players pressing Ready together must all count, so another player's
    click, which changes the move number but not the row, leaves the buttons good for the
    seats that were asked; a row drawn for one player's turn never counts for the next."""
    public = spec.engine.view(state, None)
    shown = [[a.model_dump(mode="json"), spec.action_label(public, a)] for a in spec.engine.open_actions(state)]
    digest = hashlib.blake2s(json.dumps(shown, sort_keys=True).encode(), digest_size=5).hexdigest()
    return f"{digest}.{sum(1 << s for s in asked):x}"


def _add_open(view: discord.ui.View, spec: GameSpec, table: Table, state: BaseModel, public: BaseModel,
              asked: list[int], shared: list[Any]) -> None:
    """One row for everyone asked; a choice only some of them may make names them on its label,
    so nobody has to guess whose button it is."""
    gid = table.id or 0
    stamp = open_stamp(spec, table, state, asked)
    for index, action in enumerate(shared[:MAX_BUTTONS]):
        label = seat_names(table, spec.action_label(public, action))
        may = [s for s in asked if action in spec.engine.legal_actions(state, s)]
        if may and len(may) < len(asked):
            if len(may) <= 2:
                label = f"{_and([table.seats[s].name for s in may])}: {label}"
            else:
                left_out = [table.seats[s].name for s in asked if s not in may]
                label = f"{label} (anyone but {_and(left_out)})"
        view.add_item(OpenButton(gid, stamp, index, clip(label, 80), spec.action_style(public, action),
                                 row=index // 5))


def lobby_embed(spec: GameSpec, table: Table) -> discord.Embed:
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    fewest, most = engine.seat_range(options)
    seats = "\n".join(
        f"{i + 1}. {s.name}{' (host)' if s.user_id == table.host_id and not s.ai else ''}"
        f"{' (AI)' if s.ai and not s.name.startswith('Bot ') else ''}"
        f"{f' · {stake}' if (stake := spec.stake_text(table, s.stake)) else ''}"
        for i, s in enumerate(table.seats)
    ) or "Nobody yet."
    about = f"{spec.blurb}\n" if spec.blurb else ""
    embed = discord.Embed(
        title=f"{engine.title}: a new table",
        description=(
            f"{about}**Join** to take a seat ({fewest}–{most} players). "
            "The host presses **Start**, or **Add AI** to fill a seat with a bot."
        ),
        colour=spec.colour,
    )
    if not table.host_plays:
        embed.add_field(name="Game-master", value=f"<@{table.host_id}> runs this table and takes no seat.",
                        inline=False)
    embed.add_field(name=f"Seats ({len(table.seats)}/{most})", value=seats, inline=False)
    changed = spec.option_lines(options)
    if changed:
        embed.add_field(name="House options", value=clip("\n".join(changed), FIELD_VALUE), inline=False)
    embed.set_footer(text=footer(table))
    return embed


def standings_embed(spec: GameSpec, table: Table, state: BaseModel) -> tuple[discord.Embed, str]:
    """The final places, and the line that pings the winners."""
    outcomes = sorted(spec.engine.outcomes(state), key=lambda o: (o.rank, o.seat))
    winners = [o.seat for o in outcomes if o.rank == 1]
    top = outcomes[0].score if outcomes else None
    points = f" with {spec.score_text(top)}" if top is not None else ""

    def headline(name: Any) -> str:
        who = [name(s) for s in winners]
        if not who:
            return "The game is over."
        if len(who) == 1:
            return f"🏆 {who[0]} wins{points}!"
        return f"🏆 {_and(who)} share the win{points}!"

    lines = [
        f"**{o.rank}.** {table.seats[o.seat].name}" + (f": {spec.score_text(o.score)}" if o.score is not None else "")
        for o in outcomes
    ]
    embed = discord.Embed(title="Final standings", description=headline(lambda s: table.seats[s].name),
                          colour=discord.Colour.gold())
    embed.add_field(name="Places", value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    return embed, headline(lambda s: mention(table, s)) if winners else ""



def history_line(table: Table, chapter: str, story: str | None) -> str:
    """What an old table shrinks to once the next one is posted below it: one line, no pings."""
    parts = [f"**{seat_names(table, chapter)}**" if chapter else "", seat_names(table, story) if story else ""]
    return clip(" · ".join(p for p in parts if p) or "…", 400)


def details_message(spec: GameSpec, table: Table, state: BaseModel, seat: int | None) -> list[discord.Embed]:
    seen = spec.engine.view(state, seat)
    embeds = spec.details(table, seen, seat)
    if table.recent:
        last = discord.Embed(title="Latest moves", description=clip(
            "\n".join(f"· {line}" for line in table.recent), EMBED_DESCRIPTION), colour=spec.colour)
        last.set_footer(text="/game log has the whole game, newest last")
        embeds.append(last)
    return embeds[:10] or [discord.Embed(description="Nothing more to show.")]
