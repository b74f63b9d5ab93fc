"""/roll end to end: the real bot process against the fake Discord on 127.0.0.1.

Every test ends by checking that the fake saw no late or invalid answer, no unknown route, and
that the bot logged no ERROR.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules.stones_and_bones.reading import coins, read_bones
from tests.e2e.channel import said, settle, top
from tests.fakediscord import FLAG_EPHEMERAL, FakeDiscord, buttons, running_bot, running_fake

CHANNEL = "games"


def clean(fd: FakeDiscord, bot) -> None:  # noqa: ANN001
    assert fd.violations == [], fd.violations
    assert fd.unknown_routes == [], fd.unknown_routes
    assert bot.error_records() == [], bot.error_records()


def big_number(text: str) -> str:
    """The total in large type, without the mark a natural 20 or 1 adds after it."""
    found = re.search(r"^# (.+?)(?: ✨ Natural 20!| 💀 Natural 1!)?$", text, re.M)
    assert found, text
    return found.group(1)


def dice_in(breakdown: str) -> list[tuple[int, bool]]:
    """(value, kept) for each die inside the first `(...)` of a breakdown line. A die that does not
    count must say so twice: struck through, and in words."""
    inside = breakdown[breakdown.index("(") + 1: breakdown.index(")")]
    dice = []
    for item in inside.split(", "):
        struck = item.startswith("~~")
        assert struck == item.endswith("~~ dropped"), breakdown
        dice.append((int(re.sub(r"\D", "", item.removesuffix(" dropped"))), not struck))
    return dice


async def test_plain_private_and_bad_rolls(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            # Discord itself enforces the declared ranges
            [command] = [c for scope in fd.commands.values() for c in scope if c["name"] == "roll"]
            schema = {o["name"]: o for o in command["options"]}
            assert schema["expression"]["max_length"] == 500 and schema["expression"]["required"]
            assert (schema["repeat"]["min_value"], schema["repeat"]["max_value"]) == (1, 20)
            assert schema["secret_to"]["type"] == 6 and schema["private"]["type"] == 5

            # one roll: the total in large type and one small line, nothing else
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "4d6kh3 + 2 for strength"})
            msg = await it.response_message()
            assert not msg["flags"] & FLAG_EPHEMERAL and msg in fd.messages(CHANNEL)
            assert msg["embeds"] == []
            head, line = top(msg).splitlines()
            assert line.startswith("-# *for strength* · 4d6kh3 (") and line.endswith(") + 2")
            faces = dice_in(line)
            assert len(faces) == 4 and sum(kept for _, kept in faces) == 3
            kept = sorted(v for v, k in faces if k)
            assert min(kept) >= max([v for v, k in faces if not k])  # the lowest one was dropped
            assert head == f"# {sum(kept) + 2}"
            # the roller's own text never pings anyone
            assert it.response["data"]["allowed_mentions"] == {"parse": []}

            # ability scores: the six results lead, in order; their sum follows in small type
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "4d6kh3", "repeat": 6})
            lines = (await it.response_message())["content"].splitlines()
            rows = lines[2:]
            assert len(rows) == 6 and all(re.match(r"-# \*\*\d+\*\*: \(", row) for row in rows)
            scores = [sum(v for v, kept in dice_in(row) if kept) for row in rows]
            assert all(sum(not kept for _, kept in dice_in(row)) == 1 for row in rows)
            assert lines[0] == "# " + ", ".join(map(str, scores))
            assert lines[1] == f"-# 4d6kh3, 6 rolls · sum {sum(scores)}"

            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "5d10", "repeat": 3, "target": 8})
            lines = (await it.response_message())["content"].splitlines()
            counted = [sum(v >= 8 for v, _ in dice_in(row)) for row in lines[2:]]
            assert len(counted) == 3 and lines[0] == "# " + ", ".join(map(str, counted)) + " successes"
            assert f"{sum(counted)} success" + ("" if sum(counted) == 1 else "es") + " in all" in lines[1]

            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "d%"})
            assert 1 <= int(big_number(top(await it.response_message()))) <= 100

            before = len(fd.messages(CHANNEL))
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+5", "private": True})
            answer = await it.wait_response()
            assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL
            assert int(big_number(top(answer["data"]))) in range(6, 26)
            assert len(fd.messages(CHANNEL)) == before

            for bad, why in [("1d20+", "can't read"), ("1001d6", "limit is 1,000"), ("1d20/0", "divides by zero"),
                             ("1d100000", "10,000 sides"), ("1d1e1", "explodes on every face of a d1"),
                             ("-" * 400 + "1", "nested too deeply"), ("1d6 + 1.5 // 0", "divides by zero"),
                             ("*".join(["9" * 30 + ".9"] * 14), "too large")]:
                it = await fd.slash(ann, CHANNEL, "roll", {"expression": bad})
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, bad
                assert why in answer["data"]["content"] and "`4d6kh3`" in answer["data"]["content"], answer
                # what was typed is said back: Discord shows only "used /roll" above the answer
                typed = bad if len(bad) <= 60 else bad[:59] + "…"
                assert answer["data"]["content"].startswith(f"`{typed}`: "), answer
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "3d6", "fail": 1})
            assert "needs a `target`" in (await it.wait_response())["data"]["content"]
            # past the declared ranges: Discord's client (and so the fake) will not send them typed...
            for typed in ({"expression": "1d6", "repeat": 21}, {"expression": "1" * 501}):
                with pytest.raises(ValueError):
                    await fd.slash(ann, CHANNEL, "roll", typed)
            # ...but a raw request could, and the bot answers it too
            for raw, why in [([{"name": "expression", "type": 3, "value": "1+" * 250 + "1"}], "501 characters"),
                             ([{"name": "expression", "type": 3, "value": "1d6"},
                               {"name": "repeat", "type": 4, "value": 21}], "between 1 and 20"),
                             ([{"name": "expression", "type": 3, "value": "1d6"},
                               {"name": "repeat", "type": 4, "value": 0}], "between 1 and 20")]:
                it = await fd.slash(ann, CHANNEL, "roll", raw)
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, raw
                assert why in answer["data"]["content"] and "`4d6kh3`" in answer["data"]["content"], answer
            assert len(fd.messages(CHANNEL)) == before
        clean(fd, bot)


async def test_secret_roll_reaches_only_the_roller_and_the_gm(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, gm, cy = fd.add_user("ann"), fd.add_user("gm"), fd.add_user("cy")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "3d20 stealth", "secret_to": gm})
            notice = await it.response_message()
            assert not notice["flags"] & FLAG_EPHEMERAL
            assert "secret roll" in notice["content"] and "Ann" in notice["content"] and "Gm" in notice["content"]
            assert notice["embeds"] == []
            mine = await fd.wait_until(lambda: fd.dm_messages(ann) and fd.dm_messages(ann)[-1])
            theirs = await fd.wait_until(lambda: fd.dm_messages(gm) and fd.dm_messages(gm)[-1])
            assert top(mine) == top(theirs) and mine["embeds"] == []
            note, head, line = top(mine).splitlines()
            assert note == f"🤫 Secret roll by **Ann** for **Gm** in <#{fd.channel(CHANNEL).id}>"
            faces = dice_in(line)
            assert len(faces) == 3 and int(big_number(head)) == sum(v for v, _ in faces)
            assert line.startswith("-# *stealth* · 3d20 (")
            assert fd.dm_messages(cy) == [] and it.followups == []
            channel_text = json.dumps(fd.messages(CHANNEL))
            assert "stealth" not in channel_text and "3d20" not in channel_text
            # a roll kept from everyone, its roller their own GM: named once, one DM
            before = len(fd.dm_messages(ann))
            alone = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20", "secret_to": ann})
                           ).response_message()
            assert alone["content"] == "🤫 **Ann** made a secret roll."
            mine = await fd.wait_until(lambda: len(fd.dm_messages(ann)) > before and fd.dm_messages(ann)[-1])
            assert top(mine).splitlines()[0] == f"🤫 Secret roll by **Ann** in <#{fd.channel(CHANNEL).id}>"
        clean(fd, bot)


async def test_secret_roll_with_closed_dms_falls_back_to_ephemeral(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, gm = fd.add_user("ann", dms_closed=True), fd.add_user("gm")
        bob, shy_gm = fd.add_user("bob"), fd.add_user("shy", dms_closed=True)
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            # the roller's DMs are closed: the result comes back to her ephemerally
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+3", "secret_to": gm})
            await it.response_message()
            [fallback] = await it.wait_followups(1)
            assert fallback["flags"] & FLAG_EPHEMERAL
            assert top(fallback).startswith("I could not DM you, so here is your secret roll.\n")
            dm = await fd.wait_until(lambda: fd.dm_messages(gm) and fd.dm_messages(gm)[-1])
            assert top(fallback).endswith("\n" + top(dm))  # the roll the GM has, word for word
            assert fd.dm_messages(ann) == []
            assert not any(re.search(r"^# |1d20", said(m), re.M) or m["embeds"] for m in fd.messages(CHANNEL))

            # the GM's DMs are closed: the roller has the result by DM and is told the GM has not
            it = await fd.slash(bob, CHANNEL, "roll", {"expression": "1d20", "secret_to": shy_gm})
            await it.response_message()
            [told] = await it.wait_followups(1)
            assert told["flags"] & FLAG_EPHEMERAL and "could not DM Shy" in told["content"] and told["embeds"] == []
            assert len(fd.dm_messages(bob)) == 1 and fd.dm_messages(shy_gm) == []
        clean(fd, bot)


def bones_in(embed: dict) -> list[int]:
    """The four Bones in the order thrown, from the first line of a /roll-bones embed."""
    return [int(face) for face in re.findall(r"\*\*(\d+)\*\* (?:copper|silver|gold)",
                                             embed["description"].splitlines()[0])]


async def test_roll_bones_plain_private_and_bad_input(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            [command] = [c for scope in fd.commands.values() for c in scope if c["name"] == "roll-bones"]
            schema = {o["name"]: o for o in command["options"]}
            assert (schema["tide"]["min_value"], schema["tide"]["max_value"]) == (1, 6)
            assert not schema["tide"]["required"] and schema["private"]["type"] == 5
            assert [c["value"] for c in schema["ill_omens"]["choices"]] == ["product", "max_group"]

            # plain: the whole table sees the Bones, and the bet is the engine's for those Bones
            it = await fd.slash(ann, CHANNEL, "roll-bones", {"tide": 3})
            msg = await it.response_message()
            assert not msg["flags"] & FLAG_EPHEMERAL and msg in fd.messages(CHANNEL)
            embed = msg["embeds"][0]
            faces = bones_in(embed)
            assert len(faces) == 4 and all(1 <= face <= 20 for face in faces)
            reading = read_bones(faces, 3)
            assert embed["title"].startswith("🦴 The Bones at Tide 3")
            assert big_number(embed["description"]) == coins(reading.bet)
            fields = {f["name"]: f["value"] for f in embed["fields"]}
            assert fields["Step by step"] == "\n".join(reading.steps)
            assert ("☠️ Crossbones" in fields) == (reading.crossbones is not None)
            assert embed["footer"]["text"] == "Ann · Ill Omens: each matching group multiplies"

            # private, with the other Ill Omens rule: only the roller sees it
            before = len(fd.messages(CHANNEL))
            it = await fd.slash(bob, CHANNEL, "roll-bones", {"ill_omens": "max_group", "private": True})
            answer = await it.wait_response()
            assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL
            embed = answer["data"]["embeds"][0]
            assert big_number(embed["description"]) == coins(read_bones(bones_in(embed), 1, "max_group").bet)
            assert embed["footer"]["text"] == "Bob · Ill Omens: only the largest group multiplies"
            assert len(fd.messages(CHANNEL)) == before
            private = await it.response_message()
            assert [b["label"] for b in buttons(private)] == ["Reveal"]

            # Throw again: whoever presses throws at the same Tide and rule, as their own throw
            assert [b["label"] for b in buttons(msg)] == ["Throw again"]
            again = await (await fd.click(bob, msg, button_id(msg, "Throw again"))).response_message()
            assert not again["flags"] & FLAG_EPHEMERAL and again in fd.messages(CHANNEL)
            assert again["content"] == "-# 🔁 **Bob** throws again"
            assert again["embeds"][0]["title"].startswith("🦴 The Bones at Tide 3")
            assert again["embeds"][0]["footer"]["text"] == "Bob · Ill Omens: each matching group multiplies"
            assert [b["label"] for b in buttons(again)] == ["Throw again"]

            # Reveal: the private throw, word for word, to the channel; the copy loses its button
            peek = await fd.forge(ann, msg, button_id(private, "Reveal"), carried=True)
            assert "Only the person who threw" in (await peek.wait_response())["data"]["content"]
            reveal = await fd.click(bob, private, button_id(private, "Reveal"))
            edited = await reveal.wait_response()
            assert edited["type"] == 7 and buttons(edited["data"]) == []
            assert edited["data"]["content"] == "-# 👁️ Revealed to the channel"
            [shown] = await reveal.wait_followups(1)
            assert not shown["flags"] & FLAG_EPHEMERAL and shown in fd.messages(CHANNEL)
            assert shown["content"].startswith("-# 👁️ **Bob** reveals a private throw made <t:")
            assert shown["embeds"][0]["description"] == embed["description"]
            assert shown["embeds"][0]["footer"] == embed["footer"]
            # its Throw again throws at the revealed throw's Tide and rule
            assert [b["label"] for b in buttons(shown)] == ["Throw again"]
            third = await (await fd.click(ann, shown, button_id(shown, "Throw again"))).response_message()
            assert third["embeds"][0]["title"].startswith("🦴 The Bones at Tide 1")
            assert third["embeds"][0]["footer"]["text"] == "Ann · Ill Omens: only the largest group multiplies"
            # once only
            twice = await fd.click(bob, private, button_id(private, "Reveal"), as_seen=True)
            assert "revealed already" in (await twice.wait_response())["data"]["content"]
            before = len(fd.messages(CHANNEL))

            # Discord enforces the Range and the choices; a client that sends other values anyway
            # (the fake passes raw options through) is answered privately, and nothing is thrown
            for raw, why in [([{"name": "tide", "type": 4, "value": 7}], "The Tide runs from 1 to 6"),
                             ([{"name": "tide", "type": 4, "value": 0}], "`/roll-bones tide:2`"),
                             ([{"name": "ill_omens", "type": 3, "value": "sum"}], "`max_group`")]:
                it = await fd.slash(ann, CHANNEL, "roll-bones", raw)
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, raw
                assert why in answer["data"]["content"] and not answer["data"].get("embeds"), answer
            assert len(fd.messages(CHANNEL)) == before
        clean(fd, bot)


# -- where the dice go, how they read, and what their buttons do --------------------------------

def layout_items(message: dict, kind: int) -> list[dict]:
    """The components of one type in a message (12: media gallery, 10: text display)."""
    out, stack = [], list(message.get("components") or [])
    while stack:
        comp = stack.pop(0)
        if comp.get("type") == kind:
            out.append(comp)
        stack[:0] = list(comp.get("components") or []) + ([comp["accessory"]] if comp.get("accessory") else [])
    return out


def dice_picture(fd: FakeDiscord, message: dict) -> str | None:
    """The words of the dice picture a roll shows in a media gallery (its PNG was uploaded with
    it), or None when the roll is text alone."""
    galleries = layout_items(message, 12)
    if not galleries:
        return None
    [item] = galleries[0]["items"]
    assert item["media"]["url"] == "attachment://dice.png"
    [(name, data)] = fd.attachments(message)
    assert name == "dice.png" and data.startswith(b"\x89PNG")
    return item["description"]


def button_id(message: dict, label: str) -> str:
    [found] = [b["custom_id"] for b in buttons(message) if b["label"] == label]
    return found


def repeat_lines(message: dict) -> list[str]:
    return [line for line in top(message).splitlines() if line.startswith("-# **")]


DICE_COMMANDS = ("roll", "roll-bones", "rolls")


async def test_the_dice_commands_go_wherever_their_player_goes(tmp_path: Path) -> None:
    """Installable to a user's account: /roll, /roll-bones and /rolls work in a DM with the bot,
    in a DM between players, in a group DM and in a server that never invited the bot, always
    answered through the interaction (the bot posts in no channel it is not in). The games stay
    in servers."""
    async with running_fake() as fd:
        ann, bob, gm = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("gm", dms_closed=True)
        own_dm = fd.open_dm(ann)
        chat = fd.add_private_chat("ann-and-bob", [ann, bob])
        party = fd.add_private_chat("the-party", [ann, bob, gm], group=True)
        fd.add_outside_guild("elsewhere", ["far-tavern"])
        far = fd.channel("far-tavern")
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, tmp_path / "r.sqlite3") as bot:
            synced = {c["name"]: c for c in fd.commands[None]}
            for name in DICE_COMMANDS:
                assert sorted(synced[name]["integration_types"]) == [0, 1], synced[name]
                assert sorted(synced[name]["contexts"]) == [0, 1, 2], synced[name]
            games = [c for c in synced.values() if c["name"] not in (*DICE_COMMANDS, "forget-me", "help")]
            assert games and all(1 not in (c["integration_types"] or [0]) for c in games)
            with pytest.raises(LookupError, match="not offered"):
                await fd.slash(ann, chat, "knucklebones new")

            for place in (own_dm, chat, party, far):
                it = await fd.slash(ann, place, "roll", {"expression": "1d20+5 adv"})
                msg = await it.response_message()
                assert not msg["flags"] & FLAG_EPHEMERAL and msg in fd.messages(place)
                assert "advantage (" in top(msg) and dice_picture(fd, msg), place

                # anyone there rolls the same again, as their own roll
                again = await fd.click(bob if place is not own_dm else ann, msg, button_id(msg, "Roll again"))
                rolled = await again.response_message()
                assert rolled in fd.messages(place) and "rolls again" in top(rolled) and "advantage (" in top(rolled)

            it = await fd.slash(bob, chat, "roll-bones", {"tide": 2})
            assert (await it.response_message())["embeds"][0]["title"].startswith("🦴 The Bones at Tide 2")
            it = await fd.slash(ann, far, "rolls save", {"name": "hit", "expression": "1d20+4"})
            assert "Saved your roll `hit`" in (await it.wait_response())["data"]["content"]
            it = await fd.slash(ann, chat, "rolls use", {"name": "hit"})
            assert "**hit**" in top(await it.response_message())

            # a secret roll to a GM the bot cannot DM: the channel is told through the interaction,
            # the roller has the result by DM, and is told privately why the GM has not
            it = await fd.slash(bob, party, "roll", {"expression": "1d20 stealth", "secret_to": gm})
            notice = await it.response_message()
            assert "secret roll" in top(notice) and notice in fd.messages(party)
            [told] = await it.wait_followups(1)
            assert told["flags"] & FLAG_EPHEMERAL and "could not DM Gm" in told["content"]
            assert "share no server" in told["content"]
            mine = await fd.wait_until(lambda: fd.dm_messages(bob) and fd.dm_messages(bob)[-1])
            assert "Secret roll by **Bob** for **Gm** in a private chat" in top(mine)

            outside = {chat.id, party.id, far.id}
            posted = [c["path"] for c in fd.calls if c["method"] == "POST" and c["path"].startswith("/channels/")]
            assert not [p for p in posted if int(p.split("/")[2]) in outside], posted
            assert all(len(it.followup_ids) <= 5 for it in fd.interactions)
        clean(fd, bot)


async def test_advantage_disadvantage_and_repeat_as_players_type_them(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            [command] = [c for scope in fd.commands.values() for c in scope if c["name"] == "roll"]
            schema = {o["name"]: o for o in command["options"]}
            assert [c["value"] for c in schema["mode"]["choices"]] == ["normal", "advantage", "disadvantage"]

            for options, word, better in [({"expression": "1d20+5 adv to hit"}, "advantage", max),
                                          ({"expression": "1d20+5 to hit", "mode": "disadvantage"}, "disadvantage", min)]:
                msg = await (await fd.slash(ann, CHANNEL, "roll", options)).response_message()
                head, line = top(msg).splitlines()
                assert line.startswith(f"-# *to hit* · {word} (") and line.endswith(") + 5"), line
                counted, other = dice_in(line.replace(f"{word} ", ""))
                assert counted[1] and not other[1] and better(counted[0], other[0]) == counted[0]
                assert big_number(head) == str(counted[0] + 5)
                assert "d20: " in dice_picture(fd, msg) and "does not count" in dice_picture(fd, msg)

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+2 adv dis"})).response_message()
            assert "cancel out: one d20" in top(msg) and "dropped" not in top(msg)

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "4d6kh3 repeat 3 stats"})).response_message()
            assert len(repeat_lines(msg)) == 3 and "*stats*" in top(msg) and "4d6kh3, 3 rolls" in top(msg)

            before = len(fd.messages(CHANNEL))
            for options, why in [({"expression": "3d6 adv"}, "needs a roll that starts with one d20"),
                                 ({"expression": "8d6 fireball", "mode": "advantage"}, "The `advantage` mode"),
                                 ({"expression": "3d6 repeat 4", "repeat": 3}, "say it once")]:
                answer = await (await fd.slash(ann, CHANNEL, "roll", options)).wait_response()
                assert answer["data"]["flags"] & FLAG_EPHEMERAL and why in answer["data"]["content"], answer
            answer = await (await fd.slash(ann, CHANNEL, "roll", [
                {"name": "expression", "type": 3, "value": "1d20"},
                {"name": "mode", "type": 3, "value": "sideways"}])).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "Sorry" not in answer["data"]["content"], answer
            assert len(fd.messages(CHANNEL)) == before
        clean(fd, bot)


async def test_typos_pools_and_comparisons_as_players_type_them(tmp_path: Path) -> None:
    """What a phone or another bot's habits type: read as meant, or refused privately with the fix,
    never rolled as something else in public; a dice pool and a comparison read as players say them."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            # a phone's capital D rolls the d20 (it used to roll 1, "D20+5" shown as a comment)
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1D20+5"})).response_message()
            head, line = top(msg).splitlines()
            assert line.startswith("-# 1d20 (") and line.endswith(") + 5") and "*" not in line.replace("**", "")
            assert int(big_number(head)) == dice_in(line)[0][0] + 5

            before = len(fd.messages(CHANNEL))
            for typed, fix in [("2d20 kh1", "Write `kh1` without the space: `2d20kh1`."),
                               ("10d6 t5", "`target:5` or write `10d6>=5`"), ("adv 1d20+5", "`1d20+5 adv`"),
                               ("4dFkh3", "keep, drop, reroll and explode do not apply")]:
                answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": typed})).wait_response()
                assert answer["data"]["flags"] & FLAG_EPHEMERAL, answer
                assert answer["data"]["content"].startswith(f"`{typed}`: ") and fix in answer["data"]["content"], answer
            # a saved roll is checked the same way when it is saved
            answer = await (await fd.slash(ann, CHANNEL, "rolls save", {"name": "attack",
                                                                       "expression": "2d20 kh1+7"})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "`2d20kh1+7`" in answer["data"]["content"], answer
            assert answer["data"]["content"].startswith("`2d20 kh1+7`: "), answer  # what was typed, as /roll says it
            assert len(fd.messages(CHANNEL)) == before

            # a compared pool counts successes: the bold dice are the successes, and no sum follows
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "20d6>4"})).response_message()
            head, line = top(msg).splitlines()
            faces = [int(face) for face in re.findall(r"\d+", line[line.index("(") + 1: line.index(")")])]
            bold = [int(face) for face in re.findall(r"\*\*(\d+)\*\*", line)]
            assert len(faces) == 20 and bold == [face for face in faces if face >= 5]
            assert head == f"# {len(bold)} success" + ("" if len(bold) == 1 else "es")
            assert line.endswith(") · each die ≥ 5 counts 1"), line

            # a comparison is a success or a failure, with the relation that held
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+5 >= 15"})).response_message()
            head = top(msg).splitlines()[0]
            found = re.match(r"# (?:✅ Success: (\d+) ≥ 15|❌ Failure: (\d+) < 15)", head)
            assert found, head
            total = int(found.group(1) or found.group(2))
            assert (total >= 15) == bool(found.group(1)) and 6 <= total <= 25

            # a repeat is headed by what was typed, each result in order
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+7 repeat 3"})).response_message()
            lines = top(msg).splitlines()
            results = [int(re.sub(r"\D", "", r)) for r in lines[0][2:].split(", ")]
            assert len(results) == 3 and lines[1] == f"-# 1d20+7, 3 rolls · sum {sum(results)}"
        clean(fd, bot)


async def test_a_skill_roll_compares_the_total_and_a_second_die_needs_a_sign(tmp_path: Path) -> None:
    """GURPS's 3d6<=12 is a success or failure on the sum (no die alone can miss 12); `8d6 d6
    fireball` is refused privately with the sign it lacks; `1d20 #1 attack` rolls with its comment."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "3d6<=12 broadsword"})).response_message()
            head, line = top(msg).splitlines()
            found = re.fullmatch(r"-# \*broadsword\* · 3d6 \(([^)]*)\) <= 12", line)
            assert found, line
            total = sum(int(re.sub(r"\D", "", face)) for face in found[1].split(", "))
            assert head == (f"# ✅ Success: {total} ≤ 12" if total <= 12 else f"# ❌ Failure: {total} > 12")

            before = len(fd.messages(CHANNEL))
            answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "8d6 d6 fireball"})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL, answer
            assert answer["data"]["content"].startswith("`8d6 d6 fireball`: Join the dice with a sign: `8d6+d6`."), answer
            assert len(fd.messages(CHANNEL)) == before

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20 #1 attack"})).response_message()
            assert top(msg).splitlines()[1].startswith("-# *\\#1 attack* · 1d20 ("), top(msg)
        clean(fd, bot)


FATE_FACES = {"+": 1, "0": 0, "\u2212": -1}


def fate_roll(text: str, comment: str = "") -> int:
    """The Fate result a reply shows (`# +3 Good`), checked against its dice (`4dF (+, +, 0, −) + 2`)."""
    head, line = text.splitlines()[-2:]
    found = re.fullmatch(r"# ([+\u2212])(\d+)(?: (\w+))?", head)
    assert found, head
    result = int(found[2]) * (-1 if found[1] == "\u2212" else 1)
    ladder = {8: "Legendary", 7: "Epic", 6: "Fantastic", 5: "Superb", 4: "Great", 3: "Good", 2: "Fair",
              1: "Average", 0: "Mediocre", -1: "Poor", -2: "Terrible"}
    assert found[3] == ladder.get(result), head
    dice = re.fullmatch(rf"-# {re.escape(comment)}4dF \(([^)]*)\) \+ 2", line)
    assert dice, line
    shown = dice[1].split(", ")
    assert len(shown) == 4 and set(shown) <= set(FATE_FACES), line
    assert result == sum(FATE_FACES[face] for face in shown) + 2
    return result


async def test_fate_dice_as_fate_players_read_them(tmp_path: Path) -> None:
    """4dF+2: the result signed and on the ladder, each die +, − or 0; saved and used again alike."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "4dF+2 to climb"})).response_message()
            assert -2 <= fate_roll(top(msg), "*to climb* · ") <= 6
            # drawn as Fate dice show them: a plus, a blank or a minus, never -1 (said so for screen readers)
            line = top(msg).splitlines()[-1]
            words = {"+": "plus", "0": "blank", "\u2212": "minus"}
            faces = line[line.index("(") + 1: line.index(")")].split(", ")
            assert dice_picture(fd, msg) == "; ".join(f"dF: {words[face]}" for face in faces)
            saved = await (await fd.slash(ann, CHANNEL, "rolls save", {"name": "athletics",
                                                                       "expression": "4df+2"})).wait_response()
            assert saved["data"]["flags"] & FLAG_EPHEMERAL and "Saved" in saved["data"]["content"], saved
            msg = await (await fd.slash(ann, CHANNEL, "rolls use", {"name": "athletics"})).response_message()
            fate_roll(top(msg), "**athletics** · ")
            # what makes no sense in Fate is refused, privately, with what to do
            before = len(fd.messages(CHANNEL))
            answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "4dF+2", "target": 3})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "compare the total instead, like `4dF+2 >= 3`" in \
                answer["data"]["content"], answer
            answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "4dFkh3"})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "do not apply" in answer["data"]["content"], answer
            assert len(fd.messages(CHANNEL)) == before
        clean(fd, bot)


async def test_call_of_cthulhu_bonus_dice_as_players_see_them(tmp_path: Path) -> None:
    """1d100 bonus: the d100 the lower tens makes with the one units die, the other tens struck."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d100 bonus spot hidden"})).response_message()
            head, line = top(msg).splitlines()
            found = re.fullmatch(r"-# \*spot hidden\* · bonus die \(tens (\d0), ~~(\d0)~~ dropped; units (\d) = (\d+)\)", line)
            assert found, line
            kept, dropped, units, result = (int(found[i]) for i in range(1, 5))
            assert head == f"# {result}" and result == (kept + units or 100)
            assert result <= (dropped + units or 100)  # the bonus die kept the lower d100
            # on a roll that cannot take them, refused privately with the reason
            answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "2d100 penalty"})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL and "one plain d100" in answer["data"]["content"], answer
        clean(fd, bot)


async def test_up_to_twelve_dice_come_with_their_picture(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "4d6kh3"})).response_message()
            words = dice_picture(fd, msg)
            assert words is not None and words.count("d6: ") == 4 and words.count("does not count") == 1
            assert [b["label"] for b in buttons(msg)] == ["Roll again"]
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "12d6"})).response_message()
            assert dice_picture(fd, msg).count("d6: ") == 12
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "2d6 repeat 6"})).response_message()
            assert dice_picture(fd, msg).count("d6: ") == 12  # a row a roll
            for expression in ("13d6", "2d6 repeat 7", "40d10kh3"):
                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": expression})).response_message()
                assert dice_picture(fd, msg) is None and msg["attachments"] == [] and msg["content"], expression
                assert [b["label"] for b in buttons(msg)] == ["Roll again"]
        clean(fd, bot)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """Where the bot keeps its store: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return {"DATABASE_PATH": str(tmp_path / "r.sqlite3")}
    return {"DATABASE_URL": request.getfixturevalue("pg_url")}


async def test_roll_again_and_reveal_work_after_a_restart(database: dict[str, str]) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, database) as bot:
            public = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+3 to hit"})).response_message()
            hidden = await fd.slash(ann, CHANNEL, "roll", {"expression": "2d6+1 damage", "private": True})
            secret = await hidden.response_message()
            assert secret["flags"] & FLAG_EPHEMERAL and [b["label"] for b in buttons(secret)] == ["Reveal"]
            big = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "20d6", "private": True})).response_message()
            clean(fd, bot)

        async with running_bot(fd, database) as bot:
            # Roll again: Bob's own roll of the same dice, named as his, with a button of its own
            again = await fd.click(bob, public, button_id(public, "Roll again"))
            rolled = await again.response_message()
            assert not rolled["flags"] & FLAG_EPHEMERAL and rolled in fd.messages(CHANNEL)
            note, head, line = top(rolled).splitlines()
            assert note == "-# 🔁 **Bob** rolls again" and line.startswith("-# *to hit* · 1d20 (")
            assert int(big_number(head)) in range(4, 24)
            assert button_id(rolled, "Roll again") != button_id(public, "Roll again")

            # Reveal: the same result, word for word, marked; the private copy loses its button
            before = top(secret)
            reveal = await fd.click(ann, secret, button_id(secret, "Reveal"))
            answer = await reveal.wait_response()
            assert answer["type"] == 7 and buttons(answer["data"]) == []
            assert "Revealed to the channel" in top(answer["data"]) and before in top(answer["data"])
            [shown] = await reveal.wait_followups(1)
            assert not shown["flags"] & FLAG_EPHEMERAL and shown in fd.messages(CHANNEL)
            first, rest = top(shown).split("\n", 1)
            assert first.startswith("-# 👁️ **Ann** reveals a private roll made <t:") and rest == before
            assert dice_picture(fd, shown) == dice_picture(fd, secret)
            assert [b["label"] for b in buttons(shown)] == ["Roll again"]

            # once only, and only by its roller
            again = await fd.click(ann, secret, button_id(secret, "Reveal"), as_seen=True)
            assert "revealed already" in (await again.wait_response())["data"]["content"]
            forged = await fd.forge(bob, public, button_id(secret, "Reveal"), carried=True)
            assert "Only the person who rolled" in (await forged.wait_response())["data"]["content"]
            peek = await fd.forge(bob, public, button_id(big, "Reveal").replace("reveal", "again"), carried=True)
            assert "not shown to anyone" in (await peek.wait_response())["data"]["content"]

            # a big private roll is text, and stays text when revealed
            reveal = await fd.click(ann, big, button_id(big, "Reveal"))
            assert (await reveal.wait_response())["data"]["content"].startswith("-# 👁️ Revealed to the channel\n")
            [shown] = await reveal.wait_followups(1)
            assert top(shown).endswith(top(big)) and dice_picture(fd, shown) is None

            # a button naming no roll kept is answered, not failed
            gone = await fd.forge(bob, public, "bn:roll:again:999999999", carried=True)
            assert "no longer kept" in (await gone.wait_response())["data"]["content"]
            await settle(fd)
        clean(fd, bot)


def coc_level(d100: int, skill: int) -> str:
    """Call of Cthulhu's success level at Regular difficulty, as the rulebook's table gives it."""
    if d100 == 1:
        return "🌟 Critical success"
    if d100 == 100 or (skill < 50 and d100 >= 96):  # the number needed, at Regular the skill
        return "💀 Fumble"
    if d100 > skill:
        return "❌ Failure"
    return "✅ " + ("Extreme" if d100 <= skill // 5 else "Hard" if d100 <= skill // 2 else "Regular") + " success"


async def test_each_game_reads_its_rolls_and_help_shows_what_to_type(tmp_path: Path) -> None:
    """`vs 55`, `dc 20`, `dc 20 pf2`, `pbta` and `blades` name the result as each game does, result first, even
    in a chat the bot was never invited to (answered through the interaction); `help` answers
    privately with what to type for each game; a reading the roll cannot take is refused privately
    with what was typed and the fix."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        fd.add_outside_guild("elsewhere", ["far-tavern"])
        far = fd.channel("far-tavern")
        async with running_bot(fd, {"DEV_GUILD_ID": ""}, tmp_path / "r.sqlite3") as bot:
            for place in (CHANNEL, far):
                msg = await (await fd.slash(ann, place, "roll", {"expression": "1d100 vs 55 spot hidden"})).response_message()
                assert not msg["flags"] & FLAG_EPHEMERAL and msg in fd.messages(place)
                head, line = top(msg).splitlines()
                found = re.fullmatch(r"-# \*spot hidden\* · skill 55 · Hard ≤ 27 · Extreme ≤ 11 · 1d100 \((?:\*\*)?(\d+)(?:\*\*)?\)", line)
                assert found, line
                d100 = int(found[1])
                assert head == f"# {coc_level(d100, 55)}: {d100:02d}"

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+7 dc 20 dex save"})).response_message()
            head, line = top(msg).splitlines()
            d20 = int(re.search(r"1d20 \((?:\*\*)?(\d+)", line)[1])
            assert line.startswith("-# *dex save* · DC 20 · 1d20 ("), line
            assert head == (f"# ✅ Success: {d20 + 7}" if d20 + 7 >= 20 else f"# ❌ Failure: {d20 + 7}")  # D&D: no degrees

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+7 dc 20 pf2"})).response_message()
            head, line = top(msg).splitlines()
            d20 = int(re.search(r"1d20 \((?:\*\*)?(\d+)", line)[1])
            assert line.startswith("-# DC 20 · degrees of success · "), line
            total = d20 + 7
            degree = 3 if total >= 30 else 2 if total >= 20 else 0 if total <= 10 else 1
            degree = min(3, degree + 1) if d20 == 20 else max(0, degree - 1) if d20 == 1 else degree
            assert head == "# " + ("💀 Critical failure", "❌ Failure", "✅ Success", "🌟 Critical success")[degree] + \
                f": {total}", top(msg)

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "2d6+1 pbta go aggro"})).response_message()
            head, line = top(msg).splitlines()
            total = sum(int(re.sub(r"\D", "", d)) for d in re.search(r"2d6 \(([^)]*)\)", line)[1].split(", ")) + 1
            assert head == ("# ✅ Strong hit" if total >= 10 else "# ⚠️ Weak hit" if total >= 7 else "# ❌ Miss") + f": {total}"

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "3d6 blades"})).response_message()
            head = top(msg).splitlines()[0]
            pool = [int(re.sub(r"\D", "", d)) for d in re.search(r"3d6 \(([^)]*)\)", top(msg))[1].split(", ")]
            best = max(pool)
            assert head == ("# 🌟 Critical success" if pool.count(6) >= 2 else "# ✅ Full success" if best == 6 else
                            "# ⚠️ Partial success" if best >= 4 else "# ❌ Bad outcome") + f": {best}"
            assert dice_picture(fd, msg).count("d6: ") == 3

            # help, privately, wherever the player is
            before = len(fd.messages(far))
            answer = await (await fd.slash(ann, far, "roll", {"expression": "help"})).wait_response()
            assert answer["data"]["flags"] & FLAG_EPHEMERAL, answer
            for example in ("`1d20+5 adv`", "`1d20+3 dc 15`", "`1d20+9 dc 25 pf2`", "`1d100 vs 55`", "`2d6+1 pbta`", "`3d6 blades`", "`4dF+2`"):
                assert example in answer["data"]["content"], example
            assert len(fd.messages(far)) == before

            for bad, why in [("3d6+1 blades", "`3d6+1 blades`: `blades` reads a pool of d6s alone"),
                             ("2d20kh1+7 dc 20", "`2d20kh1+7 dc 20`: `dc 20` reads one d20 against the DC; to roll "
                                                 "it twice, say so: `1d20+7 adv dc 20`."),
                             ("1d20+", "`/roll help` shows each game's")]:
                answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": bad})).wait_response()
                assert answer["data"]["flags"] & FLAG_EPHEMERAL and why in answer["data"]["content"], answer
            assert all(len(it.followup_ids) <= 5 for it in fd.interactions)
        clean(fd, bot)


async def test_a_game_word_in_a_comment_rolls_as_it_always_did(tmp_path: Path) -> None:
    """`dc`, `vs` and `sr` in a comment on dice their game does not roll are the comment they were
    before any game was read: rolled in public, the comment shown, and a saved roll with one works."""
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            for typed, dice, comment in [("8d6 fireball dc 15 dex save", "8d6", "fireball dc 15 dex save"),
                                         ("2d6 fire vs 2 orcs", "2d6", "fire vs 2 orcs"),
                                         ("1d20 insight on Sr. Lopez", "1d20", "insight on Sr. Lopez")]:
                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": typed})).response_message()
                assert not msg["flags"] & FLAG_EPHEMERAL, msg
                head, line = top(msg).splitlines()
                assert re.fullmatch(r"# \d+(?: ✨ Natural 20!| 💀 Natural 1!)?", head), head
                assert line.startswith(f"-# *{comment}* · {dice} ("), line

            answer = await (await fd.slash(ann, CHANNEL, "rolls save", {"name": "fireball",
                                                                        "expression": "8d6 fireball dc 15 dex save"})
                            ).wait_response()
            assert said(answer["data"]).startswith("Saved your roll `fireball`: 8d6 fireball dc 15 dex save"), answer
            msg = await (await fd.slash(ann, CHANNEL, "rolls use", {"name": "fireball"})).response_message()
            assert top(msg).splitlines()[1].startswith("-# **fireball** · *fireball dc 15 dex save* · 8d6 ("), top(msg)
            await settle(fd)
        clean(fd, bot)
