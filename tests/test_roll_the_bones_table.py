"""What the Roll the Bones table shows: a phone-sized table, the roll as a picture, private views
that hold only what is private, a line of history per phase, and the full accounts behind
Details. Everything is drawn from states staged on the engine, as the host would draw them."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence

import discord
from PIL import Image

from bot.models import Book, Table
from bot.present import table_message
from bot.step import Moment
from cogs.roll_the_bones import SPEC, latest_roll
from cogs.roll_the_bones.pictures import Thrown, draw_roll
from rules import roll_the_bones as rtb
from rules.base import Chooser, Event
from rules.roll_the_bones import CALL, ENGINE, READY, WITHDRAW
from tests import kit
from tests.test_roll_the_bones_engine import MIXED, act, do_ante, roll, staged

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
PNG = b"\x89PNG\r\n\x1a\n"
CODE = re.compile(r"\b[A-Z]{2}-\d+\b")


def table_for(state: rtb.RollTheBonesState, names: Sequence[str] = NAMES) -> Table:
    return kit.table_for(state, names[: state.seats], game=ENGINE.key, status="active", id=1)


def public(state: rtb.RollTheBonesState) -> rtb.RollTheBonesView:
    return ENGINE.view(state, None)


def table_text(state: rtb.RollTheBonesState, names: Sequence[str] = NAMES) -> str:
    embed = SPEC.table_embed(table_for(state, names), public(state))
    return f"{embed.title}\n{embed.description}"


def details(state: rtb.RollTheBonesState, names: Sequence[str]) -> dict[str, str]:
    """The Details answer's fields, checked against Discord's limits with the host's latest
    moves (six lines of up to 200 characters) added below."""
    embeds = SPEC.details(table_for(state, names), public(state), None)
    assert sum(len(e) for e in embeds) + 6 * 200 + 60 <= 6000, [len(e) for e in embeds]
    assert all(len(f.value or "") <= 1024 for e in embeds for f in e.fields)
    return {f.name or "": f.value or "" for e in embeds for f in e.fields}


def played(state: rtb.RollTheBonesState, steps: int, rng: random.Random
           ) -> tuple[rtb.RollTheBonesState, list[Event]]:
    """``steps`` moves of the bot policy and random legal moves, on the table's engine."""
    events: list[Event] = []
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = rng.choice(legal) if rng.random() < 0.3 else ENGINE.ai_action(state, seat, Chooser(rng))
        state, more = ENGINE.apply(state, seat, action)
        events += more
    return state, events


# -- the live table -------------------------------------------------------------------------------


def test_the_table_fits_a_phone_for_four_players_with_long_names() -> None:
    """Four players with 32-character names, at every moment of simulated games: the whole
    message (the host's content line included) stays under 1,000 characters."""
    names = [f"{letter * 30} {n}" for n, letter in enumerate("ABCD")]
    rng = random.Random(5)
    longest = 0
    for seed in range(6):
        state = ENGINE.new_game(4, rtb.RollTheBonesOptions(), seed)
        while not ENGINE.is_over(state):
            state, _ = played(state, 1, rng)
            table = table_for(state, names)
            table.status = "finished" if ENGINE.is_over(state) else "active"
            shown = table_message(Moment(SPEC, table, state), Book(), headline="🏆 <@123456789012345678> wins round 9 with "
                                  "a 12 and takes 14 dice. 💀 <@123456789012345679> is out of dice.")
            size = len(shown.content or "") + len(shown.embeds[0])
            longest = max(longest, size)
            assert size <= 1000, (size, shown.content, shown.embeds[0].description)
    assert longest > 600, longest  # the long names did reach the table


def test_the_table_shows_the_roll_in_words_until_the_next_antes_are_in() -> None:
    state = staged([MIXED, MIXED, MIXED])
    assert latest_roll(public(state)) is None and "🎲" not in table_text(state)
    state, _ = roll(state, [7, 3, 2], picks={0: 8, 1: 6, 2: 10}, callers=[])
    text = table_text(state)
    assert "🎲 Ann d8 **7** · Bob d6 3 · Cy d10 2 → Ann rolls highest" in text
    assert text.startswith("Roll the Bones · round 2\n**Ante 2 dice**, sealed until all are in.")
    state, _ = do_ante(state)  # the antes are in: the table is about the new pot now
    text = table_text(state)
    assert "🎲" not in text
    assert "Antes: Ann 2×d4 · Bob 2×d6 · Cy 2×d6" in text and "**Pot** 6: 2×d4 4×d6" in text
    assert SPEC.picture(table_for(state), public(state)) is None


def test_a_tie_shows_the_tied_roll_and_who_rolls_again() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = roll(state, [5, 5, 2], picks={0: 8, 1: 8, 2: 6})
    text = table_text(state)
    assert text.startswith("Roll the Bones · round 1 · tie roll 2\n")
    assert "🎲 Ann d8 **5** · Bob d8 **5** · Cy d6 2 → tie at 5: every rolled die goes to the centre, " \
           "Ann and Bob roll again" in text
    assert "**Cy** 8 dice: 2×d6 3×d8 2×d10 d12🦴 · sits out" in text
    assert "**Pot** 9:" in text  # three dice rolled and six anted, waiting in the centre


def test_a_draft_changes_nothing_the_channel_sees() -> None:
    """Adding and taking back dice of an ante being built: the public view, the table and its
    picture are the same as before, so the host has nothing to edit."""
    state = staged([MIXED, MIXED])
    before = public(state)
    drafted, _ = act(state, 0, "ante_add", 10)
    drafted, _ = act(drafted, 0, "ante_add", 8)
    drafted, _ = act(drafted, 0, "ante_remove", 10)
    assert public(drafted) == before
    assert table_text(drafted) == table_text(state)
    sealed, _ = act(drafted, 0, "ante_fill")
    sealed, _ = act(sealed, 0, "ante_confirm")
    assert "\n✅ **Ann** 11 dice: 2×d4 3×d6 3×d8 2×d10 d12🦴\n⏳ **Bob**" in table_text(sealed)  # not what


# -- the picture ----------------------------------------------------------------------------------


def test_the_picture_draws_every_die_rolled_with_its_kind() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = roll(state, [7, 11, 2], picks={0: 8, 2: 6}, callers=[1])
    picture = SPEC.picture(table_for(state), public(state))
    assert picture is not None and picture.filename == "roll.png"
    assert picture.description == ("Round 1, roll 1. Ann rolled a d8: 7; Bob rolled the bone d12: 11; "
                                   "Cy rolled a d6: 2. Bob rolls highest.")
    assert picture.key == ("rtb-roll", (Thrown("Ann", 8, 7, False, False), Thrown("Bob", 12, 11, True, True),
                                        Thrown("Cy", 6, 2, False, False)))
    data = picture.draw()
    assert data.startswith(PNG) and len(data) < 40_000
    image = Image.open(io.BytesIO(data))
    assert image.width >= 3 * 120 and image.height < image.width  # one row, big dice
    # the same roll drawn again is the same picture: the host draws it once
    again = SPEC.picture(table_for(state), public(state))
    assert again is not None and again.key == picture.key


def test_dice_of_each_kind_look_different() -> None:
    """Shapes and colours tell the kinds apart before the captions do: each die's box differs."""
    kinds = [(4, False), (6, False), (8, False), (10, False), (12, True)]
    image = Image.open(io.BytesIO(draw_roll(tuple(Thrown("Ann", s, 1, b, False) for s, b in kinds))))
    boxes = []
    for index in range(len(kinds)):
        x = 14 + index * (120 + 14)
        boxes.append(image.crop((x, 30, x + 120, 150)).convert("RGB").tobytes())
    assert len(set(boxes)) == len(kinds)


def test_six_players_draw_in_one_row_and_long_names_are_cut() -> None:
    dice = tuple(Thrown(letter * 32, 6, 3, False, letter == "A") for letter in "ABCDEF")
    image = Image.open(io.BytesIO(draw_roll(dice)))
    assert image.width <= 820 and image.height < 250


# -- private views ---------------------------------------------------------------------------------


def private(state: rtb.RollTheBonesState, seat: int) -> tuple[str, discord.Embed]:
    table = table_for(state)
    seen = ENGINE.view(state, seat)
    embed = SPEC.private_embed(table, seat, seen)
    prompt = SPEC.prompt(table, seen, seat) if seat in ENGINE.to_act(state) else ""
    return prompt, embed


def test_a_private_view_holds_the_hand_the_choice_and_one_line_of_context() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = act(state, 1, "ante_add", 10)
    prompt, embed = private(state, 1)
    assert embed.title == "Round 1 · your ante"
    assert embed.description == ("**Your 11 dice**: 2×d4 3×d6 3×d8 2×d10 d12🦴\n"
                                 "**Your ante** 1 of 2: d10\n"
                                 "Waiting for you, Ann and Cy.")
    assert prompt.startswith("Choose 2 dice for your ante (1 chosen), then seal it.")
    assert len(prompt) + len(embed) <= 400
    assert "Players" not in str(embed.to_dict())  # no copy of the table
    state, _ = act(state, 1, "ante_fill")
    state, _ = act(state, 1, "ante_confirm")
    _, embed = private(state, 1)
    assert "**Your ante** 2 of 2: d4 d10 · sealed" in (embed.description or "")
    assert (embed.description or "").endswith("Waiting for Ann and Cy.")


def test_the_pick_view_names_the_sealed_die_and_the_called_bone() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = do_ante(state)
    state, _ = act(state, 0, "bone_toggle")
    for seat in range(3):
        state, _ = act(state, seat, "ready")
    assert state.phase == "pick"
    _, embed = private(state, 0)
    assert embed.title == "Round 1 · your die"  # her bone die is her only choice: it is sealed for her
    assert "**You roll** your d12🦴 · sealed" in (embed.description or "")
    state, _ = act(state, 1, "pick", 8)
    _, embed = private(state, 1)
    assert "**You roll** your d8 · sealed" in (embed.description or "")


# -- the bone call as two buttons -------------------------------------------------------------------


def test_the_bone_call_is_offered_as_call_or_withdraw() -> None:
    state = staged([MIXED, MIXED])
    state, _ = do_ante(state)
    assert ENGINE.open_actions(state) == [CALL, READY]
    assert ENGINE.legal_actions(state, 0) == [CALL, READY]
    state, _ = ENGINE.apply(state, 0, CALL)
    assert state.calls[0] and ENGINE.open_actions(state) == [CALL, WITHDRAW, READY]
    assert ENGINE.legal_actions(state, 0) == [WITHDRAW, READY]
    view = public(state)
    assert [SPEC.action_label(view, a) for a in ENGINE.open_actions(state)] == \
        ["Call my bone", "Withdraw my call", "Ready"]
    assert SPEC.action_label(ENGINE.view(state, 0), WITHDRAW) == "Withdraw my call (1 change left)"
    assert all(SPEC.action_style(view, a) != discord.ButtonStyle.danger for a in (CALL, WITHDRAW, READY))
    refused = ENGINE.legal_actions(state, 1)
    assert WITHDRAW not in refused
    state, _ = ENGINE.apply(state, 0, WITHDRAW)
    assert not state.calls[0] and state.ready[0]  # two changes spent: Ready by itself


def test_no_button_of_a_whole_game_is_red_and_the_bots_play_it_through() -> None:
    rng = random.Random(2)
    for seed in range(20):
        state = ENGINE.new_game(2 + seed % 4, rtb.RollTheBonesOptions(max_rounds=30), seed)
        for _ in range(2_000):
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            for action in ENGINE.legal_actions(state, seat) + ENGINE.open_actions(state):
                assert SPEC.action_style(view, action) != discord.ButtonStyle.danger
                assert 0 < len(SPEC.action_label(view, action)) <= 80
            state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, Chooser(rng)))
        assert ENGINE.is_over(state)


# -- the story ---------------------------------------------------------------------------------------


def test_a_round_is_one_line_of_history_and_a_headline_that_names_whom_it_concerns() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state.dice.forced = [9, 7, 7, 5, 8]
    table_events: list[Event] = []
    state, more = act(state, 0, "ante_add", 4)
    table_events += more
    state, more = act(state, 0, "ante_confirm")
    table_events += more
    for seat in (1, 2):
        state, more = act(state, seat, "ante_fill")
        table_events += more
        state, more = act(state, seat, "ante_confirm")
        table_events += more
    story = SPEC.story(table_for(state), kit.public(SPEC, table_for(state)), table_events)
    assert story == "Antes: Seat 1 d4 (short) · Seat 2 2×d4 · Seat 3 2×d4"
    assert SPEC.headline(table_for(state), kit.public(SPEC, table_for(state)), table_events) is None  # antes are not news to ping
    pick_events: list[Event] = []
    while state.phase == "bone":
        state, more = act(state, ENGINE.to_act(state)[0], "ready")
        pick_events += more
    state, more = act(state, 1, "pick", 8)
    pick_events += more
    state, more = act(state, 2, "pick", 8)
    pick_events += more
    table = table_for(state)
    story = SPEC.story(table, kit.public(SPEC, table), pick_events)
    assert story is not None
    assert story.startswith("nobody rolls a bone die · Seat 1 d10 9 · Seat 2 d8 7 · Seat 3 d8 7 → Seat 1 takes ")
    assert "Seat 3 takes 2 dice" in story  # the side pot, after a roll-off
    headline = SPEC.headline(table, kit.public(SPEC, table), pick_events)
    assert headline is not None and headline.startswith("🏆 Seat 1 wins round 1 rolling 9 and takes ")
    assert "Seat 3 takes a side pot (2 dice)." in headline
    assert not CODE.search(story + headline)


def test_an_elimination_and_the_new_ante_make_the_headline() -> None:
    state = staged([[4, 8], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = roll(state, [5, 5, 2], picks={0: 8, 1: 6, 2: 4}, antes={0: [4]})
    events: list[Event] = []
    state.dice.forced = [6, 11]
    while state.phase == "bone":
        seat = ENGINE.to_act(state)[0]
        state, more = ENGINE.apply(state, seat, CALL if seat == 1 and not state.calls[1] else READY)
        events += more
    assert state.phase == "ante"  # each had one die to roll: it was rolled by itself
    table = table_for(state)
    assert SPEC.headline(table, kit.public(SPEC, table), events) == ("🏆 Seat 2 wins round 1 rolling 11 and takes 8 dice. "
                                            "💀 Seat 1 is out of dice. The ante rises to 3.")
    story = SPEC.story(table, kit.public(SPEC, table), events)
    assert story is not None and story.endswith("→ Seat 2 takes 8 dice (after 1 tie) · Seat 1 out")
    assert SPEC.chapter(public(state)) == "Round 2"
    assert "💀 ~~Ann~~ out in round 1" in table_text(state)


def test_the_end_of_the_game_leaves_the_ping_to_the_standings() -> None:
    state = ENGINE.new_game(2, rtb.RollTheBonesOptions(max_rounds=1), seed=3)
    state, events = played(state, 200, random.Random(1))
    assert ENGINE.is_over(state)
    table = table_for(state)
    assert SPEC.headline(table, kit.public(SPEC, table), events) is None
    assert SPEC.chapter(public(state)) == "Game over"
    assert table_text(state).startswith("Roll the Bones: game over\nThe round cap is reached")
    assert SPEC.picture(table, public(state)) is not None  # the last roll
    assert not CODE.search(SPEC.story(table, kit.public(SPEC, table), events) or "")


# -- details: where every die went ---------------------------------------------------------------------


def test_the_details_account_for_every_pot_even_after_many_ties() -> None:
    """Six players with the longest names Discord allows and four ties in a round: the rolls
    give way (the latest kept, the rest named as left out), never the pots or the counts."""
    names = [letter * 32 for letter in "ABCDEF"]
    # Ann holds one die: she antes nothing and rolls it; the others tie four times.
    state = staged([[10], MIXED, MIXED, MIXED, MIXED, MIXED])
    state, _ = roll(state, [3, 8, 8, 8, 8, 8], picks={s: 8 for s in range(1, 6)})
    state, _ = roll(state, [6, 6, 6, 6, 2], picks={s: 6 for s in range(1, 6)})
    state, _ = roll(state, [5, 5, 5, 1], picks={s: 6 for s in range(1, 5)})
    state, _ = roll(state, [4, 4, 1], picks={s: 8 for s in range(1, 4)})
    state, _ = roll(state, [3, 1], picks={1: 10, 2: 10})
    report = state.last_round
    assert report is not None and len(report.rolls) == 5 and report.awards
    fields = details(state, names)
    rolls, accounts = fields["Round 1: the rolls"], fields["Round 1: where the dice went"]
    assert rolls.startswith("… ") and "earlier rolls in `/game log`" in rolls.splitlines()[0]
    assert f"Roll 5: {'B' * 32}: d10 → **3**" in rolls and f"→ {'B' * 32} rolls highest" in rolls
    for award in report.awards:
        assert f"**{award.pot}** ({len(award.dice)}:" in accounts
    assert accounts.count(" → **") == len(report.awards)
    assert f"open to {'B' * 32}, {'C' * 32} → **{'B' * 32}**" in accounts  # the tied two
    now = next(line for line in accounts.splitlines() if line.startswith("Dice now: "))
    assert sum(int(n) for n in re.findall(r"→(\d+)", now)) == 1 + 5 * 11 and now.count("→") == 6


def test_the_details_name_a_rolloff_an_elimination_and_the_new_ante() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = roll(state, [9, 7, 7, 5, 8], picks={1: 8, 2: 8}, antes={0: [4]})
    accounts = details(state, ["Ann", "Bob", "Cy"])["Round 1: where the dice went"]
    assert "**Main pot** (3: 3×d4), open to all → **Ann**" in accounts  # everyone paid into it
    assert "**Side pot 1** (2: 2×d4), open to Bob, Cy → **Cy** (after a d12 roll-off: Bob 5, Cy 8)" in accounts
    assert "🏆 **Ann** wins the round and takes the 3 rolled dice (2×d8 d10)" in accounts

    state = staged([[4, 8], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = roll(state, [5, 5, 2], picks={0: 8, 1: 6, 2: 4}, antes={0: [4]})
    state, _ = roll(state, [6, 11], picks={}, callers=[1])
    fields = details(state, ["Ann", "Bob", "Cy"])
    rolls, accounts = fields["Round 1: the rolls"], fields["Round 1: where the dice went"]
    assert rolls.splitlines()[0] == "Roll 1: Ann: d8 → **5** · Bob: d6 → **5** · Cy: d4 → **2**"
    assert "tie at 5: Ann and Bob keep their dice and roll again" in rolls
    assert "Roll 2: Ann: d8 → **6** · Bob: d12 🦴 → **11**" in rolls
    assert "💀 Out: Ann" in accounts and "The ante rises to **3**." in accounts
    assert "Dice now: Ann 2→0 · Bob 11→16 · Cy 20→17" in accounts
    assert "~~Ann~~ out in round 1" in fields["Players"]
