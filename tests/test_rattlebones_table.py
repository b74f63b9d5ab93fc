"""What the Rattlebones table shows: what the acting player decides about (their dice, or the
board) as its picture and in words, where everyone stands and which pawns are theirs, and all
of it phone-sized for up to four players, as the layout messages the host builds."""

from __future__ import annotations

import collections
import io
import re
import statistics
from collections.abc import Iterator

import pytest
from PIL import Image

from bot import present
from bot.components import ActionSelect
from bot.errors import Refusal
from bot.models import Book, Table
from bot.step import Moment
from cogs.rattlebones import SPEC, parse_options
from cogs.rattlebones.pictures import PAWN_WORDS, board_facts, board_size, dice_size
from rules import rattlebones as rb
from rules.base import Event
from rules.rattlebones import DATA, ENGINE, RattlebonesAction, RattlebonesOptions, RattlebonesState, die_words
from tests import kit

NAMES = ["Annabelle Longname", "Bartholomew", "Cyrus the Great", "Dee"]
#: words a new player would have to learn: the abbreviations the table once used
ABBREVIATIONS = re.compile(r"\bRB\b|\bpts?\b|\bSeat \d")
#: the rulebook rolls dice: the table once threw them on some buttons and rolled them on others
THROW = re.compile(r"\bthr(ow|own|ew|owing)\b", re.IGNORECASE)


def table_for(state: RattlebonesState, seats: int) -> Table:
    return kit.table_for(state, NAMES[:seats], game=ENGINE.key, status="finished" if ENGINE.is_over(state) else "active",
                         id=9)


def shown(state: RattlebonesState, seats: int) -> present.Shown:
    """The table as the host posts it: a layout message."""
    return present.table_message(Moment(SPEC, table_for(state, seats), state), Book())


def live_size(state: RattlebonesState, seats: int) -> int:
    """Every word of the table as the host posts it: the line that asks (a mention and the
    prompt), the game's blocks, the footer."""
    return len(kit.words(shown(state, seats)))


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
            message = shown(state, seats)
            sizes.append(len(kit.words(message)))
            assert not ABBREVIATIONS.search(kit.words(message)), kit.words(message)
            assert not THROW.search(kit.words(message)), kit.words(message)
            assert len(kit.controls(message)) <= 8
            if not ENGINE.is_over(state):
                view = ENGINE.view(state, None)
                for action in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
                    assert 0 < len(SPEC.action_label(view, action)) <= 80
                    assert not THROW.search(SPEC.action_label(view, action))
    assert statistics.median(sizes) <= 700 and max(sizes) <= 1000, (statistics.median(sizes), max(sizes))


def test_the_table_says_where_everyone_stands_and_what_to_decide() -> None:
    state = ENGINE.new_game(3, RattlebonesOptions(), seed=4)
    table, view = table_for(state, 3), ENGINE.view(state, None)
    message = shown(state, 3)
    text = kit.words(message)
    start = view.rattlebones
    assert f"Rattlebones is on **{start}**" in text
    for seat, n in enumerate(NAMES[:3]):  # each name with the colour and shape of their pawns
        assert f"**{n}** ({PAWN_WORDS[seat]}): 0 points\n" in text + "\n"  # nothing held yet, so nothing said
    assert "Seat " not in text  # names, never seat numbers
    assert SPEC.prompt(table, view, state.current).startswith("Choose a die to roll")
    # three dice of pips look alike: a first-timer is told why a die is rolled, for a while
    assert kit.top(message) == (f"<@{state.current + 1}>: Choose a die to roll. Its pips move a monkey; where "
                                "it lands, you may give that die the space's side.")
    # the dice you may roll, in words and as the table's picture, beside the buttons that roll them
    me = NAMES[state.current]
    assert f"**{me}'s dice** ({PAWN_WORDS[state.current]}), sides 1 to 6:" in text
    for d in range(3):
        assert f"Die {d + 1}: Rattlebones, 2 pips, 3 pips, 4 pips, 5 pips, 6 pips" in text
    assert message.picture is not None and message.picture.filename == "dice.png"
    assert f"{me}'s dice" in message.picture.description
    assert kit.labels(message) == ["Roll die 1", "Roll die 2", "Roll die 3", "Details"]


def test_a_side_decision_shows_that_die_and_the_dice_picture() -> None:
    for state in play(3, "standard14", 3):
        if state.phase == "replace":
            break
    else:
        raise AssertionError("nobody landed where a side could change")
    table, view = table_for(state, 3), ENGINE.view(state, None)
    decision = view.decision
    assert decision is not None and decision.die is not None and decision.side is not None
    text = kit.words(shown(state, 3))
    faces = view.players[decision.seat].dice[decision.die]
    space = view.spaces[decision.space or 0]
    assert kit.top(shown(state, 3)).endswith(f"to {space.name} ({space.index}). Choose a side of die "
                                             f"{decision.die + 1} to change, or keep it.")
    assert f"Die {decision.die + 1}, sides 1 to 6: {die_words(faces)}." in text and "On offer:" in text
    picture = SPEC.picture(table, view)
    assert picture is not None and picture.filename == "dice.png"
    image = Image.open(io.BytesIO(picture.draw()))
    assert image.format == "PNG" and image.size == dice_size(offer=True)  # the side on offer under the dice
    assert f"{NAMES[decision.seat]}'s dice" in picture.description


def test_a_side_on_offer_says_what_it_does() -> None:
    """Review: "On offer: a new **Gold** side for die 2…" above five "Side N becomes Gold"
    buttons never said what a Gold side does."""
    state = ENGINE.new_game(4, RattlebonesOptions(), seed=1)
    state.dice.forced = [2]  # side 2: 2 pips, onto the printed Gold (space 2)
    state, _ = ENGINE.apply(state, state.current, RattlebonesAction(kind="roll", dice=(0,)))
    assert state.phase == "replace"
    text = kit.words(shown(state, 4))
    assert ("On offer: a new **Gold** side for die 1, on any side but side 1.\n"
            "When rolled, it will take 1 gold from the supply.\n") in text
    assert len(text) <= 700  # four players' standings, the offer and the die: still one phone screen
    # every side the board can offer says it in the glossary's words
    sides = dict(next(group for title, group in rb.glossary() if title == "the sides"))
    assert rb.side_does("arrow") == sides["Arrow"] and rb.side_does("points:1") == "score 1 point"


def test_the_store_says_stars_and_points_as_such() -> None:
    """Review: "The Store pays, in points: 1 for 3, 2 for 7…" read as 1 point for 3 stars."""
    state = ENGINE.new_game(2, RattlebonesOptions(), seed=1)
    state.players[state.current].monkeys = [12, 12, 12]
    state.players[state.current].stars, state.stars = 1, 19
    state.dice.forced = [2]  # 2 pips: from 12 round to Start / Store
    state, _ = ENGINE.apply(state, state.current, RattlebonesAction(kind="roll", dice=(0,)))
    assert state.phase == "store"
    text = kit.words(shown(state, 2))
    assert kit.top(shown(state, 2)).endswith(" Do you sell your 1 star at the Store?")
    assert f"{NAMES[state.current]} has **1 star**." in text
    assert "The Store pays: 1 star → 3 points, 2 stars → 7 points, 3 stars → 11 points, 4 stars → 15 points." in text


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
        facts = board_facts(view, tuple(NAMES[:2]))
        if last_facts is not None:
            assert (picture.key != last_key) == (facts != last_facts)  # changes exactly with the board
        last_facts, last_key = facts, picture.key
        if picture.key not in seen and len(seen) < 4:
            seen[picture.key] = picture.draw()
            image = Image.open(io.BytesIO(seen[picture.key]))
            size = size or image.size
            assert image.format == "PNG" and image.size == size == board_size(len(view.spaces))
    assert len(seen) == 4


def test_the_end_leaves_the_winner_to_the_host_and_details_every_players_dice() -> None:
    *_, state = play(4, "compact8", 6)
    table, view = table_for(state, 4), ENGINE.view(state, None)
    message = shown(state, 4)
    parts = "\n".join(p.text for p in SPEC.table_parts(table, view))
    assert "Game over" in parts and "wins" not in parts  # the host's top line names the winner
    assert kit.words(message).count(" wins") == 1 and "Final standings" in kit.words(message)
    assert SPEC.score_text(1, None) == "1 point" and SPEC.score_text(2, None) == "2 points"
    pages = SPEC.details_pages(table, view, None)
    assert pages[0].title == "The board" and pages[0].picture is not None  # the end: the board first
    dice = {p.title: p for p in pages if p.title.endswith("'s dice")}
    assert sorted(dice) == sorted(f"{n}'s dice" for n in NAMES)
    for seat, n in enumerate(NAMES):
        page = dice[f"{n}'s dice"]
        text = page.parts[0].text
        lines = [line for line in text.splitlines() if line.startswith("Die ")]
        assert len(lines) == 3
        for d, line in enumerate(lines):
            assert line.startswith(f"Die {d + 1}: Rattlebones, ") and len(line.split(", ")) == 6  # one a side
        assert "Seat " not in text and f"({PAWN_WORDS[seat]})" in text
        assert page.picture is not None and page.picture.filename == f"dice-{seat + 1}.png"
    for page in pages:  # one phone screen each
        assert sum(len(p.text) for p in page.parts) <= 900, page.title


def test_details_open_on_the_dice_that_matter_now() -> None:
    state = next(s for s in play(3, "standard14", 2) if s.phase == "monkey")
    table, view = table_for(state, 3), ENGINE.view(state, None)
    titles = [p.title for p in SPEC.details_pages(table, view, None)]
    assert titles[0] == f"{NAMES[state.current]}'s dice" and titles[1] == "The board" and titles[-1] == "The supply"
    mine = SPEC.details_pages(table, view, (state.current + 1) % 3)
    assert mine[0].title == "Your dice" and len(mine) == len(titles)
    # a page's title is the heading of its page: a name that would be a link there is shown as typed
    table.seats[state.current].name = "[click](http://evil.example/x)"
    first = SPEC.details_pages(table, view, None)[0].title
    assert not re.search(r"(?<!\\)\[[^\]]*\]\(", first) and "://evil" not in first and first.endswith("'s dice")


def test_rules_fit_a_screen_a_page_with_the_games_words() -> None:
    options = RattlebonesOptions(board="compact8", store="batches")
    pages = SPEC.rules_pages(options)
    assert pages[0].title == "How to play"
    first = pages[0].parts[0].text
    assert "Roll one die" in first and "Details" in first
    # where Rattlebones starts, for every number of players (it said two players only)
    assert "on 55 with two players, 60 with three, 65 with four." in first
    text = "\n".join(p.text for page in pages for p in page.parts)
    assert "8 spaces" in text and "batches" in text  # the options in force
    words = [p for p in pages if p.title.startswith("Words")]
    assert words and all(w in "\n".join(p.parts[0].text for p in words)
                         for w in ("**Monkey**", "**Rattlebones**", "**Pips**", "**1234**", "**x2**", "**Thief**"))
    # a phone shows about 700 characters a screen (review: How to play was 880, the board's words 864)
    for opts in (options, RattlebonesOptions(), RattlebonesOptions(point_sides="tapered")):
        for page in SPEC.rules_pages(opts):
            assert sum(len(p.text) for p in page.parts) <= 700, page.title
    said = "\n".join(p.parts[0].text for p in words)
    assert all(f"**{side.name}**" in said for side in DATA.sides.values())  # every side is still told
    assert not ABBREVIATIONS.search(text)
    assert not THROW.search(text), THROW.search(text)


def test_sides_read_as_words() -> None:
    assert die_words(["rb", "pip:2", "nine_pip", "points:3", "arrow:2", "x2"]) == \
        "Rattlebones, 2 pips, 9-Pip, 3 points, Arrow to side 3, x2"


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
    events = [Event(kind="throw", seat=0, seats=(0,), text="Seat 1 rolls die 1: 3 points",
                    data={"throws": [{"die": 0, "slot": 3, "face": "points:3", "acts_as": "points:3"}]}),
              Event(kind="score", seat=0, seats=(0,), data={"die": 0, "points": 3, "total": 3, "source": "points"},
                    text="Seat 1 scores 3 (points side): 3 points")]
    assert SPEC.story(table, kit.public(SPEC, table), events) == "Seat 1: die 1 (3 points) scores 3 points"
    assert SPEC.headline(table, kit.public(SPEC, table), events) is None
    thief = [Event(kind="thief", seat=0, seats=(0, 1), data={"die": 0, "victim": 1, "take": "gold"},
                   text="Seat 1 steals 1 gold from Seat 2")]
    assert SPEC.headline(table, kit.public(SPEC, table), thief) == "Seat 1 steals 1 gold from Seat 2"
    # the theft is in the history line too: once the table under its headline shrinks, the line
    # is all that is left of it
    thrown = [Event(kind="throw", seat=0, seats=(0,), text="Seat 1 rolls die 1: Thief",
                    data={"throws": [{"die": 0, "slot": 3, "face": "thief", "acts_as": "thief"}]})]
    assert SPEC.story(table, kit.public(SPEC, table), thrown + thief) == "Seat 1: die 1 (Thief) steals 1 gold from Seat 2"
    # a game saved before events named their die is still told, without the die
    place = [Event(kind="score", seat=1, seats=(1,), data={"points": 1, "total": 12, "source": "place", "place": 1},
                   text="")]
    assert SPEC.story(table, kit.public(SPEC, table), place) == "Seat 2: scores 1 point for 1st place"


def test_history_tells_a_new_side_with_the_move_that_landed_for_it() -> None:
    """Review: "Ann moves monkey 1 5 spaces to Gold (space 5)" read awkwardly, and once a side
    changed the line kept only "Ann puts Gold on die 1, ..." without the move."""
    state = ENGINE.new_game(2, RattlebonesOptions(), seed=1)
    seat = state.current
    state.dice.forced = [2]  # side 2: 2 pips, onto the printed Gold (space 2)
    state, moved = ENGINE.apply(state, seat, RattlebonesAction(kind="roll", dice=(0,)))
    assert state.phase == "replace"
    state, changed = ENGINE.apply(state, seat, RattlebonesAction(kind="replace", slot=4))
    table = table_for(state, 2)
    me = f"Seat {seat + 1}"
    assert SPEC.story(table, kit.public(SPEC, table), moved + changed) == (
        f"{me}: die 1 (2 pips) moves monkey 1 Start / Store (0) → Gold (2) and puts Gold on side 5")
    assert SPEC.story(table, kit.public(SPEC, table), moved) == (
        f"{me}: die 1 (2 pips) moves monkey 1 Start / Store (0) → Gold (2)")


def test_history_tells_every_die_and_the_gold_paid() -> None:
    """Review: Bob paid 1 gold to roll dice 1 and 3; die 1 moved monkey 3 on from Train (11)
    and he kept the die; die 3 showed Rattlebones. The line read only "Bob moves Rattlebones
    back to 54 · Bob moves monkey 3 to Gold (1 space)…": a monkey jumped and a gold went."""
    state = ENGINE.new_game(2, RattlebonesOptions(), seed=1)
    seat = state.current
    state.players[seat].gold = 1
    state.players[seat].monkeys = [5, 5, 11]
    state.dice.forced = [4, 1]  # die 1 shows side 4 (4 pips), die 3 side 1 (Rattlebones)
    events: list[Event] = []
    for action in (RattlebonesAction(kind="roll", dice=(0, 2)), RattlebonesAction(kind="use", die=0),
                   RattlebonesAction(kind="monkey", monkey=2), RattlebonesAction(kind="keep"),
                   RattlebonesAction(kind="monkey", monkey=2), RattlebonesAction(kind="replace", slot=5)):
        state, step = ENGINE.apply(state, seat, action)
        events += step
    assert state.current != seat  # the turn is over: this is what its table shrinks to
    table = table_for(state, 2)
    story = SPEC.story(table, kit.public(SPEC, table), events)
    assert story == (f"Seat {seat + 1} pays 1 gold: die 1 (4 pips) moves monkey 3 Roll Again (11) → Gold (1); "
                     "die 3 (Rattlebones) takes Rattlebones back to 54, moves monkey 3 Gold (1) → Gold (2) and puts "
                     "Gold on side 6")
    line = present.history_line(table, "Turn 1", story)
    assert line.startswith(f"**Turn 1** · {NAMES[seat]} pays 1 gold: ") and len(line) <= 400


def turns_of(seats: int, seed: int) -> tuple[RattlebonesState, list[list[Event]]]:
    """A whole game of bot moves, and each turn's events."""
    state = ENGINE.new_game(seats, RattlebonesOptions(), seed=seed)
    turns: list[list[Event]] = [[]]
    while not ENGINE.is_over(state):
        seat, turn = ENGINE.to_act(state)[0], state.turn
        state, events = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
        turns[-1] += events
        if state.turn != turn:
            turns.append([])
    return state, [t for t in turns if t]


@pytest.mark.parametrize("seats", [2, 4])
def test_history_says_every_change_of_every_turn(seats: int) -> None:
    """Each turn's line says the gold it paid and every move, new side, gain and score, as
    often as they happened; bot seats' turns told on one line still fit it."""
    for seed in (1, 2):
        state, turns = turns_of(seats, seed)
        table = table_for(state, seats)
        view = kit.public(SPEC, table)
        for events in turns:
            story = SPEC.story(table, view, events) or ""
            count = collections.Counter(e.kind for e in events)
            paid = sum(e.data["gold"] for e in events if e.kind == "pay")
            assert (f"pays {paid} gold" in story) == bool(paid), story
            assert len(re.findall(r"\bmonkey \d", story)) == count["move"], story
            assert len(re.findall(r"Rattlebones (back )?to \d", story)) == count["rattlebones"], story
            assert len(re.findall(r" on (side|die) \d", story)) == count["replace"], story
            gains = [e for e in events if e.kind in ("gold", "star") and e.data["got"]]
            assert len(re.findall(r"(takes |\+)\d+ (gold|stars?)\b", story)) == len(gains), story
            scored = [e for e in events if e.kind == "score" and e.data["source"] != "stock"]
            assert len(re.findall(r"scores |sells |\+\d+ points?", story)) == len(scored), story
            assert len(present.history_line(table, "Turn 12", story)) <= 400
        for first in range(0, len(turns), seats):  # a person's turn and every bot seat's after it
            story = SPEC.story(table, view, [e for t in turns[first:first + seats] for e in t])
            assert len(present.history_line(table, "Turns 112–115", story)) <= 400


def test_a_stock_payout_makes_headlines_and_the_end_is_the_hosts() -> None:
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
    # and history keeps it once the table under the headline shrinks
    assert SPEC.story(table, kit.public(SPEC, table), payout) == (
        "Seat 1: takes a stock ticket and the stock pays out (Seat 1 +10, Seat 2 +5)")
    over = [Event(kind="over", seats=(1,), data={"reason": "rattlebones", "at": 41},
                  text="A mouse meets Rattlebones on 41: the game is over. Seat 2 wins.")]
    # the host's line over the final table names the winner: neither the headline nor history does
    assert SPEC.headline(table, kit.public(SPEC, table), over) is None
    assert "wins" not in (SPEC.story(table, kit.public(SPEC, table), over) or "")


def test_more_choices_than_a_menu_holds_go_on_in_further_menus() -> None:
    """A Store visit with 40 stars offers 41 choices (sell 0 to 40): Discord's menu holds 25, so
    the rest go in a second menu, each option keeping its index among all the choices, and each
    menu an id of its own that still routes to the seat's decision."""
    state = next(s for seed in range(1, 40) for s in play(3, "standard14", seed)
                 if not ENGINE.is_over(s) and any(a.kind == "sell" for a in ENGINE.legal_actions(s, ENGINE.to_act(s)[0])))
    seat = ENGINE.to_act(state)[0]
    state.players[seat].stars = 40
    actions = ENGINE.legal_actions(state, seat)
    assert len(actions) == 41
    table = table_for(state, 3)
    table.status = "active"
    message = present.table_message(Moment(SPEC, table, state), Book())
    menus = [c.item for c in kit.controls(message, ActionSelect)]
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
