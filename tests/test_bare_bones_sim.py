"""Bare Bones simulated: 1,000+ whole games of bot, random and timed-out seats over every seat
count, every suggested action set and random ones, checking the invariants of RULINGS 1.5 after
every step, the JSON round trip of every state (mid-question ones included), the move cap, and,
on a sample, replay from the seed and the log, the untouched input of ``apply`` and that no view
shows another seat's hand or any draw pile's order."""

from __future__ import annotations

import random
from collections import Counter

from rules.base import Chooser
from rules.bare_bones import (
    CARDS,
    DICE,
    ENGINE,
    HOT_POTATO_PENALTY,
    LOAN_PENALTY,
    BareBonesAction,
    BareBonesOptions,
    BareBonesState,
    action_label,
)
from rules.bare_bones.table import dearest_cost, loan_cap, owned_cards, pattern_of

GAMES = 1000
SETS = ("basics", "interplay", "money_money", "many_paths", "random")
ALL_CARDS = list(range(len(CARDS)))
PER_COLOUR = DICE.per_colour


def _options(index: int, rng: random.Random) -> BareBonesOptions:
    extra = {"draft_white": rng.random() < 0.3,
             "dice_limit": "unlimited" if rng.random() < 0.3 else "physical",
             "run_multiple": rng.random() < 0.3}
    if index % 11 == 10:  # now and then a custom Supply of 7 Actions drawn here
        from rules.bare_bones import ACTIONS

        return BareBonesOptions(action_set="custom", custom_actions=rng.sample(sorted(ACTIONS), 7),
                                **extra)  # type: ignore[arg-type]
    return BareBonesOptions(action_set=SETS[index // 3 % len(SETS)], **extra)  # type: ignore[arg-type]


def _broken(state: BareBonesState) -> list[str]:
    """RULINGS 1.5 after every step: the names of those that do not hold. (Plain ifs: this runs
    some 200,000 times.)"""
    broken = []
    t = state.turn
    cards = list(state.box)
    for stack in state.supply.values():
        cards += stack
    for p in state.players:
        cards += p.draw + p.hand + p.discard
    cards += [b.card for b in state.blocks]
    if t is not None:
        cards += [x.card for x in t.play]
    if sorted(cards) != ALL_CARDS:
        broken.append("the 217 cards are not each in one place")
    rolled = Counter(d.colour for d in t.dice) if t is not None else Counter()
    blocked = Counter(b.colour for b in state.blocks)
    for colour, pool in state.dice_pool.items():
        if pool + rolled[colour] + blocked[colour] != PER_COLOUR:
            broken.append(f"the {colour} dice are not conserved")
        if state.options.dice_limit == "physical" and pool < 0:
            broken.append(f"more {colour} dice rolled than exist")
    if t is not None:
        if t.au > 5:
            broken.append("more than 5 Action Units")
        if len(t.dice) > 6:
            broken.append("more than 6 dice")
        if "double_up" in t.actions and len(t.dice) > 4:
            broken.append("more than 4 dice under Double Up")
        if "rainbow" in t.actions and max(rolled.values(), default=0) > 1:
            broken.append("two dice of a colour under Rainbow")
        if len(set(t.bought)) != len(t.bought):
            broken.append("two copies of a card bought in a turn")
        pattern_of(t)  # raises on two multipliers
        if t.spent > t.coins:
            broken.append("more coins spent than held")
    if state.phase != "over" and not 1 <= state.round <= 12:
        broken.append("a round outside 1-12")
    for seat, p in enumerate(state.players):
        running = 0
        for _, points, total, penalty, _, _ in p.sheet:
            running += points
            if total != running:
                broken.append("a running total is not the sum of the turns")
            if points + penalty < 0:
                broken.append("a turn lost points other than a loan's")
        if t is not None and t.seat == seat and t.scored is not None:  # scored, sheet not yet
            running += t.scored.option.points - t.penalty
        if running != p.score:
            broken.append("the score is not the sheet's total")
    return broken


def _check_end(state: BareBonesState) -> None:
    assert all(p.turns == 12 and len(p.sheet) == 12 for p in state.players)
    for f in state.finals:
        owned = owned_cards(state, f.seat)
        potatoes = sum(CARDS[c].kind == "hot_potato" for c in owned)
        fpv = sum(CARDS[c].fpv for c in owned)
        loan = state.players[f.seat].loan
        assert (f.fpv, f.potatoes, f.loan, f.cards) == (fpv, potatoes, loan, len(owned))
        assert f.total == state.players[f.seat].score + fpv - HOT_POTATO_PENALTY * potatoes - LOAN_PENALTY * loan
    ranks = {o.seat: o.rank for o in ENGINE.outcomes(state)}
    best = max((f.total, -f.cards) for f in state.finals)
    assert {f.seat for f in state.finals if (f.total, -f.cards) == best} == {
        s for s, r in ranks.items() if r == 1}


def _play(index: int, sample: bool) -> tuple[BareBonesState, int]:
    """One whole game from seed ``index``, checked after every step. With ``sample``, also that
    ``apply`` leaves its input alone, that no view leaks, and that the log replays."""
    rng = random.Random(index)
    seats = 2 + index % 3
    options = _options(index, rng)
    seed = rng.randrange(2**32)
    state = ENGINE.new_game(seats, options, seed)
    cap = ENGINE.move_cap(seats, options)
    policies = rng.choices(("ai", "random", "timeout", "mixed"), weights=(3, 3, 2, 2), k=seats)
    chooser = Chooser(random.Random(seed))
    log: list[tuple[int, BareBonesAction | None]] = []
    turns_before = [0] * seats
    while not ENGINE.is_over(state):
        if len(log) >= cap:
            raise AssertionError(f"game {index} passed its move cap {cap}")
        acting = ENGINE.to_act(state)
        if len(acting) != 1:
            raise AssertionError(f"game {index}: {acting} to act")
        seat = acting[0]
        legal = ENGINE.legal_actions(state, seat)
        if state.pending is not None and state.pending.kind == "loan":
            # BB-13: every amount to the cap, in two steps split at the dearest card
            first = min(loan_cap(state), dearest_cost(state))
            more = [a.amount for a in legal if a.kind == "loan_more"]
            amounts = [a.amount for a in legal if a.kind == "loan"]
            if state.pending.more:
                wanted = [0, *range(first + 1, loan_cap(state) + 1)]
            else:
                wanted = list(range(first + 1))
                if more != ([first + 1] if loan_cap(state) > first else []):
                    raise AssertionError(f"game {index}: more loans from {more}")
            if amounts != wanted:
                raise AssertionError(f"game {index}: loans of {amounts}")
        elif not 2 <= len(legal) <= 25:  # a single answer is made by itself
            raise AssertionError(f"game {index}: {len(legal)} legal actions")
        policy = policies[seat]
        if policy == "mixed":
            policy = rng.choice(("ai", "ai", "random", "timeout"))
        if sample:
            dump = state.model_dump()
        before = state
        if policy == "timeout" and rng.random() < 0.5:
            state, events = ENGINE.on_timeout(state, seat)
            log.append((seat, None))
        else:
            action = ENGINE.ai_action(state, seat, chooser) if policy == "ai" else rng.choice(legal)
            state, events = ENGINE.apply(state, seat, action)
            log.append((seat, action))
        if not events or any(not e.text for e in events):
            raise AssertionError(f"game {index}: a step said nothing")
        broken = _broken(state)
        if broken:
            raise AssertionError(f"game {index}, step {len(log)}: {broken}")
        if BareBonesState.model_validate_json(state.model_dump_json()) != state:
            raise AssertionError(f"game {index}, step {len(log)}: the JSON round trip differs")
        for s, p in enumerate(state.players):
            if p.turns != turns_before[s]:  # that seat's cleanup: a fresh hand
                owned = owned_cards(state, s)
                aside = sum(b.owner == s for b in state.blocks)
                if len(p.hand) != min(5, len(owned) - aside):
                    raise AssertionError(f"game {index}: a hand of {len(p.hand)} after cleanup")
                turns_before[s] = p.turns
        if sample:
            assert before.model_dump() == dump  # apply never changes its input
            if not ENGINE.is_over(state):
                view = ENGINE.view(state, ENGINE.to_act(state)[0])
                for a in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
                    assert 0 < len(action_label(view, a)) <= 80
            if len(log) % 3 == 0:
                for viewer in [None, *range(seats)]:
                    mine = ENGINE.view(state, viewer)
                    twin = ENGINE.scramble_hidden(state, viewer, rng)
                    assert mine == ENGINE.view(twin, viewer)
                    if viewer is not None:
                        assert mine.me is not None and len(mine.me.hand) == len(state.players[viewer].hand)
    _check_end(state)
    if sample:
        replay = ENGINE.new_game(seats, options, seed)
        for seat, action in log:
            replay, _ = (ENGINE.on_timeout(replay, seat) if action is None
                         else ENGINE.apply(replay, seat, action))
        assert replay == state
    return state, len(log)


def test_simulated_games_keep_the_invariants() -> None:
    seen: set[tuple[int, str]] = set()
    ends: Counter[str] = Counter()
    for index in range(GAMES):
        state, _ = _play(index, sample=index % 40 == 0)
        seen.add((state.seats, state.options.action_set))
        ends["potato"] += any(f.potatoes for f in state.finals)
        ends["loan"] += any(f.loan for f in state.finals)
        ends["negative"] += any(f.total < 0 for f in state.finals)
    assert seen >= {(n, s) for n in (2, 3, 4) for s in SETS}  # every seat count with every set
    assert seen & {(n, "custom") for n in (2, 3, 4)}
    # the end's deductions happen often enough to be checked: Hot Potatoes, open loans
    assert ends["potato"] > 50 and ends["loan"] > 20, ends


def test_every_question_is_met_in_the_simulation() -> None:
    """The pending decisions the simulation visits, so a question no game reaches is noticed."""
    met: set[str] = set()
    rng = random.Random(7)
    for index in range(60):
        options = BareBonesOptions(action_set="custom", custom_actions=rng.sample(sorted(
            ["mimic", "joyride", "loan_shark", "yard_sale", "swap_meet", "double_up", "hot_potato",
             "full_house", "pairs", "odds_or_evens", "cant_touch_this", "re_re_roll"]), 7))
        state = ENGINE.new_game(2 + index % 3, options, index)
        chooser = Chooser(random.Random(index))
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            if state.pending is not None:
                met.add(state.pending.kind)
            legal = ENGINE.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else ENGINE.ai_action(state, seat, chooser)
            state, _ = ENGINE.apply(state, seat, action)
    assert met == {"mimic", "joyride_seat", "joyride_card", "loan", "yard_sale", "swap_give",
                   "swap_take", "double_up", "purple", "leave_out", "full_house", "pattern",
                   "potato"}
