"""The channel's story: the one line an old Stones & Bones table shrinks to.

A history line says what happened while its table was live (sinks, claims, Mutinies, the
Tide-rise choices) and leaves to the table below it what that table shows: the next throw, the
new Wave or Tide, the Captain, the Challenge a winner now splits. So a line is never empty and
never says again what the message under it says. There are no headlines: the line above the new
table is the news, and whoever must act now is pinged by the table itself.
"""

from __future__ import annotations

from bot.render import and_list, clip
from rules import stones_and_bones as sb
from rules.base import Event
from rules.base import seat_name as seat_word
from rules.stones_and_bones import money

STORY_LIMIT = 300

#: the kinds of event that claim the coffer
_CLAIMS = ("float", "luck", "crossbones", "plank")
#: what the table below shows (or Details holds): a history line leaves it out
_SHOWN_BELOW = ("wave", "ante", "bones", "bet", "stone", "tide", "roll_off", "captain", "carry", "curse",
                "curse_lifted", "take", "plunder", "grumble_window", "vote", "over", "broke", "mutiny_costs",
                "challenge", "cutthroat", "mutiny_won", "mutiny_lost", "vote_end", "chosen", "voted", "pass",
                "ready", "let_stand", "allow")
#: where the game now stands, which the next table shows in its own words
_STATE = ("wave", "ante", "bones", "tide", "roll_off", "captain", "carry", "plunder", "grumble_window", "vote",
          "over", "curse", "curse_lifted")
#: a decision several seats make, told once for all of them
_TOGETHER = {"ready": "ready to vote: {}", "let_stand": "the claim stands: {} let it",
             "allow": "the dice are thrown again ({} allowed it)"}


def _clause(e: Event, stones: str) -> str | None:
    """One event in a few words; ``stones``: the Stones its seat just threw ("Stone 12")."""
    who = seat_word(e.seat) if e.seat is not None else ""
    if e.kind in _CLAIMS:
        what = sb.claim_label(e.kind, e.data["crossbones"])  # type: ignore[arg-type]
        how = f"{what}, {stones}" if stones and e.kind in ("float", "luck") else what
        return f"{who} claims {money(e.data['coffer'])} ({how})"
    if e.kind == "sink" and stones:
        return f"{who} sinks ({stones})"
    simple = {
        "sink": f"{who} sinks",
        "fold": f"{who} folds",
        "fly": f"{who} flies the Black",
        "walk_plank": f"{who} walks the Plank",
        "eliminated": f"{who} is out",
        "anchor": f"{who} Swallows the Anchor",
        "stay_aboard": f"{who} stays aboard",
        "mutiny": f"{who} cries Mutiny",
        "no_mutiny": "no Mutiny",
        "grumble": f"{who} Grumbles",
        "pick_up": f"{who} picks up their Stone",
        "leave_stone": f"{who} leaves their Stone on the table",
        "cutthroat_tails": "Cutthroat: tails, the Captain keeps the coffer",
        "last_afloat": f"{who} takes the last coffer ({money(e.data.get('amount', 0))})",
    }
    if e.kind in simple:
        return simple[e.kind]
    if e.kind == "votes":
        return e.text.rstrip(".!").replace(". A Yay majority: Challenge", ": a Challenge").replace(
            ". No Yay majority: the Mutiny fails", ": the Mutiny fails")
    if e.kind == "tide_choices":
        return e.text.removeprefix("Tide-rise choices: ").rstrip(".")
    if e.kind in ("give", "split", "shared", "object", "reroll", "stands", "void", "timeout"):
        return e.text.rstrip(".")
    return None


def story(events: list[Event], shown_below: tuple[str, ...] = ()) -> str | None:
    """What came of the turns while a table was live, one short clause each. ``shown_below``:
    kinds of event the next table shows itself (a claim the crew may Grumble about). None only
    when nothing happened at all."""
    parts: list[str] = []
    thrown: dict[int, str] = {}
    grumbled = any(e.kind in ("let_stand", "object", "stands") for e in events)
    for e in events:
        if e.kind == "stone" and e.seat is not None:
            values = [*e.data.get("stones", []), *([e.data["pilfered"]] if e.data.get("pilfered") else [])]
            thrown[e.seat] = ("Stones " if len(values) > 1 else "Stone ") + ", ".join(map(str, values))
        text = _clause(e, thrown.pop(e.seat, "") if e.seat is not None and e.kind in (*_CLAIMS, "sink") else "")
        if e.kind == "take" and grumbled:  # the claim the Grumbles were about is settled
            parts.append(e.text.rstrip("."))
        elif e.kind not in _SHOWN_BELOW and e.kind not in shown_below and text:
            parts.append(text)
    for kind, words in _TOGETHER.items():
        seats = [e.seat for e in events if e.kind == kind and e.seat is not None]
        if seats and not parts:
            parts.append(words.format(and_list([seat_word(s) for s in seats])))
    bets = [e for e in events if e.kind == "bet" and e.seat is not None]
    if not parts and bets:  # the throw's outcome is the next table's: the line says it was paid
        parts.append(f"{seat_word(bets[-1].seat)} pays {money(bets[-1].data['amount'])}")  # type: ignore[arg-type]
    if not parts and events:
        # nothing but what the next table shows (a sealed choice made, say): its plain words
        told = [e for e in events if e.kind not in _STATE] or events
        parts.append(told[-1].text.rstrip("."))
    return clip(" · ".join(parts), STORY_LIMIT) if parts else None
