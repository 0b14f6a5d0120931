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


#: seconds the longest tests without a browser took in a full run (``--durations=0``, issue
#: 51), most of them waiting on a real server's timers.  They go first, so that no
#: process of ``-n`` starts a 75-second test when the others have nothing left: the run
#: of 2026-12-07 spent its last 2 minutes on one core.  An order only: a test not listed
#: counts as 0 s and keeps its place; a wrong figure costs seconds, not a failure.
SECONDS = {
    "test_server_evening.py::test_a_dropped_page_is_freed_within_two_minutes_with_the_default_timings": 78,
    "test_server_evening.py::test_an_evening_of_pages_never_meets_too_many_pages": 73,
    "test_server.py::test_fifty_pages_leave_no_kernels_and_flat_memory": 60,
    "test_server.py::test_fifty_bare_page_loads_stay_under_the_kernel_cap_and_go_within_a_minute": 56,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[bench_server.py]": 45,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[bench_devices.py]": 35,
    "test_store_limits.py::test_a_live_page_says_within_10_s_that_the_stopped_server_does_not_answer": 32,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[bench_club.py]": 24,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[bench_dashboard.py]": 19,
    "test_fuzz_inputs.py::test_fuzz[catalogue]": 17,
    "test_server_evening.py::test_a_new_page_for_a_seat_replaces_the_old_and_the_tv_views_do_not": 12,
    "test_store_hostile.py::test_kill_9_during_appends_leaves_a_store_that_opens_and_replays": 11,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[bench_sentences.py]": 9,
    "test_store_limits.py::test_a_stopped_server_says_so_within_10_s_and_loses_nothing": 8,
    "test_benches.py::test_the_bench_quick_runs_and_prints_its_verdicts[join_trace.py]": 8,
    "test_page_address.py::test_voilas_own_helper_loses_that_address": 7,
    "test_server.py::test_a_seat_page_under_the_token_gets_its_seat_from_a_preheated_kernel": 7,
    "test_page_address.py::test_a_handshake_slower_than_voilas_5_seconds_still_gives_the_address": 7,
    "test_server.py::test_every_route_and_socket_needs_the_token_and_a_good_host": 7,
}


def pytest_collection_modifyitems(config, items):
    """The longest tests first (a stable sort: the same order in every xdist process).

    Each item carries its figure as ``_companion_seconds``: this table's for the tests
    without a browser, tests/browser/conftest.py's for the browser tests, so that a run of
    both (``pytest tests``, ``./run-tests tests -k ...``) takes the longest of either first
    (issue 51).  Whichever of the two hooks runs last sorts with every figure known."""
    for item in items:
        if not hasattr(item, "_companion_seconds"):
            item._companion_seconds = SECONDS.get(f"{Path(str(item.path)).name}::{item.name}", 0)
    items.sort(key=lambda item: -item._companion_seconds)
