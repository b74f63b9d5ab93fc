"""Roll the Bones in words: button labels and the rules text."""

from __future__ import annotations

from rules.roll_the_bones.flow import filled_ante
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    DICE_SETS,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    TAKE_BACKS_PER_ANTE,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesView,
    dice_text,
    die_name,
)


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
        seat = view.seats[me.seat] if me else None
        left = seat.changes_left if seat else CHANGES_PER_ROLL
        if me is None:
            return "Call my bone or withdraw my call"
        verb = "Withdraw my call" if me.called else "Call my bone"
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
