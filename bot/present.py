"""What a step looks like in Discord: a delivery plan, built without sending anything.

``present(step, now, origin)`` turns a step's result and what the channel shows now (the game's
book) into the messages to post, edit, shrink to history or strip of buttons, the DMs to send
and the answer to the interaction. It touches no network and no store, so every decision here
is unit-tested without Discord; ``bot/deliver.py`` carries the plan out.

The shape of a channel: a mention pings only in a new message, so every change of who must act
posts the table anew below the old one, which shrinks to a line of history without buttons. The
live table is always the newest game message; within one player's turn it is edited in place.
A private view goes out as a new DM when its player is newly asked, and older copies lose their
buttons, so exactly one copy is live.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.components import (
    ActionButton, ActionSelect, DetailsButton, HandButton, HowToButton, LobbyButton, OpenButton, RematchButton,
)
from bot.games import GameSpec
from bot.models import Book, Table
from bot.pictures import Picture
from bot.render import (
    CONTENT, EMBED_DESCRIPTION, FIELD_VALUE, and_list, clip, footer, mention, safe, seat_names,
)
from bot.step import Moment, StepResult
from rules.base import Event

log = logging.getLogger(__name__)

MAX_BUTTONS = 20  # four rows of five; the fifth row is kept for Details and My hand
#: beyond MAX_BUTTONS choices, menus of Discord's 25 options each, one per row of those four
MENU_OPTIONS, MENU_ROWS = 25, 4
#: events kept for the line of history a table becomes (a long bot chain keeps its latest)
TURN_EVENTS = 60
#: after this many other messages in the channel, the table is posted afresh instead of edited
SCROLLED_AWAY = 4


@dataclass
class Shown:
    """One message's parts before it is sent: the picture is still to be drawn (off the loop)."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    picture: Picture | None = None
    pings: bool = False
    #: messages that ride on this one when they fit (the game's last words on the final table)
    files: list[discord.File] = field(default_factory=list)


# -- the plan -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Origin:
    """Where a step came from, as far as presenting it goes."""

    #: the message whose button was pressed (None: a command, or nothing to answer)
    message_id: int | None = None
    #: pressed on a private copy (a DM or a My hand reply), not on the channel's table
    private: bool = False
    #: the presser's seat
    seat: int | None = None
    #: a command or a click to answer at all (a timer firing answers nobody)
    answers: bool = True


#: nothing to answer: a timer fired, or the command was answered already
NOBODY = Origin(answers=False)


@dataclass(frozen=True)
class Update:
    """Answer by editing the clicked message (``shown`` None: only strip its buttons)."""

    shown: Shown | None = None
    history: str | None = None


@dataclass(frozen=True)
class Reply:
    """Answer with a new message, only the presser sees it."""

    text: str


@dataclass(frozen=True)
class Post:
    """Post the table as a new message (it pings whom it mentions); strip ``strip`` after."""

    shown: Shown
    strip: int | None = None


@dataclass(frozen=True)
class Edit:
    """Redraw the live table where it is (posted afresh if it is gone)."""

    message_id: int
    shown: Shown


@dataclass(frozen=True)
class Shrink:
    """An old table becomes one line of history: no embed, picture or buttons. Only once the
    new table is out: if it could not be posted, the old message shows the game instead."""

    message_id: int
    text: str


@dataclass(frozen=True)
class Dm:
    seat: int
    user_id: int
    shown: Shown


@dataclass(frozen=True)
class Extra:
    """One of the game's last words that cannot ride on the final table (keyword arguments of
    ``channel.send``)."""

    message: dict[str, Any]


ChannelOp = Post | Edit | Shrink | Extra


@dataclass
class Plan:
    answer: Update | Reply | None = None
    #: private views, sent after the answer and before the channel's messages, so a table that
    #: asks a player to press My hand (their DMs are closed) is the new message that pings them
    dms: list[Dm] = field(default_factory=list)
    channel: list[ChannelOp] = field(default_factory=list)
    #: users whose private copies must lose their buttons, as they owe nothing now
    retire: list[int] = field(default_factory=list)
    #: the book's chapter, events gathered and look once the plan is out
    chapter: str = ""
    turn_events: list[dict[str, Any]] = field(default_factory=list)
    look: str = ""


@dataclass(frozen=True)
class Channel:
    """What the channel shows now: the game's book, and whether chat has scrolled the table away."""

    book: Book
    scrolled: bool = False


def look(moment: Moment, book: Book) -> str:
    """What the live table is drawn from: the game's public side and who must press My hand."""
    return f"{moment.look}:{sorted(book.dm_closed)}"


def present(step: StepResult, now: Channel, origin: Origin, *, answered: bool = False) -> Plan:
    """The plan for one step. ``answered``: an earlier plan for the same step answered the
    interaction already, and a DM has failed since, so the table must now ask that player to
    press My hand: whatever that answer showed of the table is shown again in the channel."""
    after, book = step.after, now.book
    table, spec = after.table, after.spec
    plan = Plan(look=look(after, book))
    mine = origin.seat if origin.private and after.playing else None
    if origin.private and origin.answers:
        plan.answer = Update(private_message(after, mine, notice=step.notice)) if mine is not None else Update()
    plan.dms = dms(after, book, [s for s in step.fresh if s != mine])  # theirs was just redrawn in place

    new_turn = bool(step.newly) or table.status != "active" or step.history is not None or book.repost or (
        bool(book.chapter) and after.chapter != book.chapter)
    public_click = origin.answers and not origin.private
    live = origin.message_id is not None and origin.message_id == book.message_id
    if new_turn:
        events = [Event.model_validate(e) for e in book.turn_events] + step.events
        history = step.history or history_line(table, book.chapter, spec.story(table, after.public, events))
        news = spec.headline(table, after.public, events)
        headline = seat_names(table, news, mentions=True) if news else None
        plan.chapter, plan.turn_events = after.chapter, []
        on_old = public_click and live
        # the clicked table becomes history in the answer itself (one call, not two); should the
        # new table fail to post, the deliverer draws the game on it again
        plan.answer = Update(history=history) if on_old else _acknowledge(origin, step.notice) \
            if public_click else plan.answer
        notice = step.notice if on_old or not origin.answers else None
        plan.channel.append(Post(table_message(after, book, notice=notice, headline=headline,
                                               last_words=step.finished_now)))
        if book.message_id is not None and not on_old:
            plan.channel.append(Shrink(book.message_id, history))
        if step.finished_now:
            plan.channel += [Extra(m) for m in _last_words_alone(after)]
    else:
        plan.chapter = book.chapter or after.chapter
        # the turn's events wait in the book as they were stored, read only when its story is told
        plan.turn_events = (book.turn_events + [e.model_dump() for e in step.events])[-TURN_EVENTS:]
        if public_click and live and not now.scrolled:
            plan.answer = Update(table_message(after, book, notice=step.notice))
            if answered:
                plan.channel.append(Edit(book.message_id, plan.answer.shown))  # type: ignore[arg-type]
        elif public_click and live:
            plan.answer = Update()  # scrolled away: the table comes back below
            plan.channel.append(Post(table_message(after, book, notice=step.notice)))
        else:
            if public_click:
                plan.answer = _acknowledge(origin, step.notice)
            if plan.look != book.look or (step.notice and not origin.answers):
                plan.channel += refresh(after, now, notice=step.notice if not origin.answers else None)
    plan.retire = [u for u in book.dm_copies if table.seat_of(u) not in after.acting]
    if answered:
        plan.answer = None
    return plan


def _acknowledge(origin: Origin, notice: str | None) -> Update | Reply:
    return Reply(notice or "Done.") if origin.message_id is None else Update()


def redraw(moment: Moment, now: Channel, *, notice: str | None = None) -> Plan:
    """The table redrawn after a change that is no move (a lobby seat, a pause, the end)."""
    return Plan(channel=refresh(moment, now, notice=notice), chapter=now.book.chapter,
                turn_events=now.book.turn_events, look=look(moment, now.book))


def again(moment: Moment, now: Channel, *, notify: list[int] | tuple[int, ...] = ()) -> Plan:
    """The table posted afresh as the newest message (/game status, or a table that had fallen
    behind the game); the old one loses its buttons. ``notify`` get their private view again."""
    book = now.book
    return Plan(dms=dms(moment, book, list(notify)), channel=[Post(table_message(moment, book), strip=book.message_id)],
                chapter=moment.chapter, look=look(moment, book),
                turn_events=book.turn_events if moment.chapter == book.chapter else [])


def refresh(moment: Moment, now: Channel, *, notice: str | None = None) -> list[ChannelOp]:
    """Redraw the live table where it is, or below if chat has scrolled it away."""
    shown = table_message(moment, now.book, notice=notice)
    if now.book.message_id is None or now.scrolled:
        return [Post(shown, strip=now.book.message_id)]
    return [Edit(now.book.message_id, shown)]


def dms(moment: Moment, book: Book, seats: list[int]) -> list[Dm]:
    """A new DM for each person newly asked a private decision, unless they decide on the table
    in the open (the table itself asks them)."""
    if not moment.playing or not moment.engine.has_private_view():
        return []
    out = []
    for seat in seats:
        info = moment.table.seats[seat]
        if info.ai or info.user_id is None:
            continue
        if all(a in moment.shared for a in moment.legal(seat)):
            continue
        out.append(Dm(seat, info.user_id, private_message(moment, seat)))
    return out


def _last_words_alone(moment: Moment) -> list[dict[str, Any]]:
    """The game's last words that cannot ride on the final table."""
    extras = _last_words(moment)
    return [] if _fits(extras) else extras


def _last_words(moment: Moment) -> list[dict[str, Any]]:
    tavern = moment.spec.tavern
    return tavern.last_words(moment.table, moment.public) if tavern is not None else []


def _fits(extras: list[dict[str, Any]]) -> bool:
    return all(not set(e) - {"embed", "embeds", "file", "files"} for e in extras)


# -- messages ------------------------------------------------------------------------------------


def _content(lines: list[str]) -> str | None:
    return clip("\n".join(line for line in lines if line), CONTENT) or None


def _frozen(view: discord.ui.View) -> discord.ui.View:
    # Clicks are routed by the registered dynamic items; stopping the view keeps discord.py from
    # holding a copy of every message's view in memory for the life of the process.
    view.stop()
    return view


def table_message(moment: Moment, book: Book, *, notice: str | None = None, headline: str | None = None,
                  last_words: bool = False) -> Shown:
    """The public table: the channel's view, with the buttons of whoever acts in the open."""
    spec, table, engine = moment.spec, moment.table, moment.engine
    lines = [headline or "", notice or ""]
    view = discord.ui.View(timeout=None)
    gid = table.id or 0

    if table.status == "lobby":
        for op in ("join", "leave", "start", "cancel", "ai"):
            view.add_item(LobbyButton(gid, op))
        view.add_item(HowToButton(gid, row=1))
        return Shown(_content(lines), [lobby_embed(spec, table)], _frozen(view))

    if table.status == "cancelled" or moment.state is None:
        embed = discord.Embed(
            title=f"{engine.title}: game ended",
            description=f"This game was ended before it finished. Start another with `/{spec.command} new`.",
            colour=discord.Colour.dark_grey(),
        )
        return Shown(_content(lines), [embed], _frozen(view))

    public = moment.public
    embed = spec.table_embed(table, public)
    picture = spec.picture(table, public)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    embed.set_footer(text=footer(table))

    if table.status == "finished":
        view.add_item(RematchButton(gid))
        view.add_item(DetailsButton(gid))
        standings, winners = standings_embed(moment)
        lines.append(winners)
        embeds = [embed, standings]
        shown = Shown(_content(lines), embeds, _frozen(view), picture, pings=True)
        if last_words:
            _ride(shown, _last_words(moment))
        return shown

    if table.paused:
        lines.append("⏸ The game is paused. The host resumes it with `/game resume`.")
        view.add_item(DetailsButton(gid, row=4))
        return Shown(_content(lines), [embed], _frozen(view), picture)

    private_game = engine.has_private_view()
    humans = moment.humans
    if moment.shared and humans:
        lines.append(", ".join(mention(table, s) for s in humans) + ": " + spec.open_prompt(table, public))
        _add_open(view, moment, humans)
    elif private_game:
        if humans:
            closed = [s for s in humans if s in book.dm_closed]
            by_dm = [safe(table.seats[s].name) for s in humans if s not in book.dm_closed]
            if by_dm:
                lines.append("Waiting for " + and_list(by_dm) + " (choosing in DMs).")
            if closed:
                lines.append(", ".join(mention(table, s) for s in closed)
                             + ": I could not DM you, so press **My hand** to choose.")
    elif len(humans) == 1:
        seat = humans[0]
        lines.append(f"{mention(table, seat)}: {spec.prompt(table, public, seat)}")
        _add_actions(view, moment, seat, public)
    elif humans:
        lines.append("Waiting for " + and_list([safe(table.seats[s].name) for s in humans]) + ".")
    view.add_item(DetailsButton(gid, row=4))
    if private_game:
        view.add_item(HandButton(gid, row=4))
    return Shown(_content(lines), [embed], _frozen(view), picture, pings=True)


def _ride(shown: Shown, extras: list[dict[str, Any]]) -> None:
    """The game's last words (a ledger, say) ride on the final table when they fit one
    message, so the end of a game costs the channel no extra call."""
    if not _fits(extras):
        return
    embeds = list(shown.embeds)
    files: list[discord.File] = []
    for extra in extras:
        embeds += [extra["embed"]] if "embed" in extra else list(extra.get("embeds") or [])
        files += [extra["file"]] if "file" in extra else list(extra.get("files") or [])
    if len(embeds) > 10 or sum(len(e) for e in embeds) > 6000 or len(files) > 9:
        return
    shown.embeds, shown.files = embeds, files


def private_message(moment: Moment, seat: int, *, notice: str | None = None) -> Shown:
    """One seat's own view: their hand or sealed choice with its buttons, and nothing public."""
    spec, table = moment.spec, moment.table
    seen = moment.view(seat)
    embed = spec.private_embed(table, seat, seen)
    embed.set_footer(text=f"Game #{table.id} · only you see this")
    view = discord.ui.View(timeout=None)
    lines = [notice or ""]
    if moment.playing and not table.paused and seat in moment.acting:
        lines.append(spec.prompt(table, seen, seat))
        _add_actions(view, moment, seat, seen)
    elif table.paused:
        lines.append("⏸ The game is paused.")
    return Shown(_content(lines), [embed], _frozen(view))


def _add_actions(view: discord.ui.View, moment: Moment, seat: int, seen: Any) -> None:
    spec, table = moment.spec, moment.table
    actions = moment.legal(seat)
    gid = table.id or 0
    stamp = moment.stamp(seat)
    if len(actions) <= MAX_BUTTONS:
        for index, action in enumerate(actions):
            view.add_item(
                ActionButton(gid, seat, stamp, index, seat_names(table, spec.action_label(seen, action), plain=True),
                             spec.action_style(seen, action), row=index // 5)
            )
        return
    labels = [clip(seat_names(table, spec.action_label(seen, a), plain=True), 100) for a in actions]
    pages = range(0, min(len(labels), MENU_OPTIONS * MENU_ROWS), MENU_OPTIONS)
    if len(labels) > MENU_OPTIONS * MENU_ROWS:
        log.warning("game %s offers %d choices; menus show the first %d", gid, len(labels), MENU_OPTIONS * MENU_ROWS)
    for row, start in enumerate(pages):
        page = labels[start:start + MENU_OPTIONS]
        options = [discord.SelectOption(label=label, value=str(start + i)) for i, label in enumerate(page)]
        placeholder = "Choose…" if len(pages) == 1 else clip(f"{page[0]} … {page[-1]}", 150)
        view.add_item(ActionSelect(gid, seat, stamp, options, placeholder=placeholder, row=row, page=row))


def _add_open(view: discord.ui.View, moment: Moment, asked: list[int]) -> None:
    """One row for everyone asked; a choice only some of them may make names them on its label,
    so nobody has to guess whose button it is."""
    spec, table, public = moment.spec, moment.table, moment.public
    gid = table.id or 0
    stamp = moment.open_stamp(asked)
    for index, action in enumerate(moment.shared[:MAX_BUTTONS]):
        label = seat_names(table, spec.action_label(public, action), plain=True)
        may = [s for s in asked if action in moment.legal(s)]
        if may and len(may) < len(asked):
            if len(may) <= 2:
                label = f"{and_list([table.seats[s].name for s in may])}: {label}"
            else:
                left_out = [table.seats[s].name for s in asked if s not in may]
                label = f"{label} (anyone but {and_list(left_out)})"
        view.add_item(OpenButton(gid, stamp, index, clip(label, 80), spec.action_style(public, action),
                                 row=index // 5))


def lobby_embed(spec: GameSpec[Any, Any, Any], table: Table) -> discord.Embed:
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    fewest, most = engine.seat_range(options)
    seats = "\n".join(
        f"{i + 1}. {safe(s.name)}{' (host)' if s.user_id == table.host_id and not s.ai else ''}"
        f"{' (AI)' if s.ai and not s.name.startswith('Bot ') else ''}"
        f"{f' · {stake}' if spec.tavern and (stake := spec.tavern.stake_text(options, s.stake)) else ''}"
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
    embed.add_field(name=f"Seats ({len(table.seats)}/{most})", value=clip(seats, FIELD_VALUE), inline=False)
    changed = spec.option_lines(options)
    if changed:
        embed.add_field(name="House options", value=clip("\n".join(changed), FIELD_VALUE), inline=False)
    embed.set_footer(text=footer(table))
    return embed


def standings_embed(moment: Moment) -> tuple[discord.Embed, str]:
    """The final places, and the line that pings the winners."""
    spec, table = moment.spec, moment.table
    outcomes = sorted(moment.engine.outcomes(moment.state), key=lambda o: (o.rank, o.seat))
    winners = [o.seat for o in outcomes if o.rank == 1]
    top = outcomes[0].score if outcomes else None
    points = f" with {spec.score_text(top)}" if top is not None else ""

    def headline(name: Any) -> str:
        who = [name(s) for s in winners]
        if not who:
            return "The game is over."
        if len(who) == 1:
            return f"🏆 {who[0]} wins{points}!"
        return f"🏆 {and_list(who)} share the win{points}!"

    lines = [
        f"**{o.rank}.** {safe(table.seats[o.seat].name)}" + (f": {spec.score_text(o.score)}" if o.score is not None else "")
        for o in outcomes
    ]
    embed = discord.Embed(title="Final standings", description=headline(lambda s: safe(table.seats[s].name)),
                          colour=discord.Colour.gold())
    embed.add_field(name="Places", value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    return embed, headline(lambda s: mention(table, s)) if winners else ""


def history_line(table: Table, chapter: str, story: str | None) -> str:
    """What an old table shrinks to once the next one is posted below it: one line, no pings."""
    parts = [f"**{seat_names(table, chapter)}**" if chapter else "", seat_names(table, story) if story else ""]
    return clip(" · ".join(p for p in parts if p) or "…", 400)


def details_message(moment: Moment, seat: int | None, recent: list[str]) -> list[discord.Embed]:
    spec = moment.spec
    embeds = spec.details(moment.table, moment.view(seat), seat)
    if recent:
        last = discord.Embed(title="Latest moves", description=clip(
            "\n".join(f"· {line}" for line in recent), EMBED_DESCRIPTION), colour=spec.colour)
        last.set_footer(text="/game log has the whole game, newest last")
        embeds.append(last)
    return embeds[:10] or [discord.Embed(description="Nothing more to show.")]
