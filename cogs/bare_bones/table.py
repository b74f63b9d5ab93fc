"""The live Bare Bones table: what everyone can see, one block for the turn and one a player.

The turn's block holds the round, whose turn and stage, the cards in play, the dice in words
(the picture shows them too), the points and coins so far and any Can't Touch This in force.
Each player's block is one line: score, draw pile, hand, loans and Hot Potatoes. The Supply and
what each card does are in Details; the Draft's picks are told by the history lines above.
"""

from __future__ import annotations

from bot.games import Part
from bot.models import Table
from cogs.bare_bones.words import (
    STAGE_WORDS,
    SHEET_KEY,
    block_line,
    cards,
    dice_words,
    grouped,
    in_play,
    kind_name,
    latest_reveals,
    name_of,
    names_of,
    order_words,
    ordered_players,
    player_line,
    sheet_compact,
    short,
    turn_money,
)
from rules import bare_bones as bb

ORDINALS = ("first", "second", "third", "fourth")


def stage_words(view: bb.BareBonesView, turn: bb.TurnView) -> str:
    """The stage of a turn, with the card asking a question and the Action Units left."""
    stage = STAGE_WORDS.get(turn.stage, turn.stage)
    if view.pending is not None and view.pending.card:
        card = bb.BY_KEY.get(view.pending.card)
        name = card.name if card else view.pending.card
        stage += "" if name in stage else f" ({name})"
    if turn.stage in ("match", "play"):
        stage += f", {bb.units(turn.au_left)} left"
    return stage


def turn_lines(table: Table, view: bb.BareBonesView, turn: bb.TurnView) -> list[str]:
    """What lies on the table this turn: offers, cards in play, revealed hands, dice, money."""
    lines: list[str] = []
    if turn.offers and turn.stage == "match" and turn.offer_from is not None:
        offered = grouped([short(bb.DICE_CARDS[o].name) for o in turn.offers])
        lines.append(f"{name_of(table, turn.offer_from)} left 2 of these in play to match: {offered}")
    if turn.play:
        lines.append(f"In play: {in_play(turn)}")
    for r in latest_reveals(turn):
        how = r.by.replace("_", " ").title()
        lines.append(f"👀 {name_of(table, r.seat)}'s hand, shown for {how}: "
                     f"{grouped([short(c.name) for c in r.cards]) or 'empty'}")
    if turn.dice:
        lines.append(f"🎲 {dice_words(turn)}")
    money = turn_money(turn)
    if money:
        lines.append(f"Scored: {money}")
    if turn.bought:
        lines.append("Bought: " + ", ".join(kind_name(view, b) for b in turn.bought))
    return lines


def table_parts(table: Table, view: bb.BareBonesView) -> list[Part]:
    if view.over:
        return final_parts(table, view)
    if view.draft is not None:
        return draft_parts(table, view)
    lines = [f"### Round {view.round} of {view.rounds}"]
    turn = view.turn
    if turn is not None:
        lines.append(f"**{name_of(table, turn.seat)}'s turn**: {stage_words(view, turn)}")
        lines += turn_lines(table, view, turn)
    lines += [block_line(table, b) for b in view.blocks]
    return [Part("\n".join(lines))] + [Part(player_line(table, view, p), seat=p.seat)
                                       for p in ordered_players(view)]


def draft_parts(table: Table, view: bb.BareBonesView) -> list[Part]:
    draft = view.draft
    assert draft is not None
    head = (f"### The Draft: pick {draft.pick} of {draft.picks_total}\n"
            f"**{name_of(table, draft.drafter)}** picks a card for their deck (round {draft.round} of 3). "
            "Everyone starts with 3 Blue and 4 White Dice Cards and drafts 3 more.")
    if draft.round == 1:  # the first round of picks follows the play order these dice made
        head += "\n" + order_words(table, view)
    return [Part(head)] + [
        Part(f"{'▸ ' if p.seat == draft.drafter else ''}**{name_of(table, p.seat)}** plays "
             f"{ORDINALS[p.player_number - 1]}, {cards(p.owned)}", seat=p.seat) for p in ordered_players(view)]


def final_parts(table: Table, view: bb.BareBonesView) -> list[Part]:
    """The final scoresheet; the host names the winner and the standings below it."""
    sheet = sheet_compact(view, names_of(table))
    return [Part(f"### The final scoresheet\n```\n{sheet}\n```Running totals by round. {SHEET_KEY} "
                 "**Details** has every round's points.")]
