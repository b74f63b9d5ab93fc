"""Bone Duel's options, state, actions and views.

Columns are numbered 0, 1, 2 from left to right as each player sees their own grid; column
``c`` faces the opponent's column ``c`` (the rulebook's worked example: Ann's left column faces
Bob's left column). A column holds its dice in the order they were placed. Players never read
"left": the table draws each column as a row across, column 0 on top (see ``text``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rules.rng import Dice

SEATS = 2
COLUMNS = 3
ROWS = 3  # «each column holding up to three dice»
FACES = 6
#: a best-of-three match ends after this many games at most: drawn games count for nobody, so
#: without a cap a run of draws could go on for ever
MATCH_GAMES = 5
#: a game ends after this many placements at most (both players together): knock-outs empty
#: grids again, so without a cap two players could trade knock-outs for ever. Far above what
#: real games take (see ``ai`` and the tests: random play rarely passes 30)
GAME_PLACEMENTS = 60


class BoneDuelOptions(BaseModel):
    #: «the first player to win two games wins the match; the loser of a game starts the next»
    best_of_three: bool = False
    #: False: «No knock-outs», a gentler game for new players
    knockouts: bool = True


class BoneDuelAction(BaseModel):
    """Place the rolled die in this column of your own grid."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    column: int = Field(ge=0, lt=COLUMNS)


#: the three actions there are, made once: legal_actions shares them
ACTIONS: tuple[BoneDuelAction, ...] = tuple(BoneDuelAction(column=c) for c in range(COLUMNS))


class Placement(BaseModel):
    """The last die placed, and what it knocked out."""

    model_config = ConfigDict(frozen=True)
    seat: int
    column: int
    #: the index the die took in its column (0: the first die there)
    row: int
    face: int
    #: faces removed from the opponent's opposite column (all equal to ``face``)
    knocked: list[int]
    game: int


class FinishedGame(BaseModel):
    """A finished game of a match as it ended: the next game empties the grids in the same
    move, and players must still see the grids that made the score."""

    model_config = ConfigDict(frozen=True)
    #: its 1-based number in the match
    game: int
    #: seat -> column -> dice, after the last knock-out
    grids: list[list[list[int]]]
    #: seat -> column -> its score
    column_scores: list[list[int]]
    totals: list[int]
    #: the winning seat, None for a draw
    winner: int | None
    #: the die that ended it, and what it knocked out
    last: Placement | None


class BoneDuelState(BaseModel):
    options: BoneDuelOptions
    #: seat -> column -> dice in placing order
    grids: list[list[list[int]]]
    #: whose turn it is
    current: int
    #: the die rolled for the current player at the start of the turn (public); None when over
    die: int | None
    #: 1-based number of the game of the match in progress (always 1 in a single game)
    game: int = 1
    #: games won by each seat
    wins: list[int] = Field(default_factory=lambda: [0, 0])
    #: who started the game in progress
    starter: int
    #: dice placed in the game in progress, both players together (capped: GAME_PLACEMENTS)
    placements: int = 0
    last: Placement | None = None
    #: per finished game: the winning seat, None for a draw
    results: list[int | None] = Field(default_factory=list)
    #: each finished game's final totals, per seat
    game_totals: list[list[int]] = Field(default_factory=list)
    #: the last game that ended, as it ended (None until one has)
    last_game: FinishedGame | None = None
    over: bool = False
    dice: Dice


class Preview(BaseModel):
    """What placing the current die in ``column`` would do, for the current player."""

    column: int
    #: the change in the current player's total
    gain: int
    #: the faces it would knock out of the opponent's opposite column
    knocks: list[int]
    #: the points those knock-outs take off the opponent's total
    takes: int = 0
    #: the current player's total after it
    score_after: int

    @property
    def swing(self) -> int:
        """How far it moves the two totals apart in the current player's favour: a knock-out
        that takes 24 off the rival is worth more than a pair that adds 18."""
        return self.gain + self.takes


class BoneDuelView(BaseModel):
    grids: list[list[list[int]]]
    #: seat -> column -> its score
    column_scores: list[list[int]]
    totals: list[int]
    current: int
    die: int | None
    last: Placement | None
    #: for the current player's legal columns, in column order (empty when over)
    previews: list[Preview]
    game: int
    #: 1-based number of the turn in progress in its game, a turn being one player's die
    turn: int
    wins: list[int]
    best_of_three: bool
    knockouts: bool
    results: list[int | None]
    #: each finished game's final totals, per seat (a match's results read with their scores)
    game_totals: list[list[int]]
    #: the last game that ended, its grids as they ended: in a match, what the game before the
    #: one in progress looked like at its end (None until a game has ended)
    last_game: FinishedGame | None
    over: bool
    #: empty until over; both seats on a draw
    winners: list[int]
