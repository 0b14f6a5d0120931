"""Issue 35, the store's part: PostgreSQL with limits, a lost COMMIT read back, and
History of a store that can only be read.

- every PostgreSQL connection carries connect, statement and idle-in-transaction
  timeouts and TCP keepalives (docs/store.md, "Limits"), and the client gives up on a
  statement that got no answer: a stopped server (SIGSTOP) says so in one line within
  10 s, and nothing stored before is lost;
- after a COMMIT whose connection was lost, what is stored is read back before the
  store says what was or was not written;
- History, statistics and exports of a read-only SQLite folder or a SELECT-only
  PostgreSQL role are computed in memory, with a one-line note.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from as_user import as_user
from companion.core.errors import StoreError, StoreWriteFailed
from companion.table.store import Store
from companion.table.backends import open_store

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_FILE = ROOT / "data/samples/george-base-final-scoring.json"
SAMPLE = json.loads(SAMPLE_FILE.read_text())
ACTIONS = SAMPLE["actions"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------ the limits
@pytest.mark.postgres
def test_every_connection_carries_the_limits_set_by_the_environment(pg_url, monkeypatch):
    """"No `statement_timeout` or keepalive is set." (issue 35): the page's connection
    and its listening connection both carry them, overridable by the environment."""
    monkeypatch.setenv("COMPANION_PG_STATEMENT_TIMEOUT", "7")
    monkeypatch.setenv("COMPANION_PG_IDLE_TIMEOUT", "12")
    monkeypatch.setenv("COMPANION_PG_CONNECT_TIMEOUT", "3")
    monkeypatch.setenv("COMPANION_PG_KEEPALIVES_IDLE", "9")
    s = open_store(pg_url)
    try:
        s.data_version()                                  # opens the listening connection
        for conn in (s.db, s.listener):
            show = {k: conn.execute(f"SHOW {k}").fetchone()[0] for k in (
                "statement_timeout", "idle_in_transaction_session_timeout", "lock_timeout")}
            assert show == {"statement_timeout": "7s",
                            "idle_in_transaction_session_timeout": "12s",
                            "lock_timeout": "5s"}
            params = conn.info.get_parameters()
            assert params["connect_timeout"] == "3" and params["keepalives"] == "1"
            assert params["keepalives_idle"] == "9"
            assert params["keepalives_interval"] == "2" and params["keepalives_count"] == "3"
    finally:
        s.close()
    monkeypatch.setenv("COMPANION_PG_STATEMENT_TIMEOUT", "soon")
    with pytest.raises(StoreError, match="COMPANION_PG_STATEMENT_TIMEOUT must be a number"):
        open_store(pg_url)


def _server_processes(server) -> list[int]:
    """The postmaster of the test's PostgreSQL (pgserver) and its children."""
    pm = server.get_pid()
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pm:
            kids.append(int(entry))
    return [pm, *kids]


@pytest.mark.postgres
def test_a_stopped_server_says_so_within_10_s_and_loses_nothing(pg_server, pg_url):
    """"PostgreSQL without limits: with the server stopped (SIGSTOP) for 30 s, a read on
    an open connection blocked 27 s" (issue 35): a read and a write on open connections
    each end with the store's one line within 10 s; after SIGCONT nothing stored before
    is lost and the same store works again."""
    setup = open_store(pg_url)
    gid = setup.create({**SAMPLE, "actions": ACTIONS[:3]})
    setup.close()
    reader, writer = open_store(pg_url), open_store(pg_url)
    rec, rev = writer.load_revision(gid)
    assert reader.load(gid)["actions"] == ACTIONS[:3]
    outcome: dict[str, tuple[float, BaseException | None]] = {}

    def timed(name, call):
        t0 = time.monotonic()
        try:
            call()
            outcome[name] = (time.monotonic() - t0, None)
        except BaseException as e:  # noqa: BLE001 - judged below
            outcome[name] = (time.monotonic() - t0, e)

    pids = _server_processes(pg_server[0])
    assert len(pids) >= 3                          # the postmaster and its backends
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        threads = [threading.Thread(target=timed, args=("read", lambda: reader.load(gid))),
                   threading.Thread(target=timed, args=("write", lambda: writer.append(
                       gid, 3, ACTIONS[3], rev=rev)))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(0.1, 30 - (time.monotonic() - t0)))
        still = sorted({"read", "write"} - set(outcome))
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    assert not still, f"still waiting after 30 s: {still}"
    took, e = outcome["read"]
    assert took < 10 and type(e) is StoreError, (took, e)
    assert "cannot be reached" in str(e) and "did not answer within 8 s" in str(e)
    assert "\n" not in str(e)
    took, e = outcome["write"]
    assert took < 10 and isinstance(e, StoreWriteFailed), (took, e)
    assert str(e).startswith("Not saved: the club database") and "\n" not in str(e)
    assert "nothing of this change was written" in str(e)
    # back: nothing lost, nothing half-written, and the same stores work again
    check = open_store(pg_url)
    assert check.load_revision(gid) == (rec, rev)
    assert writer.append(gid, 3, ACTIONS[3], rev=rev) == rev + 1
    assert reader.load(gid)["actions"] == ACTIONS[:4]
    for s in (check, reader, writer):
        s.close()


@pytest.mark.postgres
def test_a_live_page_says_within_10_s_that_the_stopped_server_does_not_answer(pg_server, pg_url):
    """Issue 35: "with the server stopped (SIGSTOP) for 30 s ... the host page kept
    showing '● live' and a pending undo, with no message"; done when "PostgreSQL stopped
    for 30 s (a message within 10 s, the page says it is not connected, nothing lost)".
    A host's page (the real screen, its live poll as the kernel runs it) polls while the
    server is stopped: within 10 s its live line says "not connected to the games'
    store" (no "● live" in it) and its message line why; no poll waits on the server (a
    poll that did would freeze the page's kernel, and its heartbeat with it); the game
    stays on the screen.  After SIGCONT the line is live again without a reload, and
    another connection's write reaches the page."""
    from companion.ats.game import Game
    from companion.ui.app import App
    setup = open_store(pg_url)
    gid = setup.create(Game({"players": ["Ana", "Ben"]}).to_record())
    setup.close()
    page = App(open_store(pg_url))
    assert page.ats.gid == gid
    page.live_tick()
    assert "live-on" in page.live_state.value and "games' store" not in page.live_state.value
    pids = _server_processes(pg_server[0])
    said, slowest, polls = None, 0.0, 0
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 30:
            t = time.monotonic()
            page.live_tick()
            slowest, polls = max(slowest, time.monotonic() - t), polls + 1
            if said is None and "not connected to the games' store" in page.live_state.value:
                said = time.monotonic() - t0
            time.sleep(0.4)                  # the 30 s: polls go on answering
        line, status = page.live_state.value, page.status.value
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    assert said is not None and said < 10, (said, line)
    assert "live-on" not in line and "actions: 0" in line
    assert "cannot be reached" in status and "did not answer" in status, status
    assert slowest < 2.0, f"a poll waited {slowest:.1f} s on the stopped server"
    assert page.ats.gid == gid and polls > 30
    # the server is back: the line is live again, and the page follows other writes
    t0 = time.monotonic()
    while "games' store" in page.live_state.value and time.monotonic() - t0 < 30:
        page.live_tick()
        time.sleep(0.4)
    assert "live-on" in page.live_state.value and "games' store" not in page.live_state.value
    other = open_store(pg_url)
    rev = other.revision(gid)
    other.append(gid, 0, {"player": "Ana", "do": "discard", "card": "Garden"}, rev=rev)
    other.close()
    t0 = time.monotonic()
    while "actions: 1" not in page.live_state.value and time.monotonic() - t0 < 10:
        page.live_tick()
        time.sleep(0.2)
    assert "actions: 1" in page.live_state.value and page.ats.gid == gid
    page.store.close()


# ------------------------------------------------------------ a lost COMMIT
@pytest.fixture
def commit_fault(monkeypatch):
    """``commit_fault(kind)``: the next COMMIT of any store ... ``"answer"``: is made,
    then its connection is cut before the answer is read; ``"before"``: its connection
    is terminated by the server first (``admin``: a connection to terminate it with)."""
    import socket

    import psycopg
    from companion.table import pgconn
    real = pgconn._Cursor.execute

    def cut(conn):                             # the socket shut under the driver
        sock = socket.socket(fileno=os.dup(conn.pgconn.socket))
        sock.shutdown(socket.SHUT_RDWR)
        sock.close()
    armed: dict[str, object] = {}

    def execute(self, sql, params=None):
        kind = armed.pop("kind", None) if sql == "COMMIT" else None
        if kind == "answer":
            real(self, sql, params)
            cut(self.cur.connection)
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        if kind == "before":
            pid = self.cur.connection.info.backend_pid
            admin = armed["admin"]
            admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
        return real(self, sql, params)
    monkeypatch.setattr(pgconn._Cursor, "execute", execute)

    def arm(kind, admin=None):
        armed["kind"], armed["admin"] = kind, admin
    return arm


@pytest.mark.postgres
def test_a_lost_commit_answer_reads_back_what_is_stored(pg_url, pg_admin, commit_fault,
                                                        monkeypatch):
    """"With `pg_terminate_backend` during COMMIT, 6 of 76 "nothing of this change was
    written" messages were for writes that had been committed" (issue 35): a COMMIT
    made whose answer was lost is saved (append, undo, a new game, a delete); one that
    was not made says nothing was written; one that cannot be read back says it may
    have been saved, never that nothing was."""
    s = open_store(pg_url)
    check = open_store(pg_url)
    gid = s.create({**SAMPLE, "actions": ACTIONS[:2]})
    rec, rev = s.load_revision(gid)
    commit_fault("answer")                     # committed, the answer lost
    assert s.append(gid, 2, ACTIONS[2], rev=rev) == rev + 1
    assert check.load_revision(gid) == ({**rec, "actions": ACTIONS[:3]}, rev + 1)
    commit_fault("answer")
    assert s.pop(gid, 2, rev=rev + 1) == rev + 2
    assert check.load_revision(gid)[1] == rev + 2 and len(check.load(gid)["actions"]) == 2
    commit_fault("answer")
    other = s.create({**SAMPLE, "actions": []})
    assert check.load(other)["actions"] == []
    commit_fault("answer")
    s.delete(other)
    assert other not in {g["id"] for g in check.games(None)}

    commit_fault("before", pg_admin)           # terminated before the COMMIT: not saved
    with pytest.raises(StoreWriteFailed) as e:
        s.append(gid, 2, ACTIONS[2], rev=rev + 2)
    assert "nothing of this change was written" in str(e.value) and "\n" not in str(e.value)
    assert check.load_revision(gid)[1] == rev + 2 and len(check.load(gid)["actions"]) == 2

    from companion.table import pgstore
    commit_fault("answer")                     # committed, and nothing can be read back
    real_open = pgstore.PgStore._open_connection
    monkeypatch.setattr(pgstore.PgStore, "_open_connection", lambda self: (_ for _ in ()).throw(
        __import__("psycopg").OperationalError("connection refused")))
    with pytest.raises(pgstore.CommitUnknown) as e:
        s.append(gid, 2, ACTIONS[2], rev=rev + 2)
    msg = str(e.value)
    assert msg.startswith("Not confirmed:") and "may have been saved" in msg
    assert "nothing of this change was written" not in msg and "\n" not in msg
    monkeypatch.setattr(pgstore.PgStore, "_open_connection", real_open)
    assert check.load(gid)["actions"] == ACTIONS[:3]   # it was: the message did not deny it
    s.close()
    check.close()


@pytest.mark.postgres
def test_appends_with_a_concurrent_terminator_say_what_is_stored(pg_url):
    """"After a lost COMMIT, the revision is read back before saying what was or was
    not written" (issue 35): appends while another connection terminates the
    writer's backend at random moments; every answer is compared with what is stored
    (saved: the action is there; "nothing … written": it is not)."""
    import psycopg
    s = open_store(pg_url)
    check = open_store(pg_url)
    gid = s.create({**SAMPLE, "actions": []})
    stop = threading.Event()
    kills = [0]

    def terminator():
        rnd = random.Random(35)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            while not stop.is_set():
                time.sleep(rnd.uniform(0.0, 0.03))
                db = s.db
                if db is None:
                    continue
                try:
                    pid = db.info.backend_pid
                except Exception:  # noqa: BLE001 - the store is replacing its connection
                    continue
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
                kills[0] += 1
    t = threading.Thread(target=terminator)
    t.start()
    outcomes = {"saved": 0, "not written": 0, "not confirmed": 0, "other": 0}
    deadline = time.monotonic() + 12
    try:
        while time.monotonic() < deadline and sum(outcomes.values()) < 300:
            stored, rev = check.load_revision(gid)
            index = len(stored["actions"])
            action = {"player": "George", "do": "discard", "card": f"C{index}-{rev}"}
            try:
                new = s.append(gid, index, action, rev=rev)
            except StoreWriteFailed as e:
                after, now = check.load_revision(gid)
                there = len(after["actions"]) > index and after["actions"][index] == action
                if str(e).startswith("Not confirmed:"):
                    outcomes["not confirmed"] += 1
                else:
                    assert "nothing of this change was written" in str(e), str(e)
                    assert not there and now == rev, (str(e), now, rev)
                    outcomes["not written"] += 1
                continue
            except StoreError as e:              # the connection lost while opening
                outcomes["other"] += 1
                assert "cannot be reached" in str(e)
                continue
            after, now = check.load_revision(gid)
            assert after["actions"][index] == action and new == rev + 1 and now >= new
            outcomes["saved"] += 1
    finally:
        stop.set()
        t.join()
    assert kills[0] >= 20 and outcomes["saved"] >= 20 and outcomes["not written"] >= 5, \
        (kills, outcomes)
    s.close()
    check.close()


# ------------------------------------------------------------ History, read-only
def _history_store(path_or_url) -> tuple[str, str]:
    """Two finished games; History derived for the first only (behind the games)."""
    from companion.table import history
    s = open_store(path_or_url)
    first = s.create(SAMPLE, title="first")
    history.sync(s)
    second = s.create(SAMPLE, title="second")
    s.close()
    return first, second


def _cli(args: list[str], env_extra: dict[str, str], user: bool = False):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("COMPANION_DEBUG", None)
    env.update(env_extra)
    cmd = [sys.executable, "-m", "companion", *args]
    return subprocess.run(as_user(cmd) if user else cmd, cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=120)


def _check_history_commands(run, out_dir: Path, first: str, second: str) -> None:
    r = run(["history", "plays"])
    assert r.returncode == 0, r.stderr
    assert first in r.stdout and second in r.stdout and "Not saved" not in r.stderr
    notes = [line for line in r.stderr.splitlines() if "computed in memory" in line]
    assert len(notes) == 1 and notes[0].startswith("note: History, statistics and exports "
                                                   "were computed in memory"), r.stderr
    assert "Traceback" not in r.stderr
    r = run(["history", "stats"])
    assert r.returncode == 0 and "computed in memory" in r.stderr, r.stderr
    assert "== win rate by player" in r.stdout and "George" in r.stdout
    assert "(no finished games)" not in r.stdout.split("== win rate by player")[1][:200]
    out = out_dir / "plays-bgstats.json"
    r = run(["history", "export", "--format", "bgstats", str(out)])
    assert r.returncode == 0 and "exported 2 play(s)" in r.stdout, r.stdout + r.stderr
    assert "computed in memory" in r.stderr
    assert len(json.loads(out.read_text())["plays"]) == 2
    out = out_dir / "records"
    r = run(["history", "export", str(out)])
    assert r.returncode == 0 and "exported 2 record(s)" in r.stdout, r.stdout + r.stderr


@contextlib.contextmanager
def read_only_history_folder(prefix: str):
    """A folder under /tmp holding a games.sqlite whose History is behind its games,
    made read-only (file 0444, folder 0555; the commands run under ``as_user``):
    (folder, path, first game, second game, the file's digest).  Removed afterwards."""
    folder = Path("/tmp") / f"{prefix}-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        path = folder / "games.sqlite"
        first, second = _history_store(path)
        before = digest(path)
        path.chmod(0o444)
        folder.chmod(0o555)
        yield folder, path, first, second, before
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_history_of_a_read_only_folder_is_computed_in_memory(tmp_path):
    """"A read-only store hides History: once the History tables are behind the games
    (any game added), `history plays`, `history stats` and `history export` on a
    read-only SQLite folder ... fail with "Not saved: … could not be written"" (issue
    35): they show every game, say in one line that nothing was saved, write nothing."""
    with read_only_history_folder("ro-history") as (folder, path, first, second, before):
        out_dir = tmp_path / "out"
        out_dir.mkdir()
        out_dir.chmod(0o777)

        def run(args):
            return _cli(args, {"COMPANION_HOME": str(folder)}, user=True)
        r = run(["history", "plays"])
        assert "read-only" in r.stderr.splitlines()[0], r.stderr   # the store's notice
        _check_history_commands(run, out_dir, first, second)
        assert digest(path) == before
        assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]


def test_history_current_on_a_writable_store_saves_it(tmp_path):
    """A store that can be written keeps History there (no copy, no note)."""
    from companion.table import history, stats
    path = tmp_path / "games.sqlite"
    _history_store(path)
    s = Store(path)
    view, note = history.current(s)
    assert view is s and note is None
    assert len(stats.games(s)) == 2
    assert s.query_one("SELECT COUNT(*) FROM g_results") == (2,)
    s.close()


def _with_user(url: str, user: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{user}@{host}", parts.path, parts.query,
                       parts.fragment))


@pytest.mark.postgres
def test_history_of_a_select_only_role_is_computed_in_memory(pg_url, pg_admin, tmp_path):
    """"A SELECT-only role gets no read-only notice at all" and its History commands
    "fail with "Not saved: … could not be written"" (issue 35): the role gets the
    read-only notice, and History, statistics and exports are computed in memory."""
    from companion.table import history, stats
    first, second = _history_store(pg_url)
    role = "ro_" + uuid.uuid4().hex[:10]
    pg_admin.execute(f"CREATE ROLE {role} LOGIN")
    try:
        pg_admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
        url = _with_user(pg_url, role)
        s = open_store(url)
        assert s.notice is not None and "is read-only" in s.notice
        from companion.table.store import MemoryStore
        before = s.query("SELECT game_id, derived_at FROM g_results ORDER BY game_id")
        view, note = history.current(s)
        assert isinstance(view, MemoryStore) and "computed in memory" in note
        assert sorted(stats.games(view).game_id) == sorted([first, second])
        assert s.query("SELECT game_id, derived_at FROM g_results ORDER BY game_id") == before
        s.close()
        _check_history_commands(lambda args: _cli(["--database", url, *args], {}),
                                tmp_path, first, second)
    finally:
        pg_admin.execute(f"DROP OWNED BY {role}")
        pg_admin.execute(f"DROP ROLE {role}")
