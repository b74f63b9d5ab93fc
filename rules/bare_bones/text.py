"""Bare Bones in words: the question a seat is asked, button labels, the scoresheet, the rules.

Labels and the scoresheet read only a view, so a cog can word its controls without the state.
Seats are "Seat N" (the host puts names in).
"""

from __future__ import annotations

from rules.base import seat_name
from rules.bare_bones.cards import ACTIONS, BY_KEY, SUGGESTED, card_text, colour_name
from rules.bare_bones.models import (
    AU_LIMIT,
    DICE_CAP,
    HAND_SIZE,
    HOT_POTATO_PENALTY,
    LOAN_PENALTY,
    ROUNDS,
    BareBonesAction,
    BareBonesOptions,
    BareBonesView,
    PendingKind,
)

LABEL_LIMIT = 80


def _who(seat: int) -> str:
    return seat_name(seat)


def _clip(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


# -- the question asked ---------------------------------------------------------------------------


def pending_prompt(kind: PendingKind, seat: int, target: int | None, value: int) -> str:
    """What the seat to act is being asked, in words that name nothing hidden (``target``: the
    opponent Joyride chose; ``value``: what Swap Meet's returned cards are worth)."""
    me = _who(seat)
    return {
        "mimic": f"{me} chooses the Dice Card in play their Mimic copies.",
        "joyride_seat": f"{me} chooses the opponent to Joyride.",
        "joyride_card": f"{me} chooses which of {_who(target or 0)}'s Dice Cards to borrow.",
        "loan": f"{me} declares how many coins to borrow (Loan Shark).",
        "yard_sale": f"{me} chooses a card from their hand to sell to the Supply (Yard Sale).",
        "swap_give": f"{me} returns cards from their hand to the Supply (Swap Meet), then takes one.",
        "swap_take": f"{me} takes a card costing up to {value} from the Supply (Swap Meet).",
        "double_up": f"{me} chooses a Dice Card to roll 2 dice for (Double Up).",
        "purple": f"{me} rolls a Purple die, or a Blue and a Red die, for a Purple Dice Card.",
        "leave_out": f"{me} may roll {DICE_CAP} dice at most: which die is left out?",
        "full_house": f"{me} picks the dice to roll again (Full House's second roll).",
        "pattern": f"{me} chooses how to score the roll.",
        "potato": f"{me} sends the Hot Potato: their own discard pile or an opponent's draw pile.",
    }[kind]


# -- labels ---------------------------------------------------------------------------------------


def _die(view: BareBonesView, index: int | None) -> str:
    if view.turn is None or index is None or not 0 <= index < len(view.turn.dice):
        return "a die"
    d = view.turn.dice[index]
    return f"{d.name} {d.value} (die {index + 1})"


def action_label(view: BareBonesView, action: BareBonesAction) -> str:
    """A button label (at most 80 characters) for one legal action."""
    k = action.kind
    card = BY_KEY.get(action.card or "")
    colour = colour_name(action.colour) if action.colour else ""
    if k == "draft" and card:
        return _clip(f"Draft {card.name} ({_coins(card.cost)})")
    if k == "match":
        return _clip(f"Bonus match {colour} (draw 1 more)")
    if k == "no_match":
        return "Done matching" if view.turn and view.turn.matched else "No bonus match"
    if k == "play" and card:
        return _clip(f"Play {card.name}" + (f" ({card.au} AU)" if card.au else ""))
    if k == "red_draw":
        return "Draw 1 card (2 Red Dice Cards)"
    if k == "roll":
        return "Done playing: roll the dice"
    if k == "mimic":
        return _clip(f"Mimic a {colour} Dice Card")
    if k == "joyride_seat":
        return _clip(f"Joyride {_who(action.seat or 0)}")
    if k == "joyride_card":
        return _clip(f"Borrow their {colour} Dice Card")
    if k == "loan":
        return f"Borrow {_coins(action.amount or 0)}" if action.amount else "Borrow nothing"
    if k == "sell" and card:
        return _clip(f"Sell {card.name} for {_coins(max(0, card.cost - 1))}")
    if k == "swap_give" and card:
        return _clip(f"Return {card.name} ({card.cost})")
    if k == "swap_done":
        value = view.pending.value if view.pending else 0
        return _clip(f"Done returning: take a card costing up to {value}")
    if k == "swap_take" and card:
        return _clip(f"Take {card.name} ({_coins(card.cost)})")
    if k == "double_up":
        return _clip(f"Double Up: 2 dice for a {colour} Dice Card")
    if k == "purple":
        return "Roll a Purple die" if action.choice == "purple" else "Roll a Blue and a Red die"
    if k == "leave_out":
        return _clip(f"Leave out a {colour} die")
    if k == "green":
        return "Re-roll all Green dice"
    if k == "reroll":
        return _clip(f"Re-roll {_die(view, action.die)}")
    if k == "full_house":
        return "Full House: second roll"
    if k == "fh_mark":
        return _clip(f"Roll again: {_die(view, action.die)}")
    if k == "fh_roll":
        marked = len(view.pending.marked) if view.pending else 0
        if not marked:
            return "Keep these dice (no second roll)"
        return "Roll the chosen die again" if marked == 1 else f"Roll the {marked} chosen dice again"
    if k == "rerolls_done":
        return "Done re-rolling: score"
    if k == "pattern":
        if view.pending is None or action.index is None or action.index >= len(view.pending.options):
            return "Score"
        o = view.pending.options[action.index]
        result = f" → {o.points} pts, {_coins(o.coins)}"
        words = o.label[: LABEL_LIMIT - len(result)]
        return _clip(words[:1].upper() + words[1:] + result)
    if k == "buy" and card:
        return _clip(f"Buy {card.name} ({_coins(card.cost)})")
    if k == "buy_done":
        left = view.turn.coins_left if view.turn else 0
        if not left:
            return "Done buying"
        fate = "kept" if view.turn and view.turn.keep_change else "lost"
        return _clip(f"Done buying ({_coins(left)} {fate})")
    if k == "potato":
        if action.seat is None or action.seat < 0:
            return "Keep the Hot Potato (my discard pile)"
        return _clip(f"Hot Potato onto {_who(action.seat)}'s draw pile")
    return k


# -- the scoresheet -------------------------------------------------------------------------------


def scoresheet_lines(view: BareBonesView, names: list[str] | None = None) -> list[str]:
    """The rulebook's scoresheet as monospace rows: a round's points, the running total and
    the coin notes (+ carried by Keep the Change, − borrowed with Loan Shark); at the end the
    FPV line, any Hot Potato and loan deductions, and the total."""
    width = 14
    names = names or [_who(n) for n in range(view.seats)]
    seats = list(view.order)
    head = "Rnd   " + "".join(names[n][: width - 1].ljust(width) for n in seats)
    lines = [head.rstrip()]
    columns = {c.seat: c for c in view.sheet}
    for r in range(1, ROUNDS + 1):
        cells = []
        for n in seats:
            row = next((x for x in columns[n].rows if x.round == r), None)
            if row is None:
                cells.append("".ljust(width))
                continue
            note = (" " + " ".join(row.notes)) if row.notes else ""
            cells.append(f"{row.points} {row.total}{note}".ljust(width))
        if any(c.strip() for c in cells):
            lines.append((f"{r:<6}" + "".join(cells)).rstrip())
    finals = {f.seat: f for f in view.finals}
    if finals:
        lines.append(("FPV   " + "".join(f"+ {finals[n].fpv}".ljust(width) for n in seats)).rstrip())
        if any(f.potatoes or f.loan for f in finals.values()):
            lines.append(("Less  " + "".join(
                (f"- {finals[n].deducted}" if finals[n].potatoes or finals[n].loan else "").ljust(width)
                for n in seats)).rstrip())
        lines.append(("Total " + "".join(str(finals[n].total).ljust(width) for n in seats)).rstrip())
    return lines


# -- the rules ------------------------------------------------------------------------------------


def _set_name(options: BareBonesOptions) -> str:
    if options.action_set == "random":
        return "7 drawn at random at the start"
    if options.action_set == "custom":
        return "custom"
    return SUGGESTED[options.action_set].name


def rules_summary(options: BareBonesOptions | None = None) -> str:
    """The rules in words, the house rulings and the options in force (Markdown, under 4,096
    characters so it fits one embed)."""
    o = options or BareBonesOptions()
    keys = o.fixed_set()
    if keys is None:
        actions = "drawn at random when the game starts (shown on the table)."
    else:
        actions = "; ".join(f"**{ACTIONS[k].name}** {ACTIONS[k].cost}c/{ACTIONS[k].au} AU"
                            for k in keys) + "."
    white = "Blue, Red, Green or White" if o.draft_white else "Blue, Red or Green"
    dice_limit = ("4 dice of each colour exist; a die on Can't Touch This is out of play; dice "
                  "beyond those are simply not rolled" if o.dice_limit == "physical"
                  else "dice are not limited to 4 a colour")
    run = "any set of separate runs" if o.run_multiple else "one run"
    return f"""**Bare Bones**: build a deck, roll the dice it gives you. 2-4 players, {ROUNDS} rounds.

**Setup** Blue-dice roll-off for Player 1 (ties roll again). Everyone gets 3 Blue and 4 White Dice Cards, then **drafts** 3 more, one at a time in turn: cards costing 6 or less ({white} Dice Cards, cheap Actions). Shuffle, draw {HAND_SIZE}.
**Dice** Blue 1-1-1-2-3-4 · Red 1-2-3-3-4-5 · Green 2-2-2-5-5-5 · Yellow 2-4-4-4-4-6 · Purple 4-4-5-5-6-6 · Black 5-5-6-6-6-6 · White 2-3-3-3-4-5 (**coins**, not points).
**Dice Cards** (cost/final value) Blue 4/+2 · Red 5/+3, draw 1 per 2 Reds played · Green 6/+4, re-roll all Green dice once · White 6/0 · Yellow 8/+4 · Purple 10/+5, roll Purple or Blue+Red · Black 12/+6.
**Actions** ({_set_name(o)}): {actions}

**Your turn**
0. If the player before left exactly 2 of a Dice Card in play, you may add a 3rd from your hand (a **bonus match**): it counts as played this turn, and you draw 1 card a match.
1. Play cards in any order: Dice Cards freely, Actions up to {AU_LIMIT} Action Units. Draws happen at once.
2. Roll a die a Dice Card, {DICE_CAP} at most (you pick which to leave out). Then use re-rolls.
3. Score: points and coins; pattern cards double dice (you choose how, a doubling is never optional).
4. Pay back last turn's loan, then buy cards (1 of a name) onto your discard pile. Unspent coins are lost.
5. Hot Potatoes go on your discard pile or an opponent's draw pile; Can't Touch This rolls its die. Discard everything, draw {HAND_SIZE}.

**End** Points + final value of every card you own − {HOT_POTATO_PENALTY} a Hot Potato − {LOAN_PENALTY} a coin still owed. Ties: fewer cards wins, then shared.

**House rulings**
- Bonus-matched cards give dice and abilities and can be matched in turn. Mimics and borrowed cards count as copies.
- Pairs and Triplets: as many as the dice allow, none sharing a die; Run: {run} of 3+ different consecutive numbers. Patterns ignore colour and mix points with coins.
- Colour is the die rolled (Purple's Blue+Red are Blue and Red). Color Cubed doubles every colour with 3+ dice. Rainbow and Double Up limits both apply.
- Double Up: 2 different cards chosen when rolling (one card: 2 dice); no Purple Blue+Red; one Double Up a turn.
- Full House: counts every Dice Card in play; drawing stops when no Dice Card is left; the second roll re-rolls any dice once; it needs two different numbers.
- Can't Touch This blocks its number on any die, points and coins; a blocked die scores 0 and joins no pattern, but was still rolled, so it counts toward Color Cubed's and Rainbow's 3.
- Loan Shark: borrow any number of coins up to the cost of one card from each Supply stack; coins earned next turn repay it (a new loan can't); a loan still open at the end is charged then.
- Point Pro and Straight Cash convert dice only. Yard Sale and Swap Meet value a card at its cost, and returned cards go on their Supply stack; Joyride's card stays its owner's. Green re-rolls once a turn. {dice_limit}.

**Timeouts** Draft: the priciest Dice Card you may draft. Turn: no bonus match, all Dice Cards and no Actions, no re-rolls, the best score, no buys. A card still asking: no loan, nothing returned, the cheapest card sold, Purple die, most valuable dice kept, Hot Potato to the leader.
"""


def card_help(key: str) -> str:
    """A card's full text with its cost, value and Action Units, for "What does it do?"."""
    c = BY_KEY[key]
    head = f"**{c.name}**: {_coins(c.cost)}" + (f", +{c.fpv} FPV" if c.fpv else "") + (
        f", {c.au} Action Unit{'s' if c.au != 1 else ''}" if c.au else "")
    return f"{head}\n{card_text(key)}"
