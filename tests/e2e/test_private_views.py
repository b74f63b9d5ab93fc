"""Private views end to end: DMs, the My hand fallback for closed DMs, sealed choices.

Uses the small Sealed Pick test game (tests/fixtures/sealed_game.py, loaded through
EXTRA_COGS): Knucklebones has no secrets, and this is the path the hidden-hand games take.
"""

from __future__ import annotations

from tests.e2e.channel import said, texts, top
from tests.fakediscord import FakeDiscord, running_bot, running_fake

EXTRA = {"EXTRA_COGS": "tests.fixtures.sealed_game"}


def _labels(fd: FakeDiscord, message: dict) -> list[str]:
    return [b["label"] for b in fd.buttons(message)]


def _button(fd: FakeDiscord, message: dict, label: str) -> str:
    for b in fd.buttons(message):
        if b["label"] == label:
            return b["custom_id"]
    raise AssertionError(f"no button {label!r} in {_labels(fd, message)}")


async def test_sealed_choices_by_dm_and_by_my_hand(tmp_path) -> None:
    async with running_fake() as fd:
        ann = fd.add_user("ann")
        bob = fd.add_user("bob", dms_closed=True)
        async with running_bot(fd, EXTRA, tmp_path / "g.sqlite3") as bot:
            it = await fd.slash(ann, "games", "sealedpick new")
            lobby = await it.response_message()
            assert _labels(fd, lobby) == ["Join", "Leave", "Start", "Cancel", "Add AI", "How to play"]
            await (await fd.click(bob, lobby, _button(fd, lobby, "Join"))).wait_response()
            start = await fd.click(ann, lobby, _button(fd, lobby, "Start"))
            await start.wait_response()

            # ann gets her choices by DM; bob's DMs are closed, so the table tells him to use My hand
            dm = await fd.wait_until(lambda: fd.dm_messages(ann) and fd.dm_messages(ann)[-1])
            assert [b["label"] for b in fd.buttons(dm)] == ["1", "2", "3", "4", "5"]
            table = await fd.wait_until(
                lambda: (m := fd.messages("games")[-1]) and "My hand" in top(m) and m
            )
            assert "My hand" in _labels(fd, table)

            # ann picks 4 in her DM: the public table shows only that she has chosen
            pick = await fd.click(ann, dm, _button(fd, dm, "4"))
            await pick.wait_response()
            await fd.wait_until(lambda: "chosen" in said(fd.messages("games")[-1]))
            for message in fd.messages("games"):
                # the game's blocks: below the line that asks, above the footer (ids and times are digits)
                for shown in [t for t in texts(message)[1:] if not t.startswith("-# ")]:
                    assert "4" not in shown.replace(f"<@{bob.id}>", "") and "Revealed" not in shown, shown

            # bob opens My hand (ephemeral) and picks twice with the same button: counted once
            table = fd.messages("games")[-1]
            hand = await fd.click(bob, table, _button(fd, table, "My hand"))
            private = await hand.response_message()
            assert private["flags"] & 64
            choice = _button(fd, private, "2")
            first = await fd.click(bob, private, choice)
            second = await fd.click(bob, private, choice)  # a double click, before any answer
            answers = [await first.wait_response(), await second.wait_response()]
            assert sorted(a["type"] for a in answers) == [4, 7]  # one applied, one refused
            refusal = next(a for a in answers if a["type"] == 4)
            assert refusal["data"]["flags"] & 64

            final = await fd.wait_until(
                lambda: "Final standings" in said(fd.messages("games")[-1])
                and fd.messages("games")[-1]
            )
            assert f"<@{ann.id}> wins" in top(final) and "**1.** Ann" in said(final)
            # the reveal is the story line the last table became
            assert any(said(m).count("Revealed") for m in fd.messages("games") if "Final standings" not in said(m))
            assert _labels(fd, final) == ["Rematch", "Details"]
        assert fd.violations == [] and fd.unknown_routes == []
        assert bot.error_records() == []


async def test_one_sealed_choice_does_not_void_anothers_buttons(tmp_path) -> None:
    async with running_fake() as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, EXTRA, tmp_path / "g.sqlite3") as bot:
            lobby = await (await fd.slash(ann, "games", "sealedpick new")).response_message()
            await (await fd.click(bob, lobby, _button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, _button(fd, lobby, "Start"))).wait_response()
            dms = [await fd.wait_until(lambda u=u: fd.dm_messages(u) and fd.dm_messages(u)[-1]) for u in (ann, bob)]
            first = await fd.click(ann, dms[0], _button(fd, dms[0], "3"))
            assert (await first.wait_response())["type"] == 7
            # bob's buttons were drawn before ann chose; they still stand for his own choice
            second = await fd.click(bob, dms[1], _button(fd, dms[1], "5"))
            assert (await second.wait_response())["type"] == 7
            final = await fd.wait_until(
                lambda: "Final standings" in said(fd.messages("games")[-1])
                and fd.messages("games")[-1]
            )
            assert f"<@{bob.id}> wins" in top(final)
            # a choice made takes its buttons with it
            assert fd.buttons(fd.dm_messages(ann)[-1]) == []
        assert fd.violations == [] and fd.unknown_routes == []
        assert bot.error_records() == []
