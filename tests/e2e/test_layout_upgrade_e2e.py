"""Tables posted before tables were layout messages keep working after the upgrade.

A table from before is a plain message: content, an embed and rows of buttons whose ids are the
same persistent ids. Its book (written before) knows nothing of layouts. A click on it must act,
and the game must go on in the new form, with nothing Discord would refuse on the way (an edit
of a plain message into a layout one must clear its content and embeds, which the fake checks).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e import play
from tests.e2e.channel import walk, actor, clean, is_layout, is_table, live_table, said, settle, texts
from tests.fakediscord import running_bot, running_fake

CHANNEL = "tavern"


def as_before(message: dict[str, Any]) -> None:
    """Turn a stored layout table back into the plain message the old bot posted: the same
    words and buttons, in content, an embed and top-level rows."""
    words = texts(message)
    buttons = [c for c in walk(message["components"]) if c.get("type") in (2, 3)]
    rows = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    message.update(content=words[0], embeds=[{"title": "Knucklebones", "description": "\n".join(words[1:]),
                                              "footer": {"text": "Game #1 · 5 min per move"}}],
                   components=rows, flags=0, attachments=[])


def forget_layouts(db: Path) -> None:
    """The books as the old bot wrote them: no word of layouts or pictures."""
    with sqlite3.connect(db) as conn:
        for game_id, text in conn.execute("SELECT game_id, book_json FROM books").fetchall():
            book = json.loads(text)
            book.pop("layout", None)
            book.pop("picture", None)
            conn.execute("UPDATE books SET book_json=? WHERE game_id=?", (json.dumps(book), game_id))


async def test_an_old_table_still_acts_and_the_next_table_is_a_layout(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    async with running_fake(channels=(CHANNEL,)) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db):
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
        as_before(fd._live_message(int(table["id"])))  # the stored message: what players see
        table = fd.message(table["id"]) or {}
        forget_layouts(db)
        assert not is_layout(table) and is_table(table)

        async with running_bot(fd, {}, db) as bot:
            first = actor(table, players)
            # within the turn: the old table is redrawn in place, now as a layout message
            moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
            answer = await (await fd.click(first, table, moves[0])).wait_response()
            assert answer["type"] == 7, answer
            await settle(fd)
            now = live_table(fd, CHANNEL)
            assert now is not None and is_layout(now) and not now.get("content") and not now.get("embeds")
            # on to the end of the turn: the next table is a new layout message pinging the next player
            for _ in range(20):
                now = live_table(fd, CHANNEL)
                assert now is not None
                if actor(now, players) is not first:
                    break
                moves = [b["custom_id"] for b in fd.buttons(now) if b["custom_id"].startswith("bn:act:")]
                assert (await (await fd.click(first, now, moves[-1])).wait_response())["type"] == 7
                await settle(fd)
            assert now["id"] != table["id"] and is_layout(now) and actor(now, players) is not first
            old = fd.message(table["id"]) or {}
            assert not is_table(old) and said(old), old  # a line of history, not an empty message
        clean(fd, bot)


async def test_an_old_table_clicked_at_a_turn_change_becomes_a_plain_line_of_history(tmp_path: Path) -> None:
    """The click that ends a turn on an old plain table: the table turns into a line of history
    in the answer (a plain edit, as it is a plain message), and the new table is a layout."""
    db = tmp_path / "old.sqlite3"
    async with running_fake(channels=(CHANNEL,)) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db):
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            first = actor(table, players)
            for _ in range(20):  # to the last decision of the first turn, in the new form
                moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                if any("Two Pairs" in (b["label"] or "") for b in fd.buttons(table)):  # scoring ends the turn
                    break
                assert (await (await fd.click(first, table, moves[-1])).wait_response())["type"] == 7
                await settle(fd)
                table = live_table(fd, CHANNEL) or table
        as_before(fd._live_message(int(table["id"])))
        table = fd.message(table["id"]) or {}
        forget_layouts(db)
        async with running_bot(fd, {}, db) as bot:
            scores = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
            answer = await (await fd.click(first, table, scores[-1])).wait_response()
            assert answer["type"] == 7 and answer["data"].get("content"), answer  # a plain line of history
            fresh = await fd.wait_until(lambda: (m := live_table(fd, CHANNEL)) and m["id"] != table["id"] and m,
                                        timeout=5, what="the next table")
            assert is_layout(fresh)
            old = fd.message(table["id"]) or {}
            assert not is_layout(old) and not old.get("embeds") and not fd.buttons(old)
        clean(fd, bot)
