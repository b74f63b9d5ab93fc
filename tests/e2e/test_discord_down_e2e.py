"""Discord's servers failing a game's message for good (a 503, which discord.py does not retry,
or a 5xx that outlasts its retries): the move is stored all the same, the channel keeps a live
table that takes the next move, the player who acted hears what happened in one line, and the
next move or ``/game status`` posts the table anew, or the bot itself a few seconds later.
Nothing is logged as an error: it is Discord's outage, not a fault of ours."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import actor, clean, live_table, pinged, said, settle
from tests.e2e.fuzz import replays
from tests.e2e.refusals import (
    CHANNEL, comes_back, last_move, moves, press_until_a_new_table, private, still_playable,
)
from tests.fakediscord import FakeDiscord, FakeUser, Interaction, running_bot, running_fake

POSTS = r"^/channels/\d+/messages$"
#: the small Sealed Pick test game: its DM choices redraw the channel's table in place
SEALED = {"EXTRA_COGS": "tests.fixtures.sealed_game"}
#: the bot's own tries to post a refused table again, all within a second
QUICK = {"EXTRA_COGS": "tests.fixtures.quick_catch_up"}


def posts_failed(fd: FakeDiscord) -> int:
    return sum(1 for hit in fd.fault_hits if hit.method == "POST")


async def a_sealed_pick(fd: FakeDiscord, ann: FakeUser, bob: FakeUser) -> tuple[dict, dict | None]:
    """A Sealed Pick game started by ann with bob: ann's choice in her DM, and the table."""
    lobby = await (await fd.slash(ann, CHANNEL, "sealedpick new")).response_message()
    await (await fd.click(bob, lobby, play.button(fd, lobby, "Join"))).wait_response()
    await (await fd.click(ann, lobby, play.button(fd, lobby, "Start"))).wait_response()
    dm = await fd.wait_until(lambda: fd.dm_messages(ann) and fd.dm_messages(ann)[-1])
    await settle(fd)
    return dm, live_table(fd, CHANNEL)


async def a_post_refused_once(fd: FakeDiscord, players: list[FakeUser]) -> Interaction:
    """A Knucklebones table whose next new table Discord's servers fail (503): the press that
    wanted it, whose player heard it would be posted again shortly."""
    table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
    fd.fail("POST", POSTS, 503)
    posted = await press_until_a_new_table(fd, players, table)
    assert "I will post it again shortly" in private(posted), private(posted)
    return posted


async def test_a_table_discord_would_not_post_stays_playable_in_the_old_message(tmp_path: Path) -> None:
    """The new table's post fails (503) twice in a game: the clicked table, which the answer
    had already turned into a history line, shows the game again with its moves, and the
    player hears that Discord's servers failed. The next move posts it (the first time),
    ``/game status`` does (the second). Every move is stored once and the game ends."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            for by_move in (True, False):
                failed = posts_failed(fd)
                fd.fail("POST", POSTS, 503)
                posted = await press_until_a_new_table(fd, players, live_table(fd, CHANNEL) or table)
                assert posts_failed(fd) == failed + 1
                told = private(posted)
                assert "could not post" in told and "Discord's servers" in told and "up to date" in told, told
                history = said((await posted.wait_response())["data"])
                stuck = still_playable(fd, posted)
                table = await comes_back(fd, players, stuck, by_move=by_move, why="503")
                # the turn's line of history, which the redrawn table held back, is where it was to go
                # (a move also adds the line of the turn it made)
                assert said(fd.message(stuck["id"]) or {}).startswith(history), (history, fd.message(stuck["id"]))
            final = await play.play_to_end(fd, CHANNEL, last_move(fd, players), limit=200, quiet=0.1)
            assert "Final standings" in said(final)
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_a_table_edit_discord_would_not_take_is_posted_again_at_the_next_start(tmp_path: Path) -> None:
    """A sealed choice made in a DM redraws the channel's table in place; that edit fails
    (503). The choice counts, its player's answer goes through and nobody hears of an error;
    the table fell behind the game, so the next start posts it again, up to date (a press on
    it, or the next step, would too)."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, SEALED, db) as bot:
            dm, table = await a_sealed_pick(fd, ann, bob)
            assert table is not None and "chosen" not in said(table)
            fd.fail("PATCH", rf"^/channels/\d+/messages/{table['id']}$", 503)
            pick = await fd.click(ann, dm, play.button(fd, dm, "4"))
            assert (await pick.wait_response())["type"] == 7
            await settle(fd)
            assert [hit.method for hit in fd.fault_hits] == ["PATCH"], "the channel's table was to be edited"
            assert private(pick) == "", private(pick)
            assert "chosen" not in said(fd.message(table["id"]) or {})
        clean(fd, bot)
        async with running_bot(fd, SEALED, db) as bot:
            fresh = await fd.wait_until(lambda: (m := live_table(fd, CHANNEL)) and "chosen" in said(m) and m,
                                        timeout=10, what="the table posted again")
            assert fresh["id"] != table["id"]
            hand = await fd.click(bob, fresh, play.button(fd, fresh, "My hand"))
            private_copy = await hand.response_message()
            await (await fd.click(bob, private_copy, play.button(fd, private_copy, "2"))).wait_response()
            final = await fd.wait_until(lambda: (m := fd.messages(CHANNEL)[-1]) and "Final standings" in said(m)
                                        and m, what="the final table")
            assert f"<@{ann.id}> wins" in said(final), "ann's 4, chosen as the edit failed, counts"
        clean(fd, bot)



async def test_a_deleted_table_whose_new_post_fails_tells_the_chooser_and_comes_back(tmp_path: Path) -> None:
    """A sealed choice made in a DM redraws the channel's table, which someone deleted (10008):
    the table is posted anew instead, and that post fails (503). The chooser hears that it
    will be posted again shortly, and is not pointed at a table above that is gone; a few
    seconds later the bot posts it, up to date."""
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, SEALED, tmp_path / "down.sqlite3") as bot:
            dm, table = await a_sealed_pick(fd, ann, bob)
            assert table is not None
            fd.fail("PATCH", rf"^/channels/\d+/messages/{table['id']}$", 404, 10008, times=None)  # gone for good
            fd.fail("POST", POSTS, 503)
            pick = await fd.click(ann, dm, play.button(fd, dm, "4"))
            assert (await pick.wait_response())["type"] == 7
            await settle(fd)
            assert [hit.method for hit in fd.fault_hits] == ["PATCH", "POST", "PATCH"], "edited, posted, redrawn"
            told = private(pick)
            assert "could not post" in told and "I will post it again shortly" in told, told
            assert "above" not in told, told
            fresh = await fd.wait_until(lambda: (m := live_table(fd, CHANNEL)) and m["id"] != table["id"] and m,
                                        timeout=10, what="the table posted again")
            assert "chosen" in said(fresh), "the table comes back up to date"
        clean(fd, bot)


async def test_a_table_discord_would_not_post_is_posted_again_shortly_and_pings(tmp_path: Path) -> None:
    """The new table's post fails (503) and nobody moves: a few seconds later the bot posts it
    again by itself, pinging the player who must act (the old table, redrawn by an edit, could
    not), and the old one becomes the line of history the failed post had held back. The game
    then plays on to its end."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as bot:
            posted = await a_post_refused_once(fd, players)
            history = said((await posted.wait_response())["data"])  # what the answer made the old table
            stuck = still_playable(fd, posted)
            since = len(fd.calls)
            fresh = await fd.wait_until(lambda: (m := live_table(fd, CHANNEL)) and m["id"] != stuck["id"] and m,
                                        timeout=10, what="the table posted again")
            await settle(fd)
            assert pinged(fd, since, fd.channel(CHANNEL).id) == {actor(fresh, players).id}
            assert said(fd.message(stuck["id"]) or {}) == history, "the old table shows its turn's line of history"
            assert fd.attachments(fresh), "the table comes back with its picture"
            final = await play.play_to_end(fd, CHANNEL, last_move(fd, players), limit=200, quiet=0.1)
            assert "Final standings" in said(final)
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_a_table_refused_again_when_posted_again_tells_whoever_moved(tmp_path: Path) -> None:
    """The new table's post fails (503), and before the bot posts it again an admin takes Send
    Messages away: that second post is refused too, and the player whose move it was, told
    first that it would be posted again shortly, now hears which permission is missing, once.
    Waiting does not mend a permission, so that try is the last (each further one would tell
    the same again). Once it is granted, the next move posts the table."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, QUICK, db) as bot:
            posted = await a_post_refused_once(fd, players)
            assert "Send Messages" not in private(posted)
            fd.deny(CHANNEL, "Send Messages")
            stuck = still_playable(fd, posted)
            await fd.wait_until(lambda: "**Send Messages**" in private(posted), timeout=10,
                                what="the mover told that the table could not be posted again")
            assert "**Embed Links**" not in private(posted), "only what the channel took is named"
            await asyncio.sleep(1.0)  # the two tries that would have followed
            await settle(fd)
            refused = [c for c in fd.calls if c["method"] == "POST" and c["path"].endswith("/messages")
                       and c["status"] == 403]
            assert len(refused) == 1, "posted again once, by the bot itself, and refused; no try after it"
            assert private(posted).count("**Send Messages**") == 1
            fd.grant(CHANNEL)
            await settle(fd)
            await comes_back(fd, players, live_table(fd, CHANNEL) or stuck, by_move=True, why="Send Messages")
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_a_table_discord_keeps_refusing_is_left_to_the_next_move_after_the_bots_tries(tmp_path: Path) -> None:
    """Discord's servers fail every new table for a while: the bot's own tries to post it
    again are refused too. The player whose move it was hears it once as it happens (it will
    be posted again shortly) and once more when the last try has failed (the next move or
    `/game status` posts it), not at every try; the old table, redrawn once, plays on, and once
    Discord takes posts again the next move posts the table."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, QUICK, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            fd.fail("POST", POSTS, 503, times=None)
            posted = await press_until_a_new_table(fd, players, table)
            await settle(fd)
            tries_began = len(fd.calls)
            await fd.wait_until(lambda: posts_failed(fd) == 4, timeout=10, what="the bot's three tries")
            await settle(fd)
            # the pressed table was redrawn with the game as the post failed: the tries leave it be
            assert [c["path"] for c in fd.calls[tries_began:] if c["method"] == "PATCH"] == []
            told = [line for line in private(posted).splitlines() if line.startswith("I could not post")]
            assert len(told) == 2, told
            assert "I will post it again shortly" in told[0]
            assert "shortly" not in told[1] and "The next move or `/game status` posts it again." in told[1]
            assert "The table above is up to date" in told[1]
            fd.clear_faults()
            stuck = still_playable(fd, posted)
            await comes_back(fd, players, stuck, by_move=True, why="Discord taking posts again")
            assert posts_failed(fd) == 4, "no try after the last"
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []


async def test_a_move_whose_answer_discord_keeps_failing_is_shown_within_seconds(tmp_path: Path) -> None:
    """Discord's servers answer a click's answer with 503s for as long as it is tried. Past
    Discord's three seconds it can only fail, so it is given up then, not after discord.py's
    retries (1, 3, 5 and 7 s apart, half a minute of a real outage): the move shows in the
    clicked table through the channel within seconds, and the game's lock is free for the
    next click, which is answered as usual."""
    db = tmp_path / "down.sqlite3"
    async with running_fake() as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            before = said(table)
            fd.fail("POST", r"^/interactions/\d+/[^/]+/callback$", 503, times=None)
            began = time.monotonic()
            failed = await fd.click(actor(table, players), table, moves(fd, table)[-1])
            await fd.wait_until(lambda: said(fd.message(table["id"]) or {}) != before, timeout=12,
                                what="the move shown in the clicked table")
            shown_after = time.monotonic() - began
            assert 2.5 < shown_after < 6, f"the answer was tried for {shown_after:.1f} s"
            callbacks = [hit for hit in fd.fault_hits if "/callback" in hit.path]
            assert 2 <= len(callbacks) <= 3, "tried again within the three seconds, then given up"
            fd.clear_faults()
            await settle(fd)
            now = live_table(fd, CHANNEL)
            assert now is not None and moves(fd, now), "the game goes on from the table it shows"
            began = time.monotonic()
            it = await fd.click(actor(now, players), now, moves(fd, now)[0])
            assert (await it.wait_response())["type"] == 7
            assert time.monotonic() - began < 1.5, "the game's lock was not held by the failed answer"
            final = await play.play_to_end(fd, CHANNEL, last_move(fd, players), limit=200, quiet=0.1)
            assert "Final standings" in said(final)
        # Discord told that one player "This interaction failed": its servers' doing, not ours
        assert [v.kind for v in fd.violations] == ["unanswered"], fd.violations
        assert fd.violations[0].interaction_id == failed.id
        fd.violations.clear()
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []
