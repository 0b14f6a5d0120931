"""Serve the dashboard with Voila and drive it with Debian's Chromium.

Follows shared/design/browser-testing.md: a free port, Voila started in its
own session with Jupyter's folders in a temporary folder, readiness polled on
/voila/static/voila.js (never on / : each hit there starts a kernel), and a
SIGTERM-then-SIGKILL stop of the whole process group.
"""

from __future__ import annotations

import os
import signal
import socket
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "companion.ipynb"
#: the dashboard's Voila configuration (culling, tab-close shutdown, Host allowlist,
#: token from the environment); ./dashboard always uses it, tests opt in with
#: ``VoilaServer(..., config=True)``
CONFIG_DIR = REPO / "notebooks" / "config"
#: the page template's script that sends every widget change at once (see its comment)
ORDERED_SYNC_JS = CONFIG_DIR / "jupyter" / "nbconvert" / "templates" / "star-companion" / "ordered_sync.js"
ARTIFACTS = REPO / "tests" / "artifacts"

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Voila 0.5 sends the page only after every cell ran: wait for widgets, not `load`.
WIDGET_TIMEOUT_MS = 60_000
SERVER_START_TIMEOUT = 60.0
SERVER_STOP_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot as tests/artifacts/NAME.png and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / (name if name.endswith(".png") else f"{name}.png")
    # Voila scrolls the notebook inside #rendered_cells: make the window as tall as
    # the content for the shot (same width, same layout), then put it back
    size = page.viewport_size
    tall = page.evaluate("() => { const el = document.querySelector('#rendered_cells');"
                         " return el ? el.scrollHeight + el.getBoundingClientRect().top : 0; }")
    try:
        if size and tall > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": min(int(tall) + 20, 12000)})
            page.wait_for_timeout(300)
        page.screenshot(path=str(path), full_page=True)
    finally:
        if size and page.viewport_size != size:
            page.set_viewport_size(size)
    return path


def _descendants(pid: int) -> list[int]:
    """All live descendants of pid (Linux /proc). Kernels run in their own
    session, so killing Voila's process group alone would not reach them."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may contain spaces.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill(pids, sig) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


class VoilaServer:
    """One Voila process serving notebooks/companion.ipynb on 127.0.0.1.

    ``home`` is passed to the app as COMPANION_HOME (its user data and SQLite
    database live there); it survives :meth:`restart`, as does the port.
    """

    def __init__(self, home: Path, workdir: Path, port: int | None = None,
                 notebook: Path = NOTEBOOK, *, config: bool = False,
                 extra_args: list[str] | tuple = (), env: dict[str, str] | None = None,
                 ip: str = "127.0.0.1"):
        """``config``: load notebooks/config/voila.py as ./dashboard does;
        ``extra_args`` go on Voila's command line, ``env`` into its environment
        (e.g. COMPANION_TOKEN, COMPANION_CULL_IDLE); ``ip`` is where it listens."""
        self.config = config
        self.extra_args = list(extra_args)
        self.extra_env = dict(env or {})
        self.ip = ip
        self.home = Path(home)
        self.workdir = Path(workdir)
        self.port = port or free_port()
        self.notebook = Path(notebook)
        self.proc: subprocess.Popen | None = None
        self.log_path = self.workdir / "voila.log"
        self.runtime_dir: Path | None = None      # TMPDIR: made at the first start, kept across restarts
        self.starts = 0
        #: seconds from Popen to voila.js answering 200, for the last start
        self.startup_seconds: float | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for var, sub in [("JUPYTER_DATA_DIR", "jupyter-data"),
                         ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
                         ("JUPYTER_CONFIG_DIR", "jupyter-config")]:
            path = self.workdir / sub
            path.mkdir(parents=True, exist_ok=True)
            env[var] = str(path)
        # Voila keeps the kernels' connection files, and so their sockets (ipc:
        # notebooks/config/voila.py), in the temporary folder, and a socket's path must be
        # short: a folder of its own under /tmp, not deep in pytest's tmp_path
        if self.runtime_dir is None:
            self.runtime_dir = Path(tempfile.mkdtemp(prefix="cr-", dir="/tmp"))
        env["TMPDIR"] = str(self.runtime_dir)
        self.home.mkdir(parents=True, exist_ok=True)
        env["COMPANION_HOME"] = str(self.home)
        # the dashboard's kernel (notebooks/config/jupyter/kernels/python3), with
        # Voila's defaults too; the dashboard's config puts the same folder first
        jupyter = str(CONFIG_DIR / "jupyter")
        env["JUPYTER_PATH"] = os.pathsep.join(
            [jupyter] + [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep)
                         if p and p != jupyter])
        # the dashboard keeps 4 preheated kernels (a 4-player table joining at once); a test
        # server keeps 2 unless the test says (test_page_start_pool.py: 4): each pool kernel
        # costs ~1.6 CPU-s at start, on a 2-core machine running 3 tests at once (issue 34)
        if self.config:
            env.setdefault("COMPANION_POOL_SIZE", "2")
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            raise RuntimeError("Voila is already running")
        cmd = [
            sys.executable, "-m", "voila", str(self.notebook),
            "--no-browser",
            f"--port={self.port}",
            f"--Voila.ip={self.ip}",
            "--Voila.port_retries=0",
            # every line with its time: a failing test's report shows how long things took
            "--Voila.log_format=%(asctime)s [%(name)s] %(message)s",
            "--Voila.log_datefmt=%H:%M:%S",
        ]
        if self.config:
            cmd.append(f"--Voila.config_file_paths={CONFIG_DIR}")
        else:
            # Voila's defaults, less the one that blanks a page on a busy machine (the
            # dashboard's config sets it too: notebooks/config/voila.py, issue 34)
            cmd.append("--VoilaExecutor.iopub_timeout=300")
        cmd += self.extra_args
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        log = open(self.log_path, "a")
        log.write(f"\n===== start #{self.starts}: {' '.join(cmd)}\n")
        log.flush()
        t0 = time.monotonic()
        try:
            self.proc = subprocess.Popen(
                cmd, cwd=REPO, env=self._env(), stdin=subprocess.DEVNULL,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        finally:
            log.close()
        self._wait_ready(t0)
        self.startup_seconds = time.monotonic() - t0

    def _wait_ready(self, t0: float) -> None:
        probe = f"{self.url}voila/static/voila.js"
        token = self.extra_env.get("COMPANION_TOKEN")
        # with a token, every route asks for it (notebooks/config/voila.py, issue 20)
        url = f"{probe}?token={token}" if token and self.config else probe
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"Voila exited with code {self.proc.returncode} before it was ready.\n"
                    f"{self.log_tail()}")
            try:
                with urllib.request.urlopen(url, timeout=2) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() - t0 > SERVER_START_TIMEOUT:
                self.stop()
                raise RuntimeError(
                    f"Voila did not answer {probe} within {SERVER_START_TIMEOUT:.0f} s.\n"
                    f"{self.log_tail()}")
            time.sleep(0.1)

    def stop(self, hard: bool = False) -> None:
        """Stop Voila and its kernels.

        Graceful by default (SIGTERM to the process group, so Voila shuts its
        kernels down, then SIGKILL after a timeout). ``hard=True`` SIGKILLs
        Voila and every kernel at once, like a crash or a pulled plug.
        """
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            kids = _descendants(proc.pid)
            if hard:
                _kill(kids, signal.SIGKILL)
                self._signal_group(proc, signal.SIGKILL)
            else:
                self._signal_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=SERVER_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._signal_group(proc, signal.SIGKILL)
                proc.wait(timeout=SERVER_STOP_TIMEOUT)
            # Kernels left behind (their own sessions) must not outlive the test.
            deadline = time.monotonic() + 3
            while kids and time.monotonic() < deadline:
                kids = [k for k in kids if _state(k) not in ("X", "Z")]
                if kids:
                    time.sleep(0.1)
            _kill(kids, signal.SIGKILL)

    @staticmethod
    def _signal_group(proc, sig) -> None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass

    def cleanup(self) -> None:
        """Stop, and remove the temporary folder (the kernels' sockets) under /tmp."""
        self.stop()
        if self.runtime_dir is not None:
            shutil.rmtree(self.runtime_dir, ignore_errors=True)
            self.runtime_dir = None

    def restart(self, hard: bool = False) -> None:
        """Stop Voila (see :meth:`stop`) and start it again on the same port
        with the same COMPANION_HOME. Pages must navigate to ``url`` again."""
        self.stop(hard=hard)
        self.start()

    def process_ids(self) -> list[int]:
        """Voila's process id and those of all its live descendants (kernels)."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        return [self.proc.pid] + [k for k in _descendants(self.proc.pid)
                                  if _state(k) not in ("X", "Z")]

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no Voila log)"
        return "----- Voila log (tail) -----\n" + "\n".join(text[-lines:])


def _state(pid: int) -> str:
    """Process state letter from /proc ("Z" zombie), "X" if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "X"


class CpuHog:
    """A busy loop on one core beside the server (``python -c "while True: pass"``), as
    a laptop busy with other work: ``with CpuHog(): ...``.  Stopped on exit, whatever
    happens in the block."""

    def __init__(self, cores: int = 1):
        self.cores = cores
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> "CpuHog":
        for _ in range(self.cores):
            self.procs.append(subprocess.Popen(
                [sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        return self

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.kill()
            p.wait(timeout=10)
        self.procs = []
