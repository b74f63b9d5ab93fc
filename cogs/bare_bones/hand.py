"""A Bare Bones player's own view: what they decide about, with the buttons that decide it.

Every decision in Bare Bones is its player's own, so this view carries its subject: the cards
in hand and what each does while playing, the dice (in words here, as a picture beside) and the
coins while re-rolling, scoring or buying, what each card on offer does in the Draft (when
buying, the menu of cards says it). The host puts the question above and the buttons below;
once nothing is asked, the same view reads as what the player holds, so it never says what to
press.
"""

from __future__ import annotations

from rules.base import counted
from bot.games import Part
from bot.models import Table
from cogs.bare_bones.words import (
    card_line,
    cards,
    coins,
    dice_words,
    grouped,
    hand_lines,
    STAGE_WORDS,
    in_play,
    kind_name,
    latest_reveals,
    name_of,
    ordered_players,
    short,
    turn_money,
)
from rules import bare_bones as bb

#: the question a card asks, as the asking player reads it above their buttons
PENDING_PROMPTS = {
    "mimic": "which Dice Card in play does your Mimic copy?",
    "joyride_seat": "which opponent do you Joyride? They show their hand.",
    "joyride_card": "which of their Dice Cards do you borrow for this turn?",
    "loan": f"how many coins do you borrow (Loan Shark)? Repay next turn, or lose {bb.LOAN_PENALTY} points a coin.",
    "yard_sale": "which card of your hand do you sell to the Supply (Yard Sale)?",
    "swap_give": "return cards to the Supply (Swap Meet), then take one costing up to their total.",
    "swap_take": "which card do you take from the Supply (Swap Meet)?",
    "double_up": "which Dice Card rolls 2 dice (Double Up)?",
    "purple": "your Purple Dice Card: a Purple die, or a Blue and a Red die?",
    "leave_out": f"at most {bb.DICE_CAP} dice are rolled: which die is left out?",
    "full_house": "Full House: pick dice to roll again, then roll them (or keep them all).",
    "pattern": "how do you score this roll?",
    "potato": "your Hot Potato: keep it (your discard pile) or put it on an opponent's draw pile.",
}
#: the questions about the cards in play, which the view then lists
ABOUT_PLAY = ("mimic", "double_up", "leave_out", "purple")


def prompt(view: bb.BareBonesView) -> str:
    """The question, first on the player's own view: it starts with a capital."""
    text = _question(view)
    return text[:1].upper() + text[1:]


def _question(view: bb.BareBonesView) -> str:
    if view.draft is not None:
        return "your pick in the Draft: one card for your deck, free."
    if view.pending is not None:
        if view.pending.kind == "loan" and view.pending.more:
            return f"a larger loan (Loan Shark): how many coins, up to {view.pending.value}?"
        return PENDING_PROMPTS.get(view.pending.kind, "your decision.")
    turn = view.turn
    if turn is None:
        return "your move."
    if turn.stage == "match":
        return "bonus match: add a third copy from your hand (you draw 1 card), or not."
    if turn.stage == "play":
        return f"play cards ({turn.au_left} of {bb.AU_LIMIT} Action Units left), then roll."
    if turn.stage == "reroll":
        return "re-roll, or score the dice as they lie."
    if turn.stage == "buy":
        return f"buy cards ({coins(turn.coins_left)}, one of each name), then Done."
    return "your move."


def private_parts(table: Table, seat: int, view: bb.BareBonesView) -> list[Part]:
    assert view.me is not None  # a seat's own view always holds its hand
    if view.draft is not None:
        return _draft(table, seat, view)
    turn = view.turn
    mine = turn is not None and turn.seat == seat and not view.over
    # on their own turn the question leads; the round is on the table
    if mine:
        lines = _turn(table, view)
    else:
        lines = ["### Your cards at the end" if view.over else f"### Your hand · Round {view.round} of {view.rounds}"]
        lines += [w for w in [waiting(table, seat, view)] if w]
    parts = [Part("\n".join(lines))] if lines else []
    me = view.me
    playing = mine and turn is not None and turn.stage == "play" and view.pending is None
    if mine and not playing:
        # a question about something else: the hand in a line, the piles left out
        if me.hand:
            parts.append(Part("In your hand: " + grouped([short(c.name) for c in me.hand])))
        if turn is not None and turn.stage == "buy" and view.pending is None:
            parts.append(_shop(view, turn))
        return parts
    # while playing, each Action's Play button says what it costs
    lines = hand_lines(me.hand, cost=not playing)
    label = "**Your hand**\n" if mine else ""  # between turns the heading says it
    parts.append(Part(label + "\n".join(lines) if lines else "Your hand is empty."))
    parts.append(Part(_piles(me, mine=mine)))
    return parts


def waiting(table: Table, seat: int, view: bb.BareBonesView) -> str | None:
    """Whom the game waits for, read by a player asked nothing (pressing My hand out of turn):
    that it is not them, and when they are asked. None when they are the one asked."""
    if view.over:
        return None
    if view.draft is not None:
        draft = view.draft
        if draft.drafter == seat:
            return None
        # picks go round the play order; does one of those left fall to this seat?
        more = any(view.order[p % len(view.order)] == seat for p in range(draft.pick, draft.picks_total))
        return f"**{name_of(table, draft.drafter)}** is picking; your {'pick' if more else 'first turn'} comes by DM."
    turn = view.turn
    if turn is None or turn.seat == seat:
        return None
    now = f"**{name_of(table, turn.seat)}'s turn** ({STAGE_WORDS.get(turn.stage, turn.stage)})"
    if view.round == view.rounds and view.order.index(seat) < view.order.index(turn.seat):
        return f"{now}; your last turn is over."
    return f"{now}; yours comes by DM."


def _turn(table: Table, view: bb.BareBonesView) -> list[str]:
    """The subject of the decision: what this stage or card is about."""
    turn, pending = view.turn, view.pending
    assert turn is not None
    lines: list[str] = []
    if turn.stage == "match" and turn.offer_from is not None:
        offered = grouped([short(bb.DICE_CARDS[o].name) for o in turn.offers])
        lines.append(f"{name_of(table, turn.offer_from)} left 2 in play: **{offered}**. A third from your "
                     "hand counts as played; you draw 1 card for it.")
    if turn.play and pending is not None and pending.kind in ABOUT_PLAY:
        lines.append(f"In play: {in_play(turn)}")
    for r in latest_reveals(turn) if pending is not None and pending.kind == "joyride_card" else []:
        lines.append(f"👀 {name_of(table, r.seat)}'s hand: {grouped([short(c.name) for c in r.cards]) or 'empty'}")
    # when buying, the working under the score names every die: the dice are not said twice
    buying = turn.stage == "buy" and pending is None and turn.score is not None
    if dice_matter(view) and not (buying and turn.dice):
        if turn.dice:
            lines.append(f"🎲 **Your dice**: {dice_words(turn)}")
            if turn.stage == "reroll" and turn.rerolls_left:
                lines.append(f"Re-rolls left: {turn.rerolls_left}")
        else:
            lines.append("🎲 No dice were rolled this turn.")
    if pending is not None:
        lines += _pending(table, view, pending)
    money = turn_money(turn)
    if money and turn.stage == "buy" and pending is None:
        lines.append(f"Scored: {money}")
        if turn.score is not None:
            lines.append(f"-# {turn.score.working}")
    return lines


def dice_matter(view: bb.BareBonesView) -> bool:
    """The question is about the dice rolled: re-rolling, scoring them, buying with them."""
    turn, pending = view.turn, view.pending
    if turn is None or not turn.rolled:
        return False
    if pending is not None:
        return pending.kind in ("full_house", "pattern")
    return turn.stage in ("reroll", "score", "buy")


def _pending(table: Table, view: bb.BareBonesView, pending: bb.PendingView) -> list[str]:
    turn = view.turn
    assert turn is not None
    if pending.kind == "loan":
        return loan_facts(view, pending)
    if pending.kind in ("swap_give", "swap_take"):
        return [f"The cards you returned are worth **{coins(pending.value)}**."]
    if pending.kind == "full_house" and pending.marked:
        chosen = [turn.dice[i] for i in pending.marked if 0 <= i < len(turn.dice)]
        return ["To roll again: " + ", ".join(f"{d.name} {d.value}" for d in chosen)]
    if pending.kind == "pattern":
        return ["**How each way scores**"] + [
            f"{counted(o.points, 'point')} and {coins(o.coins)}: {o.label}" for o in pending.options]
    if pending.kind == "potato":
        others = [p for p in ordered_players(view) if p.seat != turn.seat]
        return [f"A Hot Potato you own at the end costs {counted(bb.HOT_POTATO_PENALTY, 'point')}. Scores: "
                + ", ".join(f"{name_of(table, p.seat)} {counted(p.score, 'point')}" for p in others) + "."]
    return []


def loan_facts(view: bb.BareBonesView, pending: bb.PendingView) -> list[str]:
    """What a loan is weighed against, asked before any die is rolled: what it is for (the
    dearest card), what this turn has so far, what White dice pay, and the price of coins not
    repaid, in points; with the larger amounts, what they cost at worst."""
    so_far, (fewest, most) = pending.so_far, pending.die_pays
    lines = [f"You have not rolled yet{f' ({coins(so_far)} so far)' if so_far else ''}; a White die pays "
             f"{fewest} to {most} coins. The dearest card in the Supply costs **{coins(pending.dearest)}**."]
    if view.me is not None and view.me.loan:
        lines.append(f"You still owe {coins(view.me.loan)} from last turn: this turn's coins repay that first.")
    lines.append(f"Next turn, the coins you earn repay the loan first; each coin still owed costs "
                 f"**{counted(bb.LOAN_PENALTY, 'point')}**.")
    if pending.more:
        lines.append(f"Borrowing {coins(pending.value)}, the most (one of every card), could cost "
                     f"{counted(bb.LOAN_PENALTY * pending.value, 'point')}.")
    return lines


def _shop(view: bb.BareBonesView, turn: bb.TurnView) -> Part:
    """What was bought this turn (a pick from the menu shows here) and how many cards the coins
    left would buy; the menu of them gives each one's price and what it does (the spec's
    ``action_description``), Details' Supply pages the full texts."""
    stacks = [s for s in view.supply if s.count and s.cost <= turn.coins_left and s.kind not in turn.bought]
    bought = f"**Bought**: {', '.join(short(kind_name(view, b)) for b in turn.bought)}\n" if turn.bought else ""
    if not stacks:
        return Part(f"{bought}Nothing in the Supply costs {coins(turn.coins_left)} or less.")
    return Part(f"{bought}**On offer**: {cards(len(stacks))} (in full: **Details** on the table, Supply)")


def _piles(me: bb.PrivateView, *, mine: bool) -> str:
    """The piles; between turns, the discard pile's top card too (it shows what was bought)."""
    piles = [f"Draw pile {me.draw_size}", f"discard pile {len(me.discard)}"]
    if me.discard and not mine:
        piles[-1] += f" (top: {short(me.discard[-1].name)})"
    line = ", ".join(piles) + "."
    turn = "this turn" if mine else "your next turn"
    if me.carry:
        line += f" You carry {coins(me.carry)} into {turn}."
    if me.loan:
        line += f" You owe {coins(me.loan)}: {turn}'s coins repay it first."
    return line


def _draft(table: Table, seat: int, view: bb.BareBonesView) -> list[Part]:
    draft, me = view.draft, view.me
    assert draft is not None and me is not None
    deck = "**Your deck so far**: " + grouped([short(n) for n, c in me.owned.items() for _ in range(c)])
    if draft.drafter != seat:
        return [Part(f"### The Draft\n{waiting(table, seat, view)}"), Part(deck)]
    head = f"### The Draft: pick {draft.pick} of {draft.picks_total}"
    offered = [s for s in view.supply if s.draftable and s.count]
    return [Part(head), Part("**The cards you may draft**\n" + "\n".join(card_line(s, worth=True, cost=False, brief=True) for s in offered)),
            Part(deck)]
