"""Where the published perft data lives: ../shared/perft beside the repository (as the Rust
tests find it), or $CONSTMOVE_SHARED/perft."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CONSTMOVE_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def perft_data() -> Path:
    path = SHARED / "perft"
    if not path.is_dir():
        pytest.fail(f"perft data missing: {path} (set CONSTMOVE_SHARED)")
    return path
