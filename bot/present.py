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
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import layout
from bot.components import (
    ActionButton, ActionSelect, DetailsButton, HandButton, HowToButton, LobbyButton, OpenButton, OpenSelect,
    PageSelect, RematchButton,
)
from bot.games import GameSpec, Page, Part, embed_parts
from bot.models import Book, LogEntry, Table
from bot.pictures import Picture
from bot.render import and_list, clip, footer, mention, runner, safe, seat_names, timer_text
from bot.step import Moment, StepResult
from rules.base import Event

log = logging.getLogger(__name__)

MAX_BUTTONS = 20  # four rows of five
#: interactive controls a live table may show (a menu counts as one), and a private view
TABLE_CONTROLS, PRIVATE_CONTROLS = 8, 20
#: beyond the buttons that fit, menus of Discord's 25 options each
MENU_OPTIONS, MENU_ROWS = 25, 5
#: events kept for the line of history a table becomes (a long bot chain keeps its latest)
TURN_EVENTS = 60
#: after this many other messages in the channel, the table is posted afresh instead of edited
SCROLLED_AWAY = 4
#: a page of /game log: about what a phone shows without scrolling
LOG_PAGE = 800


@dataclass
class Shown:
    """One layout message before it is sent: its pictures are still to be drawn (off the loop)."""

    layout: layout.Built
    #: the picture its media gallery shows
    picture: Picture | None = None
    pings: bool = False
    #: pictures its blocks show beside their text
    thumbnails: list[Picture] = field(default_factory=list)
    #: files that ride on it (the game's last words on the final table)
    files: list[discord.File] = field(default_factory=list)
    #: when set, the only users it pings (a nudge: not everyone the table mentions)
    pinged: tuple[int, ...] = ()

    @property
    def pictures(self) -> list[Picture]:
        return ([self.picture] if self.picture is not None else []) + self.thumbnails


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
    """Answer by editing the clicked message: into ``shown``, into a line of ``history``, or
    (neither) into a line saying the game moved on."""

    shown: Shown | None = None
    history: str | None = None


@dataclass(frozen=True)
class Reply:
    """Answer with a new message, only the presser sees it."""

    text: str


@dataclass(frozen=True)
class Post:
    """Post the table as a new message (it pings whom it mentions); the message it replaces
    (``strip``) then shows only ``strip_text``."""

    shown: Shown
    strip: int | None = None
    strip_text: str = "The table moved below."


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
    #: the old table is a layout message (False: one from before, edited as a plain message)
    layout: bool = True


@dataclass(frozen=True)
class Dm:
    seat: int
    user_id: int
    shown: Shown
    #: what the older copy shows once this one is out
    superseded: Shown | None = None
    #: the chapter it is sent in (a refusal is not tried again in the same one)
    chapter: str = ""


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
    #: users whose private copies must lose their controls, as they owe nothing now, and what
    #: those copies show instead (what they hold now; None: one line saying the game moved on)
    retire: list[tuple[int, Shown | None]] = field(default_factory=list)
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
        plan.answer = Update(private_message(after, mine, notice=step.notice)) if mine is not None else \
            Update(history=ended_by_you(table)) if step.finished_now else Update()
    plan.dms = dms(after, book, [s for s in step.fresh if s != mine])  # theirs was just redrawn in place

    new_turn = posts_anew(step, book)
    public_click = origin.answers and not origin.private
    live = origin.message_id is not None and origin.message_id == book.message_id
    if new_turn:
        events = [Event.model_validate(e) for e in book.turn_events] + step.events
        history = "\n".join(filter(None, [book.owed, _opening(step, events) if step.history else history_line(
            table, _told(book.chapter, step), spec.story(table, after.public, events))]))
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
            plan.channel.append(Shrink(book.message_id, history, book.layout))
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
            plan.answer, posted = _back_below(after, book, step.notice)
            plan.channel.append(posted)
        else:
            if public_click:
                plan.answer = _acknowledge(origin, step.notice)
            if plan.look != book.look or (step.notice and not origin.answers):
                plan.channel += refresh(after, now, notice=step.notice if not origin.answers else None)
    plan.retire = _retiring(after, book)
    if answered:
        plan.answer = None
    return plan


def _opening(step: StepResult, events: list[Event]) -> str:
    """The lobby's line once the game starts: who sat down, then what bot seats did before
    anyone else was asked (an NPC Captain's plunder, say), or nobody would see it happen."""
    after = step.after
    story = after.spec.story(after.table, after.public, events) if events else None
    if not story:
        return step.history or ""
    chapter = step.entries[0].chapter if step.entries else ""
    return clip(f"{step.history} {history_line(after.table, chapter, story)}", 400)


def _told(chapter: str, step: StepResult) -> str:
    """The chapters an old table's line tells: its own, and any that bot seats played through
    in the same step ("Turns 11–12"), where one line filed a bot's whole turn under the
    player's before it. Not the chapter the new table shows: what began it is the new table's."""
    shown = step.after.chapter
    chapters = [chapter, *(c for entry in step.entries for c, _ in entry.by_chapter() if c != shown
                           and not c.startswith((f"{chapter},", f"{chapter} ·")))]  # "Round 1, roll 2": still round 1
    return _log_title(chapters) if any(chapters) else ""


def posts_anew(step: StepResult, book: Book) -> bool:
    """Whether the step posts its table as a new message, wherever the old one is: someone is
    newly asked (a new message pings them), the game ended, or a new turn or round began."""
    after = step.after
    return bool(step.newly) or after.table.status != "active" or step.history is not None or book.repost or (
        bool(book.chapter) and after.chapter != book.chapter)


def ended_by_you(table: Table) -> str:
    """What the private copy whose choice ended the game shows: it counted, and the game's
    end is in the channel."""
    return f"✓ Done: that ended the game. The final table is in <#{table.channel_id}>."


def game_over(table: Table) -> str:
    """What every other private copy shows once the game is over."""
    return f"This game is over: the table in <#{table.channel_id}> shows how it ended."


def _retiring(moment: Moment, book: Book) -> list[tuple[int, Shown | None]]:
    """The private copies that lose their controls: those of whoever is asked nothing now, and
    once the game is over everyone's (a copy My hand gave too), saying so."""
    table = moment.table
    if table.status in ("active", "lobby"):
        return [(u, _retired(moment, table.seat_of(u))) for u in book.dm_copies if table.seat_of(u) not in moment.acting]
    over = Shown(layout.text_message(game_over(table)))
    return [(u, over) for u in dict.fromkeys([*book.dm_copies, *(s.user_id for s in table.seats if s.user_id)])]


def _retired(moment: Moment, seat: int | None) -> Shown | None:
    """An old private copy keeps what its player holds, without the question it can no longer
    answer."""
    if seat is None or not moment.playing:
        return None
    return private_message(moment, seat, notice="✓ Nothing is asked of you now; the table shows what happens next.")


def _acknowledge(origin: Origin, notice: str | None) -> Update | Reply:
    return Reply(notice or "Done.") if origin.message_id is None else Update()


def redraw(moment: Moment, now: Channel, *, notice: str | None = None) -> Plan:
    """The table redrawn after a change that is no move (a lobby seat, a pause, the end). A
    game ended early leaves its last words too (a ledger): the game-master carries its money
    back to the campaign whether or not the game was played out."""
    channel = refresh(moment, now, notice=notice)
    if moment.table.status == "cancelled" and moment.state is not None:
        # below the table redrawn in place, which cannot take their files as a new table does
        channel += [Extra(m) for m in _last_words(moment)]
    return Plan(channel=channel, chapter=now.book.chapter,
                turn_events=now.book.turn_events, look=look(moment, now.book),
                retire=_retiring(moment, now.book) if moment.table.status == "cancelled" else [])


def _back_below(moment: Moment, book: Book, notice: str | None) -> tuple[Update, Post]:
    """A press on a table that chat has scrolled away: the pressed message says where the
    table went, and the table comes back as the newest message."""
    return Update(history=_moved_text(moment.table)), Post(table_message(moment, book, notice=notice))


def moved_below(moment: Moment, now: Channel, *, notice: str | None = None) -> Plan:
    """A change pressed on a table that chat has scrolled away that is no move (a lobby's button)."""
    book = now.book
    answer, posted = _back_below(moment, book, notice)
    return Plan(answer=answer, channel=[posted], chapter=book.chapter, turn_events=book.turn_events,
                look=look(moment, book))


def again(moment: Moment, book: Book, *, notify: list[int] | tuple[int, ...] = (), ping: bool = True,
          nudge: str | None = None, nudged: Sequence[int] = ()) -> Plan:
    """The table (or lobby) posted afresh as the newest message (/game status, /game nudge, or a
    table that had fallen behind the game); the old one loses its buttons. ``notify`` get their
    private view again. ``ping=False`` (/game status): whoever is asked was pinged when they were
    asked, and anyone may ask for the table, so it must not buzz them again at a stranger's
    bidding. ``nudge``: a line above it that pings ``nudged`` alone (a lobby's host too), not
    whoever else the table mentions (the one who nudged, where all act at once)."""
    shown = table_message(moment, book, notice=nudge)
    if nudge is not None:
        shown = replace(shown, pings=True, pinged=tuple(nudged))
    elif not ping:
        shown = replace(shown, pings=False)
    return Plan(dms=dms(moment, book, list(notify)), channel=[_moved(shown, book, moment.table)],
                chapter=moment.chapter, look=look(moment, book),
                turn_events=book.turn_events if moment.chapter == book.chapter else [])


def refresh(moment: Moment, now: Channel, *, notice: str | None = None) -> list[ChannelOp]:
    """Redraw the live table where it is, or below if chat has scrolled it away."""
    shown = table_message(moment, now.book, notice=notice)
    if now.book.message_id is None or now.scrolled:
        return [_moved(shown, now.book, moment.table)]
    return [Edit(now.book.message_id, shown)]


def _moved(shown: Shown, book: Book, table: Table) -> Post:
    """The table posted below; the old one shows the line of history it owes, if any."""
    return Post(shown, strip=book.message_id, strip_text=book.owed or _moved_text(table))


def _moved_text(table: Table) -> str:
    """What a message the table (or lobby) moved away from says."""
    return "The lobby moved below." if table.status == "lobby" else Post.strip_text


def dms(moment: Moment, book: Book, seats: list[int]) -> list[Dm]:
    """A new DM for each person newly asked a private decision, unless they decide on the table
    in the open (the table itself asks them). A player whose DMs refused the bot is tried again
    only in a later turn or round than the refusal, and meanwhile the table asks them to press
    My hand: every refused DM is a request Discord counts against the bot, and delays the table."""
    if not moment.playing or not moment.engine.has_private_view():
        return []
    out = []
    for seat in seats:
        info = moment.table.seats[seat]
        if info.ai or info.user_id is None:
            continue
        if all(a in moment.shared for a in moment.legal(seat)):
            continue
        if seat in book.dm_closed and book.dm_closed[seat] == moment.chapter:
            continue
        out.append(Dm(seat, info.user_id, private_message(moment, seat), private_message(
            moment, seat, notice="↓ A newer copy of this is below; only that one can answer.", asking=False),
            chapter=moment.chapter))
    return out


def _last_words_alone(moment: Moment) -> list[dict[str, Any]]:
    """The game's last words that cannot ride on the final table."""
    extras = _last_words(moment)
    return [] if _fits(extras) else extras


def _last_words(moment: Moment) -> list[dict[str, Any]]:
    tavern = moment.spec.tavern
    return tavern.last_words(moment.table, moment.public) if tavern is not None and tavern.runs(moment.table) else []


def _fits(extras: list[dict[str, Any]]) -> bool:
    return all(not set(e) - {"embed", "embeds", "file", "files"} for e in extras)


# -- messages ------------------------------------------------------------------------------------


def _lines(lines: list[str | None]) -> str:
    return clip("\n".join(line for line in lines if line), 1800)


def _message(top: list[str | None], parts: list[Part], picture: Picture | None, controls: Sequence[layout.Component],
             foot: str | None, colour: discord.Colour | int | None, *, accessories: dict[int, layout.Component] | None = None,
             pings: bool = False, after: list[layout.Component] | None = None,
             utility: Sequence[layout.Component] = ()) -> Shown:
    """One container: the line that asks (it pings), the game's blocks (a seat's own control
    beside its block), the picture, the controls, and a small footer. ``utility`` (Details, My
    hand) rows apart from the decisions: beside the last one, a thumb aiming at Details on a
    phone could score an item instead."""
    accessories = dict(accessories or {})
    head = _lines(top)
    first = [layout.text(head)] if head else []
    middle: list[layout.Component] = []
    for part in parts:
        extra = accessories.pop(part.seat, None) if part.seat is not None else None
        middle.append(layout.block(part, extra))
    middle += after or []
    last: list[layout.Component] = []
    if picture is not None:
        last += [layout.text(f"-# {picture.caption}")] if picture.caption else []
        last.append(layout.gallery(picture))
    last += layout.rows(controls) + layout.rows(utility)
    if foot:
        last.append(layout.text(f"-# {foot}"))
    items = layout.fit(first, middle, last)
    shown = {i["accessory"]["media"]["url"] for i in items
             if i["type"] == layout.SECTION and i["accessory"]["type"] == layout.THUMBNAIL}
    thumbnails = [p.thumbnail for p in parts
                  if p.thumbnail is not None and f"attachment://{p.thumbnail.filename}" in shown]
    return Shown(layout.container(items, colour), picture, pings, thumbnails)


def _deadline(table: Table) -> str | None:
    """A timer is worth a line only while it runs: Discord counts it down on every screen."""
    if table.deadline is None or table.status != "active" or table.paused:
        return None
    per_move = f" · {timer_text(table)}" if table.timer_seconds else ""  # else the rules' own window
    return f"⏱ Time runs out <t:{int(table.deadline)}:R>{per_move}"


def players(fewest: int, most: int) -> str:
    return f"{fewest} players" if fewest == most else f"{fewest}–{most} players"


def lobby_message(spec: GameSpec[Any, Any, Any], table: Table, notice: str | None = None) -> Shown:
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    fewest, most = engine.seat_range(options)
    seats = "\n".join(
        f"{i + 1}. {safe(s.name)}{' (host)' if s.user_id == table.host_id and not s.ai else ''}"
        f"{' (NPC)' if s.npc else ''}"
        f"{f' · {stake}' if spec.tavern and (stake := spec.tavern.stake_text(options, s.stake)) else ''}"
        for i, s in enumerate(table.seats)
    ) or "Nobody yet."
    about = f"{spec.blurb}\n" if spec.blurb else ""
    starter = "host" if table.host_plays else "game-master"
    parts = [Part(f"### {engine.title}: a new table\n{about}**Join** to take a seat ({players(fewest, most)}). "
                  f"The {starter} presses **Start**, or **Add AI** to fill a seat with a bot.")]
    if not table.host_plays:
        tools = ""
        if spec.tavern is not None:  # what a game-master looks for here, named where they look
            stake = f", `/{spec.command} stake` a seat's {spec.tavern.stake_word}" if spec.tavern.stake_word else ""
            tools = f" `/{spec.command} npc` seats an NPC{stake}."
        parts.append(Part(f"**Game-master:** <@{table.host_id}> runs this table and takes no seat.{tools}"))
    parts.append(Part(clip(f"**Seats ({len(table.seats)}/{most})**\n{seats}", 1500)))
    changed = spec.option_lines(options)
    if changed:
        parts.append(Part(clip("**House options**\n" + "\n".join(changed), 1000)))
    gid = table.id or 0
    controls = [LobbyButton.component(gid, op) for op in ("join", "leave", "start", "cancel", "ai")]
    controls.append(HowToButton.component(gid))
    return _message([notice], parts, None, controls, footer(table), spec.colour)


def closed_lobby(who: str) -> str:
    """The line a lobby closed before its game began carries: nothing was played, so nothing
    "ended early"."""
    return f"{safe(who)} closed the lobby; no game was played."


def table_message(moment: Moment, book: Book, *, notice: str | None = None, headline: str | None = None,
                  last_words: bool = False, rematch: bool = True) -> Shown:
    """The public table: what is asked and of whom, the game's blocks, the picture, and the
    controls of whoever acts in the open. ``rematch=False``: a final table whose rematch was
    asked for already."""
    spec, table, engine = moment.spec, moment.table, moment.engine
    top: list[str | None] = [headline, notice]
    gid = table.id or 0

    if table.status == "lobby":
        return lobby_message(spec, table, notice)

    if table.status == "cancelled" and moment.state is None:  # a lobby closed before its game began
        parts = [Part(f"### {engine.title}: lobby cancelled\nStart a game with `/{spec.command} new`.")]
        return _message(top, parts, None, [], None, discord.Colour.dark_grey())
    if table.status == "cancelled" or moment.state is None:
        parts = [Part(f"### {engine.title}: game ended\nThis game was ended before it finished"
                      + ("; this is where it stood" if moment.state is not None else "")
                      + f". Start another with `/{spec.command} new`.")]
        if moment.state is not None:  # scores, purses: what a game-master carries back to the campaign
            parts += spec.table_parts(table, moment.public)
        return _message(top, parts, None, [], f"Game #{table.id}", discord.Colour.dark_grey())

    public = moment.public
    parts = spec.table_parts(table, public)
    picture = spec.picture(table, public) if moment.pictures else None
    accessories: dict[int, layout.Component] = {}
    after: list[layout.Component] = []
    controls: list[layout.Component] = []

    if table.status == "finished":
        standings, winners = standings_part(moment)
        top.append(winners)
        controls = [RematchButton.component(gid)] if rematch else []
        shown = _message(top, parts + [standings], picture, controls + [DetailsButton.component(gid)],
                         f"Game #{table.id}", spec.colour, pings=True)
        if last_words:
            _ride(shown, _last_words(moment))
        return shown

    if table.paused:
        top.append(f"⏸ The game is paused. {runner(table, start=True)} resumes it with `/game resume`.")
        return _message(top, parts, picture, [DetailsButton.component(gid)], f"Game #{table.id}", spec.colour)

    private_game = engine.has_private_view()
    humans = moment.humans
    utility = [DetailsButton.component(gid)] + ([HandButton.component(gid, *spec.hand_button)] if private_game else [])
    if moment.shared and humans:
        top.append(", ".join(mention(table, s) for s in humans) + ": " + spec.open_prompt(table, public))
        controls, accessories, after, parts = _open_controls(moment, humans, parts, TABLE_CONTROLS - len(utility))
    elif private_game:
        if humans:
            closed = [s for s in humans if s in book.dm_closed]
            by_dm = [safe(table.seats[s].name) for s in humans if s not in book.dm_closed]
            if by_dm:
                top.append("Waiting for " + and_list(by_dm) + " (choosing in DMs).")
            if closed:
                top.append(", ".join(mention(table, s) for s in closed)
                           + f": I could not DM you, so press **{spec.hand_button[0]}** to choose.")
    elif len(humans) == 1:
        seat = humans[0]
        top.append(f"{mention(table, seat)}: {spec.prompt(table, public, seat)}")
        controls = _actions(moment, seat, public, TABLE_CONTROLS - len(utility))
    elif humans:
        top.append("Waiting for " + and_list([safe(table.seats[s].name) for s in humans]) + ".")
    return _message(top, parts, picture, controls, _deadline(table), spec.colour,
                    accessories=accessories, pings=True, after=after, utility=utility)


def _ride(shown: Shown, extras: list[dict[str, Any]]) -> None:
    """The game's last words (a ledger, say) ride on the final table when they fit one
    message, so the end of a game costs the channel no extra call."""
    if not _fits(extras):
        return
    box = shown.layout.components[0]
    items: list[layout.Component] = []
    files: list[discord.File] = []
    for extra in extras:
        for embed in [extra["embed"]] if "embed" in extra else list(extra.get("embeds") or []):
            items += [layout.block(p) for p in embed_parts(embed)]
        for file in [extra["file"]] if "file" in extra else list(extra.get("files") or []):
            files.append(file)
            items.append(layout.file(file.filename))
    count, chars = layout.size(shown.layout.components + items)
    if count > layout.MAX_COMPONENTS or chars > layout.MAX_TEXT or len(files) > 9:
        return
    kept = box["components"]
    # after the game's blocks and picture, before the controls and the footer (a picture's
    # caption, a small line too, stays with its picture)
    rows = [i for i, c in enumerate(kept) if c["type"] == layout.ROW]
    footer = len(kept) - 1 if kept and kept[-1]["type"] == layout.TEXT and kept[-1]["content"].startswith("-# ") \
        else len(kept)
    at = rows[0] if rows else footer
    box["components"] = kept[:at] + items + kept[at:]
    shown.files = files


def private_message(moment: Moment, seat: int, *, notice: str | None = None, asking: bool = True) -> Shown:
    """One seat's own view: what they decide about, in words and as a picture, with its
    controls, and nothing of the table they do not need. ``asking=False``: what they hold,
    without the question (an old copy that can no longer answer it)."""
    spec, table = moment.spec, moment.table
    seen = moment.view(seat)
    top: list[str | None] = [notice]
    controls: list[layout.Component] = []
    picture = None
    if asking and moment.playing and not table.paused and seat in moment.acting:
        top.append(spec.prompt(table, seen, seat))
        controls = _actions(moment, seat, seen, PRIVATE_CONTROLS)
        picture = spec.private_picture(table, seat, seen) if moment.pictures else None
    elif table.paused:
        top.append("⏸ The game is paused.")
    parts = spec.private_parts(table, seat, seen)
    # a DM says which game and channel it belongs to: a player at two tables, or one opening
    # the DM later, would not know (the channel's name is a tap back to the table)
    footer = f"{spec.engine.title} in <#{table.channel_id}> · game #{table.id} · only you see this"
    return _message(top, parts, picture, controls, footer, spec.colour)


def _actions(moment: Moment, seat: int, seen: Any, room: int) -> list[layout.Component]:
    """A seat's choices: those the game groups ("Buy a card…") one menu each, above the rest;
    the rest buttons while they fit ``room`` controls, else menus of 25."""
    spec, table = moment.spec, moment.table
    actions = moment.legal(seat)
    gid = table.id or 0
    stamp = moment.stamp(seat)
    groups: dict[str, list[int]] = {}
    alone: list[int] = []
    for index, action in enumerate(actions):
        group = spec.action_group(seen, action)
        (alone if group is None else groups.setdefault(group, [])).append(index)
    for indices in groups.values():  # past what one menu holds, the rest are offered as ungrouped
        alone += indices[MENU_OPTIONS:]
        del indices[MENU_OPTIONS:]

    def label(index: int) -> str:
        return seat_names(table, spec.action_label(seen, actions[index]), plain=True)

    out = [ActionSelect.component(gid, seat, stamp, [_option(label(i), i, spec.action_description(seen, actions[i]))
                                                     for i in indices], clip(group, 150), page=row)
           for row, (group, indices) in enumerate(groups.items())]
    room -= len(out)
    if len(alone) <= min(room, MAX_BUTTONS):
        return out + [ActionButton.component(gid, seat, stamp, i, label(i), spec.action_style(seen, actions[i]))
                      for i in alone]
    menus = max(1, min(room, MENU_ROWS))
    pages = range(0, min(len(alone), MENU_OPTIONS * menus), MENU_OPTIONS)
    if len(alone) > MENU_OPTIONS * menus:
        log.warning("game %s offers %d choices; menus show the first %d", gid, len(alone), MENU_OPTIONS * menus)
    for start in pages:
        page = alone[start:start + MENU_OPTIONS]
        options = [_option(label(i), i) for i in page]
        placeholder = "Choose…" if len(pages) == 1 else clip(f"{options[0].label} … {options[-1].label}", 150)
        out.append(ActionSelect.component(gid, seat, stamp, options, placeholder, page=len(out)))
    return out


def _option(label: str, index: int, description: str | None = None) -> discord.SelectOption:
    """One choice in a menu: its value is its index among all the seat's choices."""
    return discord.SelectOption(label=clip(label, 100), value=str(index),
                                description=clip(description, 100) if description else None)


def _open_controls(moment: Moment, asked: list[int], parts: list[Part], room: int) -> tuple[
        list[layout.Component], dict[int, layout.Component], list[layout.Component], list[Part]]:
    """The choices made in the open. A choice that is one seat's alone sits beside that seat's
    block (its only one) or in a menu under it; choices the game groups ("Give…") are one menu;
    the rest, everyone's, are buttons below (a menu when more than fit), and the prompt says
    they are everyone's. ``room``: controls the table may still show."""
    spec, table, public = moment.spec, moment.table, moment.public
    gid = table.id or 0
    stamp = moment.open_stamp(asked)
    shared: list[tuple[int, Any]] = []
    groups: dict[str, list[tuple[int, Any]]] = {}
    own: dict[int, list[tuple[int, Any]]] = {}
    for index, action in enumerate(moment.shared):
        may = [s for s in asked if action in moment.legal(s)]
        group = spec.action_group(public, action)
        if group is not None:
            groups.setdefault(group, []).append((index, action))
        elif len(may) == 1 and len(asked) > 1:
            own.setdefault(may[0], []).append((index, action))
        else:
            shared.append((index, action))

    def label(action: Any) -> str:
        return clip(seat_names(table, spec.action_label(public, action), plain=True), 80)

    menus = iter(range(1, 100))

    def menu(choices: list[tuple[int, Any]], placeholder: str) -> layout.Component:
        options = [_option(label(a), i, spec.action_description(public, a)) for i, a in choices[:MENU_OPTIONS]]
        return OpenSelect.component(gid, stamp, options, clip(placeholder, 150), menu=next(menus))

    accessories: dict[int, layout.Component] = {}
    after: list[layout.Component] = []
    have = {p.seat for p in parts if p.seat is not None}
    parts = list(parts) + [Part(f"**{safe(table.seats[s].name)}**", seat=s) for s in own if s not in have]
    for seat, choices in own.items():
        if len(choices) == 1:
            index, action = choices[0]
            accessories[seat] = OpenButton.component(gid, stamp, index, label(action), spec.action_style(public, action))
        else:
            after += layout.rows([menu(choices, f"{table.seats[seat].name}: choose…")])
    controls: list[layout.Component] = [menu(choices, group) for group, choices in groups.items()]
    room -= len(accessories) + len(after) + len(controls)
    if len(shared) <= max(room, 0):
        controls += [OpenButton.component(gid, stamp, i, label(a), spec.action_style(public, a)) for i, a in shared]
    elif shared:
        controls.append(menu(shared, "Choose…"))
    return controls, accessories, after, parts


def standings_part(moment: Moment) -> tuple[Part, str]:
    """The final places, and the one line that names (and pings) the winners."""
    spec, table = moment.spec, moment.table
    outcomes = sorted(moment.engine.outcomes(moment.state), key=lambda o: (o.rank, o.seat))
    winners = [o.seat for o in outcomes if o.rank == 1]
    top = outcomes[0].score if outcomes else None
    points = f" with {spec.score_text(top, moment.public)}" if top is not None else ""
    who = [mention(table, s) for s in winners]
    if not who:
        line = "The game is over."
    elif len(who) == 1:
        line = f"🏆 {who[0]} wins{points}!"
    else:
        line = f"🏆 {and_list(who)} share the win{points}!"
    lines = [
        f"**{o.rank}.** {safe(table.seats[o.seat].name)}" + (f": {spec.score_text(o.score, moment.public)}" if o.score is not None else "")
        for o in outcomes
    ]
    return Part(clip("### Final standings\n" + "\n".join(lines), 1500)), line


def history_line(table: Table, chapter: str, story: str | None) -> str:
    """What an old table shrinks to once the next one is posted below it: one line, no pings,
    never empty."""
    heading = seat_names(table, chapter) if chapter else ""
    said = seat_names(table, story) if story else ""
    if heading and said:
        return clip(f"**{heading}** · {said}", 400)
    return clip(f"**{heading}**" if heading else said or "The game moved on.", 400)


def pages_message(moment: Moment, book: str, pages: list[Page], current: int) -> Shown:
    """Details or the rules: one page, one phone screen; the other pages a tap away."""
    current = max(0, min(current, len(pages) - 1))
    page = pages[current]
    gid = moment.table.id or 0
    controls: list[layout.Component] = []
    if len(pages) > 1:
        controls.append(PageSelect.component(gid, book, [p.title for p in pages], current))
    heading = f"### {safe(page.title)}" + (f"  ·  page {current + 1} of {len(pages)}" if len(pages) > 1 else "")
    return _message([heading], page.parts, page.picture, controls, None, moment.spec.colour)


#: a page of /game log's lines, and the turns or rounds it shows
_LogPage = tuple[list[str], list[str]]


def log_pages(entries: list[LogEntry], game_id: int, *, earlier: bool = False) -> list[Page]:
    """/game log: the moves under their turn or round, a phone screen a page. It opens on the
    latest moves, a full screen of them; the menu then has the whole game from its first move,
    in pages that keep their place while the game goes on, so turning them during play neither
    skips nor repeats a move. Past a menu's 25 pages the oldest are left out, and the first page
    shown says so (as it does when ``earlier`` moves were not even read)."""
    blocks: list[tuple[str, list[str]]] = []
    for entry in entries:
        for chapter, texts in entry.by_chapter():
            if not blocks or blocks[-1][0] != chapter:
                blocks.append((chapter, []))
            blocks[-1][1].extend(f"· {clip(text, 300)}" for text in texts)
    if not blocks:
        return [Page(f"Game #{game_id}", [Part("No moves yet.")])]
    pages = _log_from_the_first(blocks)
    kept = pages[-(MENU_OPTIONS - 1):]
    titles = [_log_title(chapters) for chapters, _ in kept]
    out, counted, seen = [], Counter(titles), Counter[str]()
    for title, (_, lines) in zip(titles, kept, strict=True):
        seen[title] += 1
        if lines and lines[0] == f"**{safe(title)}**":
            lines = lines[1:]  # a page of one turn: its title says which, once
        if counted[title] > 1:  # one long turn over several pages: the menu tells them apart
            title = f"{title} ({seen[title]} of {counted[title]})"
        out.append(Page(title, [Part("\n".join(lines)), Part(f"-# Game #{game_id}'s moves, oldest first")]))
    if len(pages) > len(kept) or earlier:
        out[0].parts.insert(0, Part("-# Older moves are not shown: these are the latest."))
    if len(pages) == 1 and not earlier:
        return out
    return [Page("Latest moves", [Part("\n".join(_log_latest(blocks))),
                                  Part(f"-# Game #{game_id} · the menu has every move, oldest first")])] + out


def _log_title(chapters: list[str]) -> str:
    named = [c for c in chapters if c]
    return _span(named[0], named[-1]) if len(set(named)) > 1 else named[0] if named else "Moves"


#: a chapter ending in a counted word: "Game 1 · Turn 18", "Tide 2 · Wave 3", "Round 4"
_COUNTED = re.compile(r"(.*?)([A-Z][a-z]+) (\d+)")


def _span(first: str, last: str) -> str:
    """Chapters from ``first`` to ``last``, said once where they share all but their number
    ("Game 1 · Turns 17–18"): a phone's line holds little, and the repeat says nothing."""
    a, b = _COUNTED.fullmatch(first), _COUNTED.fullmatch(last)
    if a and b and a[1] == b[1] and a[2] == b[2] and int(a[3]) < int(b[3]):
        return f"{a[1]}{a[2]}s {a[3]}–{b[3]}"
    return f"{first} to {last}"


def _log_from_the_first(blocks: list[tuple[str, list[str]]]) -> list[_LogPage]:
    """Pages filled from the first move on: a new move changes only the last page. A turn
    starts a page of its own unless it fits whole below the last; one split over two pages
    names itself again at the top of the second."""
    pages: list[_LogPage] = []

    def used() -> int:
        return _size(pages[-1][1]) if pages else LOG_PAGE

    for chapter, lines in blocks:
        heading = f"**{safe(chapter)}**" if chapter else ""
        size = _size(lines) + len(heading) + 1
        if used() + size > LOG_PAGE and (size <= LOG_PAGE // 2 or used() > LOG_PAGE // 2):
            pages.append(([], []))
        pages[-1][0].append(chapter)
        if heading:
            pages[-1][1].append(heading)
        for line in lines:
            if used() + len(line) > LOG_PAGE and len(pages[-1][1]) > 1:
                pages.append(([chapter], [f"{heading} (continued)"] if heading else []))
            pages[-1][1].append(line)
    return pages


def _log_latest(blocks: list[tuple[str, list[str]]]) -> list[str]:
    """The latest moves, a phone screen of them, filled back from the newest: whole turns, and
    the oldest cut at a line (named as going on) only where whole turns would fill less than
    half the screen."""
    lines: list[str] = []
    for chapter, moves in reversed(blocks):
        heading = f"**{safe(chapter)}**" if chapter else ""
        left = LOG_PAGE - _size(lines) - len(heading)
        if lines and _size(moves) > left and _size(lines) > LOG_PAGE // 2:
            break  # the screen is full enough without a turn cut short
        taken: list[str] = []
        for line in reversed(moves):
            if (lines or taken) and _size(taken) + len(line) > left - len(" (continued)") - 1:
                break
            taken.insert(0, line)
        if moves and not taken:
            break  # not a line more fits
        whole = len(taken) == len(moves)
        lines[:0] = ([heading if whole else f"{heading} (continued)"] if heading else []) + taken
        if not whole:
            break
    return lines


def _size(lines: list[str]) -> int:
    """Characters of lines as one text."""
    return sum(len(line) + 1 for line in lines)


def details_pages(moment: Moment, seat: int | None, recent: list[str]) -> list[Page]:
    """Details for whoever asks (``seat``: theirs, None for a spectator): their own view where
    the game has secrets, else the public one, and their seat, so their sheet comes first."""
    seen = moment.view(seat) if moment.engine.has_private_view() else moment.public
    pages = moment.spec.details_pages(moment.table, seen, seat)
    if recent:
        pages.append(Page("Latest moves", [Part(clip("\n".join(f"· {line}" for line in recent), 1500)),
                                           Part("-# /game log has the whole game, newest last")]))
    return pages[:25] or [Page("Details", [Part("Nothing more to show.")])]
