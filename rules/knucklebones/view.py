"""What a Knucklebones table shows. Nothing is hidden: every seat and the channel see the same."""

from __future__ import annotations

from functools import lru_cache

from rules.knucklebones.models import (
    SHEET,
    DieView,
    ItemView,
    KnucklebonesState,
    KnucklebonesView,
    PendingView,
    SheetView,
)
from rules.knucklebones.moves import asks, open_items, targets, turns_total, waiting
from rules.knucklebones.scoring import hand_meets, hand_of, hand_points
from rules.knucklebones.text import needs_text, pending_prompt


#: the sheet's lines, the same in every view
ITEM_VIEWS = tuple(ItemView(key=i.key, name=i.name, points=i.points, requirement=i.requirement,
                            needs=needs_text(i)) for i in SHEET.items)


@lru_cache(maxsize=4096)
def die_view(die: int, face: int | None, active: bool, spent: bool, doubled: int, resolved: bool,
             pending: bool) -> DieView:
    """A die as every view shows it, made once for each look it can have (a few thousand): a
    table is viewed on every click, and its seven dice were half of what a view cost."""
    return DieView(id=die, number=die + 1, face=face, active=active, spent=spent, doubled=doubled,
                   counts_as=2**doubled, resolved=resolved, pending=pending)


def _sheet_view(seat: int, sheet: dict[str, int | None]) -> SheetView:
    points = list(sheet.values())
    return SheetView(seat=seat, items=dict(sheet), total=sum(filter(None, points)),
                     filled=len(points) - points.count(None))


def view(state: KnucklebonesState) -> KnucklebonesView:
    over = state.phase == "over"
    pending = None
    if state.pending is not None and not over:
        die = state.pool[state.pending]
        ask = asks(die)
        pending = PendingView(die=die.id, face=die.face or 0, ask=ask,
                              prompt=pending_prompt(die.id, die.face or 0, ask),
                              targets=[t.id for t in targets(state, die)])
    hand = hand_of(state.pool)
    scoring = [] if over else open_items(state, state.current)
    return KnucklebonesView(
        phase=state.phase,
        over=over,
        current_seat=None if over else state.current,
        start_seat=state.start_seat,
        seats=state.seats,
        turn=state.turn,
        turns_total=turns_total(state),
        options=state.options,
        active_count=sum(d.active for d in state.pool),
        dice=[die_view(d.id, d.face, d.active, d.spent, d.doubled, d.resolved, d.id == state.pending)
              for d in state.pool],
        pending=pending,
        waiting=[] if over else [d.id for d in waiting(state) if d.id != state.pending],
        items=list(ITEM_VIEWS),
        sheets=[_sheet_view(s, sheet) for s, sheet in enumerate(state.sheets)],
        preview={k: hand_points(hand, k) for k in scoring},
        met=[k for k in scoring if hand_meets(hand, k)],
    )
