"""What a self-hosting admin relies on, through the real bot process: health and metrics a
supervisor and Prometheus can read, and a stop on SIGTERM that loses no click."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.models import Table
from tests.e2e import play
from tests.e2e.channel import actor, clean, live_table, settle, top
from tests.fakediscord import FakeDiscord, running_bot, running_fake
from tests.fakediscord.botproc import FAKE_TOKEN, BotProcess

CHANNEL = "hall"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def scrape(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as resp:
        return resp.status, await resp.text()


def figure(text: str, name: str, **labels: str) -> float:
    """One sample of the exposition text (0 when absent)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        if head.split("{")[0] != name:
            continue
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(value)
    return total


async def test_health_and_metrics_are_served_and_move_during_a_game(tmp_path: Path) -> None:
    port = free_port()
    async with running_fake(channels=(CHANNEL,)) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {"METRICS_PORT": str(port)}, tmp_path / "m.sqlite3") as bot:
            # ready as soon as every shard is connected and the store answers
            status, body = await scrape(port, "/healthz")
            assert status == 200 or (status == 503 and "not connected to Discord yet" in body), body
            for _ in range(50):
                status, body = await scrape(port, "/healthz")
                if status == 200:
                    break
                await asyncio.sleep(0.1)
            assert (status, body) == (200, "ok\n")
            _, before = await scrape(port, "/metrics")
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            for _ in range(3):
                who = actor(table, players)
                moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                await (await fd.click(who, table, moves[0])).wait_response()
                await settle(fd)
                table = live_table(fd, CHANNEL) or table
            stranger = fd.add_user("cy")
            refused = await (await fd.click(stranger, table, fd.buttons(table)[0]["custom_id"])).wait_response()
            assert refused["type"] == 4
            status, after = await scrape(port, "/metrics")
            assert status == 200
            assert figure(after, "boneyard_gateway_connected", shard="0") == 1
            assert figure(after, "boneyard_gateway_latency_seconds", shard="0") >= 0
            applied = figure(after, "boneyard_interactions_total", kind="component", outcome="applied")
            assert applied >= 3 + figure(before, "boneyard_interactions_total", kind="component", outcome="applied")
            assert figure(after, "boneyard_interactions_total", kind="component", outcome="refused") >= 1
            assert figure(after, "boneyard_interactions_total", kind="command", outcome="applied") >= 1
            assert figure(after, "boneyard_interaction_seconds_count", kind="component") >= 4
            # a click's answer asks nothing back (204); a command's answer reads its message (200)
            callbacks = sum(figure(after, "boneyard_rest_calls_total", route="/interactions/{id}/{token}/callback",
                                   status=status) for status in ("200", "204"))
            assert callbacks >= 5, [line for line in after.splitlines() if "rest_calls" in line][:5]
            assert figure(after, "boneyard_rest_calls_total", method="POST", route="/channels/{id}/messages") >= 1
            assert figure(after, "boneyard_store_query_seconds_count", op="save") >= 3
            assert figure(after, "boneyard_games", status="active") == 1
            assert figure(after, "boneyard_store_query_seconds_count", op="save") >= 3
            assert "boneyard_deadlines_due " in after and "boneyard_dms_refused_total" in after
            assert "boneyard_deadline_lateness_seconds_count" in after
            labels = re.findall(r"\{([^}]*)\}", after)
            assert not any(re.search(r"\d{15,}", found) for found in labels), "an id leaked into a metric label"
        clean(fd, bot)


class SlowPosts(FakeDiscord):
    """A new channel message takes a second to post, as it may when Discord is slow: a click's
    step is still being shown when the process is told to stop."""

    async def _r_send(self, request, m):  # noqa: ANN001, ANN202
        await asyncio.sleep(1.0)
        return await super()._r_send(request, m)


async def test_sigterm_mid_click_saves_and_shows_the_move_then_exits_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "stop.sqlite3"
    fd = SlowPosts()
    await fd.start()
    try:
        fd.add_channel(CHANNEL)
        players = [fd.add_user("ann"), fd.add_user("bob")]
        bot = await BotProcess(fd, {}, db).start()
        try:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            first = actor(table, players)
            for _ in range(20):  # to the decision that ends the first turn (it posts a new table)
                if any("Two Pairs" in (b["label"] or "") for b in fd.buttons(table)):
                    break
                moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                await (await fd.click(first, table, moves[-1])).wait_response()
                await settle(fd)
                table = live_table(fd, CHANNEL) or table
            with sqlite3.connect(db) as conn:
                version = conn.execute("SELECT version FROM games").fetchone()[0]
            scores = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
            click = await fd.click(first, table, scores[-1])
            assert (await click.wait_response())["type"] == 7  # answered; the new table is on its way
            assert bot.proc is not None
            bot.proc.send_signal(signal.SIGTERM)
            await asyncio.sleep(0.2)
            late = await fd.slash(players[1], CHANNEL, "game status")  # a command while it stops
            answer = await late.wait_response(timeout=5)
            assert answer["type"] == 4 and "restarting" in answer["data"]["content"], answer
            assert await bot.wait(timeout=15) == 0
            fresh = live_table(fd, CHANNEL)
            assert fresh is not None and fresh["id"] != table["id"], "the new table was never posted"
            assert actor(fresh, players) is not first and "<@" in top(fresh)
            with sqlite3.connect(db) as conn:
                assert conn.execute("SELECT version FROM games").fetchone()[0] == version + 1
            assert any("finishing the steps in flight" in line for line in bot.lines)
            assert bot.error_records() == []
        finally:
            await bot.stop()
    finally:
        await fd.stop()


async def test_json_logs_are_one_object_a_line_with_the_ids_and_no_secret(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL,)) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        env = {"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG"}
        async with running_bot(fd, env, tmp_path / "j.sqlite3") as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            stranger = fd.add_user("cy")
            await (await fd.click(stranger, table, fd.buttons(table)[0]["custom_id"])).wait_response()
            await settle(fd)
        lines = [json.loads(line) for line in bot.lines if line.strip()]
        assert lines and all({"time", "level", "logger", "message", "shard", "process"} <= set(x) for x in lines)
        assert any(x.get("interaction") and x.get("guild") for x in lines), "no line names its interaction"
        assert not any(FAKE_TOKEN in line for line in bot.lines)
        assert any(x["logger"].startswith("bot.") for x in lines) and any(x["logger"].startswith("discord.") for x in lines)
        # nor a click's interaction token (it answers for the bot for 15 minutes), which
        # discord.py's gateway, requests and follow-ups would write at DEBUG
        tokens = [it.token for it in fd.interactions]
        assert len(tokens) >= 3 and not any(token in line for line in bot.lines for token in tokens)
        assert not any("WebSocket Event" in x["message"] for x in lines)


async def test_no_log_line_shows_the_database_password(tmp_path: Path) -> None:
    """A PostgreSQL the bot cannot reach: it says so and stops, and the password in its URL is
    in no line, text or JSON."""
    for log_format in ("text", "json"):
        async with running_fake(channels=(CHANNEL,)) as fd:
            bot = BotProcess(fd, {"DATABASE_URL": f"postgresql://bone:{PASSWORD}@127.0.0.1:{free_port()}/games",
                                  "LOG_FORMAT": log_format, "LOG_LEVEL": "DEBUG"})
            try:
                await bot.start(timeout=20)
            except RuntimeError:
                pass  # it could not open the store and exited, as it should
            finally:
                await bot.stop()
            output = "\n".join(bot.lines)
            assert output, "the bot said nothing"
            assert PASSWORD not in output and FAKE_TOKEN not in output, output[-2000:]


PASSWORD = "s3cret-Pw-42"


async def clicks(fd: FakeDiscord, players: list, count: int) -> None:  # type: ignore[type-arg]
    """``count`` moves by whoever the table asks."""
    for _ in range(count):
        table = live_table(fd, CHANNEL)
        assert table is not None
        moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
        await (await fd.click(actor(table, players), table, moves[-1])).wait_response()
        await settle(fd)


def boneyard(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The admin command, as an admin runs it: its own process, settings from the environment."""
    clean_env = {k: v for k, v in os.environ.items()
                 if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "METRICS_PORT")}
    return subprocess.run([sys.executable, "-m", "bot", *args], env={**clean_env, **env}, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


async def test_a_backup_of_a_running_store_is_whole(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    async with running_fake(channels=(CHANNEL,)) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            # the bot keeps writing while the copy is taken
            clicking = asyncio.create_task(clicks(fd, players, 15))
            await asyncio.sleep(0.3)
            done = await asyncio.to_thread(boneyard, "backup", str(tmp_path / "copy.sqlite3"),
                                           env={"DATABASE_PATH": str(db)}, cwd=tmp_path)
            await clicking
            assert done.returncode == 0, done.stderr
            assert "integrity check: ok" in done.stdout
            assert table is not None
        clean(fd, bot)
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    again = boneyard("backup", str(tmp_path / "copy.sqlite3"), env={"DATABASE_PATH": str(db)}, cwd=tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr
    postgres = boneyard("backup", "x", env={"DATABASE_URL": "postgresql://bone@127.0.0.1:1/games"}, cwd=tmp_path)
    assert postgres.returncode == 2 and "pg_dump" in postgres.stderr
    # a DATABASE_PATH that is no database: one line, and no half copy left to block the next try
    (tmp_path / "notes.txt").write_text("not a database " * 100)
    wrong = boneyard("backup", str(tmp_path / "c2.sqlite3"), env={"DATABASE_PATH": str(tmp_path / "notes.txt")},
                     cwd=tmp_path)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr, wrong.stderr
    assert wrong.stderr.startswith(f"boneyard backup: could not copy {tmp_path / 'notes.txt'} (DATABASE_PATH)")
    assert not (tmp_path / "c2.sqlite3").exists()


async def test_doctor_names_each_problem_and_what_to_do(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL,)) as fd:
        discord = {"DISCORD_API_BASE": fd.api_base}

        async def doctor(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
            return await asyncio.to_thread(boneyard, "doctor", env={**discord, **env}, cwd=tmp_path)

        good = await doctor({"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "new.sqlite3")})
        assert good.returncode == 0 and "all in order" in good.stdout, good.stdout + good.stderr
        # a typo in .env is named with the setting it meant; another tool's line is left alone
        (tmp_path / ".env").write_text("METRIC_PORT=9100\nPOSTGRES_PASSWORD=x\n")
        typo = await doctor({"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "new.sqlite3")})
        assert typo.returncode == 0 and typo.stdout.splitlines() == [
            "✓ Settings, database and metrics port are all in order.",
            f"⚠ METRIC_PORT in {tmp_path.resolve() / '.env'} is no setting Boneyard reads (did you mean "
            "METRICS_PORT?)"], typo.stdout
        (tmp_path / ".env").unlink()
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            bad = await doctor({"DATABASE_URL": f"postgresql://bone:{PASSWORD}@127.0.0.1:{free_port()}/games",
                                "METRICS_PORT": str(port)})
        lines = bad.stdout.splitlines()
        assert bad.returncode == 1 and len(lines) == 3, bad.stdout
        assert "DISCORD_TOKEN is not set" in lines[0] and "developer portal" in lines[0]
        assert "cannot reach PostgreSQL" in lines[1] and "DATABASE_URL's host and port" in lines[1]
        assert f"METRICS_PORT {port}" in lines[2] and "taken" in lines[2]
        assert PASSWORD not in bad.stdout + bad.stderr
        shape = await doctor({"DISCORD_TOKEN": "not-a-token", "DATABASE_PATH": str(tmp_path / "n.sqlite3")})
        assert shape.returncode == 1 and "does not look like a bot token" in shape.stdout
        # a folder that is not there would stop the bot: not "all in order"; nor is a host that is no address
        gone = await doctor({"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "gone" / "b.sqlite3"),
                             "METRICS_PORT": str(free_port()), "METRICS_HOST": "no.such.host.invalid"})
        lines = gone.stdout.splitlines()
        assert gone.returncode == 1 and len(lines) == 2, gone.stdout
        assert "DATABASE_PATH" in lines[0] and "folder" in lines[0]
        assert "METRICS_HOST no.such.host.invalid is no address" in lines[1]
        # a token of the right shape that Discord refuses (reset since), or no Discord at all
        fine = {"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "new.sqlite3")}
        far = await doctor({**fine, "DISCORD_API_BASE": f"http://127.0.0.1:{free_port()}/api/v10"})
        assert far.returncode == 1 and far.stdout.startswith("✗ Discord cannot be reached"), far.stdout
        fd.fail("GET", r"^/users/@me$", 401, times=None)
        refused = await doctor(fine)
        assert refused.returncode == 1 and "Discord refused DISCORD_TOKEN" in refused.stdout, refused.stdout
        assert FAKE_TOKEN not in refused.stdout + refused.stderr


async def test_a_token_discord_refuses_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    """A token reset in the developer portal: the bot cannot log in, and another try cannot help."""
    async with running_fake(channels=(CHANNEL,)) as fd:
        fd.fail("GET", r"^/users/@me$", 401, times=None)
        code, lines = await stopped_at_start(fd, {}, tmp_path / "t.sqlite3")
        shown = "\n".join(lines)
        assert code == 2 and "boneyard: Discord refused the token (DISCORD_TOKEN)" in shown, shown[-2000:]
        assert "Traceback" not in shown and FAKE_TOKEN not in shown


async def stopped_at_start(fd: FakeDiscord, env: dict[str, str], db: Path) -> tuple[int, list[str]]:
    """A bot that exits before it is ready, as one that cannot start must: its code and lines."""
    bot = BotProcess(fd, env, db)
    try:
        await bot.start(timeout=20)
    except RuntimeError:
        pass  # it exited before it was ready
    code = await bot.wait(timeout=20)
    await bot.stop()
    return code, bot.lines


def test_a_bot_that_cannot_start_says_why_in_one_line(tmp_path: Path) -> None:
    """Whatever stops the bot at start-up, the admin reads one line saying what to do, never a
    traceback or a password; the exit code says whether trying again can help (1) or a setting
    must change first (2: boneyard-cluster then stops instead of starting it forever)."""
    closed = f"http://127.0.0.1:{free_port()}/api/v10"  # no Discord there
    token = {"DISCORD_TOKEN": FAKE_TOKEN, "DISCORD_API_BASE": closed}
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version=9999")
    cases = [
        ({"DATABASE_PATH": str(tmp_path / "no" / "such" / "folder.sqlite3")}, 2, "DATABASE_PATH"),
        ({"DATABASE_PATH": str(newer)}, 2, "newer than this Boneyard knows"),
        ({"DATABASE_URL": f"postgresql://bone:{PASSWORD}/x@127.0.0.1/games"}, 2, "percent-encode"),
        # an unescaped "@" and "/" in the password: what follows is no host, and is never shown
        ({"DATABASE_URL": "postgresql://bone:pa@ss/word@127.0.0.1/games"}, 2, "percent-encode"),
        ({"DATABASE_URL": "postgresql://bone:hunter@2secret:x9@127.0.0.1:5432/games"}, 2, "percent-encode"),
        ({"DATABASE_URL": f"sqlite:///{tmp_path / 'no' / 'such.sqlite3'}"}, 2, "(DATABASE_URL)"),
        ({"DEV_GUILD_ID": "-5", "DATABASE_PATH": str(tmp_path / "fine.sqlite3")}, 2, "Copy Server ID"),
        ({"DATABASE_URL": f"postgresql://bone:{PASSWORD}@127.0.0.1:{free_port()}/games"}, 1, "cannot reach PostgreSQL"),
        ({"DATABASE_PATH": str(tmp_path / "fine.sqlite3")}, 1, "cannot reach Discord"),
    ]
    for env, code, said in cases:
        done = boneyard(env={**token, **env}, cwd=tmp_path)
        shown = done.stdout + done.stderr
        assert done.returncode == code, (env, shown)
        last = shown.strip().splitlines()[-1]
        assert last.startswith("boneyard: cannot start: ") and said in last, (env, shown)
        assert "Traceback" not in shown and PASSWORD not in shown and "x@127" not in shown, shown
        assert "ss/word" not in shown and "pa@ss" not in shown, shown


async def test_a_metrics_port_taken_or_a_missing_cog_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    """Past Discord's door, at the bot's setup: a port another service holds, a module of
    EXTRA_COGS that is not there. Both need a setting changed: exit 2, one line."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for env, said in (({"METRICS_PORT": str(port)}, f"cannot serve metrics on 127.0.0.1:{port}"),
                          # blank is the default, this machine alone (not every interface)
                          ({"METRICS_PORT": str(port), "METRICS_HOST": ""}, f"metrics on 127.0.0.1:{port}"),
                          ({"EXTRA_COGS": "no_such_cogs.here"}, "EXTRA_COGS: no_such_cogs.here is no module"),
                          # a server the bot is not in (or an id that is no server's): not restarted forever
                          ({"DEV_GUILD_ID": "123456789012345678"}, "DEV_GUILD_ID 123456789012345678: the bot is "
                                                                   "not in that server")):
            async with running_fake(channels=(CHANNEL,)) as fd:
                code, lines = await stopped_at_start(fd, env, tmp_path / "s.sqlite3")
                shown = "\n".join(lines)
                assert code == 2, shown[-2000:]
                assert any(line.startswith("boneyard: cannot start: ") and said in line for line in lines), shown
                assert "Traceback" not in shown, shown[-3000:]


async def test_commands_tried_out_in_one_server_are_cleared_there_once_synced_globally(tmp_path: Path) -> None:
    """README: try Boneyard out with DEV_GUILD_ID, then unset it. The server's own copies go,
    or every command would show there twice beside the global ones; a server the bot has left
    is forgotten without a fuss."""
    db = tmp_path / "c.sqlite3"
    async with running_fake(channels=(CHANNEL,)) as fd:
        guild = fd.guild_id
        async with running_bot(fd, {}, db) as bot:  # DEV_GUILD_ID: the fake's server
            assert {c["name"] for c in fd.commands.get(guild, [])} >= {"game", "knucklebones"}
            assert not fd.commands.get(None)
        clean(fd, bot)
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, db) as bot:
            assert fd.commands.get(guild) == [] and {c["name"] for c in fd.commands[None]} >= {"game", "roll"}
            assert any("cleared the commands synced to server" in line for line in bot.lines)
        clean(fd, bot)
        # trying out again on a bot synced globally: it says the commands show twice there
        async with running_bot(fd, {}, db) as bot:
            await bot.wait_for_line("show twice in server")
        # a server it was tried out in and has since left: Discord refuses; forgotten, no error
        fd.fail("PUT", rf"^/applications/\d+/guilds/{guild}/commands$", 403, times=None)
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, db) as bot:
            pass
        assert bot.error_records() == [] and not any("WARNING" in line for line in bot.lines if "clear" in line)
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM command_guilds").fetchone()[0] == 0


def test_help_and_version_answer_without_running_anything(tmp_path: Path) -> None:
    """`--help` (of the bot, doctor or backup) is an answer on stdout, exit 0, and runs nothing;
    a word the bot does not know is an error; `--version` says which Boneyard this is."""
    for args in (["--help"], ["doctor", "--help"], ["backup", "-h"]):
        done = boneyard(*args, env={}, cwd=tmp_path)
        assert done.returncode == 0 and done.stdout.startswith("usage: boneyard ") and not done.stderr, args
        assert "boneyard-cluster" in done.stdout and "✗" not in done.stdout, done.stdout
    wrong = boneyard("nonsense", env={}, cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stderr.startswith("usage: boneyard ") and not wrong.stdout
    version = boneyard("--version", env={}, cwd=tmp_path)
    assert version.returncode == 0 and re.fullmatch(r"boneyard \d+\.\d+\.\d+\S*\n", version.stdout), version.stdout


async def test_doctor_finds_what_would_stop_the_bot_and_knows_the_bot_beside_it(tmp_path: Path) -> None:
    """A cog that is not installed and a server the bot is not in each stop the bot at start: the
    doctor names them. Run beside the bot, the port it serves and the file it holds are its own."""
    db = tmp_path / "live.sqlite3"
    async with running_fake(channels=(CHANNEL,)) as fd:
        fine = {"DISCORD_TOKEN": FAKE_TOKEN, "DISCORD_API_BASE": fd.api_base, "DATABASE_PATH": str(db)}

        async def doctor(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
            return await asyncio.to_thread(boneyard, "doctor", env={**fine, **env}, cwd=tmp_path)

        cog = await doctor({"EXTRA_COGS": "no_such_module"})
        assert cog.returncode == 1 and cog.stdout.splitlines() == [
            "✗ EXTRA_COGS: no_such_module is no module this Python can import (install it into the bot's .venv "
            "with pip, or put its folder on PYTHONPATH)"], cog.stdout
        elsewhere = await doctor({"DEV_GUILD_ID": "123456789012345678"})
        assert elsewhere.returncode == 1 and elsewhere.stdout.splitlines() == [
            "✗ DEV_GUILD_ID 123456789012345678 is no server this bot is in: invite it there (see the README), or "
            "unset DEV_GUILD_ID to sync the commands globally"], elsewhere.stdout
        home = await doctor({"DEV_GUILD_ID": str(fd.guild_id)})
        assert home.returncode == 0, home.stdout

        port = free_port()
        async with running_bot(fd, {"METRICS_PORT": str(port)}, db) as bot:
            beside = await doctor({"METRICS_PORT": str(port)})
            pid = bot.proc.pid
        clean(fd, bot)
        assert beside.returncode == 0, beside.stdout
        assert beside.stdout.splitlines() == [
            f"ℹ Another Boneyard (process {pid}) is running on the SQLite database {db} (METRICS_PORT {port} is "
            "its own): a second would not start beside it",
            "✓ Settings, database and metrics port are all in order."], beside.stdout


async def test_a_restore_puts_the_backup_in_place_whatever_the_store_left_beside_it(tmp_path: Path) -> None:
    """The store kept writing after its backup and stopped hard, leaving a -wal: copied over by
    hand, the backup would have that -wal replayed over it. `boneyard restore` refuses while a bot
    runs, refuses a backup that is not whole, and otherwise leaves exactly the backup's rows."""
    from bot.store import SqliteStore

    db = tmp_path / "boneyard.sqlite3"
    env = {"DATABASE_PATH": str(db)}
    store = await SqliteStore.open(db)
    for channel in range(3):
        await store.create(Table(guild_id=1, channel_id=channel + 1, game="knucklebones", host_id=7, seed=1))
    await store.close()
    saved = boneyard("backup", str(tmp_path / "backup.sqlite3"), env=env, cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    # then more games, and a hard stop with them in the -wal alone
    subprocess.run([sys.executable, "-c", f"""
import os, sqlite3
c = sqlite3.connect({str(db)!r}, isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("DELETE FROM games WHERE id=1")
c.executemany("INSERT INTO games (guild_id, channel_id, game, status, version, table_json, created_at, updated_at)"
              " VALUES (1, ?, 'knucklebones', 'finished', 0, '{{}}', 0, 0)", [(100 + n,) for n in range(300)])
os._exit(9)
"""], check=False)
    assert Path(f"{db}-wal").stat().st_size > 0

    async with running_fake(channels=(CHANNEL,)) as fd, running_bot(fd, {}, db) as bot:
        refused = await asyncio.to_thread(boneyard, "restore", str(tmp_path / "backup.sqlite3"), env=env,
                                          cwd=tmp_path)
        pid = bot.pid
    assert refused.returncode == 1 and refused.stderr.strip() == (
        f"boneyard restore: another Boneyard (process {pid}) is running on the SQLite database {db}: stop it "
        "first, then restore"), refused.stderr
    (tmp_path / "torn.sqlite3").write_bytes((tmp_path / "backup.sqlite3").read_bytes()[:5000])
    torn = boneyard("restore", str(tmp_path / "torn.sqlite3"), env=env, cwd=tmp_path)
    assert torn.returncode == 2 and "the store was left as it was" in torn.stderr, torn.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 302  # the store as it was

    subprocess.run([sys.executable, "-c", f"""
import os, sqlite3
c = sqlite3.connect({str(db)!r}, isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("UPDATE games SET version=version+1")
os._exit(9)
"""], check=False)
    done = boneyard("restore", str(tmp_path / "backup.sqlite3"), env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    kept = sorted(tmp_path.glob("boneyard.sqlite3.replaced-*"))
    assert len(kept) == 1 and done.stdout.strip() == (
        f"Restored 3 games from {tmp_path / 'backup.sqlite3'} to {db} (integrity check: ok). The store it "
        f"replaced is kept as {kept[0]}.")
    assert not Path(f"{db}-wal").exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert [r[0] for r in conn.execute("SELECT channel_id FROM games ORDER BY id")] == [1, 2, 3]
        assert conn.execute("SELECT MAX(version) FROM games").fetchone()[0] == 0
    with sqlite3.connect(kept[0]) as conn:  # what it replaced, -wal and all: the restore can be undone
        assert conn.execute("SELECT COUNT(*), MIN(version) FROM games").fetchone() == (302, 1)
    store = await SqliteStore.open(db, sole=True)  # and the bot opens it
    assert len(await store.game_counts()) >= 1
    await store.close()
