"""/rolls list in pages (cogs/dice/saved.list_pages): every saved roll on exactly one page, in the
order a reader counts, each page about a phone's screen, and never more pages than a menu names."""

from __future__ import annotations

from bot.store import SavedRoll
from cogs.dice.saved import LIST_FOOTER, MOST_PAGES, PLAYER_ROLLS, SERVER_ROLLS, Section, list_pages


def names(text: str) -> list[str]:
    return [line.split("`")[1] for line in text.splitlines() if line.startswith("`")]


def sections(mine: list[SavedRoll], shared: list[SavedRoll]) -> list[Section]:
    return [Section("Your saved rolls", mine, PLAYER_ROLLS),
            Section("Shared in this server, set by its GMs", shared, SERVER_ROLLS)]


def test_a_short_list_is_one_page_as_it_always_read() -> None:
    [page] = list_pages(sections([SavedRoll(user_id=1, name="attack", expression="1d20+5")], []))
    assert page.text == ("**Your saved rolls** (1 of 50)\n`attack` 1d20+5\n\n"
                         "**Shared in this server, set by its GMs** (0 of 100)\n-# none yet\n\n" + LIST_FOOTER)


def test_the_longest_lists_fit_a_menu_of_pages_each_a_screen() -> None:
    # the longest names and expressions there may be, with markdown that is shown escaped
    mine = [SavedRoll(user_id=1, name=f"{'x' * 29}-{n}", expression="1d20+" + "1+" * 60 + " *a* [b] _c_")
            for n in range(PLAYER_ROLLS)]
    shared = [SavedRoll(guild_id=2, name=f"{'y' * 28}-{n}", expression="1d20+" + "1+" * 60 + " **~~x~~**")
              for n in range(SERVER_ROLLS)]
    pages = list_pages(sections(mine, shared))
    assert 1 < len(pages) <= MOST_PAGES
    for number, page in enumerate(pages, 1):
        assert page.text.startswith(f"-# Saved rolls, page {number} of {len(pages)}\n\n**"), page.text
        assert page.text.endswith("\n\n" + LIST_FOOTER)
        assert len(page.text) <= 900, len(page.text)
        assert len(page.label) <= 100 and page.label.startswith(f"Page {number}: ")
    assert [n for p in pages for n in names(p.text)] == [r.name for r in mine] + [r.name for r in shared]


def test_many_short_rolls_are_cut_by_lines_too_and_sections_say_where_they_go_on() -> None:
    mine = [SavedRoll(user_id=1, name=f"old-{n}", expression="1d8") for n in range(30, -1, -1)]
    shared = [SavedRoll(guild_id=2, name=f"house-{n}", expression="1d6") for n in range(12)]
    pages = list_pages(sections(mine, shared))
    assert [p.label for p in pages] == ["Page 1: old-0 to old-19", "Page 2: old-20 to house-8", "Page 3: house-9 to house-11"]
    assert [p.description for p in pages] == ["Your saved rolls", "Yours, then this server's", "Shared in this server"]
    assert "**Your saved rolls** (31 of 50), continued\n`old-20` 1d8\n" in pages[1].text
    assert "\n\n**Shared in this server, set by its GMs** (12 of 100)\n`house-0` 1d6\n" in pages[1].text
    assert "**Shared in this server, set by its GMs** (12 of 100), continued\n`house-9`" in pages[2].text
    assert all(len(names(p.text)) <= 20 for p in pages)
    assert [n for p in pages for n in names(p.text)] == [f"old-{n}" for n in range(31)] + [f"house-{n}" for n in range(12)]
