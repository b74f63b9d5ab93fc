"""Tables in the channels real servers have, with the permissions moderators really give.

A bot invited with the README's link has View Channel, Send Messages (in Threads), Embed Links,
Attach Files and Read Message History, and neither Manage Messages nor Manage Threads: these
tests give the fake's bot just that. Each kind of channel a slash command can be used in (an
announcement channel, a voice or stage channel's text chat, a thread, a private thread, a
forum's post, an archived thread) hosts a table whose turns post new tables. A permission
taken away there is named to whoever opens a table, and to the player whose move could not
be posted, in the words the channel's settings use; the game is never lost, and comes back
when it is granted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import play
from tests.e2e.channel import actor, clean, is_table, live_table, settle
from tests.e2e.refusals import moves, private
from tests.fakediscord import FakeDiscord, running_bot, running_fake
from tests.fakediscord.models import (
    ATTACH_FILES, EMBED_LINKS, GUILD_ANNOUNCEMENT, GUILD_FORUM, GUILD_STAGE_VOICE, GUILD_TEXT, GUILD_VOICE,
    PRIVATE_THREAD, PUBLIC_THREAD, READ_MESSAGE_HISTORY, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL,
    FakeUser, Interaction,
)

#: what the README's invite link grants (permissions=274878024704)
INVITED = VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
assert INVITED == 274878024704

#: where a table is opened: (the channel's kind, the kind of thread opened in it, if any)
KINDS: dict[str, tuple[int, int | None]] = {
    "announcements": (GUILD_ANNOUNCEMENT, None),
    "voice-chat": (GUILD_VOICE, None),
    "stage-chat": (GUILD_STAGE_VOICE, None),
    "thread": (GUILD_TEXT, PUBLIC_THREAD),
    "forum-post": (GUILD_FORUM, PUBLIC_THREAD),
    # one the bot was added to (the fake does not model a private thread's members)
    "private-thread": (GUILD_TEXT, PRIVATE_THREAD),
}


def where(fd: FakeDiscord, name: str, archived: bool = False) -> str:
    """The channel (or the thread in it) of kind ``name``: the name to play in."""
    kind, thread = KINDS[name]
    fd.add_channel(name, kind=kind)
    if thread is None:
        return name
    return fd.add_thread(f"{name}-game", name, kind=thread, archived=archived).name


async def press_until_posted(fd: FakeDiscord, channel: str, players: list[FakeUser],
                             table: dict[str, Any]) -> Interaction:
    """The prompted player presses their last move until the game posts (or tries to post) a
    new table in ``channel``; the press that wanted it."""
    path = f"/channels/{fd.channel(channel).id}/messages"
    for _ in range(30):
        before = len(fd.calls)
        it = await fd.click(actor(table, players), table, moves(fd, table)[-1])
        assert (await it.wait_response())["type"] == 7
        await settle(fd)
        if any(c["method"] == "POST" and c["path"] == path for c in fd.calls[before:]):
            return it
        table = live_table(fd, channel) or table
    raise AssertionError("no new table was wanted")


@pytest.mark.parametrize("kind", sorted(KINDS))
async def test_a_table_plays_in_every_kind_of_channel(tmp_path: Path, kind: str) -> None:
    """Opened in an announcement channel, a voice or stage channel's chat, a thread or a
    forum's post, a table starts and its turns post new tables there, with their pictures; its
    opener hears nothing of permissions."""
    async with running_fake() as fd:
        fd.app_permissions = INVITED
        channel = where(fd, kind)
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "kinds.sqlite3") as bot:
            opened = await fd.slash(ann, channel, "knucklebones new")
            lobby = await opened.response_message()
            assert is_table(lobby)
            await settle(fd)
            assert private(opened) == "", private(opened)
            for who, label in ((bob, "Join"), (ann, "Start")):
                await (await fd.click(who, lobby, play.button(fd, lobby, label))).wait_response()
            await settle(fd)
            table = live_table(fd, channel)
            assert table is not None
            posted = await press_until_posted(fd, channel, [ann, bob], table)
            assert private(posted) == "", private(posted)
            fresh = live_table(fd, channel)
            assert fresh is not None and fresh["id"] != table["id"] and moves(fd, fresh)
            assert fd.attachments(fresh), "the table has its picture"
        clean(fd, bot)



#: a permission taken from the bot, and where: in a channel, or in the channel a thread is in
#: (a thread has no permissions of its own)
TAKEN = {"View Channel": False, "Attach Files": False, "Send Messages in Threads": True,
         "Read Message History": True}


async def started(fd: FakeDiscord, channel: str, ann: FakeUser, bob: FakeUser) -> tuple[Interaction, dict[str, Any]]:
    """A lobby opened by ann, joined by bob, started: the opening command, and the table."""
    opened = await fd.slash(ann, channel, "knucklebones new")
    lobby = await opened.response_message()
    await settle(fd)
    for who, label in ((bob, "Join"), (ann, "Start")):
        await (await fd.click(who, lobby, play.button(fd, lobby, label))).wait_response()
    await settle(fd)
    table = live_table(fd, channel)
    assert table is not None and moves(fd, table)
    return opened, table


@pytest.mark.parametrize("taken", sorted(TAKEN))
async def test_a_permission_missing_is_named_with_the_channel_to_give_it_in(tmp_path: Path, taken: str) -> None:
    """Whoever opens a table hears which permission to give the bot, by its name, and in which
    channel: this one, or the one a thread is in, whose settings hold the thread's. A turn whose
    table cannot be posted tells the player, and the game goes on in the table above; given
    back, the next move posts the table anew, with its picture."""
    async with running_fake() as fd:
        fd.app_permissions = INVITED
        hall = fd.add_channel("hall")
        channel = fd.add_thread("hall-game", "hall").name if TAKEN[taken] else "hall"
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "taken.sqlite3") as bot:
            fd.deny(hall, taken)
            if TAKEN[taken]:
                fd.deny(channel, taken)  # (the fake keeps a thread's permissions beside its channel's)
            await settle(fd)
            opened, table = await started(fd, channel, ann, bob)
            told = private(opened)
            assert f"give **{fd.bot_user.name}** **{taken}** in <#{hall.id}>" in told, told
            assert ("this thread's channel" in told) == TAKEN[taken], told
            assert "in this channel" not in told, told
            if taken == "Read Message History":  # a table is posted without it: the game plays on
                posted = await press_until_posted(fd, channel, [ann, bob], table)
                assert private(posted) == "" and live_table(fd, channel)["id"] != table["id"]  # type: ignore[index]
            else:
                posted = await press_until_posted(fd, channel, [ann, bob], table)
                assert "could not post" in private(posted) and f"**{taken}**" in private(posted), private(posted)
                where = f"<#{hall.id}>, this thread's channel." if TAKEN[taken] else f"<#{hall.id}>."
                assert f"I am missing **{taken}** in {where}" in private(posted), private(posted)
                stuck = live_table(fd, channel)
                assert stuck is not None and stuck["id"] == posted.payload["message"]["id"] and moves(fd, stuck)
                fd.grant(hall)
                fd.grant(channel)
                await settle(fd)
                it = await fd.click(actor(stuck, [ann, bob]), stuck, moves(fd, stuck)[0])
                await it.wait_response()
                await settle(fd)
                fresh = live_table(fd, channel)
                assert fresh is not None and fresh["id"] != stuck["id"] and fd.attachments(fresh)
        clean(fd, bot)


async def test_a_thread_denied_send_messages_still_hosts_tables(tmp_path: Path) -> None:
    """In a thread, posting takes Send Messages in Threads: a channel that denies the bot Send
    Messages (an announcements-only channel, say) still has its threads' games played, and
    nobody is told to grant what a thread does not need."""
    async with running_fake() as fd:
        fd.app_permissions = INVITED
        fd.add_channel("hall")
        thread = fd.add_thread("hall-game", "hall")
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "thread.sqlite3") as bot:
            fd.deny("hall", "Send Messages")
            fd.deny(thread, "Send Messages")
            await settle(fd)
            opened, table = await started(fd, thread.name, ann, bob)
            assert private(opened) == "", private(opened)
            posted = await press_until_posted(fd, thread.name, [ann, bob], table)
            assert private(posted) == "", private(posted)
            assert live_table(fd, thread.name)["id"] != table["id"]  # type: ignore[index]
        clean(fd, bot)


async def test_a_thread_locked_mid_game_keeps_its_game_until_it_is_unlocked(tmp_path: Path) -> None:
    """A moderator locks the thread a game is played in: the bot (without Manage Threads) may
    not post there, so the player whose turn wanted a new table is told it could not be posted
    and the game goes on in the table above; whoever opens a table in a locked thread hears
    that it is locked. Unlocked, the next move posts the table anew."""
    async with running_fake() as fd:
        fd.app_permissions = INVITED
        fd.add_channel("hall")
        thread = fd.add_thread("hall-game", "hall")
        locked = fd.add_thread("hall-locked", "hall", locked=True)
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "locked.sqlite3") as bot:
            opened = await fd.slash(ann, locked.name, "knucklebones new")
            await opened.response_message()
            await settle(fd)
            assert "This thread is locked" in private(opened), private(opened)
            _, table = await started(fd, thread.name, ann, bob)
            fd.lock_thread(thread)
            await settle(fd)
            posted = await press_until_posted(fd, thread.name, [ann, bob], table)
            assert private(posted).startswith("I could not post the new table here: this thread is locked. "
                                              "The table above is up to date; once a moderator unlocks it"), private(posted)
            stuck = live_table(fd, thread.name)
            assert stuck is not None and stuck["id"] == posted.payload["message"]["id"] and moves(fd, stuck)
            fd.lock_thread(thread, False)
            await settle(fd)
            it = await fd.click(actor(stuck, [ann, bob]), stuck, moves(fd, stuck)[0])
            await it.wait_response()
            await settle(fd)
            fresh = live_table(fd, thread.name)
            assert fresh is not None and fresh["id"] != stuck["id"] and moves(fd, fresh)
        clean(fd, bot)
