"""What the Rattlebones table shows: the board as its picture (the dice while a side is being
chosen), where everyone stands in words, and all of it phone-sized for up to four players."""

from __future__ import annotations

import io
import statistics
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.errors import Refusal
from bot.models import Table
from cogs.rattlebones import SPEC, faces_line, parse_options
from cogs.rattlebones.pictures import board_facts, board_size, dice_size
from rules.base import Event
from rules.rattlebones import ENGINE, RattlebonesOptions, RattlebonesState
from tests import kit

NAMES = ["Annabelle Longname", "Bartholomew", "Cyrus the Great", "Dee"]


def table_for(state: RattlebonesState, seats: int) -> Table:
    return kit.table_for(state, NAMES[:seats], game=ENGINE.key)


def live_size(state: RattlebonesState, seats: int) -> int:
    """Content line (a mention and the prompt) plus the embed, as the host posts them."""
    table, view = table_for(state, seats), ENGINE.view(state, None)
    prompt = "" if view.over else f"<@123456789012345678>: {SPEC.prompt(table, view, ENGINE.to_act(state)[0])}"
    return len(SPEC.table_embed(table, view)) + len(prompt)


def play(seats: int, board: str, seed: int) -> Iterator[RattlebonesState]:
    state = ENGINE.new_game(seats, RattlebonesOptions(board=board), seed=seed)
    yield state
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
        yield state


@pytest.mark.parametrize("board", ["standard14", "compact8"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_games_fit_a_phone(seats: int, board: str) -> None:
    sizes = []
    for seed in (1, 2):
        for state in play(seats, board, seed):
            sizes.append(live_size(state, seats))
            if not ENGINE.is_over(state):
                view = ENGINE.view(state, None)
                for action in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
                    assert 0 < len(SPEC.action_label(view, action)) <= 80
    assert statistics.median(sizes) <= 700 and max(sizes) <= 1000, (statistics.median(sizes), max(sizes))


def test_the_table_says_where_everyone_stands_and_what_to_decide() -> None:
    state = ENGINE.new_game(3, RattlebonesOptions(), seed=4)
    table, view = table_for(state, 3), ENGINE.view(state, None)
    text = SPEC.table_embed(table, view).description or ""
    start = view.rattlebones
    assert f"Rattlebones is on **{start}**" in text
    for n in NAMES[:3]:
        assert f"**{n}** 0 pts, {start} to go · 0 gold · 0 stars · 0 stock" in text
    assert "Seat " not in text  # names, never seat numbers
    assert SPEC.prompt(table, view, state.current).startswith("Choose a die to throw")


def test_a_side_decision_shows_that_die_and_the_dice_picture() -> None:
    for state in play(3, "standard14", 3):
        if state.phase == "replace":
            break
    else:
        raise AssertionError("nobody landed where a side could change")
    table, view = table_for(state, 3), ENGINE.view(state, None)
    decision = view.decision
    assert decision is not None and decision.die is not None
    text = SPEC.table_embed(table, view).description or ""
    assert f"Die {decision.die + 1} is RB " in text and "on offer:" in text
    picture = SPEC.picture(table, view)
    assert picture is not None and picture.filename == "dice.png"
    image = Image.open(io.BytesIO(picture.draw()))
    assert image.format == "PNG" and image.size == dice_size()
    assert f"{NAMES[decision.seat]}'s dice" in picture.description


@pytest.mark.parametrize("board", ["standard14", "compact8"])
def test_the_board_picture_is_a_png_of_fixed_size_keyed_by_the_board(board: str) -> None:
    seen: dict[object, bytes] = {}
    last_facts = None
    last_key = None
    size = None
    for state in play(2, board, 5):
        view = ENGINE.view(state, None)
        picture = SPEC.picture(table_for(state, 2), view)
        assert picture is not None
        if picture.filename == "dice.png":
            continue
        facts = board_facts(view)
        if last_facts is not None:
            assert (picture.key != last_key) == (facts != last_facts)  # changes exactly with the board
        last_facts, last_key = facts, picture.key
        if picture.key not in seen and len(seen) < 4:
            seen[picture.key] = picture.draw()
            image = Image.open(io.BytesIO(seen[picture.key]))
            size = size or image.size
            assert image.format == "PNG" and image.size == size == board_size(len(view.spaces))
    assert len(seen) == 4


def test_the_end_names_the_winner_and_details_every_players_dice() -> None:
    *_, state = play(4, "compact8", 6)
    table, view = table_for(state, 4), ENGINE.view(state, None)
    embed = SPEC.table_embed(table, view)
    assert "game over" in (embed.title or "")
    details = SPEC.details(table, view, None)
    fields = {f.name: f.value for e in details for f in e.fields}
    for seat, n in enumerate(NAMES):
        dice = fields[n] or ""
        assert dice.splitlines()[0].startswith("Die 1: RB ") and len(dice.splitlines()) == 3
        for d, line in enumerate(dice.splitlines()):
            words = line.split()
            assert words[:3] == ["Die", f"{d + 1}:", "RB"] and len(words) == 8  # one word a side
            assert words[3:].count("9") == 0 or "nine_pip" not in view.players[seat].dice[d]
    assert "Seat " not in (fields["Standings"] or "")
    assert sum(len(e) for e in details) < 6000


def test_sides_read_as_words() -> None:
    assert faces_line(["rb", "pip:2", "nine_pip", "points:3", "arrow:2", "x2"]) == "RB 2 9-Pip 3pt Arrow→3 x2"


def test_options_from_the_slash_command() -> None:
    options = parse_options("compact8", None, "0, 2,4", "tapered", "batches")
    assert options == RattlebonesOptions(board="compact8", train_values=(0, 2, 4), point_sides="tapered",
                                         store="batches")
    with pytest.raises(Refusal):
        parse_options("custom", None, None, "even", "linear")  # a custom board needs its spaces
    with pytest.raises(Refusal):
        parse_options("standard14", None, "0,x", "even", "linear")
    assert SPEC.option_lines(options) == ["board: compact8", "train track: 0, 2, 4",
                                          "point sides 5/4/3/2/1 for values 1 to 5",
                                          "more than 4 stars sell in batches of 4"]


def test_story_and_headline() -> None:
    table = table_for(ENGINE.new_game(2, RattlebonesOptions(), seed=1), 2)
    events = [Event(kind="throw", seat=0, text="Seat 1 throws 4"),
              Event(kind="score", seat=0, seats=(0,), data={"points": 3, "total": 3, "source": "points"},
                    text="Seat 1 scores 3 (points side): 3 points")]
    assert SPEC.story(table, kit.public(SPEC, table), events) == "Seat 1 scores 3 (points side): 3 points"
    assert SPEC.headline(table, kit.public(SPEC, table), events) is None
    thief = [Event(kind="thief", seat=0, seats=(0, 1), data={"victim": 1, "take": "gold"},
                   text="Seat 1 steals 1 gold from Seat 2")]
    assert SPEC.headline(table, kit.public(SPEC, table), thief) == "Seat 1 steals 1 gold from Seat 2"


def test_a_stock_payout_and_the_end_make_headlines() -> None:
    table = table_for(ENGINE.new_game(2, RattlebonesOptions(), seed=1), 2)
    payout = [Event(kind="stock", seat=0, seats=(0,), data={"took": True, "left": 0},
                    text="Seat 1 takes a stock ticket (0 left)"),
              Event(kind="stock", seat=0, seats=(0, 1), data={"payout": [10, 5]},
                    text="The last stock ticket is taken: the stock pays out"),
              Event(kind="score", seat=0, seats=(0,), data={"points": 10, "total": 30, "source": "stock", "tickets": 3},
                    text="Seat 1 scores 10 (stock, 3 tickets): 30 points"),
              Event(kind="score", seat=1, seats=(1,), data={"points": 5, "total": 12, "source": "stock", "tickets": 2},
                    text="Seat 2 scores 5 (stock, 2 tickets): 12 points")]
    headline = SPEC.headline(table, kit.public(SPEC, table), payout) or ""
    assert headline.startswith("The last stock ticket") and "Seat 1 scores 10" in headline and "Seat 2 scores 5" in headline
    taken = [Event(kind="stock", seat=0, seats=(0,), data={"took": True, "left": 3},
                   text="Seat 1 takes a stock ticket (3 left)")]
    assert SPEC.headline(table, kit.public(SPEC, table), taken) is None  # a ticket alone concerns only its taker
    over = [Event(kind="over", seats=(1,), data={"reason": "rattlebones", "at": 41},
                  text="A mouse meets Rattlebones on 41: the game is over. Seat 2 wins.")]
    assert SPEC.headline(table, kit.public(SPEC, table), over) == over[0].text


def test_more_choices_than_a_menu_holds_go_on_in_further_menus() -> None:
    """A Store visit with 40 stars offers 41 choices (sell 0 to 40): Discord's menu holds 25, so
    the rest go in a second menu, each option keeping its index among all the choices, and each
    menu an id of its own that still routes to the seat's decision."""
    import re

    from bot import present
    from bot.components import ActionSelect
    from bot.models import Book
    from bot.step import Moment

    state = next(s for seed in range(1, 40) for s in play(3, "standard14", seed)
                 if not ENGINE.is_over(s) and any(a.kind == "sell" for a in ENGINE.legal_actions(s, ENGINE.to_act(s)[0])))
    seat = ENGINE.to_act(state)[0]
    state.players[seat].stars = 40
    actions = ENGINE.legal_actions(state, seat)
    assert len(actions) == 41
    table = table_for(state, 3)
    table.status = "active"
    shown = present.table_message(Moment(SPEC, table, state), Book())
    menus = [c.item for c in shown.view.children if isinstance(c, ActionSelect)]
    assert len(menus) == 2 and len({m.custom_id for m in menus}) == 2
    assert len(menus[0].options) == 25 and len(menus[1].options) == 16
    values = [int(o.value) for m in menus for o in m.options]
    assert values == list(range(41))
    view = ENGINE.view(state, None)
    assert [o.label for m in menus for o in m.options] == [SPEC.action_label(view, a) for a in actions]
    assert menus[1].placeholder == f"{SPEC.action_label(view, actions[25])} … {SPEC.action_label(view, actions[40])}"
    stamp = Moment(SPEC, table, state).stamp(seat)
    for menu in menus:
        found = re.fullmatch(ActionSelect.__discord_ui_compiled_template__, menu.custom_id)
        assert found is not None and found["stamp"] == stamp and int(found["seat"]) == seat
    assert actions[int(menus[1].options[-1].value)].n == 40
