"""Where the companion keeps files: the shipped data and the player's own data."""
from __future__ import annotations

import contextlib
import importlib.resources
import os
from pathlib import Path
from typing import Iterator

#: in a checkout, data/ and notebooks/ sit at the repository root, next to the
#: package: companion/core/paths.py -> ../../data
REPO = Path(__file__).resolve().parents[2]
REPO_DATA = REPO / "data"


def _shipped(name: str, repo_folder: str) -> Path:
    """``companion/<name>`` as installed from the wheel (package data, found with
    importlib.resources), else ``<repo_folder>/`` of the checkout (an editable
    install or ``PYTHONPATH``), which the wheel's copy is made from (setup.py)."""
    found = importlib.resources.files("companion") / name
    if isinstance(found, Path) and found.is_dir():
        return found
    return REPO / repo_folder


def data_dir() -> Path:
    """The shipped catalogues, maps and sample records."""
    return _shipped("_data", "data")


def notebooks_dir() -> Path:
    """The dashboard's notebooks and its Voila configuration (``config/``)."""
    return _shipped("_notebooks", "notebooks")


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


def side_lock_path(path: Path | str) -> Path:
    """The side file :func:`side_lock` locks: ``<path>.lock``."""
    return Path(path).with_name(Path(path).name + ".lock")


@contextlib.contextmanager
def side_lock(path: Path | str, *, best_effort: bool = False) -> Iterator[None]:
    """Hold an exclusive lock between processes (and pages' kernels) for a
    read-modify-write of ``path``: POSIX ``flock`` on the empty side file
    ``<path>.lock``, which is left in place (removing it would race).

    Where there is no ``flock`` (Windows) there is no lock.  ``best_effort``:
    when the side file cannot be made (a read-only folder), go on without the
    lock, for a caller whose own write will then say what is wrong."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    lock = side_lock_path(path)
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fh = open(lock, "a")
    except OSError as e:
        if not best_effort:
            # the read-modify-write cannot happen (a read-only folder, a full disk): one
            # line, before anything is written (companion.core.errors.write_failed)
            from .errors import write_failed
            raise write_failed(path, e) from None
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
