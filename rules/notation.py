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
* d20's grammar has no Fate dice; here a die may be ``F`` (``4dF``, ``dF``), read by d20's own
  grammar with that one value added, so that Fate dice stand wherever dice may.

Fate (Fudge) dice show −1, 0 or +1 and are added up as rolled: keep, drop, reroll and explode mean
nothing in Fate, so they are refused on them, and so is counting them against a `target` (a Fate
roll is compared by its total: `4dF+2 >= 3`). A roll of Fate dice alone reads as Fate players read
it, the total signed and on the ladder (`+2 Fair`); each die shows `+`, `−` or `0`.

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

What d20 cannot read it treats as a comment, so a typo used to roll a wrong total in public
(`1D20+5` rolled 1, `2d20 kh1` summed both dice). The text is therefore normalised first (NFKC, so
a phone's full-width `＋` is a plus; the dashes − – — are minus signs; `D` in a dice term is `d`),
and a comment that starts the way notation does (a sign, a number, `d6`, `kh1`, `t8`, `x6`) is
refused with the fix, never rolled. The comment shown is the roller's own text, as typed, unless
words in it were read from their normalised form (`1d100 vs 55 ＨＡＲＤ`): then the normalised rest.

Roll20's drop operators (`4d6dl1`, `4d6d1`, `dh1`) and its `!` (explode on the top face) are
obeyed, written against a dice term: d20 has no operator of its own that could be meant there, so
the meaning is unambiguous, and they are what most players learned first; the reply says how they
were read (`dl1` read as `pl1`). The same words after a space are refused with the fix, since a
space reads as the start of a comment.

Call of Cthulhu's bonus and penalty dice (7th edition) are words after the dice too: `1d100 bonus`,
`d% penalty`, `1d100 bonus 2` (or `2 bonus`, `bonus dice 2`). The units die is rolled once and the tens die once more for each
bonus or penalty die; the result is the lowest (highest) of the d100s they make, 00 and 0 being
100, so a bonus never picks 100 when another tens die is there. As with `adv`, the words ask for
something only a roll starting with one d100 can do: on a roll that has a d100 elsewhere they
are refused with the reason, and bonus and penalty dice cancel one for one, as the rules say. On a
roll with no d100 the words are the comment they usually are ("1d6 bonus damage").

A game's name for a result is read from its words after the dice, since that name, not the total,
is what its table acts on: Call of Cthulhu's `1d100 vs 55` (success levels, `hard`/`extreme`
difficulty), a DC met or not (`1d20+5 dc 15`, as D&D reads it, by far the most typed) or with
Pathfinder 2e's degrees of success (`1d20+9 dc 25 pf2`), Powered by the Apocalypse's
`2d6+1 pbta` and Blades in the Dark's `3d6 blades` (the highest die; `0d6` is two dice, the lower).
Dice pools are read the same way: Shadowrun's `12d6 sr` (hits, glitch, critical glitch; `edge`
explodes 6s), Chronicles of Darkness's `7d10 wod` (10-again, `9-again`, `rote`, exceptional at 5;
`chance` is the chance die) and classic World of Darkness's `5d10 diff 6` (1s cancel, botch).
`crit` doubles a damage roll's dice (D&D 5e). Each word is read only on the dice its game rolls and
only as a whole word: `vs` on a d100, `dc` after a d20, `blades` and `sr` on d6s, `wod`, `diff`,
`rote` and `9-again` on d10s, `chance` on one d10, `crit` on damage. Anywhere else it is the comment
it was before these were read (`8d6 fireball dc 15 dex save`, `2d6 fire vs 2 orcs`, `1d20 insight on
Sr. Lopez`, `1d20 crit on 19`): a roll that used to work, or a saved one, must not start being
refused. On its own dice a reading that cannot be made is refused with an example.

A letter O right after a die's size is a zero typed on the wrong key (`1d2O` used to roll a d2
with the comment "O"): it is read as one, and the reply says so, as Roll20's operators are.

A top-level comparison is what the roller wants answered, not d20's 1 or 0: `1d20+5 >= 15` is a
success or a failure, and a bare dice pool compared die by die (`10d6>4`, `6d10>=8`, `5d6<3`)
counts successes exactly as the `target` option does (the reply names the rule: each die ≥ 5).
A dice pool's `>` is strict, as in d20's own `k>4`; the rule in the reply says which dice counted.
Bare dice are read as a pool only when one die can both meet and miss the number (`>=n` and `<n`
with 1 < n ≤ sides, `>n` and `<=n` with 1 ≤ n < sides): past that every die would count, or none,
and what the roller means is the total, as in GURPS's `3d6<=12` or `2d6>=7`. A comparison
together with the `target` option is refused, since it would give two answers.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

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
#: Fate Core's ladder; a result above or below it is shown as its number alone
LADDER = {8: "Legendary", 7: "Epic", 6: "Fantastic", 5: "Superb", 4: "Great", 3: "Good", 2: "Fair",
          1: "Average", 0: "Mediocre", -1: "Poor", -2: "Terrible"}
#: how a Fate die's face is written
FATE_FACES = {1: "+", 0: "0", -1: "\u2212"}
FATE = "F"
EXAMPLES = "Try e.g. `1d20+5`, `4d6kh3`, `2d20kl1 + 3 [fire]` or `8d6 fireball`; `/roll help` shows each game's."

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
#: `bonus`, `penalty 2`, `bonus:2`, `bonus die`, `bonus dice 2`, `2 bonus dice`: Call of Cthulhu's extra tens dice
_BONUS_WORDS = re.compile(r"(?<![\w-])(?:(?P<before>\d+)\s+)?(?P<word>bonus|penalty)(?:\s*[:=]?\s*(?P<n>\d+))?"
                          r"(?:\s+(?:dice|die)(?:\s*[:=]?\s*(?P<after>\d+))?)?(?![\w-])", re.I)
#: the most bonus or penalty dice a roll takes (the rules use one or two)
MAX_BONUS = 3
#: a DC, `dc 20` (also `vs dc 20`, `dc:20`); Call of Cthulhu's `vs 55` (and `vs 55 hard`)
_DC_WORDS = re.compile(r"(?<![\w-])(?:vs\.?\s*)?dc\s*[:=]?\s*(?P<n>\d+)(?![\w-])", re.I)
_VS_WORDS = re.compile(r"(?<![\w-])vs\.?\s*[:=]?\s*(?P<n>\d+)(?:\s+(?P<level>hard|extreme)(?![\w-]))?(?![\w-])", re.I)
#: Pathfinder's degrees of success, asked for beside a DC (`dc 25 pf2`); a DC alone reads as D&D's
_PF2_WORD = re.compile(r"(?<![\w-])(?:pf2e?|pf|pathfinder)(?![\w-])", re.I)
_GAME_WORDS = re.compile(r"(?<![\w-])(?P<word>pbta|blades|bitd)(?![\w-])", re.I)
_CRIT_WORD = re.compile(r"(?<![\w-])crit(?![\w-])", re.I)
#: the highest skill `vs` takes, and the highest DC `dc` takes
MAX_SKILL = 200
MAX_DC = 999
#: the most dice a Blades in the Dark pool takes (the rules rarely pass 6)
MAX_BLADES = 10
#: Shadowrun's `sr`, Chronicles of Darkness's `wod` (`cofd`, `nwod`), classic World of Darkness's `owod`
#: whole words only: `Sr.` before a name is no Shadowrun pool
_POOL_WORDS = re.compile(r"(?<![\w.-])(?P<word>sr|sr5|sr6|shadowrun|wod|cofd|nwod|owod)(?![\w-]|\.\s*\w)", re.I)
#: classic World of Darkness's `diff 6` (`difficulty 6`, `diff:6`)
_DIFF_WORDS = re.compile(r"(?<![\w-])diff(?:iculty)?\s*[:=]?\s*(?P<n>\d+)(?![\w-])", re.I)
#: Chronicles of Darkness's `9-again`, `8-again`, `no-again` and a rote action
_AGAIN_WORDS = re.compile(r"(?<![\w-])(?:(?P<n>8|9|10|no)[- ]?again|(?P<rote>rote))(?![\w-])", re.I)
_SHADOWRUN = frozenset({"sr", "sr5", "sr6", "shadowrun"})
_EDGE_WORD = re.compile(r"(?<![\w-])edge(?![\w-])", re.I)
_CHANCE_WORD = re.compile(r"(?<![\w-])chance(?:\s+die)?(?![\w-])", re.I)
#: `chance` typed alone (or before a comment) is the chance die, one d10
_CHANCE_ALONE = re.compile(r"^chance(?:\s+die)?(?![\w-])", re.I)
#: the most dice a Shadowrun or World of Darkness pool takes (the rules rarely pass 30)
MAX_POOL = 60


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
    """d20 rolls `d%` as a tens die (0, 10 ... 90); players mean the percentile die, 1-100. A Fate
    die is a three-faced die (its faces 1-3 read −1, 0, +1)."""
    return 100 if size == "%" else 3 if size == FATE else int(size)


def signed(value: int | float) -> str:
    """A Fate result as Fate players write it: `+2`, `+0`, `−1`."""
    shown = plain_number(abs(value))
    return f"\u2212{shown}" if value < 0 else f"+{shown}"


def on_ladder(value: int | float) -> str:
    """`+2 Fair`; past the ladder's ends, the number alone."""
    # no float(): a Fate roll can be multiplied past any float (`4dF*9…9`)
    whole = value if isinstance(value, int) else int(value) if value.is_integer() else None
    rung = LADDER.get(whole) if whole is not None else None
    return f"{signed(value)} {rung}" if rung else signed(value)


class _Transformer(diceast.RollTransformer):
    def diceexpr(self, dice: list[Any]) -> diceast.Dice:
        *num, size = dice
        if str(size) != FATE:
            return super().diceexpr(dice)
        node = diceast.Dice(num[0] if num else 1, 1)
        node.size = FATE
        return node


_GRAMMAR = diceast.grammar.replace('DICE_VALUE: INTEGER | "%"', f'DICE_VALUE: INTEGER | "%" | "{FATE}"')
assert _GRAMMAR != diceast.grammar, "d20's grammar changed: Fate dice need its DICE_VALUE rule"
_PARSER = lark.Lark(_GRAMMAR, start=["expr", "commented_expr"], parser="lalr", transformer=_Transformer(),
                    maybe_placeholders=True)


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
        if isinstance(self.size, int) and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        context = self._context
        assert isinstance(context, _Context)
        context.count_roll()
        face = die(context.rng, sides_of(self.size))
        self.values.append(d20.Literal(face - 2 if self.size == FATE else face))


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


class _TensDice(_Dice):
    """A d100 rolled with Call of Cthulhu's bonus (``extra`` > 0) or penalty (< 0) dice: one d100
    a tens die, each sharing the one units die; all but the one that counts are dropped."""

    __slots__ = ("tens", "units", "extra")

    @classmethod
    def rolled(cls, size: int | str, extra: int, context: _Context) -> _TensDice:
        tens = []
        for _ in range(abs(extra) + 1):
            context.count_roll()
            tens.append(die(context.rng, 10) % 10 * 10)  # a d10's 10 reads 0
        context.count_roll()
        units = die(context.rng, 10) % 10
        values = [tens_die + units or 100 for tens_die in tens]
        pick = values.index(min(values) if extra > 0 else max(values))
        dice = [_Die(size, [d20.Literal(value)], context=context) for value in values]
        for index, one in enumerate(dice):
            if index != pick:
                one.drop()
        made = cls(1, size, dice, context=context)
        made.tens, made.units, made.extra = tens, units, extra
        return made

    def kind(self) -> str:
        """`bonus`, `2 penalty`: how the roll was asked for."""
        word = "bonus" if self.extra > 0 else "penalty"
        return word if abs(self.extra) == 1 else f"{abs(self.extra)} {word}"


class _Roller(d20.Roller):
    def __init__(self, context: _Context) -> None:
        super().__init__(context)
        #: the leading d100 rolled with bonus (> 0) or penalty (< 0) dice
        self.percentile: tuple[diceast.Dice, int] | None = None

    def _eval_dice(self, node: diceast.Dice) -> _Dice:
        if self.percentile is not None and node is self.percentile[0]:
            assert isinstance(self.context, _Context)
            return _TensDice.rolled(node.size, self.percentile[1], self.context)
        return _Dice.new(node.num, node.size, context=self.context)

    # d20's own two parsing steps, with the grammar that knows Fate dice
    def _parse_no_comment(self, expr: str) -> diceast.Expression:
        return cast(diceast.Expression, _PARSER.parse(expr, start="expr"))

    def _parse_with_comments(self, expr: str) -> diceast.Expression:
        try:
            return cast(diceast.Expression, _PARSER.parse(expr, start="commented_expr"))
        except lark.UnexpectedInput as unexpected:
            # d20's rule: `1d20 * the dragon` is `1d20` and a comment
            fragment = expr[: unexpected.pos_in_stream]
            if not fragment.endswith("*"):
                raise
            result = cast(diceast.Expression, _PARSER.parse(fragment[:-1], start="commented_expr"))
            result.comment = expr[len(fragment) - 1:]
            return result

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

    def __init__(self, *, terse: bool = False, mode: Mode = "normal", counting: Counting | None = None) -> None:
        super().__init__()
        self.terse = terse
        self.mode = mode
        self.counting = counting
        self._lead: Any = None
        self._nodes: dict[Any, Any] = {**self._nodes, _Dice: self._str_dice, _TensDice: self._str_dice,
                                        _Die: self._str_die}

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
        if isinstance(node, _TensDice):
            return self._str_tens(node)
        if node is self._lead:
            kept_first = sorted(node.values, key=lambda die: not die.kept)
            return f"{self.mode} ({', '.join(self._stringify(die) for die in kept_first)})"
        if not self.terse:
            return super()._str_dice(node)
        return f"({', '.join(self._stringify(die) for die in node.values)})"

    def _str_tens(self, node: _TensDice) -> str:
        """`bonus die (tens 30, ~~70~~ dropped; units 4 = 34)`: the tens that counts first."""
        shown = [(f"{tens:02d}" if one.kept else f"~~{tens:02d}~~ {DROPPED}", not one.kept)
                 for tens, one in zip(node.tens, node.values, strict=True)]
        tens = ", ".join(text for text, _ in sorted(shown, key=lambda item: item[1]))
        many = "dice" if abs(node.extra) > 1 else "die"
        return f"{node.kind()} {many} (tens {tens}; units {node.units} = {int(node.total)})"

    def _str_die(self, node: Any) -> str:
        # A die's earlier faces are the ones rerolls replaced; only the last can count. Only a
        # face that counts is bold at 1 or at its top, or marked as a natural 20 or 1, so that a
        # struck one never draws the eye. In a dice pool the successes are bold instead (a 1 or a
        # 6 means nothing there) and each failure that takes one away is in italics. A dropped die
        # that was rerolled is one die: its faces read `1→2`, struck as a whole.
        if self._context.in_dropped:
            return "→".join(self._str_literal(value) for value in node.values)
        if node.size == FATE:
            return ", ".join(FATE_FACES[int(value.number)] for value in node.values)
        rolls = []
        for value in node.values:
            counts = value.kept and not self._context.in_dropped
            text = self._str_literal(value)
            if counts and self.counting is not None:
                if self.counting.success(value.number):
                    text = f"**{text}**"
                elif self.counting.failure(value.number):
                    text = f"*{text}*"
            elif counts and value.number in (1, sides_of(node.size)):
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
    natural: int  # before mi/ma forced it; a Fate die's face 1-3, as rolled
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

    def successes(self, counting: Counting) -> int:
        """What its dice that count score in a dice pool (a `fail` die takes one away)."""
        return sum(counting.score(f.value) for f in self.faces if f.kept)


#: d20's comparison operators, and each one's negation: a failure says why it failed (`12 < 15`)
COMPARISONS = {">": "≤", ">=": "<", "<": "≥", "<=": ">", "==": "≠", "!=": "="}
_AS_SHOWN = {">=": "≥", "<=": "≤", "==": "=", "!=": "≠"}


@dataclass(frozen=True)
class Comparison:
    """A roll whose outermost operator compares (`1d20+5 >= 15`): read as a success or a failure."""

    left: int | float
    op: str
    right: int | float
    success: bool

    def said(self, fate: bool = False) -> str:
        """`16 ≥ 15` for a success, `12 < 15` for a failure: the relation that actually held. Fate
        results are signed, as Fate players write them (`−3 < +1`)."""
        op = _AS_SHOWN.get(self.op, self.op) if self.success else COMPARISONS[self.op]
        shown = signed if fate else plain_number
        return f"{shown(self.left)} {op} {shown(self.right)}"


def plain_number(value: int | float) -> str:
    """`2` for d20's `2.0`, so a divided total reads as a player writes it."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


@dataclass(frozen=True)
class Counting:
    """How a dice pool counts: each kept die at or above `target` (at or below, `under`) counts 1,
    each at or below `fail` takes 1 away."""

    target: int
    fail: int | None = None
    under: bool = False

    def success(self, value: int) -> bool:
        return value <= self.target if self.under else value >= self.target

    def failure(self, value: int) -> bool:
        return self.fail is not None and value <= self.fail and not self.success(value)

    def score(self, value: int) -> int:
        return int(self.success(value)) - int(self.fail is not None and value <= self.fail)


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
    compared: Comparison | None = None
    #: what the game asked for after the dice calls this roll (`Hard success`, `Weak hit`)
    verdict: Verdict | None = None

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
    #: how a dice pool counts its successes (the `target` option or `10d6>4`), None for a total
    rule: Counting | None = None
    #: the mode the leading d20 was rolled at (``expression`` is then already `2d20kh1...`)
    mode: Mode = "normal"
    #: what the roller should know about how their words were read (both modes cancelling out)
    notes: tuple[str, ...] = ()
    #: the notation as the roller wrote it (without the comment), with the mode: the heading of a
    #: repeat, which should read as what was asked, not as d20's rewrite of it
    typed: str = ""
    #: every die a Fate die: the results read signed and on the ladder (`+2 Fair`)
    fate: bool = False
    #: the game whose words read each result (`vs 55`, `dc 20`, `pbta`, `blades`)
    reading: Reading | None = None

    @property
    def total(self) -> int:
        return sum(r.result for r in self.rolls)

    @property
    def dice(self) -> int:
        return sum(r.dice for r in self.rolls)

    @property
    def counting(self) -> bool:
        return self.rule is not None

    @property
    def target(self) -> int | None:
        return self.rule.target if self.rule else None

    @property
    def fail(self) -> int | None:
        return self.rule.fail if self.rule else None

    @property
    def under(self) -> bool:
        """A pool counted downward (`5d6<3`): each die at or below `target` counts."""
        return self.rule.under if self.rule else False

    @property
    def comparing(self) -> bool:
        return bool(self.rolls) and all(one.compared is not None for one in self.rolls)


# ---------------------------------------------------------------- a game's words for a roll
System = Literal["coc", "dc", "pf2", "pbta", "blades", "sr", "cofd", "chance", "owod"]
#: the readings that count a dice pool: their result is a count of hits or successes
POOLS: tuple[System, ...] = ("sr", "cofd", "owod")
#: how a verdict feels at the table, from best to worst (the reply picks its mark by it)
Tone = Literal["critical", "success", "partial", "failure", "fumble"]
_LEVELS = ("Regular", "Hard", "Extreme")


@dataclass(frozen=True)
class Reading:
    """A game's reading of a roll, asked for by its words after the dice: Call of Cthulhu's
    success levels against a skill, Pathfinder's degrees of success against a DC, Powered by the
    Apocalypse's hits, Blades in the Dark's outcomes. Each game names its results; a total alone
    would leave every player at the table to work them out."""

    system: System
    #: the skill (`vs 55`) or the DC (`dc 20`)
    number: int = 0
    #: a Call of Cthulhu roll's difficulty: the level a success needs
    level: str = "Regular"
    #: Chronicles of Darkness: the lowest face rolled again (10-again, 9-again, 8-again; 0: none)
    again: int = 10
    #: Chronicles of Darkness: a rote action, each failed die rolled once more
    rote: bool = False
    #: Shadowrun: Edge spent on the Rule of Six, each 6 rolled again
    edge: bool = False

    @property
    def words(self) -> str:
        """As typed, for the heading of a repeat."""
        if self.system == "coc":
            return f"vs {self.number}" + ("" if self.level == "Regular" else f" {self.level.lower()}")
        if self.system == "cofd":
            again = "" if self.again == 10 else " no-again" if not self.again else f" {self.again}-again"
            return "wod" + again + (" rote" if self.rote else "")
        if self.system == "sr":
            return "sr edge" if self.edge else "sr"
        if self.system == "owod":
            return f"diff {self.number}"
        if self.system == "dc":
            return f"dc {self.number}"
        return f"dc {self.number} pf2" if self.system == "pf2" else self.system

    @property
    def pool(self) -> bool:
        """Whether the result is a count of dice (`3 hits`) rather than a number rolled."""
        return self.system in POOLS

    @property
    def marks(self) -> Counting | None:
        """How the breakdown marks a pool's dice: those that count in bold, 1s (which glitch or
        botch) in italics."""
        return {"sr": Counting(SR_HIT, 1), "cofd": Counting(COFD_SUCCESS), "chance": Counting(10, 1),
                "owod": Counting(self.number, 1)}.get(self.system)

    @property
    def rule(self) -> str:
        """What every roll of it is read against, said once under the result."""
        if self.system == "coc":
            skill = self.number
            rule = {"Regular": f"skill {skill} · Hard ≤ {skill // 2} · Extreme ≤ {skill // 5}",
                    "Hard": f"skill {skill}, Hard: ≤ {skill // 2} · Extreme ≤ {skill // 5}",
                    "Extreme": f"skill {skill}, Extreme: ≤ {skill // 5}"}[self.level]
            return rule + (" · 96+ fumbles" if self.needs < 50 else "")
        if self.system == "sr":
            return "hits on 5 and 6 · over half 1s glitches" + (" · edge: 6s explode" if self.edge else "")
        if self.system == "cofd":
            again = "no 10-again" if not self.again else f"{self.again}-again"
            return f"8+ succeeds · {again}" + (" · rote" if self.rote else "") + " · exceptional at 5"
        if self.system == "chance":
            return "chance die: 10 succeeds, 1 is a dramatic failure"
        if self.system == "owod":
            return f"difficulty {self.number} · each 1 cancels a success"
        if self.system == "pf2":
            return f"DC {self.number} · degrees of success"
        return f"DC {self.number}" if self.system == "dc" else ""

    @property
    def needs(self) -> int:
        """The highest d100 a Call of Cthulhu roll succeeds with at its difficulty."""
        return {"Regular": self.number, "Hard": self.number // 2, "Extreme": self.number // 5}[self.level]


@dataclass(frozen=True)
class Verdict:
    """A roll as its game names it: `Hard success`, `Critical failure`, `Weak hit`, `Bad outcome`."""

    outcome: str
    tone: Tone
    #: what this roll alone needs said (`natural 20: a degree better`, `two 6s`)
    note: str = ""


@dataclass(frozen=True)
class _Shape:
    """What the dice of a roll are, for the words after them that mean something only there:
    `vs 55` with a d100, `dc 15` after a d20, `blades` and `sr` with d6s, `wod`, `diff 6`,
    `9-again` and `rote` with d10s, `chance` on one d10 alone. Elsewhere they are the comment they
    read as (`8d6 fireball dc 15 dex save`, `2d6 fire vs 2 orcs`)."""

    sixes: bool = False
    tens: bool = False
    one_ten: bool = False
    damage: bool = False
    percentile: bool = False
    #: the roll starts with one d20, or with two (`2d20kh1`: refused with `adv`'s spelling)
    d20: bool = False


# ---------------------------------------------------------------- dice pools read by their games
# Shadowrun's hits and glitches, Chronicles of Darkness's successes (exceptional at five, a chance
# die's dramatic failure), classic World of Darkness's difficulty with 1s cancelling and the botch.
# These games count dice and then ask one more question of them (did more than half show 1? did a
# 1 come up with no success?), and that answer is the one the table acts on: a glitch or a botch
# missed in a list of faces is the story the roll was meant to tell. Each takes the faces that
# count, as rolled (10-again as explosions, a rote action as a reroll, Edge as exploding 6s).
#: Shadowrun 5e/6e: a die showing this or more is a hit
SR_HIT = 5
#: Chronicles of Darkness: a die showing this or more is a success; this many is exceptional
COFD_SUCCESS = 8
COFD_EXCEPTIONAL = 5


@dataclass(frozen=True)
class PoolResult:
    """What a pool scored and what its game calls that (`""` when the count says it all)."""

    count: int
    outcome: str
    tone: Tone
    note: str = ""


def shadowrun(faces: Sequence[int], pool: int) -> PoolResult:
    """Hits are 5s and 6s; a glitch is more than half the pool showing 1, a critical glitch one
    with no hit. `faces` are every die that counts, the pool's own first: the dice an exploding 6
    adds can hit but do not make the pool bigger or glitch it (Rule of Six)."""
    hits = sum(face >= SR_HIT for face in faces)
    ones = sum(face == 1 for face in faces[:pool])
    if ones * 2 > pool:
        said = f"{ones} of {pool} dice show 1"
        if hits == 0:
            return PoolResult(hits, "Critical glitch", "fumble", said)
        return PoolResult(hits, "Glitch", "partial", said)
    return PoolResult(hits, "", "success" if hits else "failure")


def chronicles(faces: Sequence[int]) -> PoolResult:
    """Each die at 8 or more is a success (the dice 10-again added included); five or more are an
    exceptional success, none a failure."""
    wins = sum(face >= COFD_SUCCESS for face in faces)
    if wins >= COFD_EXCEPTIONAL:
        return PoolResult(wins, "Exceptional", "critical")
    return PoolResult(wins, "", "success") if wins else PoolResult(wins, "Failure", "failure")


def chance(face: int) -> PoolResult:
    """A chance die (a pool below one die): only a 10 succeeds, and a 1 is a dramatic failure."""
    if face == 10:
        return PoolResult(1, "Success", "success")
    if face == 1:
        return PoolResult(0, "Dramatic failure", "fumble")
    return PoolResult(0, "Failure", "failure")


def classic(faces: Sequence[int], difficulty: int) -> PoolResult:
    """Each die at or above the difficulty is a success and each 1 takes one away (never below
    none); with no success at all and a 1, the roll botches."""
    wins = sum(face >= difficulty for face in faces)
    ones = sum(face == 1 for face in faces)
    if not wins and ones:
        return PoolResult(0, "Botch", "fumble", f"{ones} {'one' if ones == 1 else 'ones'}, no success")
    net = max(0, wins - ones)
    note = f"1s cancel {min(wins, ones)} of {wins}" if ones else ""
    return PoolResult(net, "", "success", note) if net else PoolResult(0, "Failure", "failure", note)


def _reading(text: str, shape: _Shape) -> Reading | None:
    """The game reading asked for in the words after the dice, each only on the dice its game
    rolls (`_Shape`). A DC alone reads as D&D's, met or not; with `pf2` as Pathfinder's degrees."""
    dcs = [int(m["n"]) for m in _DC_WORDS.finditer(text)] if shape.d20 else []
    pf2 = bool(dcs) and bool(_PF2_WORD.search(text))
    found = [Reading("pf2" if pf2 else "dc", n) for n in dcs]
    rest = _DC_WORDS.sub(" ", text) if shape.d20 else text
    if shape.percentile:
        found += [Reading("coc", int(m["n"]), (m["level"] or "regular").capitalize())
                  for m in _VS_WORDS.finditer(rest)]
    found += [Reading("pbta" if m["word"].lower() == "pbta" else "blades") for m in _GAME_WORDS.finditer(rest)
              if shape.sixes or m["word"].lower() == "pbta"]
    found += _pool_readings(rest, shape)
    if len({r.words for r in found}) > 1:
        raise RollError("Ask for one reading of the roll, not " + " and ".join(f"`{r.words}`" for r in found) + ".")
    return found[0] if found else None


def _pool_readings(text: str, shape: _Shape) -> list[Reading]:
    """Shadowrun's `sr` (with `edge`), Chronicles of Darkness's `wod` (with `9-again`, `rote`,
    or `chance`), classic World of Darkness's `diff 6` (`owod` alone: difficulty 6). `diff N`,
    `N-again` and `rote` are read only on a roll of d10s, `chance` only on one d10 alone: elsewhere
    they are the words they usually are (`1d20 chance to hit`)."""
    named = {m["word"].lower() for m in _POOL_WORDS.finditer(text) if _pool_word(m, shape)}
    shadow = named & _SHADOWRUN
    diffs = [int(m["n"]) for m in _DIFF_WORDS.finditer(text)] if shape.tens else []
    agains = [m for m in _AGAIN_WORDS.finditer(text)] if shape.tens else []
    found: list[Reading] = [Reading("sr", edge=bool(_EDGE_WORD.search(text)))] if shadow else []
    if len(set(diffs)) > 1:
        raise RollError("Say the difficulty once: the roll asks for " + " and ".join(f"`diff {n}`" for n in diffs) + ".")
    if diffs or "owod" in named:
        found.append(Reading("owod", diffs[0] if diffs else 6))
    if named & {"cofd", "nwod"} or ("wod" in named and not diffs) or agains:
        again = [m["n"].lower() for m in agains if m["n"]]
        if len(set(again)) > 1:
            raise RollError("Say how dice roll again once: " + " and ".join(f"`{n}-again`" for n in again) + ".")
        found.append(Reading("cofd", again=0 if again and again[0] == "no" else int(again[0]) if again else 10,
                             rote=any(m["rote"] for m in agains)))
    if _CHANCE_WORD.search(text) and _chance_meant(text, shape):
        # `1d10 wod chance` is the chance die; with `9-again` or another game it is two readings
        found = [r for r in found if r != Reading("cofd")] + [Reading("chance")]
    return found


def _chance_meant(text: str, shape: _Shape) -> bool:
    """`chance` is the chance die on one d10 alone, or said with `wod` on a roll of d10s (where
    more than one d10 is refused with the reason, not rolled as a pool)."""
    return shape.one_ten or shape.tens and any(m["word"].lower() in ("wod", "cofd", "nwod")
                                               for m in _POOL_WORDS.finditer(text))


def _pool_word(found: re.Match[str], shape: _Shape) -> bool:
    """Shadowrun's words ask for something only on d6s, World of Darkness's only on d10s."""
    return shape.sixes if found["word"].lower() in _SHADOWRUN else shape.tens


def _without_reading(text: str, shape: _Shape) -> str:
    """`text` without the words `_reading` and `crit` read (on this roll's dice: `_Shape`)."""
    rest = text
    if shape.d20 and _DC_WORDS.search(rest):
        rest = _PF2_WORD.sub(" ", _DC_WORDS.sub(" ", rest))
    if shape.percentile:
        rest = _VS_WORDS.sub(" ", rest)
    rest = _GAME_WORDS.sub(lambda m: " " if shape.sixes or m["word"].lower() == "pbta" else m.group(), rest)
    if shape.sixes and any(m["word"].lower() in _SHADOWRUN for m in _POOL_WORDS.finditer(rest)):
        rest = _EDGE_WORD.sub(" ", rest)
    rest = _POOL_WORDS.sub(lambda m: " " if _pool_word(m, shape) else m.group(), rest)
    if shape.tens:
        rest = _AGAIN_WORDS.sub(" ", _DIFF_WORDS.sub(" ", rest))
    if _chance_meant(text, shape):
        rest = _CHANCE_WORD.sub(" ", rest)
    return _CRIT_WORD.sub(" ", rest) if shape.damage else rest


def _check_reading(tree: diceast.Expression, reading: Reading, counting: Counting | None, asked: _Asked,
                   counted: str = "`target`", typed: str = "") -> tuple[diceast.Expression, Reading, tuple[str, ...]]:
    """The roll the reading can read (and what the reply should say about how), or a refusal
    saying what to type. A Blades pool's reading knows its size: zero dice become the two rolled
    for them, the lower counting. `typed` is the notation as typed, for the fix in a refusal."""
    said = f"`{reading.words}`"
    top = tree.roll
    if counting is not None:
        raise RollError(f"{said} reads the roll already; leave out {counted}.")
    if isinstance(top, diceast.BinOp) and top.op in COMPARISONS:
        raise RollError(f"{said} reads the roll already; leave out `{top.op}{_short_text(str(top.right), 12)}`.")
    if asked.crit:
        raise RollError(f"`crit` doubles a damage roll's dice; {said} reads a check. Roll them apart.")
    if reading.system in (*POOLS, "chance"):
        return _check_pool(tree, reading)
    checked, reading = _check_game(tree, reading, typed)
    return checked, reading, ()


def _check_game(tree: diceast.Expression, reading: Reading, typed: str) -> tuple[diceast.Expression, Reading]:
    """A check read by its game (a skill, a DC, a move, an action), or a refusal with the fix."""
    said = f"`{reading.words}`"
    top, shown = tree.roll, _short_text(str(tree.roll))
    dice = [node for node in _walk(tree) if isinstance(node, diceast.Dice)]
    if reading.system == "coc":
        if not 1 <= reading.number <= MAX_SKILL:
            raise RollError(f"A skill is from 1 to {MAX_SKILL}, like `1d100 vs 55`.")
        if not (isinstance(top, diceast.Dice) and top.num == 1 and sides_of(top.size) == 100):
            raise RollError(f"A skill roll is one d100 alone, like `1d100 {reading.words}` (`1d100 bonus "
                            f"{reading.words}` with a bonus die); `{shown}` is more.")
    elif reading.system in ("dc", "pf2"):
        if reading.number > MAX_DC:
            raise RollError(f"A DC is at most {MAX_DC}.")
        left = d20.utils.leftmost(tree)
        if not (isinstance(left, diceast.Dice) and left.num == 1 and left.size == 20):
            # `2d20kh1+7 dc 20` (or Roll20's `2d20dl1`, read as `pl1`) is advantage written out
            twice = re.match(r"\s*2d20(?:(?P<op>[kp])(?P<which>[hl])1)?(?P<rest>.*)$", typed, re.I)
            low = twice is not None and (twice["op"] or "") + (twice["which"] or "") in ("kl", "ph")
            mode = "dis" if low else "adv"
            fixed = f"1d20{twice['rest'].replace(' ', '') if twice else ''} {mode} {reading.words}"
            raise RollError(f"{said} reads one d20 against the DC; to roll it twice, say so: {_fixed(fixed)}.")
    elif reading.system == "pbta":
        if not dice or any(node.size != 6 for node in dice):
            raise RollError(f"`pbta` reads 2d6 plus a stat (10+ strong hit, 7-9 weak hit, 6- miss), like "
                            f"`2d6+1 pbta`; `{shown}` is not d6s.")
    elif not (isinstance(top, diceast.Dice) and top.size == 6):
        raise RollError(f"`blades` reads a pool of d6s alone, its highest die counting, like `3d6 blades` "
                        f"(`0d6 blades` for none); `{shown}` is not one. Add dice, not numbers.")
    elif top.num > MAX_BLADES:
        raise RollError(f"A Blades pool is at most {MAX_BLADES} dice.")
    elif top.num == 0:
        two = cast(diceast.Expression, _PARSER.parse("2d6kl1", start="expr"))
        two.comment = tree.comment
        return two, reading
    else:
        return tree, Reading("blades", top.num)
    return tree, reading


#: how each pool reading is asked for, and what it counts
_POOL_EXAMPLES = {"sr": ("12d6 sr", "hits in a pool of d6s"), "cofd": ("7d10 wod", "successes in a pool of d10s"),
                  "owod": ("5d10 diff 6", "successes in a pool of d10s"), "chance": ("chance", "one d10")}


def _check_pool(tree: diceast.Expression, reading: Reading) -> tuple[diceast.Expression, Reading, tuple[str, ...]]:
    """A pool of one kind of die alone, rolled the way its game rolls it (10-again as explosions,
    a rote action as a reroll, Shadowrun's Edge as exploding 6s); a chance die for a Chronicles
    pool of none, which says what it leaves out (`rote`, `9-again`)."""
    said, top, shown = f"`{reading.words}`", tree.roll, _short_text(str(tree.roll))
    example, counts = _POOL_EXAMPLES[reading.system]
    sides = 6 if reading.system == "sr" else 10
    dice, edge = top, reading.edge
    # `12d6! sr`: Roll20's `!`, read as `e6`, is the Rule of Six
    if (reading.system == "sr" and isinstance(top, diceast.OperatedDice) and len(top.operations) == 1
            and str(top.operations[0]) == "e6"):
        dice, edge = top.value, True
    if not (isinstance(dice, diceast.Dice) and dice.size == sides) or reading.system == "chance" and dice.num != 1:
        if reading.system == "chance":
            raise RollError(f"A chance die is one d10 alone: `chance` or `1d10 chance`; `{shown}` is more.")
        raise RollError(f"{said} counts {counts} alone, like `{example}`; `{shown}` is not one. Add dice, not numbers.")
    n = dice.num
    if n > MAX_POOL:
        raise RollError(f"A pool is at most {MAX_POOL} dice; `{shown}` is {_short(n)}.")
    if reading.system == "owod" and not 2 <= reading.number <= 10:
        raise RollError(f"A difficulty is from 2 to 10, like `{n or 5}d10 diff 6`; `diff {reading.number}` is not.")
    told: tuple[str, ...] = ()
    if n == 0:
        if reading.system == "cofd":
            left_out = " and ".join(f"`{word}`" for word in reading.words.split()[1:])
            told = (f"a pool of none: {left_out} left out",) if left_out else ()
            reading = Reading("chance")
        else:
            game = "Shadowrun" if reading.system == "sr" else "classic World of Darkness"
            raise RollError(f"In {game} a pool of no dice fails without a roll; roll at least one, like "
                            f"`1d{sides} {reading.words}`.")
    if reading.system == "sr":
        expression, reading = f"{n}d6" + ("e6" if edge else ""), Reading("sr", n, edge=edge)
    elif reading.system == "cofd":
        again = "" if not reading.again else "e10" if reading.again == 10 else f"e>{reading.again - 1}"
        expression = f"{n}d10" + (f"ro<{COFD_SUCCESS}" if reading.rote else "") + again
    else:
        expression = "1d10" if reading.system == "chance" else f"{n}d10"
    rolled = cast(diceast.Expression, _PARSER.parse(expression, start="expr"))
    rolled.comment = tree.comment
    return rolled, reading, told


def _verdict(reading: Reading, total: int, groups: tuple[DiceGroup, ...],
             natural: Literal["crit", "fumble"] | None) -> tuple[int, Verdict]:
    """The result as its game reads it, and the number it is (a Blades pool's highest die, a
    Shadowrun pool's hits, a chance die's face)."""
    if reading.system in (*POOLS, "chance"):
        kept = [face.value for group in groups for face in group.faces if face.kept]
        got = (shadowrun(kept, reading.number) if reading.system == "sr" else chronicles(kept)
               if reading.system == "cofd" else classic(kept, reading.number) if reading.system == "owod"
               else chance(kept[0]))
        return kept[0] if reading.system == "chance" else got.count, Verdict(got.outcome, got.tone, got.note)
    if reading.system == "coc":
        skill = reading.number
        if total == 1:
            return total, Verdict("Critical success", "critical")
        # 7th edition: 96-100 fumble when the number needed (at the difficulty) is under 50
        if total == 100 or (reading.needs < 50 and total >= 96):
            return total, Verdict("Fumble", "fumble")
        reached = next((level for level in reversed(_LEVELS)
                        if total <= Reading("coc", skill, level).needs), None)
        if reached is None:
            return total, Verdict("Failure", "failure")
        if _LEVELS.index(reached) < _LEVELS.index(reading.level):
            return total, Verdict("Failure", "failure", f"a {reached} success; {reading.level} was needed")
        return total, Verdict(f"{reached} success", "success")
    if reading.system == "dc":
        # D&D 5e: meet the DC or not; a natural 20 or 1 decides nothing on a check or a save
        return total, (Verdict("Success", "success") if total >= reading.number else Verdict("Failure", "failure"))
    if reading.system == "pf2":
        dc = reading.number
        degree = 3 if total >= dc + 10 else 2 if total >= dc else 0 if total <= dc - 10 else 1
        moved = min(3, degree + 1) if natural == "crit" else max(0, degree - 1) if natural == "fumble" else degree
        note = ""
        if natural:
            note = "natural 20" if natural == "crit" else "natural 1"
            if moved != degree:
                note += ": a degree better" if moved > degree else ": a degree worse"
        outcome, tone = (("Critical failure", "fumble"), ("Failure", "failure"), ("Success", "success"),
                         ("Critical success", "critical"))[moved]
        return total, Verdict(outcome, cast(Tone, tone), note)
    if reading.system == "pbta":
        return total, (Verdict("Strong hit", "success") if total >= 10 else Verdict("Weak hit", "partial")
                       if total >= 7 else Verdict("Miss", "failure"))
    faces = [face.value for group in groups for face in group.faces]
    if not reading.number:
        best, note = total, "0 dice: the lower of 2d6"
    else:
        best, note = max(faces), ""
        if faces.count(6) >= 2:
            return best, Verdict("Critical success", "critical", f"{faces.count(6)} sixes")
    return best, (Verdict("Full success", "success", note) if best == 6 else
                  Verdict("Partial success", "partial", note) if best >= 4 else Verdict("Bad outcome", "failure", note))


def _damage(tree: diceast.Expression) -> bool:
    """Whether `crit` after the dice asks for a critical hit's damage: a roll with dice that does
    not start with a d20 (after an attack roll, `crit on 19` is a comment)."""
    left = d20.utils.leftmost(tree)
    return isinstance(left, diceast.Dice) and left.size != 20 and left.size != FATE


def _doubled(tree: diceast.Expression) -> diceast.Expression:
    """A critical hit's damage (D&D 5e): every dice term rolled with twice the dice, the
    modifiers once (`2d6+3 crit` is `4d6 + 3`)."""
    for node in _walk(tree):
        if isinstance(node, diceast.Dice):
            node.num *= 2
    return tree


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
    #: Call of Cthulhu's bonus (> 0) or penalty (< 0) dice, cancelled one for one
    bonus: int = 0
    #: how they were asked for, as the heading of a repeat says it (`bonus 2`)
    bonus_words: str = ""
    #: the game's reading asked for (`vs 55`, `dc 20`, `pbta`, `blades`)
    reading: Reading | None = None
    #: `crit`: a critical hit's damage, every die doubled
    crit: bool = False


def _bonus(text: str) -> tuple[int, tuple[str, ...], str]:
    """Bonus and penalty dice asked for in `text`: the net count, a note when they cancel, and
    the words themselves."""
    found = []
    for match in _BONUS_WORDS.finditer(text):
        numbers = [n for n in match.group("before", "n", "after") if n is not None]
        if len(numbers) > 1:
            raise RollError(f"Say how many bonus or penalty dice once: `{_short_text(match.group(), 30)}`.")
        found.append((match["word"], numbers[0] if numbers else ""))
    bonus = sum(int(n or 1) for word, n in found if word.lower() == "bonus")
    penalty = sum(int(n or 1) for word, n in found if word.lower() == "penalty")
    if bonus > MAX_BONUS or penalty > MAX_BONUS:
        raise RollError(f"A roll takes at most {MAX_BONUS} bonus or penalty dice.")
    if any(n and int(n) == 0 for _, n in found):
        raise RollError("Say how many bonus or penalty dice, from 1: `1d100 bonus` is one, `1d100 bonus 2` two.")
    notes: tuple[str, ...] = ()
    net = bonus - penalty
    if bonus and penalty:
        kind = "bonus" if net > 0 else "penalty"
        left = f"{abs(net)} {kind} {'die' if abs(net) == 1 else 'dice'}" if net else "one d100"
        notes = (f"{bonus} bonus and {penalty} penalty {'die' if max(bonus, penalty) == 1 else 'dice'} "
                 f"cancel one for one: {left}",)
    words = " ".join(f"{word.lower()} {n}" if n else word.lower() for word, n in found)
    return net, notes, words


def _asked(comment: str | None, repeat: int | None, mode: Mode, shape: _Shape) -> _Asked:
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
    word = next((w for w in words if MODE_WORDS[w.lower()] == chosen), None)
    reading = _reading(text, shape)
    crit = shape.damage and bool(_CRIT_WORD.search(text))
    text = _without_reading(text, shape)
    bonus, told, bonus_words = _bonus(text) if shape.percentile else (0, (), "")
    return _Asked(repeat=repeat or 1, mode=chosen, comment=_leftover(comment, shape), word=word,
                  notes=notes + told, bonus=bonus, bonus_words=bonus_words, reading=reading, crit=crit)


def _leftover(comment: str | None, shape: _Shape) -> str | None:
    """The comment without the words that were instructions. A mode word leading the comment, or a
    short one ending it, is an instruction ("adv to hit", "to hit adv"); inside it reads as part of
    the comment ("to hit with advantage")."""
    rest = _without_reading(_REPEAT_WORDS.sub(" ", comment or ""), shape)
    rest = " ".join((_BONUS_WORDS.sub(" ", rest) if shape.percentile else rest).split())
    rest = _LEADING_MODE.sub("", rest)
    rest = _TRAILING_MODE.sub("", rest)
    if not _MODE_WORD.sub(" ", rest).strip(" ,.;"):
        rest = ""
    return rest or None


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


def _with_bonus(tree: diceast.Expression, asked: _Asked) -> tuple[diceast.Dice, int] | None:
    """The single d100 leading the roll, to be rolled with the bonus or penalty dice asked for;
    anything else is refused with the reason, as a mode is."""
    if not asked.bonus:
        return None
    left = d20.utils.leftmost(tree)
    operated = any(isinstance(node, diceast.OperatedDice) and node.value is left for node in _walk(tree))
    if isinstance(left, diceast.Dice) and left.num == 1 and sides_of(left.size) == 100 and not operated:
        return left, asked.bonus
    kind = "bonus" if asked.bonus > 0 else "penalty"
    raise RollError(f"`{kind}` dice roll the tens of one d100 again, so they need a roll that starts with one "
                    f"plain d100, like `1d100 {kind}`; `{_short_text(str(tree.roll))}` does not.")


def _short_text(text: str, limit: int = 40) -> str:
    text = text.replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- reading what was typed
#: dashes a phone or a word processor puts where a minus was meant
_DASHES = {"\u2212": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-"}
_CAPITAL_D = re.compile(r"(?<![A-Za-z_])D(?=\d|%|[Ff](?![A-Za-z]))")
#: one d20 operator with its selector, each read one way only (`kh3` is `k`, `h`, `3`), and
#: possessive: a long chain of operators must not make the pattern backtrack exponentially
_OPS = r"(?>(?:rr|ro|ra|mi|ma|k|p|e)[<>hl]?\d+)"
_DICE_TERM = rf"(?<![\w.])\d*d(?P<sides>\d+|%|F)(?:{_OPS})*+"
#: Roll20's drop operators and its `!`, written against a dice term
_ROLL20 = re.compile(rf"(?P<term>{_DICE_TERM})(?:(?P<drop>dl|dh|d)(?P<n>\d+)|(?P<bang>!)(?![!=p<>\d]))")
_ENDS_IN_DICE = re.compile(rf"{_DICE_TERM}$")
_BARE_DICE = re.compile(rf"^\d*d(?P<sides>\d+|%)(?:{_OPS})*+$")
_OPERATOR_WORD = re.compile(r"^(?P<op>kh|kl|ph|pl|rr|ro|ra|mi|ma|k|p|e)(?P<sel>[<>hl]?\d+)\b", re.I)
_CMP_EQUALS = re.compile(r"(?<![a-z])(?P<op>kh|kl|ph|pl|rr|ro|ra|mi|ma|k|p|e)(?P<cmp>[<>])=\s*(?P<n>\d+)")
_FATE = re.compile(r"(?<![\w.])(?P<dice>\d*d)f(?![A-Za-z])")
_LEADING_WORDS = re.compile(r"^(?P<words>[!/]?[A-Za-z][\w']*(?:[\s,:]+[A-Za-z][\w']*)*)[\s,:]+(?P<rest>[\d(+-]|d[\d%])")
_BOT_PREFIX = re.compile(r"^[!/]?(?:r|roll|rolls|dice)$", re.I)


def _normalised(text: str) -> tuple[str, list[int]]:
    """The text as the grammar should see it, and where each of its characters came from in what
    was typed (so that the comment can be shown as the roller wrote it)."""
    parts: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        new = _DASHES.get(char) or unicodedata.normalize("NFKC", char)
        parts.append(new)
        where.extend([i] * len(new))
    return _FATE.sub(r"\g<dice>F", _CAPITAL_D.sub("d", "".join(parts))), where


#: a die's size typed with a letter O for a zero (`1d2O`, `d1OO`): the letter is never notation there
_LETTER_O = re.compile(r"(?<![\w.])(?P<term>\d*d)(?P<size>\d+[\dOo]*[Oo]\d*)(?![A-Za-z_])")


def _zeros(text: str) -> tuple[str, tuple[str, ...]]:
    """`1d2O` as `1d20`, with a note saying so: a letter O typed for a zero used to roll a d2 with
    the comment "O". Each letter is replaced by one digit, so the comment's place is unchanged."""
    notes: list[str] = []

    def zero(found: re.Match[str]) -> str:
        fixed = found["term"] + found["size"].replace("O", "0").replace("o", "0")
        notes.append(f"`{found.group()}` read as `{fixed}`")
        return fixed

    return _LETTER_O.sub(zero, text), tuple(notes)


def _roll20(text: str) -> tuple[str, tuple[str, ...]]:
    """`4d6dl1` as `4d6pl1`, `1d8!` as `1d8e8`, each with a note saying so."""
    notes: list[str] = []
    for _ in range(20):
        found = _ROLL20.search(text)
        if not found:
            break
        if found["bang"]:
            sides = sides_of(found["sides"])
            new, note = f"e{sides}", f"`!` read as `e{sides}`: explode on {sides}"
        else:
            op = "ph" if found["drop"] == "dh" else "pl"
            new = f"{op}{found['n']}"
            which = "highest" if op == "ph" else "lowest"
            note = f"`{found['drop']}{found['n']}` read as `{new}`: drop the {which} {found['n']}"
        text = text[: found.end("term")] + new + text[found.end():]
        if note not in notes:
            notes.append(note)
    return text, tuple(notes)


def _fixed(text: str) -> str:
    return f"`{_short_text(text, 60)}`"


#: a word of a comment that is notation: signs, numbers and at most one dice term (`+5`, `1d6`, `>=`)
_NOTATION_TOKEN = re.compile(r"[-+*/<>=!()\d%]*(?:\d*d(?:\d+|%|f))?[-+*/<>=!()\d%]*", re.I)


def _check_comment(prefix: str, comment: str, rest: str, *, attached: bool, literal: bool) -> None:
    """Refuse a comment that starts the way notation does: the roller typed a roll that d20 could
    not read to the end, and rolling what it could read would be a wrong result in public. Each
    refusal names the fix. `comment` is the whole comment, `rest` what is left of it once the
    words `adv` and `repeat N` were taken as instructions."""
    if not rest:
        return
    low = rest.lower()
    lead = comment.split()[0].lower() if comment.split() else ""
    word = _MODE_WORD.match(lead)
    if word and (low[0] in "+-*/<>=!0123456789(" or low[:2] in ("df", "d%") or low[:2].startswith("d") and low[1:2].isdigit()):
        tokens = rest.split()
        notation = 0
        while notation < len(tokens) and _NOTATION_TOKEN.fullmatch(tokens[notation]):
            notation += 1
        joined = "".join(tokens[:notation]) or tokens[0]
        joined = joined if joined[0] in "+-*/<>=!" else "+" + joined  # `1d20 adv 1d6`: another term
        said = " ".join([word.group(1), *tokens[notation:]] if notation else [word.group(1)])
        raise RollError(f"Put `{word.group(1)}` after the whole roll: {_fixed(prefix + joined + ' ' + said)}.")
    bonus = _BONUS_WORDS.match(comment)
    if bonus and low[0] in "+-*/<>=!(":
        said = " ".join(bonus.group().lower().split())
        raise RollError(f"Put `{said}` after the whole roll: {_fixed(prefix + ' ' + rest + ' ' + said)}.")
    repeated = re.match(r"^[x×#]\s*(?P<what>.*\d*d[\d%].*)$", low)
    if literal and repeated:
        n = prefix.strip()
        if int(n) < 2:
            raise RollError(f"To roll it once, leave out `{n}{low[0]}`: {_fixed(repeated['what'])}.")
        raise RollError(f"To roll it {n} times, add `repeat {n}`: {_fixed(repeated['what'] + ' repeat ' + n)}.")
    # `#1` after the dice is a comment players write ("1d20 #1 attack"), never a count
    times = re.match(r"^[x×]\s*(?P<n>\d+)\b", low)
    if times and int(times["n"]) > 1:
        n = times["n"]
        raise RollError(f"To roll it {n} times, add `repeat {n}`: {_fixed(prefix + ' repeat ' + n)}; "
                        f"to multiply, `*{n}`.")
    pool = re.match(r"^(?P<tf>[tf])(?P<n>\d+)\b", low)
    if pool:
        t = re.search(r"(?<![a-z])t(\d+)\b", low)
        f = re.search(r"(?<![a-z])f(\d+)\b", low)
        options = " ".join(f"{name}:{m.group(1)}" for name, m in (("target", t), ("fail", f)) if m)
        written = f" or write {_fixed(prefix + '>=' + t.group(1))}" if t and not f and _BARE_DICE.match(prefix) else ""
        raise RollError(f"For a dice pool use the options `{options}`{written}.")
    drop = re.match(r"^(?P<op>dl|dh|d)(?P<n>\d+)\b", low)
    dice = _ENDS_IN_DICE.search(prefix)
    # `8d6 d6 fireball` and `1d20 d20` mean another die: a spaced `dN` can be a drop only of fewer
    # dice than were rolled, and not of as many as the die's faces
    count = int(dice.group().partition("d")[0] or 1) if dice else 0
    drops = drop is not None and dice is not None and int(drop["n"]) < count and int(drop["n"]) != sides_of(dice["sides"])
    if drop and dice and (drop["op"] != "d" or not attached and drops):
        op = "ph" if drop["op"] == "dh" else "pl"
        which = "highest" if op == "ph" else "lowest"
        another = f"; to add a die, {_fixed(prefix + '+' + low[: drop.end()])}" if drop["op"] == "d" and int(drop["n"]) > 1 else ""
        raise RollError(f"Drop {which} is `{op}{drop['n']}`, right after the dice: "
                        f"{_fixed(prefix + op + drop['n'] + low[drop.end():])}{another}.")
    if re.match(r"^\d*d(?:[\d%]|f(?![a-z]))", low):
        if attached and re.search(r"\d\.\d*$", prefix):
            raise RollError(f"Dice counts are whole numbers, like {_fixed(prefix.split('.')[0] + rest)}.")
        if literal:
            raise RollError(f"Remove the space: {_fixed(prefix + rest)}.")
        raise RollError(f"Join the dice with a sign: {_fixed(prefix + '+' + rest.split()[0])}.")
    operator = _OPERATOR_WORD.match(rest)
    if operator and not dice:
        op = operator.group().lower()
        if op.startswith("e") and attached and re.search(r"\d$", prefix):
            raise RollError(f"Write numbers out in digits: `{_short_text(prefix.split()[-1] + op, 20)}` is not read "
                            f"as a number.")
        terms = list(re.finditer(_DICE_TERM, prefix))
        if not terms:
            raise RollError(f"`{op}` goes right after dice, like `4d6kh3`.")
        last = terms[-1].end()
        raise RollError(f"`{op}` goes right after the dice: "
                        f"{_fixed(prefix[:last] + op + prefix[last:] + rest[operator.end():])}.")
    if operator:
        how = "in lower case" if attached else "without the space"
        raise RollError(f"Write `{operator.group().lower()}` {how}: "
                        f"{_fixed(prefix + operator.group().lower() + rest[operator.end():])}.")
    if low.startswith("!") and not attached and _ROLL20.search(prefix + low.split()[0]):
        raise RollError(f"Remove the space: {_fixed(prefix + rest)}.")
    if low.startswith("!"):
        sides = _ENDS_IN_DICE.search(prefix)
        top = sides_of(sides["sides"]) if sides else 6
        raise RollError(f"Only a plain `!` right after the dice explodes (on the top face, as `e{top}`); "
                        f"compounding and other `!` forms are not supported.")
    number = re.match(r"^\d+(?:\.\d+)?(?=\s*$|\s*[-+*/%<>=(\[])", low)
    if number:
        raise RollError(f"A number after the dice needs a sign: {_fixed(prefix + '+' + number.group())}.")
    if low[0] in "+-*/%<>=^":
        raise RollError(f"I can't read the roll from `{_short_text(rest, 20)}` on; words go after the dice, "
                        f"like `1d20+5 to hit`.")


def _syntax_hint(text: str) -> str | None:
    """What to do about a roll d20 cannot read at all, where the usual cause is known."""
    equals = _CMP_EQUALS.search(text)
    if equals:
        op, cmp, n = equals["op"], equals["cmp"], int(equals["n"])
        better = f"{op}{cmp}{n - 1 if cmp == '>' else n + 1}"
        hint = f"`{op}{cmp}={n}` is written `{better}`"
        counted = re.match(rf"^\s*(?P<dice>\d*d\d+){op}[<>]=", text)
        if op == "k" and counted:
            hint += f"; to count the dice instead, `{counted['dice']}{cmp}={n}`"
        return hint + "."
    alone = re.fullmatch(r"\s*(?P<word>bonus|penalty)(?:\s*[:=]?\s*(?P<n>\d+))?\s*", text, re.I)
    if alone:
        return f"Bonus and penalty dice go with a d100: `1d100 {alone['word'].lower()}{' ' + alone['n'] if alone['n'] else ''}`."
    words = _LEADING_WORDS.match(text)
    if words:
        said, rest = words["words"], text[words.start("rest"):].strip()
        try:
            _PARSER.parse(rest, start="expr")
        except Exception:  # noqa: BLE001 - whatever d20 raises, the hint would be wrong
            return None
        if _BOT_PREFIX.match(said):
            return f"Leave out `{_short_text(said, 12)}`: the roll is {_fixed(rest)}."
        return f"Put the words after the dice: {_fixed(rest + ' ' + said)}."
    return None


def _as_pool(tree: diceast.Expression) -> tuple[diceast.Expression, str, int, Counting] | None:
    """A bare dice pool compared die by die (`10d6>4`): the dice alone, and how they count."""
    node = tree.roll
    if not isinstance(node, diceast.BinOp) or node.op not in (">", ">=", "<", "<="):
        return None
    left, right = node.left, node.right
    dice = left.value if isinstance(left, diceast.OperatedDice) else left
    if not isinstance(dice, diceast.Dice) or dice.num < 2 or dice.size == FATE:
        return None  # Fate dice are compared by their total
    if not isinstance(right, diceast.Literal) or not isinstance(right.value, int):
        return None
    n, sides = right.value, sides_of(dice.size)
    # only a number some die can both meet and miss makes a pool; past that, every die would count
    # (or none), and what the roller compares is the total: GURPS's `3d6<=12`, `2d6>=7`
    if not {">=": 1 < n <= sides, ">": 1 <= n < sides, "<=": 1 <= n < sides, "<": 1 < n <= sides}[node.op]:
        return None
    counting = {">": Counting(n + 1), ">=": Counting(n), "<": Counting(n - 1, under=True),
                "<=": Counting(n, under=True)}[node.op]
    return diceast.Expression(left, tree.comment), f"{node.op}{n}", n, counting


def _check_reachable(tree: diceast.Expression, counting: Counting, said: str) -> None:
    """A target no die can reach would count 0 every time: it is always a mistake, said as such."""
    sizes = [sides_of(node.size) for node in _walk(tree) if isinstance(node, diceast.Dice)]
    if not sizes:
        return
    top = max(sizes)
    if not counting.under and counting.target > top:
        raise RollError(f"No die here can show {counting.target} or more (the biggest is a d{top}), so {said} "
                        f"would never count a success.")


def _walk(tree: Any) -> list[Any]:
    nodes: list[Any] = []
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
    return nodes


def _keep_notes(tree: diceast.Expression) -> tuple[str, ...]:
    """`4d6k3` keeps dice *showing* 3 in d20; on Roll20 and Dice Maiden it keeps the highest 3,
    so the reply says which was rolled (the roll is not refused: it is valid d20)."""
    notes: list[str] = []
    for node in _walk(tree):
        if isinstance(node, diceast.OperatedDice) and node.value.num > 1:
            for op in node.operations:
                for sel in op.sels:
                    if op.op == "k" and sel.cat is None:
                        note = f"`k{sel.num}` keeps dice showing {sel.num}; the highest {sel.num} is `kh{sel.num}`"
                        if note not in notes:
                            notes.append(note)
    return tuple(notes)


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
    normal, where = _normalised(text)
    if len(normal) > 2 * MAX_EXPRESSION:
        raise RollError(f"That roll is too long once its characters are written out; the limit is {MAX_EXPRESSION}.")
    normal, zeros = _zeros(normal)
    read, aliases = _roll20(normal)
    aliases = zeros + aliases
    if _CHANCE_ALONE.match(read):
        read = "1d10 " + read  # the chance die, rolled as Chronicles players name it

    context = _Context(rng or random.Random())
    roller = _Roller(context)
    try:
        parsed = roller.parse(read, allow_comments=True)
        comment = parsed.comment.strip() if parsed.comment else None
        start = len(read) - len(comment) if comment and read.endswith(comment) else len(read)
        prefix = read[:start].rstrip()
        sizes = {node.size for node in _walk(parsed) if isinstance(node, diceast.Dice)}
        lead = parsed.roll
        left = d20.utils.leftmost(parsed)
        shape = _Shape(sixes=6 in sizes, tens=10 in sizes, damage=_damage(parsed),
                       percentile=any(sides_of(size) == 100 for size in sizes),
                       one_ten=isinstance(lead, diceast.Dice) and lead.num == 1 and lead.size == 10,
                       d20=isinstance(left, diceast.Dice) and left.size == 20 and left.num in (1, 2))
        asked = _asked(comment, repeat, mode, shape)
        if comment:
            _check_comment(prefix, comment, asked.comment or "", attached=start > 0 and not read[start - 1].isspace(),
                           literal=isinstance(parsed.roll, diceast.Literal))
        # the heading of a repeat says what was typed (`4d6dl1`), the note how it was read
        typed = normal if not comment else (
            normal[: len(normal) - len(comment)].rstrip() if normal.endswith(comment) else prefix)
        shown_comment = asked.comment
        if comment and normal.endswith(comment) and len(normal) - len(comment) < len(where):
            typed_comment = text[where[len(normal) - len(comment)]:].strip()
            as_typed = _leftover(typed_comment, shape)
            # the words were read from the normalised text (`ＨＡＲＤ` is `hard`): what is left of
            # the typed comment is shown only where it is the same words, else the normalised rest
            if as_typed is not None and _normalised(as_typed)[0] == asked.comment:
                shown_comment = as_typed
        counting: Counting | None = Counting(target, fail) if target is not None else None
        pool = _as_pool(parsed)
        if pool:
            parsed, said, n, counting = pool
            if target is not None:
                raise RollError(f"The roll counts dice `{said}` and the `target` option says {target}; say it once.")
            if fail is not None:
                if counting.under:
                    raise RollError(f"`fail` takes successes away from a pool counted upward (`>`), not `{said}`.")
                counting = Counting(counting.target, fail)
        else:
            said = f"`target:{target}`"
            top = parsed.roll
            if target is not None and isinstance(top, diceast.BinOp) and top.op in COMPARISONS:
                raise RollError(f"The roll compares its total (`{top.op}{_short_text(str(top.right), 12)}`) and the "
                                f"`target` option counts dice; say it once.")
        fate = [node for node in _walk(parsed) if isinstance(node, diceast.Dice) and node.size == FATE]
        if fate and counting is not None:
            raise RollError("Fate dice are added up, not counted one by one: leave out `target`, and compare "
                            "the total instead, like `4dF+2 >= 3`.")
        if fail is not None and counting is None:
            raise RollError("`fail` needs a `target`: dice at or above the target count as successes.")
        if counting is not None:
            if counting.fail is not None and counting.fail >= counting.target:
                raise RollError("`fail` must be lower than `target`.")
            _check_reachable(parsed, counting, f"`{said}`" if pool else said)
        if asked.bonus and counting is not None:
            raise RollError("Bonus and penalty dice pick one d100; leave out `target` (to compare it with a skill, "
                            "`1d100 <= 55 bonus`).")
        reading = asked.reading
        if reading is not None:
            parsed, reading, told = _check_reading(parsed, reading, counting, asked,
                                                   f"`{said}`" if pool else "`target`", prefix)
            aliases += told
        roller.percentile = _with_bonus(parsed, asked)
        tree = _with_mode(parsed, asked)
        if asked.crit:
            tree = _doubled(tree)
            aliases += ("`crit`: every die doubled, the modifiers not",)
        _check_tree(tree, asked.repeat)
        notes = asked.notes + aliases + _keep_notes(tree)
        rolls = tuple(_one(roller, tree, counting, terse=asked.repeat > 1, mode=asked.mode, reading=reading)
                      for _ in range(asked.repeat))
        shown = str(tree.roll)
    except RollError:
        raise
    except d20.TooManyRolls:
        raise RollError(f"That roll would need more than {MAX_DICE:,} dice (explosions and rerolls count).") from None
    except d20.RollSyntaxError as exc:
        hint = _syntax_hint(read)
        if hint:
            raise RollError(hint) from None
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
    word = {"advantage": " adv", "disadvantage": " dis"}.get(asked.mode, "")
    if asked.bonus:
        word += f" {asked.bonus_words}"
    if asked.reading is not None:
        word += f" {asked.reading.words}"
    if asked.crit:
        word += " crit"
    every = [node for node in _walk(tree) if isinstance(node, diceast.Dice)]
    typed = (typed + word).strip()
    return RollSeries(expression=shown, rolls=rolls, comment=shown_comment,
                      fate=bool(every) and all(node.size == FATE for node in every),
                      rule=counting, mode=asked.mode, notes=notes,
                      typed=typed, reading=reading)


def _check_tree(tree: diceast.Expression, repeat: int) -> None:
    """Refuse before rolling what is too big on its face, with a precise reason."""
    dice = 0
    for node in _walk(tree):
        if isinstance(node, diceast.Dice):
            if isinstance(node.size, int) and node.size > MAX_SIDES:
                raise RollError(f"Dice have at most {MAX_SIDES:,} sides; `d{_short(node.size)}` is too big.")
            dice += node.num
        if isinstance(node, diceast.OperatedDice):
            if isinstance(node.value, diceast.Dice) and node.value.size == FATE:
                raise RollError(f"Fate dice are added up as rolled: keep, drop, reroll and explode do not apply "
                                f"to them. Roll `{node.value}` and add the skill, like `4dF+2`.")
            _check_endless(node)
    if dice * repeat > MAX_DICE:
        times = f" × {repeat}" if repeat > 1 else ""
        raise RollError(f"That roll asks for {_short(dice)}{times} dice; the limit is {MAX_DICE:,} in all.")


def _check_endless(node: diceast.OperatedDice) -> None:
    """An explosion (`e`) or reroll (`rr`) on every face of the die never ends (`1d1e1`,
    `1d6e>0`): said as such, rather than as running out of dice."""
    dice = node.value
    if not isinstance(dice, diceast.Dice) or dice.num < 1:
        return
    sides = sides_of(dice.size)
    for kind, doing in (("e", "explodes"), ("rr", "rerolls")):
        sels = [sel for op in node.operations if op.op == kind for sel in op.sels]
        if not sels:
            continue
        above = min((sel.num for sel in sels if sel.cat == ">"), default=sides)  # faces > above
        below = max((sel.num for sel in sels if sel.cat == "<"), default=1)  # faces < below
        exact = {sel.num for sel in sels if sel.cat is None}
        low, high = max(1, below), min(sides, above)
        if high - low + 1 <= len(exact) and all(face in exact for face in range(low, high + 1)):
            raise RollError(f"`{_short_text(str(node))}` {doing} on every face of a d{sides}, so it would never stop.")


def _short(n: int) -> str:
    digits = str(n)
    return digits if len(digits) <= 12 else digits[:6] + "…"


def _one(roller: _Roller, tree: diceast.Expression, counting: Counting | None, *, terse: bool,
         mode: Mode = "normal", reading: Reading | None = None) -> Roll:
    if counting is None and reading is not None:
        counting_shown = reading.marks
    else:
        counting_shown = counting
    result = roller.roll(tree, stringifier=_Markdown(mode=mode, counting=counting_shown))
    groups = _groups(result.expr)
    total = result.total
    breakdown = result.result
    successes = None
    if counting is not None:
        successes = sum(g.successes(counting) for g in groups)
    top = result.expr.roll
    compared = None
    if isinstance(top, d20.BinOp) and top.op in COMPARISONS:
        compared = Comparison(left=top.left.total, op=top.op, right=top.right.total, success=bool(total))
    crit = _lead(result.expr)
    verdict = None
    if reading is not None:
        total, verdict = _verdict(reading, int(total), groups, crit)
    return Roll(total=total, breakdown=breakdown, groups=groups, successes=successes, crit=crit, verdict=verdict,
                terse=_Markdown(terse=True, mode=mode, counting=counting_shown).stringify(result.expr) if terse else None,
                compared=compared)


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
                Face(value=int(lit.number), natural=int(lit.values[0]) + (2 if node.size == FATE else 0),
                     sides=node.size,
                     kept=kept and die.kept and lit.kept, exploded=lit.exploded)
                for die in node.values for lit in die.values
            )
            ops = "".join(str(op) for op in node.operations)
            if isinstance(node, _TensDice):
                ops = f" {node.kind()}"
            groups.append(DiceGroup(notation=f"{node.num}d{node.size}{ops}", faces=faces,
                                    total=int(node.total), annotation=node.annotation or None))
            continue
        stack.extend((child, kept) for child in reversed(node.children))
    return tuple(groups)
