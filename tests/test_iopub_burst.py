"""Issue 34: a burst of widget messages reaches a page that reads it late.

A game tab's first screen is one to a few thousand widget messages sent at once.  ZeroMQ
keeps 1,000 messages per reader on the kernel's IOPub socket and DROPS the rest (a PUB
socket never waits); a page whose server reads them late then gets "widget model not
found" and an empty tab.  The dashboard's kernel
(notebooks/config/jupyter/kernels/python3/companion_kernel.py) binds that socket with a
larger limit.

Here a real kernel, started through that kernelspec on unix sockets, runs the dashboard as
the notebook does; a second reader, connected like the server, reads nothing until a
screen's build is over.  It must then get every message the kernel sent.
``COMPANION_IOPUB_QUEUE=1000`` (ZeroMQ's own limit) shows the loss the kernel removes.
"""
from __future__ import annotations

import os
import queue
import tempfile
import time
from pathlib import Path

import pytest

zmq = pytest.importorskip("zmq")
pytest.importorskip("ipykernel")
from jupyter_client import KernelManager  # noqa: E402
from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent   # (not conftest's: which conftest a
# "from conftest import" gets depends on what pytest collected first: issue 51)


def _run(kc, code: str, timeout: float = 240) -> tuple[str, list[dict]]:
    """Execute ``code``; the messages of its run (the kernel's own, read at once).  The
    run ends with its "idle" status, or, should ZeroMQ's own limit have dropped that one
    too (it drops for a reader that is merely slow, as this process is beside a CPU hog:
    seen in a full run), with its execute reply once IOPub is quiet (a reply on the
    shell channel is never dropped)."""
    msg_id = kc.execute(code)
    seen: list[dict] = []
    reply = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=2)
        except queue.Empty:
            if reply is None:
                reply = _reply(kc, msg_id, 0.1)
                if reply is None:
                    continue
            break                               # the run is over, its idle was lost
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        seen.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    else:
        raise AssertionError(f"no end of run within {timeout} s")
    if reply is None:
        reply = _reply(kc, msg_id, timeout)
    assert reply is not None, f"no reply to the run within {timeout} s"
    assert reply["content"]["status"] == "ok", reply["content"]
    return msg_id, seen


def _reply(kc, msg_id: str, timeout: float) -> dict | None:
    """The shell reply to ``msg_id`` (earlier replies, kernel_info's, are passed over)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            m = kc.get_shell_msg(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def _late_count(sock, msg_id: str) -> int:
    """The widget messages of run ``msg_id`` the late reader gets, read after the run."""
    got = 0
    key = f'"msg_id": "{msg_id}"'.encode()
    key2 = f'"msg_id":"{msg_id}"'.encode()
    while sock.poll(1500):
        frames = sock.recv_multipart()
        try:
            i = frames.index(b"<IDS|MSG>")
        except ValueError:
            continue
        header, parent = frames[i + 2], frames[i + 3]
        if (key in parent or key2 in parent) and (b'"comm_open"' in header
                                                   or b'"comm_msg"' in header):
            got += 1
    return got


#: the dashboard's kernelspec folder (first on JUPYTER_PATH under notebooks/config)
KERNELS = ROOT / "notebooks" / "config" / "jupyter" / "kernels"


def _kernel(home: str, queue: str | None):
    """A page's kernel as the dashboard's Voila starts it (its kernelspec, unix sockets)."""
    env = dict(os.environ, COMPANION_HOME=home, PYTHONPATH=str(ROOT))
    env.pop("COMPANION_DATABASE_URL", None)
    if queue is not None:
        env["COMPANION_IOPUB_QUEUE"] = queue
    specs = KernelSpecManager(kernel_dirs=[str(KERNELS)])
    assert specs.get_kernel_spec("python3").argv[1].endswith("/companion_kernel.py")
    km = KernelManager(kernel_name="python3", transport="ipc", kernel_spec_manager=specs)
    km.ip = os.path.join(tempfile.mkdtemp(prefix="k", dir="/tmp"), "k")
    km.start_kernel(env=env, cwd=str(ROOT))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    return km, kc


def _burst(home, queue: str | None, build: str) -> tuple[int, int]:
    """(widget messages the kernel sent, widget messages the late reader got) for
    ``build``, run in a page's kernel after the dashboard was built."""
    km, kc = _kernel(str(home), queue)
    try:
        _run(kc, "from companion.ui import dashboard\nroot = dashboard()\n"
                 "app = dashboard.app\nassert app.tabs.selected_index == 0")
        late = km.connect_iopub()          # the server's kind of reader, reading late
        try:
            time.sleep(0.5)                # its subscription reaches the kernel
            msg_id, seen = _run(kc, build)
            sent = sum(1 for m in seen if m["msg_type"] in ("comm_open", "comm_msg"))
            return sent, _late_count(late, msg_id)
        finally:
            late.close(linger=0)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


#: the Small Star Empires tab opened on a game under way (about 1,000 widget messages)
SSE_TAB = ("app.tabs.selected_index = app.formats.index('small-star-empires/1')\n"
           "s = app.screens.get('small-star-empires/1')\n"
           "assert s is not None and s.game is not None")
#: a screen three times that size (a long history, a large final table)
BIG_SCREEN = ("import ipywidgets as w\n"
              "box = w.VBox([w.HTML(f'<b>{i}</b>') for i in range(3000)])")


@pytest.fixture
def sse_under_way(companion_home):
    from companion.table.store import Store
    from test_history import records
    rec = records()["S1"]
    del rec["actions"][-4:]
    Store().create(rec, title="S1")
    return companion_home


def test_a_late_reader_gets_every_widget_message_of_a_new_tab(sse_under_way):
    sent, got = _burst(sse_under_way, None, SSE_TAB)
    assert sent > 500, sent
    assert got == sent, f"{sent - got} of {sent} widget messages lost"


def test_a_late_reader_gets_every_widget_message_of_a_burst_past_zeromqs_limit(
        companion_home):
    sent, got = _burst(companion_home, None, BIG_SCREEN)
    assert sent >= 3000, sent
    assert got == sent, f"{sent - got} of {sent} widget messages lost"


def test_zeromqs_own_limit_loses_part_of_the_same_burst(companion_home):
    """The cause, shown: with ZeroMQ's 1,000 the same late reader loses messages: of the
    9,000 and more widget messages of the burst (all of them reach it with the
    dashboard's limit: the test above) it gets about 2,000 (two queues of 1,000).  The
    count of the reader that reads at once is no measure here: beside a CPU hog it may
    lose some too."""
    sent, got = _burst(companion_home, "1000", BIG_SCREEN)
    assert 0 < got < 3000, (sent, got)
