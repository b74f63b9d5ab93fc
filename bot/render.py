"""Generic pictures of a table: lobby, turn prompt, action controls, final standings.

Games draw their own board (GameSpec.table_embed); this module frames it and keeps every
message inside Discord's limits.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.components import ActionButton, ActionSelect, HandButton, LobbyButton, OpenButton, RematchButton
from bot.models import Table
from rules.base import Event

if TYPE_CHECKING:
    from bot.runtime import TableRuntime

MAX_BUTTONS = 20  # four rows of five; the fifth row is kept for "My hand"
EMBED_DESCRIPTION = 4096
FIELD_VALUE = 1024
CONTENT = 2000


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def names(table: Table) -> str:
    people = [seat.name for seat in table.seats]
    return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]


_SEAT = re.compile(r"\bSeat (\d+)\b")


def seat_names(table: Table, text: str) -> str:
    """Engines speak of "Seat 2"; the table knows who sits there. One pass, so a player who
    calls themselves "Seat 1" is never taken for the player in seat 1."""
    def name(found: re.Match[str]) -> str:
        number = int(found[1])
        return table.seats[number - 1].name if 1 <= number <= len(table.seats) else found[0]

    return _SEAT.sub(name, text)


def event_text(table: Table, event: Event) -> str:
    return seat_names(table, event.text)


def mention(table: Table, seat: int) -> str:
    info = table.seats[seat]
    return info.name if info.ai or info.user_id is None else f"<@{info.user_id}>"


def _frozen(view: discord.ui.View) -> discord.ui.View:
    # Clicks are routed by the registered dynamic items; stopping the view keeps discord.py from
    # holding a copy of every message's view in memory for the life of the process.
    view.stop()
    return view


def table_message(
    runtime: TableRuntime, table: Table, *, for_user: int | None = None, notice: str | None = None
) -> dict[str, Any]:
    spec = runtime.spec(table)
    engine = spec.engine
    lines = [notice] if notice else []
    view = discord.ui.View(timeout=None)
    gid = table.id or 0

    if table.status == "lobby":
        embed = lobby_embed(runtime, table)
        for op in ("join", "leave", "start", "cancel", "ai"):
            view.add_item(LobbyButton(gid, op))
        return {"content": clip("\n".join(lines), CONTENT) or None, "embed": embed, "view": _frozen(view)}

    if table.status == "cancelled":
        embed = discord.Embed(
            title=f"{engine.title}: game ended",
            description="This game was ended before it finished. Start another with "
            f"`/{spec.command} new`.",
            colour=discord.Colour.dark_grey(),
        )
        return {"content": clip("\n".join(lines), CONTENT) or None, "embed": embed, "view": _frozen(view)}

    state = runtime.state_of(table)
    seat = table.seat_of(for_user) if for_user is not None else None
    public = engine.view(state, None)
    if for_user is not None and seat is not None and engine.has_private_view():
        embed = spec.private_embed(table, seat, engine.view(state, seat))
    else:
        embed = spec.table_embed(table, public)
    if table.recent:
        embed.add_field(name="What just happened", value=clip("\n".join(table.recent), FIELD_VALUE), inline=False)
    embed.set_footer(text=footer(table))

    if table.status == "finished":
        view.add_item(RematchButton(gid))
        return {
            "content": clip("\n".join(lines), CONTENT) or None,
            "embeds": [embed, standings_embed(runtime, table)],
            "view": _frozen(view),
        }

    if table.paused:
        lines.append("⏸ The game is paused. The host resumes it with `/game resume`.")
        return {"content": clip("\n".join(lines), CONTENT), "embed": embed, "view": _frozen(view)}

    acting = engine.to_act(state)
    private_game = engine.has_private_view()
    controls_for: int | None = None
    if private_game:
        if seat is not None and seat in acting:
            controls_for = seat
    elif len(acting) == 1 and not table.seats[acting[0]].ai:
        controls_for = acting[0]
    if controls_for is not None:
        public_view = engine.view(state, controls_for) if private_game else public
        if for_user is None or seat == controls_for:
            lines.append(f"{mention(table, controls_for)}: {spec.prompt(table, public_view, controls_for)}")
        _add_actions(view, runtime, table, state, controls_for, public_view)
    shared = engine.open_actions(state) if for_user is None else []
    asked = [s for s in acting if not table.seats[s].ai] if shared else []
    if asked:
        lines.append(", ".join(mention(table, s) for s in asked) + ": " + spec.open_prompt(table, public))
        for index, action in enumerate(shared[:MAX_BUTTONS]):
            view.add_item(OpenButton(gid, runtime.open_stamp(table, state, asked), index, seat_names(table, spec.action_label(public, action)),
                                     spec.action_style(public, action), row=index // 5))
    waiting = [table.seats[s].name for s in acting if s != controls_for and s not in asked]
    if waiting:
        lines.append("Waiting for " + ", ".join(waiting) + ".")
    if private_game and for_user is None:
        closed = [mention(table, s) for s in acting if table.seats[s].dm_closed]
        if closed:
            lines.append(", ".join(closed) + ": I could not DM you, so press **My hand** to choose.")
        view.add_item(HandButton(gid, row=4))
    return {
        "content": clip("\n".join(lines), CONTENT) or None,
        "embed": embed,
        "view": _frozen(view),
        "allowed_mentions": discord.AllowedMentions(users=True, everyone=False, roles=False),
    }


def _add_actions(view: discord.ui.View, runtime: TableRuntime, table: Table, state: Any, seat: int, seen: Any) -> None:
    spec = runtime.spec(table)
    actions = spec.engine.legal_actions(state, seat)
    gid = table.id or 0
    stamp = runtime.stamp(table, state, seat)
    if len(actions) <= MAX_BUTTONS:
        for index, action in enumerate(actions):
            view.add_item(
                ActionButton(gid, stamp, index, seat_names(table, spec.action_label(seen, action)),
                             spec.action_style(seen, action), row=index // 5)
            )
        return
    options = [
        discord.SelectOption(label=clip(seat_names(table, spec.action_label(seen, a)), 100), value=str(i))
        for i, a in enumerate(actions[:25])
    ]
    view.add_item(ActionSelect(gid, stamp, options, row=0))


def footer(table: Table) -> str:
    timer = f"{table.timer_seconds // 60} min {table.timer_seconds % 60:02d} s" if table.timer_seconds else "off"
    return f"Game #{table.id} · move {table.version} · turn timer {timer}"


def lobby_embed(runtime: TableRuntime, table: Table) -> discord.Embed:
    spec = runtime.spec(table)
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    fewest, most = engine.seat_range(options)
    seats = "\n".join(
        f"{i + 1}. {s.name}{' (host)' if s.user_id == table.host_id and not s.ai else ''}"
        f"{' (AI)' if s.ai and not s.name.startswith('Bot ') else ''}"
        f"{f' · {stake}' if (stake := spec.stake_text(table, s.stake)) else ''}"
        for i, s in enumerate(table.seats)
    ) or "Nobody yet."
    embed = discord.Embed(
        title=f"{engine.title}: a new table",
        description=(
            f"Press **Join** to take a seat ({fewest}–{most} players). "
            "The host presses **Start** when everyone is in, or **Add AI** to fill a seat with a bot."
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
    embed.set_footer(text=footer(table) + " · /game rules for the rules")
    return embed


def standings_embed(runtime: TableRuntime, table: Table) -> discord.Embed:
    spec = runtime.spec(table)
    engine = spec.engine
    outcomes = sorted(engine.outcomes(runtime.state_of(table)), key=lambda o: (o.rank, o.seat))
    winners = [table.seats[o.seat].name for o in outcomes if o.rank == 1]
    top = outcomes[0].score if outcomes else None
    points = f" with {spec.score_text(top)}" if top is not None else ""
    if len(winners) == 1:
        headline = f"🏆 {winners[0]} wins{points}!"
    else:
        headline = f"🏆 {', '.join(winners[:-1])} and {winners[-1]} share the win{points}!"
    lines = [
        f"**{o.rank}.** {table.seats[o.seat].name}" + (f": {spec.score_text(o.score)}" if o.score is not None else "")
        for o in outcomes
    ]
    embed = discord.Embed(title="Final standings", description=headline, colour=discord.Colour.gold())
    embed.add_field(name="Places", value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    return embed
