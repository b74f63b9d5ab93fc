"""What a public bot meets besides honest play: lost permissions, forged and malformed clicks,
stale commands, hostile names. Each test goes through the real bot and the fake Discord, which
refuses what Discord refuses."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import actor, clean, is_table, live_table, said, settle
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake

CHANNEL = "games"


async def open_knucklebones(fd: FakeDiscord, players: list[FakeUser]) -> dict:
    return await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])


def moves(fd: FakeDiscord, message: dict) -> list[str]:
    return [b["custom_id"] for b in fd.buttons(message) if b["custom_id"].startswith("bn:act:")]


async def test_a_table_that_cannot_be_posted_never_stalls_the_game(tmp_path: Path) -> None:
    """An admin takes Send Messages away mid-game: the turn still passes, the old table shows
    the game as it stands (never a history line with no live table below it), the player who
    acted is told which permission is missing, and once it is back the next move posts the
    table anew, pinging whoever must act."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_knucklebones(fd, players)
            first = actor(table, players)
            fd.channel(CHANNEL).bot_forbidden = True
            told = None
            for _ in range(30):  # the first player's decisions, to the one that ends their turn
                it = await fd.click(first, table, moves(fd, table)[-1])
                assert (await it.wait_response())["type"] == 7
                await settle(fd)
                table = fd.message(table["id"])
                told = next((m for m in it.followups if "could not post" in (m.get("content") or "")), None)
                if told is not None:
                    break
            assert told is not None, "nobody was told the table could not be posted"
            assert told["flags"] & 64 and "**Send Messages**" in told["content"]
            # the game did not stall: the same message is the live table, for the next player
            assert live_table(fd, CHANNEL)["id"] == table["id"] and moves(fd, table)
            second = actor(table, players)
            assert second is not first
            fd.channel(CHANNEL).bot_forbidden = False
            since = len(fd.calls)
            it = await fd.click(second, table, moves(fd, table)[0])
            assert (await it.wait_response())["type"] == 7
            await settle(fd)
            fresh = live_table(fd, CHANNEL)
            assert fresh is not None and fresh["id"] != table["id"], "the table was not posted again"
            assert not is_table(fd.message(table["id"]) or {})  # the old one shrank, once the new was out
            pinged = [c for c in fd.calls[since:] if c["method"] == "POST" and c["path"].endswith("/messages")]
            assert pinged, "no new message pinged the player"
        clean(fd, bot)


async def test_forged_and_malformed_clicks_are_answered_and_change_nothing(tmp_path: Path) -> None:
    """Unknown, cut, upper-case and 100-character ids, a select value never offered, a game id
    past any database integer: each gets one private line, and the table stays as it was."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_knucklebones(fd, players)
            first = actor(table, players)
            real = moves(fd, table)[0]
            game = real.split(":")[2]
            forged = ["bn:act", real.upper(), "x" * 100, "bn:wat:1", f"bn:info:{2 ** 63}",
                      f"bn:lobby:{game}:explode", f"bn:act:{game}:s0:1:{10 ** 30}"]
            for custom_id in forged:  # on the message as drawn, and carried by a forged message
                answer = await (await fd.forge(first, table, custom_id)).wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & 64, (custom_id, answer)
                answer = await (await fd.forge(first, table, custom_id, carried=True)).wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & 64, (custom_id, answer)
                assert answer["data"]["content"], custom_id
            menu = f"bn:pick:{game}:s{players.index(first)}:{real.split(':')[4]}"
            answer = await (await fd.forge(first, table, menu, values=["²"], carried=True)).wait_response()
            assert answer["type"] == 4 and "not available" in answer["data"]["content"]
            await settle(fd)
            assert fd.message(table["id"])["components"] == table["components"]
        clean(fd, bot)


async def test_a_button_acts_only_on_the_game_of_its_own_channel(tmp_path: Path) -> None:
    """An id naming another channel's game, pressed by someone who may manage this channel,
    ends nothing and moves nothing there; this channel's table keeps its buttons."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        fd.add_channel("other")
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            here = await open_knucklebones(fd, players)
            there = await play.open_table(fd, "other", "knucklebones new", players[1], [players[0]])
            there_game = moves(fd, there)[0].split(":")[2]
            fd.set_manager(players[0], True)
            for custom_id in (f"bn:end:{there_game}", moves(fd, there)[0]):
                answer = await (await fd.forge(players[0], here, custom_id, carried=True)).wait_response()
                assert answer["type"] == 4 and "somewhere else" in answer["data"]["content"], answer
            await settle(fd)
            assert moves(fd, fd.message(here["id"])) and moves(fd, fd.message(there["id"]))
            assert live_table(fd, "other")["id"] == there["id"]
        clean(fd, bot)


async def test_stale_commands_and_options_out_of_range_get_a_refusal(tmp_path: Path) -> None:
    """What a stale or modified client sends to commands: a command the bot no longer has, a
    word where a number belongs, numbers outside the declared range. Each is refused in one
    private line, nothing is stored, and the bot logs no error."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            answer = await (await fd.forge_command(players[0], CHANNEL, "knucklebonez")).wait_response()
            assert answer["data"]["flags"] & 64 and "command" in answer["data"]["content"]
            for options in ([{"name": "min_active", "type": 4, "value": 99}],
                            [{"name": "min_active", "type": 4, "value": "many"}]):
                it = await fd.slash(players[0], CHANNEL, "knucklebones new", options)
                answer = await it.wait_response()
                assert answer["data"]["flags"] & 64 and "Sorry" not in answer["data"]["content"], answer
            refused: list[str] = []
            for options in ([{"name": "dice_set", "type": 3, "value": "d1000"}],
                            [{"name": "max_rounds", "type": 4, "value": 0}]):
                it = await fd.slash(players[0], CHANNEL, "roll-the-bones new", options)
                answer = await it.wait_response()
                assert answer["data"]["flags"] & 64 and "Sorry" not in answer["data"]["content"], answer
                refused.append(answer["data"]["content"])
            # in a player's words: the option as the command names it and what it takes
            assert refused[0] == "That option is not allowed here: `dice_set` must be one of: mixed, all_d6.", refused
            assert "`max_rounds` must be at least" in refused[1] and "Input should" not in refused[1], refused
            assert live_table(fd, CHANNEL) is None
            await open_knucklebones(fd, players)
            it = await fd.slash(players[0], CHANNEL, "game timer", [{"name": "seconds", "type": 4, "value": -5}])
            answer = await it.wait_response()
            assert answer["data"]["flags"] & 64 and "15 to 86400" in answer["data"]["content"], answer
        clean(fd, bot)


async def test_a_doubled_delivery_is_applied_once_and_answered_quietly(tmp_path: Path) -> None:
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "kb.sqlite3") as bot:
            table = await open_knucklebones(fd, players)
            it = await fd.click(actor(table, players), table, moves(fd, table)[0])
            assert (await it.wait_response())["type"] == 7
            await fd.deliver_again(it)
            await settle(fd, quiet=0.5)
            log = await (await fd.slash(players[0], CHANNEL, "game log")).response_message()
            assert said(log).count("·") >= 1
            entries = await bot_log_moves(tmp_path / "kb.sqlite3")
            assert entries == 1, entries
        clean(fd, bot)


async def bot_log_moves(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


#: display names that would turn into a link, bold text, a spoiler, a heading, a mention
HOSTILE = ["[click](http://evil.example/x)", "**Bo**||b|| <@1> # hi"]
GAMES = ["knucklebones", "roll-the-bones", "stones-and-bones", "bare-bones", "rattlebones"]


def shown_text(message: dict) -> str:
    """Every text of a message that Discord renders as markdown."""
    return said(message)


def read_plainly(text: str) -> None:
    """A hostile name shows as typed: no masked or bare link, no formatting, no mention."""
    assert not re.search(r"(?<!\\)\[[^\]]*\]\(", text), text  # a masked link, unescaped
    assert "://evil" not in text, text
    assert "**Bo**" not in text and "||b||" not in text and "<@1>" not in text, text
    assert "\n# hi" not in text, text


async def test_hostile_names_read_as_typed_in_every_message_of_every_game(tmp_path: Path) -> None:
    """Players whose display names are markdown, a link and a mention open, join and play
    every game: the lobby, the tables, history lines, DMs and refusals show the names as typed."""
    async with running_fake() as fd:
        players = [fd.add_user(f"p{n}", display=name) for n, name in enumerate(HOSTILE)]
        for game in GAMES:
            fd.add_channel(game)
        async with running_bot(fd, {}, tmp_path / "names.sqlite3") as bot:
            for game in GAMES:
                await play.open_table(fd, game, f"{game} new", players[0], players[1:], first=_any_table)
                for _ in range(6):  # a few moves on the table, by whoever it asks
                    table = live_table(fd, game)
                    options = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                    if not options:
                        break
                    it = await fd.click(actor(table, players), table, options[0])
                    await it.wait_response()
                    await settle(fd)
                stranger_refusal = await (await fd.slash(players[1], game, "game end")).wait_response()
                read_plainly(stranger_refusal["data"].get("content") or "")
            # Knucklebones to its end, for the standings, and Details and My hand on the way
            for _ in range(200):
                table = live_table(fd, "knucklebones")
                options = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                if not options:
                    break
                await (await fd.click(actor(table, players), table, options[-1])).wait_response()
                await settle(fd)
            assert "Final standings" in shown_text(live_table(fd, "knucklebones"))
            details = await fd.click(players[0], live_table(fd, "knucklebones"),
                                     next(b["custom_id"] for b in fd.buttons(live_table(fd, "knucklebones"))
                                          if b["custom_id"].startswith("bn:info:")))
            read_plainly(shown_text(await details.response_message()))
            await settle(fd)
            seen = [m for game in GAMES for m in fd.messages(game)]
            seen += [m for p in players for m in fd.dm_messages(p)]
            assert len(seen) >= 15
            for message in seen:
                read_plainly(shown_text(message))
            # the names are there, escaped rather than dropped
            assert any("\\*\\*Bo\\*\\*" in shown_text(m) for m in seen)
        clean(fd, bot)


async def _any_table(fd: FakeDiscord, channel: str) -> dict:
    """The game's first table, whatever it offers (a busy machine may post it well after the
    Start click is answered)."""
    table = await fd.wait_until(lambda: live_table(fd, channel), 10, what="the first table")
    await settle(fd)
    return live_table(fd, channel) or table


def string_commands(fd: FakeDiscord) -> list[tuple[str, list[dict], list[dict]]]:
    """(command path, its string options, its other required options) of every synced command
    that takes text."""
    found = []

    def walk(path: str, options: list[dict]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])
        if not subs:
            texts = [o for o in options if o["type"] == 3 and not o.get("choices") and not o.get("autocomplete")]
            others = [o for o in options if o.get("required") and o not in texts]
            if texts:
                found.append((path, texts, others))

    for scope in fd.commands.values():
        for command in scope:
            if command.get("type", 1) == 1:
                walk(command["name"], command.get("options") or [])
    return found


async def test_every_text_option_at_its_longest_gets_an_answer_that_fits(tmp_path: Path) -> None:
    """Each text option of every command, sent at the longest the command declares (Discord's
    6,000 characters where it declares none), with words the bot cannot know: every answer
    arrives, fits Discord's limits (the fake refuses what Discord refuses), and no error is
    logged. A lobby is open, so the lobby commands have something to act on."""
    async with running_fake() as fd:
        players = [fd.add_user(n) for n in ("ann", "bob")]
        async with running_bot(fd, {}, tmp_path / "long.sqlite3") as bot:
            await (await fd.slash(players[0], CHANNEL, "stones-and-bones new", {"gm_mode": True})).wait_response()
            commands = string_commands(fd)
            assert len(commands) >= 8, [c for c, _, _ in commands]
            for path, texts, others in commands:
                if others:  # a required option that is not text: typed by the schema, as a client would
                    continue
                for option in texts:
                    longest = option.get("max_length", 6000)
                    value = ("zq " * longest)[:longest]
                    it = await fd.slash(players[0], CHANNEL, path, [{"name": option["name"], "type": 3, "value": value}])
                    answer = await it.wait_response(timeout=5)
                    assert answer["type"] in (4, 5), (path, option["name"], answer)
            # a refusal that quotes what was typed: 6,000 characters of spaces no board has
            it = await fd.slash(players[0], CHANNEL, "rattlebones new",
                                {"board": "custom", "custom_spaces": ("nowhere," * 750)[:6000]})
            answer = await it.wait_response()
            said = answer["data"]["content"]
            assert answer["data"]["flags"] & 64 and "don't make a board" in said and len(said) <= 400, said
            await settle(fd, quiet=0.5)
        clean(fd, bot)



async def test_npc_names_with_links_or_control_characters_are_refused(tmp_path: Path) -> None:
    async with running_fake() as fd:
        gm = fd.add_user("gm")
        async with running_bot(fd, {}, tmp_path / "npc.sqlite3") as bot:
            await (await fd.slash(gm, CHANNEL, "bare-bones new", {"gm_mode": True})).wait_response()
            for name in ("[x](http://evil.example)", "Ma\x00gs\u202e", "see http://evil.example", "<@&1>"):
                answer = await (await fd.slash(gm, CHANNEL, "bare-bones npc", {"name": name})).wait_response()
                assert answer["data"]["flags"] & 64 and "plain text" in answer["data"]["content"], (name, answer)
            answer = await (await fd.slash(gm, CHANNEL, "bare-bones npc", {"name": "Old Marrow"})).wait_response()
            assert "takes seat 1" in answer["data"]["content"]
        clean(fd, bot)


async def test_names_at_discords_length_limit_fit_every_message(tmp_path: Path) -> None:
    """Six players whose display names are 32 characters of markdown (each doubles when
    escaped): the lobby, the start line, refusals and tables all stay within Discord's limits,
    which the fake enforces, and the game plays to its end."""
    async with running_fake() as fd:
        players = [fd.add_user(f"p{n}", display=(f"*_~|[{n}]" * 8)[:32]) for n in range(6)]
        async with running_bot(fd, {}, tmp_path / "long.sqlite3") as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            current = actor(table, players)
            for other in players:
                if other is not current:
                    answer = await (await fd.click(other, table, moves(fd, table)[0])).wait_response()
                    assert answer["type"] == 4 and len(answer["data"]["content"]) <= 2000
            for _ in range(40):
                table = live_table(fd, CHANNEL)
                if not moves(fd, table):
                    break
                await (await fd.click(actor(table, players), table, moves(fd, table)[-1])).wait_response()
                await settle(fd)
        clean(fd, bot)
