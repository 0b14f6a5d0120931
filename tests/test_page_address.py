"""A preheated kernel learns its page's address (issue 20): companion.ui.live.query_string.

Voila's pool kernel waits, with its widgets built, for the address of the page that takes
it (``?seat=Ana``, ``?view=table``, ``?game=...``): the server hands it the page's request
over a websocket.  Voila's own helper (``voila.utils.get_query_string``) tries once, with a
5 s limit on the handshake; when the handshake takes longer (a loaded server), the kernel
gets no address and the page is built as the host's plain page: a Small Star Empires page
opened with ``?game=<id>`` never shows its game (one way the intermittent failure of
tests/browser/test_browser_seat.py, now in test_four_pages.py, could happen; not reproduced here), and a seat's phone
would have the host's rights.  Here: a slow handshake and a dropped
connection still deliver the address, and a kernel that never gets one stays the table
view, which writes nothing, and says so.
"""
from __future__ import annotations

import asyncio
import json
import threading

import pytest
import websockets

from companion.core.roles import Role
from companion.table.store import Store
from companion.ats.game import Game
from companion.ui import live, shell
from companion.ui.app import App

REQUEST = {"QUERY_STRING": "seat=Ana&game=abc123", "SCRIPT_NAME": "/"}


class QueryServer:
    """A stand-in for Voila's query socket: ``delay`` seconds before the handshake is
    answered; the first ``drop`` connections are closed without a word."""

    def __init__(self, delay: float = 0.0, drop: int = 0):
        self.delay, self.drop, self.connections = delay, drop, 0
        self.port = None
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def process_request(connection, request):
            await asyncio.sleep(self.delay)       # a loaded server: a slow handshake
            return None

        async def handler(ws):
            self.connections += 1
            if self.connections <= self.drop:
                await ws.close()
                return
            await ws.send(json.dumps(REQUEST))

        async def main():
            self.server = await websockets.serve(handler, "127.0.0.1", 0,
                                                 process_request=process_request)
            self.port = self.server.sockets[0].getsockname()[1]
            self.ready.set()
            await self.server.wait_closed()

        self.loop.run_until_complete(main())

    def close(self):
        self.loop.call_soon_threadsafe(self.server.close)
        self.thread.join(10)


@pytest.fixture
def preheated(monkeypatch):
    """The environment of a pool kernel: VOILA_PREHEAT and where the server is."""
    servers = []

    def make(**kw) -> QueryServer:
        srv = QueryServer(**kw)
        servers.append(srv)
        monkeypatch.setenv("VOILA_PREHEAT", "True")
        monkeypatch.setenv("VOILA_APP_IP", "127.0.0.1")
        monkeypatch.setenv("VOILA_APP_PORT", str(srv.port))
        monkeypatch.setenv("VOILA_WS_BASE_URL", "/")
        monkeypatch.setenv("VOILA_KERNEL_ID", "k-1")
        monkeypatch.delenv("QUERY_STRING", raising=False)
        return srv

    yield make
    for srv in servers:
        srv.close()


def test_a_handshake_slower_than_voilas_5_seconds_still_gives_the_address(preheated):
    srv = preheated(delay=6.5)
    assert live.query_string() == "seat=Ana&game=abc123"
    assert srv.connections == 1


def test_voilas_own_helper_loses_that_address(preheated):
    """Why companion.ui.live does not use voila.utils.get_query_string: the same slow
    handshake, and Voila's helper returns no address (the page became the host's)."""
    from voila.utils import get_query_string
    preheated(delay=6.5)
    with pytest.warns(UserWarning, match="Failed to connect"):
        assert get_query_string() is None


def test_a_dropped_connection_is_opened_again(preheated):
    srv = preheated(drop=2)
    assert live.query_string() == "seat=Ana&game=abc123"
    assert srv.connections == 3


def test_no_server_gives_no_address_after_the_retries(preheated, monkeypatch):
    srv = preheated()
    srv.close()
    monkeypatch.setattr(live, "QUERY_RETRY_FOR", 1.0)
    assert live.query_string() is None


def test_a_page_without_its_address_stays_the_table_view_and_says_so(tmp_path, monkeypatch):
    store = Store(tmp_path / "games.sqlite")
    gid = store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    monkeypatch.setattr(shell, "query_string", lambda: None)
    app = App(Store(store.path), role=Role.TABLE)        # as companion.ui.dashboard builds it
    app.apply_query()
    assert app.session.role == Role.TABLE and app.ats.view == "table"
    assert app.ats.gid == gid                                   # it still shows the game
    assert "did not receive its address" in app.status.value
    assert "reload the page" in app.status.value
    store.close()


def test_the_server_keeps_the_address_for_a_kernel_whose_socket_lost_it():
    """Voila writes a page's address to its preheated kernel's socket and keeps it only
    when no socket is there: a write into a socket that was closing ("Error sending
    message") lost it, and the kernel, connecting again, waited for ever (a blank page:
    issue 34).  The dashboard's config (notebooks/config/voila.py, loaded in a process
    of its own) keeps it until the kernel says "received": the kernel's own route sends
    it again, Voila's public route does not, and once received nobody gets it."""
    import subprocess
    import sys
    from pathlib import Path
    config = Path(__file__).resolve().parent.parent / "notebooks" / "config" / "voila.py"
    prog = (
        "import json, runpy\n"
        "from traitlets.config import Config\n"
        f"v = runpy.run_path({str(config)!r}, init_globals={{'get_config': Config}})\n"
        "from voila.request_info_handler import RequestInfoSocketHandler as R\n"
        "K = v['_kernel_query_handler']()\n"
        "class Closing:\n"
        "    def write_message(self, m):\n"
        "        raise RuntimeError('closed')\n"
        "def socket(cls):\n"
        "    h = cls.__new__(cls)\n"
        "    h.application = type('App', (), {'settings': {}})()\n"
        "    h.got = []\n"
        "    h.write_message = h.got.append\n"
        "    return h\n"
        "R._waiters['k-1'] = Closing()\n"
        "R.send_updates({'kernel_id': 'k-1', 'payload': 'QUERY_STRING=seat%3DAna'})\n"
        "public = socket(R); R.open(public, 'k-1'); R.on_close(public)\n"
        "again = socket(K); again.open('k-1')\n"
        "again.on_message('received'); again.on_close()\n"
        "later = socket(K); later.open('k-1')\n"
        "print(json.dumps([public.got, again.got, later.got]))\n")
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    public, again, later = json.loads(out.stdout.strip().splitlines()[-1])
    assert public == []                                  # not to anyone with the token
    assert again == ["QUERY_STRING=seat%3DAna"]          # the kernel connecting again
    assert later == []                                   # received: gone
