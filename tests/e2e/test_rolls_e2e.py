"""/rolls end to end, on SQLite and on PostgreSQL: saved rolls one tap away (autocomplete, the
server's shared ones set by its GMs, every refusal), a player's history and luck, erasing it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.store import SavedRoll, ServerSettings, open_store
from tests.e2e.channel import clean, said, settle, top
from tests.e2e.test_roll_e2e import CHANNEL, button_id
from tests.fakediscord import FLAG_EPHEMERAL, FakeDiscord, FakeUser, buttons, running_bot, running_fake, selects


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """Where the bot keeps its store (commands synced globally, so they reach DMs too)."""
    if request.param == "sqlite":
        return {"DATABASE_URL": f"sqlite:///{tmp_path / 'r.sqlite3'}", "DEV_GUILD_ID": ""}
    return {"DATABASE_URL": request.getfixturevalue("pg_url"), "DEV_GUILD_ID": ""}


async def told(fd: FakeDiscord, user: FakeUser, command: str, options: dict[str, Any] | list[dict[str, Any]],
               where: Any = CHANNEL) -> str:
    """What a /rolls command answered, privately."""
    answer = await (await fd.slash(user, where, command, options)).wait_response()
    assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, answer
    return said(answer["data"])


async def offered(fd: FakeDiscord, user: FakeUser, command: str, typed: str) -> list[dict[str, str]]:
    it = await fd.autocomplete(user, CHANNEL, command, {"name": typed}, focused="name")
    answer = await it.wait_response()
    assert answer["type"] == 8
    return answer["data"]["choices"]


async def test_saved_rolls_with_autocomplete_shared_rolls_and_every_refusal(database: dict[str, str]) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        cy, dee = fd.add_user("cy", manager=True), fd.add_user("dee", admin=True)
        own_dm = fd.open_dm(ann)
        # a server that names its GM role, with 99 shared rolls; Ann keeps 48 of her own already
        store = await open_store(database["DATABASE_URL"])
        await store.put_server_settings(ServerSettings(guild_id=fd.guild_id, gm_role_id=fd.manager_role_id))
        for n in range(99):
            await store.put_saved_roll(SavedRoll(guild_id=fd.guild_id, name=f"house-{n}", expression="1d6"), 100)
        for n in range(48):
            await store.put_saved_roll(SavedRoll(user_id=ann.id, name=f"old-{n}", expression="1d8"), 50)
        await store.close()

        async with running_bot(fd, database) as bot:
            said_ = await told(fd, ann, "rolls save", {"name": "Attack", "expression": "1d20+7 to hit", "mode": "advantage"})
            assert said_.startswith("Saved your roll `attack`: 1d20+7 to hit · advantage")
            said_ = await told(fd, ann, "rolls save", {"name": "attack", "expression": "1d20+8 to hit", "mode": "advantage"})
            assert said_.startswith("Replaced your roll `attack`: 1d20+8 to hit · advantage")
            assert "Saved" in await told(fd, ann, "rolls save", {"name": "dmg", "expression": "2d6+4 slashing"})
            said_ = await told(fd, ann, "rolls save", {"name": "one-too-many", "expression": "1d4"})
            assert "You keep 50 saved rolls already" in said_ and "/rolls delete" in said_

            # every refusal says what is wrong
            for options, why in [
                ({"name": "fire bolt", "expression": "1d10"}, "that one has a space"),
                ({"name": "fire_bolt", "expression": "1d10"}, "that one has an underscore"),
                ({"name": "fire`bolt", "expression": "1d10"}, "that one has a backtick"),
                ({"name": "fire🔥", "expression": "1d10"}, "that one has `🔥`"),
                ({"name": "   ", "expression": "1d10"}, "needs a name"),
                ({"name": "ok", "expression": "1d20+"}, "can't read that roll"),
                ({"name": "ok", "expression": "3d6", "mode": "advantage"}, "starts with one d20"),
                ({"name": "ok", "expression": "3d6", "fail": 1}, "needs a `target`"),
                ({"name": "ok", "expression": "1d20", "shared": True}, "Only this server's GMs"),
            ]:
                assert why in await told(fd, bob, "rolls save", options), options
            raw = [{"name": "name", "type": 3, "value": "x" * 40}, {"name": "expression", "type": 3, "value": "1d6"}]
            assert "at most 32 characters; that one has 40" in await told(fd, bob, "rolls save", raw)
            assert "Shared rolls belong to a server" in await told(
                fd, ann, "rolls save", {"name": "ok", "expression": "1d20", "shared": True}, own_dm)

            # your own rolls, as you type
            choices = await offered(fd, ann, "rolls use", "att")
            assert choices[0] == {"name": "attack · 1d20+8 to hit · advantage", "value": "attack"}
            assert len(await offered(fd, ann, "rolls use", "")) == 25  # Discord shows 25 at most

            msg = await (await fd.slash(ann, CHANNEL, "rolls use", {"name": "attack"})).response_message()
            head, line = top(msg).splitlines()
            assert line.startswith("-# **attack** · *to hit* · advantage (") and line.endswith(") + 8")
            again = await (await fd.click(bob, msg, button_id(msg, "Roll again"))).response_message()
            assert top(again).startswith("-# 🔁 **Bob** rolls again\n") and "**attack** · *to hit*" in top(again)
            private = await fd.slash(ann, CHANNEL, "rolls use", {"name": "dmg", "private": True})
            assert (await private.wait_response())["data"]["flags"] & FLAG_EPHEMERAL
            # a player's saved rolls are theirs everywhere
            msg = await (await fd.slash(ann, own_dm, "rolls use", {"name": "attack"})).response_message()
            assert "**attack**" in top(msg)

            # the server's shared rolls: set by a GM (the GM role, or Manage Server), offered to all
            said_ = await told(fd, cy, "rolls save", {"name": "init", "expression": "1d20+2", "shared": True})
            assert said_.startswith("Saved this server's shared roll `init`")
            said_ = await told(fd, dee, "rolls save", {"name": "init-2", "expression": "1d20", "shared": True})
            assert "This server shares 100 saved rolls already" in said_
            said_ = await told(fd, dee, "rolls save", {"name": "init", "expression": "1d20+3", "shared": True})
            assert said_.startswith("Replaced this server's shared roll `init`: 1d20+3")
            choices = await offered(fd, bob, "rolls use", "ini")
            assert choices == [{"name": "init · 1d20+3 (server)", "value": "server:init"}]
            msg = await (await fd.slash(bob, CHANNEL, "rolls use", {"name": "server:init"})).response_message()
            assert "**init**" in top(msg)
            msg = await (await fd.slash(bob, CHANNEL, "rolls use", {"name": "init"})).response_message()
            assert "**init**" in top(msg)  # typed by hand: found among the server's
            assert "Only this server's GMs" in await told(fd, bob, "rolls delete", {"name": "server:init"})
            assert {"name": "init · 1d20+3 (server)", "value": "server:init"} in await offered(fd, cy, "rolls delete", "init")

            # a page at a time (test_rolls_list_turns_pages_even_after_a_restart turns them)
            listed = await told(fd, ann, "rolls list", {})
            assert listed.startswith("-# Saved rolls, page 1 of 8\n\n**Your saved rolls** (50 of 50)\n"
                                     "`attack` 1d20+8 to hit · advantage\n")
            assert len(listed) <= 900 and listed.endswith("\n\n-# Roll one with `/rolls use`; it finds them as you type.")
            # in the order a reader counts: old-2 before old-10
            names = [line.split("`")[1] for line in listed.splitlines() if line.startswith("`old-")]
            assert names[:12] == [f"old-{n}" for n in range(12)], names
            listed = await told(fd, bob, "rolls list", {})
            assert "**Your saved rolls** (0 of 50)\n-# none yet" in listed
            assert "**Shared in this server, set by its GMs** (100 of 100)" in listed

            assert await told(fd, cy, "rolls delete", {"name": "server:init"}) == "Deleted this server's shared roll `init`."
            assert await told(fd, ann, "rolls delete", {"name": "attack"}) == "Deleted your roll `attack`."
            for command in ("rolls use", "rolls delete"):
                said_ = await told(fd, ann, command, {"name": "attack"})
                assert "You have no saved roll named `attack` and this server has none" in said_
            await settle(fd)
        clean(fd, bot)


def listed_names(text: str) -> list[str]:
    return [line.split("`")[1] for line in text.splitlines() if line.startswith("`")]


async def test_rolls_list_turns_pages_even_after_a_restart(database: dict[str, str]) -> None:
    async with running_fake() as fd:
        ann, bob, cy = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("cy")
        # as many as there is room for: 50 of Ann's own, 100 the server shares
        store = await open_store(database["DATABASE_URL"])
        for n in range(100):
            await store.put_saved_roll(SavedRoll(guild_id=fd.guild_id, name=f"house-{n}", expression="1d6"), 100)
        for n in range(49):
            await store.put_saved_roll(SavedRoll(user_id=ann.id, name=f"old-{n}", expression="1d8"), 50)
        await store.put_saved_roll(SavedRoll(user_id=ann.id, name="attack", expression="1d20+8 to hit",
                                             mode="advantage"), 50)
        await store.close()
        every = ["attack", *(f"old-{n}" for n in range(49)), *(f"house-{n}" for n in range(100))]

        async with running_bot(fd, database) as bot:
            asked = await fd.slash(ann, CHANNEL, "rolls list", {})
            first = await asked.response_message()
            assert first["flags"] & FLAG_EPHEMERAL
            [menu] = selects(first)
            assert menu["custom_id"] == f"bn:rolls:page:{ann.id}" and len(menu["options"]) == 8
            assert [o["label"] for o in menu["options"][:3]] == [
                "Page 1: attack to old-18", "Page 2: old-19 to old-38", "Page 3: old-39 to house-9"]
            assert menu["options"][0]["default"] and menu["options"][2]["description"] == "Yours, then this server's"
            # a roll saved while the list is open, and one deleted, show once a page turns
            store = await open_store(database["DATABASE_URL"])
            await store.delete_saved_roll(0, ann.id, "old-0")
            await store.put_saved_roll(SavedRoll(user_id=ann.id, name="zap", expression="1d4"), 50)
            await store.close()
            clean(fd, bot)
        every = [name for name in every if name != "old-0"]
        every.insert(every.index("house-0"), "zap")

        async with running_bot(fd, database) as bot:
            # the menu outlives the bot that drew it; every page fits a phone, each heads itself
            seen: list[str] = []
            for page in range(8):
                turned = await fd.select(ann, first, menu["custom_id"], [str(page)])
                answer = await turned.wait_response()
                assert answer["type"] == 7, answer
                shown = await turned.response_message()
                assert shown["id"] == first["id"] and shown["flags"] & FLAG_EPHEMERAL
                text = shown["content"]
                assert text.startswith(f"-# Saved rolls, page {page + 1} of 8\n\n**"), text
                assert text.endswith("\n\n-# Roll one with `/rolls use`; it finds them as you type.")
                assert len(text) <= 900 and len(text.splitlines()) <= 30, text
                [now] = selects(shown)
                assert [o.get("default", False) for o in now["options"]] == [i == page for i in range(8)]
                seen += listed_names(text)
            assert seen == every
            assert "**Your saved rolls** (50 of 50), continued\n`old-40` 1d8" in said(
                await (await fd.select(ann, first, menu["custom_id"], ["2"])).response_message())
            # a page past the last (a stale or made-up menu) shows the last
            past = await fd.forge(ann, first, menu["custom_id"], values=["99"])
            assert (await past.response_message())["content"].startswith("-# Saved rolls, page 8 of 8\n")
            # the list is its asker's, and a menu turns only the private list it came with
            public = await (await fd.slash(bob, CHANNEL, "roll", {"expression": "1d20"})).response_message()
            forged = await fd.forge(bob, public, menu["custom_id"], values=["1"], carried=True)
            assert "someone else's" in (await forged.wait_response())["data"]["content"]
            forged = await fd.forge(ann, public, menu["custom_id"], values=["1"], carried=True)
            assert "someone else's" in (await forged.wait_response())["data"]["content"]
            assert said(fd.message(int(public["id"]))) == said(public)

            # Bob keeps none of his own: the server's follow on his pages
            bobs = said(await (await fd.slash(bob, CHANNEL, "rolls list", {})).response_message())
            assert bobs.startswith("-# Saved rolls, page 1 of 6\n\n**Your saved rolls** (0 of 50)\n-# none yet\n\n"
                                   "**Shared in this server, set by its GMs** (100 of 100)\n`house-0` 1d6\n")
            # a list that fits one page has no menu
            alone = await (await fd.slash(cy, fd.open_dm(cy), "rolls list", {})).response_message()
            assert alone["content"] == ("**Your saved rolls** (0 of 50)\n-# none yet\n\n"
                                        "-# Roll one with `/rolls use`; it finds them as you type.")
            assert not selects(alone) and not buttons(alone)
            # and one that shrank to a page loses its menu when next turned
            store = await open_store(database["DATABASE_URL"])
            for name in every:
                await store.delete_saved_roll(0, ann.id, name)
                await store.delete_saved_roll(fd.guild_id, 0, name)
            await store.close()
            shrunk = await (await fd.select(ann, first, menu["custom_id"], ["3"])).response_message()
            assert shrunk["content"].startswith("**Your saved rolls** (0 of 50)\n-# none yet\n\n**Shared")
            assert not selects(shrunk)
            await settle(fd)
        clean(fd, bot)


def counted(text: str, label: str) -> int:
    found = re.search(rf"{label}: \*\*([\d,]+)\*\*", text)
    assert found, text
    return int(found[1].replace(",", ""))


def naturals(message: dict[str, Any], face: int) -> int:
    mark = "✨" if face == 20 else "💀"
    return top(message).count(f"**{face}**{mark}")


async def test_history_and_luck_show_only_what_each_may_see(database: dict[str, str]) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        own_dm = fd.open_dm(ann)
        async with running_bot(fd, database) as bot:
            rolls = [await (await fd.slash(ann, CHANNEL, "roll", {"expression": "20d20 volley"})).response_message()
                     for _ in range(2)]
            rolls.append(await (await fd.slash(ann, CHANNEL, "roll", {"expression": "20d20", "private": True})
                                ).response_message())
            await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20", "secret_to": bob})).wait_response()
            secret = await fd.wait_until(lambda: fd.dm_messages(ann) and fd.dm_messages(ann)[-1])
            rolls.append(secret)
            await (await fd.slash(bob, CHANNEL, "roll", {"expression": "3d6"})).wait_response()
            await (await fd.slash(ann, own_dm, "roll", {"expression": "1d4"})).wait_response()

            history = await told(fd, ann, "rolls history", {})
            lines = history.splitlines()
            assert lines[0] == "### Your last 4 rolls in this server"
            assert "· 1d20 · <t:" in lines[1] and lines[1].endswith(" · secret")
            assert "· 20d20 · <t:" in lines[2] and lines[2].endswith(" · private")
            assert "20d20 volley" in lines[3] and "20d20 volley" in lines[4]
            # forget erases every roll kept here, not only the private ones
            assert lines[-1] == "-# Private and secret rolls are listed for you alone. `/rolls forget` erases your rolls here."
            assert "3d6" not in history
            assert "### Your last roll in DMs and private chats" in await told(fd, ann, "rolls history", {}, own_dm)

            answer = await (await fd.slash(ann, CHANNEL, "rolls stats", {})).wait_response()
            mine = said(answer["data"])
            assert mine.startswith("### 🎲 Your luck in this server\n**4** rolls · **61** dice")
            assert "**61** d20s rolled" in mine
            assert counted(mine, "Natural 20s") == sum(naturals(m, 20) for m in rolls)
            assert counted(mine, "Natural 1s") == sum(naturals(m, 1) for m in rolls)
            assert "(expected: 3.1)" in mine and "d20 **" in mine and "(10.5)" in mine
            assert "nusually" not in mine  # 61 d20s are too few to call luck either way, whatever they showed
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "d20s.png" in str(answer["data"]["components"])

            theirs = await told(fd, bob, "rolls stats", {"player": ann})
            assert theirs.startswith("### 🎲 Ann's luck in this server\n**2** rolls · **40** dice")
            assert theirs.endswith("-# Only rolls shown to everyone count, and every die rolled in them, "
                                   "dropped and rerolled ones too.")
            assert counted(theirs, "Natural 20s") == sum(naturals(m, 20) for m in rolls[:2])
            assert "d6 **" in await told(fd, bob, "rolls stats", {})
            # every DM and private chat shares one tally: another's is not shown from there
            bobs_dm = fd.open_dm(bob)
            refused = await told(fd, bob, "rolls stats", {"player": ann}, bobs_dm)
            assert refused.startswith("Ann's luck in DMs and private chats is theirs to see.") and "**" not in refused

            # erasing takes a second, deliberate press, and Keep them is the way back
            ask = await (await fd.slash(ann, CHANNEL, "rolls forget", {})).response_message()
            assert "Erase all 4 of your rolls in this server" in said(ask)
            assert [b["label"] for b in buttons(ask)] == ["Erase my 4 rolls", "Keep them"]
            forged = await fd.forge(bob, rolls[0], button_id(ask, "Keep them"), carried=True)
            assert "someone else's" in (await forged.wait_response())["data"]["content"]
            keep = await fd.click(ann, ask, button_id(ask, "Keep them"))
            answer = await keep.wait_response()
            assert answer["type"] == 7 and answer["data"]["content"] == (
                "Nothing was erased: your history and your luck in this server stay as they were.")
            assert buttons(await keep.response_message()) == []
            assert (await told(fd, ann, "rolls history", {})).startswith("### Your last 4 rolls in this server")
            assert "**4** rolls" in await told(fd, ann, "rolls stats", {})

            # and erases only her rolls here, leaving no button to press twice
            ask = await (await fd.slash(ann, CHANNEL, "rolls forget", {})).response_message()
            erase = await fd.click(ann, ask, button_id(ask, "Erase my 4 rolls"))
            answer = await erase.wait_response()
            assert answer["type"] == 7 and answer["data"]["content"].startswith("Erased 4 of your rolls in this server")
            assert buttons(await erase.response_message()) == []
            forged = await fd.forge(bob, rolls[0], button_id(ask, "Erase my 4 rolls"), carried=True)
            assert "someone else's" in (await forged.wait_response())["data"]["content"]
            assert await told(fd, ann, "rolls history", {}) == "You have no rolls kept in this server yet."
            assert "No rolls kept here yet." in await told(fd, ann, "rolls stats", {})
            assert "Your last roll" in await told(fd, ann, "rolls history", {}, own_dm)
            assert "Your last roll" in await told(fd, bob, "rolls history", {})
            # DMs and private chats keep one history, and erasing it names them both
            ask = await (await fd.slash(ann, own_dm, "rolls forget", {})).response_message()
            assert said(ask).startswith("Erase your one roll in DMs and private chats: your history and your luck")
            answer = await (await fd.click(ann, ask, button_id(ask, "Erase my roll"))).wait_response()
            assert answer["data"]["content"] == "Erased your roll in DMs and private chats. Your saved rolls are kept."
            # the roll it was is gone, so its button says so
            gone = await fd.click(bob, rolls[0], button_id(rolls[0], "Roll again"))
            assert "no longer kept" in (await gone.wait_response())["data"]["content"]
            await settle(fd)
        clean(fd, bot)
