"""What the Stones & Bones table shows a player on a phone, and what moves behind Details.

The live table, the private views, the picture of the Bones and the channel's story are drawn
from engine states staged with forced dice, and read the way the host renders them
(bot.render), so the sizes measured here are those of the real messages.
"""

from __future__ import annotations

import io
import random
import statistics
from collections.abc import Sequence

import discord
from PIL import Image

from bot import present, render
from bot.models import Book, Table
from bot.step import Moment
from bot.pictures import CAPTION, DIE, GAP
from cogs.stones_and_bones import ROLL_MARK, SPEC, short_coins, throw_line
from cogs.stones_and_bones.pictures import STONE_FILL, TIER_FILL, WIN
from rules.base import Event
from rules.stones_and_bones import ENGINE, StonesAndBonesAction, StonesAndBonesOptions, StonesAndBonesState, start_turn
from tests import kit

A = StonesAndBonesAction
QUIET = (3, 7, 12, 16)  # no match, no 1, no 20, no Crossbones
PNG = b"\x89PNG\r\n\x1a\n"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def new(seats: int = 3, captain: int = 0, bones: Sequence[int] = QUIET, then: Sequence[int] = (),
        **options: object) -> StonesAndBonesState:
    """``captain`` wins the roll-off and throws ``bones`` first; ``then`` are the dice after."""
    roll_off = [20 if seat == captain else 1 for seat in range(seats)]
    return ENGINE.new_game(seats, StonesAndBonesOptions(**options), seed=11,  # type: ignore[arg-type]
                           forced=[*roll_off, *bones, *then])


def restage(state: StonesAndBonesState, seat: int, bones: Sequence[int], then: Sequence[int] = ()) -> StonesAndBonesState:
    state.dice.forced = [*bones, *then]
    return start_turn(state, seat)[0]


def act(state: StonesAndBonesState, seat: int, kind: str, **more: object) -> tuple[StonesAndBonesState, list[Event]]:
    return ENGINE.apply(state, seat, A(kind=kind, **more))  # type: ignore[arg-type]


def table_for(state: StonesAndBonesState, names: Sequence[str] = NAMES, bots: Sequence[int] = ()) -> Table:
    return kit.table_for(state, names[: state.seats], game=ENGINE.key, bots=bots, first_user=100, id=7, seed=1,
                         status="active", options=state.options.model_dump(), timer_seconds=120)


def length(shown: present.Shown) -> int:
    """What a player reads: the content and every embed's text (as tests/e2e/channel.py counts)."""
    total = len(shown.content or "")
    for embed in shown.embeds:
        data = embed.to_dict()
        total += len(data.get("title", "")) + len(data.get("description", ""))
        total += len((data.get("footer") or {}).get("text", ""))
        total += sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", []))
    return total


def labels(shown: present.Shown) -> list[str]:
    return [item.item.label or "" for item in shown.view.children] if shown.view else []  # type: ignore[attr-defined]


def pixel(data: bytes, x: float, y: float) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(data)).convert("RGBA")
    return image.getpixel((int(x), int(y)))[:3]  # type: ignore[index,return-value]


def near(colour: Sequence[int], target: Sequence[int], slack: int = 30) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, target, strict=False))


# -- the picture ----------------------------------------------------------------------------------


def test_the_picture_shows_each_bone_in_its_tier_colour_then_the_stone() -> None:
    state = new(bones=(20, 2, 4, 2))
    table = table_for(state)
    picture = SPEC.picture(table, ENGINE.view(state, None))
    assert picture is not None and picture.filename == "bones.png"
    data = picture.draw()
    assert data.startswith(PNG) and len(data) < 20_000
    width, height = Image.open(io.BytesIO(data)).size
    assert (width, height) == (5 * DIE + 6 * GAP + 34, DIE + CAPTION + 2 * GAP)  # four Bones, a gap, one Stone
    below_the_number = GAP + DIE * 0.85
    for index, tier in enumerate(("gold", "copper", "copper", "copper")):
        assert near(pixel(data, GAP + index * (DIE + GAP) + DIE / 2, below_the_number), TIER_FILL[tier]), tier
    stone = pixel(data, GAP + 4 * (DIE + GAP) + 34 + DIE / 2, below_the_number)
    assert not near(stone, STONE_FILL, 8) and sum(stone) < sum(STONE_FILL) + 60  # faded: still to throw
    assert picture.description == "The Bones of Ann: 20 (gold), 2 (copper), 4 (copper), 2 (copper)."


def test_a_crossbones_rings_every_bone_and_a_float_rings_the_stone() -> None:
    cross = new(bones=(1, 1, 8, 15))
    data = SPEC.picture(table_for(cross), ENGINE.view(cross, None)).draw()  # type: ignore[union-attr]
    assert near(pixel(data, GAP + DIE / 2, GAP + 6), WIN, 40)  # the ring at a Bone's top vertex
    assert Image.open(io.BytesIO(data)).size[0] == 4 * DIE + 5 * GAP  # a Crossbones throws no Stone
    floated, _ = act(new(then=[12]), 0, "pay")
    view = ENGINE.view(floated, None)
    picture = SPEC.picture(table_for(floated), view)
    assert picture is not None and "Stone 12: Float." in picture.description
    data = picture.draw()
    assert near(pixel(data, GAP + 4 * (DIE + GAP) + 34 + DIE / 2, GAP + 6), WIN, 40)


def test_a_picture_is_drawn_once_per_throw_and_every_table_that_shows_a_roll_has_one() -> None:
    state = new()
    table = table_for(state)
    first, again = SPEC.picture(table, ENGINE.view(state, None)), SPEC.picture(table, ENGINE.view(state, None))
    assert first is not None and again is not None and first.key == again.key and hash(first.key) == hash(again.key)
    other = restage(state, 1, (3, 7, 12, 17))
    assert SPEC.picture(table, ENGINE.view(other, None)).key != first.key  # type: ignore[union-attr]
    rng = random.Random(5)
    seen = 0
    for game in range(6):
        state = ENGINE.new_game(4, StonesAndBonesOptions(mutiny_trigger="any_claim", grumbles=game % 2 == 0), game)
        table = table_for(state)
        while not ENGINE.is_over(state):
            view = ENGINE.view(state, None)
            shows = ROLL_MARK in (SPEC.table_embed(table, view).description or "")
            assert shows == (SPEC.picture(table, view) is not None), state.phase
            seen += shows
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        assert SPEC.picture(table, ENGINE.view(state, None)) is None
    assert seen > 100


# -- the live table -------------------------------------------------------------------------------


def test_the_roll_reads_in_one_line_of_words() -> None:
    table = table_for(new())
    omens = new(bones=(20, 2, 4, 2))
    assert throw_line(table, ENGINE.view(omens, None).turn) == (  # type: ignore[arg-type]
        f"{ROLL_MARK} **Ann** threw 20 2 4 2 → bet **2 gp 1 sp 2 cp** · Ill Omens · Bane ×2")
    cross = new(bones=(1, 1, 8, 15))
    line = throw_line(table, ENGINE.view(cross, None).turn)  # type: ignore[arg-type]
    assert "**Crossbones (Daggers)!**" in line and "Blessing: two Stones" in line
    flown, _ = act(new(then=(5, 6, 9, 14)), 0, "fly")  # Flying the Black throws no Stone: a Sink
    line = throw_line(table, ENGINE.view(flown, None).last_turn)  # type: ignore[arg-type]
    assert line.startswith(f"{ROLL_MARK} **Ann** flew the Black 5 6 9 14 → bet") and "Stone" not in line
    sunk, _ = act(new(then=[5]), 0, "pay")
    line = throw_line(table, ENGINE.view(sunk, None).last_turn)  # type: ignore[arg-type]
    assert line.endswith("Stone **5**: Sink")


def test_purses_fold_platinum_into_gold_and_stay_exact() -> None:
    assert [short_coins(cp) for cp in (0, 7, 95, 100, 3000, 3147, 4999)] == [
        "0 cp", "7 cp", "9 sp 5 cp", "1 gp", "30 gp", "31 gp 4 sp 7 cp", "49 gp 9 sp 9 cp"]


def live_tables(seats: int, names: Sequence[str], game: int) -> list[present.Shown]:
    """Every live table of a whole game, as the host posts it: a new table, with the news of
    the turns before it as its headline, whenever someone new must act; else the same table
    redrawn. Every seat is a person, the options add every moment they can."""
    options = StonesAndBonesOptions(mutiny_trigger="any_claim", grumbles=game % 2 == 0, fold=game % 3 == 0)
    state = ENGINE.new_game(seats, options, 100 + game)
    rng = random.Random(game)
    shown, events, acting = [], [], set(ENGINE.to_act(state))
    headline = None
    while True:
        table = table_for(state, names)
        shown.append(present.table_message(Moment(SPEC, table, state), Book(), headline=headline))
        if ENGINE.is_over(state):
            return shown
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = rng.choice(legal) if rng.random() < 0.4 else ENGINE.ai_action(state, seat, None)  # type: ignore[arg-type]
        state, step = ENGINE.apply(state, seat, action)
        events += step
        now = set(ENGINE.to_act(state))
        if now - acting or ENGINE.is_over(state):
            news = SPEC.headline(table, kit.public(SPEC, table), events)
            headline, events = (render.seat_names(table, news, mentions=True) if news else None), []
        acting = now


def test_the_live_table_fits_a_phone_over_whole_games() -> None:
    """Issue 9's targets for up to four players (median ≤ 700, none over 1,000 characters),
    measured as the host renders the table; long names (26 characters) test the most, everyday
    ones the median; six players stay under 1,200. No sheet, no step-by-step bet, no code block."""
    long_names = [f"Captain {n}beard the Dread" for n in NAMES]
    everyday = ["Ann", "Bartholomew", "Cy", "Dee the Red", "Evangeline", "Flo"]
    for seats, most in ((2, 1000), (3, 1000), (4, 1000), (6, 1200)):
        longest = [length(t) for game in range(5) for t in live_tables(seats, long_names, game)]
        assert max(longest) <= most, (seats, sorted(longest)[-3:])
        for table in live_tables(seats, long_names, 0):
            text = (table.content or "") + "".join(e.description or "" for e in table.embeds)
            assert "```" not in text and "• " not in text and "bought in" not in text
            assert len(labels(table)) <= 25
        if seats <= 4:
            sizes = [length(t) for game in range(3) for t in live_tables(seats, everyday, game)]
            assert statistics.median(sizes) <= 700 and max(sizes) <= most, (seats, statistics.median(sizes))
            assert statistics.median(longest) <= 800, (seats, statistics.median(longest))


def test_two_players_asked_at_once_each_see_their_own_buttons() -> None:
    """A Sunk Stone lies on the table: the roller and its owner are asked together. Every
    button names its player, and the prompt says whose choice is which."""
    state, _ = act(new(then=[5, *QUIET]), 0, "pay")  # Ann sinks a 5; Bob throws QUIET next
    assert ENGINE.to_act(state) == [1, 0]
    shown = present.table_message(Moment(SPEC, table_for(state), state), Book())
    row = labels(shown)
    assert row[:5] == ["Bob: Pay 2 gp 1 sp 1 cp & throw the Stone", "Bob: Pay 2 gp 1 sp 1 cp, Pilfer! & throw (+ their 5)",
                       "Bob: Fly the Black: new Bones, new bet, no Stone", "Ann: Leave my Stone on the table",
                       "Ann: Pick up my Stone (5)"]
    assert shown.content == (
        "<@101>, <@100>: **Bob**: pay **2 gp 1 sp 1 cp** and throw the Stone, or Pilfer Ann's Stone or Fly "
        "the Black. **Ann**: pick up your Stone (5) before it is Pilfered, or leave it. Each button names its "
        "player.")
    # said to each of them alone (a DM), each hears only their own part
    assert SPEC.prompt(table_for(state), ENGINE.view(state, 0), 0) == (
        "Your Stone (5) lies on the table: pick it up before Bob Pilfers it, or leave it.")
    assert SPEC.prompt(table_for(state), ENGINE.view(state, 1), 1).startswith("Pay **2 gp 1 sp 1 cp** and throw your Stone")


def test_a_choice_for_everyone_says_so_and_no_button_is_red() -> None:
    call, _ = act(new(4, then=[7]), 0, "pay")  # the Captain Floats: a plunder
    assert call.phase == "mutiny_call"
    shown = present.table_message(Moment(SPEC, table_for(call), call), Book())
    assert shown.content == ("<@101>, <@102>, <@103>: Captain **Ann** plunders the coffer (**2 gp 2 sp 1 cp**). "
                             "Each of you: cry **Mutiny!** (the first cry leads it) or let it be, within 60 s.")
    assert labels(shown)[:2] == ["Let it be", "Mutiny!"]  # everyone's: no names on them
    kinds = ["pay", "pilfer", "fly", "fold", "plank", "pick_up", "leave_stone", "grumble", "let_stand", "object",
             "allow", "mutiny", "pass", "ready", "give", "yay", "nay", "keep", "share_all", "share_side",
             "refund", "give_half", "anchor", "stay_aboard", "stay", "heave", "buy", "end"]
    view = ENGINE.view(call, None)
    styles = {kind: SPEC.action_style(view, A(kind=kind)) for kind in kinds}  # type: ignore[arg-type]
    assert discord.ButtonStyle.danger not in styles.values()
    assert styles["pay"] == discord.ButtonStyle.success and styles["fly"] == discord.ButtonStyle.primary


# -- private views --------------------------------------------------------------------------------


def sealed_vote() -> StonesAndBonesState:
    call, _ = act(new(4, then=[7]), 0, "pay")
    state, _ = act(call, 2, "mutiny")  # Cy cries Mutiny against Captain Ann
    for seat in range(4):
        state, _ = act(state, seat, "ready")
    assert state.phase == "vote" and ENGINE.to_act(state) == [1, 3]
    return state


def test_a_private_view_holds_the_sealed_choice_and_one_line_of_context() -> None:
    state = sealed_vote()
    table = table_for(state)
    shown = present.private_message(Moment(SPEC, table, state), 1)
    text = (shown.content or "") + "".join(e.description or "" for e in shown.embeds)
    assert length(shown) <= 400 and labels(shown) == ["Nay (stand by the Captain)", "Yay (back the Mutineer)"]
    assert shown.content == "Your sealed vote: **Yay** backs Mutineer Cy, **Nay** stands by Captain Ann."
    assert "Your purse: **5 pp**" in text and "Dee" not in text and ROLL_MARK not in text  # no copy of the table
    state, _ = act(state, 1, "yay")
    mine, theirs = present.private_message(Moment(SPEC, table, state), 1), present.private_message(Moment(SPEC, table, state), 3)
    assert "You voted **Yay**" in mine.embeds[0].description  # type: ignore[operator]
    assert "Yay" not in (theirs.embeds[0].description or "") and length(theirs) <= 400
    public = present.table_message(Moment(SPEC, table, state), Book())
    assert "Yay" not in (public.embeds[0].description or "") and "Sealed vote: Bob ✅ · Dee ⏳" in (
        public.embeds[0].description or "")


def test_the_tide_rise_choice_by_dm_is_short() -> None:
    state = new(3)
    while state.phase != "tide":
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, None))  # type: ignore[arg-type]
    table = table_for(state)
    shown = present.private_message(Moment(SPEC, table, state), 0)
    assert shown.embeds[0].title == "The Tide rises to 2" and length(shown) <= 400
    assert shown.content.startswith("Your sealed choice for Tide 2")  # type: ignore[union-attr]
    row = labels(shown)
    assert row[0] == "Stay" and row[1].startswith("Heave Down (cash out ") and row[2] == "Vote to end the game"
    public = present.table_message(Moment(SPEC, table, state), Book())
    assert public.picture is None and "🌊 The Tide rose to **2**" in (public.embeds[0].description or "")


# -- Details --------------------------------------------------------------------------------------


def test_details_hold_every_coin_and_the_bet_step_by_step() -> None:
    state = new(bones=(20, 2, 4, 2))
    state.pirates[1].purse = 3147
    shown = SPEC.details(table_for(state), ENGINE.view(state, None), None)
    titles = [e.title for e in shown]
    assert titles == ["This turn", "Purses", "Reading the Bones"]
    assert "× Tide 1 = 12 cp, 2 gp = 2 gp 1 sp 2 cp" in (shown[0].description or "")
    assert "**Bob**: 3 pp 1 gp 4 sp 7 cp · bought in 5 pp · net -1 pp 8 gp 5 sp 3 cp" in (shown[1].description or "")
    assert sum(len(e) for e in shown) <= 6000 - 1000  # room for the host's latest moves


# -- the channel's story --------------------------------------------------------------------------


def test_claims_mutinies_and_tide_rises_are_news_and_sinks_are_history() -> None:
    table = table_for(new())
    sunk, events = act(new(then=[5]), 0, "pay")
    assert SPEC.story(table, kit.public(SPEC, table), events) == "Seat 1 sinks" and SPEC.headline(table, kit.public(SPEC, table), events) is None
    call, events = act(new(4, then=[7]), 0, "pay")
    assert SPEC.story(table, kit.public(SPEC, table), events) == "Seat 1 claims 2 gp 2 sp 1 cp (Float)"
    assert SPEC.headline(table, kit.public(SPEC, table), events) == "💰 Float: the Stone matches a Bone! Seat 1 claims the coffer (2 gp 2 sp 1 cp)."
    state = sealed_vote()
    state.dice.forced = [1, 1, 1, 20, 6, 20]  # the d4s, then the Captain's d20 + d6, the Mutineer's d20
    state, first = act(state, 1, "yay")
    state, events = act(state, 3, "yay")
    news = SPEC.headline(table, kit.public(SPEC, table), first + events) or ""
    assert "The votes: Seat 2 Yay, Seat 4 Yay. A Yay majority: Challenge!" in news
    assert "The Mutiny" in news and "cries Mutiny" not in news and "Challenge! Captain" not in news
    assert SPEC.chapter(ENGINE.view(state, None)) == "Tide 1 · Wave 1"
    rise = [Event(kind="tide", text="The Tide rises to 2: the ante is now 2 sp and every bet is × 2. Stay, "
                                    "Heave Down (cash out), buy in, or vote to end the game (sealed until all "
                                    "have chosen).", data={"tide": 2, "ante": 20})]
    assert SPEC.headline(table, kit.public(SPEC, table), rise) == "🌊 The Tide rises to 2: the ante is now 2 sp and every bet is × 2."
    nothing = [Event(kind="ready", text="Seat 2 is ready to vote.", seat=1)]
    assert SPEC.story(table, kit.public(SPEC, table), nothing) is None and SPEC.headline(table, kit.public(SPEC, table), nothing) is None


def test_news_that_piled_up_keeps_the_newest_whole() -> None:
    """A pirate who claims wave after wave acts on without a new table, so the news waits for
    the next one: the headline keeps the newest three items, none cut in the middle."""
    claims = [Event(kind="float", seat=0, text=f"Float: the Stone matches a Bone! Seat 1 claims the coffer ({n} gp).")
              for n in range(1, 7)]
    news = SPEC.headline(table_for(new()), kit.public(SPEC, table_for(new())), claims) or ""
    assert news.splitlines() == [f"💰 Float: the Stone matches a Bone! Seat 1 claims the coffer ({n} gp)."
                                 for n in (4, 5, 6)]
    heads = [Event(kind="cutthroat", text="Cutthroat: Seat 2 flips for Mutiny: heads! Captain Seat 1 5 + 1 + 1 = 7; "
                                          "Seat 2 9 + 2 + 2 = 13."),
             Event(kind="mutiny_won", seat=1, text="The Mutiny succeeds: Seat 2 takes the coffer (3 gp) and is Captain.")]
    assert SPEC.headline(table_for(new()), kit.public(SPEC, table_for(new())), heads) == "⚔️ The Mutiny succeeds: Seat 2 takes the coffer (3 gp) and is Captain."
