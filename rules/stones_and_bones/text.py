"""Stones & Bones in words: the view a table embed draws from, button labels, the rules text.

``build_view`` is the only reader of secrets: a Mutiny vote or a Tide-rise choice is shown to
its own seat at once and to everyone else only when all are in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import rules.stones_and_bones.flow as flow
from rules.stones_and_bones.models import (
    ClaimView,
    LedgerRow,
    MutinyView,
    PirateView,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
    StonesAndBonesView,
    StoneView,
    TableStoneView,
    TideChoiceView,
    TurnRecord,
    TurnView,
)
from rules.stones_and_bones.reading import GP, coins, expected_bet, read_bones, signed_coins

if TYPE_CHECKING:
    from rules.stones_and_bones.engine import StonesAndBonesEngine

LABEL_LIMIT = 80


def _who(seat: int) -> str:
    return f"Seat {seat + 1}"


def _count_words(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def _result_text(turn: TurnRecord) -> str:
    who = _who(turn.seat)
    name = f" ({turn.crossbones})" if turn.crossbones else ""
    return {
        "pending": f"{who} is deciding on the bet.",
        "float": f"Float: {who} claims the coffer.",
        "luck": f"Captain's Luck (13): {who} claims the coffer.",
        "crossbones": f"Crossbones{name}: {who} claims the coffer and is Cursed.",
        "plank": f"Walked the Plank into Crossbones{name}: {who} claims the coffer, Cursed.",
        "sink": f"Sink: {who} passes.",
        "fold": f"{who} folds.",
        "drowned": f"Walked the Plank, no Crossbones: {who} is out of the game.",
    }[turn.result]


def _turn_view(s: StonesAndBonesState, turn: TurnRecord | None) -> TurnView | None:
    if turn is None:
        return None
    rule = s.options.ill_omens

    def read(faces: list[int] | None):  # type: ignore[no-untyped-def]
        return read_bones(faces, turn.tide, rule) if faces else None

    bones = read(turn.bones)
    deciding = read(flow.current_bones(turn))
    stones = [StoneView(value=v, pilfered=False,
                        floats=bool(deciding and deciding.floats(v)),
                        luck=turn.captain and v == flow.CAPTAINS_LUCK) for v in turn.stones]
    if turn.pilfered is not None:
        stones.append(StoneView(value=turn.pilfered, pilfered=True,
                                floats=bool(deciding and deciding.floats(turn.pilfered)), luck=False))
    return TurnView(
        seat=turn.seat, number=turn.number, wave=turn.wave, tide=turn.tide, captain=turn.captain,
        cursed=turn.cursed, ante=turn.ante, bones=bones, flown=read(turn.flown),
        plank=read(turn.plank), paid=turn.paid, stones=stones, result=turn.result,
        crossbones=turn.crossbones, result_text=_result_text(turn),
    )


def _mutiny_view(s: StonesAndBonesState, seat: int | None) -> MutinyView | None:
    m = s.mutiny
    if m is None:
        return None
    voters = flow.voters_of(s) if m.mutineer is not None and not m.cutthroat else []
    if m.revealed:
        votes = list(m.votes)
    else:
        votes = [v if x == seat else None for x, v in enumerate(m.votes)]
    gifts = ({x: flow.gifts_left(s, x) for x in flow.afloat_seats(s) if not s.decided[x]}
             if s.phase == "parley" else {})
    return MutinyView(
        captain=m.captain, mutineer=m.mutineer, cutthroat=m.cutthroat, coin=m.coin,
        voters=voters, voted=[x for x in voters if m.votes[x] is not None], gifts_left=gifts,
        revealed=m.revealed,
        votes=votes,
        yay=sum(m.votes[x] == "yay" for x in voters) if m.revealed else None,
        nay=sum(m.votes[x] == "nay" for x in voters) if m.revealed else None,
        d4=list(m.d4), paid=list(m.paid), captain_roll=list(m.captain_roll),
        mutineer_roll=list(m.mutineer_roll), captain_total=m.captain_total,
        mutineer_total=m.mutineer_total, winner=m.winner,
    )


def _tide_view(s: StonesAndBonesState, seat: int | None) -> list[TideChoiceView]:
    if all(c is None for c in s.tide_choices):
        return []
    sealed = s.phase == "tide"
    rows = []
    for x, choice in enumerate(s.tide_choices):
        shown = choice if choice is not None and (not sealed or x == seat) else None
        rows.append(TideChoiceView(seat=x, chosen=choice is not None,
                                   choice=shown.kind if shown else None,
                                   amount=shown.amount if shown else None))
    return rows


def _question(engine: StonesAndBonesEngine, s: StonesAndBonesState) -> str:
    m, claim = s.mutiny, s.claim
    if s.phase == "over":
        return "The game is over."
    if s.phase == "turn":
        turn = s.turn
        assert turn is not None and turn.bones is not None
        bet = read_bones(turn.bones, s.tide, s.options.ill_omens).bet
        text = f"{_who(s.current)}: pay the bet of {coins(bet)} and throw"
        if s.table_stone is not None and len(engine.to_act(s)) > 1:
            text += (f"; {_who(s.table_stone.owner)} may pick up their Stone "
                     f"({s.table_stone.value}) before it is Pilfered")
        return text + "."
    if s.phase == "grumble" and claim is not None:
        return (f"Anyone but {_who(claim.seat)} may Grumble ({coins(flow.GRUMBLE_FEE * s.tide)}) to "
                "force a reroll of the claim.")
    if s.phase == "object" and claim is not None and claim.grumbler is not None:
        return f"{_who(claim.grumbler)} Grumbled: object to stop the reroll, or allow it."
    if s.phase == "mutiny_call":
        return (f"Captain {_who(s.captain)} plunders the coffer ({coins(s.coffer)}): anyone may "
                "cry Mutiny!")
    if s.phase == "parley" and m is not None and m.mutineer is not None:
        return (f"{_who(m.mutineer)} cries Mutiny against Captain {_who(m.captain)}: parley, give "
                f"coins (at most {_count_words(flow.GIFTS_PER_PARLEY)} gifts each), then ready for "
                "the vote.")
    if s.phase == "vote":
        return "The crew votes Yay (for the Mutineer) or Nay (for the Captain), sealed."
    if s.phase == "split" and m is not None and m.winner is not None:
        return f"{_who(m.winner)} won the coffer ({coins(s.coffer)}): keep it or split it."
    if s.phase == "anchor" and claim is not None:
        return (f"{_who(claim.seat)} may Swallow the Anchor: cash out "
                f"{coins(s.pirates[claim.seat].purse)} now.")
    if s.phase == "tide":
        return (f"The Tide rose to {s.tide}: stay, Heave Down (cash out), buy in, or vote to end "
                "the game (sealed).")
    return ""


def build_view(engine: StonesAndBonesEngine, s: StonesAndBonesState,
               seat: int | None) -> StonesAndBonesView:
    over = s.phase == "over"
    to_act = engine.to_act(s)
    rows: list[LedgerRow] = flow.ledger(s)
    pirates = [
        PirateView(
            seat=x, status=p.status, purse=p.purse, purse_text=coins(p.purse),
            captain=x == s.captain and not over, cursed=x == s.cursed, acting=x in to_act,
            can_fly=p.status == "afloat" and p.flew_tide != s.tide, bought_in=p.bought_in,
            cashed_out=p.cashed_out, net=p.net, net_text=signed_coins(p.net),
        )
        for x, p in enumerate(s.pirates)
    ]
    claim = s.claim
    return StonesAndBonesView(
        phase=s.phase, over=over, ended_by=s.ended_by, viewer=seat, seats=s.seats, wave=s.wave,
        tide=s.tide, waves_played=s.waves_played, turns=s.turns, captain=s.captain,
        cursed=s.cursed, current_seat=None if over else s.current, to_act=to_act,
        coffer=s.coffer, coffer_text=coins(s.coffer), carry=sum(s.carry), ante=flow.ante_at(s),
        expected_bet=round(expected_bet(s.tide, s.options.ill_omens)), pirates=pirates,
        turn=_turn_view(s, s.turn), last_turn=_turn_view(s, s.last_turn),
        table_stone=(TableStoneView(owner=s.table_stone.owner, value=s.table_stone.value)
                     if s.table_stone else None),
        claim=(ClaimView(seat=claim.seat, kind=claim.kind, crossbones=claim.crossbones,
                         plunder=claim.plunder, grumbler=claim.grumbler) if claim else None),
        mutiny=_mutiny_view(s, seat), tide_choices=_tide_view(s, seat), ledger=rows,
        question=_question(engine, s), options=s.options,
    )


# -- labels ---------------------------------------------------------------------------------------


def _clip(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def action_label(view: StonesAndBonesView, action: StonesAndBonesAction) -> str:
    """A button label (at most 80 characters) for one legal action, seen from ``view``."""
    kind = action.kind
    reading = view.turn.bones if view.turn is not None else None
    bet = coins(reading.bet) if reading else "the bet"
    actor = view.viewer if view.viewer is not None else (view.to_act[0] if view.to_act else None)
    purse = coins(view.pirates[actor].purse) if actor is not None else "your purse"
    stone = view.table_stone
    if kind == "pay":
        if reading is not None and reading.crossbones:
            return _clip(f"Pay {bet}: Crossbones ({reading.crossbones})!")
        if view.turn is not None and view.turn.cursed:
            return _clip(f"Pay {bet} (Cursed: no Stone)")
        stones = "two Stones" if reading is not None and reading.blessing else "the Stone"
        return _clip(f"Pay {bet} & throw {stones}")
    labels: dict[str, str] = {
        "pilfer": f"Pay {bet}, Pilfer! & throw (+ their {stone.value if stone else '?'})",
        "fly": "Fly the Black: new Bones, new bet, no Stone",
        "fold": "Fold: no bet, no Stone",
        "plank": f"Walk the Plank (can't cover {bet})",
        "leave_stone": "Leave my Stone on the table",
        "pick_up": f"Pick up my Stone ({stone.value if stone else '?'})",
        "let_stand": "Let it stand",
        "grumble": f"Grumble ({coins(GP * view.tide)})",
        "allow": "Let them throw again",
        "object": "Object",
        "pass": "Let it be",
        "mutiny": "Mutiny!",
        "ready": "Ready to vote",
        "nay": "Nay (stand by the Captain)",
        "yay": "Yay (back the Mutineer)",
        "keep": f"Keep it all ({view.coffer_text})",
        "share_all": "Share evenly with everyone aboard",
        "share_side": "Share evenly with those who backed me",
        "refund": "Refund the mutiny costs, keep the rest",
        "stay_aboard": "Stay aboard",
        "anchor": f"Swallow the Anchor (cash out {purse})",
        "stay": "Stay",
        "heave": f"Heave Down (cash out {purse})",
        "end": "Vote to end the game",
    }
    if kind in labels:
        return _clip(labels[kind])
    if kind == "give" and action.target is not None:
        return _clip(f"Give {_who(action.target)} {coins(action.amount or 0)}")
    if kind == "give_half" and action.target is not None:
        return _clip(f"Give half to {_who(action.target)} ({coins(view.coffer // 2)})")
    if kind == "buy":
        return _clip(f"Buy in {coins(action.amount or 0)}")
    return kind


# -- the rules ------------------------------------------------------------------------------------


def rules_summary(options: StonesAndBonesOptions | None = None) -> str:
    """The quick rules, the house rulings and the options in force (Markdown). With the
    host's tavern-mode note it must fit one embed description (4,096 characters): ``/game
    rules`` shows nothing else, so whatever ran past that would be lost."""
    o = options or StonesAndBonesOptions()
    purse = ("set per seat by the host" if o.purses is not None
             else f"{coins(o.starting_purse)} each")
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
    grumbles = ("\n**Grumbles**: after a claim another player may pay 1 gp × Tide (into the next "
                "coffer) to have the deciding dice thrown again, unless anyone objects. A reroll "
                "that voids a Crossbones is a Sink (on the Plank: out); money with no next coffer "
                "goes back to its payer."
                if o.grumbles else "")
    grumble_timeout = "; no Grumbles, no objection" if o.grumbles else ""
    stone_timeout = "; the Stone is left on the table" if o.pilfer == "window" else ""
    buy = ", ".join(coins(b) for b in o.buy_ins)
    gifts = _count_words(flow.GIFTS_PER_PARLEY)
    return f"""**Stones & Bones** (Quick Core Rules v1.2): the Bones (4 d20) set your bet, your Stone (d20) claims the coffer.
Coins: 10 cp = 1 sp, 10 sp = 1 gp, 10 gp = 1 pp, change made for you. Purse: {purse}. 2-6 players.

**Your turn** (the Captain first each Wave, then clockwise)
1. {ante[0].upper() + ante[1:]}.
2. The Bones: 1-5 = 1 cp, 6-10 = 1 sp, 11-20 = 1 gp each. **Ill Omens**: matching Bones multiply their tier ({omens}). **Bane**: any 20 doubles the bet, once. **Blessing**: any 1 gives you two Stones.
3. Pay the bet × Tide; or **Fly the Black** once per Tide (throw the Bones again and pay that bet instead; no Stone, only Crossbones wins){fold}. Broke (bet or ante)? **Walk the Plank**: all in, the Bones again: Crossbones or you're out.
4. A **Crossbones** on the Bones wins at once (Cursed or not) and no Stone is thrown. Else throw: **Float** (your Stone matches a Bone) or the Captain's 13 (**Captain's Luck**, on either Blessing Stone) claims the coffer; else **Sink**.{pilfer}
Whoever claims is Captain. Four Waves make a Tide: then the Tide rises (bets × Tide), Captain is re-rolled, and each may stay, **Heave Down** (cash out), buy in ({buy}) or vote to end.

**Crossbones** (claim + **Curse**: no Stone until another claims; you may **Swallow the Anchor**, cashing out at once): Daggers (2+ ones), Dubloons (2+ twenties), Jacob's Ladder (any run of 4), Thirteen Thrice (3+ thirteens), Rum Runner (any four of a kind). 4,982 rolls in 160,000 (3.11 %).

**Mutiny** ({trigger}; up to 60 s to cry it): the first to cry Mutiny is the Mutineer; parley (deals, at most {gifts} gifts each); the rest vote in secret, a strict Yay majority forces a Challenge. Each non-Captain pays d4 gp (not × Tide); Captain d20 + d6 + Nay d4s vs Mutineer d20 + d4 + Yay d4s, ties to the Captain. The winner takes the coffer and may split it. **Cutthroat** (2 afloat): a coin flip, heads = d20 + d6 + d4 each, no cost, ties to the Captain.{grumbles}

**End**: after Wave 4 of Tide 6 (24 Waves at most), when one pirate is left afloat, by unanimous vote at a Tide rise, or at the 2,000-turn safety cap. Ranked by net: purse + cash-outs − buy-ins.

**Rulings**: turns in order, not all at once; a Plank claim makes you Captain and Cursed; only the last Crossbones winner is Cursed; mutiny costs are paid only if a Challenge happens; the Captain is rolled on Stones, ties re-roll.
**House choices** (the rulings are silent): a won Mutiny lifts the Curse; only a Crossbones winner who kept the coffer may Swallow the Anchor; a Captain who leaves mid-Tide is replaced by a roll-off, and a rolled-off Captain's first claim is a plunder; at the turn cap, a coffer in play is shared among those afloat.
**Timeouts**: pay and throw (the Plank if broke; never Fly, Pilfer or fold){stone_timeout}{grumble_timeout}; no Mutiny; ready at the parley; Nay; keep the coffer; stay aboard; stay at the Tide rise, no buy-in."""
