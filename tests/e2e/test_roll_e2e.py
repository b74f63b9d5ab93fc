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
from tests.fakediscord import FLAG_EPHEMERAL, FakeDiscord, running_bot, running_fake

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
            head, line = msg["content"].splitlines()
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
            assert lines[1] == f"-# 4d6kh3 × 6 · sum {sum(scores)}"

            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "5d10", "repeat": 3, "target": 8})
            lines = (await it.response_message())["content"].splitlines()
            counted = [sum(v >= 8 for v, _ in dice_in(row)) for row in lines[2:]]
            assert len(counted) == 3 and lines[0] == "# " + ", ".join(map(str, counted)) + " successes"
            assert f"{sum(counted)} success" + ("" if sum(counted) == 1 else "es") + " in all" in lines[1]

            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "d%"})
            assert 1 <= int(big_number((await it.response_message())["content"])) <= 100

            before = len(fd.messages(CHANNEL))
            it = await fd.slash(ann, CHANNEL, "roll", {"expression": "1d20+5", "private": True})
            answer = await it.wait_response()
            assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL
            assert int(big_number(answer["data"]["content"])) in range(6, 26)
            assert len(fd.messages(CHANNEL)) == before

            for bad, why in [("1d20+", "can't read"), ("1001d6", "limit is 1,000"), ("1d20/0", "divides by zero"),
                             ("1d100000", "10,000 sides"), ("1d1e1", "more than 1,000 dice"),
                             ("-" * 400 + "1", "nested too deeply"), ("1d6 + 1.5 // 0", "divides by zero"),
                             ("*".join(["9" * 30 + ".9"] * 14), "too large")]:
                it = await fd.slash(ann, CHANNEL, "roll", {"expression": bad})
                answer = await it.wait_response()
                assert answer["type"] == 4 and answer["data"]["flags"] & FLAG_EPHEMERAL, bad
                assert why in answer["data"]["content"] and "`4d6kh3`" in answer["data"]["content"], answer
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
            assert mine["content"] == theirs["content"] and mine["embeds"] == []
            note, head, line = mine["content"].splitlines()
            assert note == f"🤫 Secret roll by **Ann** for **Gm** in <#{fd.channel(CHANNEL).id}>"
            faces = dice_in(line)
            assert len(faces) == 3 and int(big_number(head)) == sum(v for v, _ in faces)
            assert line.startswith("-# *stealth* · 3d20 (")
            assert fd.dm_messages(cy) == [] and it.followups == []
            channel_text = json.dumps(fd.messages(CHANNEL))
            assert "stealth" not in channel_text and "3d20" not in channel_text
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
            assert fallback["content"].startswith("I could not DM you, so here is your secret roll.\n")
            dm = await fd.wait_until(lambda: fd.dm_messages(gm) and fd.dm_messages(gm)[-1])
            assert fallback["content"].endswith("\n" + dm["content"])  # the roll the GM has, word for word
            assert fd.dm_messages(ann) == []
            assert not any(re.search(r"^# |1d20", m["content"], re.M) or m["embeds"] for m in fd.messages(CHANNEL))

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
