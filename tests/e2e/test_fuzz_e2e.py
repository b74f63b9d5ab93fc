"""The fuzz campaign's small version: a few hundred seeded interactions by honest and dishonest
clients across every game, with every invariant held (bench/fuzz.py runs it big)."""

from __future__ import annotations

from tests.e2e.fuzz import campaign


async def test_a_seeded_mix_of_honest_and_hostile_clients_breaks_nothing() -> None:
    report = await campaign(400, seed=11)
    assert report.interactions >= 400
    assert all(report.kinds[k] > 10 for k in ("honest", "forged", "wrong_person", "duplicate", "double_click"))
    assert report.replayed >= 6, "every game was stored and replayed"
    assert {name: found[:3] for name, found in report.problems.items() if found} == {}
