"""Coins as a game-master types them."""

from __future__ import annotations

import re

from bot.errors import Refusal
from bot.render import quote
from rules.stones_and_bones import MAX_PURSE, money

MONEY_HELP = ("Write an amount as coins, e.g. `12gp 5sp` (units pp, gp, sp, cp), or a whole "
              "number of gold pieces, e.g. `12`.")
_COIN = {"pp": 1000, "gp": 100, "sp": 10, "cp": 1}
_COIN_PART = re.compile(r"\s*(\d{1,10})\s*(pp|gp|sp|cp)\s*,?", re.IGNORECASE)


def parse_coins(text: str) -> int:
    """``"12gp 5sp"`` -> 1250 cp; ``"12"`` -> 1200 cp (whole gold pieces). Refuses anything
    else, and amounts outside 1 cp to a million pp, with a short explanation."""
    raw = text.strip()
    if re.fullmatch(r"\d{1,10}", raw):
        amount = int(raw) * _COIN["gp"]
    else:
        parts = _COIN_PART.findall(raw)
        if not parts or _COIN_PART.sub("", raw).strip():
            raise Refusal(f"{quote(raw)} is not an amount. {MONEY_HELP}")
        units = [unit.lower() for _, unit in parts]
        if len(set(units)) != len(units):
            raise Refusal(f"Name each coin once in {quote(raw)}. {MONEY_HELP}")
        amount = sum(int(n) * _COIN[unit.lower()] for n, unit in parts)
    if not 1 <= amount <= MAX_PURSE:
        raise Refusal(f"A purse holds from 1 cp to {_grouped(money(MAX_PURSE))}; {quote(raw)} is "
                      f"{_grouped(money(amount))}.")
    return amount


def _grouped(amount: str) -> str:
    """``10000000 gp`` as a reader takes it in: ``10,000,000 gp``."""
    return " ".join(f"{int(word):,}" if word.isdigit() else word for word in amount.split())
