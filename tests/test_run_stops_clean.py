"""Issue 51: "A run stopped from outside (a time limit, Ctrl-C to the process group)
leaves its Voila servers, their kernels and the tests' PostgreSQL running, orphaned."
Done: "A stopped run ends every server it started."

``./run-tests`` (the README's test command) runs a case that starts a server-like process
in a session of its own, as the browser harness starts Voila; the run is stopped with
SIGTERM (a time limit) or SIGINT to its process group (Ctrl-C); the run ends within
seconds, and so do its pytest and that server.  tests/bin/end-run-processes alone: it
ends the processes that carry the run's id, and no other."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] not in "ZX"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _wait(cond, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def _as_a_terminal_starts_it() -> None:
    """SIGINT as a terminal's shell leaves it to a command: acted on.  A pytest-xdist worker
    ignores SIGINT, and a child inherits that (bash cannot trap a signal ignored when it
    started: the run then ignored the Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("how", ["SIGTERM to the run", "Ctrl-C to its process group"])
def test_a_stopped_run_ends_the_servers_it_started(tmp_path, how):
    pids = tmp_path / "pids"
    env = {**os.environ, "STOPPED_RUN_PIDS": str(pids)}
    env.pop("COMPANION_TEST_RUN", None)
    run = subprocess.Popen(["./run-tests", "--fast", "-p", "no:xdist", "-p", "no:cacheprovider",
                            "tests/bin/stopped_run_case.py"], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True, preexec_fn=_as_a_terminal_starts_it)
    try:
        assert _wait(lambda: pids.exists() and pids.read_text().strip(), 120), \
            run.stdout.read() if run.poll() is not None else "the case never started"
        server, pytest_pid = map(int, pids.read_text().split())
        assert _alive(server) and _alive(pytest_pid)
        if how.startswith("SIGTERM"):
            run.send_signal(signal.SIGTERM)
        else:
            os.killpg(run.pid, signal.SIGINT)
        out, _ = run.communicate(timeout=30)
        assert run.returncode in (130, 143), (run.returncode, out[-2000:])
        assert "stopped (SIG" in out and "ending what the run started" in out, out[-2000:]
        assert _wait(lambda: not _alive(server) and not _alive(pytest_pid), 10), out[-2000:]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        if pids.exists() and pids.read_text().strip():
            for pid in map(int, pids.read_text().split()):
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)


def test_end_run_processes_ends_that_runs_processes_and_no_other():
    run_id = f"test-{os.getpid()}-{time.monotonic_ns()}"
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    mine = [subprocess.Popen(sleeper, start_new_session=True,
                             env={**os.environ, "COMPANION_TEST_RUN": run_id})
            for _ in range(2)]
    other = subprocess.Popen(sleeper, start_new_session=True,
                             env={**os.environ, "COMPANION_TEST_RUN": run_id + "-other"})
    try:
        out = subprocess.run([str(ROOT / "tests" / "bin" / "end-run-processes"), run_id, "2"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        for p in mine:
            assert p.wait(timeout=10) is not None
        assert other.poll() is None                      # another run's process: kept
        assert "ending 2 process(es)" in out.stderr, out.stderr
        # one line, no complaint about the processes it may not read (/proc/1: another
        # user's; a process gone while it looked)
        assert out.stderr.count("\n") == 1, out.stderr
    finally:
        for p in mine + [other]:
            if p.poll() is None:
                p.kill()
