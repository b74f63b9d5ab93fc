"""A server set up from Discord: /boneyard settings, and a GM role whose members steer any
table of the server as its host would; every game's tavern mode."""

from __future__ import annotations

from pathlib import Path

from tests.e2e import play
from tests.e2e.channel import walk, button, clean, is_layout, lobby_seats, settle, said, top
from tests.fakediscord import FLAG_EPHEMERAL, running_bot, running_fake

CHANNEL = "tavern"


async def settings(fd, user, **options):  # noqa: ANN001, ANN003, ANN201
    return (await (await fd.slash(user, CHANNEL, "boneyard settings", options)).wait_response())["data"]


async def test_only_manage_server_changes_settings_and_every_refusal_says_why(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL, "elsewhere")) as fd:
        admin, ann = fd.add_user("owner", admin=True), fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "s.sqlite3") as bot:
            refused = await settings(fd, ann, pictures=False)
            assert refused["flags"] & FLAG_EPHEMERAL and "Manage Server" in refused["content"]
            shown = await settings(fd, admin)
            assert "Games: all" in shown["content"] and "Pictures: on" in shown["content"]
            for options, words in (({"default_timer": 5}, "15 seconds or more"),
                                   ({"games": "chess"}, "No game is called"),
                                   ({"gm_role": fd.guild_id}, "@everyone cannot be the GM role")):
                answer = await settings(fd, admin, **options)
                assert answer["flags"] & FLAG_EPHEMERAL and words in answer["content"], answer
            saved = await settings(fd, admin, games="knucklebones, bone-duel", add_channel=CHANNEL,
                                   pictures=False, default_timer=60)
            assert saved["content"].startswith("Saved.") and "Games: Bone Duel, Knucklebones" in saved["content"]
            # the games setting refuses another game, saying which setting and who changes it
            other = (await (await fd.slash(ann, CHANNEL, "bare-bones new")).wait_response())["data"]
            assert other["flags"] & FLAG_EPHEMERAL and "**games** setting" in other["content"]
            assert "Manage Server" in other["content"]
            # the channels setting refuses another channel
            away = (await (await fd.slash(ann, "elsewhere", "knucklebones new")).wait_response())["data"]
            assert "**channels** setting" in away["content"] and f"<#{fd.channel(CHANNEL).id}>" in away["content"]
            # pictures off and the server's timer: the table is words only, 60 s a decision
            bob = fd.add_user("bob")
            table = await play.open_table(fd, CHANNEL, "knucklebones new", ann, [bob])
            assert is_layout(table) and not fd.attachments(table)
            assert not [c for c in walk(table["components"]) if c.get("type") in (11, 12)]
            assert "1 min per move" in said(table)
            # and /roll too: words only
            rolled = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "2d6"})).response_message()
            assert not fd.attachments(rolled) and not [c for c in walk(rolled.get("components") or [])
                                                       if c.get("type") in (11, 12)]
        clean(fd, bot)


async def test_a_gm_steers_a_table_they_did_not_open(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL,)) as fd:
        admin = fd.add_user("owner", admin=True)
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        gm = fd.add_user("greta", gm=True)
        async with running_bot(fd, {}, tmp_path / "g.sqlite3") as bot:
            lobby = await (await fd.slash(ann, CHANNEL, "knucklebones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            # before the server names its GM role, Greta is nobody special here
            refused = await (await fd.click(gm, lobby, button(fd, lobby, "Add AI"))).wait_response()
            assert refused["type"] == 4 and "Only the host or a GM" in refused["data"]["content"]
            assert (await settings(fd, admin, gm_role=fd.gm_role_id))["content"].startswith("Saved.")
            await (await fd.click(gm, lobby, button(fd, lobby, "Add AI"))).wait_response()
            unseat = await (await fd.slash(gm, CHANNEL, "game unseat", {"seat": "Bot 1"})).wait_response()
            assert "no longer has a seat" in unseat["data"]["content"]
            await fd.wait_until(lambda: lobby_seats(fd.message(lobby["id"]) or {}) == ["1. Ann (host)", "2. Bob"],
                                timeout=3, what="the GM's changes to the seats")
            start = await fd.click(gm, lobby, button(fd, lobby, "Start"))
            assert (await start.wait_response())["type"] == 7
            await settle(fd)
            timer = await (await fd.slash(gm, CHANNEL, "game timer", {"seconds": 90})).wait_response()
            assert timer["data"]["content"] == "Turn timer: 90 seconds per decision."
            paused = await (await fd.slash(gm, CHANNEL, "game pause")).wait_response()
            assert "paused" in (paused["data"].get("content") or said(paused["data"]))
            await (await fd.slash(gm, CHANNEL, "game resume")).wait_response()
            # a plain player still may not
            nope = await (await fd.slash(bob, CHANNEL, "game pause")).wait_response()
            assert "Only the host, a GM" in nope["data"]["content"]
            end = await (await fd.slash(gm, CHANNEL, "game end")).wait_response()
            assert end["data"]["flags"] & FLAG_EPHEMERAL and fd.buttons(end["data"])  # the confirmation
        clean(fd, bot)


async def test_every_game_runs_in_tavern_mode_with_npcs(tmp_path: Path) -> None:
    """A game-master opens each game without taking a seat and seats two NPCs: the bot plays them
    and the game starts with nobody asking the game-master anything."""
    games = ["knucklebones", "roll-the-bones", "stones-and-bones", "bare-bones", "rattlebones", "bone-duel"]
    async with running_fake(channels=tuple(games)) as fd:
        gm = fd.add_user("greta")
        async with running_bot(fd, {}, tmp_path / "t.sqlite3") as bot:
            for game in games:
                lobby = await (await fd.slash(gm, game, f"{game} new", {"gm_mode": True})).response_message()
                assert lobby_seats(lobby) == ["Nobody yet."], (game, said(lobby))
                assert "runs this table and takes no seat" in said(lobby)
                for name in ("Old Marrow", "Salt Nell"):
                    seated = await (await fd.slash(gm, game, f"{game} npc", {"name": name})).wait_response()
                    assert f"{name} takes seat" in seated["data"]["content"], (game, seated)
                await fd.wait_until(lambda g=game, m=lobby: len(lobby_seats(fd.message(m["id"]) or {})) == 2,
                                    timeout=3, what=f"two NPCs at {game}")
                start = await fd.click(gm, lobby, button(fd, lobby, "Start"))
                assert (await start.wait_response())["type"] == 7, game
                await settle(fd)
                assert f"<@{gm.id}>" not in "".join(top(m) for m in fd.messages(game)[1:]), game
        clean(fd, bot)


async def test_games_stay_in_servers_while_the_dice_go_with_their_player(tmp_path: Path) -> None:
    async with running_fake(channels=(CHANNEL,)) as fd:
        async with running_bot(fd, {}, tmp_path / "c.sqlite3"):
            synced = [c for c in fd.calls if c["method"] == "PUT" and c["path"].endswith("/commands")][-1]["json"]
        reach = {c["name"]: (c.get("contexts"), c.get("integration_types")) for c in synced}
        for name in ("game", "boneyard", "knucklebones", "roll-the-bones", "stones-and-bones", "bare-bones",
                     "rattlebones", "bone-duel"):
            assert reach[name] == ([0], [0]), (name, reach[name])  # a server's, installed by a server
        for name in ("roll", "roll-bones", "rolls"):
            assert reach[name] == ([0, 1, 2], [0, 1]), (name, reach[name])
