"""What each question at a Stones & Bones table says: one line that names what the controls
decide, so the thing decided about (the bet, the coffer, the Stone on the table) is in the same
message as the controls.

On the table a question follows the host's mentions of whoever is asked; in a private view it
stands first. A choice everyone asked may make says so; when two players are asked different
things at once (the roller, and the owner of a Stone lying on the table), each hears their own
part by name, and their controls sit with them.
"""

from __future__ import annotations

from bot.models import Table
from bot.render import seat_names
from cogs.stones_and_bones.lines import seat_name, shorter
from rules import stones_and_bones as sb
from rules.stones_and_bones import money


def bet_prompt(table: Table, view: sb.StonesAndBonesView) -> str:
    """What the roller decides: pay and throw, or the ways around it."""
    turn = view.turn
    assert turn is not None and turn.bones is not None
    reading, choices = turn.bones, view.roller_choices
    if reading.crossbones:
        first = f"**Crossbones ({reading.crossbones})!** Pay **{money(reading.bet)}** to claim the coffer"
    elif "pay" not in choices:
        first = f"you cannot cover **{money(reading.bet)}**: Walk the Plank (all in, the Bones again)"
    elif turn.cursed:
        first = f"pay **{money(reading.bet)}** (Cursed: no Stone, only a Crossbones wins)"
    else:
        stones = "two Stones" if reading.blessing else "your Stone"
        first = f"pay **{money(reading.bet)}** and throw {stones}"
    others = []
    stone = view.table_stone
    if "pilfer" in choices and stone is not None:
        others.append(f"Pilfer {seat_name(table, stone.owner)}'s Stone too")
    if "fly" in choices:
        others.append("Fly the Black")
    if "fold" in choices:
        others.append("fold")
    if not others:
        return first
    return first + ", or " + (others[0] if len(others) == 1 else ", ".join(others[:-1]) + " or " + others[-1])


def _stone_prompt(table: Table, view: sb.StonesAndBonesView) -> str:
    stone = view.table_stone
    assert stone is not None
    return (f"your Stone ({stone.value}) lies on the table: pick it up before "
            f"{seat_name(table, view.current_seat)} Pilfers it, or leave it")


def ask(table: Table, view: sb.StonesAndBonesView, seat: int | None) -> str:
    """What the controls decide. ``seat`` None: on the table, after the mentions of everyone
    asked; a seat: that seat's own part, said to them alone."""
    humans = [s for s in view.to_act if not table.seats[s].ai]
    each = "each of you: " if seat is None and len(humans) > 1 else ""
    m, claim = view.mutiny, view.claim
    if view.phase == "turn" and view.current_seat is not None:
        roller, stone = view.current_seat, view.table_stone
        owner = stone.owner if stone is not None and stone.owner in view.to_act else None
        if owner is not None and seat is None and owner in humans and roller in humans:
            return (f"**{seat_name(table, roller)}**, your throw: {bet_prompt(table, view)}. "
                    f"**{seat_name(table, owner)}**, {_stone_prompt(table, view)}.")
        if owner is not None and (seat == owner or seat is None and roller not in humans):
            return f"{_stone_prompt(table, view)}."
        return f"{bet_prompt(table, view)}."
    if view.phase == "grumble" and claim is not None:
        fee = money(sb.grumble_fee(view.tide))
        return (f"{each}let **{seat_name(table, claim.seat)}**'s claim stand, or Grumble "
                f"({fee}, into the next coffer) to have the dice thrown again.")
    if view.phase == "object" and claim is not None:
        return f"{each}let the dice be thrown again, or object to stop it."
    if view.phase == "mutiny_call" and m is not None:
        seconds = shorter(table.timer_seconds, view.decision_window)
        cry = "Each of you: cry" if each else "Cry"
        return (f"Captain **{seat_name(table, m.captain)}** plunders the coffer (**{view.coffer_text}**). "
                f"{cry} **Mutiny!** (the first cry leads it) or let it be, within {seconds} s.")
    if view.phase == "parley":
        gifts = sb.GIFTS_PER_PARLEY
        if seat is None and len(humans) > 1:
            return (f"parley before the sealed vote. Each of you may give coins from your own purse "
                    f"(up to {gifts} gifts), then choose **Ready to vote**.")
        return (f"parley before the sealed vote: give coins from your purse if you like (up to {gifts} "
                "gifts), then choose **Ready to vote**.")
    if view.phase == "split":
        return f"you won the coffer (**{view.coffer_text}**): keep it, or share it."
    if view.phase == "anchor" and claim is not None:
        purse = money(view.pirates[claim.seat].purse)
        return (f"your Crossbones lets you Swallow the Anchor: cash out **{purse}** now and leave "
                "the table, or stay aboard.")
    return seat_names(table, view.question)


def sealed_prompt(table: Table, view: sb.StonesAndBonesView) -> str | None:
    """A sealed choice's question (the Mutiny vote, the Tide rise), said in private."""
    m = view.mutiny
    if view.phase == "vote" and m is not None:
        return (f"Your sealed vote: **Yay** backs Mutineer {seat_name(table, m.mutineer)}, **Nay** "
                f"stands by Captain {seat_name(table, m.captain)}.")
    if view.phase == "tide":
        return (f"Your sealed choice for Tide {view.tide}: stay, Heave Down (cash out and go "
                "ashore), buy in, or vote to end the game (it ends only if everyone still aboard votes so).")
    return None
