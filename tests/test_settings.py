"""Start-up with bad settings: one clear line, exit code 2, and the token never printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FAKE_TOKEN, REPO_ROOT


def start(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in an empty folder (no .env) with only these settings."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_LEVEL", "GAME_SEED"))}
    clean["PYTHONPATH"] = str(REPO_ROOT)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def test_a_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "missing" in lines[0], run.stderr
    assert not (tmp_path / "boneyard.sqlite3").exists()


@pytest.mark.parametrize("token", ["not-a-token", "abc.def", "client-secret-pasted-by-mistake-0123456789"])
def test_a_malformed_token_exits_2_and_is_not_echoed(tmp_path: Path, token: str) -> None:
    run = start(tmp_path, DISCORD_TOKEN=token)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], run.stderr
    assert token not in run.stderr + run.stdout


def test_a_bad_setting_beside_a_good_token_names_the_setting_not_the_token(tmp_path: Path) -> None:
    run = start(tmp_path, DISCORD_TOKEN=FAKE_TOKEN, LOG_LEVEL="LOUD")
    assert run.returncode == 2
    assert "LOG_LEVEL" in run.stderr and FAKE_TOKEN not in run.stderr + run.stdout


def test_the_token_is_read_from_dotenv(tmp_path: Path) -> None:
    """A .env with a good token and a bad log level: the token was found (only LOG_LEVEL fails)."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\nLOG_LEVEL=LOUD\n")
    run = start(tmp_path)
    assert run.returncode == 2
    assert "LOG_LEVEL" in run.stderr and "DISCORD_TOKEN" not in run.stderr
