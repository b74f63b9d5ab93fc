"""What the Knucklebones table shows: rune dice, the runes in order, and the score sheet."""

from __future__ import annotations

from bot.models import Seat, Table
from cogs.knucklebones import SPEC
from rules.knucklebones import ENGINE, KnucklebonesAction, KnucklebonesOptions, KnucklebonesState, start_turn

A = KnucklebonesAction


def table_for(state: KnucklebonesState, names: list[str]) -> Table:
    seats = [Seat(user_id=i + 1, name=n) for i, n in enumerate(names)]
    return Table(guild_id=1, channel_id=2, game="knucklebones", host_id=1, seats=seats,
                 options={}, seed=7, state=state.model_dump())


def staged(faces: list[int], seats: int = 2, then: tuple[int, ...] = ()) -> KnucklebonesState:
    state = ENGINE.new_game(seats, KnucklebonesOptions(), seed=7)
    for die in state.pool:
        die.active, die.face = die.id < len(faces), None
    state.dice.forced = [*faces, *then]
    return start_turn(state)[0]


def embed_text(state: KnucklebonesState, names: list[str]) -> tuple[str, dict[str, str]]:
    embed = SPEC.table_embed(table_for(state, names), ENGINE.view(state, None))
    return embed.description or "", {f.name or "": f.value or "" for f in embed.fields}


def test_spent_dice_are_struck_and_doubled_dice_marked() -> None:
    state = staged([2, 4, 1, 1, 6], then=(5,))
    state, _ = ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=4))  # 6 -> 5
    described, fields = embed_text(state, ["Ann", "Bob"])
    assert "~~`ᚱ 2`~~" in described and "`ᚠ 5`" in described
    assert "▶ `ᛞ 4`" in described  # the 4 waits for its decision
    steps = fields["Runes, in order"].splitlines()
    assert steps[0].startswith("✓ die 1") and "spent to reroll" in steps[0]
    assert steps[1].startswith("▶ **die 2") and "deciding now" in steps[1]
    assert steps[2].startswith("· die 5") and "after scoring" in steps[2]

    state, _ = ENGINE.apply(state, state.current, A(kind="double", die=1, target=2))
    described, fields = embed_text(state, ["Ann", "Bob"])
    assert "`ᛁ 1` **×2**" in described and "~~`ᛞ 4`~~" in described
    assert "Three of a Kind 10" in fields[f"{['Ann', 'Bob'][state.current]} could score now"]


def test_the_score_sheet_shows_every_player_item_and_total() -> None:
    state = staged([6, 6, 6, 1, 1])
    mover = state.current
    state, _ = ENGINE.apply(state, mover, A(kind="score", item="full_house"))
    _, fields = embed_text(state, ["Ann", "Bob"])
    sheet = fields["Score sheet"]
    assert sheet.startswith("```") and sheet.endswith("```")
    rows = {line.split("  ")[0]: line for line in sheet.strip("`\n").splitlines()}
    full_house = rows["Full House"].split()
    assert full_house[2:] == (["20", "·"] if mover == 0 else ["·", "20"])
    totals = rows["Total"].split()[1:]
    assert totals == (["20", "0"] if mover == 0 else ["0", "20"])
    assert "▸" in sheet  # the column of the player to act


def test_six_players_with_long_names_stay_inside_discord_limits() -> None:
    names = [f"A very long display name {i}" for i in range(6)]
    state = ENGINE.new_game(6, KnucklebonesOptions(), seed=3)
    seat = state.current
    for _ in range(60):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
    embed = SPEC.table_embed(table_for(state, names), ENGINE.view(state, None))
    assert len(embed) <= 6000 and all(len(f.value or "") <= 1024 for f in embed.fields)
    assert "```" in embed.fields[-1].value  # the sheet was not clipped mid-block
    view = ENGINE.view(state, None)
    for action in ENGINE.legal_actions(state, ENGINE.to_act(state)[0]):
        assert 0 < len(SPEC.action_label(view, action)) <= 80


def test_the_finished_table_still_shows_the_sheet() -> None:
    state = ENGINE.new_game(2, KnucklebonesOptions(), seed=5)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
    _, fields = embed_text(state, ["Ann", "Bob"])
    assert "·" not in fields["Score sheet"]  # every item filled
    assert "Runes, in order" not in fields
