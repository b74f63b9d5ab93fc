"""Rattlebones in words for players: button labels, where everyone stands, the rules.

Everything here reads only a view, so a cog can label its controls without the state. Seats
are "Seat N" (the host puts names in); dice and sides are numbered from 1 as printed.
"""

from __future__ import annotations

from rules.rattlebones.board import DATA, POINT_VALUES, space_name
from rules.rattlebones.dice import face_name, kind_of, value_of
from rules.rattlebones.engine import star_value
from rules.rattlebones.models import (
    MAX_TURNS,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesView,
)

LABEL_LIMIT = 80


def _clip(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def _space(view: RattlebonesView, index: int) -> str:
    return f"{view.spaces[index].name} ({index})"


def _pending_face(view: RattlebonesView, die: int | None) -> str:
    roll = next((r for r in reversed(view.rolls) if r.die == die), None)
    if roll is None:
        return "?"
    if kind_of(roll.face) == "arrow":
        return f"Arrow: {face_name(roll.acts_as)}"
    return face_name(roll.acts_as)


def action_label(view: RattlebonesView, action: RattlebonesAction) -> str:
    """A short button label (at most 80 characters) for one legal action."""
    seat = view.current_seat if view.current_seat is not None else 0
    me = view.players[seat]
    decision = view.decision
    k = action.kind
    if k == "roll":
        dice = action.dice or ()
        if len(dice) == 1:
            return f"Throw die {dice[0] + 1}"
        if len(dice) == 2:
            return f"Pay 1 gold: throw dice {dice[0] + 1} and {dice[1] + 1}"
        return "Pay 2 gold: throw all three dice"
    if k == "use":
        return _clip(f"Use die {(action.die or 0) + 1}: {_pending_face(view, action.die)}")
    if k == "monkey":
        m = action.monkey or 0
        here = me.monkeys[m]
        steps = decision.steps if decision else None
        if steps is None:
            return _clip(f"Monkey {m + 1} on {_space(view, here)}")
        to = (here + steps) % len(view.spaces)
        return _clip(f"Monkey {m + 1}: {_space(view, here)} to {_space(view, to)}")
    if k == "distance":
        here = me.monkeys[decision.monkey or 0] if decision else 0
        to = (here + (action.n or 0)) % len(view.spaces)
        return _clip(f"{action.n}: to {_space(view, to)}")
    faces = me.dice[decision.die] if decision and decision.die is not None else []
    if k == "keep":
        return f"Keep die {(decision.die or 0) + 1 if decision else 1} as it is"
    if k == "replace":
        side = decision.side if decision else None
        new = "Arrow" if side == "arrow" else face_name(side)
        slot = action.slot or 0
        return _clip(f"Side {slot + 1} ({face_name(faces[slot])}) becomes {new}")
    if k == "upgrade":
        slot = action.slot or 0
        n = value_of(faces[slot])
        return f"+1: side {slot + 1} from {n} to {n + 1} points"
    if k == "aim":
        slot = action.slot or 0
        return _clip(f"Point at side {slot + 1} ({face_name(faces[slot])})")
    if k == "sell":
        n = action.n or 0
        if not n:
            return "Keep my stars"
        return f"Sell {n} star{'s' if n > 1 else ''} for {star_value(n, view.options.store)} points"
    if k == "add_die":
        return f"Throw die {(action.die or 0) + 1} along"
    if k == "steal":
        noun = {"gold": "1 gold", "star": "1 star", "stock": "1 stock ticket"}
        what = noun[action.take or "gold"]
        return f"Take {what} from Seat {(action.victim or 0) + 1}"
    if k == "double":
        roll = next(r for r in view.rolls if r.die == action.target and r.state == "done"
                    and r.gain)
        noun = {"gold": "gold", "star": "star" + ("s" if roll.amount > 1 else ""),
                "points": "point" + ("s" if roll.amount > 1 else "")}[roll.gain or "points"]
        return f"Double die {(action.target or 0) + 1}: {roll.amount} more {noun}"
    if k == "no_double":
        return "Don't use the x2"
    return k  # pragma: no cover - every kind is above


def standings(view: RattlebonesView) -> list[str]:
    """One line a player: score and how far Rattlebones is, gold, stars, stock."""
    lines = []
    for p in view.players:
        gap = view.rattlebones - p.score
        away = "meets Rattlebones" if gap <= 0 else f"{gap} from Rattlebones"
        lines.append(f"Seat {p.seat + 1}: {p.score} points ({away}), {p.gold} gold, "
                     f"{p.stars} star{'s' if p.stars != 1 else ''}, {p.stock} stock")
    return lines


def rules_summary(options: RattlebonesOptions | None = None) -> str:
    """The rulebook turn, the sides and the house rulings in force, for the rules command."""
    options = options or RattlebonesOptions()
    board = {"standard14": "a loop of 14 spaces: START/STORE, six printed spaces (Gold, Roll "
                           "Again, Star, Train, 9-Pip, +1) and seven spaces each taking a tile "
                           "drawn at random from the twelve",
             "compact8": "a loop of 8 spaces: START/STORE and seven random tiles",
             "custom": "a custom loop set by the host, blanks taking random tiles"}[options.board]
    split = DATA.point_sides[options.point_sides]
    split_text = ", ".join(f"{n} of {v}" for v, n in zip(POINT_VALUES, split))
    train = ", ".join(str(v) for v in options.train_values)
    more_stars = ("more than 4 sell for 4 points each less 1" if options.store == "linear"
                  else "more than 4 sell in batches of up to 4, each batch by the chart")
    starts = ", ".join(f"{DATA.rattlebones_start[n]} with {n} players" for n in (2, 3, 4))
    return f"""**Rattlebones**: race your monkeys round the board and build your dice to score. 2-4 players.

**The board**: {board}. Rattlebones waits on the score track ({starts}). The train runs round a track worth {train}.

**Your dice**: three dice, side 1 is always the Rattlebones icon; sides 2-6 start as pips and change as you land on spaces.

**Your turn**
1. Throw one die, or pay 1 gold to throw two, or 2 gold to throw all three. Use them in any order.
2. Pips move one of your monkeys that many spaces. The icon moves Rattlebones one step back, then a monkey one space.
3. Landing on a space, you may put its side on the die you threw to get there (never over side 1). Replaced pips leave the game; other sides go back to the supply. +1 puts on a 1-point side or raises a point side of that die by one (at most 5). START/STORE sells stars: {", ".join(f"{i + 1} for {v}" for i, v in enumerate(DATA.star_chart))}; {more_stars}.
4. Sides: Gold and Star take one from the supply. Roll Again throws that die again with one not thrown yet this turn (with none left, it does nothing). Train scores the train's space, then moves it on. 9-Pip moves a monkey 1 to 9. Points score 1-5. Thief takes a gold, star or stock ticket from each other player (you choose for each). Arrow does what the side it points at does. 1234 scores your place (1 if leading). Stock takes a ticket: when the last is taken, the most tickets score 10 and second 5 (tied first 7 each, tied seconds 2 each, all five 15); then they all go back. x2 gives another die's gold, stars or points once more. Gamble rolls the Gamble die: 2-5 points, or Rattlebones steps back.

**The end**: the moment a mouse meets or passes Rattlebones. The highest score wins; ties go to the most gold + stars + stock, else stay tied.

**House rulings**
- Each side kind on the board has 15 sides; the point sides are {split_text}. With none left, you get nothing.
- An arrow points at one of the four sides next to it, chosen when placed; arrows pointing round in a circle do nothing. An arrow to pips moves a monkey and lands for the arrow's die.
- Each x2 doubles a different die's gain (not the Gamble die, Thief, Stock or the Store); two x2s never double one die.
- 1234 counts the players with more points than you before it scores. +1 raises only a point side of the die you threw.
- Only a ticket taken from the supply can set off the stock payout; players with no ticket never place.
- An x2 may be given as soon as the die it doubles has been used, and until your turn ends.
- If Rattlebones' step ends the game, the monkey does not move; unused dice are dropped. The start player is random. Every choice moves your turn on (nothing is taken back), and the game stops after {MAX_TURNS} turns at most.
- If your time runs out: the first die, no gold; dice in thrown order; your rearmost monkey (a 9-Pip moves 9); no new side; all stars sold; gold before stars before tickets; x2 on the biggest gain.
"""
