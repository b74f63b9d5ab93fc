"""What the Bare Bones table shows: phone-sized over whole games, no hand in public, the dice
in their colours, and the hand, Details and final scoresheet."""

from __future__ import annotations

import io
import random
import statistics
import time

import pytest
from PIL import Image

from bot import present
from bot.models import Book, Table
from bot.step import Moment
from cogs.bare_bones import SPEC, make_options, sheet_compact
from cogs.bare_bones.pictures import COLOUR_RGB, draw_dice
from rules import bare_bones as bb
from rules.base import Chooser
from tests import kit

ENGINE = bb.ENGINE
NAMES = ["Annabelle", "Bartholomew", "Cordelia", "Desmond"]


def table_for(state: bb.BareBonesState, seats: int) -> Table:
    return kit.table_for(state, NAMES[:seats], game=ENGINE.key, id=5, status="active")


def message_length(shown: present.Shown) -> int:
    """What a player reads: the content and every embed's text."""
    total = len(shown.content or "")
    for e in shown.embeds:
        total += len(e.title or "") + len(e.description or "") + len((e.footer.text if e.footer else "") or "")
        total += sum(len(f.name or "") + len(f.value or "") for f in e.fields)
    return total


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
        text = (SPEC.table_embed(table, public).description or "")
        revealed = {r.seat for r in public.turn.reveals} if public.turn else set()
        for seat, p in enumerate(state.players):
            if seat in revealed or not p.hand:
                continue
            assert "Your hand" not in text
            assert f"{NAMES[seat]}'s hand" not in text
        # the table is the same whoever looks: it is drawn from the public view only
        assert SPEC.table_embed(table, public).description == text


def test_the_hand_shows_cards_units_piles_and_what_each_card_does() -> None:
    states = whole_game(3, 3, bb.BareBonesOptions(action_set="basics"))
    state = next(s for s in states if s.turn is not None and s.turn.stage == "play"
                 and any(not bb.CARDS[c].is_dice for c in s.players[s.turn.seat].hand))
    seat = state.turn.seat
    table = table_for(state, 3)
    shown = present.private_message(Moment(SPEC, table, state), seat)
    text = shown.embeds[0].description or ""
    assert "Action Units left" in text and "Draw pile" in text
    for c in state.players[seat].hand:
        card = bb.CARDS[c]
        if not card.is_dice:
            assert card.name in text and bb.card_short(card.key) in text
    labels = [getattr(item, "item", item).label for item in shown.view.children]
    assert "Done playing: roll the dice" in labels
    assert len(labels) == len(ENGINE.legal_actions(state, seat))


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
    embed = SPEC.table_embed(table, public)
    assert "🎲" in (embed.description or "")
    for d in public.turn.dice:
        assert f"{d.name} {d.value}" in picture.description


def test_the_final_scoresheet_and_details() -> None:
    state = whole_game(3, 21)[-1]
    table = table_for(state, 3)
    table.status = "finished"
    public = ENGINE.view(state, None)
    final = SPEC.table_embed(table, public).description or ""
    finals = {f.seat: f for f in state.finals}
    totals = final.split("```")[1].strip().splitlines()[-1].split()
    assert totals[1:] == [str(finals[s].total) for s in state.order]
    details = SPEC.details(table, ENGINE.view(state, 0), 0)
    sheet = details[0].description or ""
    assert "FPV" in sheet and "Total" in sheet
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
    from bot.errors import Refusal
    with pytest.raises(Refusal):
        make_options("custom", "Greed, Pairs", False, "physical", False)


def test_a_turn_reads_as_one_short_line_of_history() -> None:
    from rules.base import Event

    events = [
        Event(kind="turn", text="Round 3: Seat 2's turn."),
        Event(kind="match", seat=1, text="Seat 2 bonus matches Seat 1's Blue Dice Cards."),
        Event(kind="score", seat=1, seats=(1,), data={"points": 7, "coins": 10},
              text="Seat 2 scores 7 points and 10 coins: 4 Blue + 3 Red = 7 points."),
        Event(kind="buy", seat=1, seats=(1,), data={"card": "purple", "name": "Purple Dice Card", "cost": 10},
              text="Seat 2 buys Purple Dice Card for 10 coins."),
        Event(kind="potato", seat=1, seats=(1, 2), data={"to": 2},
              text="Seat 2 puts the Hot Potato on top of Seat 3's draw pile."),
    ]
    table = table_for(ENGINE.new_game(3, bb.BareBonesOptions(), 1), 3)
    assert SPEC.story(table, kit.public(SPEC, table), events) == ("Seat 2: 7 points and 10 coins, 1 bonus match, bought Purple, "
                                         "🥔→Seat 3")
    assert SPEC.headline(table, kit.public(SPEC, table), events) == "🥔 Seat 2 puts the Hot Potato on top of Seat 3's draw pile."
