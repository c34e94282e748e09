"""Fixtures shared by the test modules."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory every user may write (for a referee run as another user)."""
    path = Path(tempfile.mkdtemp(prefix="tajmahal-trust-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
