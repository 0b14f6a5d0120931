"""Not collected by the suite (no test_ prefix): tests/test_run_stops_clean.py runs it
through ``./run-tests`` and stops that run.  It starts a server-like process in a session
of its own (as tests/browser/browser_harness.py starts Voila, and pgserver PostgreSQL),
says its pid, and waits to be stopped."""
import os
import subprocess
import sys
import time


def test_a_server_in_its_own_session_then_wait():
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                              start_new_session=True, stdin=subprocess.DEVNULL)
    with open(os.environ["STOPPED_RUN_PIDS"], "w") as f:
        f.write(f"{server.pid} {os.getpid()}\n")
    time.sleep(600)
