"""What the Bare Bones table shows: phone-sized over whole games, no hand in public, the dice
in their colours, and the hand, Details and final scoresheet; every decision with its subject,
Details and the rules a phone screen a page, and no word a new player must learn."""

from __future__ import annotations

import io
import random
import re
import statistics
import time

import pytest
from PIL import Image

from bot import present
from bot.components import ActionButton, ActionSelect
from bot.errors import Refusal
from bot.games import Part
from bot.models import Book, Table
from bot.step import Moment
from cogs.bare_bones import SPEC, make_options
from cogs.bare_bones.pictures import COLOUR_RGB, draw_dice
from cogs.bare_bones.words import sheet_compact
from rules import bare_bones as bb
from rules.base import Chooser, Event
from tests import kit
from tests.test_bare_bones_engine import act, play, staged

ENGINE = bb.ENGINE
NAMES = ["Annabelle", "Bartholomew", "Cordelia", "Desmond"]


def table_for(state: bb.BareBonesState, seats: int) -> Table:
    return kit.table_for(state, NAMES[:seats], game=ENGINE.key, id=5, status="active")


#: what a new player would have to learn: "2 AU", "FPV", "7 pts", "4c", a "·" standing for nothing
ABBREVIATIONS = re.compile(r"\bAU\b|\bFPV\b|\bpts\b|\b\d+c\b|\bRnd\b|^·$|\| · \|")


def message_length(shown: present.Shown) -> int:
    """What a player reads: every text of the layout message."""
    return len(kit.words(shown))


def text(parts: list[Part]) -> str:
    return "\n".join(p.text for p in parts)


def whole_game(seats: int, seed: int, options: bb.BareBonesOptions | None = None
               ) -> list[bb.BareBonesState]:
    """Every state of a game bots play to the end."""
    state = ENGINE.new_game(seats, options or bb.BareBonesOptions(), seed)
    choose = Chooser(random.Random(seed))
    states = [state]
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, choose))
        states.append(state)
    return states


def hand_names(state: bb.BareBonesState) -> list[list[str]]:
    return [[bb.CARDS[c].name for c in p.hand] for p in state.players]


@pytest.mark.parametrize("seats,action_set", [(2, "basics"), (3, "interplay"), (4, "many_paths"),
                                              (4, "money_money")])
def test_tables_and_hands_fit_a_phone_over_whole_games(seats: int, action_set: str) -> None:
    states = whole_game(seats, 11 + seats, bb.BareBonesOptions(action_set=action_set))
    tables, hands = [], []
    for state in states:
        table = table_for(state, seats)
        if ENGINE.is_over(state):
            table.status = "finished"
        tables.append(message_length(present.table_message(Moment(SPEC, table, state), Book())))
        for seat in range(seats):
            hands.append(message_length(present.private_message(Moment(SPEC, table, state), seat)))
    assert statistics.median(tables) <= 700, statistics.median(tables)
    assert max(tables) <= 1000, max(tables)
    assert statistics.median(hands) <= 400, statistics.median(hands)


def test_no_hand_shows_in_a_public_table() -> None:
    """The hand's exact contents never appear on the table, except what Joyride or Full House
    revealed (checked by the engine's view; here: the cog adds nothing of its own)."""
    for state in whole_game(4, 5, bb.BareBonesOptions(action_set="interplay"))[::3]:
        table = table_for(state, 4)
        public = ENGINE.view(state, None)
        assert public.me is None
        shown = text(SPEC.table_parts(table, public))
        revealed = {r.seat for r in public.turn.reveals} if public.turn else set()
        for seat, p in enumerate(state.players):
            if seat in revealed or not p.hand:
                continue
            assert "Your hand" not in shown
            assert f"{NAMES[seat]}'s hand" not in shown
        # the table is the same whoever looks: it is drawn from the public view only
        assert text(SPEC.table_parts(table, public)) == shown


def test_the_hand_shows_cards_units_piles_and_what_each_card_does() -> None:
    states = whole_game(3, 3, bb.BareBonesOptions(action_set="basics"))
    state = next(s for s in states if s.turn is not None and s.turn.stage == "play"
                 and any(not bb.CARDS[c].is_dice for c in s.players[s.turn.seat].hand)
                 and any(bb.CARDS[c].is_dice for c in s.players[s.turn.seat].hand))
    seat = state.turn.seat
    table = table_for(state, 3)
    shown = present.private_message(Moment(SPEC, table, state), seat)
    said = kit.words(shown)
    assert "Action Units left" in said and "Draw pile" in said
    for c in state.players[seat].hand:
        card = bb.CARDS[c]
        if not card.is_dice:
            assert card.name in said and bb.card_short(card.key) in said
        else:  # a Dice Card says the die it rolls, not only its colour
            faces = "-".join(str(f) for f in next(d.faces for d in bb.DICE.colours if d.key == card.colour))
            assert f"die {faces}" in said
    labels = kit.labels(shown)
    assert "Done playing: roll the dice" in labels
    assert len(labels) == len(ENGINE.legal_actions(state, seat))
    assert len(kit.controls(shown, ActionButton)) == len(labels)


def test_the_dice_picture_is_a_png_in_the_seven_colours() -> None:
    keys = tuple((c, 4, False) for c in COLOUR_RGB)
    started = time.perf_counter()
    data = draw_dice(keys)
    assert time.perf_counter() - started < 2
    image = Image.open(io.BytesIO(data)).convert("RGBA").convert("RGB")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    colours = {rgb for _, rgb in image.getcolors(maxcolors=1 << 20) or []}
    for colour, (fill, _) in COLOUR_RGB.items():
        # the PNG may be stored with a palette, which moves a colour by a few steps
        assert any(max(abs(a - b) for a, b in zip(fill, c)) <= 8 for c in colours), colour
    # a blocked die looks different from the same die in play
    assert draw_dice((("red", 3, True),)) != draw_dice((("red", 3, False),))


def test_a_table_with_dice_has_their_picture_and_words() -> None:
    states = whole_game(2, 9)
    state = next(s for s in states if s.turn is not None and s.turn.dice)
    table = table_for(state, 2)
    public = ENGINE.view(state, None)
    picture = SPEC.picture(table, public)
    assert picture is not None
    assert "🎲" in text(SPEC.table_parts(table, public))
    for d in public.turn.dice:
        assert f"{d.name} {d.value}" in picture.description


def test_the_final_scoresheet_and_details() -> None:
    state = whole_game(3, 21)[-1]
    table = table_for(state, 3)
    table.status = "finished"
    public = ENGINE.view(state, None)
    final = text(SPEC.table_parts(table, public))
    finals = {f.seat: f for f in state.finals}
    totals = final.split("```")[1].strip().splitlines()[-1].split()
    assert totals[1:] == [str(finals[s].total) for s in state.order]
    # the host names the winner once; the sheet does not
    assert "wins" not in final and "winner" not in final.lower()
    pages = SPEC.details_pages(table, ENGINE.view(state, 0), 0)
    assert pages[0].title == "Scoresheet"
    sheet = text(pages[0].parts)
    assert "Cards" in sheet and "Total" in sheet and "final value" in sheet
    # every round's points and running total, as on the rulebook's sheet, a phone's width wide
    grid = sheet.split("```")[1].strip().splitlines()
    assert max(len(line) for line in grid) <= 6 + 8 * 3
    for column in public.sheet:
        for row in column.rows:
            line = next(x for x in grid if x.split()[0] == str(row.round))
            assert f"{row.points}/{row.total}" in line.split()
    assert len(sheet) <= 4096
    assert sheet_compact(public, [s.name for s in table.seats]).count("\n") >= 13


def test_custom_action_names_become_options() -> None:
    options = make_options("basics", "Greed, Pairs, Run, Mimic, Joyride, Yard Sale, Re-Re-Roll",
                           False, "physical", False)
    assert options.action_set == "custom" and len(options.custom_actions or []) == 7
    with pytest.raises(Refusal):
        make_options("custom", "Greed, Pairs", False, "physical", False)


def test_a_turn_reads_as_one_short_line_of_history() -> None:
    """A Hot Potato put on a draw pile is told in the line of history, its victim named; two
    sent to the same pile are counted, not told twice."""
    events = [
        Event(kind="turn", text="Round 3: Seat 2's turn."),
        Event(kind="match", seat=1, text="Seat 2 bonus matches Seat 1's Blue Dice Cards."),
        Event(kind="score", seat=1, seats=(1,), data={"points": 7, "coins": 10},
              text="Seat 2 scores 7 points and 10 coins: 4 Blue + 3 Red = 7 points."),
        Event(kind="buy", seat=1, seats=(1,), data={"card": "purple", "name": "Purple Dice Card", "cost": 10},
              text="Seat 2 buys Purple Dice Card for 10 coins."),
        Event(kind="potato", seat=1, seats=(1, 2), data={"to": 2},
              text="Seat 2 puts their first Hot Potato on top of Seat 3's draw pile."),
        Event(kind="potato", seat=1, seats=(1, 2), data={"to": 2},
              text="Seat 2 puts their second Hot Potato on top of Seat 3's draw pile."),
    ]
    table = table_for(ENGINE.new_game(3, bb.BareBonesOptions(), 1), 3)
    assert SPEC.story(table, kit.public(SPEC, table), events) == (
        "Seat 2: 7 points and 10 coins, 1 bonus match, bought Purple, "
        "put 2 Hot Potatoes on top of Seat 3's draw pile")
    assert SPEC.story(table, kit.public(SPEC, table), events[:-1] + [
        Event(kind="potato", seat=1, seats=(1,), data={"to": None}, text="Seat 2 keeps their second Hot Potato.")]
    ).endswith("bought Purple, put a Hot Potato on top of Seat 3's draw pile")


def test_a_hot_potato_passed_on_pings_nobody() -> None:
    """The channel pings only whom it asks to act: a Hot Potato's victim (and its sender) are
    named in the line of history, and no headline over the next table mentions them."""
    events = [Event(kind="potato", seat=1, seats=(1, 2), data={"to": 2},
                    text="Seat 2 puts the Hot Potato on top of Seat 3's draw pile."),
              Event(kind="potato", seat=2, seats=(2, 1), data={"to": 1},
                    text="Seat 3 puts the Hot Potato on top of Seat 2's draw pile.")]
    table = table_for(ENGINE.new_game(3, bb.BareBonesOptions(), 1), 3)
    view = kit.public(SPEC, table)
    assert SPEC.headline(table, view, events) is None
    line = present.history_line(table, "Round 3", SPEC.story(table, view, events))
    assert "<@" not in line
    assert line == ("**Round 3** · Bartholomew: put a Hot Potato on top of Cordelia's draw pile · "
                    "Cordelia: put a Hot Potato on top of Bartholomew's draw pile")


# -- every decision with its subject (issue 19) ------------------------------------------------


def private(state: bb.BareBonesState, seat: int) -> present.Shown:
    return present.private_message(Moment(SPEC, table_for(state, 2), state), seat)


def test_the_reroll_score_and_buy_views_show_the_dice_and_the_coins() -> None:
    """The dice being re-rolled, scored or bought with are in the same message as the buttons:
    as a picture and in words, with the points and coins once scored; not the empty hand and
    the piles."""
    state, seat = staged(2, ["green", "white", "blue", "re_re_roll"], "re_re_roll",
                         dice=[("green", 2), ("white", 4), ("blue", 3)])
    state, _ = play(state, "re_re_roll", "green", "white", "blue")  # the last card rolls
    assert state.turn is not None and state.turn.stage == "reroll"
    shown = private(state, seat)
    said = kit.words(shown)
    assert shown.picture is not None and "Green 2" in shown.picture.description
    assert "Green 2, White 4, Blue 3" in said and "White pays coins" in said
    assert "Re-rolls left: 2" in said
    assert "Re-roll all Green dice" in kit.labels(shown)
    assert "Draw pile" not in said and "Your hand is empty" not in said
    state, _ = act(state, "rerolls_done")
    assert state.turn is not None and state.turn.stage == "buy"
    shown = private(state, seat)
    said = kit.words(shown)
    assert shown.picture is not None
    assert "2 Green + 3 Blue = 5 points; 4 White = 4 coins" in said and "White 4, Blue 3" not in said
    assert "**5 points** and **4 coins**; 4 coins left to spend" in said
    # what the coins would buy, in a menu that gives each card's price
    assert "**On offer**: 2 cards" in said and "Buy Blue" in kit.labels(shown)
    # another seat's view never shows the dice as its own
    other = private(state, 1 - seat)
    assert other.picture is None and "Your dice" not in kit.words(other)


def test_the_draft_view_says_what_each_card_does() -> None:
    state = ENGINE.new_game(3, bb.BareBonesOptions(action_set="interplay"), 4)
    seat = ENGINE.to_act(state)[0]
    shown = present.private_message(Moment(SPEC, table_for(state, 3), state), seat)
    said = kit.words(shown)
    assert "Details" not in said
    offered = [s for s in ENGINE.view(state, seat).supply if s.draftable and s.count]
    assert len(offered) >= 6
    for stack in offered:
        if stack.dice:
            assert f"**{stack.name.removesuffix(' Dice Card')}** (worth {stack.fpv} at the end): die " in said
        else:
            assert f"**{stack.name}**" in said and stack.brief in said  # its key effect: seven must fit a phone
    assert "Your deck so far" in said
    assert len(said) <= 700, len(said)
    assert all(label.startswith("Draft ") for label in kit.labels(shown))


def test_a_loan_asks_with_the_facts_and_buttons_up_to_the_dearest_card() -> None:
    """Loan Shark is answered before any die is rolled: the question says so, what the dearest
    card costs, and what a coin not repaid costs; the amounts up to the dearest card are
    buttons, and every larger one (to the cap, BB-13) is a tap on "Borrow more" away, in
    menus of 25 whose placeholders say their range, with "Borrow nothing" still first."""
    from rules.bare_bones.table import loan_cap

    state, seat = staged(2, ["loan_shark", "white"], "loan_shark", dice=[("white", 3)])
    state, _ = play(state, "loan_shark")
    cap = loan_cap(state)
    shown = private(state, seat)
    assert not kit.controls(shown, ActionSelect)
    labels = kit.labels(shown)
    assert labels[:3] == ["Borrow nothing", "Borrow 1 coin", "Borrow 2 coins"]
    assert labels[-2:] == ["Borrow 12 coins", f"Borrow more (13 to {cap})…"] and len(labels) == 14
    said = kit.words(shown)
    assert kit.top(shown) == ("How many coins do you borrow (Loan Shark)? Repay next turn, or lose 2 points "
                              "a coin.")
    assert "You have not rolled yet; a White die pays 2 to 5 coins." in said
    assert "The dearest card in the Supply costs **12 coins**." in said
    assert "each coin still owed costs **2 points**" in said
    assert message_length(shown) <= 700, message_length(shown)
    state, _ = act(state, "loan_more", amount=13)
    shown = private(state, seat)
    menus = kit.controls(shown, ActionSelect)
    assert len(menus) == -(-(cap - 11) // 25) and not kit.controls(shown, ActionButton)
    options = [o.label for m in menus for o in m.item.options]
    assert options[:3] == ["Borrow nothing", "Borrow 13 coins", "Borrow 14 coins"]
    assert options[-1] == f"Borrow {cap} coins"
    assert menus[1].item.placeholder == "Borrow 37 coins … Borrow 61 coins"
    assert kit.top(shown) == f"A larger loan (Loan Shark): how many coins, up to {cap}?"
    assert f"Borrowing {cap} coins, the most (one of every card), could cost {2 * cap} points." in kit.words(shown)


def test_details_and_the_rules_answer_on_the_first_screen() -> None:
    """Details opens on what matters now (this round's turn, the Draft, the final sheet); every
    page of Details and of the rules is about one phone screen; How to play is one screen and
    the rules end with the game's words."""
    states = whole_game(4, 8, bb.BareBonesOptions(action_set="interplay"))
    for state in states[::7] + states[-1:]:
        table = table_for(state, 4)
        for seat in (None, 0):
            pages = SPEC.details_pages(table, ENGINE.view(state, seat), seat)
            first = pages[0].title
            if state.phase == "draft":
                assert first == "The Draft"
            elif ENGINE.is_over(state):
                assert first == "Scoresheet"
            else:
                assert first == f"Round {min(state.round, bb.ROUNDS)} of {bb.ROUNDS}"
            assert ("Your cards" in [p.title for p in pages]) == (seat is not None)
            for page in pages:
                assert len(text(page.parts)) <= 1000, (page.title, len(text(page.parts)))
    supply = " ".join(text(p.parts) for p in SPEC.details_pages(table, ENGINE.view(state, None), None))
    for stack in ENGINE.view(states[0], None).supply:
        assert stack.short in supply or stack.dice
    for o in (bb.BareBonesOptions(), bb.BareBonesOptions(action_set="random", draft_white=True, run_multiple=True),
              bb.BareBonesOptions(action_set="money_money")):
        pages = SPEC.rules_pages(o)
        # about 700 characters a page, markup included: what a phone shows without scrolling
        assert pages[0].title == "How to play" and len(text(pages[0].parts)) <= 710
        assert [p.title for p in pages][-2:] == ["Words", "Words (more)"]
        assert "Action Units" in text(pages[-2].parts)
        assert all(len(text(p.parts)) <= 710 for p in pages), [(p.title, len(text(p.parts))) for p in pages]
        assert len(pages) <= 25
        assert len({p.title for p in pages}) == len(pages)  # no two pages called the same
        every = "\n".join(f"{p.title}\n{text(p.parts)}" for p in pages)
        assert "Hot Potato" in every and "Tavern mode" in every and "Timeouts" in every


def test_no_word_a_new_player_must_learn() -> None:
    """No abbreviation on any table, private view, Details page, rules page or button over a
    game with every kind of card, and the table leaves the Supply to Details."""
    states = whole_game(4, 6, bb.BareBonesOptions(action_set="many_paths"))
    states += whole_game(3, 2, bb.BareBonesOptions(action_set="money_money"))
    for state in states[::5] + [states[-1]]:
        seats = state.seats
        table = table_for(state, seats)
        if ENGINE.is_over(state):
            table.status = "finished"
        moment = Moment(SPEC, table, state)
        said = [kit.words(present.table_message(moment, Book()))]
        said += [kit.words(present.private_message(moment, s)) for s in range(seats)]
        said += [" ".join(kit.labels(present.private_message(moment, s))) for s in range(seats)]
        said += [text(p.parts) for p in SPEC.details_pages(table, ENGINE.view(state, 0), 0)]
        for words in said:
            assert not ABBREVIATIONS.search(words), ABBREVIATIONS.search(words)
        if not ENGINE.is_over(state):
            assert "Supply" not in kit.words(present.table_message(moment, Book()))
    for page in SPEC.rules_pages(bb.BareBonesOptions()):
        assert not ABBREVIATIONS.search(text(page.parts)), page.title


def test_names_show_as_typed_in_every_part() -> None:
    """A display name made of markdown, a link and a mention reads as typed on the table, in a
    hand, on every page of Details and in the scoresheet's grid."""
    hostile = ["[click](http://evil.example/x)", "**Bo**||b|| <@1> # hi", "``` Cy", "Dee"]
    for state in whole_game(4, 3, bb.BareBonesOptions(action_set="interplay"))[::9]:
        table = kit.table_for(state, hostile, game=ENGINE.key, id=5, status="active")
        if ENGINE.is_over(state):
            table.status = "finished"
        said = [text(SPEC.table_parts(table, ENGINE.view(state, None)))]
        said += [text(SPEC.private_parts(table, s, ENGINE.view(state, s))) for s in range(4)]
        said += [text(p.parts) for p in SPEC.details_pages(table, ENGINE.view(state, 0), 0)]
        for words in said:
            outside = re.sub(r"```\n.*?\n```", "", words, flags=re.S)  # a code block shows markdown as typed
            assert not re.search(r"(?<!\\)\[[^\]]*\]\(", outside), outside
            assert "**Bo**" not in outside and "<@1>" not in outside and "://evil" not in outside, outside
            assert words.count("```") % 2 == 0, words


def test_the_first_draft_round_shows_the_blue_dice_that_made_the_play_order() -> None:
    """«Each player rolls all 4 Blue Dice. Whoever rolls the highest total is Player 1»: the
    table of the Draft's first round, and Details' Draft page, show each player's total,
    highest first, and any roll-off; the rules say 4 Blue dice, not one."""
    state = ENGINE.new_game(3, bb.BareBonesOptions(), 4)
    state.order_rolls = [[8, 11, 5]]
    state.order = [1, 2, 0]
    table = table_for(state, 3)
    public = ENGINE.view(state, None)
    said = kit.words(present.table_message(Moment(SPEC, table, state), Book()))
    assert "Bartholomew rolled 11, Annabelle 8, Cordelia 5." in said
    assert "4 Blue dice each" in said
    assert "Bartholomew rolled 11" in text(SPEC.details_pages(table, public, None)[0].parts)
    state.order_rolls = [[9, 9, 5], [4, 6, None]]
    said = kit.words(present.table_message(Moment(SPEC, table, state), Book()))
    assert "Annabelle rolled 9, Bartholomew 9, Cordelia 5; tied, they rolled again: Bartholomew 6, Annabelle 4." in said
    # after the first round of picks the table no longer carries it
    for _ in range(3):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    assert state.phase == "draft"
    assert "Who plays first" not in kit.words(present.table_message(Moment(SPEC, table, state), Book()))
    setup = text(SPEC.rules_pages(bb.BareBonesOptions())[1].parts)
    assert "rolls the 4 Blue dice: the highest total is **Player 1**" in setup


def test_the_buy_step_fits_a_phone_with_every_card_affordable() -> None:
    """With coins for the whole Supply (a big loan), the cards on offer are one menu, each
    option with its price and what it does in a few words, and Done buying a button: the DM is
    a short screen (fourteen buttons and a line a card were most of a phone's); the full texts
    are on Details' Supply pages."""
    state, seat = staged(2, ["loan_shark", "white"], "loan_shark", dice=[("white", 3)])
    state, _ = play(state, "loan_shark")
    state, _ = act(state, "loan_more", amount=13)
    state, _ = act(state, "loan", amount=60)
    state, _ = play(state, "white")
    assert state.turn is not None and state.turn.stage == "buy"
    shown = private(state, seat)
    said = kit.words(shown)
    view = ENGINE.view(state, seat)
    menus = kit.controls(shown, ActionSelect)
    assert len(menus) == 1 and menus[0].item.placeholder == "Buy a card…"
    offers = {o.label: o.description for o in menus[0].item.options}
    assert len(offers) == len(view.supply)  # every card the coins buy, one option each
    for stack in view.supply:
        described = offers[f"Buy {stack.name.removesuffix(' Dice Card')}"]
        assert described is not None and described.startswith(f"{stack.cost} coins") and len(described) <= 100
        if stack.dice:
            assert ": die " in described and (f"worth {stack.fpv} at the end" in described or not stack.fpv)
        else:
            assert described.endswith(f"{bb.units(stack.au)}: {stack.brief}")
    done = [b.item.label for b in kit.controls(shown, ActionButton)]
    assert len(done) == 1 and done[0].startswith("Done buying ("), done
    assert f"**On offer**: {len(view.supply)} cards (in full: **Details** on the table, Supply)" in said
    assert message_length(shown) <= 500, message_length(shown)


def test_a_hand_opened_out_of_turn_says_whom_the_game_waits_for() -> None:
    """My hand pressed while another player decides says who that is and that one's own
    question comes by DM, in the Draft and in every stage of a turn; in the last round, a seat
    whose turn is over is told so; the seat asked reads no such line."""
    state = ENGINE.new_game(3, bb.BareBonesOptions(), 4)
    table = table_for(state, 3)
    drafter = ENGINE.to_act(state)[0]
    for seat in {0, 1, 2} - {drafter}:
        said = kit.words(present.private_message(Moment(SPEC, table, state), seat))
        assert f"**{NAMES[drafter]}** is picking; your pick comes by DM." in said
    assert "is picking" not in kit.words(present.private_message(Moment(SPEC, table, state), drafter))
    while state.phase == "draft" and len(state.picks) < 3 * 3 - 1:  # the last pick: the others have none left
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
    last = ENGINE.to_act(state)[0]
    said = kit.words(present.private_message(Moment(SPEC, table, state), (last + 1) % 3))
    assert f"**{NAMES[last]}** is picking; your first turn comes by DM." in said

    state, seat = staged(2, ["white", "blue"], dice=[("white", 5), ("blue", 2)])
    other = 1 - seat
    said = kit.words(private(state, other))
    assert f"**{NAMES[seat]}'s turn** (playing cards); yours comes by DM." in said
    state, _ = play(state, "white", "blue")
    assert state.turn is not None and state.turn.stage == "buy"
    assert f"**{NAMES[seat]}'s turn** (buying); yours comes by DM." in kit.words(private(state, other))
    assert "'s turn** (" not in kit.words(private(state, seat))
    state, _ = act(state, "buy_done")  # the second player's turn: the first has had theirs
    assert state.turn is not None and state.turn.seat == other and state.order == [seat, other]
    stage = {"match": "bonus match", "play": "playing cards"}[state.turn.stage]
    assert f"**{NAMES[other]}'s turn** ({stage}); yours comes by DM." in kit.words(private(state, seat))
    state.round = bb.ROUNDS
    assert f"**{NAMES[other]}'s turn** ({stage}); your last turn is over." in kit.words(private(state, seat))


#: every Action Card, six to a Supply beside Loan Shark (its loan buys the whole Supply)
OTHERS = [k for k in bb.ACTIONS if k != "loan_shark"]


@pytest.mark.parametrize("others", [OTHERS[i:i + 6] for i in range(0, len(OTHERS), 6)])
def test_the_cards_on_offer_are_one_menu_each_with_its_price_and_effect(others: list[str]) -> None:
    """Buying, every card on offer belongs in one menu ("Buy a card…") and Done buying is a
    button of its own; each option's second line (at most 100 characters, as Discord allows)
    starts with the price and says what the card rolls or does. Once a card is bought, the
    view names it."""
    state, seat = staged(2, ["loan_shark", "white"], "loan_shark", *others, dice=[("white", 3)])
    state, _ = play(state, "loan_shark")
    state, _ = act(state, "loan_more", amount=13)
    state, _ = act(state, "loan", amount=60)
    state, _ = play(state, "white")
    assert state.turn is not None and state.turn.stage == "buy"
    view = ENGINE.view(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    assert len(legal) >= 14 and legal[-1].kind == "buy_done"
    assert [SPEC.action_group(view, a) for a in legal] == ["Buy a card…"] * (len(legal) - 1) + [None]
    for action in legal[:-1]:
        assert action.card is not None
        stack = next(s for s in view.supply if s.kind == bb.BY_KEY[action.card].kind)
        said = SPEC.action_description(view, action)
        assert said is not None and len(said) <= 100 and said.startswith(f"{stack.cost} coins"), said
        assert (": die " in said) if stack.dice else said.endswith(f"{bb.units(stack.au)}: {stack.brief}")
        assert not stack.fpv or f"worth {stack.fpv} at the end" in said
    assert SPEC.action_description(view, legal[-1]) is None
    state, _ = act(state, "buy", card=legal[0].card)
    assert f"**Bought**: {bb.action_label(view, legal[0]).removeprefix('Buy ')}" in kit.words(private(state, seat))
