"""Shared fixtures for the engine, record and command-line tests.

- every test gets its own ``COMPANION_HOME`` (autouse), so no test reads or
  writes the real player's catalogue or saved games;
- ``run_cli(*args)`` runs ``python -m companion ...`` in a subprocess from the
  repository root and returns the CompletedProcess (text mode);
  ``run_cli_many([args, ...], home=DIR)`` runs several in parallel;
- ``samples_dir`` is data/samples/.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
for _p in (str(ROOT), str(TESTS)):     # `import companion`, `import recordkit`
    if _p not in sys.path:
        sys.path.insert(0, _p)


# a real PostgreSQL for the store's suites (marked ``postgres``): pg_url, make_store ...
from pgserver_fixture import backend, make_store, pg_admin, pg_server, pg_url  # noqa: E402,F401


@pytest.fixture(autouse=True)
def environment_restored() -> Iterator[None]:
    """The process environment as it was before each test.  monkeypatch.delenv of a
    variable that is not set records nothing, so a test that ran the dashboard's
    ``main()`` (which sets COMPANION_ALLOWED_HOSTS, JUPYTER_DATA_DIR, ... for the server it
    starts) left them for every later test of its process: each Voila server started
    after it refused 127.0.0.1 and never answered (seen in a full run: 10 failures)."""
    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def companion_home(environment_restored, tmp_path_factory, monkeypatch) -> Iterator[Path]:
    """A private, empty player data folder for each test."""
    home = tmp_path_factory.mktemp("companion-home")
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.delenv("COMPANION_DEBUG", raising=False)
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)   # each test says its store
    monkeypatch.delenv("COMPANION_TABLE", raising=False)          # no table unless said
    from companion.core import userdocs
    userdocs.use(None)           # the data folder's files, whatever a test installed
    yield home
    userdocs.use(None)


def cli(*args, cwd: Path | None = None, timeout: float = 60,
        home: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m companion *args`` with the repository root on PYTHONPATH.

    The environment is the test's (so ``COMPANION_HOME`` is the private one),
    unless ``home`` names another COMPANION_HOME.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]]
                                                        if env.get("PYTHONPATH") else []))
    env.pop("COMPANION_DEBUG", None)
    if home is not None:
        env["COMPANION_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)],
                          cwd=str(cwd or ROOT), env=env, capture_output=True, text=True,
                          timeout=timeout)


def cli_many(calls, *, home: Path) -> list[subprocess.CompletedProcess]:
    """Run several ``cli(*args)`` at once (threads); results in the same order.

    ``home`` is required: module-scoped fixtures run before the per-test
    COMPANION_HOME is set.
    """
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return list(pool.map(lambda args: cli(*args, home=home), calls))


@pytest.fixture
def store(tmp_path):
    """An SQLite store of saved games in the test's own folder."""
    from companion.table.store import Store
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


@pytest.fixture(scope="session")
def run_cli():
    """``run_cli(*args, home=None)``: one ``python -m companion`` subprocess."""
    return cli


@pytest.fixture(scope="session")
def run_cli_many():
    """``run_cli_many([args, ...], home=DIR)``: several subprocesses in parallel."""
    return cli_many


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return ROOT / "data" / "samples"
