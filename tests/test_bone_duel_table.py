"""What the Bone Duel table shows: both grids as a picture that names the players and shows the
die to place, the totals in words, a history line per turn, and Details and the rules a page a
screen."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence

import discord
from PIL import Image

from bot import present
from bot.models import Book, Table
from bot.step import Moment
from cogs.bone_duel import SPEC
from cogs.bone_duel.pictures import picture_key
from rules.bone_duel import ENGINE, BoneDuelAction, BoneDuelOptions, BoneDuelState
from tests import kit

A = BoneDuelAction
NAMES = ["Ann", "Bob"]
#: about one phone screen of text, the host's measure of a page of Details or of the rules
SCREEN = 900


def staged(mine: Sequence[Sequence[int]], theirs: Sequence[Sequence[int]], die: int, *,
           then: Sequence[int] = (), **options: bool) -> BoneDuelState:
    """Seat 0 to place a rolled ``die`` with grids ``mine`` and ``theirs``."""
    state = ENGINE.new_game(2, BoneDuelOptions(**options), seed=7)
    state.grids = [[list(c) for c in mine], [list(c) for c in theirs]]
    state.current = state.starter = 0
    state.die = die
    state.dice.forced = list(then)
    return state


def table_for(state: BoneDuelState, status: str = "active") -> Table:
    return kit.table_for(state, NAMES, game=ENGINE.key, id=1, status=status)


def shown(state: BoneDuelState, status: str = "active") -> present.Shown:
    return present.table_message(Moment(SPEC, table_for(state, status)), Book())


def test_the_table_asks_with_the_die_and_the_picture_shows_it_and_both_names() -> None:
    state = staged([[4], [], [2]], [[4, 4], [1], []], die=4)
    table = shown(state)
    assert kit.top(table) == "<@1>: you rolled a **4**: pick the row to put it in."
    words = kit.words(table)
    assert "🔵 **Ann**: 6 points" in words and "🔴 **Bob**: 17 points" in words
    # the picture draws the rulebook's left column as the top row: the buttons name what it shows
    assert kit.labels(table) == ["Top: +12, knocks out two 4s (−16)", "Middle: +4", "Bottom: +4", "Details"]
    picture = SPEC.picture(table_for(state), ENGINE.view(state, None))
    assert picture is not None and picture.draw().startswith(b"\x89PNG\r\n\x1a\n")
    key = picture_key(ENGINE.view(state, None), ("Ann", "Bob"))
    assert picture.key == ("duel", key) and key[2] == ("Ann", "Bob") and key[3] == (4, 0) and key[4] is None
    assert "Ann has a 4 to place" in picture.description


def test_the_green_row_counts_what_a_knock_out_takes_off_the_rival() -> None:
    """Green reads as the best move: two 6s knocked out (24 off Bob) beat a pair of 6s (+18),
    and the button says what the knock-out takes."""
    state = staged([[], [6], []], [[6, 6], [], []], die=6)
    view = ENGINE.view(state, None)
    assert kit.labels(shown(state))[:3] == ["Top: +6, knocks out two 6s (−24)", "Middle: +18", "Bottom: +6"]
    styles = [SPEC.action_style(view, A(column=c)) for c in range(3)]
    assert styles == [discord.ButtonStyle.success, discord.ButtonStyle.primary, discord.ButtonStyle.primary]
    # a lone die knocked out takes what it shows, and the button need not say so; it is still
    # worth more than a plain placement
    state = staged([[], [], []], [[6], [], []], die=6)
    view = ENGINE.view(state, None)
    assert kit.labels(shown(state))[:3] == ["Top: +6, knocks out a 6", "Middle: +6", "Bottom: +6"]
    assert [SPEC.action_style(view, A(column=c)) for c in range(3)] == styles


def test_a_history_line_tells_the_turn_and_the_table_below_does_not_repeat_it() -> None:
    state = staged([[4], [], [2]], [[4, 4], [1], []], die=4, then=(3,))
    state.placements = 5
    table = table_for(state)
    chapter = SPEC.chapter(ENGINE.view(state, None))
    state, events = ENGINE.apply(state, 0, A(column=0))
    line = present.history_line(table, chapter, SPEC.story(table, ENGINE.view(state, None), events))
    # headed by its turn, as every game's history is
    assert line == "**Turn 6** · Ann put a 4 in the top row, knocking out Bob's two 4s."
    below = kit.words(shown(state))
    assert "top row" not in below and "knock" not in below


def test_a_bots_placement_says_what_it_was_after_and_a_players_does_not() -> None:
    """A player facing the bot sees why it chose its row: a pair, three of a kind, a die that
    can never be knocked out. A person's own move needs no explaining."""
    cases = [([[4], [], []], [[], [], []], 4, 0, "Bot put a 4 in the top row, pairing their 4s (+12)."),
             ([[], [3, 3], []], [[], [], []], 3, 1, "Bot put a 3 in the middle row, for three 3s (+15)."),
             ([[], [], []], [[1, 2, 5], [], []], 6, 0,
              "Bot put a 6 in the top row, where Bob cannot knock it out while their top row is full.")]
    for mine, theirs, die, row, line in cases:
        state = staged(mine, theirs, die, then=(1,))
        bot = kit.table_for(state, ["Bot", "Bob"], game=ENGINE.key, bots=(0,), id=1)
        person = table_for(state)
        after, events = ENGINE.apply(state, 0, A(column=row))
        told = SPEC.story(bot, ENGINE.view(after, None), events)
        assert told is not None and present.history_line(bot, "Turn 1", told) == f"**Turn 1** · {line}"
        assert SPEC.story(person, ENGINE.view(after, None), events) == f"Seat 1 put a {die} in the {('top', 'middle')[row]} row."
    # a plain placement, and a knock-out, say themselves; a knock-out out of a full row opens
    # it again, so that die is not out of reach
    state = staged([[], [], []], [[2], [], [2, 3, 4]], 2, then=(1,))
    bot = kit.table_for(state, ["Bot", "Bob"], game=ENGINE.key, bots=(0,), id=1)
    for row, told in ((1, "Seat 1 put a 2 in the middle row."),
                      (0, "Seat 1 put a 2 in the top row, knocking out Seat 2's 2."),
                      (2, "Seat 1 put a 2 in the bottom row, knocking out Seat 2's 2.")):
        after, events = ENGINE.apply(state, 0, A(column=row))
        assert SPEC.story(bot, ENGINE.view(after, None), events) == told


def test_the_history_says_why_a_game_ended_and_who_won_it() -> None:
    """Bob still has room, yet the game stops: the line says Ann's grid is full. In a match the
    line keeps game 1's result once game 2's table has replaced the one that announced it."""
    for options, game in (({}, "the game"), ({"best_of_three": True}, "game 1")):
        state = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, then=(2,), **options)
        table = table_for(state)
        after, events = ENGINE.apply(state, 0, A(column=0))
        line = present.history_line(table, "Turn 9", SPEC.story(table, ENGINE.view(after, None), events))
        assert line == (f"**Turn 9** · Ann put a 6 in the top row; Ann's grid is full, so {game} is over: "
                        "Ann wins, 135 to 6.")


def test_a_lone_die_knocked_out_is_named_without_an_article() -> None:
    state = staged([[], [2], []], [[], [5, 3], []], die=5, then=(1,))
    table = table_for(state)
    state, events = ENGINE.apply(state, 0, A(column=1))
    story = SPEC.story(table, ENGINE.view(state, None), events)
    assert story == "Seat 1 put a 5 in the middle row, knocking out Seat 2's 5."  # not "Seat 2's a 5"


def test_the_roll_for_the_next_player_opens_the_next_turn_and_a_match_counts_turns_per_game() -> None:
    state = staged([[4], [], []], [[], [], []], die=2, then=(6,))
    state.placements = 1
    assert SPEC.chapter(ENGINE.view(state, None)) == "Turn 2"
    state, events = ENGINE.apply(state, 0, A(column=1))
    assert [e.kind for e in events if SPEC.opens_chapter(e)] == ["roll"]
    assert SPEC.chapter(ENGINE.view(state, None)) == "Turn 3"

    match = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, then=(2,), best_of_three=True)
    match.placements = 13
    assert SPEC.chapter(ENGINE.view(match, None)) == "Game 1 · Turn 14"
    match, _ = ENGINE.apply(match, 0, A(column=0))
    assert SPEC.chapter(ENGINE.view(match, None)) == "Game 2 · Turn 1"


def test_every_line_a_played_game_writes_reads_as_a_sentence() -> None:
    """No article after a possessive ("Bob's a 5"), no "1 games", no "lane", and no "left" or
    "column" where the picture shows rows top to bottom, over many played games of every
    option."""
    slips = re.compile(r"'s an? \d|\b1 (games|points|dice|rows)\b|\ba (8\d*|11|18)\b|\ban (?!8|11 |18 )\d"
                       r"|\blanes?\b|\bleft(most)?\b|\bright\b|\bcolumns?\b", re.IGNORECASE)
    seen: set[str] = set()
    for seed in range(60):
        options = BoneDuelOptions(best_of_three=seed % 2 == 0, knockouts=seed % 3 != 0)
        state = ENGINE.new_game(2, options, seed=seed)
        table = table_for(state)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            view = ENGINE.view(state, None)
            lines = [e.text for e in events] + [SPEC.story(table, view, events) or "",
                                                SPEC.headline(table, view, events) or ""]
            lines += [SPEC.action_label(view, a) for a in ENGINE.legal_actions(state, ENGINE.to_act(state)[0])
                      ] if not ENGINE.is_over(state) else []
            seen.update(lines)
        seen.update(kit.words(shown(state, "finished")).splitlines())
    found = sorted(line for line in seen if slips.search(line))
    assert found == []
    assert any("knocking out Seat 2's " in line for line in seen)  # the check saw knock-outs


def test_the_lobby_blurb_says_row_as_the_picture_and_the_buttons_do() -> None:
    assert SPEC.blurb.startswith("Roll one die, place it in a row, knock out")
    state = staged([[4], [], [2]], [[4, 4], [1], []], die=4)
    lobby = kit.words(present.lobby_message(SPEC, table_for(state, "lobby")))
    assert "place it in a row" in lobby and "lane" not in lobby and "column" not in lobby
    assert "take a seat (2 players)" in lobby and "2–2" not in lobby  # a duel is always two


def test_the_end_names_the_winner_once_and_the_match_its_games() -> None:
    state = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, then=())
    state, _ = ENGINE.apply(state, 0, A(column=0))
    assert ENGINE.is_over(state)
    words = kit.words(shown(state, "finished"))
    assert words.count("🏆") == 1 and words.count("Ann") == 1  # pinged once, then in the standings
    assert "the game is over" in words and "Final standings" in words

    match = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, then=(2,), best_of_three=True)
    match, events = ENGINE.apply(match, 0, A(column=0))
    headline = SPEC.headline(table_for(match), ENGINE.view(match, None), events)
    # named, not pinged: the game needs nothing of the winner now
    assert headline is not None and re.fullmatch(r"🏆 Ann wins game 1, \d+ to 6\.", headline)
    assert SPEC.chapter(ENGINE.view(match, None)) == "Game 2 · Turn 1"
    details = SPEC.details_pages(table_for(match), ENGINE.view(match, None), 1)
    assert [p.title for p in details] == ["Both grids", "The match"]
    # each game with its score, the winner's first, as the headline gives it
    assert "Game 1: Ann won, 135 to 6\nGame 2: being played" in details[1].parts[0].text


def test_the_standings_count_points_in_a_game_and_games_in_a_match() -> None:
    state = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, then=())
    state, _ = ENGINE.apply(state, 0, A(column=0))
    words = kit.words(shown(state, "finished"))
    assert re.search(r"wins with \d+ points!", words) and "**2.** Bob: 6 points" in words

    match = staged([[6, 6], [5, 5, 5], [4, 4, 4]], [[1], [2], [3]], die=6, best_of_three=True)
    match.game, match.wins, match.results = 4, [1, 1], [0, None, 1]
    match.game_totals = [[40, 12], [20, 20], [9, 31]]
    match, _ = ENGINE.apply(match, 0, A(column=0))
    assert ENGINE.is_over(match)
    words = kit.words(shown(match, "finished"))
    assert "🏆 <@1> wins with 2 games!" in words and "points" not in words.split("Final standings")[1]
    assert "**1.** Ann: 2 games" in words and "**2.** Bob: 1 game" in words
    # the games of the match with their scores, as a single game's standings give its points
    assert ("Game 1: Ann won, 40 to 12\nGame 2: a draw at 20 each\nGame 3: Bob won, 31 to 9\n"
            "Game 4: Ann won, 135 to 6") in words


def test_details_show_the_askers_grid_first_row_by_row() -> None:
    state = staged([[4], [], [2, 2, 5]], [[4, 4], [1], []], die=3)
    pages = SPEC.details_pages(table_for(state), ENGINE.view(state, None), 1)
    grids = [p.text for p in pages[0].parts]
    assert grids[0].startswith("🔴 **Bob**: 17 points") and grids[1].startswith("🔵 **Ann**: 17 points")
    assert "Top: 4 = 4\nMiddle: empty\nBottom: 2, 2, 5 = 13" in grids[1]
    assert all(len("\n".join(p.text for p in page.parts)) <= SCREEN for page in pages)


def test_the_rules_are_how_to_play_on_one_screen_the_full_rules_and_the_words() -> None:
    for options in (BoneDuelOptions(best_of_three=b, knockouts=k) for b in (False, True) for k in (True, False)):
        pages = SPEC.rules_pages(options)
        assert pages[0].title == "How to play" and pages[1].title.startswith("Full rules")
        assert pages[-1].title == "Words"
        for page in pages:
            # a screen each, and none a stub of a line or two that a phone player pages past
            assert 400 <= len("\n".join(p.text for p in page.parts)) <= SCREEN, page.title
        # the game itself is one page; a match's options, the timer and tavern mode the next
        assert [p.title for p in pages if p.title.startswith("Full rules")] == (
            ["Full rules 1 of 2", "Full rules 2 of 2"] if options.best_of_three else ["Full rules"])
    plain, match = SPEC.rules_pages(BoneDuelOptions())[0], SPEC.rules_pages(BoneDuelOptions(best_of_three=True,
                                                                                           knockouts=False))[0]
    assert "Knock-outs" in plain.parts[0].text and "Best of three" not in plain.parts[0].text
    assert "No knock-outs" in match.parts[0].text and "Best of three" in match.parts[0].text
    glossary = SPEC.rules_pages(BoneDuelOptions())[-1].parts[0].text
    for word in ("Row", "Facing row", "Knock out", "Row score"):
        assert f"**{word}**" in glossary
    # a player who knows the rulebook's columns finds them
    assert "The rulebook calls them columns (left, middle, right): its left column is the top row." in glossary


def test_the_next_game_of_a_match_shows_how_the_last_one_ended_until_both_have_placed() -> None:
    """The move that ends game 1 starts game 2 on empty grids: the table's picture shows game
    1's final grids above them (the deciding die ringed), for each player's first placement in
    game 2, and then only game 2's."""
    match = staged([[1, 2, 3], [1, 2, 3], [1, 2]], [[5], [], [4, 4]], die=4, then=(2, 6, 1), best_of_three=True)
    single = staged([[1, 2, 3], [1, 2, 3], [1, 2]], [[5], [], [4, 4]], die=4)
    plain = SPEC.picture(table_for(single), ENGINE.view(single, None))
    assert plain is not None
    with Image.open(io.BytesIO(plain.draw())) as image:
        one_game = image.size
    match, _ = ENGINE.apply(match, 0, A(column=2))  # 19 to 5; Bob starts game 2 with a 2
    seen = []
    for _ in range(3):
        view = ENGINE.view(match, None)
        picture = SPEC.picture(table_for(match), view)
        assert picture is not None
        with Image.open(io.BytesIO(picture.draw())) as image:
            seen.append((view.turn, image.size, picture.key[1][4] is not None, picture.description))
        match, _ = ENGINE.apply(match, match.current, A(column=0))
    (turn1, size1, ended1, words1), (turn2, size2, ended2, _), (turn3, size3, ended3, words3) = seen
    assert (turn1, turn2, turn3) == (1, 2, 3)
    assert ended1 and ended2 and not ended3
    assert size1 == size2 == (one_game[0], 2 * one_game[1]) and size3 == one_game
    assert words1.startswith("Game 1 ended: Ann: top 1, 2, 3 (6), middle 1, 2, 3 (6), bottom 1, 2, 4 (7); total 19. "
                             "Bob: top 5 (5), middle empty (0), bottom empty (0); total 5. Game 2: Ann: top empty")
    assert "ended" not in words3
    lanes, scores, game, totals = picture_key(view, None, view.last_game)[4] or ((), (), 0, (0, 0))
    assert (game, totals, scores) == (1, (19, 5), ((6, 6, 7), (5, 0, 0)))
    assert lanes[0][2] == ((1, 2, 4), 2, ()) and lanes[1][2] == ((), -1, (4, 4))  # ringed; struck
    # the table's words say game 2 is in progress; the headline above said who won game 1
    assert "Bone Duel · game 2" in kit.words(shown(match))
