"""Where the companion keeps files: the shipped data and the player's own data."""
from __future__ import annotations

import os
from pathlib import Path

#: data/ sits at the repository root, next to the package: companion/core/paths.py -> ../../data
REPO_DATA = Path(__file__).resolve().parents[2] / "data"


def data_dir() -> Path:
    """The shipped catalogues and sample records."""
    return REPO_DATA


def user_dir() -> Path:
    """The player's own data folder (user catalogue, saved games).

    ``$COMPANION_HOME`` wins; otherwise ``$XDG_DATA_HOME/star-companion`` or
    ``~/.local/share/star-companion``.
    """
    home = os.environ.get("COMPANION_HOME")
    if home:
        p = Path(home)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        p = Path(base) / "star-companion"
    return p          # created by whoever writes into it first


def user_catalogue_path() -> Path:
    return user_dir() / "my-cards.yaml"
