"""Smoke tests of the fake Discord itself, so end-to-end failures can be trusted to be the bot's.

1. The unchanged discord.py library (tests/fakediscord/minibot.py, a subprocess) logs in,
   connects, syncs and answers every kind of interaction the real bot uses; a SIGKILLed process is
   replaced by a second one that keeps answering (persistent views included), and a gateway
   RECONNECT is resumed.
2. The fake enforces Discord's rules (3-second window, double ack, token expiry, unknown routes)
   when spoken to directly over HTTP/websocket, without a bot.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.fakediscord import FLAG_EPHEMERAL, FLAG_LOADING, MANAGE_CHANNELS, BotProcess, FakeDiscord, running_fake

MINIBOT = [sys.executable, str(Path(__file__).parent / "fakediscord" / "minibot.py")]
#: The slow command's failure is the point of that check; everything else must be clean.
SLOW_EXPECTED = ("command 'slow'", "10062")


def _is_slow_failure(record: str) -> bool:
    return all(part in record for part in SLOW_EXPECTED)


@pytest.mark.asyncio
async def test_minibot_end_to_end(tmp_path: Path) -> None:
    async with running_fake() as fd:
        alice = fd.add_user("alice")
        bob = fd.add_user("bob", dms_closed=True)
        carol = fd.add_user("carol", manager=True)
        games = fd.channel("games")
        db = tmp_path / "mini.sqlite3"
        first = BotProcess(fd, {}, db, command=MINIBOT)
        second = BotProcess(fd, {}, db, command=MINIBOT)
        try:
            await first.start()
            assert fd.command_id("ping") and fd.command_id("game")

            # Started first so its 4 s overlap the rest of the checks.
            slow = await fd.slash(alice, games, "slow")

            # /ping: a channel message with a persistent button
            ping = await fd.slash(alice, games, "ping")
            assert (await ping.wait_response())["type"] == 4
            msg = await ping.response_message()
            assert msg["content"] == "pong 0" and msg in fd.messages(games)
            assert [b["custom_id"] for b in fd.buttons(msg)] == ["mini:count"]
            assert ping.latency is not None and ping.latency < 1.0
            assert ping.payload["member"]["permissions"] == str(fd.permissions_of(alice))
            assert not int(ping.payload["member"]["permissions"]) & MANAGE_CHANNELS

            # button -> type 7 edit of the same message, visible in the store
            click = await fd.click(bob, msg, "mini:count")
            assert (await click.wait_response())["type"] == 7
            edited = await click.response_message()
            assert edited["id"] == msg["id"] and edited["content"] == "pong 1"
            assert fd.message(msg["id"])["content"] == "pong 1" and edited["edited_timestamp"]

            # DM to an open user; ephemeral fallback for a closed one (never in the channel)
            ok = await fd.slash(alice, games, "dm")
            assert (await ok.response_message())["content"] == "sent you a DM"
            assert [m["content"] for m in fd.dm_messages(alice)] == ["psst, your hand"]
            closed = await fd.slash(bob, games, "dm")
            fallback = await closed.response_message()
            assert fallback["flags"] & FLAG_EPHEMERAL and "cannot DM" in fallback["content"]
            assert closed.ephemeral_messages == [fallback]
            assert fd.dm_messages(bob) == [] and all(m["id"] != fallback["id"] for m in fd.messages(games))

            # select -> ephemeral reply
            pick = await fd.slash(carol, games, "pick")
            picker = await pick.response_message()
            assert int(pick.payload["member"]["permissions"]) & MANAGE_CHANNELS
            chosen = await fd.select(carol, picker, "mini:pick", ["20"])
            assert (await chosen.response_message())["content"] == "picked d20"

            # modal round trip
            ask = await fd.slash(alice, games, "ask")
            assert (await ask.wait_response())["type"] == 9
            assert fd.modal_shown(alice, "mini:ask") is not None
            submitted = await fd.submit_modal(alice, games, "mini:ask", {"mini:answer": "High Rollers"})
            assert (await submitted.response_message())["content"] == "table: High Rollers"

            # thinking defer, then a followup with embed + file that fills the loading message
            think = await fd.slash(alice, games, "think")
            assert (await think.wait_response())["type"] == 5
            thought = await think.response_message()
            assert thought["content"] == "thought" and not thought["flags"] & FLAG_LOADING
            assert thought["embeds"][0]["title"] == "Roll"
            assert fd.attachments(thought) == [("roll.txt", b"d6=4\n")]

            # group/subcommand with typed options and a resolved member
            start = await fd.slash(alice, games, "game start", {"sides": "12", "who": bob})
            assert (await start.response_message())["content"] == "started d12 for Bob"

            # the slow handler answers after the 3 s window: rejected and recorded
            await fd.wait_until(lambda: any(v.kind == "late_callback" for v in fd.violations), 6.0)
            assert slow.response is None and slow.rejected_callbacks[0][0] == 404
            await first.wait_for_line("Ignoring exception in command 'slow'")

            # SIGKILL, then a new process connects and answers, old persistent button included
            first.kill()
            assert await first.wait() == -9
            await second.start()
            assert len(fd.identifies) == 2
            again = await fd.slash(alice, games, "ping")
            assert (await again.response_message())["content"] == "pong 0"
            old_click = await fd.click(alice, msg, "mini:count")
            assert (await old_click.response_message())["content"] == "pong 2"

            # op 7 RECONNECT: the client RESUMEs the same session and keeps answering
            await fd.request_reconnect()
            session = fd._current_session()
            assert session is not None
            await fd.wait_until(lambda: session.resumes == 1 and session.live, 5.0)
            after = await fd.slash(bob, games, "ping")
            assert (await after.response_message())["content"] == "pong 0"
            assert len(fd.identifies) == 2
        finally:
            await second.stop()
            await first.stop()

        assert fd.unknown_routes == []
        assert {v.kind for v in fd.violations} == {"late_callback", "unanswered"}
        assert all(v.interaction_id == slow.id for v in fd.violations)
        assert first.error_records(ignore=[]) and all(_is_slow_failure(r) for r in first.error_records())
        assert second.error_records() == []
        assert [m for m in fd.messages(games) if m["flags"] & FLAG_EPHEMERAL] == []


async def _gateway_client(fd: FakeDiscord, session: aiohttp.ClientSession,
                          intents: int = 0) -> tuple[aiohttp.ClientWebSocketResponse, list[dict]]:
    ws = await session.ws_connect(fd.gateway_url + "?v=10&encoding=json")
    hello = await ws.receive_json()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_json({"op": 1, "d": None})
    assert (await ws.receive_json())["op"] == 11
    await ws.send_json({"op": 2, "d": {"token": "x", "intents": intents, "properties": {}}})
    events = [await ws.receive_json(), await ws.receive_json()]
    return ws, events


async def _callback(http: aiohttp.ClientSession, fd: FakeDiscord, it: object, body: dict) -> tuple[int, dict]:
    url = f"{fd.api_base}/interactions/{it.id}/{it.token}/callback?with_response=1"  # type: ignore[attr-defined]
    async with http.post(url, json=body) as resp:
        assert resp.headers["Content-Type"] == "application/json"
        return resp.status, await resp.json()


@pytest.mark.asyncio
async def test_rules_without_a_bot() -> None:
    async with running_fake() as fd, aiohttp.ClientSession() as http:
        alice = fd.add_user("alice")
        fd.add_user("bob")
        ws, (ready, guild) = await _gateway_client(fd, http, intents=1 << 9)  # guild messages
        assert (ready["t"], guild["t"]) == ("READY", "GUILD_CREATE") and ready["s"] < guild["s"]
        assert ready["d"]["resume_gateway_url"] == fd.gateway_url
        g = guild["d"]
        assert g["member_count"] == len(g["members"]) == 3  # bot + alice + bob
        assert any(r["id"] == str(fd.guild_id) and r["name"] == "@everyone" for r in g["roles"])
        assert all("flags" in m and "roles" in m for m in g["members"])

        auth = {"Authorization": "Bot x"}
        put = f"{fd.api_base}/applications/{fd.application_id}/guilds/{fd.guild_id}/commands"
        async with http.put(put, json=[{"name": "roll", "description": "d", "type": 1}], headers=auth) as r:
            synced = await r.json()
        assert synced[0]["id"] == str(fd.command_id("roll"))

        # in time, then a duplicate initial response
        it = await fd.slash(alice, "general", "roll")
        event = await ws.receive_json()
        assert event["t"] == "INTERACTION_CREATE" and event["s"] == guild["s"] + 1
        assert event["d"]["data"]["id"] == synced[0]["id"]
        status, body = await _callback(http, fd, it, {"type": 4, "data": {"content": "hi"}})
        assert status == 200 and body["resource"]["message"]["content"] == "hi"
        assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
        created = await ws.receive_json()
        assert created["t"] == "MESSAGE_CREATE" and created["d"]["guild_id"] == str(fd.guild_id)
        status, body = await _callback(http, fd, it, {"type": 4, "data": {"content": "again"}})
        assert (status, body["code"]) == (400, 40060)

        # followup works while the token lives, 401 once it expired
        hook = f"{fd.api_base}/webhooks/{fd.application_id}/{it.token}"
        async with http.post(hook + "?wait=1", json={"content": "more", "flags": 64}) as r:
            assert r.status == 200 and (await r.json())["flags"] & FLAG_EPHEMERAL
        assert len(it.ephemeral_messages) == 1 and len(fd.messages("general")) == 1
        fd.expire(it)
        async with http.patch(hook + "/messages/@original", json={"content": "x"}) as r:
            assert (r.status, (await r.json())["code"]) == (401, 50027)

        # an answer that does not ask for the response back: 204, nothing to read, still posted
        quiet = await fd.slash(alice, "general", "roll")
        url = f"{fd.api_base}/interactions/{quiet.id}/{quiet.token}/callback"
        async with http.post(url, json={"type": 4, "data": {"content": "quiet"}}) as r:
            assert (r.status, await r.read()) == (204, b"")
        assert fd.messages("general")[-1]["content"] == "quiet"

        # late initial response
        late = await fd.slash(alice, "general", "roll")
        fd.expire(late, 3.5)
        status, body = await _callback(http, fd, late, {"type": 5})
        assert (status, body["code"]) == (404, 10062)

        # oversized content is refused like Discord would
        ok = await fd.slash(alice, "general", "roll")
        status, body = await _callback(http, fd, ok, {"type": 4, "data": {"content": "x" * 2001}})
        assert (status, body["code"]) == (400, 50035)

        # unknown route: 404 JSON, remembered
        async with http.get(f"{fd.api_base}/nope", headers=auth) as r:
            assert r.status == 404 and r.headers["Content-Type"] == "application/json"
            assert json.loads(await r.text())["code"] == 0
        assert fd.unknown_routes == ["GET /api/v10/nope"]

        assert [v.kind for v in fd.violations] == ["double_ack", "expired_token", "late_callback",
                                                   "invalid_form_body"]
        assert [r.status for r in fd.requests if "/callback" in r.path] == [200, 400, 204, 404, 400]
        await ws.close()


@pytest.mark.asyncio
async def test_without_the_guild_messages_intent_no_message_event_comes_and_a_click_names_the_newest() -> None:
    """As Discord does: a session that did not ask for servers' messages hears none of them;
    an interaction still names its channel's newest message."""
    async with running_fake() as fd, aiohttp.ClientSession() as http:
        alice = fd.add_user("alice")
        ws, _ = await _gateway_client(fd, http, intents=1)  # guilds only
        auth = {"Authorization": "Bot x"}
        put = f"{fd.api_base}/applications/{fd.application_id}/guilds/{fd.guild_id}/commands"
        async with http.put(put, json=[{"name": "roll", "description": "d", "type": 1}], headers=auth) as r:
            assert r.status == 200
        said = await fd.post_user_message(alice, "general", "hello")
        it = await fd.slash(alice, "general", "roll")
        event = await ws.receive_json()  # the next event is the interaction, not the message
        assert event["t"] == "INTERACTION_CREATE", event["t"]
        assert event["d"]["channel"]["last_message_id"] == str(said["id"]), event["d"]["channel"]
        await _callback(http, fd, it, {"type": 4, "data": {"content": "hi"}})
        assert fd.messages("general")[-1]["content"] == "hi"
        await ws.close()
