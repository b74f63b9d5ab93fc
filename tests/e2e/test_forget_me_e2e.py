"""Forget me end to end, on SQLite and on PostgreSQL: a player is told privately what Boneyard
keeps about them, Cancel deletes nothing, Delete my data deletes it and says what went, and the
other players' records stay. (The command is wired here by a test cog as the host wires it.)"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.privacy import NOTHING_KEPT
from bot.store import SavedRoll, StoredRoll, open_store
from tests.e2e.channel import clean, said
from tests.fakediscord import FLAG_EPHEMERAL, FakeDiscord, FakeUser, buttons, running_bot, running_fake
from tests.test_bounded_data import finished

CHANNEL = "games"


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    if request.param == "sqlite":
        return {"DATABASE_URL": f"sqlite:///{tmp_path / 'f.sqlite3'}"}
    return {"DATABASE_URL": request.getfixturevalue("pg_url")}


async def ask(fd: FakeDiscord, user: FakeUser, where: object = CHANNEL) -> dict:
    asked = await fd.slash(user, where, "forget-me")  # type: ignore[arg-type]
    answer = await asked.wait_response()
    assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, answer
    return await asked.response_message()


async def press(fd: FakeDiscord, user: FakeUser, message: dict, label: str) -> str:
    [found] = [b for b in buttons(message) if b["label"] == label]
    answer = await (await fd.click(user, message, found["custom_id"])).wait_response()
    assert answer["type"] == 7, answer  # the question itself becomes the answer
    assert not buttons(answer["data"])
    return said(answer["data"])


async def board(fd: FakeDiscord, user: FakeUser) -> str:
    embed = (await (await fd.slash(user, CHANNEL, "game stats")).response_message())["embeds"][0]
    return "\n".join(f["value"] for f in embed.get("fields", []))


async def test_a_player_is_told_what_is_kept_and_deletes_it(database: dict[str, str]) -> None:
    async with running_fake(channels=(CHANNEL,)) as fd:
        ann, bob, cy = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("cy")
        store = await open_store(database["DATABASE_URL"])
        await finished(store, [(ann.id, 1), (bob.id, 2)], channel=901, guild=fd.guild_id)
        await finished(store, [(bob.id, 1), (ann.id, 2)], channel=902, guild=fd.guild_id, game="bone_duel")
        await store.put_saved_roll(SavedRoll(user_id=ann.id, name="attack", expression="1d20+5", by=ann.id), 50)
        for _ in range(2):
            await store.record_roll(StoredRoll(guild_id=fd.guild_id, channel_id=5, user_id=ann.id, expression="1d20",
                                               result="4", text="# 4"), {(20, 4): 1}, keep=100)
        await store.close()

        async with running_bot(fd, database) as bot:
            question = await ask(fd, ann)
            text = said(question)
            assert text.startswith("**Delete your data from Boneyard?**")
            for line in ("· 2 records in /game stats", "· your name in 2 finished games", "“a former player”",
                         "· 1 saved roll of your own", "· 2 rolls you made"):
                assert line in text, text
            assert [(b["label"], b["style"]) for b in buttons(question)] == [("Delete my data", 4), ("Cancel", 2)]

            assert await press(fd, ann, question, "Cancel") == "Nothing was deleted."
            assert f"<@{ann.id}>" in await board(fd, ann)

            question = await ask(fd, ann)
            [delete] = [b["custom_id"] for b in buttons(question) if b["label"] == "Delete my data"]
            # her button forged onto another player's question, and a press of a question asked
            # long ago, delete nothing
            forged = await (await fd.forge(bob, await ask(fd, bob), delete, carried=True)).wait_response()
            assert "Only the person who asked" in forged["data"]["content"]
            stale = delete.rsplit(":", 1)[0] + f":{int(time.time()) - 3600}"
            expired = await (await fd.forge(ann, question, stale, carried=True)).wait_response()
            assert expired["type"] == 7 and "the question expired" in expired["data"]["content"]
            assert f"<@{ann.id}>" in await board(fd, ann)

            done = await press(fd, ann, await ask(fd, ann), "Delete my data")
            assert done.startswith("**Your data is deleted.**") and "· 2 rolls you made" in done, done
            standing = await board(fd, bob)
            assert f"<@{ann.id}>" not in standing and f"<@{bob.id}>: 1 won of 1" in standing
            assert said(await ask(fd, ann)) == NOTHING_KEPT
            assert said(await ask(fd, cy)) == NOTHING_KEPT
        clean(fd, bot)

        store = await open_store(database["DATABASE_URL"])
        try:
            assert await store.player_data(ann.id) == {"games": 0, "stats": 0, "saved_rolls": 0, "rolls": 0}
            assert len(await store.stats(fd.guild_id, bob.id)) == 2
        finally:
            await store.close()


async def test_forget_me_is_asked_wherever_its_player_rolls(tmp_path: Path) -> None:
    """A player who rolls only in a DM with the bot, or in a private chat through Boneyard
    installed to their account, shares no server with it: they are forgotten from there too."""
    async with running_fake(channels=(CHANNEL,)) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        own_dm = fd.open_dm(ann)
        party = fd.add_private_chat("the-party", [ann, bob], group=True)
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, tmp_path / "f.sqlite3") as bot:
            await (await fd.slash(ann, own_dm, "roll", {"expression": "1d20"})).wait_response()
            await (await fd.slash(bob, party, "roll", {"expression": "1d6"})).wait_response()
            question = await ask(fd, ann, own_dm)
            assert "· 1 roll you made" in said(question), said(question)
            done = await press(fd, ann, question, "Delete my data")
            assert done.startswith("**Your data is deleted.**"), done
            question = await ask(fd, bob, party)
            assert "· 1 roll you made" in said(question), said(question)
            assert await press(fd, bob, question, "Cancel") == "Nothing was deleted."
        clean(fd, bot)
