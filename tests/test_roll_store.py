"""What the store keeps for the dice tools and the server, on SQLite and on PostgreSQL alike: a
server's settings, saved rolls within their limits, and every roll made (history, luck, pruning,
erasing, Reveal once). A store left at the schema before them opens with its games intact."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.store import LimitReached, SavedRoll, ServerSettings, Store, StoredRoll, _migrations
from bot.store.base import PRUNE_EVERY
from tests.test_store import Backend, _stored_before, _table, backend  # noqa: F401  (a fixture)

GUILD, OTHER, ANN, BOB = 11, 12, 101, 102


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:  # noqa: F811
    s = await backend.open()
    yield s
    await s.close()


def a_roll(user: int = ANN, guild: int = GUILD, seen: str = "public", result: str = "17") -> StoredRoll:
    return StoredRoll(guild_id=guild, channel_id=5, user_id=user, seen=seen, expression="1d20+5", result=result,
                      text=f"# {result}\n-# 1d20 (12) + 5")  # type: ignore[arg-type]


async def test_a_store_from_before_the_dice_records_opens_with_its_games(backend: Backend) -> None:  # noqa: F811
    old = _table().model_copy(update={"id": 1}).model_dump_json()
    await _stored_before(backend, 6, [
        ("INSERT INTO games (id, guild_id, channel_id, game, status, version, table_json, created_at,"
         " updated_at) VALUES (1, 1, 10, 'knucklebones', 'finished', 3, ?, 0, 0)", (old,))])
    store = await backend.open()
    try:
        assert await store.schema_version() == max(n for n, _ in _migrations(backend.name))
        table = await store.get(1)
        assert table is not None and table.game == "knucklebones"
        assert await store.server_settings(1) == ServerSettings(guild_id=1)
        assert (await store.record_roll(a_roll(), {(20, 12): 1}, keep=10)).id
    finally:
        await store.close()


async def test_server_settings_are_kept_per_server(store: Store) -> None:
    assert (await store.server_settings(GUILD)).gm_role_id is None
    await store.put_server_settings(ServerSettings(guild_id=GUILD, gm_role_id=2**62))
    await store.put_server_settings(ServerSettings(guild_id=OTHER, gm_role_id=5))
    await store.put_server_settings(ServerSettings(guild_id=OTHER, gm_role_id=6))
    assert (await store.server_settings(GUILD)).gm_role_id == 2**62
    assert (await store.server_settings(OTHER)).gm_role_id == 6


async def test_saved_rolls_per_owner_within_the_limit(store: Store) -> None:
    mine = SavedRoll(user_id=ANN, name="attack", expression="1d20+7 to hit", mode="advantage", by=ANN)
    assert await store.put_saved_roll(mine, limit=2) is False
    assert await store.put_saved_roll(mine.model_copy(update={"expression": "1d20+8"}), limit=2) is True
    await store.put_saved_roll(SavedRoll(user_id=ANN, name="dmg", expression="2d6+4", by=ANN), limit=2)
    with pytest.raises(LimitReached):
        await store.put_saved_roll(SavedRoll(user_id=ANN, name="third", expression="1d4", by=ANN), limit=2)
    # a full owner may still replace one; other owners have limits of their own
    await store.put_saved_roll(SavedRoll(user_id=ANN, name="dmg", expression="2d6+5", by=ANN), limit=2)
    await store.put_saved_roll(SavedRoll(user_id=BOB, name="attack", expression="1d20", by=BOB), limit=2)
    shared = SavedRoll(guild_id=GUILD, name="attack", expression="1d20+3", target=None, by=BOB)
    await store.put_saved_roll(shared, limit=2)
    assert [(r.name, r.expression, r.mode) for r in await store.saved_rolls(0, ANN)] == [
        ("attack", "1d20+8", "advantage"), ("dmg", "2d6+5", "normal")]
    assert [r.expression for r in await store.saved_rolls(GUILD, 0)] == ["1d20+3"]
    assert (await store.saved_rolls(GUILD, 0))[0].shared and not (await store.saved_rolls(0, BOB))[0].shared
    assert await store.saved_rolls(OTHER, 0) == []
    assert await store.delete_saved_roll(0, ANN, "attack") is True
    assert await store.delete_saved_roll(0, ANN, "attack") is False
    assert [r.name for r in await store.saved_rolls(0, ANN)] == ["dmg"]
    assert [r.name for r in await store.saved_rolls(0, BOB)] == ["attack"]


async def test_rolls_are_kept_per_place_and_player_newest_first(store: Store) -> None:
    first = await store.record_roll(a_roll(result="1"), {(20, 1): 1}, keep=100)
    await store.record_roll(a_roll(result="2", seen="private"), {(20, 2): 1}, keep=100)
    await store.record_roll(a_roll(user=BOB, result="3"), {(20, 3): 1}, keep=100)
    await store.record_roll(a_roll(guild=OTHER, result="4"), {(20, 4): 1}, keep=100)
    again = await store.stored_roll(first.id or 0)
    assert again is not None and again.text == first.text and again.expression == "1d20+5" and again.at > 0
    assert [r.result for r in await store.roll_history(GUILD, ANN)] == ["2", "1"]
    assert [r.seen for r in await store.roll_history(GUILD, ANN)] == ["private", "public"]
    assert [r.result for r in await store.roll_history(GUILD, ANN, limit=1)] == ["2"]
    assert await store.stored_roll(10**12) is None


async def test_luck_counts_faces_and_hides_what_only_the_roller_saw(store: Store) -> None:
    await store.record_roll(a_roll(), {(20, 20): 1, (20, 4): 1, (6, 6): 3}, keep=100)
    await store.record_roll(a_roll(seen="secret"), {(20, 20): 2}, keep=100)
    await store.record_roll(a_roll(user=BOB), {(20, 1): 5}, keep=100)
    mine = await store.luck(GUILD, ANN, hidden=True)
    assert mine.rolls == 2 and mine.faces == {20: {20: 3, 4: 1}, 6: {6: 3}}
    seen = await store.luck(GUILD, ANN, hidden=False)
    assert seen.rolls == 1 and seen.faces == {20: {20: 1, 4: 1}, 6: {6: 3}}
    assert (await store.luck(OTHER, ANN, hidden=True)).rolls == 0


async def test_old_rolls_are_pruned_and_a_player_may_erase_theirs(store: Store) -> None:
    keep = 10
    for i in range(PRUNE_EVERY * 2):
        await store.record_roll(a_roll(result=str(i)), {(6, 1 + i % 6): 1}, keep=keep)
    await store.record_roll(a_roll(user=BOB), {(6, 6): 1}, keep=keep)
    history = await store.roll_history(GUILD, ANN, limit=1000)
    assert [r.result for r in history] == [str(i) for i in range(PRUNE_EVERY * 2 - 1, PRUNE_EVERY * 2 - 1 - keep, -1)]
    luck = await store.luck(GUILD, ANN, hidden=True)
    assert luck.rolls == keep and sum(luck.faces[6].values()) == keep  # the faces went with their rolls
    assert await store.forget_rolls(GUILD, ANN) == keep
    assert await store.roll_history(GUILD, ANN) == [] and (await store.luck(GUILD, ANN, hidden=True)).faces == {}
    assert len(await store.roll_history(GUILD, BOB)) == 1  # only hers


async def test_a_private_roll_is_revealed_once(store: Store) -> None:
    hidden = await store.record_roll(a_roll(seen="private"), {}, keep=10)
    assert await store.mark_revealed(hidden.id or 0) is True
    assert await store.mark_revealed(hidden.id or 0) is False
    stored = await store.stored_roll(hidden.id or 0)
    assert stored is not None and stored.revealed and stored.seen == "private"


async def test_what_a_roll_keeps_is_plain_json(backend: Backend) -> None:  # noqa: F811
    """The record of a roll is a document, so later fields need no migration."""
    store = await backend.open()
    try:
        await store.record_roll(a_roll(), {}, keep=10)
    finally:
        await store.close()
    [(text,)] = await backend.sql("SELECT roll_json FROM rolls")
    assert json.loads(text)["expression"] == "1d20+5" and "id" not in json.loads(text)
