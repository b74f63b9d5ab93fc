"""What the Store pays for stars, what the stock pays out, and who leads (RT-8 to RT-12)."""

from __future__ import annotations

from rules.rattlebones.board import DATA
from rules.rattlebones.models import Player, RattlebonesState


def star_value(n: int, store: str = "linear") -> int:
    """RT-8: the Store pays 3/7/11/15 for 1-4 stars; more than 4 pay 4n-1, or (the option)
    in batches of at most 4, each at the chart's price."""
    if n <= 0:
        return 0
    chart = DATA.star_chart
    if n <= len(chart):
        return chart[n - 1]
    if store == "linear":
        return 4 * n - 1
    batches, rest = divmod(n, len(chart))
    return batches * chart[-1] + (chart[rest - 1] if rest else 0)


def stock_payout(holdings: list[int]) -> list[int]:
    """RT-10: the points each seat scores when the last ticket leaves the supply.

    Seats holding none never place. One seat holding all five: 15. Otherwise a single leader
    scores 10 and a single second 5; seconds tied 2 each; leaders tied 7 each and the next
    group 2 each."""
    total = sum(holdings)
    paid = [0] * len(holdings)
    holders = sorted({h for h in holdings if h > 0}, reverse=True)
    if not holders:
        return paid
    top = [s for s, h in enumerate(holdings) if h == holders[0]]
    if len(top) == 1 and holdings[top[0]] == total:
        paid[top[0]] = 15
        return paid
    second = [s for s, h in enumerate(holdings) if len(holders) > 1 and h == holders[1]]
    if len(top) == 1:
        paid[top[0]] = 10
        for s in second:
            paid[s] = 5 if len(second) == 1 else 2
    else:
        for s in top:
            paid[s] = 7
        for s in second:
            paid[s] = 2
    return paid


def place_of(state: RattlebonesState, seat: int) -> int:
    """RT-9: 1 + the players with strictly more points."""
    mine = state.players[seat].score
    return 1 + sum(p.score > mine for p in state.players)


def _standing(p: Player) -> tuple[int, int]:
    """RT-12: the highest score, then gold + stars + stock; what is still equal is a tie."""
    return p.score, p.gold + p.stars + p.stock


def leaders(state: RattlebonesState) -> list[int]:
    """The seats that would win if the game ended now."""
    best = max(_standing(p) for p in state.players)
    return [s for s, p in enumerate(state.players) if _standing(p) == best]


def ranks(state: RattlebonesState) -> list[int]:
    """Each seat's place by the same order; equal standings share it."""
    keys = [_standing(p) for p in state.players]
    return [1 + sum(o > k for o in keys) for k in keys]


def to_go(state: RattlebonesState, seat: int) -> int:
    """Points a mouse still needs to meet Rattlebones, which ends the game (RT-12)."""
    return max(0, state.rattlebones - state.players[seat].score)
