"""Bare Bones in the words a new player reads once: cards, dice, money, piles and the sheet.

Every figure is said in full ("3 coins", "2 Action Units", "worth 4 at the end"), never as a
code to learn ("3c", "2 AU", "FPV"); a Dice Card says its die, not only its colour.
"""

from __future__ import annotations

from rules.base import counted
from collections import Counter

from bot.models import Table
from bot.render import clip, safe
from rules import bare_bones as bb

#: what a stage of the turn is called on the table
STAGE_WORDS = {
    "match": "bonus match",
    "play": "playing cards",
    "dice": "rolling",
    "reroll": "re-rolling",
    "score": "scoring",
    "buy": "buying",
    "potato": "Hot Potato",
}


def short(name: str) -> str:
    """'Blue Dice Card' reads as 'Blue' wherever the context says it is a Dice Card."""
    return name.removesuffix(" Dice Card")


def coins(n: int) -> str:
    return counted(n, "coin")


def cards(n: int) -> str:
    return counted(n, "card")


def grouped(names: list[str]) -> str:
    """Cards as 'Blue ×2, Greed', in the order first seen."""
    counts = Counter(names)
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in counts.items())


def die_word(die: bb.DieView) -> str:
    return f"~~{die.name} {die.value}~~ blocked" if die.blocked else f"{die.name} {die.value}"


def dice_words(turn: bb.TurnView) -> str:
    """The dice in the picture's order, left to right; that White pays coins is said once."""
    said = ", ".join(die_word(d) for d in turn.dice)
    if any(d.currency == "coins" and not d.blocked for d in turn.dice):
        said += " (White pays coins)"
    return said


def plain_dice(turn: bb.TurnView) -> str:
    """The picture's facts for screen readers: every die, White counted as coins."""
    parts = []
    for d in turn.dice:
        what = "coins" if d.currency == "coins" else "points"
        parts.append(f"{d.name} {d.value} ({what}{', blocked' if d.blocked else ''})")
    return "Dice rolled: " + ", ".join(parts) + "."


def played_name(p: bb.PlayedView) -> str:
    name = short(p.card.name)
    if p.mimics:
        name = f"Mimic (as {p.mimics.capitalize()})"
    if p.how == "borrowed":
        name += " (borrowed)"
    return name


def in_play(turn: bb.TurnView) -> str:
    return grouped([played_name(p) for p in turn.play])


#: what a Dice Card does besides rolling its die, in a few words
ABILITY_WORDS = {
    "red_draw": "every 2 Red played: you may draw 1",
    "green_reroll": "you may re-roll all Green dice once",
    "purple_choice": "or roll a Blue and a Red die instead",
}


def faces(colour: str) -> str:
    """A die's six faces, "1-1-1-2-3-4"."""
    return "-".join(str(f) for f in next(c.faces for c in bb.DICE.colours if c.key == colour))


def dice_card_words(colour: str) -> str:
    """A Dice Card in a few words: its die, and what else it does ("die 2-3-3-3-4-5, pays coins")."""
    said = f"die {faces(colour)}"
    if any(c.key == colour and c.currency == "coins" for c in bb.DICE.colours):
        said += ", pays coins"
    ability = bb.DICE_CARDS[colour].ability
    return said + (f"; {ABILITY_WORDS[ability]}" if ability in ABILITY_WORDS else "")


def latest_reveals(turn: bb.TurnView) -> list[bb.RevealView]:
    """Each revealed hand once, as last shown (a second Joyride shows the same hand again)."""
    return list({r.seat: r for r in turn.reveals}.values())


def card_line(card: bb.CardView | bb.StackView, count: int = 1, *, price: bool = False,
              worth: bool = False, cost: bool = True, brief: bool = False) -> str:
    """One card and what it does: "**Blue** ×2: die 1-1-1-2-3-4". ``cost``: what an Action
    costs to play; ``price``: what it costs to buy; ``worth``: what it adds at the end;
    ``brief``: an Action's key effect only, where many cards must fit one screen."""
    about = []
    if price:
        about.append(coins(card.cost))
    if card.au and cost:
        about.append(bb.units(card.au))
    if worth and card.fpv:
        about.append(f"worth {card.fpv} at the end")
    head = f"**{short(card.name)}**" + (f" ×{count}" if count > 1 else "") + (f" ({', '.join(about)})" if about else "")
    colour = card.kind if card.dice else None
    said = card.brief if brief and isinstance(card, bb.StackView) else ""
    return f"{head}: {dice_card_words(colour) if colour else said or card.short}"


def offer_words(stack: bb.StackView) -> str:
    """A card on offer in a few words, its price first (a menu's second line, which a phone may
    cut short): a Dice Card's die and what it is worth at the end, an Action's Action Units and
    key effect."""
    if not stack.dice:
        return f"{coins(stack.cost)}, {bb.units(stack.au)}: {stack.brief or stack.short}"
    die, _, ability = dice_card_words(stack.kind).partition("; ")
    worth = f", worth {stack.fpv} at the end" if stack.fpv else ""
    return f"{coins(stack.cost)}: {die}{worth}" + (f"; {ability}" if ability else "")


def hand_lines(hand: list[bb.CardView], *, cost: bool = True) -> list[str]:
    """A hand, one line a kind of card, what each does (``cost``: and what an Action costs to
    play, which its Play button says while it can be played)."""
    counts = Counter(c.key for c in hand)
    first = {}
    for c in hand:
        first.setdefault(c.key, c)
    return [card_line(first[k], n, cost=cost) for k, n in counts.items()]


def turn_money(turn: bb.TurnView) -> str:
    """This turn's points and coins as they stand, with the coins' sources when there are any
    besides the dice."""
    if turn.score is None:
        return ""
    said = f"**{counted(turn.score.points, 'point')}** and **{coins(turn.score.coins)}**"
    if turn.score.conversion:
        said += f" ({turn.score.conversion.replace('_', ' ').title()})"
    extra = [f"{n} {how}" for n, how in ((turn.carry_in, "carried in"), (turn.sold, "from a sale"),
                                          (turn.loaned, "borrowed")) if n]
    if extra:
        said += f", plus {', '.join(extra)}"
    if turn.repaid:
        said += f"; {coins(turn.repaid)} repaid"
    if turn.stage in ("buy", "potato") or turn.spent:
        said += f"; {coins(turn.coins_left)} left to spend"
    return said


def kind_name(view: bb.BareBonesView, kind: str) -> str:
    """A Supply stack's card name ("Red Dice Card", "Can't Touch This") from its kind."""
    return next((s.name for s in view.supply if s.kind == kind), kind.replace("_", " ").title())


def names_of(table: Table) -> list[str]:
    """The players' names for the scoresheet's grid: inside a code block markdown shows as
    typed, so only a backtick, which could close the block, is changed."""
    return [s.name.replace("`", "'") for s in table.seats]


def name_of(table: Table, seat: int, width: int = 20) -> str:
    return safe(clip(table.seats[seat].name, width))


def player_line(table: Table, view: bb.BareBonesView, p: bb.PlayerView) -> str:
    """One line a player: who acts (▸), score, draw pile, hand, and the debts."""
    mark = "▸ " if view.current == p.seat else ""
    extra = [f"draw pile {p.draw_size}", f"hand {p.hand_size}"]
    if p.loan:
        extra.append(f"owes {coins(p.loan)}")
    if p.carry:
        extra.append(f"carries {coins(p.carry)}")
    if p.hot_potatoes:
        extra.append(f"{p.hot_potatoes} Hot Potato{'es' if p.hot_potatoes > 1 else ''}")
    return f"{mark}**{name_of(table, p.seat)}** {counted(p.score, 'point')} · " + ", ".join(extra)


def ordered_players(view: bb.BareBonesView) -> list[bb.PlayerView]:
    by_seat = {p.seat: p for p in view.players}
    return [by_seat[s] for s in view.order]


def order_words(table: Table, view: bb.BareBonesView) -> str:
    """Why the play order is what it is, as the rulebook decides it: everyone's total of the 4
    Blue dice, highest first, and any roll-off of the tied ("Bot 1 rolled 11, Ann 8, Bob 5")."""
    said = []
    for n, totals in enumerate(view.order_rolls):
        rolled = sorted(((t, s) for s, t in enumerate(totals) if t is not None), key=lambda x: (-x[0], x[1]))
        each = ", ".join(f"{name_of(table, s)} {t}" for t, s in rolled)
        if n == 0:
            said.append(f"{name_of(table, rolled[0][1])} rolled {rolled[0][0]}" + "".join(
                f", {name_of(table, s)} {t}" for t, s in rolled[1:]))
        else:
            said.append(f"tied, they rolled again: {each}")
    return "**Who plays first** (4 Blue dice each, highest total): " + "; ".join(said) + "."


def block_line(table: Table, b: bb.BlockView) -> str:
    return f"🚫 {name_of(table, b.owner)}'s {b.card} blocks every {b.value} until their next turn."


# -- the scoresheet -------------------------------------------------------------------------------

#: what the rows under the rounds mean, said under a finished sheet
SHEET_KEY = (f"**Cards**: the final value of every card owned. **Less**: {bb.HOT_POTATO_PENALTY} "
             f"a Hot Potato, {bb.LOAN_PENALTY} a coin still owed.")
#: what a cell of the full sheet says
CELL_KEY = "Each cell: that round's points / the running total."


def _final_rows(view: bb.BareBonesView, seats: list[int], label: int, width: int) -> list[str]:
    """The end of the sheet: each deck's final values, the deductions, the totals."""
    finals = {f.seat: f for f in view.finals}
    if not finals:
        return []
    rows = ["Cards".ljust(label) + "".join(f"+{finals[n].fpv}".ljust(width) for n in seats)]
    if any(f.potatoes or f.loan for f in finals.values()):
        rows.append("Less".ljust(label) + "".join(
            (f"-{finals[n].deducted}" if finals[n].potatoes or finals[n].loan else "").ljust(width)
            for n in seats))
    rows.append("Total".ljust(label) + "".join(str(finals[n].total).ljust(width) for n in seats))
    return rows


def _width(cells: list[str], least: int) -> int:
    """A column wide enough for its longest cell and a space: a big loss never runs into the
    next column."""
    return max([least] + [len(c) + 1 for c in cells])


def sheet_compact(view: bb.BareBonesView, names: list[str]) -> str:
    """The final scoresheet small enough for the final table: running totals by round, then
    the cards' final values, deductions and totals."""
    label = 6
    seats = list(view.order)
    columns = {c.seat: c for c in view.sheet}
    totals = {(n, x.round): str(x.total) for n in seats for x in columns[n].rows}
    width = _width(list(totals.values()) + [str(f.total) for f in view.finals], 7)
    lines = ["Round".ljust(label) + "".join(names[n][: width - 1].ljust(width) for n in seats)]
    for r in range(1, bb.ROUNDS + 1):
        lines.append(str(r).ljust(label) + "".join(totals.get((n, r), "").ljust(width) for n in seats))
    lines += _final_rows(view, seats, label, width)
    return "\n".join(line.rstrip() for line in lines)


def scoresheet(view: bb.BareBonesView, names: list[str]) -> str:
    """The rulebook's scoresheet as a grid narrow enough for a phone with four players: each
    cell is the round's points and the running total ("12/51")."""
    label = 6
    seats = list(view.order)
    columns = {c.seat: c for c in view.sheet}
    cells = {(n, x.round): f"{x.points}/{x.total}" for n in seats for x in columns[n].rows}
    width = _width(list(cells.values()), 8)
    lines = ["Round".ljust(label) + "".join(names[n][: width - 1].ljust(width) for n in seats)]
    for r in range(1, bb.ROUNDS + 1):
        if any((n, r) in cells for n in seats):
            lines.append(str(r).ljust(label) + "".join(cells.get((n, r), "").ljust(width) for n in seats))
    lines += _final_rows(view, seats, label, width)
    grid = "\n".join(line.rstrip() for line in lines)
    return f"```\n{grid}\n```"


def sheet_notes(view: bb.BareBonesView, names: list[str]) -> list[str]:
    """The coin notes of the sheet (carried by Keep the Change, borrowed with Loan Shark) and
    the points lost for loans, by round."""
    notes = []
    for n in view.order:
        for row in next(c for c in view.sheet if c.seat == n).rows:
            said = [f"{coins(abs(int(x)))} {'carried' if x.startswith('+') else 'borrowed'}" for x in row.notes]
            if row.penalty:
                said.append(f"-{counted(row.penalty, 'point')} for a loan still owed")
            if said:
                notes.append((row.round, f"Round {row.round}: {safe(names[n])} " + ", ".join(said)))
    return [line for _, line in sorted(notes, key=lambda x: x[0])]
