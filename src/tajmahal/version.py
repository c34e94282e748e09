"""The package's version (``pyproject.toml``'s), which bots and records carry."""

from __future__ import annotations

from typing import Final

__version__: Final = "0.1.0"
