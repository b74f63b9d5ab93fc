"""/forget-me: a player is told exactly what Boneyard keeps about them, and deletes it.

Discord's developer policy expects a bot to delete a user's data when asked. What Boneyard keeps
of a player is their records (/game stats), their seats in finished games, their saved rolls and
their rolls; the store counts each before asking and deletes them in one transaction.

The question is an ephemeral message (only the player sees it) with two buttons that are
persistent like every other button of the bot: the custom id names the player and when they
asked, so nothing waits in memory, and a press after CONFIRM_SECONDS deletes nothing.
"""

from __future__ import annotations

import re
import time
from typing import Any

import discord

from bot.errors import Refusal, guarded
from bot.replies import reply, update
from bot.store import Store
from bot.store.base import FORMER_PLAYER

#: seconds the question can be answered (an interaction's own life on Discord)
CONFIRM_SECONDS = 15 * 60

NOTHING_KEPT = "Boneyard keeps nothing about you: no records, no saved rolls, no rolls."
#: what stays, said with the question and with the answer
STAYS = ("Games you are playing now are not changed, and a server's shared saved rolls stay with the server. "
         "Playing or rolling again starts new records.")


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def described(counts: dict[str, int]) -> list[str]:
    """One line per kind of data the player has, in the words of the question and the answer."""
    lines = []
    if counts.get("stats"):
        lines.append(f"{_count(counts['stats'], 'record', 'records')} in /game stats (games played and won, "
                     "one per server and game)")
    if counts.get("games"):
        lines.append(f"your name in {_count(counts['games'], 'finished game', 'finished games')}: the games and "
                     f"the other players' results stay, your seat shows as “{FORMER_PLAYER}”")
    if counts.get("saved_rolls"):
        lines.append(f"{_count(counts['saved_rolls'], 'saved roll', 'saved rolls')} of your own")
    if counts.get("rolls"):
        lines.append(f"{_count(counts['rolls'], 'roll', 'rolls')} you made: your roll history and your luck")
    return lines


def question(counts: dict[str, int]) -> str:
    items = "\n".join(f"· {line}" for line in described(counts))
    return (f"**Delete your data from Boneyard?** This deletes, in every server and in DMs:\n{items}\n"
            f"-# {STAYS} This cannot be undone.")


def answer(counts: dict[str, int]) -> str:
    items = "\n".join(f"· {line}" for line in described(counts))
    done = f"**Your data is deleted.**\n{items}" if items else "**Your data is deleted.**"
    return f"{done}\n-# {STAYS}"


def _store(interaction: discord.Interaction) -> Store:
    return interaction.client.runtime.store  # type: ignore[attr-defined]


class ForgetMeButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"bn:forget-me:(?P<answer>delete|cancel):(?P<user>\d{1,19}):(?P<asked>\d{1,12})"):
    """Delete my data, or Cancel: an answer to the question asked at ``asked``, by its player only."""

    def __init__(self, answer: str, user_id: int, asked: int) -> None:
        delete = answer == "delete"
        super().__init__(discord.ui.Button(
            label="Delete my data" if delete else "Cancel",
            style=discord.ButtonStyle.danger if delete else discord.ButtonStyle.secondary,
            custom_id=f"bn:forget-me:{answer}:{user_id}:{asked}"))
        self.answer, self.user_id, self.asked = answer, user_id, asked

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ForgetMeButton:
        return cls(match["answer"], int(match["user"]), int(match["asked"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.answered(interaction))

    async def answered(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("Only the person who asked can answer this.")
        if self.answer == "cancel":
            await update(interaction, content="Nothing was deleted.", view=None)
        elif time.time() - self.asked > CONFIRM_SECONDS:
            await update(interaction, content="Nothing was deleted: the question expired. "
                                              "Ask again with `/forget-me` if you still want your data deleted.", view=None)
        else:
            done = await _store(interaction).forget_player(self.user_id)
            await update(interaction, content=answer(done), view=None)


#: the buttons the client registers (``add_dynamic_items``), so a press finds its answer
ITEMS = (ForgetMeButton,)


async def forget_me(interaction: discord.Interaction, store: Store) -> None:
    """Ask, privately, with what would be deleted counted; the buttons do the rest."""
    counts = await store.player_data(interaction.user.id)
    if not any(counts.values()):
        await reply(interaction, content=NOTHING_KEPT, ephemeral=True)
        return
    asked = int(time.time())
    view = discord.ui.View(timeout=None)
    for choice in ("delete", "cancel"):
        view.add_item(ForgetMeButton(choice, interaction.user.id, asked))
    view.stop()  # nothing to wait for: the buttons are answered as persistent items
    await reply(interaction, content=question(counts), view=view, ephemeral=True)
