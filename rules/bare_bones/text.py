"""Bare Bones in words: the question a seat is asked, button labels, the scoresheet, the rules.

Labels and the scoresheet read only a view, so a cog can word its controls without the state.
Seats are "Seat N" (the host puts names in).
"""

from __future__ import annotations

from rules.base import seat_name
from rules.bare_bones.cards import (
    ACTIONS,
    BY_KEY,
    COLOURS,
    Card,
    DICE_CARDS,
    SUGGESTED,
    TABLE,
    card_text,
    colour_name,
)
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


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def units(n: int) -> str:
    """Action Units in words: "1 Action Unit", "2 Action Units"."""
    return f"{n} Action Unit" if n == 1 else f"{n} Action Units"


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


def _name(card: Card) -> str:
    """A card as a button names it: a Dice Card by its colour ("Blue"), which its player's
    view explains, so that two buttons fit a row of a phone."""
    return card.name.removesuffix(" Dice Card")


def _die(view: BareBonesView, index: int | None) -> str:
    """A die as the picture shows it: its colour and number, and where it lies from the left
    only when another die looks the same."""
    if view.turn is None or index is None or not 0 <= index < len(view.turn.dice):
        return "a die"
    d = view.turn.dice[index]
    twins = [x for x in view.turn.dice if (x.colour, x.value) == (d.colour, d.value)]
    where = f" (die {index + 1} from the left)" if len(twins) > 1 else ""
    return f"{d.name} {d.value}{where}"


def action_label(view: BareBonesView, action: BareBonesAction) -> str:
    """A button label (at most 80 characters) for one legal action."""
    k = action.kind
    card = BY_KEY.get(action.card or "")
    colour = colour_name(action.colour) if action.colour else ""
    if k == "draft" and card:
        return _clip(f"Draft {_name(card)}")  # free: its price is no part of the pick
    if k == "match":
        return _clip(f"Bonus match {colour} (draw 1 more)")
    if k == "no_match":
        return "Done matching" if view.turn and view.turn.matched else "No bonus match"
    if k == "play" and card:
        return _clip(f"Play {_name(card)}" + (f" ({units(card.au)})" if card.au else ""))
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
    if k == "loan_more":
        cap = view.pending.value if view.pending else 0
        return _clip(f"Borrow more ({action.amount or 0} to {cap})…")
    if k == "sell" and card:
        return _clip(f"Sell {_name(card)} for {_coins(max(0, card.cost - 1))}")
    if k == "swap_give" and card:
        return _clip(f"Return {_name(card)} (worth {_coins(card.cost)})")
    if k == "swap_done":
        value = view.pending.value if view.pending else 0
        return _clip(f"Done returning: take a card costing up to {value}")
    if k == "swap_take" and card:
        return _clip(f"Take {_name(card)} ({_coins(card.cost)})")
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
        # each option is a different result, so the result names it; the view says how
        return f"Score {_points(o.points)} and {_coins(o.coins)}"
    if k == "buy" and card:
        return _clip(f"Buy {_name(card)}")  # the view lists the prices: short buttons pack in rows
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


# -- what the channel is told ---------------------------------------------------------------------


def potatoes_passed(sent: list[int]) -> str | None:
    """The Hot Potatoes a seat put on opponents' draw piles, as a few words of the turn's line
    of history ("put 2 Hot Potatoes on top of Seat 3's draw pile"): one phrase an opponent,
    the potatoes counted, since a turn's two potatoes are two questions and two events. The
    victim is named, not pinged: the channel pings only whom it asks to act."""
    counts: dict[int, int] = {}
    for seat in sent:
        counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return None
    piles = [f"{'a Hot Potato' if n == 1 else f'{n} Hot Potatoes'} on top of {_who(seat)}'s draw pile"
             for seat, n in counts.items()]
    return "put " + " and ".join(piles)


# -- the scoresheet -------------------------------------------------------------------------------


def scoresheet_lines(view: BareBonesView, names: list[str] | None = None) -> list[str]:
    """The rulebook's scoresheet as monospace rows: a round's points, the running total and
    the coin notes (+ carried by Keep the Change, − borrowed with Loan Shark); at the end the
    cards' final values, any Hot Potato and loan deductions, and the total."""
    width = 14
    names = names or [_who(n) for n in range(view.seats)]
    seats = list(view.order)
    head = "Round " + "".join(names[n][: width - 1].ljust(width) for n in seats)
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
        lines.append(("Cards " + "".join(f"+ {finals[n].fpv}".ljust(width) for n in seats)).rstrip())
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
        return "chosen by the host"
    return SUGGESTED[options.action_set].name


def how_to_play(options: BareBonesOptions | None = None) -> str:
    """The essentials on one phone screen: what a turn is and how the game is won."""
    return f"""Build a deck, roll the dice it gives you, buy better cards. {ROUNDS} rounds; most points wins.

**Start**: 3 Blue and 4 White Dice Cards, and 3 more drafted. Draw {HAND_SIZE}.
**Your turn**
1. **Play** cards: a Dice Card gives a die of its colour; an Action does what it says, for Action Units ({AU_LIMIT} a turn).
2. **Roll** your dice ({DICE_CAP} at most); use any re-rolls.
3. **Score**: coloured dice give points, White dice coins. Pattern cards (Pairs, Run…) double dice.
4. **Buy** cards, one of each name, onto your discard pile.
5. Discard everything; draw {HAND_SIZE}.
**End**: points plus each card's final value, less {HOT_POTATO_PENALTY} a Hot Potato and {LOAN_PENALTY} a coin owed.

Your hand comes by DM (or **My hand**); **Details** has the scoresheet and the cards."""


def rules_sections(options: BareBonesOptions | None = None, *, cards: bool = True) -> list[tuple[str, str]]:
    """The full rules as (title, text) sections, each under one phone screen: the setup, the
    dice, the Actions in this game, a turn, the end, the house rulings and the timeouts.
    ``cards=False`` names the cards without saying what each does."""
    o = options or BareBonesOptions()
    keys = o.fixed_set()
    if keys is None:
        actions = "Seven Action Cards are drawn at random when the game starts: **Details** shows them in the Supply."
    elif cards:
        actions = "\n".join(f"**{ACTIONS[k].name}** ({_coins(ACTIONS[k].cost)}, {units(ACTIONS[k].au)}): "
                            f"{ACTIONS[k].short}" for k in keys)
    else:
        actions = "; ".join(f"{ACTIONS[k].name} ({_coins(ACTIONS[k].cost)}, {units(ACTIONS[k].au)})"
                            for k in keys) + "."
    white = "Blue, Red, Green or White" if o.draft_white else "Blue, Red or Green"
    dice_limit = ("4 dice of each colour exist; a die on Can't Touch This is out of play; dice beyond "
                  "those are simply not rolled" if o.dice_limit == "physical"
                  else "Dice are not limited to 4 a colour")
    run = "any set of separate runs" if o.run_multiple else "one run"
    dice = "\n".join(f"**{DICE_CARDS[c].name}** ({_coins(DICE_CARDS[c].cost)}, worth "
                     f"{DICE_CARDS[c].fpv} at the end)" + (f": {DICE_CARDS[c].short}" if cards else "")
                     for c in COLOURS)
    return [
        ("Setup and the Draft", f"""2-4 players, {ROUNDS} rounds.
Everyone rolls the 4 Blue dice: the highest total is **Player 1** and plays first (tied players roll again); play goes on in that order.
Everyone gets 3 Blue and 4 White Dice Cards, then **drafts** 3 more, free, one at a time in turn: cards costing {TABLE.draft_max_cost} coins or less ({white} Dice Cards, cheap Actions). Shuffle your deck and draw {HAND_SIZE} cards."""),
        ("Dice Cards", f"""Each Dice Card rolls one die of its colour. Its price in coins, what it adds to your score at the end, and its die:
{dice}"""),
        (f"Actions: {_set_name(o)}", f"""Each Action Card costs coins to buy and Action Units to play ({AU_LIMIT} a turn):
{actions}"""),
        ("Your turn", f"""0. If the player before you left exactly 2 of a Dice Card in play, you may add a 3rd from your hand (a **bonus match**): it counts as played this turn, and you draw 1 card a match.
1. Play cards in any order: Dice Cards freely, Actions up to {AU_LIMIT} Action Units. A card that draws, draws at once.
2. Roll a die for each Dice Card, {DICE_CAP} at most (you pick which to leave out). Then use your re-rolls.
3. Score: points and coins. Pattern cards double dice (you choose how; a doubling is never optional).
4. Pay back last turn's loan, then buy cards (one of each name) onto your discard pile. Unspent coins are lost.
5. Hot Potatoes go on your discard pile or an opponent's draw pile; Can't Touch This rolls its die. Discard everything, draw {HAND_SIZE}."""),
        ("The end", f"""After round {ROUNDS}: your points, plus the final value of every card you own, less {HOT_POTATO_PENALTY} points a Hot Potato and {LOAN_PENALTY} a coin still owed. The most points wins; on a tie, fewer cards wins, then the win is shared."""),
        ("House rulings", f"""- Bonus-matched cards give dice and abilities and can be matched in turn. Mimics and borrowed cards count as copies.
- Pairs and Triplets: as many as the dice allow, none sharing a die. Run: {run} of 3 or more different consecutive numbers. Patterns ignore colour and mix points with coins.
- Colour is the die rolled (Purple's Blue and Red are Blue and Red). Color Cubed doubles every colour with 3 or more dice. Rainbow and Double Up limits both apply.
- Double Up: 2 different cards chosen when rolling (one card: 2 dice); no Purple Blue and Red; one Double Up a turn."""),
        ("Card rulings", """- Full House: counts every Dice Card in play; drawing stops when no Dice Card is left; the second roll re-rolls any dice once; it needs two different numbers.
- Can't Touch This blocks its number on any die, points and coins; a blocked die scores 0 and joins no pattern, but was still rolled, so it counts toward Color Cubed's and Rainbow's 3.
- Loan Shark: borrow any number of coins up to the cost of one card from each Supply stack; coins earned next turn repay it (a new loan can't); a loan still open at the end is charged then."""),
        ("More rulings", f"""- Point Pro and Straight Cash convert dice only. Yard Sale and Swap Meet value a card at its cost, and returned cards go on their Supply stack; Joyride's card stays its owner's. Green re-rolls once a turn. {dice_limit}."""),
        ("Timeouts", """When time runs out: in the Draft, the priciest Dice Card you may draft. In a turn: no bonus match, all Dice Cards and no Actions, no re-rolls, the best score, no buys. A card still asking: no loan, nothing returned, the cheapest card sold, the Purple die, the most valuable dice kept, the Hot Potato to the leader."""),
    ]


def rules_summary(options: BareBonesOptions | None = None) -> str:
    """The whole rules in one text (Markdown, under 4,096 characters)."""
    sections = "\n\n".join(f"**{title}**\n{text}" for title, text in rules_sections(options, cards=False))
    return f"**Bare Bones**: build a deck, roll the dice it gives you. 2-4 players, {ROUNDS} rounds.\n\n{sections}"


#: the game's own words, as the Words page of the rules explains them
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("Dice Card", "gives you one die of its colour to roll."),
    ("Action Card", "does what it says when you play it."),
    ("Action Units", f"what Actions cost to play, {AU_LIMIT} a turn."),
    ("Supply", "the stacks of cards to buy; Details lists them."),
    ("Draft", "before round 1, everyone takes 3 cheap cards in turn."),
    ("Deck", "every card you own: draw pile, hand and discard pile."),
    ("Bonus match", "a 3rd copy of a Dice Card the player before left 2 of in play."),
    ("Coins", "what White dice pay; they buy cards this turn."),
    ("Final value", "what a card adds to your score at the end."),
    ("Pattern cards", "Pairs, Triplets, Run, Odds or Evens, Full House, Color Cubed, Rainbow: they double dice."),
    ("Blocked", "a number Can't Touch This blocks: that die scores nothing."),
    ("Loan", f"coins from Loan Shark; unpaid next turn, {LOAN_PENALTY} points a coin."),
    ("Hot Potato", f"−{HOT_POTATO_PENALTY} points at the end unless you pass it on."),
    ("Player 1", "who plays first; the others follow in order."),
)


def glossary() -> str:
    return "\n".join(f"**{word}**: {meaning}" for word, meaning in GLOSSARY)


def card_help(key: str) -> str:
    """A card's full text with its cost, value and Action Units, for "What does it do?"."""
    c = BY_KEY[key]
    head = f"**{c.name}**: {_coins(c.cost)}" + (f", worth {c.fpv} points at the end" if c.fpv else "") + (
        f", {units(c.au)}" if c.au else "")
    return f"{head}\n{card_text(key)}"
