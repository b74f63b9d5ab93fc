"""What the Knucklebones table shows: the dice, each by the number the picture and the buttons
give it, the runes still to act in order, the scores, and Details and the rules a page a screen."""

from __future__ import annotations

import re

from bot import layout, present
from bot.models import Book, Table
from bot.step import Moment
from cogs.knucklebones import SPEC
from cogs.knucklebones.pictures import die_key
from rules.knucklebones import ENGINE, KnucklebonesAction, KnucklebonesOptions, KnucklebonesState, start_turn
from tests import kit

A = KnucklebonesAction
NAMES = ["Ann", "Bob"]
#: about one phone screen of text, the host's measure of a page of Details or of the rules
SCREEN = 900


def table_for(state: KnucklebonesState, names: list[str]) -> Table:
    return kit.table_for(state, names, game=ENGINE.key, id=1, status="active")


def staged(faces: list[int], seats: int = 2, then: tuple[int, ...] = ()) -> KnucklebonesState:
    state = ENGINE.new_game(seats, KnucklebonesOptions(), seed=7)
    for die in state.pool:
        die.active, die.face = die.id < len(faces), None
    state.dice.forced = [*faces, *then]
    return start_turn(state)[0]


def shown(state: KnucklebonesState, names: list[str] = NAMES) -> present.Shown:
    """The live table as the host builds it."""
    return present.table_message(Moment(SPEC, table_for(state, names)), Book())


def said(state: KnucklebonesState, names: list[str] = NAMES) -> str:
    """Everything the table says, a die's words (kept on one line by no-break spaces) as plain."""
    return kit.words(shown(state, names)).replace("\u00a0", " ")


def details(state: KnucklebonesState, names: list[str] = NAMES, seat: int | None = None) -> dict[str, str]:
    pages = SPEC.details_pages(table_for(state, names), ENGINE.view(state, seat), seat)
    return {p.title: "\n".join(part.text for part in p.parts) for p in pages}


def test_spent_dice_are_struck_and_doubled_dice_marked() -> None:
    state = staged([2, 4, 1, 1, 6], then=(5,))
    state, _ = ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=4))  # 6 -> 5
    words = said(state)
    assert "die 1: ~~2~~, spent" in words and "die 5: **5**" in words
    assert "die 2: **4**, deciding now" in words  # the 4 waits for its decision

    state, _ = ENGINE.apply(state, state.current, A(kind="double", die=1, target=2))
    words = said(state)
    assert "die 3: **1**, doubled" in words and "die 2: ~~4~~, spent" in words
    # what each item would score is on its button, named as everywhere else
    assert "Three of a Kind: 10" in kit.labels(shown(state))


def test_the_runes_still_to_act_are_named_in_order() -> None:
    state = staged([4, 2, 1, 3, 6], then=(5, 5))
    words = said(state)
    # lowest rune first: the 2 is being decided, then the 3 adds a die, then the 4 may double
    assert "die 2: **2**, deciding now" in words and "Still to act, in order: die 4 (a 3), die 1 (a 4)." in words


def test_the_die_decided_has_one_number_in_the_words_the_picture_and_the_buttons() -> None:
    """Issue 19: the prompt, the words, the picture's ring and the buttons all name die 3, and
    two dice showing the same rune are told apart by their numbers."""
    state = staged([6, 1, 4, 1, 4], then=(5,))
    table = shown(state)
    view = ENGINE.view(state, None)
    assert view.pending is not None and view.pending.die == 2
    assert "Die 3 shows a 4" in kit.top(table) and "die 3: **4**, deciding now" in said(state)
    # what the dice score as they lie, best first, to weigh the double against
    assert "Scores now: Wild (16), Two Pairs (10)." in said(state)
    # what spending costs, said where the choice is made: the 4 itself then scores nothing
    assert "spend it to double another die for scoring (a spent die does not score), or keep it" in kit.top(table)
    ringed = [key[0] for key in (die_key(d) for d in view.dice) if key[5]]
    assert ringed == [3]
    picture = SPEC.picture(table_for(state, NAMES), view)
    assert picture is not None and "die 3: 4, deciding now" in picture.description
    labels = kit.labels(table)
    assert labels[0] == "Keep die 3 (4)"
    # the two 1s and the two 4s: each button names its own die
    assert {"Double die 2 (1): two 1s", "Double die 4 (1): two 1s", "Double die 5 (4): two 4s"} <= set(labels)
    assert len(set(labels)) == len(labels)


def test_what_the_dice_score_now_is_said_while_a_rune_waits_not_beside_the_score_buttons() -> None:
    state = staged([2, 6, 5, 1, 1])
    for key in ("wild", "two_pairs"):
        state.sheets[state.current][key] = 10
    assert ENGINE.view(state, None).phase == "reroll"
    assert "The dice meet no open item now." in said(state)
    scoring = staged([6, 6, 6, 6, 1])
    assert ENGINE.view(scoring, None).phase == "score" and "now" not in said(scoring).lower()


def test_each_player_has_one_score_line_and_details_has_the_full_sheet() -> None:
    state = staged([6, 6, 6, 1, 1])
    mover = state.current
    state, _ = ENGINE.apply(state, mover, A(kind="score", item="full_house"))
    words = said(state)
    lines = {line.split("**")[1]: line for line in words.splitlines() if line.count("**") == 2
             and " left" in line}
    assert lines[NAMES[mover]].endswith("20 points, 6 items left")
    assert lines[NAMES[1 - mover]].endswith("0 points, 7 items left")
    assert kit.top(shown(state)).startswith(f"<@{state.current + 1}>:")  # whose turn it is, pinged
    sheet = details(state)[f"{NAMES[mover]}'s sheet"]
    assert "**Full House**: scored 20" in sheet and "**Wild** (the sum of the dice, always met): not scored yet" in sheet
    assert sheet.endswith("**Total: 20 points**")


def test_a_sheet_is_one_line_an_item_named_as_the_buttons_name_it() -> None:
    """Issue 19: no run-on line, no "·" for an item not scored yet, "Three of a Kind"
    everywhere; the player to act sees what each open item would score now, and every open
    item says what it is worth and needs, in a few words."""
    state = staged([6, 6, 6, 1, 1])
    mover = state.current
    sheets = details(state, seat=mover)
    first = next(iter(sheets))
    assert first == "Your sheet"  # Details opens on the asker's own sheet
    lines = sheets[first].splitlines()
    view = ENGINE.view(state, None)
    assert [re.split(r"\*\*", line)[1] for line in lines[:-1]] == [i.name for i in view.items]
    assert lines[:-1] == [
        "**Two Pairs** (10 for 2 of one rune + 2 of another): scores 10 now",
        "**Three of a Kind** (10 for 3 of one rune): scores 10 now",
        "**Full House** (20 for 3 of one rune + 2 of another): scores 20 now",
        "**Four of a Kind** (20 for 4 of one rune): not met now",
        "**All Different** (30 for 5+ dice, all runes different, none doubled): not met now",
        "**Five of a Kind** (40 for 5 of one rune): not met now",
        "**Wild** (the sum of the dice, always met): scores 20 now",
    ]
    names_on_buttons = {re.split(r" \(|:", label)[0] for label in kit.labels(shown(state)) if ":" in label}
    assert names_on_buttons == {i.name for i in view.items}
    for title, text in sheets.items():
        assert "·" not in text and "|" not in text and "3 of a Kind" not in text
        assert len(text) <= (700 if title.endswith("sheet") else SCREEN)
    other = sheets[f"{NAMES[1 - mover]}'s sheet"]
    assert "**Full House** (20 for 3 of one rune + 2 of another): not scored yet" in other.splitlines()
    assert "now" not in other
    state, _ = ENGINE.apply(state, mover, A(kind="score", item="full_house"))
    mine = details(state, seat=mover)["Your sheet"].splitlines()
    assert "**Full House**: scored 20" in mine and "**Four of a Kind** (20 for 4 of one rune): not scored yet" in mine


def test_six_players_with_long_names_fit_a_phone() -> None:
    names = [f"A very long display name {i}" for i in range(6)]
    state = ENGINE.new_game(6, KnucklebonesOptions(), seed=3)
    sizes = []
    for _ in range(60):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
        sizes.append(len(said(state, names)))
    assert max(sizes) <= 1100  # the 6-player target of 1,200
    view = ENGINE.view(state, None)
    for part in SPEC.table_parts(table_for(state, names), view)[1:]:
        for line in part.text.splitlines():
            assert len(line) <= 65  # one line per player, no wide sheet to wrap
    for action in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
        assert 0 < len(SPEC.action_label(view, action)) <= 80
    assert len(kit.controls(shown(state, names))) <= 8


def test_the_finished_table_shows_the_totals_and_details_the_full_sheet() -> None:
    state = ENGINE.new_game(2, KnucklebonesOptions(), seed=5)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
    table = table_for(state, NAMES).model_copy(update={"status": "finished"})
    final = present.table_message(Moment(SPEC, table), Book())
    words = kit.words(final)
    assert "every sheet is full" in words.lower() and "Details" in words
    assert words.count("🏆") == 1 and "Final standings" in words  # the winner is named once
    assert SPEC.picture(table, ENGINE.view(state, None)) is None
    for name in NAMES:
        assert "not scored yet" not in details(state)[f"{name}'s sheet"]  # every item filled


def test_the_dice_picture_is_a_png_cached_by_what_it_shows() -> None:
    state = staged([2, 4, 1, 1, 6], then=(5,))
    view = ENGINE.view(state, None)
    picture = SPEC.picture(table_for(state, NAMES), view)
    assert picture is not None and picture.draw().startswith(b"\x89PNG\r\n\x1a\n")
    assert "die 1: 2, deciding now · die 2: 4 · die 3: 1 · die 4: 1 · die 5: 6" in picture.description
    again = SPEC.picture(table_for(state, NAMES), ENGINE.view(state, None))
    assert again is not None and again.key == picture.key
    state, _ = ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=4))
    changed = SPEC.picture(table_for(state, NAMES), ENGINE.view(state, None))
    assert changed is not None and changed.key != picture.key


def test_the_rules_are_how_to_play_on_one_screen_the_full_rules_and_the_words() -> None:
    pages = SPEC.rules_pages(KnucklebonesOptions(min_active=3))
    assert pages[0].title == "How to play" and pages[-1].title == "Words"
    first = pages[0].parts[0].text
    assert "at least **3** active dice" in first
    assert "one used is spent and does not score this turn" in first  # a 2 or 4 used costs its points
    for page in pages:
        text = "\n".join(p.text for p in page.parts)
        assert len(text) <= SCREEN, page.title
        assert not re.search(r"\bpts\b|3 of a Kind", text)
    glossary = pages[-1].parts[0].text
    for word in ("Rune", "Spend", "Doubled", "Item", "Wild"):
        assert f"**{word}**" in glossary


def test_a_turn_is_logged_from_its_roll() -> None:
    """The roll that begins a turn comes in the move that ends the turn before: it opens the
    new turn's chapter, so /game log files it under the turn it begins."""
    state = staged([6, 6, 6, 1, 1])
    before = SPEC.chapter(ENGINE.view(state, None))
    state, events = ENGINE.apply(state, state.current, A(kind="score", item="three_kind"))
    opens = [e.kind for e in events if SPEC.opens_chapter(e)]
    assert opens == ["roll"] and events[0].kind == "score" and not SPEC.opens_chapter(events[0])
    assert (before, SPEC.chapter(ENGINE.view(state, None))) == ("Turn 1", "Turn 2")


def test_the_history_line_tells_the_turn_and_the_score_reads_in_words() -> None:
    state = staged([6, 6, 6, 1, 1])
    table = table_for(state, NAMES)
    state, events = ENGINE.apply(state, state.current, A(kind="score", item="three_kind"))
    line = present.history_line(table, "Turn 1", SPEC.story(table, ENGINE.view(state, None), events))
    assert re.fullmatch(r"\*\*Turn 1\*\* · (Ann|Bob) scored Three of a Kind for 10", line), line
    assert SPEC.score_text(1, None) == "1 point" and SPEC.score_text(12, None) == "12 points"


def story_line(table: Table, state: KnucklebonesState, events: list) -> str:
    return present.history_line(table, "Turn 1", SPEC.story(table, ENGINE.view(state, None), events))


def test_the_history_line_tells_the_dice_the_5s_and_6s_added_and_removed() -> None:
    """A player whose table suddenly has six dice, die 2 missing, reads why in the line above
    it: after scoring two 5s added dice 6 and 7 and a 6 removed die 2 (each keeps its number)."""
    names = ["Ann", "Bob", "Cy"]
    state = staged([5, 6, 2, 1, 5], seats=3, then=(1, 1, 1, 1, 1, 1))
    mover, table = state.current, table_for(state, names)
    state, _ = ENGINE.apply(state, mover, A(kind="skip_reroll", die=2))
    state, events = ENGINE.apply(state, mover, A(kind="score", item="wild"))
    after = names[state.current]
    assert story_line(table, state, events) == (
        f"**Turn 1** · {names[mover]} scored Wild for 19 · 5s added dice 6 and 7, a 6 removed die 2: "
        f"{after} rolls 6 dice")
    words = said(state, names)
    assert f"**{after}'s 6 dice:** die 1: **1** · die 3: **1** · die 4: **1** · die 5: **1** · die 6: **1** · " \
           "die 7: **1**; inactive: die 2" in words


def test_each_turn_of_a_line_tells_its_own_change_and_the_last_turn_none() -> None:
    """Bot seats play several turns in one step: each scored item carries the dice its own 5s
    and 6s changed, by their numbers as the picture shows them, and the last turn's with how
    many dice the player now asked rolls; the game's last turn passes no dice on, so says
    nothing of them."""
    state = staged([5, 1, 1, 1, 1], then=(6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2))
    first, table = state.current, table_for(state, NAMES)
    state, events = ENGINE.apply(state, first, A(kind="score", item="three_kind"))
    state, more = ENGINE.apply(state, 1 - first, A(kind="score", item="three_kind"))
    a, b = NAMES[first], NAMES[1 - first]
    assert story_line(table, state, events + more) == (
        f"**Turn 1** · {a} scored Three of a Kind for 10 · a 5 added die 6; "
        f"{b} scored Three of a Kind for 10 · a 6 removed die 1: {a} rolls 5 dice")
    assert f"**{a}'s 5 dice:**" in said(state)
    assert story_line(table, state, more).endswith(f"{b} scored Three of a Kind for 10 · a 6 removed die 1: "
                                                   f"{a} rolls 5 dice")
    _, events = ENGINE.apply(staged([5, 5, 6, 6, 1], then=(1,) * 7), first, A(kind="score", item="wild"))
    assert story_line(table, state, events + more).startswith(
        f"**Turn 1** · {a} scored Wild for 23 · 5s added dice 6 and 7, 6s removed dice 3 and 4; {b} scored")

    last = staged([5, 5, 1, 1, 6], then=(1,) * 7)
    seat = last.current
    for key in last.sheets[1 - seat]:
        last.sheets[1 - seat][key] = 0
    for key in list(last.sheets[seat])[:-1]:
        last.sheets[seat][key] = 0
    last, events = ENGINE.apply(last, seat, A(kind="score", item="wild"))
    assert ENGINE.is_over(last)
    assert story_line(table, last, events) == f"**Turn 1** · {NAMES[seat]} scored Wild for 18"


def test_six_turns_in_one_line_keep_the_last_change_whole() -> None:
    """Five bots and a player whose time ran out play six turns in one step: where every
    turn's change would not fit the 400 characters of a history line, the earlier turns leave
    theirs out, and the line still ends with the change the player now asked inherits."""
    names = ["Annabelle", "Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    state = staged([5, 5, 6, 6, 1], seats=6)
    table = table_for(state, names)
    turns: list[list] = []
    for _ in range(6):
        seat = state.current
        for die in state.pool:  # every turn: two 5s add dice 6 and 7, two 6s remove dice 3 and 4
            die.active, die.face = die.id < 5, None
        state.dice.forced = [5, 5, 6, 6, 1]
        state, _ = start_turn(state)
        state, events = ENGINE.apply(state, seat, A(kind="score", item="four_kind"))
        turns.append(events)
    line = story_line(table, state, [e for events in turns for e in events])
    assert len(line) <= 400 and not line.endswith("…"), line
    assert line.count("scored 0 for Four of a Kind (not met)") == 6, line
    assert line.endswith("(not met) · 5s added dice 6 and 7, 6s removed dice 3 and 4: "
                         f"{names[state.current]} rolls 5 dice"), line
    assert line.count("added") == 1, line
    # two turns have room for both changes
    assert story_line(table, state, turns[-2] + turns[-1]).count("5s added dice 6 and 7") == 2


def test_a_turn_the_timer_played_is_one_history_line_with_what_it_scored() -> None:
    """The log says the timeout, then the default's moves; the history line says in one breath
    what the timer scored for the player, not the default's rule and then the score."""
    state = staged([2, 4, 1, 1, 1], then=[2] * 5)
    seat, table = state.current, table_for(state, NAMES)
    state, events = ENGINE.on_timeout(state, seat)
    assert events[0].text.startswith(f"Seat {seat + 1} ran out of time")  # the log keeps its line
    assert story_line(table, state, events) == f"**Turn 1** · {NAMES[seat]} ran out of time and scored Three of a Kind for 10"


def test_a_sheet_title_shows_a_name_without_markdown() -> None:
    """A page's title is a heading and a menu's option at once: a name made of markdown, a link
    or a mention reads the same, harmless, in both."""
    state = staged([6, 6, 6, 1, 1])
    names = ["[click](http://evil.example/x)", "**Bo**||b|| <@1> # hi"]
    titles = list(details(state, names))
    sheets = [t for t in titles if t.endswith("'s sheet")]
    assert sorted(sheets) == ["Bo b 1 hi's sheet", "click http //evil.example/x's sheet"]
    assert "Bob_The_Brave's sheet" in details(state, ["Ann", "Bob_The_Brave"])


def test_details_has_a_row_of_its_own_below_the_choices() -> None:
    """Beside the last item to score, a thumb aiming at Details on a phone could score that item
    for 0 instead: the decisions fill their rows, and Details starts its own."""
    state = staged([6, 6, 6, 1, 1])
    rows = [row for row in layout.items(shown(state).layout) if row["type"] == layout.ROW]
    ids = [[b["custom_id"].split(":")[1] for b in row["components"]] for row in rows]
    choices = [i for r in ids for i in r if i == "act"]
    assert len(choices) > 5 and len(choices) % 5  # choices that leave room in their last row
    assert ids[-1] == ["info"] and all("info" not in r for r in ids[:-1]), ids
