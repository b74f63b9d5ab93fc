"""A map that forgets: per-process memory that stays bounded however long the bot runs."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
T = TypeVar("T")


class Recent(OrderedDict[K, T]):
    """A map that keeps its ``size`` most recently written entries: per-process memory that
    stays bounded however many games a long-lived bot has seen."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: T) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)
