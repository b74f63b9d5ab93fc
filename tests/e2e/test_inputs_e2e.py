"""Bad input, end to end: every option of every slash command at and beyond its limits, laced
with control characters, mass mentions and markdown, typed by people whose names are laced too
(tests/e2e/inputs.py says what each try must do)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.inputs import LACED, Prober, everything
from tests.e2e.secrecy import SPECS
from tests.e2e.watch import Watch
from tests.fakediscord import running_bot, running_fake


async def test_every_option_at_and_past_its_limits_is_answered_safely(tmp_path: Path) -> None:
    db = tmp_path / "inputs.sqlite3"
    async with running_fake(channels=("inputs",)) as fd:
        name = f"@everyone **Host** <@&{fd.manager_role_id}> ||x||"
        host = fd.add_user("host", display=name)
        admin = fd.add_user("admin", admin=True, display=LACED[2])
        others = [fd.add_user("pal", display="@here __pal__"), fd.add_user("mate", display="# mate\x07")]
        watch = Watch(fd, lean=False)
        watch.claim("inputs", [fd.channel("inputs").id], [host, admin, *others])
        async with running_bot(fd, {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING"}, db) as bot:
            reader = sqlite3.connect(db, isolation_level=None)
            prober = Prober(fd, reader, watch, "inputs", names=[name, LACED[2], "@here __pal__", "# mate\x07"])
            await everything(prober, host, admin, others, sorted(spec.command for spec in SPECS.values()))
            errors = bot.error_records()
            reader.close()
        assert prober.sent >= 300, prober.sent
        assert prober.late == []
        assert fd.violations == [] and fd.unknown_routes == []
        assert errors == []
        assert {k: v[:3] for k, v in {**prober.problems, **watch.problems}.items() if v} == {}
