"""Where the published perft data lives: the repository's tests/data/perft, as the Rust tests
read it."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data"


@pytest.fixture(scope="session")
def perft_data() -> Path:
    path = DATA / "perft"
    if not path.is_dir():
        pytest.fail(f"perft data missing: {path}")
    return path
