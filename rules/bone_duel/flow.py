"""A Bone Duel turn and match, step by step: place the rolled die, knock out, check the end,
then roll for the next player, or start the next game of a best-of-three match.

Everything here but ``new_state`` works on a state the caller has copied. Events' figures:

- ``roll``: seat; ``face``.
- ``place``: seat; ``column``, ``row``, ``face``, ``score_after`` (the placer's total),
  ``column_score`` (of that column after), ``gain`` (what the column gained), ``matching``
  (dice of that face in the column after it, itself included), ``facing_full`` (the
  opponent's opposite column is full, this die knocking none of it out, so no die of theirs
  can ever knock it out).
- ``knock``: seats (placer, victim); ``column``, ``faces`` (removed), ``victim_after`` (the
  victim's total after).
- ``game_over``: seats = the winners (both on a draw); ``totals``, ``game``, ``match`` (a
  best-of-three game), ``filled`` (the seat whose grid is full, None when the placement limit
  ended it), ``capped`` (ended by the placement limit), ``wins`` (after it), and
  ``next_starter`` (None when the match is over).
- ``match_over`` (best of three only): seats = the winners (both on a draw); ``wins``,
  ``games``, ``results``.

A game's end keeps its grids in ``state.last_game`` before the next game empties them.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.bone_duel.models import (
    COLUMNS,
    FACES,
    GAME_PLACEMENTS,
    MATCH_GAMES,
    ROWS,
    SEATS,
    BoneDuelOptions,
    BoneDuelState,
    FinishedGame,
    Placement,
)
from rules.bone_duel.scoring import column_score, grid_total, knocks, totals
from rules.bone_duel.text import event_text
from rules.rng import Dice


def _event(kind: str, seats: tuple[int, ...], **data: Any) -> Event:
    return Event(kind=kind, seat=seats[0] if kind not in ("game_over", "match_over") else None,
                 seats=seats, data=data, text=event_text(kind, seats, data))


def new_state(options: BoneDuelOptions, seed: int) -> BoneDuelState:
    """«Decide who goes first at random. Both grids start empty.» The starter's die is rolled."""
    dice = Dice(seed=seed)
    starter = dice.below(SEATS)
    state = BoneDuelState(options=options, grids=_empty(), current=starter, die=None,
                          starter=starter, dice=dice)
    state.die = dice.roll(FACES)
    return state


def _empty() -> list[list[list[int]]]:
    return [[[] for _ in range(COLUMNS)] for _ in range(SEATS)]


def _roll(state: BoneDuelState, events: list[Event]) -> None:
    state.die = state.dice.roll(FACES)
    events.append(_event("roll", (state.current,), face=state.die))


def place(state: BoneDuelState, column: int) -> list[Event]:
    """The current player's die into ``column`` (legal: checked by the engine), and all that
    follows by itself."""
    seat, face = state.current, state.die
    assert face is not None
    other = 1 - seat
    own = state.grids[seat][column]
    before = column_score(own)
    own.append(face)
    state.placements += 1
    opposite = state.grids[other][column]
    knocked = knocks(face, opposite, state.options.knockouts)
    events = [_event("place", (seat,), column=column, row=len(own) - 1, face=face,
                     score_after=grid_total(state.grids[seat]), column_score=column_score(own),
                     gain=column_score(own) - before, matching=own.count(face),
                     facing_full=len(opposite) >= ROWS and not knocked)]
    if knocked:
        state.grids[other][column] = [d for d in opposite if d != face]  # the rest keep order
        events.append(_event("knock", (seat, other), column=column, faces=knocked,
                             victim_after=grid_total(state.grids[other])))
    state.last = Placement(seat=seat, column=column, row=len(own) - 1, face=face,
                           knocked=knocked, game=state.game)
    filled = next((s for s, grid in enumerate(state.grids) if sum(map(len, grid)) == COLUMNS * ROWS), None)
    if filled is not None or state.placements >= GAME_PLACEMENTS:
        _end_game(state, events, filled)
    else:
        state.current = other
        _roll(state, events)
    return events


def _end_game(state: BoneDuelState, events: list[Event], filled: int | None) -> None:
    """«The higher total wins; equal totals are a draw», then the match goes on or ends."""
    scores = totals(state)
    winner = None if scores[0] == scores[1] else scores.index(max(scores))
    state.results.append(winner)
    state.game_totals.append(scores)
    state.last_game = FinishedGame(
        game=state.game, grids=[[list(column) for column in grid] for grid in state.grids],
        column_scores=[[column_score(column) for column in grid] for grid in state.grids],
        totals=scores, winner=winner, last=state.last)
    if winner is not None:
        state.wins[winner] += 1
    best_of_three = state.options.best_of_three
    over = (not best_of_three or max(state.wins) >= 2 or state.game >= MATCH_GAMES)
    # «the loser of a game starts the next»; after a draw, the one who did not start this one
    starter = (1 - state.starter) if winner is None else 1 - winner
    winners = (winner,) if winner is not None else (0, 1)
    events.append(_event("game_over", winners, totals=scores, game=state.game,
                         match=best_of_three, filled=filled, capped=filled is None, wins=list(state.wins),
                         next_starter=None if over else starter))
    if over:
        state.over, state.die = True, None
        if best_of_three:
            best = max(state.wins)
            match_winners = tuple(s for s in range(SEATS) if state.wins[s] == best)
            events.append(_event("match_over", match_winners, wins=list(state.wins),
                                 games=state.game, results=list(state.results)))
        return
    state.game += 1
    state.grids = _empty()
    state.placements = 0
    state.starter = state.current = starter
    _roll(state, events)


def winners(state: BoneDuelState) -> list[int]:
    """Empty until over. A single game: the higher total (both on a draw); a match: the most
    games won (both on equal wins)."""
    if not state.over:
        return []
    if state.options.best_of_three:
        best = max(state.wins)
        return [s for s in range(SEATS) if state.wins[s] == best]
    scores = totals(state)
    return [s for s in range(SEATS) if scores[s] == max(scores)]
