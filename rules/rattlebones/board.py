"""The printed parts of Rattlebones as data: board layouts, tiles, sides, tracks, the Gamble die.

The rulebook prints none of the board, the train track, the Gamble die or the split of the
point sides (RULINGS "missing from the sources"), so they live in ``data/rattlebones.json``
where a reader can check them against RT-1, RT-2, RT-4 and RT-5, and are validated here when
the module loads, so a broken file stops the bot at startup rather than mid-game.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import load_data

#: the side kinds a space can hand out, as the rulebook's «Board Spaces» list names them
SIDE_KINDS: tuple[str, ...] = (
    "gold", "star", "roll_again", "train", "nine_pip", "points", "thief", "arrow", "place",
    "stock", "x2", "gamble",
)
#: the kinds of space: START/STORE, +1 (which hands out point sides), and one per other side
SPACE_KINDS: tuple[str, ...] = ("start", "plus_one") + tuple(k for k in SIDE_KINDS if k != "points")
TILE = "tile"  # a blank space of the layout, filled with a tile at setup
POINT_VALUES = (1, 2, 3, 4, 5)
FACE_COUNT = 6


class SideText(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=20)
    short: str = Field(min_length=1, max_length=8)
    does: str = Field(min_length=1, max_length=120)


class SpaceText(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=20)
    short: str = Field(min_length=1, max_length=8)


class Layout(BaseModel):
    """A loop of spaces, index 0 first and clockwise; "tile" marks a blank for a board tile."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    spaces: tuple[str, ...] = Field(min_length=4, max_length=20)

    @field_validator("spaces")
    @classmethod
    def _known_spaces(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return check_spaces(value)


def check_spaces(spaces: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A loop starts on START/STORE (the monkeys' start, RULINGS 3.1), has it once, and has at
    most as many blanks as there are tiles."""
    spaces = tuple(spaces)
    if not spaces or spaces[0] != "start" or spaces.count("start") != 1:
        raise ValueError("a board starts with the START/STORE space and has it exactly once")
    unknown = [s for s in spaces if s not in SPACE_KINDS and s != TILE]
    if unknown:
        raise ValueError(f"unknown board spaces: {unknown}")
    if spaces.count(TILE) > len(SIDE_KINDS):
        raise ValueError("more blank spaces than there are board tiles")
    return spaces


class BoardData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    sides: dict[str, SideText]
    side_count: int = Field(ge=1)
    point_sides: dict[str, tuple[int, int, int, int, int]]
    spaces: dict[str, SpaceText]
    tiles: tuple[str, ...]
    boards: dict[str, Layout]
    train_values: tuple[int, ...] = Field(min_length=2, max_length=12)
    rattlebones_start: dict[int, int]
    score_track: int = Field(ge=10)
    gold: int = Field(ge=0)
    stars: int = Field(ge=0)
    stock: int = Field(ge=1)
    gamble_die: tuple[str, ...] = Field(min_length=2)
    star_chart: tuple[int, ...] = Field(min_length=1)
    start_die: tuple[str, ...]

    @model_validator(mode="after")
    def _consistent(self) -> BoardData:
        if set(self.sides) != set(SIDE_KINDS):
            raise ValueError(f"sides must be exactly {SIDE_KINDS}")
        if set(self.spaces) != {"start", "plus_one"}:
            raise ValueError("spaces names START/STORE and +1; the rest are named by their side")
        if sorted(self.tiles) != sorted(SPACE_KINDS[1:]) or len(set(self.tiles)) != len(self.tiles):
            raise ValueError("the 12 board tiles are one of each kind of space but START")
        if set(self.boards) != {"standard14", "compact8"}:
            raise ValueError("the boards are standard14 and compact8")
        for key, split in self.point_sides.items():
            if sum(split) != self.side_count or min(split) < 0:
                raise ValueError(f"point_sides {key}: the point sides are one kind of 15")
        if set(self.rattlebones_start) != {2, 3, 4}:
            raise ValueError("Rattlebones' start is given for 2, 3 and 4 players")
        if any(not 0 < v <= self.score_track for v in self.rattlebones_start.values()):
            raise ValueError("Rattlebones starts on the score track")
        if self.start_die[0] != "rb" or len(self.start_die) != FACE_COUNT:
            raise ValueError("a die has six sides and side 1 is the Rattlebones icon")
        for face in self.gamble_die:
            if face != "rb" and not (face.startswith("points:") and face[7:].isdigit()):
                raise ValueError(f"a Gamble die face is points or Rattlebones, not {face!r}")
        if any(b <= a for a, b in zip(self.star_chart, self.star_chart[1:], strict=False)):
            raise ValueError("the star chart pays more for more stars")
        return self


def load_board_data() -> BoardData:
    return load_data("rattlebones.json", BoardData)


DATA: BoardData = load_board_data()


def side_name(kind: str) -> str:
    return DATA.sides[kind].name


def space_name(kind: str) -> str:
    """START/STORE and +1 have names of their own; every other space is named by its side."""
    if kind in DATA.spaces:
        return DATA.spaces[kind].name
    return DATA.sides[kind].name


def space_short(kind: str) -> str:
    if kind in DATA.spaces:
        return DATA.spaces[kind].short
    return DATA.sides[kind].short
