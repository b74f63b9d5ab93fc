"""The code checks run with the tests, so the one test command fails on a lint error, a type
error or an import that breaks the architecture (the contracts in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHECKS = {
    "lint": [sys.executable, "-m", "ruff", "check", "--no-cache", "bot", "cogs", "rules", "tests", "bench"],
    "types": [sys.executable, "-m", "mypy", "--cache-dir", "/dev/null"],
    "import contracts": [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
}


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_the_code_passes(check: str) -> None:
    done = subprocess.run(CHECKS[check], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{check} failed:\n{done.stdout[-6000:]}\n{done.stderr[-2000:]}"
