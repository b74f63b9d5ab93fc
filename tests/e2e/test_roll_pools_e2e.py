"""/roll's dice pools end to end, as Shadowrun and World of Darkness players see them: the hits or
successes first with the game's name for the result, the dice under it; a pool the words cannot
read refused privately with the fix; a letter O typed for a zero read as one, and said."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.channel import top
from tests.e2e.test_roll_e2e import CHANNEL, clean
from tests.fakediscord import FLAG_EPHEMERAL, running_bot, running_fake


def faces(line: str, term: str) -> list[int]:
    """Every face inside `term (...)`, marks and explosions (`**10!**`) taken off."""
    inside = re.search(re.escape(term) + r" \(([^)]*)\)", line)
    assert inside, line
    return [int(re.sub(r"\D", "", face)) for face in inside[1].split(", ")]


async def test_shadowrun_and_world_of_darkness_pools_read_as_their_players_read_them(tmp_path: Path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {}, tmp_path / "r.sqlite3") as bot:
            for _ in range(3):
                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "8d6 sr shoot the troll"})).response_message()
                assert not msg["flags"] & FLAG_EPHEMERAL
                head, line = top(msg).splitlines()
                dice = faces(line, "8d6")
                hits, ones = sum(d >= 5 for d in dice), dice.count(1)
                assert line.startswith("-# *shoot the troll* · hits on 5 and 6 · over half 1s glitches"), line
                count = f"{hits} hit" + ("" if hits == 1 else "s")
                assert head == ("# 💀 Critical glitch" if ones > 4 and not hits else
                                f"# ⚠️ Glitch: {count}" if ones > 4 else f"# ✅ {count}" if hits else "# ❌ 0 hits")

                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "7d10 wod"})).response_message()
                head, line = top(msg).splitlines()
                dice = faces(line, "7d10e10")
                assert len(dice) == 7 + dice.count(10), line  # each 10 rolled again
                wins = sum(d >= 8 for d in dice)
                assert head == (f"# 🌟 Exceptional: {wins} successes" if wins >= 5 else
                                "# ❌ Failure" if not wins else
                                f"# ✅ {wins} success" + ("" if wins == 1 else "es"))

                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "chance"})).response_message()
                head, line = top(msg).splitlines()
                face = faces(line, "1d10")[0]
                assert head == ("# ✅ Success: 10" if face == 10 else "# 💀 Dramatic failure: 1" if face == 1
                                else f"# ❌ Failure: {face}")

                msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "5d10 diff 6"})).response_message()
                head, line = top(msg).splitlines()
                dice = faces(line, "5d10")
                wins, ones = sum(d >= 6 for d in dice), dice.count(1)
                net = max(0, wins - ones)
                assert head == ("# 💀 Botch" if ones and not wins else "# ❌ Failure"
                                if not net else f"# ✅ {net} success" + ("" if net == 1 else "es"))

            # a pool of none is a chance die, and the reply says what it left out
            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "0d10 wod rote"})).response_message()
            line = top(msg).splitlines()[1]
            assert line.startswith("-# a pool of none: `rote` left out · chance die: 10 succeeds"), line

            msg = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "1d2O"})).response_message()
            assert "`1d2O` read as `1d20`" in top(msg) and "1d20 (" in top(msg), top(msg)

            answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": "help"})).wait_response()
            for example in ("`12d6 sr`", "`12d6 sr edge`", "`7d10 wod`", "`chance`", "`5d10 diff 6`"):
                assert example in answer["data"]["content"], example

            before = len(fd.messages(CHANNEL))
            for bad, why in [("12d6+2 sr", "`12d6+2 sr`: `sr` counts hits in a pool of d6s alone, like `12d6 sr`"),
                             ("5d10 diff 11", "A difficulty is from 2 to 10")]:
                answer = await (await fd.slash(ann, CHANNEL, "roll", {"expression": bad})).wait_response()
                assert answer["data"]["flags"] & FLAG_EPHEMERAL and why in answer["data"]["content"], answer
            assert len(fd.messages(CHANNEL)) == before
        clean(fd, bot)
