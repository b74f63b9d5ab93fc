"""Rattlebones turns in one line of history, die by die, from the events' figures.

A turn can pay gold, roll three dice, move three monkeys, change three sides and score, and bot
seats may play several turns before the next table: the old table's line must still say every
change a player would otherwise find unexplained on the next one (a monkey that jumped, gold
that went). So each turn says what it paid and what each die it used did; only when that does
not fit the line does it say less (no starting spaces; then no dice), and only then is the end
cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import Table
from bot.render import clip, seat_names
from rules import rattlebones as rb
from rules.base import Event, counted, seat_name
from rules.rattlebones.dice import kind_of
from rules.rattlebones.text import STOLEN, ordinal

#: a line of history is at most 400 characters with its heading ("**Turns 35–36** · ")
STORY_LIMIT = 370


@dataclass
class _Use:
    """One throw of a die and the events of its use (``die`` None: events saved before they
    named their die)."""

    die: int | None
    face: str | None = None
    acts_as: str | None = None
    events: list[Event] = field(default_factory=list)


@dataclass
class _Turn:
    seat: int
    late: bool = False
    paid: int = 0
    #: the dice in the order they were used; a die Roll Again throws again is a new use
    uses: list[_Use] = field(default_factory=list)
    #: dice thrown and not used yet: (face, acts_as)
    thrown: dict[int, tuple[str, str | None]] = field(default_factory=dict)

    def use(self, die: int | None) -> _Use:
        if die is not None and die in self.thrown:
            face, acts_as = self.thrown.pop(die)
            self.uses.append(_Use(die, face, acts_as))
        found = next((u for u in reversed(self.uses) if u.die == die), None)
        if found is None:
            found = _Use(die)
            self.uses.append(found)
        return found


def turns(events: list[Event]) -> list[_Turn]:
    """The events by turn (one seat's; two turns in a row are different seats') and, within a
    turn, by die."""
    told: list[_Turn] = []
    for e in events:
        if e.seat is None or e.kind == "over":
            continue  # the end is the next table's
        if e.kind == "score" and e.data.get("source") == "stock":
            continue  # the payout says it, and its seat is the ticket holder's, not the turn's
        if not told or told[-1].seat != e.seat:
            told.append(_Turn(e.seat))
        turn = told[-1]
        if e.kind == "timeout":
            turn.late = True
        elif e.kind == "pay":
            turn.paid += e.data["gold"]
        elif e.kind == "throw":
            for t in e.data["throws"]:
                turn.thrown[t["die"]] = (t["face"], t["acts_as"])
        else:
            turn.use(e.data.get("die")).events.append(e)
    return told


def _space(view: rb.RattlebonesView, index: int) -> str:
    """A space as the table's buttons name it: "Gold (2)" (two spaces may be Gold)."""
    index %= len(view.spaces)
    return f"{view.spaces[index].name} ({index})"


#: how much a line says: every figure; no space a monkey left; the least
FULL, SHORTER, TERSE = 2, 1, 0


def clause(e: Event, view: rb.RattlebonesView, level: int, own_die: bool) -> str | None:
    """What one event changed: the rest of a sentence whose subject is the die ("moves monkey
    3 Train (11) → Star (1)"), or at ``TERSE`` a figure ("monkey 3 to Star"); None when nothing
    of a player's changed. ``own_die``: the sentence names the die, so a new side need not."""
    d, k = e.data, e.kind
    terse = level == TERSE
    if k == "move":
        to = _space(view, d["space"])
        if terse:
            return f"monkey {d['monkey'] + 1} to {view.spaces[d['space']].name}"
        if level == SHORTER:
            return f"moves monkey {d['monkey'] + 1} to {to}"
        return f"moves monkey {d['monkey'] + 1} {_space(view, d['space'] - d['steps'])} → {to}"
    if k == "rattlebones":
        return f"Rattlebones to {d['at']}" if terse else f"takes Rattlebones back to {d['at']}"
    if k == "replace":
        where = f"side {d['slot'] + 1}" if own_die else f"die {d['die'] + 1}, side {d['slot'] + 1}"
        return f"{rb.face_name(d['new'])} on die {d['die'] + 1}" if terse else f"puts {rb.face_name(d['new'])} on {where}"
    if k in ("gold", "star"):
        got = d["got"]
        if not got:
            return f"no {'gold' if k == 'gold' else 'stars'} left"
        return ("+" if terse else "takes ") + (f"{got} gold" if k == "gold" else counted(got, "star"))
    if k == "score":
        n, source = d["points"], d["source"]
        if source == "store":
            return f"sells {counted(d['stars'], 'star')} for {n}"
        why = {"train": " from the train", "place": f" for {ordinal(d.get('place', 0))} place"}.get(source, "")
        return f"{'+' if terse else 'scores '}{counted(n, 'point')}{why}"
    if k == "thief":
        if d["victim"] is None:
            return None if terse else "finds nothing to steal"
        return f"steals {STOLEN[d['take']]} from {seat_name(d['victim'])}"
    if k == "stock":
        if "payout" in d:
            paid = ", ".join(f"{seat_name(s)} +{n}" for s, n in enumerate(d["payout"]) if n)
            return f"the stock pays out ({paid})"
        return ("+1 stock ticket" if terse else "takes a stock ticket") if d["took"] else None
    if k == "roll_again" and d["added"] is not None:
        return f"rolls again with die {d['added'] + 1}"
    if k == "x2" and d["outcome"] == "doubles":
        return f"doubles die {d['target'] + 1}"
    return None  # pay, train, gamble, keep, kept stars, an empty supply, arrows in a circle


def _and(said: list[str]) -> str:
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _shown(face: str, acts_as: str | None) -> str:
    """What the die showed: "4 pips", "Arrow: Gold"."""
    if kind_of(face) != "arrow":
        return rb.face_name(face)
    return "Arrow" if acts_as is None else f"Arrow: {rb.face_name(acts_as)}"


def turn_line(turn: _Turn, view: rb.RattlebonesView, level: int) -> str | None:
    """A turn: who, what they paid, then each die and what it did; None when nothing at all
    is to be said."""
    terse = level == TERSE
    did = [f"pays {turn.paid} gold"] if turn.paid else []
    head = seat_name(turn.seat) + (" ran out of time" if turn.late else "")
    if did and not terse:
        head += (" and " if turn.late else " ") + did.pop()
    for use in turn.uses:
        named = use.die is not None and use.face is not None and not terse
        said = [c for e in use.events if (c := clause(e, view, level, named))]
        if terse:
            did += said
        elif use.die is not None and use.face is not None:
            shown = f"die {use.die + 1} ({_shown(use.face, use.acts_as)})"
            did.append(f"{shown} {_and(said) if said else 'does nothing'}")
        elif said:
            did.append(_and(said))
    if not did:
        return head if turn.late or turn.paid else None
    return f"{head}: {(', ' if terse else '; ').join(did)}"


def story(table: Table, view: rb.RattlebonesView, events: list[Event]) -> str | None:
    """The turns of ``events`` in one line of history, in full words if they fit once the
    host has put the players' names in ("Seat N" is left for it to replace)."""
    told = turns(events)
    line, longer = "", 0
    for level in (FULL, SHORTER, TERSE):
        line = " · ".join(filter(None, (turn_line(t, view, level) for t in told)))
        longer = len(seat_names(table, line)) - len(line)
        if len(line) + longer <= STORY_LIMIT:
            return line or None
    return clip(line, STORY_LIMIT - max(longer, 0))
