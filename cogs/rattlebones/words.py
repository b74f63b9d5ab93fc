"""Rattlebones in words for a Discord table: where everyone stands and which pawns are whose,
what the acting player decides about, how the game ended, Details' sheets.

Written with seats as the engine names them ("Seat 2"); the cog puts names in with
``seat_names``, which also makes them safe as markdown.
"""

from __future__ import annotations

import re

from bot.render import clip, safe
from cogs.rattlebones.pictures import PAWN_WORDS
from rules import rattlebones as rb
from rules.base import Event, counted
from rules.rattlebones.dice import adjacent

#: decisions about a side of the die just used
SIDE_PHASES = ("replace", "aim")
#: a roll's state in words
ROLL_STATE = {"pending": "to use", "done": "used", "dropped": "not used"}


def said_by(event: Event) -> str:
    """The log's line for an event, said from its kind, seats and figures."""
    return rb.event_text(event.kind, event.seats, event.data)


def who(seat: int) -> str:
    """A seat as the engine names it; ``seat_names`` puts the player's name in."""
    return f"Seat {seat + 1}"


def pawn(seat: int) -> str:
    """The colour and shape of a player's pawns on the board and their dice."""
    return PAWN_WORDS[seat]


#: characters that could make a name a link, a mention or a heading where a title is markdown
MARKUP = re.compile(r"[\[\]()<>@#*|~`:/\\]")


def title_name(name: str) -> str:
    """A name for a page title, which is plain text in the page menu and markdown in the page's
    heading: as typed, unless it could form a link, a mention or formatting there."""
    name = clip(name, 60)
    return safe(name) if MARKUP.search(name) else name


def holdings(p: rb.PlayerView, *, all_of: bool = True) -> str:
    """Gold, stars and stock tickets; without ``all_of``, only what the player has some of."""
    held = [(p.gold, f"{p.gold} gold"), (p.stars, counted(p.stars, "star")),
            (p.stock, counted(p.stock, "stock ticket"))]
    return " · ".join(said for n, said in held if n or all_of)


def standing(p: rb.PlayerView) -> str:
    """A player in one short line, with the colour and shape of their pawns."""
    held = holdings(p, all_of=False)
    return f"**{who(p.seat)}** ({pawn(p.seat)}): {counted(p.score, 'point')}" + (f" · {held}" if held else "")


def standings_block(view: rb.RattlebonesView) -> str:
    """Where the race stands: Rattlebones, then each player."""
    lines = [f"Rattlebones is on **{view.rattlebones}**: the game ends when a score reaches him."]
    return "\n".join(lines + [standing(p) for p in view.players])


def dice_lines(faces: list[list[str]], only: int | None = None) -> str:
    """Each die's sides, 1 to 6, in words."""
    return "\n".join(f"Die {d + 1}: {rb.die_words(f)}" for d, f in enumerate(faces) if only in (None, d))


def shown_words(face: str, acts_as: str | None) -> str:
    """What a thrown die shows, and what it does when it is an arrow."""
    if not face.startswith("arrow"):
        return rb.face_name(face)
    return f"{rb.face_name(face)}, so {rb.face_name(acts_as)}"


def thrown_words(view: rb.RattlebonesView) -> str:
    """This turn's dice: what each shows and whether it is used, in use or waiting."""
    decision = view.decision
    using = decision.die if decision is not None and decision.phase not in ("order", "x2") else None
    last = {r.die: i for i, r in enumerate(view.rolls)}
    said = []
    for i, r in enumerate(view.rolls):
        state = "in use" if r.die == using and last[r.die] == i and r.state == "done" else ROLL_STATE[r.state]
        said.append(f"die {r.die + 1} shows **{shown_words(r.face, r.acts_as)}** ({state})")
    return "Rolled this turn: " + "; ".join(said) + "." if said else ""


def monkeys_words(view: rb.RattlebonesView, seat: int) -> str:
    """Where a player's monkeys stand: "on Gold (2) and two on Start / Store (0)"."""
    monkeys = view.players[seat].monkeys
    where = []
    for at in dict.fromkeys(monkeys):
        count = monkeys.count(at)
        where.append(f"{('', 'two ', 'all three ')[count - 1]}on {view.spaces[at].name} ({at})")
    said = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
    return f"{who(seat)}'s monkeys ({pawn(seat)}s): {said}."


def side_block(view: rb.RattlebonesView, decision: rb.DecisionView) -> str:
    """A landing (the prompt names the space): the side on offer, and the die it would go on."""
    die = decision.die or 0
    faces = view.players[decision.seat].dice[die]
    if decision.phase == "aim":
        slot = decision.slot or 0
        near = ", ".join(str(s + 1) for s in adjacent(slot))
        offer = (f"The new **Arrow** goes on side {slot + 1} of die {die + 1}; it points at one of the "
                 f"sides next to it ({near}) and does what that side does.")
    elif decision.side == "points:1":
        offer = (f"On offer: a new **1 point** side for die {die + 1}, on any side but side 1, or +1 on "
                 "one of its points sides.")
    else:
        side = "Arrow" if decision.side == "arrow" else rb.face_name(decision.side)
        offer = f"On offer: a new **{side}** side for die {die + 1}, on any side but side 1."
    if decision.phase == "replace" and decision.side is not None:
        offer += f"\nWhen rolled, it will {rb.side_does(decision.side)}."
    return f"{offer}\nDie {die + 1}, sides 1 to 6: {rb.die_words(faces)}."


def asked_block(view: rb.RattlebonesView) -> str:
    """What the acting player decides about, in words: their dice, the dice thrown, their
    monkeys, the side on offer, their stars, whom they rob."""
    decision = view.decision
    assert decision is not None
    seat, phase = decision.seat, decision.phase
    me = view.players[seat]
    if phase == "roll":
        return f"**{who(seat)}'s dice** ({pawn(seat)}), sides 1 to 6:\n{dice_lines(me.dice)}"
    thrown = thrown_words(view)
    if phase in ("order", "x2"):
        return thrown
    if phase in ("monkey", "distance"):
        return f"{thrown}\n{monkeys_words(view, seat)}"
    if phase in SIDE_PHASES:
        return side_block(view, decision)
    if phase == "store":
        return f"{who(seat)} has **{counted(me.stars, 'star')}**. The Store pays: {rb.star_chart()}."
    if phase == "add_die":
        waiting = [d for d in range(len(me.dice)) if all(r.die != d for r in view.rolls)]
        return f"{thrown}\nNot rolled yet:\n" + "\n".join(dice_lines(me.dice, d) for d in waiting)
    victim = view.players[decision.victim or 0]
    return f"{who(victim.seat)} ({pawn(victim.seat)}) has {holdings(victim)}."


def ending_block(view: rb.RattlebonesView) -> str:
    """How the game ended, and the tie-break when it decided (the host names the winner)."""
    how = (f"a score met or passed Rattlebones (on {view.rattlebones})." if view.end_reason == "rattlebones"
           else f"the game reached its {view.max_turns}-turn limit.")
    lines = [f"**Game over**: {how}"]
    best = max(p.score for p in view.players)
    tied = [p for p in view.players if p.score == best]
    if len(tied) > 1:
        lines.append("Equal scores go to the most gold + stars + stock tickets: "
                     + ", ".join(f"{who(p.seat)} {p.gold + p.stars + p.stock}" for p in tied) + ".")
    lines.append("**Details** shows everyone's dice.")
    return "\n".join(lines)


def board_words(view: rb.RattlebonesView) -> str:
    """Where every monkey and the train stand, in words (the board picture's description)."""
    spaces = ", ".join(f"{s.index} {s.name}" for s in view.spaces)
    monkeys = "; ".join(f"{who(p.seat)} ({pawn(p.seat)}s) on {', '.join(str(m) for m in p.monkeys)}"
                        for p in view.players)
    return (f"Spaces: {spaces}. Monkeys: {monkeys}. Train on {view.train} "
            f"(worth {view.train_values[view.train]}). Rattlebones on {view.rattlebones}.")


def supply_words(view: rb.RattlebonesView) -> str:
    sides = " · ".join(f"{rb.face_name(k) if k.startswith('points') else rb.DATA.sides[k].name}: {n}"
                       for k, n in sorted(view.supply.items()))
    return (f"**In the supply**: {view.gold_supply} gold · {counted(view.star_supply, 'star')} · "
            f"{counted(view.stock_supply, 'stock ticket')}\n**Sides left**, by kind: {sides}\n"
            f"**The train** stands on {view.train}, worth {view.train_values[view.train]}; the track is worth "
            f"{', '.join(str(v) for v in view.train_values)}.")
