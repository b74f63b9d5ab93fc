"""What each seat and the channel may see of a Bare Bones table, and what they may not.

``view`` is the only reader of secrets. The public view shows what lies on the table: the play
area, the dice, the Supply, piles by size, each discard pile's top card (it lies face up), and a
hand only when Joyride or Full House has revealed it. A seat's own view adds its hand and its
discard pile; no view ever shows the order of a draw pile. ``scramble_hidden`` declares the same
secrets by changing them.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache, lru_cache

from rules.base import copy_state
from rules.bare_bones.cards import (
    ACTIONS,
    CARDS,
    COIN_FACES,
    COLOURS,
    COLOURS_BY_KEY,
    CTT,
    DICE_CARDS,
    KEY_ORDER,
    card_short,
    colour_name,
    draftable_kind,
    kind_name,
)
from rules.bare_bones.effects import swap_value
from rules.bare_bones.models import (
    DRAFT_ROUNDS,
    ROUNDS,
    BareBonesState,
    BareBonesView,
    BlockView,
    CardView,
    DieView,
    DraftView,
    PendingView,
    PlayedView,
    Player,
    PlayerView,
    PrivateView,
    RevealView,
    ScoreView,
    SheetColumn,
    SheetRow,
    StackView,
    TurnView,
)
from rules.bare_bones.moves import drafter, to_act
from rules.bare_bones.table import au_left, blocked_values, dearest_cost, loan_cap, owned_cards, red_draws_left
from rules.bare_bones.text import pending_prompt


@cache  # a card's view never changes, and a table shows dozens of cards on every click
def card_view(card_id: int) -> CardView:
    c = CARDS[card_id]
    return CardView(id=c.id, key=c.key, kind=c.kind, name=c.name, cost=c.cost, fpv=c.fpv,
                    au=c.au, colour=c.colour, dice=c.is_dice, short=card_short(c.key))


def _sorted_cards(cards: list[int]) -> list[CardView]:
    return [card_view(c) for c in sorted(cards, key=lambda c: (KEY_ORDER[CARDS[c].key], c))]


def sheet_rows(p: Player) -> list[SheetRow]:
    """A player's column of the scoresheet: the coin notes are the rulebook's, "+3" for coins
    Keep the Change carried, "-8" for coins Loan Shark lent."""
    return [_sheet_row(*entry) for entry in p.sheet]


@lru_cache(maxsize=4096)
def _sheet_row(round_: int, points: int, total: int, penalty: int, carried: int, borrowed: int) -> SheetRow:
    """Made once for each line a sheet can hold and shared (frozen): every view shows every
    player's whole column, rebuilt row by row on each click it was a third of a view's cost."""
    notes = ([f"+{carried}"] if carried else []) + ([f"-{borrowed}"] if borrowed else [])
    return SheetRow(round=round_, points=points, total=total, penalty=penalty, notes=notes)


def _turn_view(s: BareBonesState) -> TurnView | None:
    t = s.turn
    if t is None:
        return None
    blocked = set(blocked_values(s, t.seat))
    score = None
    if t.scored is not None:
        score = ScoreView(points=t.scored.option.points, coins=t.scored.option.coins,
                          working=t.scored.working, conversion=t.scored.conversion)
    return TurnView(
        seat=t.seat, round=t.round, stage=t.stage, au_used=t.au, au_left=au_left(t),
        play=[PlayedView(card=card_view(x.card), owner=x.owner, how=x.how, mimics=x.mimics,
                         purple=x.purple, doubled_up=x.doubled_up) for x in t.play],
        actions=list(t.actions),
        dice=[DieView(index=i, colour=d.colour, name=colour_name(d.colour), value=d.value,
                      currency=COLOURS_BY_KEY[d.colour].currency, rerolls=d.rerolls,
                      blocked=d.value in blocked) for i, d in enumerate(t.dice)],
        rolled=t.rolled, rerolls_left=t.rerolls, green_used=t.green_used,
        second_roll=t.second_roll, offers=list(t.offers), matched=list(t.matched),
        offer_from=s.offer_from if t.offers else None,
        reveals=[RevealView(seat=r.seat, by=r.by, cards=[card_view(c) for c in r.cards])
                 for r in t.reveals],
        score=score, carry_in=t.carry_in, sold=t.sold, loaned=t.loaned, repaid=t.repaid,
        penalty=t.penalty, coins=t.coins, spent=t.spent, coins_left=t.coins - t.spent,
        bought=list(t.bought), keep_change=t.keep_change, red_draws_left=max(0, red_draws_left(t)),
    )


def _supply_view(s: BareBonesState) -> list[StackView]:
    draft_white = s.options.draft_white
    return [_stack_view(kind, len(cards), draft_white,
                        tuple(c for c in COLOURS if any(CARDS[x].colour == c for x in cards)) if kind == CTT else ())
            for kind, cards in s.supply.items()]


@lru_cache(maxsize=4096)
def _stack_view(kind: str, count: int, draft_white: bool, versions: tuple[str, ...]) -> StackView:
    """A supply stack as it looks with ``count`` cards left, made once and shared (frozen): a
    table shows the whole supply on every click, and all but the count never change."""
    d = DICE_CARDS.get(kind)
    a = ACTIONS.get(kind)
    return StackView(
        kind=kind, name=kind_name(kind), cost=d.cost if d else a.cost if a else 0,
        fpv=d.fpv if d else 0, au=a.au if a else 0, count=count, dice=d is not None,
        draftable=draftable_kind(kind, draft_white), versions=list(versions),
        short=d.short if d else a.short if a else "", brief=a.brief if a else "",
    )


def view(s: BareBonesState, seat: int | None) -> BareBonesView:
    acting = to_act(s)
    players = []
    for n, p in enumerate(s.players):
        owned = owned_cards(s, n)
        players.append(PlayerView(
            seat=n, player_number=s.order.index(n) + 1, score=p.score, draw_size=len(p.draw),
            hand_size=len(p.hand), discard_size=len(p.discard),
            discard_top=card_view(p.discard[-1]) if p.discard else None,
            owned=len(owned), hot_potatoes=sum(CARDS[c].kind == "hot_potato" for c in owned),
            carry=p.carry, loan=p.loan, turns=p.turns,
            aside=[card_view(b.card) for b in s.blocks if b.owner == n],
        ))
    pending = None
    if s.pending is not None and s.turn is not None:
        q = s.pending
        value = swap_value(q) if q.kind.startswith("swap") else loan_cap(s) if q.kind == "loan" else 0
        pending = PendingView(kind=q.kind, seat=s.turn.seat, card=q.card, more=q.more,
                              dearest=dearest_cost(s) if q.kind == "loan" else 0,
                              so_far=s.turn.carry_in + s.turn.sold + s.turn.loaned if q.kind == "loan" else 0,
                              die_pays=COIN_FACES if q.kind == "loan" else (0, 0),
                              prompt=pending_prompt(q.kind, s.turn.seat, q.target, value),
                              marked=list(q.marked), value=value, options=list(q.options),
                              target=q.target)
    draft = None
    if s.phase == "draft":
        draft = DraftView(pick=len(s.picks) + 1, picks_total=DRAFT_ROUNDS * s.seats,
                          round=len(s.picks) // s.seats + 1, drafter=drafter(s),
                          picks=[(seat, CARDS[card].name) for seat, card in s.picks])
    finals = {f.seat: f for f in s.finals}
    public = BareBonesView(
        phase=s.phase, over=s.phase == "over", seats=s.seats, round=min(s.round, ROUNDS),
        rounds=ROUNDS, order=list(s.order), order_rolls=[list(r) for r in s.order_rolls],
        current=acting[0] if acting else None, to_act=acting, options=s.options,
        action_set=list(s.actions), supply=_supply_view(s), dice_pool=dict(s.dice_pool),
        players=players,
        blocks=[BlockView(owner=b.owner, colour=b.colour, value=b.value, card=CARDS[b.card].name)
                for b in s.blocks],
        turn=_turn_view(s), pending=pending, draft=draft,
        sheet=[SheetColumn(seat=n, rows=sheet_rows(p), final=finals.get(n))
               for n, p in enumerate(s.players)],
        finals=list(s.finals), me=None,
    )
    return public if seat is None else seat_view(s, seat, public)


def _private(s: BareBonesState, seat: int) -> PrivateView:
    p = s.players[seat]
    names = Counter(CARDS[c].name for c in owned_cards(s, seat))
    mine = s.turn is not None and s.turn.seat == seat
    return PrivateView(
        seat=seat, hand=_sorted_cards(p.hand), draw_size=len(p.draw),
        discard=[card_view(c) for c in p.discard],
        owned=dict(sorted(names.items())), carry=p.carry, loan=p.loan,
        au_left=au_left(s.turn) if mine and s.turn is not None else None,
    )


def seat_view(s: BareBonesState, seat: int, public: BareBonesView) -> BareBonesView:
    """``view(s, seat)`` from the public view of the same state: a seat sees its own hand,
    piles and cards in ``me``, and nothing else differs."""
    return public.model_copy(update={"me": _private(s, seat)})


def scramble_hidden(s: BareBonesState, viewer: int | None, rng: random.Random) -> BareBonesState:
    """The same table with every hidden thing ``viewer`` may not see changed: other seats'
    hands dealt afresh from their hand and draw pile together, every draw pile reordered (even
    one's own), and the discard piles of others reordered below their face-up top card. A view
    that showed any of it would change."""
    other = copy_state(s)
    for seat, p in enumerate(other.players):
        if seat == viewer:
            rng.shuffle(p.draw)
            continue
        pool = p.hand + p.draw
        rng.shuffle(pool)
        p.hand, p.draw = pool[: len(p.hand)], pool[len(p.hand):]
        if len(p.discard) > 2:
            below = p.discard[:-1]
            rng.shuffle(below)
            p.discard = below + p.discard[-1:]
    return other
