"""The dice a game rolls with, kept inside the game state.

A SplitMix64 stream addressed by (seed, counter): its whole state is two integers, so it
serialises with the game, and replaying the action log from the seed reproduces every roll.
Tests put exact values in ``forced`` to stage the cases they need.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Dice(BaseModel):
    seed: int
    counter: int = 0
    forced: list[int] = Field(default_factory=list)

    def _next64(self) -> int:
        self.counter += 1
        return _mix((self.seed + self.counter * _GAMMA) & _MASK)

    def roll(self, sides: int) -> int:
        """One fair die of ``sides`` faces (1..sides); forced values come first."""
        if self.forced:
            value = self.forced.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"forced value {value} is not a face of a d{sides}")
            return value
        limit = _MASK - (_MASK + 1) % sides  # rejection sampling keeps every face equally likely
        while True:
            x = self._next64()
            if x <= limit:
                return x % sides + 1

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), e.g. to pick a start player."""
        return self.roll(n) - 1
