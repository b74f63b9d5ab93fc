"""The contract every game engine keeps, so the host can run any game the same way.

An engine is a set of pure functions over a pydantic state: the host loads a state, asks who
must act and what they may do, applies one action, stores the result. Nothing here knows
about Discord, the store or the clock, which is what lets the same engine be simulated a
thousand times in a test and replayed from its log.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from pathlib import Path
from types import UnionType
from typing import Any, ClassVar, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

#: the data files of every game (cards, dice, boards, score sheets): ``data/`` beside ``rules/``
DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class GameError(Exception):
    """A refusal the player should read: shown as a short ephemeral message."""


class IllegalAction(GameError):
    pass


class Event(BaseModel):
    """Something that happened: its kind, the seats it concerns and its figures, so a cog builds
    its own words (a story, a headline) without parsing ours; ``text`` is the log's plain line."""

    model_config = ConfigDict(frozen=True)
    kind: str
    text: str
    seat: int | None = None
    #: every seat the event concerns (a round's winners, who is out), ``seat`` first if set
    seats: tuple[int, ...] = ()
    #: the event's figures by name (points scored, coins won, the die rolled)
    data: dict[str, Any] = Field(default_factory=dict)


def counted(n: int, word: str) -> str:
    """"1 coin", "3 coins": every game counts things in its words, and the rulebooks' words
    all take an s."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seat_name(seat: int) -> str:
    """How an engine names a seat in its words; the host puts the player's name in its place."""
    return f"Seat {seat + 1}"


M = TypeVar("M", bound=BaseModel)


def load_data(relative: str, model: type[M]) -> M:
    """A game's data file (``data/<relative>``), validated: every game finds its data this way."""
    return model.model_validate(json.loads((DATA_DIR / relative).read_text(encoding="utf-8")))


#: type -> whether its values never change (numbers, strings, tuples, frozen models), so a
#: copy may share them
_FROZEN: dict[type, bool] = {kind: True for kind in (int, str, bool, float, type(None), tuple, bytes)}
_set = object.__setattr__


#: model class -> whether each of its fields can only hold immutable values (a die: numbers and
#: flags), so a copy of one is a copy of its fields' dict, with nothing to look at inside it
_FLAT: dict[type, bool] = {}


def _immutable(annotation: Any) -> bool:
    """Whether every value a field so annotated may hold never changes."""
    if _FROZEN.get(annotation):  # a number, a string... or a frozen model met before
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return True
    if origin in (Union, UnionType, tuple):
        return all(_immutable(a) for a in get_args(annotation) if a is not Ellipsis)
    return isinstance(annotation, type) and issubclass(annotation, BaseModel) and bool(
        annotation.model_config.get("frozen"))


def _learn(kind: type) -> bool:
    frozen = _FROZEN[kind] = bool(getattr(kind, "model_config", {}).get("frozen"))
    return frozen


def _copy_list(items: list[Any]) -> list[Any]:
    if not items:
        return []
    inner = _FROZEN.get(type(items[0]))
    if inner is None:
        inner = _learn(type(items[0]))
    return items.copy() if inner else [_copy_item(x) for x in items]


def _copy_fields(fields: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, x in fields.items():
        kind = type(x)
        if _FROZEN.get(kind):
            out[key] = x
        elif kind is list:
            out[key] = _copy_list(x)
        else:
            out[key] = _copy_item(x)
    return out


def _copy_item(item: Any) -> Any:
    kind = type(item)
    frozen = _FROZEN.get(kind)
    if frozen is None and kind is not list and kind is not dict:
        frozen = _learn(kind)
    if frozen:
        return item
    if kind is list:
        return _copy_list(item)
    if kind is dict:
        return _copy_fields(item)
    flat = _FLAT.get(kind)
    if flat is None:
        flat = _FLAT[kind] = all(_immutable(f.annotation) for f in kind.model_fields.values())
    new = object.__new__(kind)
    _set(new, "__dict__", item.__dict__.copy() if flat else _copy_fields(item.__dict__))
    _set(new, "__pydantic_fields_set__", set(item.__pydantic_fields_set__))
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


def copy_state(state: M) -> M:
    """A deep copy ``apply`` may change freely, so it never touches its input.

    Immutable things are shared: numbers, strings, tuples and frozen models. Every list, dict
    and mutable model is rebuilt without validation (it was valid, and so is its copy). That
    is several times faster than ``model_copy(deep=True)`` or a dump and re-validation, which
    matters in games of a few hundred moves simulated by the thousand; the property suite
    checks the JSON round trip of every state. A list holds one type of item, so a list of
    immutable items is copied whole."""
    copied: M = _copy_item(state)
    return copied


class Outcome(BaseModel):
    """One seat's place at the end. Equal ranks are a shared place (a tie at 1 is a shared win)."""

    seat: int
    rank: int
    score: int | None = None

    @property
    def won(self) -> bool:
        return self.rank == 1


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


class Engine(ABC, Generic[S, A, O]):
    key: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    State: ClassVar[type[BaseModel]]
    Action: ClassVar[type[BaseModel]]
    Options: ClassVar[type[BaseModel]]
    #: what happens to a seat whose player leaves mid-game: "ai" (a bot player takes it over)
    leave_policy: ClassVar[str] = "ai"

    @abstractmethod
    def new_game(self, seats: int, options: O, seed: int) -> S: ...

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Seats whose decision the game is waiting for (several in simultaneous phases)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """The single source of truth for the UI, the checks, AI seats and fuzzers.

        Deterministic for a given state, so a button may carry an index into this list."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[Event]]:
        """Return a new state; raise IllegalAction and leave ``state`` untouched if not legal."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> BaseModel:
        """What ``seat`` may see (``None``: the public channel). The only reader of secrets."""

    def seat_view(self, state: S, seat: int, public: BaseModel) -> BaseModel:
        """``view(state, seat)``, when the public view of this very state has been read already.
        A game whose seat sees the public table and its own secrets beside it builds only those
        (the host reads both views on most clicks of a game with secrets); the default reads
        the whole view again."""
        return self.view(state, seat)

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def outcomes(self, state: S) -> list[Outcome]: ...

    def timeout_action(self, state: S, seat: int) -> A:
        """The ruling's default move for a seat that let its deadline pass."""
        raise NotImplementedError(f"{type(self).__name__} states no timeout default")

    def timeout_event(self, state: S, seat: int, default: A) -> Event:
        """How a timeout is told in the log; games say what their default does."""
        return Event(kind="timeout", seat=seat, seats=(seat,),
                     text=f"{seat_name(seat)} ran out of time; the default was played.")

    def timeout_turn(self, state: S) -> object:
        """What names the seat's turn, where the ruling's default plays the rest of it (a turn
        of several decisions); None: a timeout plays one move."""
        return None

    def on_timeout(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """Apply the ruling's default for a seat that let its deadline pass: its
        ``timeout_action``, and where ``timeout_turn`` names a turn, again until that turn is
        over; told first as a timeout."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        default = self.timeout_action(state, seat)
        events = [self.timeout_event(state, seat, default)]
        turn = self.timeout_turn(state)
        state, more = self.apply(state, seat, default)
        events += more
        while turn is not None and self.timeout_turn(state) == turn and not self.is_over(state):
            state, more = self.apply(state, seat, self.timeout_action(state, seat))
            events += more
        return state, events

    def ai_action(self, state: S, seat: int, choose: Chooser) -> A:
        """A bot player's move; games with a policy override this. Default: at random."""
        return choose(self.legal_actions(state, seat))

    def decision_stamp(self, state: S, seat: int) -> str | None:
        """What a seat's buttons are tied to (letters, digits and dots only).

        None: the table's move number, so any move makes every older button stale. Games where
        seats decide at the same time return something that changes only when this seat's own
        choices change, so one player's sealed choice does not void the buttons another player
        is about to press."""
        return None

    def decision_window(self, state: S) -> int | None:
        """Seconds the rules themselves allow for the decisions awaited now (a call that must
        come at once), whatever the table's timer; None: only the table's timer runs."""
        return None

    def open_actions(self, state: S) -> list[A]:
        """Choices several seats make at once and in the open (a public call, a Ready).

        The table shows them as one row of buttons for everyone who owes a decision, and a click
        counts for whoever pressed it, if it is among their legal actions. Empty (the default):
        every seat chooses from its own controls."""
        return []

    def refusal(self, state: S, seat: int, action: A) -> str | None:
        """Why ``seat``, who owes a decision, may not make ``action``, one of the open choices,
        in a few words to the player who pressed it ("you cannot give to yourself"). An open row
        is one row for everyone, so a press on another's choice is a player's honest mistake
        that deserves its reason. None (the default): it is simply another seat's choice."""
        return None

    def move_cap(self, seats: int, options: O) -> int:
        """The most actions (timeouts included) a game with these seats and options can take
        before it must be over.

        The rulings promise that no table can be held for ever: every game has a hard cap on
        its turns or rounds, and every phase in which a move does not finish a seat's decision
        (gifts, toggles, take-backs, a Ready that can be undone) caps such moves per seat. This
        number follows from those caps alone, whatever the players click and however the dice
        fall, so a test can hold every game to it; each game derives its own."""
        raise NotImplementedError(f"{type(self).__name__} states no move cap")

    def seat_range(self, options: O) -> tuple[int, int]:
        """How many seats a table with these options may start with (an option may change it)."""
        return self.min_seats, self.max_seats

    def has_private_view(self) -> bool:
        """Whether seats hold secrets that must be sent privately (hands, sealed choices)."""
        return False

    def scramble_hidden(self, state: S, viewer: int | None, rng: random.Random) -> S:
        """The same table with everything ``viewer`` may not see (``None``: the channel) changed
        to something else it could be: other seats' hands, draw piles' order, sealed choices.

        This declares what is secret, so one test can hold every game to it: the view of
        ``viewer`` must be the same in both worlds. Games with secrets must override it (the
        default, no secrets, is right only where ``has_private_view`` is False)."""
        return state

    def check(self, state: S, seat: int, action: A) -> None:
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        legal = self.legal_actions(state, seat)
        # an engine that offers one shared instance of each action is answered without
        # comparing the action, field by field, to every one offered before it
        if not any(offered is action for offered in legal) and action not in legal:
            raise IllegalAction("That move is not allowed now.")


class Chooser:
    """Picks one item of a list; the host passes one seeded outside the game state, so a bot
    player's randomness never shifts the game's own dice (its moves are logged instead)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def __call__(self, items: list[A]) -> A:
        return self._rng.choice(items)

