"""Roll the Bones in words: button labels, the rules text and what every event says.

Seats are "Seat 1".."Seat N" here, so the host can put names in. The figures of each event are
also in its ``data``, so a table builds its own lines without reading these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.base import seat_name
from rules.roll_the_bones.models import (
    BONE,
    DICE_SETS,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    TAKE_BACKS_PER_ANTE,
    WITHDRAW,
    Award,
    Phase,
    RollEntry,
    RollTheBonesAction,
    RollTheBonesOptions,
    dice_text,
    die_name,
)
from rules.roll_the_bones.moves import filled_ante
from rules.roll_the_bones.view import RollTheBonesView


def action_label(view: RollTheBonesView, action: RollTheBonesAction) -> str:
    """A short button label (under 80 characters) for one legal action of ``view.me``."""
    me = view.me
    if action.kind in ("ante_add", "ante_remove", "pick"):
        sides = action.sides or 0
        name = die_name(sides)
        if action.kind == "ante_add":
            have = me.hand_sides.count(sides) - me.draft_sides.count(sides) if me else None
            return f"Ante a {name}" + (f" ({have} free)" if have is not None else "")
        if action.kind == "ante_remove":
            left = me.take_backs_left if me else TAKE_BACKS_PER_ANTE
            return f"Take back a {name} ({left} take-back{'s' if left != 1 else ''} left)"
        return f"Roll the bone ({name})" if sides == BONE else f"Roll a {name}"
    if action.kind == "ante_fill":
        if me is None:
            return "Fill with my smallest dice"
        filled = filled_ante(me.hand_sides, me.draft_sides, me.ante_due)
        return f"Fill with my smallest: {dice_text(filled)}"[:80]
    if action.kind == "ante_confirm":
        if me is None:
            return "Seal my ante"
        return f"Seal my ante: {dice_text(me.draft_sides)}"[:80] if me.draft_sides else "Seal my ante (nothing)"
    if action.kind == "bone_toggle":
        verb = "Withdraw my call" if action == WITHDRAW else "Call my bone"
        if me is None:  # on the table, for whoever may press it
            return verb
        left = view.seats[me.seat].changes_left
        return f"{verb} ({left} change{'s' if left != 1 else ''} left)"
    return "Ready"


def rules_summary(options: RollTheBonesOptions | None = None) -> str:
    """The rulebook round, the rulings and the options in force, for the rules command."""
    options = options or RollTheBonesOptions()
    dice_set = DICE_SETS.sets[options.dice_set]
    if options.side_pots == "layered":
        pots = ("**Side pots (layered)**: whenever antes differ, each contribution level is its "
                "own pot, open only to the players who paid into it. The overall winner takes "
                "every pot they paid into and all rolled dice; each other pot goes to its "
                "highest-rolling eligible player (a d12 roll-off among equals).")
    else:
        pots = ("**Side pots (simple)**: no side pots; when a player can't ante in full, "
                "everyone antes only what that player can.")
    return f"""**Roll the Bones**: collect every die. 2-6 players.

**Dice** ({dice_set.name}): each player starts with {dice_set.description}. Bone dice are ordinary members of a collection: they can be anted, lost and won.

**Each roll**
1. **Ante** (sealed): put in the ante; it is 2 dice with 2-3 starting players, 1 with 4-6, **+1 per elimination**. You always keep at least one die. While building it you may take back at most {TAKE_BACKS_PER_ANTE} dice. Antes are revealed together.
2. **Bone call**: to roll a bone die you must call it. Press **Call my bone** (or **Withdraw my call**: at most 2 changes per roll), then **Ready**; the calls close when everyone is Ready since the last change. A call is binding.
3. **Pick** (sealed): choose the die to roll. The bot rolls every die at once.
4. The highest roll takes the pot and every rolled die, their own included.

**Ties**: every die rolled goes to the centre; the tied players ante again and roll again with any die. If a tied player rolled their last die, all tied players keep their rolled dice and roll again without a new ante (untied dice still go to the centre). Untied players can't win the pots a tied player paid into; a side pot no tied player paid into is decided at once, by that roll, among those who paid into it. A round has at most {ROLLS_PER_ROUND} rolls: if the last one ties too, a d{ROLLOFF_SIDES} roll-off among the tied players decides it.

{pots}

A player with no dice at the end of a round is eliminated. The last player left wins; after round **{options.max_rounds}** the most dice wins (ties shared).

**Timeouts**: ante = your smallest dice; bone call = stays as it is; pick = your largest ordinary die, or the bone die if called.

**House rulings**: dice set *{dice_set.name}*; the bone call has its own phase; you can't roll a bone die you did not call, and a player holding only bone dice must call; the winner keeps their own die too; ties as above; side pots *{options.side_pots}*; the ante follows the starting number of players; eliminations happen at the end of a round; the game ends after round *{options.max_rounds}*.
"""


# -- what happened ------------------------------------------------------------------------------


def seats_text(seats: Sequence[int]) -> str:
    """"Seat 1", "Seat 1 and Seat 2", "Seat 1, Seat 2 and Seat 3" ("nobody" for none)."""
    names = [seat_name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def round_text(round_: int, ante: int, playing: Sequence[int]) -> str:
    return f"Round {round_}: the ante is {ante} ({seats_text(playing)} play)."


#: how a revealed ante says it falls short of the ante in force (RB-7, RB-8)
ANTE_NOTES: dict[str, str] = {
    "last_die": " (short: keeps their last die)",
    "short": " (short)",
    "matching": " (matching the short ante)",
}


def ante_words(dice: Iterable[int], note: str | None) -> str:
    """One seat's revealed ante: ``d4 (short)``, ``2×d4``."""
    return dice_text(dice) + ANTE_NOTES.get(note or "", "")


def antes_text(seats: Sequence[int], antes: Sequence[Sequence[int]],
               notes: Sequence[str | None]) -> str:
    parts = [f"{seat_name(s)}: {ante_words(a, n)}" for s, a, n in zip(seats, antes, notes, strict=True)]
    return "Antes revealed. " + "; ".join(parts) + "."


def forced_call_text(seat: int) -> str:
    return f"{seat_name(seat)} holds only bone dice and must call the bone."


def callers_words(callers: Sequence[int]) -> str:
    """Who rolls a bone die this time: "Seat 2 rolls a bone die", "nobody rolls a bone die"."""
    if not callers:
        return "nobody rolls a bone die"
    return f"{seats_text(callers)} {'rolls' if len(callers) == 1 else 'roll'} a bone die"


def calls_closed_text(callers: Sequence[int]) -> str:
    return f"Bone calls are closed: {callers_words(callers)}."


def call_text(seat: int, called: bool, left: int) -> str:
    verb = "calls the bone die" if called else "withdraws their bone call"
    return (f"{seat_name(seat)} {verb} ({left} change{'s' if left != 1 else ''} left); "
            "everyone must be Ready again.")


def sealed_text(seat: int, phase: Phase) -> str:
    """A sealed choice is made: never which."""
    return f"{seat_name(seat)} has sealed their ante." if phase == "ante" else f"{seat_name(seat)} has picked a die."


def ready_text(seat: int) -> str:
    return f"{seat_name(seat)} is ready."


def _thrown(entry: RollEntry) -> str:
    die = f"the bone {die_name(entry.sides)}" if entry.bone else die_name(entry.sides)
    return f"{seat_name(entry.seat)} rolled {die}: {entry.face}"


def roll_text(entries: Sequence[RollEntry]) -> str:
    return "; ".join(_thrown(e) for e in entries) + "."


def _rolloff_words(throws: Sequence[RollEntry]) -> str:
    return ", ".join(f"{seat_name(e.seat)} {e.face}" for e in throws)


def last_roll_tie_text(top: int, tied: Sequence[int], throws: Sequence[RollEntry]) -> str:
    return (f"Tie at {top} between {seats_text(tied)} on the round's last roll "
            f"({ROLLS_PER_ROUND}): a d{ROLLOFF_SIDES} roll-off ({_rolloff_words(throws)}) decides it.")


def tie_text(top: int, tied: Sequence[int], last_die: bool, ante: int) -> str:
    if last_die:
        return (f"Tie at {top} between {seats_text(tied)}, and a last die was rolled: the tied "
                f"players keep their dice and roll again without a new ante.")
    return (f"Tie at {top} between {seats_text(tied)}: every rolled die goes to the centre "
            f"and the tied players ante {ante} again and roll again.")


def award_text(award: Award) -> str:
    text = f"{seat_name(award.taker)} takes the {award.pot.lower()} ({dice_text(award.dice)})"
    if award.rolloff:
        text += f" after a roll-off ({_rolloff_words(award.rolloff[-1])})"
    return text + "."


def win_text(winner: int, top: int, rolled: Sequence[int]) -> str:
    return f"{seat_name(winner)} wins the roll with {top} and takes the rolled dice ({dice_text(rolled)})."


def eliminated_text(out: Sequence[int], ante: int) -> str:
    return (f"{seats_text(out)} {'is' if len(out) == 1 else 'are'} out of dice and eliminated; "
            f"the ante rises to {ante}.")


def last_player_text(winner: int, dice: int) -> str:
    return f"{seat_name(winner)} holds all {dice} dice and wins!"


def cap_text(round_: int, best: Sequence[int], dice: int) -> str:
    return f"Round {round_} was the last: most dice wins: {seats_text(best)} with {dice}."


#: RULINGS 2.3, in words that name no die: the default is public, but the table learns the
#: dice at the reveal like everyone else's
TIMEOUT_WORDS: dict[str, str] = {
    "ante": "the default ante is sealed for them",
    "bone": "their bone call stays as it is",
    "pick": "the default die is picked for them",
}


def timeout_text(seat: int, phase: str) -> str:
    return f"{seat_name(seat)} ran out of time: {TIMEOUT_WORDS[phase]}."
