"""Knucklebones in words: the log's line for each event, the open decision, button labels and
the rules.

An event's line is made from its kind, seats and figures alone (``event_text``), so the log and
a cog that tells the same thing say the same words. Dice are named 1-7 (``die.id + 1``), seats
"Seat N" (the host puts names in).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import seat_name
from rules.knucklebones.models import (
    ITEMS,
    SHEET,
    Ask,
    KnucklebonesAction,
    KnucklebonesOptions,
    KnucklebonesView,
    ScoreItem,
)

TIMEOUT = "ran out of time: no dice are spent and the default item is scored."


def event_text(kind: str, seats: tuple[int, ...], data: Mapping[str, Any]) -> str:
    """The log's line for an event of this game (see ``flow`` for the figures of each kind)."""
    if kind == "over":
        return "Every score sheet is full: the game is over."
    who = seat_name(seats[0])
    if kind == "timeout":
        return f"{who} {TIMEOUT}"
    if kind == "roll":
        return f"{who} rolled " + " ".join(str(f) for f in data["faces"])
    if kind == "score":
        return score_text(seats, data)
    die, face = data["die"] + 1, data.get("face")
    if kind == "keep":
        return f"{who} kept the {face} on die {die}"
    if kind == "reroll":
        return (f"{who} spent a 2 (die {die}) to reroll die {data['target'] + 1}: "
                f"{data['before']} -> {data['after']}")
    if kind == "double":
        return f"{who} spent a 4 (die {die}) to double die {data['target'] + 1} (a {face})"
    if kind == "add" and face == 3:
        return f"{who}'s 3 on die {die} added die {data['added'] + 1}, which rolled {data['rolled']}"
    if kind == "add":
        return f"{who}'s 5 on die {die} added die {data['added'] + 1} to the active dice"
    if kind == "remove":
        return f"{who}'s 6 on die {die} removed itself"
    if kind == "skip" and data["why"] == "no_target":
        what = "reroll" if face == 2 else "double"
        return f"{who}'s {face} on die {die} has no other die to {what}"
    if kind == "skip" and data["why"] == "no_inactive":
        return f"{who}'s {face} on die {die} found no inactive die to add"
    if kind == "skip" and data["why"] == "floor":
        return f"{who}'s 6 on die {die} stays: {data['floor']} active dice is the least allowed"
    raise ValueError(f"no words for a {kind!r} event: {dict(data)}")


def score_text(seats: tuple[int, ...], data: Mapping[str, Any], *, timed_out: bool = False) -> str:
    """A "score" event's line; ``timed_out``: its player's timer chose the item, which the
    history line says in the same breath, where the log has a line of its own for the timeout."""
    did = f"{seat_name(seats[0])} {'ran out of time and scored' if timed_out else 'scored'}"
    if data["met"]:
        return f"{did} {data['name']} for {data['points']}"
    return f"{did} 0 for {data['name']} (not met)"


def pending_prompt(die: int, face: int, ask: Ask) -> str:
    verb = "reroll another die" if ask == "reroll" else "double another die for scoring"
    return f"Die {die + 1} shows a {face}: spend it to {verb} (a spent die does not score), or keep it."


def action_label(view: KnucklebonesView, action: KnucklebonesAction) -> str:
    """A short button label (under 80 characters) for one legal action. A die's id is its place
    in the pool, as in the rules' own moves."""
    dice = view.dice
    if action.kind in ("skip_reroll", "skip_double"):
        die = dice[action.die] if action.die is not None else None
        return f"Keep die {die.number if die else '?'} ({die.face if die else '?'})"
    target = dice[action.target] if action.target is not None else None
    if action.kind == "reroll":
        return f"Reroll die {target.number if target else '?'} ({target.face if target else '?'})"
    if action.kind == "double":
        # what the double does: the die counts as twice the dice of its rune it counts as now
        if target is None:
            return "Double die ?"
        times = target.counts_as * 2
        return f"Double die {target.number} ({target.face}): {TIMES.get(times, str(times))} {target.face}s"
    item = ITEMS[action.item or ""]
    if item.key in view.met:
        return f"{item.name}: {view.preview.get(item.key, 0)}"
    return f"{item.name} ({item.points}): not met"  # and what it would be worth if met


#: "two 6s": how many dice of its rune a doubled die counts as, in words
TIMES = {2: "two", 4: "four", 8: "eight"}


def needs_text(item: ScoreItem) -> str:
    """An item's requirement in a few words, for a sheet's line ("3 of one rune + 2 of
    another"): the full wording (with its «at least») is on the rules' and Details' item page."""
    if item.distinct is not None:
        return f"{item.distinct}+ dice, all runes different, none doubled"
    if item.groups:
        first, *rest = item.groups
        return " + ".join([f"{first} of one rune", *(f"{n} of another" for n in rest)])
    return "always met"


def worth_text(item: ScoreItem) -> str:
    """What an item is worth when met: "20", or "the sum of the dice"."""
    return "the sum of the dice" if item.points == "sum" else str(item.points)


def _dice_named(ids: list[int]) -> str:
    numbers = [str(i + 1) for i in ids]
    if len(numbers) == 1:
        return f"die {numbers[0]}"
    return f"dice {', '.join(numbers[:-1])} and {numbers[-1]}"


def change_text(added: list[int], removed: list[int]) -> str:
    """What the 5s and 6s did after scoring: "5s added dice 6 and 7, a 6 removed die 2". Dice
    by id (0-6)."""
    parts = []
    if added:
        parts.append(f"{'a 5' if len(added) == 1 else '5s'} added {_dice_named(added)}")
    if removed:
        parts.append(f"{'a 6' if len(removed) == 1 else '6s'} removed {_dice_named(removed)}")
    return ", ".join(parts)


def passing_text(added: list[int], removed: list[int], seat: int, rolls: int) -> str:
    """``change_text``, and so how many dice the next seat rolls: "5s added dice 6 and 7, a 6
    removed die 2: Seat 3 rolls 6 dice"."""
    return f"{change_text(added, removed)}: {seat_name(seat)} rolls {rolls} {'die' if rolls == 1 else 'dice'}"


def _points_text(item: ScoreItem) -> str:
    return "the sum of the dice" if item.points == "sum" else f"{item.points} points"


def how_to_play(options: KnucklebonesOptions | None = None) -> str:
    """The essentials on one phone screen: enough to play a first turn."""
    options = options or KnucklebonesOptions()
    items = len(SHEET.items)
    return f"""Seven rune dice and a score sheet of {items} items; the highest total wins. Each die shows a rune with its number (1 to 6) in the corner. Five dice start active, two inactive.

**Your turn**
1. Your active dice are rolled.
2. Runes act, lowest first: a **2** may reroll another die, a **3** adds an inactive die, a **4** may double another die. Using a 2 or a 4 is your choice; one used is spent and does not score this turn.
3. Score one item of your sheet that is still open: 0 if the dice do not meet it.
4. After scoring, each **5** adds an inactive die for the next turn and each **6** leaves, as long as at least **{options.min_active}** active dice remain.
5. The active dice pass to the next player.

Everyone plays {items} turns, one per item. Each button says what it would do; the picture numbers each die as the buttons do. **Details** shows your sheet."""


def rules_sections(options: KnucklebonesOptions | None = None) -> list[tuple[str, str]]:
    """The full rules as (title, text) sections, each short enough for one phone screen: the
    rulebook turn, the score sheet and the rulings in force."""
    options = options or KnucklebonesOptions()
    sheet = "\n".join(f"- **{i.name}** ({_points_text(i)}): {i.requirement}" for i in SHEET.items)
    stacking = ("a die may be doubled again (each double doubles what it counts)"
                if options.stack_doubles else "each die at most once")
    players = "1-6 players (solo allowed)" if options.solo else "2-6 players"
    turn = """**Knucklebones** (rules v0.1): seven rune dice, five active and two inactive at the start.

1. Roll all active dice.
2. Runes before scoring, lowest rune first:
 - **2**: you may spend it to reroll another die.
 - **3**: adds and rolls an inactive die, if there is one.
 - **4**: you may spend it to double another die for scoring.
3. Score one open item of your sheet (0 if its requirement isn't met; you must choose one).
4. After scoring: every **5** adds an inactive die (rolled next turn), then every **6** removes itself.
5. The active dice pass to the next player.
A spent die is out for the rest of your turn: it can't be spent again, targeted or scored."""
    sheet_text = f"{len(SHEET.items)} items, so {len(SHEET.items)} turns each.\n{sheet}"
    rulings = f"""- Only unspent dice count; a doubled die counts as two of its rune, for Wild too.
- Runes act from 1 to 6; a rerolled or added die brings its own rune, lowest first. After scoring, 5s act before 6s.
- Doubling: {stacking}.
- Added dice stay active until a 6 removes them; spent dice are still passed on.
- There are always at least **{options.min_active}** active dice; a 6 at that floor stays.
- All Different needs at least 5 dice, none doubled; Two Pairs and Full House need different runes.
- {players}; a random player starts; the highest total wins, and ties share the win.
- Timeout: no dice are spent, then the highest-value item met is scored (else Wild, else the cheapest open item for 0)."""
    return [("Your turn", turn), ("Score sheet", sheet_text), ("House rulings", rulings)]


def rules_summary(options: KnucklebonesOptions | None = None) -> str:
    """The full rules in one text: every section under its title."""
    return "\n\n".join(f"**{title}**\n{text}" for title, text in rules_sections(options))


#: the game's own words, as the glossary page explains them
WORDS: tuple[tuple[str, str], ...] = (
    ("Rune", "the symbol a die shows, its number (1 to 6) in the corner; words name it by "
             "number (\"a 4\")."),
    ("Die 1 to die 7", "each die's own number, under it in the picture and on the buttons; two dice "
                       "showing the same rune are told apart by it, and a die keeps it when a 6 removes it."),
    ("Active, inactive", "active dice are rolled and scored; inactive ones (grey) wait for a 3 or a 5 "
                         "to add them."),
    ("Spend", "use a 2 to reroll another die, or a 4 to double one. A spent die (crossed out) does "
              "not score this turn."),
    ("Doubled", "marked x2: counts as two dice of its rune, for Wild too."),
    ("Deciding now", "the die with the orange ring: its 2 or 4 waits for a choice."),
    ("Item", "a line of the score sheet, such as Two Pairs; each is scored once."),
    ("Met", "the dice meet an item's requirement: it scores its points (a green button); an item "
            "not met scores 0."),
    ("Wild", "always met: the sum of the dice."),
)
