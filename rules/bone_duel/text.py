"""Bone Duel in words: the log's line for each event, the rules and the game's own words.

An event's line is made from its kind, seats and figures alone (``event_text``), so the log and
a cog that tells the same thing say the same words; seats are "Seat N" (the host puts names in).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import counted, seat_name
from rules.bone_duel.models import COLUMNS, GAME_PLACEMENTS, MATCH_GAMES, ROWS, BoneDuelOptions

#: what players call the engine's columns 0, 1, 2. The table's picture must fit a phone (about
#: 400 px wide, 300 high), so it draws the two grids side by side with each column as a row
#: across, the rulebook's left column on top, and a column faces its opposite on one line. The
#: words follow the picture: a player who taps "Left" expects the left of the picture, so every
#: button, line and rule says "top row" where the rulebook says "left column". The rulebook's
#: meaning is kept: three places of up to three dice, each facing the rival's of the same name,
#: and the timeout's «leftmost column with room» is the topmost row with room.
COLUMN_NAMES = ("top", "middle", "bottom")
TIMEOUT = "ran out of time: the die goes into the topmost row with room."


def column_name(column: int) -> str:
    """The engine's ``column`` as players read it: "top row"."""
    return f"{COLUMN_NAMES[column]} row"


def faces_text(faces: list[int], *, owned: bool = False) -> str:
    """"a 4", "two 4s", "three 4s". ``owned``: the words follow a possessive ("Ann's 4",
    never "Ann's a 4"), where a lone die takes no article."""
    face = faces[0]
    if len(faces) == 1:
        return str(face) if owned else f"a {face}"
    return f"{('two', 'three')[len(faces) - 2]} {face}s"


def event_text(kind: str, seats: tuple[int, ...], data: Mapping[str, Any]) -> str:
    """The log's line for an event of this game (see ``flow`` for the figures of each kind)."""
    if kind == "game_over":
        return _game_over_text(seats, data)
    if kind == "match_over":
        wins = data["wins"]
        if len(seats) == 1:  # a run of draws can end a match won 1 game to 0
            return f"{seat_name(seats[0])} wins the match, {counted(max(wins), 'game')} to {min(wins)}."
        return f"The match is a draw: {counted(wins[0], 'game')} won each after {data['games']} games."
    who = seat_name(seats[0])
    if kind == "timeout":
        return f"{who} {TIMEOUT}"
    if kind == "roll":
        return f"{who} rolls a {data['face']}."
    if kind == "place":
        return (f"{who} places a {data['face']} in the {column_name(data['column'])} "
                f"(total {data['score_after']}).")
    if kind == "knock":
        return (f"{who}'s {data['faces'][0]} knocks {faces_text(data['faces'])} out of "
                f"{seat_name(seats[1])}'s {column_name(data['column'])} "
                f"(total {data['victim_after']}).")
    raise ValueError(f"no words for a {kind!r} event: {dict(data)}")


def _game_over_text(winners: tuple[int, ...], data: Mapping[str, Any]) -> str:
    """Why the game ended and who won it: a player who still has room in their grid sees the
    game stop because the other grid filled."""
    scores = data["totals"]
    game = f"game {data['game']}" if data.get("match") else "the game"
    filled = data.get("filled")
    if filled is not None:
        ended = f"{seat_name(filled)}'s grid is full, so {game} is over"
    elif data.get("capped"):
        ended = f"{GAME_PLACEMENTS} dice have been placed, the most a game allows, so {game} is over"
    else:
        ended = f"{game[0].upper()}{game[1:]} is over"
    if len(winners) == 1:
        winner = winners[0]
        return f"{ended}: {seat_name(winner)} wins, {scores[winner]} to {scores[1 - winner]}."
    return f"{ended}: a draw at {scores[0]} each."


def bot_reason(seat: int, data: Mapping[str, Any]) -> str | None:
    """What a bot's placement (``seat``'s ``place`` event's figures) was after, for the players who
    watch it play: a pair or three of a kind, or a die the rival cannot knock out while their row is full. A
    knock-out says itself; a plain placement has nothing to explain."""
    face, gain = data["face"], data.get("gain")
    if gain is None:  # a move made before placements kept these figures
        return None
    if data.get("matching", 1) == 2:
        return f"pairing their {face}s (+{gain})"
    if data.get("matching", 1) == 3:
        return f"for three {face}s (+{gain})"
    if data.get("facing_full"):
        return f"where {seat_name(1 - seat)} cannot knock it out while their {column_name(data['column'])} is full"
    return None


def rules_summary(options: BoneDuelOptions | None = None) -> str:
    """The rulebook in a few lines, the options in force, the timeout default and the caps: the
    game itself, then the table's options and its timer, so that a page cut between the two
    still reads whole."""
    options = options or BoneDuelOptions()
    knock = ("Every die of the same number in your opponent's facing row is knocked out."
             if options.knockouts else "No knock-outs (option): dice stay where they are.")
    if options.best_of_three:
        match = (f"**Best of three:** the first to win two games wins the match; the loser of a game "
                 f"starts the next (after a draw, the other player than the one who started it). "
                 f"A draw counts for nobody; after {MATCH_GAMES} games the most wins take the match, "
                 f"else it is a draw.")
    else:
        match = "One game; a random player starts."
    return f"""**Bone Duel**: two players, two {COLUMNS}×{ROWS} grids facing each other, one die. The rulebook's columns are drawn as rows here: its left column is the top row.
**Your turn**: roll the die and place it in one of your {COLUMNS} rows with room (up to {ROWS} dice each). {knock}
**Scoring**: a row is the sum of its dice, but matching dice multiply: a number that appears k times scores number × k × k (two 4s: 16; 2, 2, 5: 13). Your total is your three rows.
**End**: at once when either grid is full (nine dice), after that turn's knock-out, or after {GAME_PLACEMENTS} dice placed in the game; the higher total wins, equal totals draw.

{match}
**Timeout**: the die goes into the topmost row with room."""


def how_to_play(options: BoneDuelOptions | None = None) -> str:
    """The essentials on one phone screen."""
    options = options or BoneDuelOptions()
    knock = ("**Knock-outs:** every die of the same number in your rival's facing row is removed."
             if options.knockouts else "**No knock-outs** at this table: dice stay where they are.")
    buttons = ("Each button says what its row adds to your total and knocks out of your rival's; green gains "
               "the most." if options.knockouts else "Each button says what its row adds; green adds the most.")
    match = ("\n**Best of three:** the first to win two games wins the match; each game's final grids "
             "stay in the picture of the next game's first turns." if options.best_of_three else "")
    return f"""Two players, a grid of {COLUMNS} rows each, one die.

**Your turn:** the die is rolled for you; put it in one of your rows that has room ({ROWS} dice).
{knock}
**Scoring:** a row scores the sum of its dice, but matching dice multiply: a number twice scores number × 2 × 2 (two 4s: 16), three times number × 3 × 3.
**End:** as soon as either grid is full ({COLUMNS * ROWS} dice); the higher total wins.{match}

In the picture your grid is on your side, next to your name; each of your rows faces your rival's on the same line (top, middle, bottom), with both scores between. {buttons}"""


#: the game's own words, as the glossary page explains them
WORDS: tuple[tuple[str, str], ...] = (
    ("Row", f"one of your {COLUMNS} places for dice (top, middle, bottom), up to {ROWS} dice each. "
            "The rulebook calls them columns (left, middle, right): its left column is the top row."),
    ("Facing row", "your rival's row on the same line of the picture."),
    ("Knock out", "placing a die removes every die of that number from your rival's facing row."),
    ("Row score", "the sum of its dice, matching dice multiplied: 2, 2, 5 scores 2 × 2 × 2 + 5 = 13."),
    ("Total", "your three row scores added up; the higher total wins."),
    ("Grid", f"a player's {COLUMNS} rows; the game ends when one grid holds {COLUMNS * ROWS} dice."),
    ("Best of three", "a match option: the first to win two games; the loser of a game starts the next."),
)
