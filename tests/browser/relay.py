"""A TCP relay between the browser and Voila that a test can cut and restore (issue 20).

Playwright's ``set_offline`` leaves open websockets alone, so a page's kernel connection
would survive it; a phone that sleeps or leaves the Wi-Fi loses it.  The relay listens on
its own port and forwards every connection to the server.  :meth:`Relay.cut` closes every
open connection (both sides; with ``server_sees=False`` only the browser's side, as a phone
that drops off the network without a word) and refuses new ones (accepted, then closed at
once with a reset) until :meth:`Relay.restore`.

    with Relay(server.port) as relay:
        page.goto(relay.url + "?seat=Ana")
        relay.cut(); ...; relay.restore()
"""
from __future__ import annotations

import socket
import struct
import threading


def _reset(sock: socket.socket) -> None:
    """Close both directions at once and reset (SO_LINGER 0).  ``shutdown`` first: a
    plain ``close`` from another thread leaves a ``recv`` blocked in the pump thread, and
    the connection open (the server would not see it go)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


class Relay:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._upstream: set[socket.socket] = set()     # the server's side of each one
        self._silent: set[socket.socket] = set()       # left open by cut(server_sees=False)
        self._cut = False
        self._stopped = False
        #: connections forwarded, and connections refused while cut (for the test's log)
        self.accepted = 0
        self.refused = 0
        self._thread = threading.Thread(target=self._serve, name="relay", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def is_cut(self) -> bool:
        return self._cut

    def open_connections(self) -> int:
        with self._lock:
            return len(self._open) // 2

    # -- control ------------------------------------------------------------------------
    def cut(self, *, server_sees: bool = True) -> None:
        """Close every open connection and refuse new ones.  ``server_sees=False``: only
        the browser's side is closed; the server's side stays open and unread, as when a
        phone drops off the network without a word (the server holds a connection that
        is gone until its own ping times out)."""
        with self._lock:
            self._cut = True
            socks, self._open = list(self._open), set()
            if not server_sees:
                self._silent.update(s for s in socks if s in self._upstream)
        for s in socks:
            if s not in self._silent:
                _reset(s)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._stopped = True
        self.cut()
        with self._lock:
            silent, self._silent = list(self._silent), set()
        for s in silent:
            _reset(s)
        try:
            self.listener.close()
        except OSError:
            pass
        self._thread.join(timeout=5)

    def __enter__(self) -> "Relay":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- forwarding ---------------------------------------------------------------------
    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self._stopped:
            try:
                client, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            if self._cut:
                self.refused += 1
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=10)
                upstream.settimeout(None)
            except OSError:
                _reset(client)
                continue
            with self._lock:
                if self._cut:
                    self.refused += 1
                    _reset(client)
                    _reset(upstream)
                    continue
                self._open.update((client, upstream))
                self._upstream.add(upstream)
                self.accepted += 1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)
                keep = self._silent
            for s in (src, dst):
                if s in keep:
                    continue
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                try:
                    s.close()
                except OSError:
                    pass
