"""Roll the Bones in words: button labels, the rules text and what every event says.

Seats are "Seat 1".."Seat N" here, so the host can put names in. The figures of each event are
also in its ``data``, so a table builds its own lines without reading these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.base import seat_name
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
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
    RollTheBonesState,
    dice_text,
    die_name,
)
from rules.roll_the_bones.moves import filled_ante, has_call
from rules.roll_the_bones.view import RollTheBonesView


#: the Ready button's words: the table shows one for everyone asked, so it speaks for whoever
#: presses it
READY_LABEL = "I'm ready"


def action_label(view: RollTheBonesView, action: RollTheBonesAction) -> str:
    """A short button label (under 80 characters) for one legal action of ``view.me``; on the
    table (no ``me``) the same words for whoever may press it, so the label never changes while
    several players press it."""
    me = view.me
    if action.kind in ("ante_add", "ante_remove", "pick"):
        sides = action.sides or 0
        name = die_name(sides)
        if action.kind == "ante_add":  # anted, the bone die may be lost: the button says which it is
            return f"Ante my bone die ({name})" if sides == BONE else f"Ante a {name}"
        if action.kind == "ante_remove":
            left = me.take_backs_left if me else TAKE_BACKS_PER_ANTE
            return f"Take back a {name} ({left} take-back{'s' if left != 1 else ''} left)"
        return f"Roll my bone die ({name})" if sides == BONE else f"Roll a {name}"
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
    return READY_LABEL


def refusal(state: RollTheBonesState, seat: int, action: RollTheBonesAction) -> str | None:
    """Why a bone call on the table is not this seat's to press (RB-2): the row is one for
    everyone asked, so it offers a call to a seat whose changes are spent, or that has called
    already, or a withdrawal to a seat that has not called."""
    if action.kind != "bone_toggle" or not has_call(state, seat):
        return None  # only a seat in the bone call is asked in it
    if state.changes[seat] >= CHANGES_PER_ROLL:
        return f"you have used your {CHANGES_PER_ROLL} changes of call this roll, so your call stands"
    if state.calls[seat] and action != WITHDRAW:
        return "you have called your bone die already"
    if not state.calls[seat] and action == WITHDRAW:
        return "you have not called your bone die"
    return None


def ante_rule(options: RollTheBonesOptions) -> str:
    """The ante in force, in words (RB-8)."""
    del options  # the ante follows the number of players, whatever the options
    return "2 dice each with 2 or 3 players, 1 with 4 to 6, and 1 more for each player out"


def how_to_play(options: RollTheBonesOptions | None = None) -> str:
    """The essentials on one phone screen: what a player needs for their first roll."""
    options = options or RollTheBonesOptions()
    dice_set = DICE_SETS.sets[options.dice_set]
    return f"""**Collect every die.** Each player starts with {dice_set.description} (the bone die, 🦴).

**Each roll, three steps**
1. **Ante**, in secret: put dice in the pot ({ante_rule(options)}). You always keep one die.
2. **Bone call**, on the table: to roll your bone die you must call it first. Then press **{READY_LABEL}**.
3. **Pick**, in secret: choose one die to roll. Every die is rolled at once.

**The highest roll takes the pot and every die rolled.** A tie: rolled dice go to the pot; the tied players ante and roll again.

Run out of dice and you are out. The last player holding dice wins (after round {options.max_rounds}: the most dice)."""


def rules_summary(options: RollTheBonesOptions | None = None) -> str:
    """The rulebook round, the rulings and the options in force, for the rules command."""
    options = options or RollTheBonesOptions()
    dice_set = DICE_SETS.sets[options.dice_set]
    if options.side_pots == "layered":
        pots = ("**Side pots (layered)**: when antes differ, each level of ante is its own pot, "
                "which only the players who paid into it can win. The winner of the roll takes "
                "every pot they paid into and all the rolled dice; each other pot goes to the "
                "highest roll among the players who paid into it (a d12 roll-off between equals).")
    else:
        pots = ("**Side pots (simple)**: there are no side pots; when a player can't ante in "
                "full, everyone antes only as many dice as that player can.")
    return f"""**Dice** ({dice_set.name}, 2 to 6 players): each player starts with {dice_set.description}. Bone dice are anted, lost and won like any other.

**Each roll**
1. **Ante** (in secret): put in the ante: {ante_rule(options)}. You always keep one die: a player who can't ante in full antes all they can spare. You may take back at most {TAKE_BACKS_PER_ANTE} dice while building it. All antes are shown together.
2. **Bone call** (on the table): to roll a bone die you must call it. Press **Call my bone** (or **Withdraw my call**: at most {CHANGES_PER_ROLL} changes per roll), then **{READY_LABEL}**. A change undoes everyone's {READY_LABEL}; the calls close when everyone is ready since the last change, changes spent or not. A call binds. A player with no bone die, or only bone dice, has no call to make and is not asked.
3. **Pick** (in secret): choose the die to roll. The bot rolls every die at once.
4. The highest roll takes the pot and every rolled die, their own included.

**Ties**: every die rolled goes to the pot; the tied players ante again and roll again with any die. If a tied player rolled their last die, all tied players keep their rolled dice and roll again without a new ante (the others' rolled dice still go to the pot). Players who did not tie can't win the pots a tied player paid into; a side pot no tied player paid into is decided at once, by that roll, among those who paid into it. A round has at most {ROLLS_PER_ROUND} rolls: if the last one ties too, a d{ROLLOFF_SIDES} roll-off among the tied players decides it.

{pots}

A player with no dice at the end of a round is out. The last player left wins; after round **{options.max_rounds}** the most dice wins (ties shared).

**Timeouts**: ante = your smallest dice; bone call = stays as it is; pick = your largest ordinary die, or the bone die if called.

**House rulings**: dice set *{dice_set.name}*; the bone call has its own step; you can't roll a bone die you did not call, and a player holding only bone dice must call; the winner keeps their own die too; ties as above; side pots *{options.side_pots}*; the ante follows the starting number of players; players go out at the end of a round; the game ends after round *{options.max_rounds}*.
"""


#: the game's own words, for the rules' last page: each as a player meets it on the table
WORDS: tuple[tuple[str, str], ...] = (
    ("d4, d6, d8, d10, d12", "a die with 4, 6, 8, 10 or 12 sides. «2×d4» is two of them."),
    ("bone die 🦴", "each player's d12. You may roll it only if you called it in the bone call."),
    ("ante", "the dice each player puts in the pot, in secret, before a roll."),
    ("all they can spare", "an ante smaller than the others: a player always keeps one die."),
    ("pot", "the dice in the middle. The highest roll takes the pot and every die rolled."),
    ("main pot, side pot", "when antes differ, each level of ante is a pot of its own, which "
                           "only the players who paid into it can win."),
    ("bone call", "the step, on the table, where you say you will roll your bone die. A call binds."),
    (READY_LABEL, "you are done with the bone call. Any change of call undoes everyone's."),
    ("pick", "the die you roll, chosen in secret. Every die is rolled at once."),
    ("tie", "the tied players roll again; the rolled dice go to the pot."),
    ("roll 2, roll 3…", "the rolls of one round after a tie."),
    ("roll-off", "a d12 rolled by the bot for each tied player, to settle a pot. No dice move."),
    ("⏳ / ✅", "still choosing / done (ante sealed, ready, die picked)."),
    ("sealed", "chosen in secret; shown to everyone only when all have chosen."),
    ("💀 out", "a player with no dice at the end of a round is out of the game."),
)


def words_text() -> str:
    return "\n".join(f"**{word}**: {meaning}" for word, meaning in WORDS)


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
    "last_die": " (they keep their last die)",
    "short": " (all they can spare)",
    "matching": " (matching the smallest ante)",
}


def ante_words(dice: Iterable[int], note: str | None) -> str:
    """One seat's revealed ante: ``d4 (all they can spare)``, ``2×d4``."""
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


def call_words(seat: int, called: bool) -> str:
    """"Seat 1 calls their bone die", "Seat 1 withdraws their bone call"."""
    return f"{seat_name(seat)} {'calls their bone die' if called else 'withdraws their bone call'}"


def again_words(again: Sequence[int]) -> str:
    """Who must press Ready again after a change of call (RB-2), or nothing."""
    if not again:
        return ""
    return f"{seats_text(again)} {'was' if len(again) == 1 else 'were'} ready and must press {READY_LABEL} again"


def call_text(seat: int, called: bool, left: int, again: Sequence[int] = ()) -> str:
    text = f"{call_words(seat, called)} ({left} change{'s' if left != 1 else ''} left)"
    return text + (f"; {again_words(again)}." if again else ".")


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
