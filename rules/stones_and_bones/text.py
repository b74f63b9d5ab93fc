"""Stones & Bones in words: button labels, the rules (How to play, the full rules a section at a
time, the game's own words), and the phrases events and the table share (a claim's name, a cry
of Mutiny, a Tide rise, a timeout's default). Amounts are told in ``money``: platinum counted in
gold, so a new player meets one coin fewer.

Seats are "Seat N" (1-based) here, so the host can put names in. The figures of each event are
also in its ``data``, so a table builds its own lines without reading these.
"""

from __future__ import annotations

from rules.base import seat_name
from rules.stones_and_bones.models import (
    GIFTS_PER_PARLEY,
    MUTINY_WINDOW,
    ClaimKind,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
)
from rules.stones_and_bones.moves import gifts_left, grumble_fee
from rules.stones_and_bones.reading import money
from rules.stones_and_bones.view import StonesAndBonesView, count_words

LABEL_LIMIT = 80


# -- what happened --------------------------------------------------------------------------------

_CLAIM_WORDS: dict[ClaimKind, str] = {
    "float": "Float: the Stone matches a Bone",
    "luck": "Captain's Luck: a 13 on the Captain's Stone",
    "crossbones": "Crossbones",
    "plank": "Crossbones from the Plank",
}


def claim_label(kind: ClaimKind, crossbones: str | None) -> str:
    """A claim by its name: "Float", "Captain's Luck", "Crossbones (Daggers)"."""
    return _CLAIM_WORDS[kind].split(":")[0] + (f" ({crossbones})" if crossbones else "")


def claim_text(seat: int, kind: ClaimKind, crossbones: str | None, coffer: int) -> str:
    what = _CLAIM_WORDS[kind] + (f" ({crossbones})" if crossbones else "")
    return f"{what}! {seat_name(seat)} claims the coffer ({money(coffer)})."


def mutiny_cry(seat: int) -> str:
    return f"{seat_name(seat)} cries Mutiny!"


def tide_rise_words(tide: int, ante: int) -> str:
    """The news of a Tide rise: the new ante and the new multiplier of every bet."""
    return f"The Tide rises to {tide}: the ante is now {money(ante)} and every bet is × {tide}"


#: RULINGS 5.4: each timeout's default, as the log says it
TIMEOUT_WORDS: dict[str, str] = {
    "pay": "the bet is paid and the Stone thrown",
    "plank": "broke, they Walk the Plank",
    "leave_stone": "the Stone stays on the table",
    "let_stand": "no Grumbles",
    "allow": "no objection",
    "pass": "no Mutiny",
    "ready": "ready to vote",
    "nay": "a Nay vote",
    "keep": "the coffer is kept",
    "stay_aboard": "they stay aboard",
    "stay": "they stay, with no buy-in",
}


def timeout_text(seat: int, default: StonesAndBonesAction) -> str:
    return f"{seat_name(seat)} ran out of time: {TIMEOUT_WORDS[default.kind]}."


# -- labels ---------------------------------------------------------------------------------------


def _clip(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


#: the labels that read the same at every table
FIXED_LABELS: dict[str, str] = {
    "fly": "Fly the Black: new Bones, new bet, no Stone",
    "fold": "Fold: no bet, no Stone",
    "leave_stone": "Leave my Stone on the table",
    "let_stand": "Let it stand",
    "allow": "Let them throw again",
    "object": "Object",
    "pass": "Let it be",
    "mutiny": "Mutiny!",
    "ready": "Ready to vote",
    "nay": "Nay (stand by the Captain)",
    "yay": "Yay (back the Mutineer)",
    "keep": "Keep it all",
    "share_all": "Share it with all aboard",
    "share_side": "Share it with my side",
    "refund": "Refund the mutiny costs",
    "stay_aboard": "Stay aboard",
    "stay": "Stay",
    "end": "Vote to end the game (all must agree)",
}


def action_label(view: StonesAndBonesView, action: StonesAndBonesAction) -> str:
    """A button label (at most 80 characters) for one legal action, seen from ``view``. Only
    the label asked for is worded: a table labels every choice it offers on every click."""
    kind = action.kind
    fixed = FIXED_LABELS.get(kind)
    if fixed is not None:
        return fixed
    if kind in ("anchor", "heave"):
        actor = view.viewer if view.viewer is not None else (view.to_act[0] if view.to_act else None)
        purse = money(view.pirates[actor].purse) if actor is not None else "your purse"
        return _clip(f"Swallow the Anchor (cash out {purse})" if kind == "anchor" else f"Heave Down (cash out {purse})")
    if kind == "grumble":
        return _clip(f"Grumble ({money(grumble_fee(view.tide))})")
    if kind == "give" and action.target is not None:
        # a gift on the table is whoever picks it: the label says it comes from their purse
        return _clip(f"Give {seat_name(action.target)} {money(action.amount or 0)} from my purse")
    if kind == "give_half" and action.target is not None:
        return _clip(f"Give half to {seat_name(action.target)} ({money(view.coffer // 2)})")
    if kind == "buy":
        return _clip(f"Buy in {money(action.amount or 0)}")
    stone = view.table_stone
    if kind == "pick_up":
        return _clip(f"Pick up my Stone ({stone.value if stone else '?'})")
    reading = view.turn.bones if view.turn is not None else None
    bet = money(reading.bet) if reading else "the bet"
    if kind == "pay":
        if reading is not None and reading.crossbones:
            return _clip(f"Pay {bet}: Crossbones ({reading.crossbones})!")
        if view.turn is not None and view.turn.cursed:
            return _clip(f"Pay {bet} (Cursed: no Stone)")
        stones = "two Stones" if reading is not None and reading.blessing else "the Stone"
        return _clip(f"Pay {bet} & throw {stones}")
    if kind == "pilfer":
        return _clip(f"Pay {bet}, Pilfer {seat_name(stone.owner)}'s {stone.value} & throw" if stone
                     else f"Pay {bet}, Pilfer! & throw")
    if kind == "plank":
        return _clip(f"Walk the Plank (can't cover {bet})")
    return kind


# -- the rules ------------------------------------------------------------------------------------


def refusal(state: StonesAndBonesState, seat: int, action: StonesAndBonesAction) -> str | None:
    """Why a parley's gift on the table is not this giver's to give (SB-12): the row of gifts is
    one for every giver, so it also offers gifts to themselves and amounts only others can pay."""
    if action.kind != "give" or state.phase != "parley":
        return None
    if action.target == seat:
        return "you cannot give to yourself"
    if not gifts_left(state, seat):
        return f"you have given your {GIFTS_PER_PARLEY} gifts this parley"
    purse = state.pirates[seat].purse
    if (action.amount or 0) > purse:
        return f"your purse holds {money(purse)}" if purse else "your purse is empty"
    return None


def how_to_play(options: StonesAndBonesOptions | None = None) -> str:
    """The essentials on one phone screen, in plain words: what a new player needs for their
    first turn. The full rules and the game's words are a tap away."""
    o = options or StonesAndBonesOptions()
    purse = ("a purse the host set" if o.purses is not None
             else f"a purse of {money(o.starting_purse)}")
    ante = ("Everyone antes 1 sp × Tide into the **coffer** (the pot) at the start of each Wave"
            if o.ante == "per_wave_all" else "Ante 1 sp × Tide into the **coffer** (the pot)")
    return f"""Every pirate starts with {purse}. Four twenty-sided dice, the **Bones**, set your bet; your own die, the **Stone**, tries to claim the coffer.
**Your turn**
1. {ante}; the Bones are thrown for you.
2. Pay the bet they show: each Bone costs copper, silver or gold, as the picture colours it.
3. Your Stone is thrown. It **Floats** if it matches any Bone: you claim the coffer and become **Captain**. Else it **Sinks** and the next pirate throws.
A rare throw of the Bones, a **Crossbones**, wins at once; the Captain also wins on a Stone of 13.
Four claims make a Tide: bets grow (× Tide), and each may stay, cash out or buy in. When the Captain claims again, the crew may cry **Mutiny**.
The best net at the end wins (purse + cash-outs − buy-ins).
Coins: 10 cp (copper) = 1 sp (silver), 10 sp = 1 gp (gold)."""


def rules_sections(options: StonesAndBonesOptions | None = None) -> list[tuple[str, str]]:
    """The quick rules, the house rulings and the options in force, as (title, Markdown) pairs,
    each about one phone screen."""
    o = options or StonesAndBonesOptions()
    purse = ("set per seat by the host" if o.purses is not None
             else f"{money(o.starting_purse)} each")
    ante = ("every player antes 1 sp × Tide at the start of each Wave" if o.ante == "per_wave_all"
            else "ante 1 sp × Tide")
    omens = ("each matching group multiplies (3,3,5,5: ×4)" if o.ill_omens == "product"
             else "only the largest group counts (3,3,5,5: ×2)")
    fold = " or, if you can pay it, **fold** (no bet, no Stone)" if o.fold else ""
    pilfer = {
        "window": " **Pilfer!**: after a Sink the Stone lies until its owner picks it up or the "
                  "next player throws; throw it with yours",
        "always": " **Pilfer!**: after a Sink you may throw the last Stone with yours",
        "off": "",
    }[o.pilfer]
    if o.pilfer != "off":  # SB-7, and which Stone a Blessing leaves lying
        pilfer += (" (3 Stones with a Blessing; a pilfered 13 is no Luck; of a Blessing's two "
                   "Stones only the second is left).")
    trigger = "on any claim" if o.mutiny_trigger == "any_claim" else "when the Captain claims again"
    grumble_timeout = "; no Grumbles, no objection" if o.grumbles else ""
    stone_timeout = "; the Stone is left on the table" if o.pilfer == "window" else ""
    buy = ", ".join(money(b) for b in o.buy_ins)
    gifts = count_words(GIFTS_PER_PARLEY)
    sections = [
        ("The table", f"""**Stones & Bones** (Quick Core Rules v1.2): the Bones (4 d20, four twenty-sided dice) set your bet, your Stone (a d20) claims the coffer.
Coins: 10 cp = 1 sp, 10 sp = 1 gp, change made for you (the rulebook's platinum, 1 pp = 10 gp, is counted in gold). Purse: {purse}. 2-6 players.
Whoever claims is Captain. Four Waves make a Tide: then the Tide rises (bets × Tide), Captain is re-rolled, and each may stay, **Heave Down** (cash out), buy in ({buy}) or vote to end.
**End**: after Wave 4 of Tide 6 (24 Waves at most), when one pirate is left afloat, by unanimous vote at a Tide rise, or at the 2,000-turn safety cap. Ranked by net: purse + cash-outs − buy-ins."""),
        ("Your turn", f"""**Your turn** (the Captain first each Wave, then clockwise)
1. {ante[0].upper() + ante[1:]}.
2. The Bones: 1-5 = 1 cp, 6-10 = 1 sp, 11-20 = 1 gp each. **Ill Omens**: matching Bones multiply their tier ({omens}). **Bane**: any 20 doubles the bet, once. **Blessing**: any 1 gives you two Stones.
3. Pay the bet × Tide; or **Fly the Black** once per Tide (throw the Bones again and pay that bet instead; no Stone, only Crossbones wins){fold}. Broke (bet or ante)? **Walk the Plank**: all in, the Bones again: Crossbones or you're out."""),
        ("The Stone and Crossbones", f"""4. A **Crossbones** on the Bones wins at once (Cursed or not) and no Stone is thrown. Else throw: **Float** (your Stone matches a Bone) or the Captain's 13 (**Captain's Luck**, on either Blessing Stone) claims the coffer; else **Sink**.{pilfer}

**Crossbones** (claim + **Curse**: no Stone until another claims; you may **Swallow the Anchor**, cashing out at once): Daggers (2+ ones), Dubloons (2+ twenties), Jacob's Ladder (any run of 4), Thirteen Thrice (3+ thirteens), Rum Runner (any four of a kind). 4,982 rolls in 160,000 (3.11 %)."""),
        ("Mutiny", f"""**Mutiny** ({trigger}; up to {MUTINY_WINDOW} s to cry it): the first to cry Mutiny is the Mutineer; parley (deals, at most {gifts} gifts each); the rest vote in secret, a strict Yay majority forces a Challenge. Each non-Captain pays d4 gp (not × Tide); Captain d20 + d6 + Nay d4s vs Mutineer d20 + d4 + Yay d4s, ties to the Captain. The winner takes the coffer and may split it. **Cutthroat** (2 afloat): a coin flip, heads = d20 + d6 + d4 each, no cost, ties to the Captain."""),
    ]
    if o.grumbles:
        title, mutiny = sections.pop()
        sections.append((f"{title} and Grumbles", mutiny + """\n\n**Grumbles**: after a claim another player may pay 1 gp × Tide (into the next coffer) to have the deciding dice thrown again, unless anyone objects. A reroll that voids a Crossbones is a Sink (on the Plank: out); money with no next coffer goes back to its payer."""))
    sections += [
        ("Rulings and timeouts", f"""**Rulings**: turns in order, not all at once; a Plank claim makes you Captain and Cursed; only the last Crossbones winner is Cursed; mutiny costs are paid only if a Challenge happens; the Captain is rolled on Stones, ties re-roll.
**House choices** (the rulings are silent): a won Mutiny lifts the Curse; only a Crossbones winner who kept the coffer may Swallow the Anchor; a Captain who leaves mid-Tide is replaced by a roll-off, and a rolled-off Captain's first claim is a plunder; at the turn cap, a coffer in play is shared among those afloat.
**Timeouts**: pay and throw (the Plank if broke; never Fly, Pilfer or fold){stone_timeout}{grumble_timeout}; no Mutiny; ready at the parley; Nay; keep the coffer; stay aboard; stay at the Tide rise, no buy-in."""),
    ]
    return sections


def rules_summary(options: StonesAndBonesOptions | None = None) -> str:
    """The whole rules in force, as one text (every section of ``rules_sections``)."""
    return "\n\n".join(text for _, text in rules_sections(options))


def glossary(options: StonesAndBonesOptions | None = None) -> list[tuple[str, str]]:
    """The game's own words, each with what it means at this table, in the order a player
    meets them."""
    o = options or StonesAndBonesOptions()
    words = [
        ("cp, sp, gp", "copper, silver and gold pieces: 10 cp make 1 sp, 10 sp make 1 gp"),
        ("Bones", "the four twenty-sided dice that set your bet"),
        ("Stone", "your own twenty-sided die: it claims the coffer if it matches a Bone"),
        ("Coffer", "the pot: antes and bets go in, a claim takes it all"),
        ("Float, Sink", "your Stone matches a Bone (you claim) or it does not (the next pirate throws)"),
        ("Captain", "the last to claim; throws first each Wave and also claims on a Stone of 13 "
                    "(Captain's Luck)"),
        ("Wave, Tide", "a Wave ends with a claim; four Waves make a Tide, and every bet is × Tide"),
        ("Ill Omens, Bane, Blessing", "matching Bones multiply their coin; a 20 doubles the bet; a 1 "
                                      "gives two Stones"),
        ("Crossbones", "a rare throw of the Bones that claims at once: Daggers, Dubloons, Jacob's "
                       "Ladder, Thirteen Thrice, Rum Runner"),
        ("Curse", "after a Crossbones: no Stone until someone else claims"),
        ("Fly the Black", "once a Tide: the Bones again for a new bet, no Stone; only a Crossbones wins"),
        ("Walk the Plank", "cannot pay? Everything in and the Bones again: a Crossbones or you are out"),
    ]
    if o.pilfer != "off":
        words.append(("Pilfer", "throw the last sunk Stone, lying on the table, with your own"))
    if o.fold:
        words.append(("Fold", "pay no bet and throw no Stone this turn"))
    words += [
        ("Mutiny, Mutineer", "the crew rises against a Captain who claims again; the first to cry it leads"),
        ("Parley", "before the vote: deals and gifts of coins"),
        ("Challenge", "if the sealed vote says Yay: a dice fight for the coffer; each crew member "
                      "pays 1 to 4 gp"),
        ("Cutthroat", "a Mutiny with two pirates: a coin flip, then the dice fight, free"),
        ("Heave Down", "cash out at a Tide rise and go ashore"),
        ("Swallow the Anchor", "cash out right after your Crossbones"),
        ("Afloat, ashore", "still playing; cashed out"),
        ("Net", "your score: purse + cash-outs − buy-ins"),
        ("d4, d6, d20", "a four-, six- or twenty-sided die"),
    ]
    if o.grumbles:
        words.append(("Grumbles", "pay 1 gp × Tide to have a claim's dice thrown again, unless "
                                  "someone objects"))
    return words
