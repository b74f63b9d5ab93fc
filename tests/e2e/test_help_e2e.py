"""/help, end to end: what Boneyard does where it is asked, on one phone screen."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.channel import clean, said
from tests.fakediscord import FLAG_EPHEMERAL, running_bot, running_fake

CHANNEL = "games"


async def _help(fd, user, place) -> dict:  # noqa: ANN001
    answer = await (await fd.slash(user, place, "help")).wait_response()
    assert answer["data"]["flags"] & FLAG_EPHEMERAL, answer
    return answer["data"]


async def test_help_names_the_games_this_server_offers_and_the_table_commands(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL, "elsewhere")) as fd:
        admin, ann = fd.add_user("owner", admin=True), fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "h.sqlite3") as bot:
            text = said(await _help(fd, ann, CHANNEL))
            for line in ("🎲 **Knucklebones** · 2–6 players: `/knucklebones new`",
                         "🎲 **Bone Duel** · 2 players: `/bone-duel new`",
                         "`/game nudge` pings whoever it waits for", "`/roll help`", "`/boneyard settings`", "How to play"):
                assert line in text, text
            assert text.count("🎲") == 6 and len(text) <= 1400, (len(text), text)

            # a server that offers two games, in one channel: those two, and where they open
            await (await fd.slash(admin, CHANNEL, "boneyard settings",
                                  {"games": "knucklebones, bone-duel", "add_channel": fd.channel(CHANNEL).id})).wait_response()
            here = said(await _help(fd, ann, CHANNEL))
            assert here.count("🎲") == 2 and "`/bone-duel new`" in here and "`/knucklebones new`" in here, here
            assert "Tables open only in" not in here
            there = said(await _help(fd, ann, "elsewhere"))
            assert f"Tables open only in <#{fd.channel(CHANNEL).id}> here." in there, there
        clean(fd, bot)


async def test_help_where_the_bot_is_not_a_member_offers_the_dice(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        chat = fd.add_private_chat("ann-and-bob", [ann, bob])
        fd.add_outside_guild("elsewhere", ["far-tavern"])
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, tmp_path / "h.sqlite3") as bot:
            for place in (fd.open_dm(ann), chat, fd.channel("far-tavern")):
                text = said(await _help(fd, ann, place))
                assert "here it rolls dice for you" in text and "`/roll help`" in text, text
                assert "🎲" not in text and "/game" not in text, text
        clean(fd, bot)
