"""/game nudge, end to end: whoever the table waits for is pinged again, with the table as the
newest message, at most once in a while and only at the bidding of someone at the table."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.channel import actor, button, is_table, next_table, pinged, said, top
from tests.e2e.test_knucklebones_e2e import CHANNEL, action_buttons, clean, open_table, table_now
from tests.fakediscord import FLAG_EPHEMERAL, running_bot, running_fake


async def test_a_nudge_pings_whoever_the_table_waits_for_once_in_five_minutes(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        dee, mo = fd.add_user("dee"), fd.add_user("mo", manager=True)
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "0"}, tmp_path / "n.sqlite3") as bot:
            table = await open_table(fd, ann, [bob])
            waited = actor(table, [ann, bob])
            other = bob if waited is ann else ann
            posted = len(fd.messages(CHANNEL))

            # an untimed table may wait on someone for good: a player pressing their buttons hears how to ping them
            theirs = await (await fd.click(other, table, action_buttons(fd, table)[0]["custom_id"])).wait_response()
            assert theirs["data"]["flags"] & FLAG_EPHEMERAL
            assert theirs["data"]["content"] == f"Not your turn: waiting for {waited.name.title()} (`/game nudge` pings them)."

            # the one the table waits for, and a stranger to the table, are refused, and nothing moves
            mine = await (await fd.slash(waited, CHANNEL, "game nudge")).wait_response()
            assert mine["data"]["flags"] & FLAG_EPHEMERAL and mine["data"]["content"] == "The table waits for you."
            stranger = await (await fd.slash(dee, CHANNEL, "game nudge")).wait_response()
            assert stranger["data"]["flags"] & FLAG_EPHEMERAL
            assert stranger["data"]["content"].startswith("Only the players, the host,"), stranger
            assert len(fd.messages(CHANNEL)) == posted and table_now(fd)["id"] == table["id"]

            # the other player nudges: the table comes back as the newest message and pings them
            since = len(fd.calls)
            done = await (await fd.slash(other, CHANNEL, "game nudge")).wait_response()
            assert done["data"]["flags"] & FLAG_EPHEMERAL
            assert done["data"]["content"] == f"Nudged {waited.name.title()}: the table comes below, as the newest message."
            fresh = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and is_table(m) and m["id"] != table["id"] and m,
                timeout=5, what="the nudged table below")
            assert f"👋 {other.name.title()} nudges <@{waited.id}>: the table waits for you." in top(fresh)
            assert actor(fresh, [ann, bob]) is waited and action_buttons(fd, fresh)
            assert pinged(fd, since, fd.channel(CHANNEL).id) == {waited.id}
            await fd.wait_until(lambda: not action_buttons(fd, fd.message(table["id"])),
                                timeout=3, what="the old table without its buttons")

            # another nudge within five minutes, even by whoever runs the table, is refused and pings nobody
            since, posted = len(fd.calls), len(fd.messages(CHANNEL))
            again = await (await fd.slash(mo, CHANNEL, "game nudge")).wait_response()
            assert again["data"]["flags"] & FLAG_EPHEMERAL
            assert again["data"]["content"].startswith("The table was nudged <t:"), again
            assert "another nudge can come <t:" in again["data"]["content"]
            assert len(fd.messages(CHANNEL)) == posted and pinged(fd, since, fd.channel(CHANNEL).id) == set()

            # the nudged table plays on as any other
            choice = action_buttons(fd, fresh)[-1]["custom_id"]
            pressed = await (await fd.click(waited, fresh, choice)).wait_response()
            assert pressed["type"] in (6, 7), pressed
        clean(fd, bot)


async def test_a_ready_lobby_nudges_its_host_and_a_paused_game_nobody(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        dee, mo = fd.add_user("dee"), fd.add_user("mo", manager=True)
        async with running_bot(fd, {}, tmp_path / "n.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            short = await (await fd.slash(mo, CHANNEL, "game nudge")).wait_response()
            assert short["data"]["content"] == ("The lobby needs 1 more player (or **Add AI**) before the host can "
                                                "start it."), short
            stranger = await (await fd.slash(dee, CHANNEL, "game nudge")).wait_response()
            assert stranger["data"]["content"].startswith("Only the players, the host,"), stranger
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            host = await (await fd.slash(ann, CHANNEL, "game nudge")).wait_response()
            assert host["data"]["content"] == "This is your lobby: press **Start** once everyone has joined."

            # enough players: Bob nudges the host, with the lobby as the newest message, its buttons there
            since = len(fd.calls)
            done = await (await fd.slash(bob, CHANNEL, "game nudge")).wait_response()
            assert done["data"]["content"] == "Nudged the host: the lobby comes below, as the newest message."
            fresh = await fd.wait_until(
                lambda: (m := fd.last_message(CHANNEL)) is not None and m["id"] != lobby["id"] and m,
                timeout=5, what="the lobby posted below")
            assert f"👋 Bob nudges <@{ann.id}>: 2 players are seated: press **Start** when you are ready." in said(fresh), said(fresh)
            assert pinged(fd, since, fd.channel(CHANNEL).id) == {ann.id}
            await fd.wait_until(lambda: said(fd.message(lobby["id"])) == "The lobby moved below.",
                                timeout=3, what="the old lobby to point below")
            started = await (await fd.click(ann, fresh, button(fd, fresh, "Start"))).wait_response()
            assert started["type"] == 7, started

            table = await next_table(fd, CHANNEL)
            other = bob if actor(table, [ann, bob]) is ann else ann
            await (await fd.slash(ann, CHANNEL, "game pause")).wait_response()
            paused = await (await fd.slash(other, CHANNEL, "game nudge")).wait_response()
            assert paused["data"]["content"] == "The game is paused: nobody can move until the host resumes it."
        clean(fd, bot)
