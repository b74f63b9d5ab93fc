"""Rattlebones in words for players: the log's line for each event, the open decision, button
labels, where everyone stands, the rules.

An event's line is made from its kind, seats and figures alone (``event_text``), so the log and a
cog that tells the same thing say the same words. Labels read only a view, so a cog can label its
controls without the state. Seats are "Seat N" (the host puts names in); dice and sides are
numbered from 1 as printed (figures number them from 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import seat_name
from rules.rattlebones.board import DATA, POINT_VALUES, side_name, space_name
from rules.rattlebones.dice import face_name, kind_of, value_of
from rules.rattlebones.models import (
    MAX_TURNS,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesView,
)
from rules.rattlebones.scoring import star_value

# -- what happened ----------------------------------------------------------------------------

TIMEOUT = "ran out of time: the rest of the turn is played by default."
STOLEN = {"gold": "1 gold", "star": "1 star", "stock": "1 stock ticket"}


def _plural(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"


def _count(n: int, word: str) -> str:
    return f"{n} {_plural(n, word)}"


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def score_reason(data: Mapping[str, Any]) -> str:
    """Where points came from, in the words that follow "scores 3 points"."""
    source = data["source"]
    if source == "points":
        return "from a points side"
    if source == "train":
        return "from the train"
    if source == "place":
        return f"for {ordinal(data['place'])} place (the 1234 side)"
    if source == "store":
        return f"for selling {data['stars']} {_plural(data['stars'], 'star')}"
    if source == "stock":
        return f"from the stock payout ({data['tickets']} {_plural(data['tickets'], 'ticket')})"
    if source == "gamble":
        return "from the Gamble die"
    return "from an x2"


def event_text(kind: str, seats: tuple[int, ...], data: Mapping[str, Any]) -> str:
    """The log's line for an event of this game (see ``flow`` for the figures of each kind)."""
    if kind == "over":
        if data["reason"] == "cap":
            return (f"The game reached its {data['turns']}-turn limit and ends on the scores as "
                    "they stand.")
        names = " and ".join(seat_name(s) for s in seats)
        return (f"A mouse meets Rattlebones on {data['at']}: the game is over. {names} "
                f"{'wins' if len(seats) == 1 else 'tie'}.")
    who = seat_name(seats[0])
    die = data.get("die", 0) + 1
    if kind == "timeout":
        return f"{who} {TIMEOUT}"
    if kind == "throw":
        shown = []
        for t in data["throws"]:
            word = face_name(t["face"])
            if kind_of(t["face"]) == "arrow":
                word += f" ({face_name(t['acts_as'])})"
            shown.append(f"die {t['die'] + 1}: {word}")
        return f"{who} rolls " + ", ".join(shown)
    if kind == "pay":
        return f"{who} pays {data['gold']} gold to roll {data['dice']} dice"
    if kind == "score":
        if not data["points"]:
            return f"{who} scores nothing {score_reason(data)}"
        n = data["points"]
        return f"{who} scores {n} {_plural(n, 'point')} {score_reason(data)}, {data['total']} in all"
    if kind == "rattlebones":
        # whose skull it was: history puts several players' turns in one line
        return f"{who} moves Rattlebones back to {data['at']}"
    if kind == "arrow":
        return f"The arrows on die {die} go round in a circle: nothing happens"
    if kind in ("gold", "star"):
        got = data["got"]
        if not got:
            return f"No {'gold' if kind == 'gold' else 'stars'} left in the supply"
        return f"{who} takes {got} {'gold' if kind == 'gold' else _plural(got, 'star')}"
    if kind == "train":
        return f"The train moves on to space {data['space']}"
    if kind == "roll_again":
        if data["added"] is None:
            return f"Roll Again on die {die} is ignored: every die has been rolled this turn"
        return f"Roll Again: die {die} is rolled again with die {data['added'] + 1}"
    if kind == "thief":
        if data["victim"] is None:
            return "Thief: nobody has anything to take"
        return f"{who} steals {STOLEN[data['take']]} from {seat_name(data['victim'])}"
    if kind == "stock":
        if "payout" in data:
            return "The last stock ticket is taken: the stock pays out"
        if not data["took"]:
            return "No stock tickets left"
        return f"{who} takes a stock ticket ({data['left']} left)"
    if kind == "gamble":
        return f"The Gamble die shows {face_name(data['face'])}"
    if kind == "x2":
        if data["outcome"] == "doubles":
            return f"x2 on die {die} doubles die {data['target'] + 1}"
        if data["outcome"] == "nothing":
            return f"x2 on die {die} has nothing to double"
        return f"x2 on die {die} is not used"
    if kind == "keep":
        return f"{who} keeps the die as it is"
    if kind == "store":
        return f"{who} keeps their stars"
    if kind == "move":
        steps = data["steps"]
        return (f"{who} moves monkey {data['monkey'] + 1} to {space_name(data['space_kind'])} "
                f"({steps} {_plural(steps, 'space')})")
    if kind == "supply":
        what = (face_name(data["side"]) if data["space_kind"] == "plus_one"
                else side_name(data["space_kind"]))
        return f"No {what} side is left to put on the die"
    if kind == "replace":
        return (f"{who} puts {face_name(data['new'])} on die {die}, side {data['slot'] + 1} "
                f"(was {face_name(data['old'])})")
    raise ValueError(f"no words for a {kind!r} event: {dict(data)}")


# -- the open decision ------------------------------------------------------------------------


#: why a die is rolled, for a player's first turns: three dice of pips all look alike
FIRST_ROLL = "Its pips move a monkey; where it lands, you may give that die the space's side."


def roll_prompt(gold: int, first: bool = False) -> str:
    """``first``: the player's first turns, when they are told why a die is rolled."""
    extra = []
    if gold >= 1:
        extra.append("1 gold for two")
    if gold >= 2:
        extra.append("2 gold for all three")
    paid = f" (or pay {' or '.join(extra)})" if extra else ""
    return f"Choose a die to roll{paid}." + (f" {FIRST_ROLL}" if first else "")


def order_prompt(ready_x2: int | None) -> str:
    also = f" (or give die {ready_x2 + 1}'s x2 to a die used already)" if ready_x2 is not None else ""
    return f"Choose which die to use next{also}."


def x2_prompt(die: int) -> str:
    return f"x2 on die {die + 1}: choose a die whose gain it gives once more."


def monkey_prompt(die: int, steps: int | None) -> str:
    how = "9-Pip" if steps is None else f"{steps} {_plural(steps, 'space')}"
    return f"Die {die + 1}: choose the monkey to move ({how})."


def distance_prompt(monkey: int) -> str:
    return f"9-Pip: how far does monkey {monkey + 1} move?"


def landed_words(die: int, face: str, acts_as: str, rattlebones: int,
                 start: tuple[int, str], end: tuple[int, str]) -> str:
    """What the die showed and where it took the monkey, said before a landing's question: the
    throw and the move went by themselves (one die, one space for every monkey), so without
    this the question is the first a new player hears of them. ``start`` and ``end`` are
    (space, kind)."""
    shown = face_name(face)
    if kind_of(face) == "arrow":
        shown += f", so {face_name(acts_as)}"
    if kind_of(acts_as) == "rb":
        shown += f": Rattlebones stepped back to {rattlebones}, and"
    else:
        shown += ":"
    return (f"Die {die + 1} showed {shown} your monkey moved from {space_name(start[1])} ({start[0]}) "
            f"to {space_name(end[1])} ({end[0]}).")


def replace_prompt(die: int) -> str:
    return f"Choose a side of die {die + 1} to change, or keep it."


def aim_prompt(slot: int) -> str:
    return f"Choose where the Arrow on side {slot + 1} points."


def store_prompt(stars: int) -> str:
    if stars == 1:
        return "Do you sell your 1 star at the Store?"
    return f"How many of your {stars} stars do you sell at the Store?"


def star_chart(upto: int = len(DATA.star_chart)) -> str:
    """What the Store pays: "1 star → 3 points, 2 stars → 7 points, ..." (both Store options
    follow the chart up to 4 stars)."""
    return ", ".join(f"{_count(n, 'star')} → {_count(star_value(n), 'point')}" for n in range(1, upto + 1))


def side_does(side: str) -> str:
    """What a side on offer does when rolled, in the glossary's words: "take 1 gold from the
    supply"."""
    kind = kind_of(side)
    if kind == "points":
        return f"score {_count(value_of(side), 'point')}"
    return DATA.sides[kind].does


def add_die_prompt(die: int) -> str:
    return f"Roll Again: choose a die to roll with die {die + 1}."


def thief_prompt(victim: int) -> str:
    return f"Thief: what do you take from {seat_name(victim)}?"


# -- buttons ----------------------------------------------------------------------------------


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
            return f"Roll die {dice[0] + 1}"
        if len(dice) == 2:
            return f"Pay 1 gold: roll dice {dice[0] + 1} and {dice[1] + 1}"
        return "Pay 2 gold: roll all three dice"
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
        # what it does: the Roll Again die is rolled again together with this one
        again = decision.die if decision and decision.die is not None else 0
        return f"Roll die {(action.die or 0) + 1} with die {again + 1}"
    if k == "steal":
        return f"Take {STOLEN[action.take or 'gold']} from {seat_name(action.victim or 0)}"
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
        away = f"{p.to_go} from Rattlebones" if p.to_go else "meets Rattlebones"
        lines.append(f"{seat_name(p.seat)}: {p.score} points ({away}), {p.gold} gold, "
                     f"{p.stars} star{'s' if p.stars != 1 else ''}, {p.stock} stock")
    return lines


def _board_text(options: RattlebonesOptions) -> str:
    return {"standard14": "a loop of 14 spaces: Start / Store, six printed spaces (Gold, Roll "
                          "Again, Star, Train, 9-Pip, +1) and seven spaces each taking a tile "
                          "drawn at random from the twelve",
            "compact8": "a loop of 8 spaces: Start / Store and seven random tiles",
            "custom": "a custom loop set by the host, blanks taking random tiles"}[options.board]


def _starts() -> str:
    return ", ".join(f"{DATA.rattlebones_start[n]} with {n} players" for n in (2, 3, 4))


def how_to_play(options: RattlebonesOptions | None = None) -> str:
    """The essentials on one phone screen: enough to take a first turn."""
    options = options or RattlebonesOptions()
    return f"""Race your monkeys round the board and rebuild your dice to score points. 2-4 players.

**Your turn**
1. Roll one die, or pay 1 gold to roll two, 2 gold for all three.
2. **Pips** move a monkey that many spaces. The **Rattlebones** skull (side 1) moves Rattlebones one step back, then a monkey one space.
3. Where it lands, you may put that space's side on the die you rolled (never over side 1). That is how your dice get better.
4. Other sides act: Gold takes a gold, points score, and so on.

**The end**: Rattlebones waits on the score track: on {DATA.rattlebones_start[2]} with two players, {DATA.rattlebones_start[3]} with three, {DATA.rattlebones_start[4]} with four. When a score reaches him, the game ends; the highest score wins.

**Details** shows everyone's dice."""


def rules_sections(options: RattlebonesOptions | None = None) -> list[tuple[str, str]]:
    """The full rules and the house rulings in force, as (title, text) sections."""
    options = options or RattlebonesOptions()
    split = DATA.point_sides[options.point_sides]
    split_text = ", ".join(f"{n} of {v}" for v, n in zip(POINT_VALUES, split, strict=True))
    train = ", ".join(str(v) for v in options.train_values)
    more_stars = ("more than 4 sell for 4 points each less 1" if options.store == "linear"
                  else "more than 4 sell in batches of up to 4, each batch by the chart")
    return [
        ("The board and your dice",
         f"**The board**: {_board_text(options)}. Rattlebones waits on the score track "
         f"({_starts()}). The train runs round a track worth {train}. Landing on Start / Store "
         f"sells stars: {star_chart()}; {more_stars}.\n\n"
         "**Your dice**: three dice; side 1 is always the Rattlebones skull, sides 2-6 start as "
         "pips and change as you land on spaces."),
        ("Your turn and the end",
         "1. Roll one die, or pay 1 gold to roll two, or 2 gold to roll all three. Use them "
         "in any order.\n"
         "2. Pips move one of your monkeys that many spaces. The skull moves Rattlebones one "
         "step back, then a monkey one space.\n"
         "3. Landing on a space, you may put its side on the die you rolled to get there (never "
         "over side 1). Replaced pips leave the game; other sides go back to the supply. +1 puts "
         "on a 1-point side or raises a point side of that die by one (at most 5).\n\n"
         "**The end**: the moment a score meets or passes Rattlebones, the game ends. The highest "
         "score wins; ties go to the most gold + stars + stock tickets, else stay tied."),
        ("What the sides do",
         "Gold and Star take one. Roll Again rolls that die again with one not "
         "rolled yet this turn (once all are rolled, it is ignored). Train scores the train's space, "
         "then moves it on. 9-Pip moves a monkey 1 to 9 spaces. Points score 1-5. Thief takes a "
         "gold, star or stock ticket from each other player (you choose for each). Arrow does "
         "what the side it points at does. 1234 scores your place (1 if leading). Stock takes a "
         "ticket: when the last is taken, the most tickets score 10 and second 5 (tied first 7 "
         "each, tied seconds 2 each, all five 15); then they all go back. x2 gives another "
         "die's gold, stars or points once more. Gamble rolls the Gamble die: 2-5 points, or "
         "Rattlebones steps back."),
        ("House rulings",
         f"- Each side kind on the board has 15 sides; the point sides are {split_text}. With "
         "none left, you get nothing.\n"
         "- An arrow points at one of the four sides next to it, chosen when placed; arrows "
         "in a circle do nothing. An arrow to pips moves a monkey and lands for "
         "the arrow's die.\n"
         "- Each x2 doubles a different die's gain (not the Gamble die, Thief, Stock or the "
         "Store) once that die is used, until your turn ends; two x2s never double one die.\n"
         "- 1234 counts the players with more points than you before it scores. +1 raises only "
         "a point side of the die you rolled.\n"
         "- Only a ticket taken from the supply can set off the stock payout; players with no "
         "ticket never place."),
        ("More house rulings",
         "- If Rattlebones' step ends the game, the monkey does not move; unused dice are "
         "dropped. The start player is random. Every choice moves your turn on (nothing is "
         f"taken back), and the game stops after {MAX_TURNS} turns at most.\n"
         "- If your time runs out: the first die, no gold; dice in rolled order; your rearmost "
         "monkey (a 9-Pip moves 9); no new side; all stars sold; gold before stars before "
         "tickets; x2 on the biggest gain."),
    ]


def rules_summary(options: RattlebonesOptions | None = None) -> str:
    """The rulebook turn, the sides and the house rulings in force, for the rules command."""
    return "**Rattlebones**: race your monkeys round the board and build your dice to score. " \
           "2-4 players.\n\n" + "\n\n".join(f"**{title}**\n{text}" for title, text in rules_sections(options))


# -- the game's own words ---------------------------------------------------------------------

#: (word, what it means): the words of the board and the pieces
BOARD_WORDS: tuple[tuple[str, str], ...] = (
    ("Monkey", "one of your three pawns on the board; they all start on Start / Store"),
    ("Score track", "the bar under the board: your pawn there shows your points"),
    ("Rattlebones", "the skull: side 1 of every die, and the pawn waiting on the score track. "
                    "Rolling the skull moves him a step back; when a score reaches him the game ends"),
    ("Side", "one face of a die, numbered 1 to 6; side 1 never changes"),
    ("Pips", "dots: that many spaces to move a monkey"),
    ("Start / Store", "where monkeys start; landing there sells stars for points "
                      f"({star_chart()})"),
    ("Gold", "pays for rolling more dice (1 gold for two, 2 for all three)"),
    ("Star", "sold at the Store for points"),
    ("Stock ticket", "taken by a Stock side; when the last one is taken, the most tickets score"),
    ("Supply", "the sides, gold, stars and stock tickets nobody holds (15 sides of each kind)"),
)


#: the sides told on a page of their own, each group a phone screen
SCORING_SIDES = ("train", "points", "place", "stock", "x2", "gamble")
#: the board's words that are the things players hold
HELD_WORDS = ("Gold", "Star", "Stock ticket", "Supply")


def glossary() -> list[tuple[str, list[tuple[str, str]]]]:
    """The game's words in four groups of one phone screen each: the board's, what players
    hold, the sides that score and the others (as the data file says what each side does)."""
    board = [w for w in BOARD_WORDS if w[0] not in HELD_WORDS]
    held = [w for w in BOARD_WORDS if w[0] in HELD_WORDS]
    sides = [(side.name, side.does) for key, side in DATA.sides.items() if key not in SCORING_SIDES]
    sides.append(("+1", "a space: put a 1-point side on the die, or raise one of its points sides by 1"))
    scoring = [(DATA.sides[key].name, DATA.sides[key].does) for key in SCORING_SIDES]
    return [("the board", board), ("gold, stars and tickets", held), ("the sides", sides),
            ("sides that score", scoring)]


def die_words(faces: list[str]) -> str:
    """A die's six sides in order, in plain words: "Rattlebones, Gold, 3 pips, ...\"."""
    return ", ".join(face_name(f) for f in faces)
