"""A bot without the permissions its tables need in a channel (Send Messages, Embed Links,
Attach Files, Read Message History): whoever opens a table there is told privately what to
grant; mid-game, a table that cannot be posted corrupts nothing, the player who acted is told
what is missing, and once it is granted again the next move or ``/game status`` posts the table.

The fake Discord models the permissions as Discord does: a channel overwrite denies them to the
bot's role (CHANNEL_UPDATE tells the bot), interactions carry the reduced ``app_permissions``, a
post without Send Messages or an upload without Attach Files is refused 403 50013, a post's
embeds are dropped without Embed Links."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import play
from tests.e2e.channel import actor, clean, is_table, live_table, said, settle
from tests.e2e.fuzz import replays
from tests.e2e.refusals import (
    CHANNEL, comes_back, last_move, moves, press_until_a_new_table, private, still_playable,
)
from tests.fakediscord import running_bot, running_fake
from tests.fakediscord.models import CHANNEL_PERMISSIONS


async def test_whoever_opens_a_table_where_the_bot_lacks_a_permission_hears_what_to_grant(tmp_path: Path) -> None:
    """One channel per missing permission, one lacking all four, one lacking none: each opener
    is told exactly what is missing there, privately, and the lobby opens all the same."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        lacking = {f"no-{n}": [name] for n, name in enumerate(sorted(CHANNEL_PERMISSIONS))}
        lacking["bare"] = sorted(CHANNEL_PERMISSIONS)
        for channel, names in lacking.items():
            fd.add_channel(channel)
            fd.deny(channel, *names)
        async with running_bot(fd, {}, tmp_path / "perm.sqlite3") as bot:
            for channel, names in [*lacking.items(), (CHANNEL, [])]:
                it = await fd.slash(ann, channel, "knucklebones new")
                lobby = await it.response_message()
                assert is_table(lobby) and not lobby["flags"] & 64, "the lobby opens in the channel"
                assert int(it.payload["app_permissions"]) & sum(CHANNEL_PERMISSIONS[n] for n in names) == 0
                await settle(fd)
                told = private(it)
                for name in CHANNEL_PERMISSIONS:
                    assert (f"**{name}**" in told) == (name in names), (channel, told)
                if names:
                    assert "Permissions" in told and f"give **{fd.bot_user.name}**" in told, told
            # a lobby opened without Send Messages still starts: the game goes on in its message
            lobby = live_table(fd, "bare")
            assert lobby is not None
            await (await fd.click(bob, lobby, play.button(fd, lobby, "Join"))).wait_response()
            start = await fd.click(ann, lobby, play.button(fd, lobby, "Start"))
            assert (await start.wait_response())["type"] == 7
            await settle(fd)
            assert moves(fd, fd.message(lobby["id"]) or {}), "the started game shows its moves in the lobby's message"
            assert "**Send Messages**" in private(start)
        clean(fd, bot)


async def test_a_permission_lost_mid_game_corrupts_nothing_and_the_table_comes_back(tmp_path: Path) -> None:
    """Each permission taken away in turn while a game is played: where the table can no longer
    be posted (Send Messages, Attach Files: its picture), the player who acted is told which
    permission to grant and the game goes on in the old table's message; where nothing fails
    (Embed Links, Read Message History: the table needs neither to be posted), the game goes on
    as before. Granted again, the next move posts the table anew; so does ``/game status``.
    Every move is stored once: the stored game equals its replay, and it ends."""
    db = tmp_path / "perm.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        channel = fd.channel(CHANNEL)
        async with running_bot(fd, {}, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            for number, name in enumerate(sorted(CHANNEL_PERMISSIONS)):
                fd.deny(CHANNEL, name)
                await settle(fd)
                posted = await press_until_a_new_table(fd, players, live_table(fd, CHANNEL) or table)
                refused = channel.bot_forbidden or name == "Attach Files"
                if refused:
                    assert f"**{name}**" in private(posted), private(posted)
                    assert "could not post" in private(posted)
                    stuck = still_playable(fd, posted)
                else:
                    assert private(posted) == "", private(posted)
                    assert live_table(fd, CHANNEL)["id"] != posted.payload["message"]["id"]  # type: ignore[index]
                fd.grant(CHANNEL)
                await settle(fd)
                if refused:  # back: the next move posts the table anew, and so does /game status
                    table = await comes_back(fd, players, stuck, by_move=bool(number % 2), why=name)
                else:
                    table = live_table(fd, CHANNEL) or table
                    assert moves(fd, table)
            final = await play.play_to_end(fd, CHANNEL, last_move(fd, players), limit=200, quiet=0.1)
            assert "Final standings" in said(final)
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_status_where_the_table_cannot_be_posted_says_what_is_missing(tmp_path: Path) -> None:
    """``/game status`` says the table comes below and posts it; when it cannot be posted,
    whoever asked hears which permission is missing instead of nothing."""
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, tmp_path / "perm.sqlite3") as bot:
            await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            fd.deny(CHANNEL, "Send Messages")
            await settle(fd)
            it = await fd.slash(players[1], CHANNEL, "game status")
            await it.wait_response()
            await settle(fd)
            assert "**Send Messages**" in private(it), private(it)
        clean(fd, bot)


async def test_a_table_redrawn_from_a_dm_where_it_can_no_longer_be_posted_corrupts_nothing(tmp_path: Path) -> None:
    """A choice made in a DM redraws the table where it is; that message is gone (10008) and
    the bot may no longer post a new one: the player is told what to grant, nothing is logged
    as an error, and the game goes on once it is granted."""
    db = tmp_path / "perm.sqlite3"
    game = "roll-the-bones"
    async with running_fake(channels=(game,)) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, db) as bot:
            await play.open_table(fd, game, f"{game} new", ann, [bob], first=lambda fd, _: settle(fd))
            fd.deny(game, "Send Messages")
            fd.fail("PATCH", rf"^/channels/{fd.channel(game).id}/messages/\d+$", 404, 10008)
            await settle(fd)
            told = ""
            for _ in range(6):  # ann's antes, in her DM, until one redraws the table
                copy = await fd.wait_until(lambda: next((m for m in reversed(fd.dm_messages(ann)) if moves(fd, m)),
                                                        None), what="ann's choice in her DMs")
                it = await fd.click(ann, copy, moves(fd, copy)[-1])
                assert (await it.wait_response())["type"] == 7
                await settle(fd)
                if fd.fault_hits:
                    told = private(it)
                    break
            assert fd.fault_hits, "no choice redrew the table"
            assert "**Send Messages**" in told, told
            fd.grant(game)
            for _ in range(6):  # bob's antes: the table is posted again, the game goes on
                copy = next((m for m in reversed(fd.dm_messages(bob)) if moves(fd, m)), None)
                if copy is None:
                    break
                await (await fd.click(bob, copy, moves(fd, copy)[-1])).wait_response()
                await settle(fd)
            table = live_table(fd, game)
            assert table is not None and "Round 1" in said(table)
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_a_table_behind_the_game_that_cannot_be_posted_again_says_what_is_missing(tmp_path: Path) -> None:
    """The process stopped after storing a step and before showing it; meanwhile an admin took
    Send Messages away. The next press on the old table hears that it had fallen behind, and
    then, since it cannot be posted again, which permission is missing; the old table shows the
    game as it stands, and the game goes on there, then below once the permission is back."""
    db = tmp_path / "perm.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as first:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            who, pressed = actor(table, players), moves(fd, table)[-1]
        clean(fd, first)
        acting = players[await play.store_a_step_never_shown(db, fd.channel(CHANNEL).id)]
        fd.deny(CHANNEL, "Send Messages")
        async with running_bot(fd, {}, db) as second:
            it = await fd.click(who, table, pressed)
            assert "fallen behind" in said((await it.wait_response())["data"])
            # the refused post and the table's redraw come first: a busy machine may take a while
            told = await fd.wait_until(lambda: "could not post" in private(it) and private(it), timeout=15,
                                       what="the reason the table could not be posted")
            await settle(fd)
            assert "could not post" in told and "**Send Messages**" in told, told
            stuck = live_table(fd, CHANNEL)
            assert stuck is not None and stuck["id"] == table["id"] and moves(fd, stuck), \
                "the old table shows the game, with its moves"
            assert actor(stuck, players) == acting, "the old table shows the game as it stands"
            fd.grant(CHANNEL)
            await settle(fd)
            await comes_back(fd, players, stuck, by_move=True, why="Send Messages")
        clean(fd, second)


#: what someone does that shows the table again without a move of theirs: the game, the
#: command, its options, who does it (the host, or the other player), whether the game is
#: started first, and where the change then shows (on the table above, or in their answer)
CHANGES = {
    "pause": ("knucklebones", "game pause", {}, 0, True, "paused"),
    "leave": ("knucklebones", "game leave", {}, 1, True, "Bob left the table"),
    "npc": ("bare-bones", "bare-bones npc", {"name": "Old Marrow"}, 0, False, "Old Marrow takes seat"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
async def test_a_change_whose_table_cannot_be_posted_tells_whoever_made_it(tmp_path: Path, change: str) -> None:
    """A pause, a player leaving or an NPC seated in a game-master's lobby shows the table
    again; the game's table scrolled away under the chat, and someone deleted the lobby's
    message, so each is posted anew below. Without Send Messages that post is refused: whoever
    made the change hears which permission is missing, and the change is made all the same."""
    game, command, options, who, started, shown = CHANGES[change]
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, tmp_path / "perm.sqlite3") as bot:
            if started:
                table = await play.open_table(fd, CHANNEL, f"{game} new", players[0], players[1:])
                for n in range(6):  # the table scrolls away under the chat
                    await fd.post_user_message(players[n % 2], CHANNEL, f"chatter {n}")
            else:
                table = await (await fd.slash(players[0], CHANNEL, f"{game} new", {"gm_mode": True})).response_message()
                fd.fail("PATCH", rf"^/channels/\d+/messages/{table['id']}$", 404, 10008, times=None)
            await settle(fd)
            fd.deny(CHANNEL, "Send Messages")
            await settle(fd)
            before = len(fd.calls)
            it = await fd.slash(players[who], CHANNEL, command, options)
            await it.wait_response()
            await settle(fd)
            assert any(c["method"] == "POST" and c["status"] == 403 and c["path"].endswith("/messages")
                       for c in fd.calls[before:]), "the table was to be posted below"
            told = private(it)
            assert "could not post" in told and "**Send Messages**" in told, told
            assert shown in said(fd.message(table["id"]) or {}) + told, (said(fd.message(table["id"]) or {}), told)
        clean(fd, bot)
