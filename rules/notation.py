"""Dice notation for `/roll`: the d20 grammar players know from Avrae, rolled within hard limits.

The d20 package parses and evaluates; this module decides what a single command may cost and
turns d20's result tree into flat, display-ready facts (every die, kept or not, crits, total).
Nothing here knows about Discord, so every limit can be tested directly.

Why the d20 classes are subclassed rather than used as they come:

* d20 draws from the module-level ``random``; a roll here draws from a ``random.Random`` carried
  by the roll context, so a test can seed it without touching global state.
* d20's ``keep`` re-runs its selection once per die (quadratic), and rerolls re-select every
  round: with chained operators a 500-character expression could keep the bot busy for minutes.
  The context therefore also counts selection work and stops a roll that would take too long,
  and ``keep`` selects once (the same result: dropping an unselected die never changes what a
  selector picks).
* Rerolls and explosions visit the chosen dice in the order they were rolled, not in d20's set
  order, so that the same seed always gives the same roll.
* d20 rolls ``d%`` as a tens die (0, 10 ... 90); here it is the percentile die players mean, 1-100.

Words players type after the dice, as they do with the most used D&D bots, are read before the rest
becomes the comment:

* ``adv``/``advantage`` and ``dis``/``disadvantage`` roll the leading d20 twice and keep the higher
  or lower (``1d20+5 adv`` is ``2d20kh1+5``, d20's own rewrite). On a roll that does not start with
  one d20 they are refused with the reason, never left as a comment the roller thinks was obeyed.
  Both at once cancel out, as in the 5e rules: one d20, and the reply says why.
* ``repeat N`` (or ``repeat:N``, as Discord writes options) works like the ``repeat`` option. It is
  obeyed rather than answered with a hint, because what the roller means is unambiguous, nobody
  writes "repeat 6" as a comment, and adding an option on a phone takes several taps more than two
  words typed; a saved roll keeps it in its expression too. Typed and given as the option with
  different numbers, the roll is refused rather than one of the two silently winning.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, get_args

import d20
import lark
from d20 import diceast

from rules.base import GameError

MAX_EXPRESSION = 500
MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_REPEAT = 20
#: dice visited by keep/drop/reroll/explode selections in one command; legitimate rolls use a
#: few thousand, and the cap keeps the worst case to a few tenths of a second (bench/roll_speed.py)
MAX_WORK = 600_000

CRIT_MARK = "✨"
FUMBLE_MARK = "💀"
#: written after each struck-through die that does not count
DROPPED = "dropped"
REROLLED = "rerolled"
EXAMPLES = "Try e.g. `1d20+5`, `4d6kh3`, `2d20kl1 + 3 [fire]` or `8d6 fireball`."

Mode = Literal["normal", "advantage", "disadvantage"]
MODES: tuple[Mode, ...] = get_args(Mode)
#: the words after the dice that ask for a mode
MODE_WORDS: dict[str, Mode] = {"adv": "advantage", "advantage": "advantage",
                               "dis": "disadvantage", "disadvantage": "disadvantage"}
_MODE_WORD = re.compile(r"(?<![\w-])(adv|advantage|dis|disadvantage)(?![\w-])", re.I)
_LEADING_MODE = re.compile(r"^(?:adv|advantage|dis|disadvantage)(?![\w-])[\s,.;:]*", re.I)
_TRAILING_MODE = re.compile(r"[\s,.;:]+(?:adv|dis)[.]?$", re.I)
_REPEAT_WORDS = re.compile(r"(?<![\w-])repeat\s*[:=]?\s*(\d+)(?![\w-])", re.I)
CANCEL_OUT = "advantage and disadvantage cancel out: one d20"


class RollError(GameError):
    """A roll the bot refuses: a short reason plus an example of what works."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}\n{EXAMPLES}")


# ---------------------------------------------------------------- d20, bounded and seedable
def die(rng: random.Random, sides: int) -> int:
    """One fair die, 1..sides. Every die the dice commands show is drawn here, from a
    ``random.Random`` the caller owns, so one loaded ``randrange`` in a test forces them all."""
    return rng.randrange(sides) + 1


def sides_of(size: int | str) -> int:
    """d20 rolls `d%` as a tens die (0, 10 ... 90); players mean the percentile die, 1-100."""
    return 100 if size == "%" else int(size)


class _Context(d20.RollContext):
    """One budget for a whole command, so `repeat` cannot multiply it (d20 resets per roll)."""

    def __init__(self, rng: random.Random, max_rolls: int = MAX_DICE, max_work: int = MAX_WORK) -> None:
        self.rng = rng
        self.max_work = max_work
        self.work = 0
        super().__init__(max_rolls)

    def reset(self) -> None:
        pass

    def count_work(self, n: int) -> None:
        self.work += n
        if self.work > self.max_work:
            raise RollError("That roll needs too much sorting and rerolling; use fewer keep or reroll operators.")


class _Die(d20.Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        if self.size != "%" and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        context = self._context
        assert isinstance(context, _Context)
        context.count_roll()
        self.values.append(d20.Literal(die(context.rng, sides_of(self.size))))


class _Dice(d20.Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int | str, context: d20.RollContext | None = None) -> _Dice:
        return cls(num, size, [_Die.new(size, context=context) for _ in range(num)], context=context)

    def roll_another(self) -> None:
        self.values.append(_Die.new(self.size, context=self._context))


class _SetOperator(d20.SetOperator):
    __slots__ = ("context",)

    def select(self, target: Any, max_targets: int | None = None) -> set[Any]:
        self.context.count_work(len(self.sels) * (len(target.set) + 1))
        return super().select(target, max_targets)

    def keep(self, target: Any) -> None:
        chosen = self.select(target)
        for value in target.keptset:
            if value not in chosen:
                value.drop()

    # d20 walks a Python set of dice here, whose order follows memory addresses; walking them in
    # the order they were rolled lets a seed reproduce a roll exactly.
    def _in_order(self, target: Any, chosen: set[Any]) -> list[Any]:
        return list(chosen) if len(chosen) < 2 else [die for die in target.values if die in chosen]

    def reroll(self, target: Any) -> None:
        chosen = self.select(target)
        while chosen:
            for die in self._in_order(target, chosen):
                die.reroll()
            chosen = self.select(target)

    def reroll_once(self, target: Any) -> None:
        for die in self._in_order(target, self.select(target)):
            die.reroll()

    def explode(self, target: Any) -> None:
        chosen = self.select(target)
        done: set[Any] = set()
        while chosen:
            for die in self._in_order(target, chosen):
                die.explode()
                target.roll_another()
            done.update(chosen)
            chosen = self.select(target).difference(done)


class _Roller(d20.Roller):
    def __init__(self, context: _Context) -> None:
        super().__init__(context)

    def _eval_dice(self, node: diceast.Dice) -> _Dice:
        return _Dice.new(node.num, node.size, context=self.context)

    def _eval_operatedset(self, node: diceast.OperatedSet) -> Any:
        target = self._eval(node.value)
        for op in node.operations:
            the_op = _SetOperator.from_ast(op)
            the_op.context = self.context
            the_op.operate(target)
            target.operations.append(the_op)
        return target


class _Markdown(d20.MarkdownStringifier):
    """d20's breakdown, without the total (shown large), with d20 crits and fumbles marked, and
    with every die that does not count struck through *and* named as such: a strike alone is easy
    to miss on a small screen and is not read out by screen readers.

    ``terse`` leaves out each dice term's notation (`(5, 3, 6)` for `3d6 (5, 3, 6)`), for the lines
    of a repeated roll, whose expression is shown once above them. A roll at advantage or
    disadvantage names its leading d20s by the mode, the one that counts first:
    `advantage (17, ~~4~~ dropped) + 5`, which says what happened where `2d20kh1 (~~4~~ dropped, 17)`
    needs decoding."""

    def __init__(self, *, terse: bool = False, mode: Mode = "normal") -> None:
        super().__init__()
        self.terse = terse
        self.mode = mode
        self._lead: Any = None
        self._nodes: dict[Any, Any] = {**self._nodes, _Dice: self._str_dice, _Die: self._str_die}

    def _stringify(self, node: Any) -> str:
        if node.kept or self._context.in_dropped:
            return d20.Stringifier._stringify(self, node)
        self._context.in_dropped = True
        try:
            inside = d20.Stringifier._stringify(self, node)
        finally:
            self._context.in_dropped = False
        return f"~~{inside}~~ {DROPPED}"

    def _str_expression(self, node: Any) -> str:
        self._lead = d20.utils.leftmost(node.roll) if self.mode != "normal" else None
        return self._stringify(node.roll)

    def _str_dice(self, node: Any) -> str:
        if node is self._lead:
            kept_first = sorted(node.values, key=lambda die: not die.kept)
            return f"{self.mode} ({', '.join(self._stringify(die) for die in kept_first)})"
        if not self.terse:
            return super()._str_dice(node)
        return f"({', '.join(self._stringify(die) for die in node.values)})"

    def _str_die(self, node: Any) -> str:
        # A die's earlier faces are the ones rerolls replaced; only the last can count. Only a
        # face that counts is bold at 1 or at its top, or marked as a natural 20 or 1, so that a
        # struck one never draws the eye.
        rolls = []
        for value in node.values:
            counts = value.kept and not self._context.in_dropped
            text = self._str_literal(value)
            if counts and value.number in (1, sides_of(node.size)):
                text = f"**{text}**"
            if counts and node.size == 20 and value.values[0] in (1, 20):
                text += CRIT_MARK if value.values[0] == 20 else FUMBLE_MARK
            if not value.kept and not self._context.in_dropped:
                text = f"~~{text}~~ {REROLLED}"
            rolls.append(text)
        return ", ".join(rolls)


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class Face:
    """One value a die showed. A rerolled die has several faces; only the last can be kept."""

    value: int
    natural: int  # before mi/ma forced it
    sides: int | str
    kept: bool
    exploded: bool = False

    @property
    def crit(self) -> bool:
        return self.sides == 20 and self.natural == 20

    @property
    def fumble(self) -> bool:
        return self.sides == 20 and self.natural == 1


@dataclass(frozen=True)
class DiceGroup:
    """One `NdX...` term: what it was written as, every face, and what it added up to."""

    notation: str
    faces: tuple[Face, ...]
    total: int
    annotation: str | None = None

    @property
    def kept(self) -> int:
        return sum(f.kept for f in self.faces)


@dataclass(frozen=True)
class Roll:
    total: int
    breakdown: str  # markdown, as d20 writes it, each die that does not count ~~struck~~ and named
    groups: tuple[DiceGroup, ...]
    successes: int | None = None
    crit: Literal["crit", "fumble"] | None = None  # of the d20 leading the roll, if it has one
    #: the breakdown without each dice term's notation, for the lines of a repeat (which shows its
    #: expression once, above them); a single roll has none, as it shows its breakdown
    terse: str | None = None

    @property
    def result(self) -> int:
        """What the roll is worth: successes when counting them, else the total."""
        return self.total if self.successes is None else self.successes

    @property
    def dice(self) -> int:
        return sum(len(g.faces) for g in self.groups)


@dataclass(frozen=True)
class RollSeries:
    expression: str
    rolls: tuple[Roll, ...]
    comment: str | None = None
    target: int | None = None
    fail: int | None = None
    #: the mode the leading d20 was rolled at (``expression`` is then already `2d20kh1...`)
    mode: Mode = "normal"
    #: what the roller should know about how their words were read (both modes cancelling out)
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(r.result for r in self.rolls)

    @property
    def dice(self) -> int:
        return sum(r.dice for r in self.rolls)

    @property
    def counting(self) -> bool:
        return self.target is not None


# ---------------------------------------------------------------- rolling
@dataclass(frozen=True)
class _Asked:
    """What the roller asked for beyond the dice, from the options and the words after the dice."""

    repeat: int
    mode: Mode
    comment: str | None
    #: how the mode was asked for, to name it in a refusal: the word typed, or None for the option
    word: str | None
    notes: tuple[str, ...]


def _asked(comment: str | None, repeat: int | None, mode: Mode) -> _Asked:
    text = comment or ""
    typed = [int(n) for n in _REPEAT_WORDS.findall(text)]
    if len(set(typed)) > 1:
        raise RollError("Say `repeat` once: the roll asks for " + " and ".join(f"`repeat {n}`" for n in typed) + ".")
    if typed:
        if repeat not in (None, typed[0]):
            raise RollError(f"The roll says `repeat {typed[0]}` and the `repeat` option says {repeat}; say it once.")
        repeat = typed[0]
        text = _REPEAT_WORDS.sub(" ", text)
    if repeat is not None and not 1 <= repeat <= MAX_REPEAT:
        raise RollError(f"`repeat` must be between 1 and {MAX_REPEAT}.")
    words = [w for w in _MODE_WORD.findall(text)]
    asked = {MODE_WORDS[w.lower()] for w in words} | ({mode} if mode != "normal" else set())
    notes: tuple[str, ...] = ()
    chosen: Mode = "normal"
    if len(asked) == 2:
        notes = (CANCEL_OUT,)
    elif asked:
        chosen = asked.pop()
    # a mode word leading the comment, or a short one ending it, is an instruction ("adv to hit",
    # "to hit adv"); inside it reads as part of the comment ("to hit with advantage")
    rest = " ".join(text.split())
    rest = _LEADING_MODE.sub("", rest)
    rest = _TRAILING_MODE.sub("", rest)
    if not _MODE_WORD.sub(" ", rest).strip(" ,.;"):
        rest = ""
    word = next((w for w in words if MODE_WORDS[w.lower()] == chosen), None)
    return _Asked(repeat=repeat or 1, mode=chosen, comment=rest or None, word=word, notes=notes)


def _with_mode(tree: diceast.Expression, asked: _Asked) -> diceast.Expression:
    """d20's own rewrite of a leading single d20 (`1d20+5` to `2d20kh1 + 5`); anything else is
    refused with the reason, since the roller expects the mode to have been used."""
    if asked.mode == "normal":
        return tree
    left = d20.utils.leftmost(tree)
    if isinstance(left, diceast.Dice) and left.num == 1 and left.size == 20:
        return d20.utils.ast_adv_copy(tree, d20.AdvType.ADV if asked.mode == "advantage" else d20.AdvType.DIS)
    keeps = "higher" if asked.mode == "advantage" else "lower"
    asked_as = f"`{asked.word}`" if asked.word else f"The `{asked.mode}` mode"
    raise RollError(f"{asked_as} rolls the d20 twice and keeps the {keeps}, so it needs a roll that starts with "
                    f"one d20, like `1d20+5 {asked.word or asked.mode[:3]}`; `{_short_text(str(tree.roll))}` does not.")


def _short_text(text: str, limit: int = 40) -> str:
    text = text.replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def roll(
    expression: str,
    *,
    repeat: int | None = None,
    target: int | None = None,
    fail: int | None = None,
    mode: Mode = "normal",
    rng: random.Random | None = None,
) -> RollSeries:
    """Roll `expression` `repeat` times (None: as the expression says, else once); raise
    RollError (only) for anything not allowed."""
    text = expression.strip()
    if not text:
        raise RollError("There is nothing to roll.")
    if len(text) > MAX_EXPRESSION:
        raise RollError(f"That roll is {len(text)} characters long; the limit is {MAX_EXPRESSION}.")
    if repeat is not None and not 1 <= repeat <= MAX_REPEAT:
        raise RollError(f"`repeat` must be between 1 and {MAX_REPEAT}.")
    if mode not in MODES:
        raise RollError("The mode is `normal`, `advantage` or `disadvantage`.")
    if fail is not None and target is None:
        raise RollError("`fail` needs a `target`: dice at or above the target count as successes.")
    if target is not None and fail is not None and fail >= target:
        raise RollError("`fail` must be lower than `target`.")

    context = _Context(rng or random.Random())
    roller = _Roller(context)
    try:
        parsed = roller.parse(text, allow_comments=True)
        asked = _asked(parsed.comment.strip() if parsed.comment else None, repeat, mode)
        tree = _with_mode(parsed, asked)
        _check_tree(tree, asked.repeat)
        rolls = tuple(_one(roller, tree, target, fail, terse=asked.repeat > 1, mode=asked.mode)
                      for _ in range(asked.repeat))
        shown = str(tree.roll)
    except RollError:
        raise
    except d20.TooManyRolls:
        raise RollError(f"That roll would need more than {MAX_DICE:,} dice (explosions and rerolls count).") from None
    except d20.RollSyntaxError as exc:
        got = str(exc.got).strip()[:20]
        near = f" near `{got}`" if got and "`" not in got else ""
        raise RollError(f"I can't read that roll at character {exc.col}{near}.") from None
    except d20.RollValueError as exc:
        raise RollError("That roll divides by zero." if "divide" in str(exc) else str(exc)) from None
    except (d20.RollError, lark.exceptions.LarkError):
        raise RollError("I can't read that roll.") from None
    except RecursionError:
        raise RollError("That roll is nested too deeply.") from None
    except (OverflowError, ValueError):
        raise RollError("That roll's result is too large to count.") from None
    except ZeroDivisionError:
        raise RollError("That roll divides by zero.") from None
    return RollSeries(expression=shown, rolls=rolls, comment=asked.comment, target=target, fail=fail,
                      mode=asked.mode, notes=asked.notes)


def _check_tree(tree: diceast.Expression, repeat: int) -> None:
    """Refuse before rolling what is too big on its face, with a precise reason."""
    dice = 0
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, diceast.Dice):
            if node.size != "%" and node.size > MAX_SIDES:
                raise RollError(f"Dice have at most {MAX_SIDES:,} sides; `d{_short(node.size)}` is too big.")
            dice += node.num
        stack.extend(node.children)
    if dice * repeat > MAX_DICE:
        times = f" × {repeat}" if repeat > 1 else ""
        raise RollError(f"That roll asks for {_short(dice)}{times} dice; the limit is {MAX_DICE:,} in all.")


def _short(n: int) -> str:
    digits = str(n)
    return digits if len(digits) <= 12 else digits[:6] + "…"


def _one(roller: _Roller, tree: diceast.Expression, target: int | None, fail: int | None, *, terse: bool,
         mode: Mode = "normal") -> Roll:
    result = roller.roll(tree, stringifier=_Markdown(mode=mode))
    groups = _groups(result.expr)
    total = result.total
    breakdown = result.result
    successes = None
    if target is not None:
        faces = [f for g in groups for f in g.faces if f.kept]
        successes = sum(f.value >= target for f in faces)
        if fail is not None:
            successes -= sum(f.value <= fail for f in faces)
    return Roll(total=total, breakdown=breakdown, groups=groups, successes=successes, crit=_lead(result.expr),
                terse=_Markdown(terse=True, mode=mode).stringify(result.expr) if terse else None)


def _lead(expr: d20.Expression) -> Literal["crit", "fumble"] | None:
    """d20's rule (a roll led by a single kept d20: `1d20+5`, `2d20kh1`), on the natural value,
    so that `1d20mi20` is not a critical."""
    left = d20.utils.leftmost(expr)
    if not isinstance(left, d20.Dice) or left.size != 20 or not left.kept or len(left.keptset) != 1:
        return None
    natural = left.keptset[0].values[-1].values[0]
    return "crit" if natural == 20 else "fumble" if natural == 1 else None


def _groups(expr: d20.Expression) -> tuple[DiceGroup, ...]:
    """Every dice term left to right; a die inside a dropped set counts as dropped."""
    groups: list[DiceGroup] = []
    stack: list[tuple[Any, bool]] = [(expr, True)]
    while stack:
        node, kept = stack.pop()
        kept = kept and node.kept
        if isinstance(node, d20.Dice):
            faces = tuple(
                Face(value=int(lit.number), natural=int(lit.values[0]), sides=node.size,
                     kept=kept and die.kept and lit.kept, exploded=lit.exploded)
                for die in node.values for lit in die.values
            )
            ops = "".join(str(op) for op in node.operations)
            groups.append(DiceGroup(notation=f"{node.num}d{node.size}{ops}", faces=faces,
                                    total=int(node.total), annotation=node.annotation or None))
            continue
        stack.extend((child, kept) for child in reversed(node.children))
    return tuple(groups)
