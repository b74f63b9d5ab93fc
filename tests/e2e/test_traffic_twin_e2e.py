"""The bench's traffic twin sends what Boneyard sent, click for click: else its CPU per click,
the floor the issue's speed targets are read against, would measure other traffic."""

from __future__ import annotations

import base64
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import knucklebones_latency as bench  # noqa: E402

from tests.fakediscord import FakeDiscord  # noqa: E402

pytestmark = pytest.mark.asyncio


def sent(fd: FakeDiscord, first: int = 0) -> list[tuple[str, Any, list[bytes]]]:
    """Every answer and post from the ``first`` call on, as (kind, body, pictures)."""
    out = []
    for call in fd.calls[first:]:
        parts = call["path"].split("/")
        if call["method"] == "POST" and (parts[1] == "interactions" or parts[3:] == ["messages"]):
            out.append((parts[1], call["json"], [data for _, data in call["uploads"]]))
    return out


@pytest.mark.parametrize("varied", [False, True], ids=["last button", "any button"])
async def test_the_twin_replays_every_request_boneyard_made_for_the_clicks(monkeypatch: pytest.MonkeyPatch,
                                                                          varied: bool) -> None:
    games: dict[str, FakeDiscord] = {}
    running_fake = bench.running_fake

    @contextlib.asynccontextmanager
    async def keep(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
        async with running_fake(**kwargs) as fd:
            games["twin" if "boneyard" in games else "boneyard"] = fd
            yield fd

    monkeypatch.setattr(bench, "running_fake", keep)
    scripts: list[Any] = []
    latencies, _, _ = await bench.bench_games(2, 0.0, None, scripts, varied)
    assert [len(s) for s in scripts] and sum(len(s) for s in scripts) == len(latencies)
    replayed, _, _ = await bench.bench_twin(scripts, 0.0)
    assert len(replayed) == len(latencies)

    boneyard, twin = games["boneyard"], games["twin"]
    # the players pressed the last button offered every time, or (varied) not always
    last = [it.name == [b["custom_id"] for b in boneyard.buttons(it.payload["message"])
                        if b["custom_id"].startswith("bn:act:")][-1]
            for it in boneyard.interactions if it.name.startswith("bn:act:")]
    assert len(last) == len(latencies) and all(last) != varied
    made = [(r["kind"], r["payload"], [base64.b64decode(d) for _, d in r["files"]])
            for script in scripts for click in script for r in click]
    assert any(kind == "post" for kind, _, _ in made) and any(pictures for _, _, pictures in made)
    # each counted click is one answer, and everything recorded is what Boneyard itself sent
    assert sum(kind == "answer" for kind, _, _ in made) == len(latencies)
    ours = [repr(call) for call in sent(boneyard)]
    assert all(repr(("interactions" if kind == "answer" else "channels", body, pictures)) in ours
               for kind, body, pictures in made)
    # and the twin sent it all again, body for body and picture for picture
    replays = sorted(repr(call) for call in sent(twin) if call[0] == "channels" or call[1].get("type") == 7)
    assert replays == sorted(repr(("interactions" if kind == "answer" else "channels", body, pictures))
                             for kind, body, pictures in made)
