"""Bare Bones behind Details and the rules, a phone screen a page.

Details opens on what matters now: this turn (or the Draft, or the final sheet) with everyone's
score; then the scoresheet, your own cards, and the Supply with what every card does. The rules
open on How to play, one screen; the full rules follow a section or two a page, and the last
page explains the game's own words.
"""

from __future__ import annotations

from collections import Counter

from bot.games import SCREEN, Page, Part
from bot.models import Table
from cogs.bare_bones.table import stage_words, turn_lines
from cogs.bare_bones.words import (
    CELL_KEY,
    SHEET_KEY,
    block_line,
    card_line,
    grouped,
    hand_lines,
    name_of,
    names_of,
    order_words,
    ordered_players,
    player_line,
    scoresheet,
    sheet_notes,
    short,
)
from rules import bare_bones as bb

#: how the game is played through Discord, after the rules
IN_DISCORD = ("Every decision in Bare Bones is its player's own: your hand and its buttons come by DM. "
              "If I cannot DM you, the table asks you to press **My hand**. **Details** on the table shows "
              "the scoresheet, your cards and what every card in the Supply does.\n"
              "**Tavern mode** (`/bare-bones …`): `new gm_mode:True` runs the table without a seat, `npc` "
              "seats a named bot player.")


def details_pages(table: Table, view: bb.BareBonesView, seat: int | None) -> list[Page]:
    names = names_of(table)
    key = CELL_KEY + (f" {SHEET_KEY}" if view.finals else "")
    sheet = [Page("Scoresheet", [Part(scoresheet(view, names)), Part(key), Part(
        "**Play order**: " + ", ".join(f"{i + 1}. {name_of(table, s)}" for i, s in enumerate(view.order)))])]
    notes = sheet_notes(view, names)
    if notes:  # the newest that fit a screen
        while len("\n".join(notes)) > SCREEN:
            notes.pop(0)
        sheet.append(Page("Coins carried and borrowed", [Part("\n".join(notes))]))
    if view.over:
        pages = sheet
    elif view.draft is not None:
        pages = [_draft(table, view), *sheet]
    else:
        pages = [_now(table, view), *sheet]
    if view.me is not None:
        pages.append(_mine(view.me))
    return pages + _supply(view)


def _now(table: Table, view: bb.BareBonesView) -> Page:
    lines = []
    turn = view.turn
    if turn is not None:
        lines.append(f"**{name_of(table, turn.seat)}'s turn**: {stage_words(view, turn)}")
        lines += turn_lines(table, view, turn)
        if turn.score is not None:
            lines.append(f"How: {turn.score.working}")
    lines += [block_line(table, b) for b in view.blocks]
    parts = [Part("\n".join(lines))] if lines else []
    parts.append(Part("\n".join(player_line(table, view, p) for p in ordered_players(view))))
    if view.me is not None:
        parts.append(Part("**Your hand**: " + (grouped([short(c.name) for c in view.me.hand]) or "empty")
                          + ". **Your cards** says what each does."))
    return Page(f"Round {view.round} of {view.rounds}", parts)


def _draft(table: Table, view: bb.BareBonesView) -> Page:
    draft = view.draft
    assert draft is not None
    picks: dict[int, list[str]] = {}
    for s, name in draft.picks:
        picks.setdefault(s, []).append(short(name))
    lines = [f"**{name_of(table, draft.drafter)}** picks now (pick {draft.pick} of {draft.picks_total})."]
    lines += [f"**{name_of(table, s)}** drafted: {', '.join(picks.get(s, [])) or 'nothing yet'}" for s in view.order]
    lines.append(order_words(table, view))
    offered = [short(s.name) for s in view.supply if s.draftable and s.count]
    return Page("The Draft", [Part("\n".join(lines)), Part(
        f"**The cards you may draft**: {', '.join(offered)}. The Supply pages say what each does.")])


def _mine(me: bb.PrivateView) -> Page:
    parts = [Part("**Your hand**\n" + "\n".join(hand_lines(me.hand)) if me.hand else "Your hand is empty.")]
    parts.append(Part("**Discard pile** (newest first): "
                      + (grouped([short(c.name) for c in reversed(me.discard)]) or "empty")
                      + f"\n**Draw pile**: {me.draw_size} cards, order unknown"))
    owned = Counter({short(n): c for n, c in me.owned.items()})
    parts.append(Part(f"**Every card you own** ({sum(owned.values())}): "
                      + ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in owned.items())))
    return Page("Your cards", parts)


def _stack(s: bb.StackView) -> str:
    left = f"{s.count} left" if s.count else "none left"
    if s.versions:
        left += " (" + ", ".join(v.capitalize() for v in s.versions) + ")"
    return f"{card_line(s, price=True, worth=True)} *{left}.*"


def _supply(view: bb.BareBonesView) -> list[Page]:
    dice = [s for s in view.supply if s.dice]
    actions = [s for s in view.supply if not s.dice]
    return [Page("Supply: Dice Cards", [Part("\n".join(_stack(s) for s in dice))]),
            Page("Supply: Actions", [Part("\n".join(_stack(s) for s in actions))])]


#: what a phone shows of a page of the rules without scrolling
RULES_PAGE = 700


def _screens(title: str, text: str) -> list[tuple[str, str]]:
    """A section longer than a phone screen cut at line ends: "Dice Cards", then "Dice Cards
    (more)"."""
    pieces: list[str] = []
    for line in text.split("\n"):
        if pieces and len(pieces[-1]) + 1 + len(line) <= RULES_PAGE:
            pieces[-1] += "\n" + line
        else:
            pieces.append(line)
    return [(title if i == 0 else f"{title} (more)", piece) for i, piece in enumerate(pieces)]


def rules_pages(options: bb.BareBonesOptions) -> list[Page]:
    """How to play, then the rules a page of about one phone screen each (short sections share
    a page, long ones go on over two), then the game's words."""
    pages = [Page("How to play", [Part(bb.how_to_play(options))])]
    # a page's first section is named by the page's title, the ones after it by their own
    shared: list[tuple[list[str], list[str]]] = []
    sections = bb.rules_sections(options) + [("Playing in Discord", IN_DISCORD)]
    for title, text in [screen for section in sections for screen in _screens(*section)]:
        last = shared[-1] if shared else None
        if last is not None and sum(len(b) for b in last[1]) + len(title) + len(text) <= RULES_PAGE:
            last[0].append(title)
            last[1].append(f"**{title}**\n{text}")
        else:
            shared.append(([title], [text]))
    pages += [Page(", ".join(titles), [Part(b) for b in blocks]) for titles, blocks in shared]
    pages += [Page(title, [Part(text)]) for title, text in _screens("Words", bb.glossary())]
    return pages
