"""Details and the rules, a phone screen a page.

Details opens on what matters now: this turn's bet worked out step by step beside its picture,
the Mutiny, the Tide-rise choices or, at the end, the ledger; your own purse heads it. Every
purse, the turn before and what the picture's marks mean are a tap away. The rules open on How
to play (one screen), then the full rules a section a page, then the game's words.
"""

from __future__ import annotations

from bot.games import Page, Part, split_screens
from bot.models import Table
from bot.pictures import Picture
from cogs.stones_and_bones.lines import (
    ledger_lines,
    mutiny_lines,
    pirate_line,
    purse_line,
    seat_name,
    turn_lines,
)
from rules import stones_and_bones as sb
from rules.stones_and_bones import money, signed_money

TAVERN_MODE = ("**Tavern mode** (`/stones-and-bones …`): `new gm_mode:True` runs the table without "
               "a seat, `npc` seats a named NPC, `stake` sets a seat's purse (where purses are set, a "
               "bot never buys in, and a rematch brings each purse on as it was taken home); `/game "
               "pause`, `/game resume`; a ledger (on the final table, and as a CSV file) at the end.")
LEGEND = ("Each Bone costs 1 cp (copper: 1–5), 1 sp (silver: 6–10) or 1 gp (gold: 11–20).\n"
          "**Ill Omens**: matching Bones multiply their coin. **Bane**: a 20 doubles the bet. "
          "**Blessing**: a 1 gives two Stones.\n"
          "In the picture: a purple ring marks a matching Bone and ×2 a Bane; green rings a Crossbones "
          "or a floating Stone, gold a Captain's Luck; a faded Stone is still to be thrown, or lies on "
          "the table to be Pilfered.")


def _text(lines: list[str]) -> Part:
    return Part("\n".join(lines))


def _turn_page(table: Table, turn: sb.TurnView, title: str, picture: Picture | None = None) -> Page:
    return Page(title, [_text(turn_lines(table, turn))], picture)


def _purses(table: Table, view: sb.StonesAndBonesView) -> Page:
    lines = [pirate_line(table, p) for p in view.pirates]
    lines.append("")
    lines.append(f"Coffer {view.coffer_text} · ante {money(view.ante)} · every bet × {view.tide} · a bet "
                 f"averages {money(view.expected_bet)} at this Tide")
    if view.carry:
        lines.append(f"Grumbles money waiting for the next coffer: {money(view.carry)}")
    if view.table_stone is not None:
        lines.append(f"On the table: {seat_name(table, view.table_stone.owner)}'s Stone "
                     f"`{view.table_stone.value}` (may be Pilfered)")
    return Page("Purses", [_text(lines)])


def _tide_choices(table: Table, view: sb.StonesAndBonesView) -> Page:
    rows = []
    for c in view.tide_choices:
        if view.pirates[c.seat].status != "afloat" and not c.chosen:
            continue
        if c.choice:
            shown = f"buy in {money(c.amount or 0)}" if c.choice == "buy" else {
                "stay": "stay", "heave": "Heave Down", "end": "vote to end"}.get(c.choice, c.choice)
        else:
            shown = "✅ chosen (sealed)" if c.chosen else "⏳ still choosing"
        rows.append(f"{seat_name(table, c.seat)}: {shown}")
    return Page("Tide-rise choices", [_text(rows)])


def details_pages(table: Table, view: sb.StonesAndBonesView, seat: int | None,
                  picture: Picture | None) -> list[Page]:
    """Details, most pressing first. ``picture`` is the throw the table shows, if any: it goes
    beside the bet it sets."""
    turn, m = view.turn, view.mutiny
    now: list[Page] = []
    rest: list[Page] = []
    if view.over:
        rows = view.ledger
        now.append(Page("The ledger", [_text(ledger_lines(table, rows) + [
            "", f"Every copper accounted for: the nets sum to {signed_money(sum(r.net for r in rows))}."])]))
    if view.phase == "tide" or view.tide_choices:
        (now if view.phase == "tide" else rest).append(_tide_choices(table, view))
    if m is not None:
        (now if view.phase not in ("turn", "grumble", "object") else rest).append(
            Page("The Mutiny", [_text(mutiny_lines(table, m))]))
    if turn is not None:
        pending = turn.result == "pending"
        title = "This turn" if pending else "The last turn"
        page = _turn_page(table, turn, title, picture)
        (now if view.phase in ("turn", "grumble", "object", "anchor") else rest).append(page)
        if pending and view.last_turn is not None:
            rest.append(_turn_page(table, view.last_turn, "The turn before"))
    pages = now + [_purses(table, view)] + rest
    pages.append(Page("Reading the Bones", [Part(LEGEND)]))
    if seat is not None and not view.over:  # your own purse heads the first page
        first = pages[0]
        pages[0] = Page(first.title, [Part(purse_line(view.pirates[seat])), *first.parts], first.picture)
    return pages


def rules_pages(options: sb.StonesAndBonesOptions) -> list[Page]:
    """How to play on one screen; the full rules a section a page; the game's words."""
    pages = [Page("How to play", [Part(sb.how_to_play(options))])]
    for title, text in [*sb.rules_sections(options), ("Tavern mode", TAVERN_MODE)]:
        for n, screen in enumerate(split_screens(text)):
            pages.append(Page(title if n == 0 else f"{title} (more)", [Part(screen)]))
    words = "\n".join(f"**{word}**: {meaning}." for word, meaning in sb.glossary(options))
    screens = split_screens(words.replace("\n", "\n\n")) if len(words) > 900 else [words]
    for n, screen in enumerate(screens):
        pages.append(Page("Words" if n == 0 else f"Words ({n + 1})", [Part(screen.replace("\n\n", "\n"))]))
    return pages
