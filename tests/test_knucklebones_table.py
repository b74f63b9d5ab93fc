"""What the Knucklebones table shows: rune dice, the runes in order, and the score sheet."""

from __future__ import annotations

from bot.models import Table
from cogs.knucklebones import SPEC
from rules.knucklebones import ENGINE, KnucklebonesAction, KnucklebonesOptions, KnucklebonesState, start_turn
from tests import kit

A = KnucklebonesAction


def table_for(state: KnucklebonesState, names: list[str]) -> Table:
    return kit.table_for(state, names, game=ENGINE.key)


def staged(faces: list[int], seats: int = 2, then: tuple[int, ...] = ()) -> KnucklebonesState:
    state = ENGINE.new_game(seats, KnucklebonesOptions(), seed=7)
    for die in state.pool:
        die.active, die.face = die.id < len(faces), None
    state.dice.forced = [*faces, *then]
    return start_turn(state)[0]


def embed_text(state: KnucklebonesState, names: list[str]) -> tuple[str, dict[str, str]]:
    embed = SPEC.table_embed(table_for(state, names), ENGINE.view(state, None))
    return embed.description or "", {f.name or "": f.value or "" for f in embed.fields}


def details_text(state: KnucklebonesState, names: list[str]) -> dict[str, str]:
    embeds = SPEC.details(table_for(state, names), ENGINE.view(state, None), None)
    return {f.name or "": f.value or "" for e in embeds for f in e.fields} | {
        e.title or "": e.description or "" for e in embeds}


def test_spent_dice_are_struck_and_doubled_dice_marked() -> None:
    state = staged([2, 4, 1, 1, 6], then=(5,))
    state, _ = ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=4))  # 6 -> 5
    described, _ = embed_text(state, ["Ann", "Bob"])
    roll = described.splitlines()[0]
    assert "~~ᚱ2~~" in roll and "ᚠ5" in roll
    assert "▶ᛞ4" in roll  # the 4 waits for its decision

    state, _ = ENGINE.apply(state, state.current, A(kind="double", die=1, target=2))
    described, _ = embed_text(state, ["Ann", "Bob"])
    assert "ᛁ1×2" in described and "~~ᛞ4~~" in described
    assert "Could score: 3 of a Kind 10" in described


def test_the_runes_still_to_act_are_named_in_order() -> None:
    state = staged([4, 2, 1, 3, 6], then=(5, 5))
    described, _ = embed_text(state, ["Ann", "Bob"])
    # lowest rune first: the 2 is being decided, then the 3 adds a die, then the 4 may double
    assert "▶ᚱ2" in described and "Runes still to act: ᚷ3, ᛞ4" in described


def test_each_player_has_one_score_line_and_details_has_the_full_sheet() -> None:
    state = staged([6, 6, 6, 1, 1])
    mover = state.current
    state, _ = ENGINE.apply(state, mover, A(kind="score", item="full_house"))
    described, fields = embed_text(state, ["Ann", "Bob"])
    assert not fields  # nothing but the essentials on the live table
    lines = {line.split("**")[1]: line for line in described.splitlines() if line.count("**") == 2
             and " left" in line}
    assert lines[["Ann", "Bob"][mover]].endswith("20 · 6 left")
    assert lines[["Ann", "Bob"][1 - mover]].endswith("0 · 7 left")
    assert lines[["Ann", "Bob"][state.current]].startswith("▸ ")  # whose turn it is
    sheet = details_text(state, ["Ann", "Bob"])[["Ann", "Bob"][mover]]
    assert "Full House **20**" in sheet and "Wild ·" in sheet and sheet.endswith("**Total 20**")


def test_six_players_with_long_names_fit_a_phone() -> None:
    names = [f"A very long display name {i}" for i in range(6)]
    state = ENGINE.new_game(6, KnucklebonesOptions(), seed=3)
    sizes = []
    for _ in range(60):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
        embed = SPEC.table_embed(table_for(state, names), ENGINE.view(state, None))
        sizes.append(len(embed))
    assert max(sizes) <= 1100  # the 6-player target of 1,200 leaves room for the prompt line
    view = ENGINE.view(state, None)
    for line in (embed.description or "").splitlines()[-6:]:
        assert len(line) <= 60  # one line per player, no wide sheet to wrap
    for action in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
        assert 0 < len(SPEC.action_label(view, action)) <= 80


def test_the_finished_table_shows_the_totals_and_details_the_full_sheet() -> None:
    state = ENGINE.new_game(2, KnucklebonesOptions(), seed=5)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
    described, _ = embed_text(state, ["Ann", "Bob"])
    assert "every sheet is full" in described.lower() or "Details" in described
    assert SPEC.picture(table_for(state, ["Ann", "Bob"]), ENGINE.view(state, None)) is None
    for name in ("Ann", "Bob"):
        assert "·" not in details_text(state, ["Ann", "Bob"])[name].replace(" · ", "")  # every item filled


def test_the_dice_picture_is_a_png_cached_by_what_it_shows() -> None:
    state = staged([2, 4, 1, 1, 6], then=(5,))
    view = ENGINE.view(state, None)
    picture = SPEC.picture(table_for(state, ["Ann", "Bob"]), view)
    assert picture is not None and picture.draw().startswith(b"\x89PNG\r\n\x1a\n")
    assert "Active dice: 2, 4, 1, 1, 6" in picture.description
    again = SPEC.picture(table_for(state, ["Ann", "Bob"]), ENGINE.view(state, None))
    assert again is not None and again.key == picture.key
    state, _ = ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=4))
    changed = SPEC.picture(table_for(state, ["Ann", "Bob"]), ENGINE.view(state, None))
    assert changed is not None and changed.key != picture.key
