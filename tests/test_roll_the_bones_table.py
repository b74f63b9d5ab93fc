"""What the Roll the Bones table shows: a phone-sized table, the roll as a picture, a block per
player saying where they stand with their own bone-call button beside it, private views that hold
only what is private (and read right once their buttons are gone), a line of history per phase,
and Details and the rules a phone screen a page. Everything is drawn from states staged on the
engine, as the host would draw them."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence

import discord
from PIL import Image

from bot import layout
from bot.components import OpenButton
from bot.games import SCREEN
from bot.models import Book, Table
from bot.present import Channel, Origin, Post, present, private_message, table_message
from bot.step import Moment, play
from cogs.roll_the_bones import SPEC
from cogs.roll_the_bones.pictures import KIND_FONT, NAME_FONT, Kind, Thrown, draw_hand, draw_roll, kind_face
from cogs.roll_the_bones.words import latest_roll
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
    """The game's blocks of the live table, as the host stacks them."""
    return "\n".join(p.text for p in SPEC.table_parts(table_for(state, names), public(state)))


def shown(state: rtb.RollTheBonesState, names: Sequence[str] = NAMES) -> object:
    """The whole table message the host builds (the line that asks, the blocks, the controls)."""
    return table_message(Moment(SPEC, table_for(state, names), state), Book())


def pages(state: rtb.RollTheBonesState, names: Sequence[str], seat: int | None = None) -> dict[str, str]:
    """Details, page by page: each one phone screen."""
    table = table_for(state, names)
    found = SPEC.details_pages(table, ENGINE.view(state, seat), seat)
    texts = {page.title: "\n".join(part.text for part in page.parts) for page in found}
    assert all(len(text) <= SCREEN for text in texts.values()), {t: len(x) for t, x in texts.items()}
    return texts


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
    message (the host's line that asks, a headline and the footer included) stays under 1,000
    characters, and no live table has more than 8 controls."""
    names = [f"{letter * 30} {n}" for n, letter in enumerate("ABCD")]
    rng = random.Random(5)
    longest = 0
    for seed in range(6):
        state = ENGINE.new_game(4, rtb.RollTheBonesOptions(), seed)
        while not ENGINE.is_over(state):
            state, _ = played(state, 1, rng)
            table = table_for(state, names)
            table.status = "finished" if ENGINE.is_over(state) else "active"
            message = table_message(Moment(SPEC, table, state), Book(), headline="🔁 <@123456789012345678> and "
                                    "<@123456789012345679>: a change of bone call undoes every Ready, so press "
                                    "**I'm ready** again.")
            size = len(kit.words(message))
            longest = max(longest, size)
            assert size <= 1000, (size, kit.words(message))
            assert len(kit.controls(message)) <= 8, kit.labels(message)
    assert longest > 600, longest  # the long names did reach the table


def test_the_table_shows_the_roll_as_its_picture_until_the_next_antes_are_in() -> None:
    """The roll just thrown is the table's picture (its words for screen readers); the line of
    history above the table says it, so the table's words do not say it again."""
    state = staged([MIXED, MIXED, MIXED])
    assert latest_roll(public(state)) is None and SPEC.picture(table_for(state), public(state)) is None
    state, _ = roll(state, [7, 3, 2], picks={0: 8, 1: 6, 2: 10}, callers=[])
    text = table_text(state)
    picture = SPEC.picture(table_for(state), public(state))
    assert picture is not None and "Ann rolled a d8: 7; Bob rolled a d6: 3; Cy rolled a d10: 2. Ann rolls highest" \
        in picture.description
    assert "7" not in text.split("\n", 1)[0] and "rolls highest" not in text
    assert text.startswith("### Round 2 · antes\n**Antes**: each player puts 2 dice in the pot, in secret; every "
                           "ante is shown at once.")
    # the picture below the new round's antes is named as the last round's, just above it
    assert picture.caption == "Round 1's roll" and "roll" not in text.rsplit("\n", 1)[-1]
    state, _ = do_ante(state)  # the antes are in: the table is about the new pot now
    text = table_text(state)
    assert "**Pot**: 6 dice (2×d4 4×d6). The highest roll takes it and every die rolled." in text
    assert "Below:" not in text
    assert SPEC.picture(table_for(state), public(state)) is None
    # who put in what is the line of history above the table, and Details' first page
    now = pages(state, NAMES[:3])["Round 2 now"]
    assert "**Antes**: Ann 2×d4 · Bob 2×d6 · Cy 2×d6" in now


def test_a_tie_shows_the_tied_roll_and_who_rolls_again() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = roll(state, [5, 5, 2], picks={0: 8, 1: 8, 2: 6})
    text = table_text(state)
    assert text.startswith("### Round 1, roll 2 · antes\n")
    assert "After a tie, only Ann and Bob roll." in text
    picture = SPEC.picture(table_for(state), public(state))
    assert picture is not None and picture.description.endswith(
        "tie at 5: every rolled die goes to the pot, Ann and Bob roll again.")
    assert "**Cy** · sits out this roll (not in the tie)\n8 dice: 2×d6 3×d8 2×d10 d12🦴" in text
    assert "**Pot**: 9 dice" in text  # three dice rolled and six anted, waiting in the pot
    assert picture.caption == "The tie"


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
    assert "\n✅ **Ann** · ante sealed\n11 dice: 2×d4 3×d6 3×d8 2×d10 d12🦴\n⏳ **Bob** · choosing 2 dice to ante\n" \
        in table_text(sealed)  # not what


def test_each_player_block_says_where_they_stand_and_a_short_ante_says_why() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    parts = SPEC.table_parts(table_for(state), public(state))
    assert [p.seat for p in parts] == [None, 0, 1, 2]  # a block per player, named by its seat
    assert parts[1].text == "⏳ **Ann** · choosing an ante · 1 die, all they can spare\n2 dice: d4 d10"
    state, _ = do_ante(state, {0: [4]})
    text = table_text(state)
    assert "**Main pot**: 3 dice, anyone rolling can win it\n**Side pot 1**: 2 dice, only Bob or Cy can win it" in text
    # she has no call to make, so she is not asked: her block says why, never "ready"
    assert "✅ **Ann** · no bone die\n1 die: d10" in text
    assert "⏳ **Bob** · not ready · bone die not called" in text
    assert not re.search(r"\(short\)|Pot \d", text)  # no word a newcomer must learn


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
        boxes.append(image.crop((x, 30, x + 120, 150)).convert("RGBA").tobytes())
    assert len(set(boxes)) == len(kinds)


def test_six_players_draw_in_one_row_and_long_names_are_cut() -> None:
    dice = tuple(Thrown(letter * 32, 6, 3, False, letter == "A") for letter in "ABCDEF")
    image = Image.open(io.BytesIO(draw_roll(dice)))
    assert image.width <= 820 and image.height < 250


# -- private views ---------------------------------------------------------------------------------


def private(state: rtb.RollTheBonesState, seat: int) -> object:
    """The seat's private view as the host builds it: the question and controls while the seat
    is asked; without them, what an old copy is redrawn as once nothing is asked of it."""
    return private_message(Moment(SPEC, table_for(state), state), seat)


def test_a_private_view_holds_the_hand_the_choice_and_what_it_decides() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = act(state, 1, "ante_add", 10)
    view = private(state, 1)
    assert kit.top(view).startswith("Choose 2 dice for your ante (1 chosen), then seal it.")
    assert kit.words(view).split("\n")[1:4] == ["### Round 1 · your ante",
                                                "**Your 11 dice**: 2×d4 3×d6 3×d8 2×d10 d12🦴",
                                                "**Your ante** (1 of 2): d10"]
    assert len(kit.words(view)) <= 400
    assert "Ann" not in kit.words(view) and "Players" not in kit.words(view)  # no copy of the table
    # what it decides, as a picture: one die per kind held, the d10 in the ante ringed
    picture = view.picture  # type: ignore[attr-defined]
    assert picture is not None and picture.description == ("Your dice: 2×d4 3×d6 3×d8 2×d10 d12🦴. "
                                                            "In your ante: d10.")
    assert [(k.sides, k.count, k.in_ante) for k in picture.key[1]] == [
        (4, 2, 0), (6, 3, 0), (8, 3, 0), (10, 2, 1), (12, 1, 0)]
    assert picture.draw().startswith(PNG)
    assert kit.labels(view)[:5] == ["Ante a d4", "Ante a d6", "Ante a d8", "Ante a d10", "Ante my bone die (d12)"]
    state, _ = act(state, 1, "ante_fill")
    state, _ = act(state, 1, "ante_confirm")
    view = private(state, 1)
    # nothing is asked of Bob now: facts only, no question, no "waiting for you", no picture
    assert kit.top(view) == "### Round 1 · your ante\n**Your 11 dice**: 2×d4 3×d6 3×d8 2×d10 d12🦴\n" \
                            "**Your ante, sealed**: d4 d10"
    assert not kit.controls(view) and view.picture is None  # type: ignore[attr-defined]
    assert not re.search(r"[Ww]aiting|press|Choose|Call your", kit.words(view))


def test_the_pick_view_names_the_sealed_die_and_the_called_bone() -> None:
    state = staged([MIXED, MIXED, MIXED])
    state, _ = do_ante(state)
    state, _ = act(state, 0, "bone_toggle")
    called = kit.words(private(state, 0))
    assert "🦴 You called your bone die: you will roll it." in called
    for seat in range(3):
        state, _ = act(state, seat, "ready")
    assert state.phase == "pick"
    words = kit.words(private(state, 0))
    assert "### Round 1 · your die" in words  # her bone die is her only choice: it is sealed for her
    assert "**You roll** your d12🦴: sealed until every die is rolled." in words
    asked = private(state, 1)
    assert kit.top(asked) == "Pick the die you roll. Nobody sees it until every die is rolled."
    picture = asked.picture  # type: ignore[attr-defined]
    assert picture is not None and [(k.sides, k.idle) for k in picture.key[1]] == [
        (6, False), (8, False), (10, False), (12, True)]  # his bone die, not called, is greyed
    assert "You did not call your bone die (🦴), so you may not roll it this time." in kit.words(asked)
    state, _ = act(state, 1, "pick", 8)
    assert "**You roll** your d8: sealed until every die is rolled." in kit.words(private(state, 1))


# -- the bone call as two buttons -------------------------------------------------------------------


def beside(message: object) -> dict[str, str]:
    """Each button that sits beside a player's block: {the block's first line: the label}."""
    return {item["components"][0]["content"].split("\n")[0]: item["accessory"]["label"]
            for item in layout.items(message.layout)  # type: ignore[attr-defined]
            if item["type"] == layout.SECTION and item["accessory"].get("custom_id", "").startswith("bn:all:")}


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
        ["Call my bone", "Withdraw my call", "I'm ready"]
    assert SPEC.action_label(ENGINE.view(state, 0), WITHDRAW) == "Withdraw my call (1 change left)"
    assert all(SPEC.action_style(view, a) != discord.ButtonStyle.danger for a in (CALL, WITHDRAW, READY))
    refused = ENGINE.legal_actions(state, 1)
    assert WITHDRAW not in refused
    state, _ = ENGINE.apply(state, 0, WITHDRAW)
    # two changes spent: her call stands, but her Ready is still hers to press (RB-2)
    assert not state.calls[0] and not state.ready[0] and ENGINE.legal_actions(state, 0) == [READY]
    assert "⏳ **Ann** · not ready · bone die not called (no changes left)\n" in table_text(state)
    state, _ = ENGINE.apply(state, 0, READY)
    assert "✅ **Ann** · ready · bone die not called (no changes left)\n" in table_text(state)


def test_a_players_own_bone_call_sits_beside_their_block_and_ready_says_it_is_everyones() -> None:
    """Ann has called, Bob has not: her "Withdraw" sits beside her block and his "Call" beside
    his, each block saying where its player stands; "I'm ready" is everyone's, and the line
    that asks says so. Once only Bob is asked, every button is his."""
    state = staged([MIXED, MIXED])
    state, _ = do_ante(state)
    state, _ = ENGINE.apply(state, 0, CALL)
    message = shown(state)
    assert beside(message) == {"⏳ **Ann** · not ready · 🦴 called": "Withdraw my call",
                               "⏳ **Bob** · not ready · bone die not called": "Call my bone"}
    row = [b.item.label for b in kit.controls(message, OpenButton) if b.item.label not in beside(message).values()]
    assert row == ["I'm ready"]
    assert kit.top(message) == ("<@1>, <@2>: will you roll your bone die (🦴) this time? Call it or not, "
                                "then each of you presses **I'm ready**.")
    state, _ = ENGINE.apply(state, 0, READY)
    message = shown(state)
    assert beside(message) == {}  # one player asked: the row is his
    assert [b.item.label for b in kit.controls(message, OpenButton)] == ["Call my bone", "I'm ready"]
    assert kit.top(message).startswith("<@2>: ") and kit.top(message).endswith("then press **I'm ready**.")
    assert "✅ **Ann** · ready · 🦴 called" in kit.words(message)


def test_a_player_whose_ready_a_change_undid_is_asked_again_by_a_new_message() -> None:
    """Bob pressed Ready; Ann's call undoes it. The host sees Bob newly asked (he was not asked
    before her click, he is after), so the table is posted anew, pinging him, with a line that
    says why; the old table's line of history says what happened, not what to do."""
    state = staged([MIXED, MIXED, MIXED])
    state, _ = do_ante(state)
    table = table_for(state)
    step = play(Moment(SPEC, table, state), 1, READY, 0.0)
    assert step.newly == [] and step.after.acting == [0, 2]
    book = Book(message_id=5, chapter=step.after.chapter, turn_events=[e.model_dump() for e in step.events])
    step = play(step.after, 0, CALL, 0.0)
    assert step.newly == [1] and step.after.acting == [0, 1, 2]
    plan = present(step, Channel(book), Origin(message_id=5, seat=0))
    (post,) = [op for op in plan.channel if isinstance(op, Post)]
    asks = kit.top(post.shown).split("\n")
    assert asks[0] == "🔁 <@2>: a change of bone call undoes every Ready, so press **I'm ready** again."
    assert asks[-1].startswith("<@1>, <@2>, <@3>: ") and post.shown.pings
    assert plan.answer is not None and plan.answer.history == "**Round 1** · Ann calls their bone die"  # type: ignore[union-attr]
    # Cy had not pressed Ready: he is asked as before, not told to press again
    assert "<@3>: a change" not in kit.top(post.shown)


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


def test_a_round_is_one_line_of_history_and_the_table_below_does_not_repeat_it() -> None:
    """The line of history says the roll and who took what; the next table shows the roll as
    its picture and says it no more (no headline repeats it)."""
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
    assert story == "Antes: Seat 1 d4 (all they can spare) · Seat 2 2×d4 · Seat 3 2×d4"
    assert SPEC.headline(table_for(state), kit.public(SPEC, table_for(state)), table_events) is None  # antes are not news to ping
    assert "Antes" not in table_text(state).replace("**Antes**: each", "")  # the table below says only the pot
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
    assert SPEC.headline(table, kit.public(SPEC, table), pick_events) is None
    below = table_text(state, NAMES[:3])
    assert " 9" not in below and "takes" not in below and "rolls highest" not in below
    assert not CODE.search(story)


def test_an_elimination_and_the_new_ante_make_the_line_of_history() -> None:
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
    assert SPEC.headline(table, kit.public(SPEC, table), events) is None
    story = SPEC.story(table, kit.public(SPEC, table), events)
    assert story is not None and story.endswith(
        "→ Seat 2 takes 8 dice (after 1 tie) · Seat 1 out · the ante rises to 3")
    assert story.startswith("Seat 2 calls their bone die · ")
    assert SPEC.chapter(public(state)) == "Round 2"
    text = table_text(state)
    assert "💀 ~~Ann~~ · out of dice since round 1" in text
    assert "**Antes**: each player puts 3 dice (2, +1 for each player out) in the pot" in text


def test_the_end_of_the_game_leaves_the_winner_to_the_standings() -> None:
    state = ENGINE.new_game(2, rtb.RollTheBonesOptions(max_rounds=1), seed=3)
    state, events = played(state, 200, random.Random(1))
    assert ENGINE.is_over(state)
    table = table_for(state)
    assert SPEC.headline(table, kit.public(SPEC, table), events) is None
    assert SPEC.chapter(public(state)) == "Game over"
    assert table_text(state) == "### Game over\nRound 1 was the last: the most dice wins."
    last = SPEC.picture(table, public(state))
    assert last is not None and last.caption == "The last roll"
    assert not CODE.search(SPEC.story(table, kit.public(SPEC, table), events) or "")
    table.status = "finished"
    final = table_message(Moment(SPEC, table, state), Book())
    said = kit.words(final)
    # the caption says which roll the picture is, just above it, below the standings
    items = layout.items(final.layout)
    order = [i["content"] if i["type"] == layout.TEXT else i["type"] for i in items
             if i["type"] in (layout.TEXT, layout.GALLERY)]
    standings = next(n for n, t in enumerate(order) if "Final standings" in str(t))
    assert standings < order.index("-# The last roll") == order.index(layout.GALLERY) - 1, order
    # a server with pictures off: nothing to caption
    assert "The last roll" not in kit.words(table_message(Moment(SPEC, table, state, pictures=False), Book()))
    # a game ended early is shown without its picture, so nothing captions one
    table.status = "cancelled"
    ended = kit.words(table_message(Moment(SPEC, table, state), Book()))
    assert "game ended" in ended and "The last roll" not in ended
    assert len(re.findall(r"\bwins?\b", said)) == 2, said  # "the most dice wins", and the host's one line
    assert "Game #1" in said and "per move" not in said


# -- details: where every die went ---------------------------------------------------------------------


def test_the_details_account_for_every_pot_even_after_many_ties() -> None:
    """Six players with the longest names Discord allows and four ties in a round: the rolls
    give way (the latest kept, the rest named as left out), never the pots or the counts, which
    go on over another page; every page is one phone screen."""
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
    found = pages(state, names)
    rolls = found["Round 1: the rolls"]
    accounts = "\n".join(text for title, text in found.items() if title.startswith("Round 1: where the dice went"))
    assert rolls.startswith("… ") and "earlier rolls in `/game log`" in rolls.splitlines()[0]
    assert f"Roll 5: {'B' * 32}: d10 → **3**" in rolls and f"→ {'B' * 32} rolls highest" in rolls
    for award in report.awards:
        assert f"**{award.pot}** ({len(award.dice)}:" in accounts
    assert accounts.count(" → **") == len(report.awards)
    assert f"only {'B' * 32} or {'C' * 32} could win it → **{'B' * 32}**" in accounts  # the tied two
    now = next(line for line in accounts.splitlines() if line.startswith("Dice now: "))
    assert sum(int(n) for n in re.findall(r"→(\d+)", now)) == 1 + 5 * 11 and now.count("→") == 6


def test_the_details_name_a_rolloff_an_elimination_and_the_new_ante() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = roll(state, [9, 7, 7, 5, 8], picks={1: 8, 2: 8}, antes={0: [4]})
    accounts = pages(state, ["Ann", "Bob", "Cy"])["Round 1: where the dice went"]
    assert "**Main pot** (3: 3×d4), anyone rolling could win it → **Ann**" in accounts  # everyone paid into it
    assert "**Side pot 1** (2: 2×d4), only Bob or Cy could win it → **Cy** (after a d12 roll-off: Bob 5, Cy 8)" \
        in accounts
    assert "🏆 **Ann** wins the round and takes the 3 rolled dice (2×d8 d10)" in accounts

    state = staged([[4, 8], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = roll(state, [5, 5, 2], picks={0: 8, 1: 6, 2: 4}, antes={0: [4]})
    state, _ = roll(state, [6, 11], picks={}, callers=[1])
    found = pages(state, ["Ann", "Bob", "Cy"])
    rolls, accounts = found["Round 1: the rolls"], found["Round 1: where the dice went"]
    assert rolls.splitlines()[0] == "Roll 1: Ann: d8 → **5** · Bob: d6 → **5** · Cy: d4 → **2**"
    assert "tie at 5: Ann and Bob keep their dice and roll again" in rolls
    assert "Roll 2: Ann: d8 → **6** · Bob: d12 🦴 → **11**" in rolls
    assert "💀 Out: Ann" in accounts and "The ante rises to **3**." in accounts
    assert "Dice now: Ann 2→0 · Bob 11→16 · Cy 20→17" in accounts
    assert "💀 ~~Ann~~ · out of dice since round 1" in found["Players"]


def test_details_open_on_what_matters_now() -> None:
    """The first page: your dice and your sealed ante, the ante in force, the pot and who may
    win it, the antes shown."""
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = act(state, 1, "ante_add", 10)
    first = next(iter(pages(state, ["Ann", "Bob", "Cy"], seat=1).items()))
    assert first[0] == "Round 1 now"
    assert first[1].startswith("**Your 11 dice**: 2×d4 3×d6 3×d8 2×d10 d12🦴\n**Your ante** (1 of 2): d10\n"
                               "**Ante**: 2 dice each (1 more for each player who goes out)")
    state, _ = do_ante(state, {0: [4]})
    first = next(iter(pages(state, ["Ann", "Bob", "Cy"], seat=None).values()))
    assert "**Main pot**: 3 dice, anyone rolling can win it" in first
    assert "**Antes**: Ann d4 · Bob 2×d4 · Cy 2×d4" in first


def test_the_rules_open_on_how_to_play_then_the_full_rules_and_the_words() -> None:
    for options in (rtb.RollTheBonesOptions(), rtb.RollTheBonesOptions(dice_set="all_d6", side_pots="simple",
                                                                       max_rounds=50)):
        found = SPEC.rules_pages(options)
        texts = ["\n".join(p.text for p in page.parts) for page in found]
        assert found[0].title == "How to play" and len(texts[0]) <= 700
        assert "I'm ready" in texts[0] and "highest roll takes the pot" in texts[0]
        # what a tie costs, before a newcomer meets it
        assert "A tie: rolled dice go to the pot; the tied players ante and roll again." in texts[0]
        assert all(len(t) <= SCREEN for t in texts), [len(t) for t in texts]
        assert any("House rulings" in t for t in texts) and any("Timeouts" in t for t in texts)
        words = "\n".join(t for page, t in zip(found, texts, strict=True) if page.title.startswith("Words"))
        for word in ("bone die", "ante", "all they can spare", "pot", "side pot", "roll-off", "sealed"):
            assert f"**{word}" in words or f", {word}**" in words, word
    assert "round 50" in "\n".join(p.parts[0].text for p in found)


def test_your_dice_read_on_a_phone() -> None:
    """The picture of your own dice: five kinds in one row, every word 11 px or more once a
    phone shows it 400 px wide, and each kind's shape and colour those of a roll."""
    kinds = tuple(Kind(sides, 2, sides == rtb.BONE, 1 if sides == 8 else 0) for sides in (4, 6, 8, 10, 12))
    image = Image.open(io.BytesIO(draw_hand(kinds)))
    scale = 400 / max(image.width, 400)
    assert image.width <= 700 and min(KIND_FONT, NAME_FONT) * scale >= 11
    assert kind_face(kinds[2]).shape == "d8" and kind_face(kinds[2]).badge == "1"

