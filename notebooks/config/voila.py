"""Voila configuration of the table companion's dashboard (issue 12: the server).

Loaded by ./dashboard and by the server tests through
``--Voila.config_file_paths=<repo>/notebooks/config`` (Voila reads ``voila.py``
from those folders).  Everything here is configuration of Voila 0.5 /
jupyter_server 2; what it sets up:

* **Kernels are culled.**  Each page load starts a kernel (about 115 MB).
  ``MappingKernelManager`` culls a kernel that has been idle and without a
  connected page for ``COMPANION_CULL_IDLE`` seconds (default 1200), checked
  every ``COMPANION_CULL_INTERVAL`` seconds (default 20).  A page left open
  keeps its kernel (``cull_connected = False``).  A kernel still starting is not
  culled (for up to 120 s): on a busy machine a start took longer than a short idle
  timeout, and the page waiting for that kernel hung.
* **Pages that come and go all evening** (issue 50).  A kernel whose page's socket closed
  and did not come back within ``COMPANION_DISCONNECTED_SECONDS`` (75: a phone away for a minute between turns comes back to its kernel) is ended (sockets
  are pinged every ``COMPANION_WS_PING_SECONDS``, 15, so a phone gone from the Wi-Fi is
  seen too); a new page for the same link ends its previous page's kernel unless that
  page is still live; a re-issued link's kernels are ended after
  ``COMPANION_REVOKED_SECONDS`` (30); the cap below counts live pages only.  Section
  *pages that come and go*.
* **A clean start and stop** (issue 50).  Ctrl-C and SIGTERM stop the server the same
  way, every kernel ended at once, without a traceback; no "not trusted" warning; Voila's
  own address line (this machine's name, ``[token]``) points at the address ./dashboard
  printed; a websocket refused (a page coming back after a restart) is one log line; a
  dead link (a re-issued capability, a damaged one, a wrong token) gets the companion's
  own page ("This link no longer works: ask the host for its new code"), not the login form.
* **Kernels are bounded** (issue 35).  At most ``COMPANION_MAX_KERNELS`` (24, the pool's
  included): the next page load gets a one-paragraph page (503).  A client may have at
  most ``COMPANION_MAX_WAITING_PAGES`` (8) loaded pages whose kernel websocket has not
  come (a 429 page past it), and a kernel whose page never connected is ended
  ``COMPANION_UNCONNECTED_SECONDS`` (60) after its last activity.
* **Preheated kernels** (issue 14).  Voila keeps a pool of
  ``COMPANION_POOL_SIZE`` kernels (default 4: a seat each for a 4-player table joining
  at once; 0 turns preheating off) that
  have already run the notebook up to the point where it reads the page's
  query (``companion.ui.live.query_string``: ``voila.utils.get_query_string``
  blocks until a browser takes the kernel), so a phone joining a running
  server gets a built page instead of waiting for a kernel to start.  A
  taken kernel is replaced after one second.  Voila never culls a kernel
  still in the pool (``cull_kernel_if_idle``); a taken one is culled like
  any other.  The kernels get the server's environment, with
  ``COMPANION_PUBLIC_URL`` (set by ./dashboard) for the page's QR codes.
* **A page's widgets are never dropped** (issue 34).  ``VoilaExecutor.iopub_timeout``
  is ``COMPANION_IOPUB_TIMEOUT`` seconds (default 300, nbclient's is 4): on a busy
  laptop the page's widget display came later than 4 s after its cell's reply, nbclient
  dropped it and the page stayed blank.
* **Kernels on local sockets** (issue 34): unix sockets, so no port can be taken
  between its choice and its bind (``COMPANION_KERNEL_TRANSPORT=tcp`` keeps TCP).
* **The dashboard's kernel** (issue 34): ``jupyter/kernels/python3`` (first on
  ``JUPYTER_PATH``, below) starts its ``companion_kernel.py``, ipykernel with an IOPub socket
  that keeps 200,000 messages for a page that reads late instead of ZeroMQ's 1,000,
  past which it drops them (a game tab's first screen came up empty).
* **Closing a tab shuts its kernel down.**  Voila's page sends
  ``POST /voila/api/shutdown/<kernel>`` on ``beforeunload`` with the value of
  the ``_xsrf`` cookie, but Voila's page handler never sets that cookie, so
  the request was refused with 403 (voila-dashboards/voila#1458).  Voila
  refuses a ``prelaunch_hook`` (which used to read ``handler.xsrf_token``)
  together with preheating, so the page handler's ``prepare`` is wrapped
  instead: it reads ``xsrf_token``, which makes tornado set the cookie on the
  page's response, preheated or not.  The XSRF check itself stays on.
* **Host allowlist** (DNS rebinding).  Voila sets ``allow_remote_access=True``
  in its tornado settings; ``Voila.tornado_settings`` sets it back to False,
  so jupyter_server's ``check_host`` answers 403 to a request whose ``Host:``
  is neither a loopback address nor one of ``local_hostnames``
  (``localhost`` plus the names in ``COMPANION_ALLOWED_HOSTS``, a
  comma-separated list that ./dashboard fills with this machine's names and
  addresses under ``--lan`` and with ``--allow-host``).  jupyter_server only
  accepts loopback IP addresses, so a LAN address in that list is accepted by
  a small wrapper around ``check_host``.
* **The token** comes from the environment (``COMPANION_TOKEN``) or a file
  (``COMPANION_TOKEN_FILE``), never from the command line; both variables
  are removed from the server's environment before any kernel starts.  A
  token shorter than 16 characters stops the server.  Request logs scrub
  ``token=`` (jupyter_server's ``log_request``) and every log record has the
  token's value replaced by ``[token]``, and a capability's (``cap=``) by ``[cap]``.
* **No stylesheet from the internet.**  Voila's lab page links two Font Awesome
  stylesheets on cdn.jsdelivr.net; a stylesheet in ``<head>`` holds the page until
  it loads or fails, so on a table's network without internet (or a slow one) every
  phone waited on them (3 s of delay there cost 3 s of joining).  The page is the
  Voila template ``star-companion`` (``jupyter/nbconvert/templates/star-companion/``:
  ``conf.json`` bases it on ``lab``), found the Voila way: this file puts
  ``jupyter/`` first on ``JUPYTER_PATH`` and chooses the template (``--template``
  on the command line would too); it is Voila's lab page without those two links; the icons come from
  the font Voila bundles.
* **/logout** redirects to the dashboard (Voila's stock handler needs a
  ``logout.html`` template Voila does not ship, so it answered 500).
* **No route or socket without the token** (issue 20).  Voila registers some
  handlers that are plain tornado handlers, outside jupyter_server's login and
  Host check: ``/voila/query/<kernel>`` (the websocket that hands a preheated
  kernel its page's address, ``token=`` and ``seat=`` included: anyone knowing a
  pool kernel's id received the next phone's address, and that phone's page never
  loaded), ``/voila/static/``, ``/voila/templates/`` and ``/voila/files/``.
  ``Voila.init_handlers`` is wrapped so that EVERY route it registers (listed in
  the log at start: "companion: gated routes: ...") gets a subclass whose
  ``prepare`` runs first: a foreign ``Host:`` -> 403; then, when a token is set
  (``--lan``), the request must carry it (``?token=``, ``Authorization: token``)
  or the login cookie the page's response sets; otherwise the page (``/...``)
  redirects to /login and everything else, websockets included, answers 403.
  Exempt from the token (not from the Host check): ``/login``, ``/logout`` and
  the login page's own files (``/voila/static/favicon.ico``, ``style/``,
  ``logo/``).  Static files need the token too: they are Voila's public
  JavaScript, but "every route" is simpler to check than a list of harmless ones,
  and they cost nothing: the page's own loads carry the login cookie, and a
  returning phone takes the hashed ones from its cache without asking.
  The query socket's real client is not a browser: it is the preheated kernel
  itself (``voila.utils.wait_for_request`` connects to the server to learn its
  page's address), and a kernel has no token.  So the kernels get their own
  route, ``/companion-kernel-<secret>/voila/query/<kernel>``: ``<secret>`` is
  drawn when the server starts and reaches only the kernels (``VOILA_WS_BASE_URL``
  in the server's environment, which every kernel inherits; Voila's server never
  reads it).  The public ``/voila/query/<kernel>`` needs the token like any route.
* **A role is a capability, not an address** (issue 35).  With a token in force, the
  gate also decides each request's role, once (``_grant``): the token is the host's; a
  ``?cap=`` is a seat's (bound to its player and game) or the table view's capability
  (``companion.table.capabilities``: ``capabilities.json`` in COMPANION_HOME); else the
  login cookie, whose user is the role it was given (``companion-host`` or
  ``companion-cap-<id>``, looked up again at every request: a re-issued link's cookie no
  longer logs in).  The page's query that reaches its kernel is then the gate's
  (``_page_query``): a seat's page is always its seat in its game (or a view of it),
  whatever the address asks, with ``capid`` (the capability's public id) for the page's
  session; the host's keeps its address less the token.  ``COMPANION_CAPS=1`` in the
  kernels' environment tells the page to read it so.  The public ``/voila/query/`` socket
  is the host's only.  docs/store.md, *How a page gets its role*.
* **Hashed static files are immutable** (issue 20: returning phones).  Voila is
  not a ServerApp, so jupyter_server's ``static_immutable_cache`` is never set, and
  the labextensions route marks everything ``no-cache`` (a request per file per
  page load).  A static file whose URL carries a content hash (16+ hex digits in
  its name, e.g. ``remoteEntry.5cbb9d2323598fbda535.js``, or a ``?v=`` equal to
  tornado's hash of its content) is served with ``Cache-Control: public,
  max-age=31536000, immutable``; any other file keeps its old headers (tornado's
  ``?v=`` long cache is no longer given to a ``v`` that is not the content's hash).
"""
from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
import time

c = get_config()  # noqa: F821 - provided by traitlets when it runs this file

MIN_TOKEN = 16

# --- kernels: idle culling ---------------------------------------------------
c.MappingKernelManager.cull_idle_timeout = int(os.environ.get("COMPANION_CULL_IDLE", "1200"))
c.MappingKernelManager.cull_interval = int(os.environ.get("COMPANION_CULL_INTERVAL", "20"))
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False


#: a kernel still starting is a page (or the pool) waiting for it, never an idle one:
#: jupyter_server's culler took it for idle once cull_idle_timeout had passed since its
#: start, and on a busy machine a kernel's start took longer than a short timeout (3 s in
#: the culling tests): the kernel was killed mid-start and its page hung on "Running ..."
#: for good.  Voila keeps pool kernels from the culler only once they are ready.  So a
#: kernel that says "starting" is not culled until STARTING_GRACE seconds (or the idle
#: timeout, if longer) have passed; a dead one is culled at once as before.
STARTING_GRACE = 120


# --- kernels: bounded (issue 35) ---------------------------------------------------
#: A page load starts a kernel of about 120 MB; 30 bare ``GET /`` once made 52 kernels
#: (+3.7 GB).  So: at most MAX_KERNELS kernels at once (the pool's included): a page past
#: it gets a one-paragraph page (503) instead of a kernel; a client (an address) may have
#: at most MAX_WAITING pages loaded whose kernel websocket has not come yet (a browser
#: connects within seconds; a bare GET never does): past it, a 429 page; and a kernel
#: whose page never connected is ended UNCONNECTED_SECONDS after its last activity (the
#: culler looks every COMPANION_CULL_INTERVAL, 20 s).
def _bounded_int(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name, str(default)).strip() or str(default)
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"dashboard: {name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise SystemExit(f"dashboard: {name} must be between {low} and {high}")
    return value


MAX_KERNELS = _bounded_int("COMPANION_MAX_KERNELS", 24, 2, 500)
MAX_WAITING = _bounded_int("COMPANION_MAX_WAITING_PAGES", 8, 1, 100)
UNCONNECTED_SECONDS = _bounded_int("COMPANION_UNCONNECTED_SECONDS", 60, 5, 3600)
#: kernels a page's websocket has reached (their page came); the rest may be ended early
EVER_CONNECTED: set[str] = set()
#: client address -> times of its page loads not yet followed by a kernel websocket
_WAITING: dict[str, list[float]] = {}

_FULL_PAGE = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><meta name='viewport' "
    "content='width=device-width'><title>Star Companion: {title}</title></head>"
    "<body style='font:16px/1.4 sans-serif;margin:24px;max-width:36em'>"
    "<h1 style='font-size:20px'>{title}</h1><p>{text}</p>{reload}</body></html>")
_RELOAD = "<p><a href='javascript:location.reload()'>Reload this page</a></p>"
#: the page a dead link (a re-issued capability, a damaged one, a wrong token) lands on
DEAD_LINK = ("This link no longer works: ask the host for its new code. (The host's "
             "laptop shows each seat's code; the table view's code is printed where the "
             "dashboard was started.)")


def _page_bounds(handler) -> bool:
    """A page load (``GET /``) within the bounds; False: the refusal page was sent."""
    import time as _time
    now = _time.monotonic()
    client = handler.request.remote_ip or "?"
    waiting = [t for t in _WAITING.get(client, ()) if now - t < UNCONNECTED_SECONDS]
    manager = handler.settings.get("kernel_manager")
    # a kernel still starting (the pool refilling) or shutting down is a process with its
    # memory all the same, but jupyter_client lists it only once it is ready: counted too
    # (seen: the sixth kernel of a full server, still starting, let a seventh page in)
    kernels = (set(manager.list_kernel_ids())
               | set(getattr(manager, "_pending_kernels", None) or ())
               if manager is not None else set())
    # dead pages (their socket gone: ended within DISCONNECTED_SECONDS) are not counted
    # (issue 50); those past the cap are ended now, the longest gone first
    dead = sorted((k for k in kernels if k in _GONE), key=lambda k: _GONE[k])
    ending = [k for k in kernels if k in _ENDING and k not in _GONE]
    running = len(kernels) - len(dead) - len(ending)
    if running < MAX_KERNELS and len(kernels) >= MAX_KERNELS and manager is not None:
        for kernel_id in dead[:len(kernels) - MAX_KERNELS + 1]:
            handler.log.info("companion: ending kernel %s: its page's socket has gone and a "
                             "new page needs the room", kernel_id)
            _GONE.pop(kernel_id, None)
            _end_soon(manager, kernel_id)
    if running >= MAX_KERNELS:
        handler.set_status(503)
        handler.set_header("Retry-After", "60")
        handler.finish(_FULL_PAGE.format(
            title="Too many pages are open",
            text=f"This table's server has {running} pages open, its most. Close a tab on "
                 "a device that no longer needs it (or wait a minute for pages that went "
                 "away to be closed), then reload this page. Nothing of the game is lost.", reload=_RELOAD))
        return False
    if len(waiting) >= MAX_WAITING:
        _WAITING[client] = waiting
        handler.set_status(429)
        handler.set_header("Retry-After", str(UNCONNECTED_SECONDS))
        handler.finish(_FULL_PAGE.format(
            title="Too many pages at once",
            text=f"This device asked for {len(waiting)} pages that have not come up yet. "
                 "Wait a minute, then reload this page. Nothing of the game is lost.", reload=_RELOAD))
        return False
    waiting.append(now)
    _WAITING[client] = waiting
    return True


def _page_connected(handler, kernel_id: str) -> None:
    """A kernel websocket came: its kernel's page is there, and one of its client's page
    loads is no longer waiting."""
    EVER_CONNECTED.add(kernel_id)
    _SOCKET_AT[kernel_id] = time.monotonic()
    waiting = _WAITING.get(handler.request.remote_ip or "?")
    if waiting:
        waiting.pop(0)


def _forget_ended_kernels(alive) -> None:
    """Drop what this module keeps per kernel (taken, address not yet received, ever
    connected) for kernels the manager no longer has (``alive``: its kernels by id): a
    kernel that ended before its page connected or said "received" left its entry for
    the server's lifetime.  Called by the culler, every cull interval."""
    for kept in (_TAKEN, _SOCKET_AT, _UNACKED, _GONE, _PAGE_KEY, _KERNEL_CAP, _REVOKED, _HEARD):
        for kernel_id in [k for k in kept if k not in alive]:
            kept.pop(kernel_id, None)
    EVER_CONNECTED.intersection_update(alive)
    for key in [key for key, kid in _PAGE_OF.items() if kid not in alive]:
        _PAGE_OF.pop(key, None)


def _install_no_cull_while_starting() -> None:
    from datetime import datetime, timezone

    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    stock = MappingKernelManager.cull_kernel_if_idle
    if getattr(stock, "_companion", False):
        return

    async def cull_kernel_if_idle(self, kernel_id):
        import time as _time
        _forget_ended_kernels(self._kernels)
        kernel = self._kernels.get(kernel_id)
        last = getattr(kernel, "last_activity", None) if kernel is not None else None
        age = (datetime.now(timezone.utc) - last).total_seconds() if last is not None else 0.0
        unconnected = (kernel is not None and kernel_id not in EVER_CONNECTED
                       and not self._kernel_connections.get(kernel_id, 0))
        opened = _SOCKET_AT.get(kernel_id)
        if (kernel is not None and opened is not None
                and not self._kernel_connections.get(kernel_id, 0)
                and _time.monotonic() - opened < SOCKET_GRACE):
            # its page's socket has come but is not counted yet (the server counts it once
            # the kernel's channels are connected, seconds later on a busy laptop): not idle
            # (CI 2026-12-07: culled between "Adapting" and "Connecting", the phone blank)
            return None
        taken = _TAKEN.get(kernel_id)
        if unconnected and taken is not None:
            # a pool kernel a page has just taken: idle in the pool for minutes, its page
            # not connected yet.  Neither culler may end it before that page has had
            # UNCONNECTED_SECONDS to come (seen: a phone's reloaded page stayed blank)
            age = _time.monotonic() - taken
            if age < UNCONNECTED_SECONDS:
                return None
        if kernel is not None and getattr(kernel, "execution_state", None) == "starting":
            if age < max(STARTING_GRACE, self.cull_idle_timeout):
                return None
        elif unconnected and age > UNCONNECTED_SECONDS:
            # a page that never connected (a bare GET, a tab closed at once): ended within
            # about a minute, not after the idle timeout (issue 35: kernels are bounded).
            # Voila's own cull_kernel_if_idle keeps a ready pool kernel from coming here.
            self.log.warning("companion: ending kernel %s: its page never connected in %d s",
                             kernel_id, int(age))
            await self.shutdown_kernel(kernel_id)
            return None
        if kernel is not None and await _end_if_dead(self, kernel_id):
            return None
        if kernel_id not in self._kernels:
            # ended while the culler went through its list (a page replaced it, its
            # socket's own check, a new page making room): nothing to cull
            return None
        return await stock(self, kernel_id)

    cull_kernel_if_idle._companion = True
    MappingKernelManager.cull_kernel_if_idle = cull_kernel_if_idle


_install_no_cull_while_starting()


#: pool kernels a page took (kernel id -> time.monotonic() when Voila handed it the
#: page's address): the culler leaves them to their page for UNCONNECTED_SECONDS
_TAKEN: dict[str, float] = {}
#: kernel id -> time.monotonic() when a page's websocket for it came (before the server
#: counts the connection): the culler leaves it alone for SOCKET_GRACE seconds
_SOCKET_AT: dict[str, float] = {}
SOCKET_GRACE = 20
#: the page's address sent to a kernel that has not said "received" yet (kernel id ->
#: the message): sent again when that kernel's socket opens again
_UNACKED: dict[str, str] = {}


def _install_taken_mark() -> None:
    import time as _time

    from voila.request_info_handler import RequestInfoSocketHandler
    stock = RequestInfoSocketHandler.__dict__["send_updates"].__func__
    if getattr(stock, "_companion", False):
        return

    def send_updates(cls, msg):
        kernel_id = msg.get("kernel_id") if isinstance(msg, dict) else None
        if kernel_id:
            _TAKEN[kernel_id] = _time.monotonic()
            # kept for the kernel until it says it has it: Voila writes the page's address
            # to the kernel's socket and keeps it only when no socket is there, so a write
            # into a socket that was closing ("Error sending message") or dead lost it, and
            # the kernel, connecting again, waited for an address that never came (its
            # page blank: issue 34).  Only the kernel's own route sends it again
            # (KernelQuerySocketHandler.open); the kernel's "received" forgets it.
            _UNACKED[kernel_id] = msg.get("payload")
            _page_took(kernel_id)
        return stock(cls, msg)

    send_updates._companion = True
    RequestInfoSocketHandler.send_updates = classmethod(send_updates)


_install_taken_mark()


# --- pages that come and go all evening (issue 50) ------------------------------------
#: "Too many pages are open" after 35 minutes of an evening: a phone that closes its tab
#: without unloading (or sleeps for good) sent no shutdown beacon, so its kernel lived
#: until the idle culler's 20 minutes; a page whose link was re-issued could not shut its
#: kernel (its beacon is refused, 403); and the cap counted those dead pages.  So:
#: * a kernel whose page's websocket closed and has not come back within
#:   DISCONNECTED_SECONDS is ended (a sleeping phone's socket goes; when it wakes, its
#:   page's watchdog finds its kernel gone and reloads the page: the record is in the store);
#:   the server pings each socket every WS_PING_SECONDS and closes one that did not answer
#:   within twice that, so a phone that vanished from the Wi-Fi counts as gone too;
#: * a new page for the same link (a seat's capability, and whether it shows the seat or
#:   the table's view of its game; the host's token, the game and the seat or view it
#:   asks) ends the kernel
#:   of the link's previous page unless that page is still live (connected, and a
#:   message from it within LIVE_SECONDS: its watchdog pings every 2 s): one phone
#:   reloading, or scanning its code again after closing the tab, never keeps two
#:   kernels, and two tabs really open on one link do not end each other by turns.
#:   The table view's capability is shared by every device that looks (the TV, a
#:   spectator's phone): its pages never replace each other;
#: * the kernels of a re-issued link are ended REVOKED_SECONDS after the culler sees it
#:   (meanwhile the old page refuses every entry in one line: its session checks its link);
#: * the cap counts live pages: kernels with a connected socket, starting, or waiting for
#:   their page.  A page past the cap while dead pages still hold kernels ends the
#:   longest-gone of those to make room.
DISCONNECTED_SECONDS = _bounded_int("COMPANION_DISCONNECTED_SECONDS", 75, 2, 3600)
REVOKED_SECONDS = _bounded_int("COMPANION_REVOKED_SECONDS", 30, 0, 3600)
WS_PING_SECONDS = _bounded_int("COMPANION_WS_PING_SECONDS", 15, 1, 300)
LIVE_SECONDS = _bounded_int("COMPANION_LIVE_PAGE_SECONDS", 10, 1, 3600)
#: kernel id -> time.monotonic() when the last socket of its (ever connected) page closed
_GONE: dict[str, float] = {}
#: kernel id -> its page's link (see _page_key); link -> the kernel of its newest page
_PAGE_KEY: dict[str, tuple] = {}
_PAGE_OF: dict[tuple, str] = {}
#: kernel id -> the public id of the capability its page was opened with
_KERNEL_CAP: dict[str, str] = {}
#: kernel id -> time.monotonic() when its page last sent a message on its socket (or
#: connected it)
_HEARD: dict[str, float] = {}
#: kernel id -> time.monotonic() when the culler first saw its capability re-issued
_REVOKED: dict[str, float] = {}
#: kernels this file is ending (not a live page any more while they shut down)
_ENDING: set[str] = set()


def _page_context():
    import contextvars
    var = globals().get("_PAGE_VAR")
    if var is None:
        var = contextvars.ContextVar("companion_page", default=None)
        globals()["_PAGE_VAR"] = var
    return var


def _page_key(grant, query: str):
    """The link a page was opened with, as far as one page per link goes (None: pages of
    that link may be many: the shared table view, or no token in force)."""
    from urllib.parse import parse_qsl
    asked = dict(parse_qsl(query or ""))
    if grant.cap is None:
        # the host's token: each seat it opens (a tab for a player with no phone) and
        # its table view are links of their own (with the game alone as the key, a
        # second seat page ended the first while that one still loaded: issue 51's
        # bench_devices, its watchdog reloaded it 45 s later)
        shown = "view" if asked.get("view") == "table" else f"seat:{asked.get('seat', '')}"
        return ("host", asked.get("game", ""), shown)
    if grant.role == "seat":
        return ("cap", grant.cap.id, "view" if asked.get("view") == "table" else "seat")
    return None


def _page_took(kernel_id: str) -> None:
    """The page whose request this is took ``kernel_id`` (a pool kernel, or one started
    for it): remember its link, and end the kernel of that link's previous page."""
    page = _page_context().get()
    if not page:
        return
    key, capid, manager, log = page
    if capid:
        _KERNEL_CAP[kernel_id] = capid
    if key is None:
        return
    old = _PAGE_OF.get(key)
    _PAGE_OF[key] = kernel_id
    _PAGE_KEY[kernel_id] = key
    if old and old != kernel_id and manager is not None and old in manager \
            and not _page_live(manager, old):
        log.info("companion: ending kernel %s: a new page for the same link took %s",
                 old, kernel_id)
        _end_soon(manager, old)


def _page_live(manager, kernel_id: str) -> bool:
    """A page still there: its socket connected and its kernel active within
    LIVE_SECONDS (an open page's watchdog pings its kernel every 2 s).  Such a page is not
    replaced: two tabs open on one link both stay (ending one made its watchdog reload
    it, which ended the other: the two took turns)."""
    import time as _time
    if not manager._kernel_connections.get(kernel_id, 0):
        return False
    return _time.monotonic() - _HEARD.get(kernel_id, 0.0) < LIVE_SECONDS


def _end_soon(manager, kernel_id: str) -> None:
    import asyncio

    _ENDING.add(kernel_id)
    asyncio.ensure_future(_shutdown(manager, kernel_id))


def _link_current(capid: str) -> bool | None:
    """Whether a capability is still in force; None: the file cannot be read (no kernel
    is ended for that)."""
    from companion.table import capabilities
    try:
        return capid in capabilities.load()
    except Exception:                              # noqa: BLE001 - CapabilityError, OSError
        return None


async def _end_if_dead(manager, kernel_id: str) -> bool:
    """End ``kernel_id`` when its page's socket has gone for DISCONNECTED_SECONDS or its
    link was re-issued REVOKED_SECONDS ago; True if it was ended."""
    import time as _time
    now = _time.monotonic()
    gone = _GONE.get(kernel_id)
    if gone is not None and not manager._kernel_connections.get(kernel_id, 0) \
            and now - gone >= DISCONNECTED_SECONDS:
        manager.log.info("companion: ending kernel %s: its page's socket closed %d s ago and "
                         "has not come back", kernel_id, int(now - gone))
        _GONE.pop(kernel_id, None)
        await _shutdown(manager, kernel_id)
        return True
    capid = _KERNEL_CAP.get(kernel_id)
    if capid and _link_current(capid) is False:
        since = _REVOKED.setdefault(kernel_id, now)
        if now - since >= REVOKED_SECONDS:
            manager.log.info("companion: ending kernel %s: its page's link was re-issued",
                             kernel_id)
            _REVOKED.pop(kernel_id, None)
            await _shutdown(manager, kernel_id)
            return True
    return False


async def _shutdown(manager, kernel_id: str) -> None:
    """End a kernel that may be ending already (another path got there first)."""
    _ENDING.add(kernel_id)
    try:
        if kernel_id in manager:
            await manager.shutdown_kernel(kernel_id)
    except Exception as e:                         # noqa: BLE001 - already gone
        manager.log.info("companion: kernel %s was already ending (%s)", kernel_id,
                         type(e).__name__)
    finally:
        _ENDING.discard(kernel_id)


def _install_socket_watch() -> None:
    """Note when a page's last kernel socket closes (and check DISCONNECTED_SECONDS
    later, not only at the culler's next pass); a page started for a request (not the
    pool) is that request's page (_page_took)."""
    import time as _time

    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    if getattr(MappingKernelManager.notify_disconnect, "_companion", False):
        return
    connect, disconnect = MappingKernelManager.notify_connect, MappingKernelManager.notify_disconnect
    start = MappingKernelManager.start_kernel

    def notify_connect(self, kernel_id):
        _GONE.pop(kernel_id, None)
        _HEARD[kernel_id] = _time.monotonic()
        return connect(self, kernel_id)

    def notify_disconnect(self, kernel_id):
        result = disconnect(self, kernel_id)
        if kernel_id in self._kernel_connections and not self._kernel_connections[kernel_id]:
            _GONE[kernel_id] = _time.monotonic()
            from tornado.ioloop import IOLoop

            async def check():
                kernel = self._kernels.get(kernel_id)
                if kernel is not None:
                    try:
                        await _end_if_dead(self, kernel_id)
                    except Exception as e:         # noqa: BLE001 - ended meanwhile
                        self.log.info("companion: kernel %s: %s", kernel_id, e)
            IOLoop.current().call_later(DISCONNECTED_SECONDS + 0.5, check)
        return result

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await start(self, *args, **kwargs)
        env = kwargs.get("env") or {}
        if env.get("VOILA_PREHEAT") == "False":    # Voila's page handler, not the pool
            _page_took(kernel_id)
        return kernel_id

    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    heard = KernelWebsocketHandler.on_message

    def on_message(self, ws_message):
        _HEARD[self.kernel_id] = _time.monotonic()
        return heard(self, ws_message)

    for f in (notify_connect, notify_disconnect, start_kernel, on_message):
        f._companion = True
    KernelWebsocketHandler.on_message = on_message
    MappingKernelManager.notify_connect = notify_connect
    MappingKernelManager.notify_disconnect = notify_disconnect
    MappingKernelManager.start_kernel = start_kernel


_install_socket_watch()


# --- kernels: preheated pool --------------------------------------------------------
def _pool_size() -> int:
    raw = os.environ.get("COMPANION_POOL_SIZE", "4").strip() or "4"
    try:
        size = int(raw)
    except ValueError:
        raise SystemExit(f"dashboard: COMPANION_POOL_SIZE must be a whole number, not {raw!r}")
    if not 0 <= size <= 16:
        raise SystemExit("dashboard: COMPANION_POOL_SIZE must be between 0 and 16")
    return size


POOL_SIZE = _pool_size()
c.VoilaConfiguration.preheat_kernel = POOL_SIZE > 0
c.VoilaConfiguration.default_pool_size = POOL_SIZE


# --- the page's widgets: wait for all of a cell's output (issue 34) ---------------------
#: Voila runs the notebook with nbclient, which, once a cell's execute_reply has come,
#: waits only ``iopub_timeout`` seconds (4 by default) for the rest of its output, then
#: logs "Timeout waiting for IOPub output" and drops what had not arrived.  The
#: dashboard's one cell sends a few thousand widget messages and, last, the display of
#: its root widget; on a busy laptop (four pages at once, a CPU hog beside the server)
#: the server read them more slowly than that, the display was dropped, and the page
#: stayed blank for good (tests/browser/test_page_start_pool.py saw 1 page in 40).  The
#: wait ends as soon as the kernel says it is idle, so a longer limit costs nothing on
#: a page that is not late; a kernel that died is still noticed at once by nbclient.
IOPUB_TIMEOUT = int(os.environ.get("COMPANION_IOPUB_TIMEOUT", "300"))
c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT


# --- kernels: local sockets, not TCP ports (issue 34) ------------------------------------
#: jupyter_client gives each kernel five TCP ports it found free a moment before the
#: kernel binds them; on a busy machine another process took one in between ("ZMQError:
#: Address already in use", "Kernel died before replying to kernel_info"), and the page
#: that had taken that pool kernel never came (seen once in a full test run).  Unix
#: sockets cannot collide.  COMPANION_KERNEL_TRANSPORT=tcp keeps TCP.  (Stop 34 turned
#: this back to TCP after Small Star Empires tabs came up empty in three full runs; those
#: tabs were on test servers without this file, so on TCP kernels all along.  The loss a
#: late reader can see, on either transport, is ZeroMQ's IOPub limit: jupyter/kernels/python3/companion_kernel.py.)
#: A socket's path must fit in 107 bytes: a temporary folder (TMPDIR) too deep for that
#: keeps TCP.
def _kernel_transport() -> str:
    want = os.environ.get("COMPANION_KERNEL_TRANSPORT", "ipc").strip().lower() or "ipc"
    if want not in ("ipc", "tcp"):
        raise SystemExit("dashboard: COMPANION_KERNEL_TRANSPORT must be ipc or tcp")
    if want == "ipc":
        # where Voila puts the kernels' connection files (Voila.connection_dir_root:
        # the temporary folder), and so their sockets
        import tempfile
        longest = os.path.join(tempfile.gettempdir(), "voila_" + "x" * 8,
                               "kernel-" + "f" * 36 + "-ipc-99999")
        if len(longest.encode()) > 100:
            return "tcp"
    return want


KERNEL_TRANSPORT = _kernel_transport()
c.KernelManager.transport = KERNEL_TRANSPORT


# --- kernels: shutdown on tab close (the _xsrf cookie the page sends back) -----
def _install_xsrf_cookie() -> None:
    """Make Voila's page handler send the ``_xsrf`` cookie with every page (which
    the page's shutdown beacon posts back): its ``prepare`` reads ``xsrf_token``.
    Done on the handler class because Voila refuses a prelaunch hook (where this
    used to be done) together with preheated kernels."""
    import inspect

    from voila.handler import VoilaHandler
    stock = VoilaHandler.prepare
    if getattr(stock, "_companion", False):
        return

    async def prepare(self, *args, **kwargs):
        result = stock(self, *args, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        if not self._finished:
            self.xsrf_token       # noqa: B018 - the property sets the cookie
        return result

    prepare._companion = True
    VoilaHandler.prepare = prepare


_install_xsrf_cookie()


# --- Host allowlist -------------------------------------------------------------
def _host_only(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):                     # [::1]:8866
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:                     # name:port, 1.2.3.4:port
        return host.rsplit(":", 1)[0]
    return host


_ALLOWED = sorted({_host_only(h) for h in os.environ.get("COMPANION_ALLOWED_HOSTS", "").split(",")
                   if h.strip()})
_ALLOWED_NAMES = ["localhost"] + [h for h in _ALLOWED if h != "localhost"]

try:
    from jupyter_server.log import log_request as _log_request
except ImportError:                               # pragma: no cover - older jupyter_server
    _log_request = None

_settings = {
    # a page's kernel socket is pinged every WS_PING_SECONDS and closed when no answer
    # came for twice that: a phone gone from the Wi-Fi without closing counts as gone
    # (issue 50).  jupyter_server reads these in milliseconds.
    "ws_ping_interval": WS_PING_SECONDS * 1000,
    "ws_ping_timeout": 2 * WS_PING_SECONDS * 1000,
    "allow_remote_access": False,
    "local_hostnames": _ALLOWED_NAMES,
    "companion_allowed_hosts": _ALLOWED,
}
if _log_request is not None:
    _settings["log_function"] = _log_request      # scrubs token=... from logged URLs
c.Voila.tornado_settings = _settings


def _install_host_check() -> None:
    """jupyter_server's check_host accepts loopback IPs and local_hostnames
    only; also accept the listed addresses (a LAN IP under --lan)."""
    from jupyter_server.base.handlers import JupyterHandler
    stock = JupyterHandler.check_host
    if getattr(stock, "_companion", False):
        return

    def check_host(self) -> bool:
        allowed = self.settings.get("companion_allowed_hosts") or ()
        if allowed and _host_only(self.request.host or "") in allowed:
            return True
        return stock(self)

    check_host._companion = True
    JupyterHandler.check_host = check_host


_install_host_check()


def _host_allowed(handler) -> bool:
    """jupyter_server's Host check (as patched above) for any tornado handler."""
    from jupyter_server.base.handlers import JupyterHandler
    if isinstance(handler, JupyterHandler):
        return handler.check_host()
    settings = handler.settings
    if settings.get("allow_remote_access", False):
        return True
    host = _host_only(handler.request.host or "")
    if host in (settings.get("companion_allowed_hosts") or ()):
        return True
    try:
        import ipaddress
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in settings.get("local_hostnames", ["localhost"])


# --- every route and socket: Host check, then the token (issue 20) ------------------
#: reachable without the token (never without the Host check): the login form, the
#: logout, and the files the login form itself loads
_NO_TOKEN = re.compile(r"/(login|logout|voila/static/(favicon\.ico|style/[^?]*|logo/[^?]*))")
_AUTH_HEADER = re.compile(r"(?:token|bearer)\s+(.+)", re.I)


def _token_of(handler) -> str:
    provider = handler.settings.get("identity_provider")
    return str(getattr(provider, "token", "") or "")


# --- a role is a capability, not an address (issue 35) ---------------------------------
#: the login cookie's user names: the host's, and a capability's (its public id after it:
#: the cookie is signed, and request logs show the user's name)
HOST_USER = "companion-host"
CAP_USER = "companion-cap-"
#: the page address's keys that only the server writes into the kernel's query
_SERVER_KEYS = ("token", "cap", "capid")


class _Grant:
    """What a request's credential gives: ``host`` (the token), or a capability of
    companion.table.capabilities (a seat bound to its player and game, the table view)."""

    __slots__ = ("role", "cap", "fresh")

    def __init__(self, role: str, cap=None, fresh: bool = False):
        self.role, self.cap = role, cap
        #: given in this request (query or header): the login cookie is set to it
        self.fresh = fresh

    @property
    def username(self) -> str:
        return HOST_USER if self.cap is None else CAP_USER + self.cap.id


def _grant_of_cap(secret: str, fresh: bool):
    from companion.table import capabilities
    cap = capabilities.verify(secret)
    return _Grant(cap.role, cap, fresh) if cap is not None else None


def _grant_of_cookie(name: str):
    """The role a login cookie's user name carries (None: none, or re-issued)."""
    if name == HOST_USER:
        return _Grant("host")
    if name.startswith(CAP_USER):
        from companion.table import capabilities
        cap = capabilities.by_id(name[len(CAP_USER):])
        return _Grant(cap.role, cap) if cap is not None else None
    return None                       # a cookie of another kind gives no role


async def _grant(handler, token: str):
    """The ONE place a request's role is decided (with a token in force): the token
    (``?token=``, ``Authorization: token``) is the host's; else ``?cap=`` a seat's or the
    table view's capability; else the login cookie, whose user is the role it was given
    (its capability checked again: a re-issued seat's cookie no longer works).  None: not
    authenticated.  The address's ``seat``, ``view`` and ``game`` never raise it."""
    given = handler.get_query_argument("token", "")
    if not given:
        m = _AUTH_HEADER.fullmatch(handler.request.headers.get("Authorization", "").strip())
        given = m.group(1).strip() if m else ""
    if given:
        ok = hmac.compare_digest(given.encode(), token.encode())
        return _Grant("host", None, True) if ok else None
    cap = handler.get_query_argument("cap", "")
    if cap:
        return _grant_of_cap(cap, True)
    return await _cookie_grant(handler)


async def _cookie_grant(handler):
    """The role of the request's login cookie (None: none, or a re-issued link's)."""
    provider = handler.settings.get("identity_provider")
    if provider is None:
        return None
    try:
        user = provider.get_user_cookie(handler)
        if hasattr(user, "__await__"):
            user = await user
    except Exception:                              # noqa: BLE001 - a bad cookie is no login
        return None
    return _grant_of_cookie(str(getattr(user, "username", "") or ""))


def _login(handler, grant) -> None:
    """The request is the grant's user (jupyter_server's own check then agrees), and a
    credential given in the address goes into the login cookie: the role it was given."""
    from jupyter_server.auth.identity import User
    from jupyter_server.base.handlers import JupyterHandler
    user = User(grant.username, grant.role, grant.role, grant.role[:1].upper(), None, None)
    if isinstance(handler, JupyterHandler):
        handler._jupyter_current_user = user
        if grant.fresh and grant.cap is None:
            # the token itself, as jupyter_server's own token login marks it (its XSRF
            # check lets a request that carries the token through: the shutdown beacon)
            handler._token_authenticated = True
        provider = handler.settings.get("identity_provider")
        if grant.fresh and provider is not None:
            provider.set_login_cookie(handler, user)


def _page_query(query: str, grant) -> str:
    """The page's query as its kernel gets it: what the grant allows, written by the
    server.  The host's page keeps its address (less the token); a seat's page is its
    player's seat in its game (or, asked with ``view=table``, a view of that game); the
    table view is the table view.  ``capid`` (a capability's public id, never its secret)
    lets the page's session see a re-issued link at once."""
    from urllib.parse import parse_qsl, urlencode
    asked = {k: v for k, v in parse_qsl(query, keep_blank_values=False)
             if k not in _SERVER_KEYS}
    if grant.cap is None:
        return urlencode(asked)
    out = {}
    if grant.role == "seat":
        out["game"] = grant.cap.game
        if asked.get("view") == "table":
            out["view"] = "table"
        else:
            out["seat"] = grant.cap.player
    else:
        if asked.get("game"):
            out["game"] = asked["game"]
        out["view"] = "table"
    if asked.get("tab"):
        out["tab"] = asked["tab"]
    out["capid"] = grant.cap.id
    return urlencode(out)


def _without_credentials(path: str, query: str) -> str:
    """``path?query`` less ``token``, ``cap`` and ``capid``."""
    from urllib.parse import parse_qsl, urlencode
    rest = urlencode([(k, v) for k, v in parse_qsl(query) if k not in _SERVER_KEYS])
    return path + ("?" + rest if rest else "")


def _rewrite_query(request, query: str) -> None:
    """Make ``query`` the request's (Voila hands ``request.query`` to the page's kernel)."""
    from tornado.httputil import parse_qs_bytes
    request.query = query
    request.uri = request.path + ("?" + query if query else "")
    request.query_arguments = parse_qs_bytes(query, keep_blank_values=True)
    request.arguments = {k: list(v) for k, v in request.query_arguments.items()}


def _identity_provider_class():
    from jupyter_server.auth.identity import PasswordIdentityProvider, User

    class CompanionIdentityProvider(PasswordIdentityProvider):
        """The login form with the token (and jupyter_server's own token login) makes
        the host's user: the role the login cookie carries (issue 35)."""

        def generate_anonymous_user(self, handler):
            return User(HOST_USER, "host", "host", "H", None, None)

        def user_from_cookie(self, cookie_value: str):
            """A login cookie is only as good as its role: the host's, or a capability
            still in force (a re-issued seat's cookie is cleared, so that the login form
            does not send it back to a page that refuses it)."""
            user = super().user_from_cookie(cookie_value)
            if _grant_of_cookie(str(getattr(user, "username", "") or "")) is None:
                return None
            return user

    return CompanionIdentityProvider


c.Voila.identity_provider_class = _identity_provider_class()


class _Gate:
    """Runs before the handler's own ``prepare``: the Host, then the token."""

    _companion_gate = True

    async def prepare(self, *args, **kwargs):
        import tornado.web
        from tornado.httputil import url_concat
        if not _host_allowed(self):
            raise tornado.web.HTTPError(403)
        token = _token_of(self)
        path = self.request.path or "/"
        base = self.settings.get("base_url", "/") or "/"
        rel = "/" + path[len(base):] if path.startswith(base) else path
        exempt = (_NO_TOKEN.fullmatch(rel) is not None
                  and not any(bad in rel for bad in ("..", "%", "\\", "//")))
        exempt = exempt or getattr(self, "_companion_kernel_route", False)
        if token and not exempt:
            from voila.handler import VoilaHandler
            grant = await _grant(self, token)
            if grant is None:
                if isinstance(self, VoilaHandler) and self.request.method in ("GET", "HEAD") \
                        and (self.get_query_argument("cap", "")
                             or self.get_query_argument("token", "")) \
                        and await _cookie_grant(self) is None:
                    # a re-issued seat's link, a damaged one, a wrong token, in a browser
                    # that has no role of its own: the companion's own page, not Jupyter's
                    # login form (issue 50).  (One that has goes back to its page below.)
                    self.set_status(403)
                    self.finish(_FULL_PAGE.format(title="This link no longer works",
                                                  text=DEAD_LINK, reload=""))
                    return None
                if isinstance(self, VoilaHandler) and self.request.method in ("GET", "HEAD"):
                    # the login form, then the page without the refused credential (a
                    # browser already logged in goes back with the role it has)
                    nxt = _without_credentials(self.request.path, self.request.query or "")
                    self.redirect(url_concat(self.settings.get("login_url", "/login"),
                                             {"next": nxt}))
                    return None
                raise tornado.web.HTTPError(403)
            if grant.role != "host" and rel.startswith("/voila/query/"):
                raise tornado.web.HTTPError(403)     # a page's address is the host's business
            _login(self, grant)
            if isinstance(self, VoilaHandler):
                _rewrite_query(self.request, _page_query(self.request.query or "", grant))
                if self.request.method == "GET" and rel.rstrip("/") == "":
                    # this request's page: the kernel it takes is that link's (_page_took)
                    _page_context().set((_page_key(grant, self.request.query or ""),
                                         grant.cap.id if grant.cap is not None else None,
                                         self.settings.get("kernel_manager"), self.log))
                if grant.cap is not None:
                    from companion.table import capabilities
                    capabilities.mark_joined(grant.cap.id)
        from voila.handler import VoilaHandler
        if (isinstance(self, VoilaHandler) and self.request.method == "GET"
                and rel.rstrip("/") == "" and not _page_bounds(self)):
            return None                               # too many kernels: said on a page
        kernel_id = (getattr(self, "path_kwargs", None) or {}).get("kernel_id")
        if kernel_id and rel.endswith("/channels"):
            _page_connected(self, kernel_id)
        result = super().prepare(*args, **kwargs)
        if result is not None and hasattr(result, "__await__"):
            result = await result
        return result


#: a content hash in a file's name: 16+ hex digits between separators
_HASH_IN_NAME = re.compile(r"(?:^|[.\-_])[0-9a-f]{16,}(?=[.\-_]|$)")
IMMUTABLE = "public, max-age=31536000, immutable"


class _HashedImmutable:
    """For tornado StaticFileHandler subclasses: an immutable Cache-Control for a
    file whose URL carries its content hash, nothing new for any other file."""

    def _companion_hashed(self) -> bool:
        name = (self.request.path or "").rsplit("/", 1)[-1]
        if _HASH_IN_NAME.search(name.lower()):
            return True
        v = self.get_query_argument("v", "")
        if not v or not getattr(self, "absolute_path", None):
            return False
        try:
            version = self._get_cached_version(self.absolute_path)
        except Exception:                          # noqa: BLE001 - no hash, not hashed
            return False
        return bool(version) and hmac.compare_digest(v.encode(), str(version).encode())

    def get_cache_time(self, path, modified, mime_type):
        return 31536000 if self._companion_hashed() else 0

    def set_headers(self):
        super().set_headers()
        if self._companion_hashed():
            self.set_header("Cache-Control", IMMUTABLE)


class _PlainSocketErrors:
    """A websocket route's refusal (403, a kernel that no longer exists: 404) in one log
    line.  jupyter_server's ``write_error`` renders an HTML page, which a websocket
    handler cannot (``get_current_user()`` / ``static_url`` raised RuntimeError): every
    page reconnecting after a restart printed a traceback (issue 50)."""

    def write_error(self, status_code, **kwargs):
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish(f"{status_code} {self._reason}\n")


def _gated(cls):
    if getattr(cls, "_companion_gate", False):
        return cls
    import tornado.web
    import tornado.websocket
    bases = (_Gate, cls)
    if issubclass(cls, tornado.web.StaticFileHandler):
        bases = (_Gate, _HashedImmutable, cls)
    elif issubclass(cls, tornado.websocket.WebSocketHandler):
        bases = (_Gate, _PlainSocketErrors, cls)
    return type(cls.__name__, bases, {"__module__": cls.__module__,
                                      "__doc__": cls.__doc__})


#: the path prefix of the kernels' own query route: a secret only the kernels know
_KERNEL_SECRET = secrets.token_urlsafe(24)
_KERNEL_PREFIX = f"companion-kernel-{_KERNEL_SECRET}"
if POOL_SIZE > 0:
    # before any kernel starts: each copies the server's environment (kernels read
    # it in voila.utils.wait_for_request; init_handlers below keeps it in step)
    os.environ["VOILA_WS_BASE_URL"] = f"/{_KERNEL_PREFIX}/"


def _kernel_query_handler():
    from voila.request_info_handler import RequestInfoSocketHandler

    class KernelQuerySocketHandler(_Gate, _PlainSocketErrors, RequestInfoSocketHandler):
        """/companion-kernel-<secret>/voila/query/<kernel>: the preheated kernel
        asks for its page's address.  Reaching this route means knowing the
        secret, so the token is not asked (the Host check still is)."""

        _companion_kernel_route = True

        def open(self, kernel_id: str) -> None:
            app = self.settings.get("voila")
            log = getattr(app, "log", None) or logging.getLogger("Voila")
            log.info("companion: kernel %s waits for its page", kernel_id)
            self._companion_kernel = kernel_id
            super().open(kernel_id)
            if kernel_id in _UNACKED and kernel_id not in RequestInfoSocketHandler._cache:
                log.warning("companion: kernel %s connected again: its page's address is "
                            "sent again", kernel_id)
                self.write_message(_UNACKED[kernel_id])

        def on_message(self, message) -> None:
            """The kernel's "received": its page's address arrived; nobody gets it again."""
            kernel_id = getattr(self, "_companion_kernel", None)
            if message == "received" and kernel_id:
                _UNACKED.pop(kernel_id, None)
                RequestInfoSocketHandler._cache.pop(kernel_id, None)

        def on_close(self) -> None:
            """Forget this socket only.  Voila's ``on_close`` deletes the last kernel it
            looked at when this socket is no longer the one registered (a kernel that
            connected again, companion.ui.live): another kernel's page would then wait
            for an address kept in a cache nobody reads."""
            waiters = RequestInfoSocketHandler._waiters
            for kid, waiter in list(waiters.items()):
                if waiter is self:
                    del waiters[kid]

    return KernelQuerySocketHandler


def _install_gate() -> None:
    """Every handler Voila registers goes through ``_Gate`` (see the docstring)."""
    from jupyter_server.utils import url_path_join
    from voila.app import Voila
    stock = Voila.init_handlers
    if getattr(stock, "_companion", False):
        return

    def init_handlers(self):
        handlers = []
        for spec in stock(self):
            pattern, cls, *rest = spec
            handlers.append((pattern, _gated(cls), *rest))
        if self.voila_configuration.preheat_kernel:
            ws_base = url_path_join(self.server_url or self.base_url or "/", _KERNEL_PREFIX) + "/"
            os.environ["VOILA_WS_BASE_URL"] = ws_base       # the kernels' environment
            handlers.insert(0, (ws_base + r"voila/query/(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)",
                                _kernel_query_handler()))
        self.log.info("companion: gated routes: %s",
                      " ; ".join(f"{h[0]} {h[1].__name__}" for h in handlers)
                      .replace(_KERNEL_SECRET, "[secret]"))
        return handlers

    init_handlers._companion = True
    Voila.init_handlers = init_handlers


_install_gate()


# --- the page: no stylesheet from the internet -------------------------------------
#: a Jupyter data folder holding nbconvert/templates/star-companion (conf.json,
#: index.html.j2) and kernels/python3 (the dashboard's kernel: companion_kernel.py):
#: jupyter_client finds a kernelspec in <each JUPYTER_PATH folder>/kernels; Voila looks for a template named by --template /
#: VoilaConfiguration.template in <each JUPYTER_PATH folder>/{voila,nbconvert}/templates/
#: <name>, so the folder is put first there (read when Voila sets up its template
#: folders, after this file is loaded).  nbconvert/, not voila/: Voila takes the first
#: <JUPYTER_PATH folder>/voila that exists as its data folder (themes, schemas).
JUPYTER_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jupyter")
TEMPLATE = "star-companion"
_jupyter_path = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
if JUPYTER_FOLDER not in _jupyter_path:
    os.environ["JUPYTER_PATH"] = os.pathsep.join([JUPYTER_FOLDER] + _jupyter_path)
c.VoilaConfiguration.template = TEMPLATE


# --- /logout -----------------------------------------------------------------------
def _logout_handler():
    from jupyter_server.auth.decorator import allow_unauthenticated
    from jupyter_server.auth.logout import LogoutHandler

    class RedirectLogoutHandler(LogoutHandler):
        """Clear the login cookie and go back to the dashboard (no template)."""

        @allow_unauthenticated
        def get(self):
            self.identity_provider.clear_login_cookie(self)
            self.redirect(self.base_url)

    return RedirectLogoutHandler


c.IdentityProvider.logout_handler_class = _logout_handler()


# --- a clean start and stop (issue 50) ------------------------------------------------
def _install_quiet_trust() -> None:
    """Voila reads the notebook through the contents manager, which warned "Notebook
    companion.ipynb is not trusted" at every page load.  Trust only decides whether a
    notebook's saved outputs are shown as they were in JupyterLab; Voila runs the notebook
    and shows what it makes, so the warning said nothing: cells are marked as before,
    silently."""
    from jupyter_server.services.contents.manager import ContentsManager
    if getattr(ContentsManager.mark_trusted_cells, "_companion", False):
        return

    def mark_trusted_cells(self, nb, path=""):
        self.notary.mark_cells(nb, self.notary.check_signature(nb))

    mark_trusted_cells._companion = True
    ContentsManager.mark_trusted_cells = mark_trusted_cells


_install_quiet_trust()


class _QuietTornado(logging.Filter):
    """tornado 6.5 says once that jupyter_server's ping timeout (twice the interval,
    see ``ws_ping_timeout``) is longer than the interval: it reads them as its own
    settings, which jupyter_server's pings do not use."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "websocket_ping_timeout" not in str(record.msg)


logging.getLogger("tornado.general").addFilter(_QuietTornado())


def _install_clean_stop() -> None:
    """Ctrl-C and SIGTERM stop the server the same way, without a traceback: the IO loop
    stops, then every kernel is ended at once (``now``: a kernel told to shut down while
    it still ran the page's notebook printed ZMQError tracebacks, four at each stop, and
    one still starting made jupyter_server raise "Kernel does not exist").  Nothing is
    lost: every action is in the store when it is recorded.  A second signal while
    stopping is ignored."""
    import signal

    from voila.app import Voila
    if getattr(Voila.stop, "_companion", False):
        return

    def _handle_signal_stop(self, sig, frame):
        if getattr(self, "_companion_stopping", False):
            return
        self._companion_stopping = True
        self.log.info("companion: stopping (%s); every page's kernel is ended",
                      signal.Signals(sig).name)
        ioloop = getattr(self, "ioloop", None)
        if ioloop is None:
            raise SystemExit(0)
        ioloop.add_callback_from_signal(ioloop.stop)

    stock_listen = Voila.listen

    def listen(self):
        signal.signal(signal.SIGINT, self._handle_signal_stop)
        signal.signal(signal.SIGTERM, self._handle_signal_stop)
        return stock_listen(self)

    def stop(self):
        import asyncio
        import shutil

        from jupyter_client.manager import KernelManager
        from jupyter_core.utils import run_sync
        manager = self.kernel_manager

        async def no_interrupt(km):
            # jupyter_client interrupts a kernel (SIGINT) before it kills it: one still
            # starting printed "Fatal Python error ... KeyboardInterrupt".  The kill
            # follows at once, so the server, stopping, kills without it.
            return None

        KernelManager._async_interrupt_kernel = no_interrupt

        async def end_all():
            kernels = set(manager.list_kernel_ids())
            results = await asyncio.gather(
                *(manager.shutdown_kernel(k, now=True) for k in kernels),
                return_exceptions=True)
            try:
                await manager.shutdown_all(now=True)     # Voila's pool: its tasks too
            except Exception as e:                     # noqa: BLE001 - a kernel still starting
                results.append(e)
            return [r for r in results if isinstance(r, Exception)]

        try:
            odd = run_sync(end_all)()
        except Exception as e:                         # noqa: BLE001 - said, not raised
            odd = [e]
        for e in odd:
            self.log.info("companion: while stopping: %s", str(e).splitlines()[0] if str(e)
                          else type(e).__name__)
        shutil.rmtree(self.connection_dir, ignore_errors=True)
        self.log.info("companion: the server has stopped")

    for f in (_handle_signal_stop, listen, stop):
        f._companion = True
    Voila._handle_signal_stop = _handle_signal_stop
    Voila.listen = listen
    Voila.stop = stop


_install_clean_stop()


# --- the token -------------------------------------------------------------------
def _read_token() -> str | None:
    token = os.environ.pop("COMPANION_TOKEN", None)
    path = os.environ.pop("COMPANION_TOKEN_FILE", None)
    if path:
        try:
            with open(path, encoding="utf-8") as fh:
                token = fh.read(4096).strip()
        except (OSError, UnicodeDecodeError) as e:
            raise SystemExit(f"dashboard: cannot read the token file {path}: "
                             f"{getattr(e, 'strerror', None) or type(e).__name__}") from None
    if token is None:
        return None
    token = token.strip()
    if len(token) < MIN_TOKEN:
        raise SystemExit(f"dashboard: the token must be at least {MIN_TOKEN} characters long")
    if not re.fullmatch(r"[A-Za-z0-9._~-]+", token):
        raise SystemExit("dashboard: the token may hold only letters, digits and . _ ~ -")
    return token


_TOKEN = _read_token()
if _TOKEN is not None:
    c.Voila.token = _TOKEN
    # the kernels' session: a page's role is its credential's, which the server wrote
    # into the page's query (issue 35; companion.ui.shell.Shell.apply_query)
    os.environ["COMPANION_CAPS"] = "1"
else:
    os.environ.pop("COMPANION_CAPS", None)

#: a credential in a logged address: the token, the XSRF cookie, a seat's or the table
#: view's capability (``cap=``; its public id ``capid=`` may show)
_SCRUB = re.compile(r"(\b(?:token|_xsrf|cap)=)[^&\s\"']+", re.I)
_HIDDEN = [(v, name) for v, name in ((_TOKEN, "[token]"), (_KERNEL_SECRET, "[secret]")) if v]
_old_factory = logging.getLogRecordFactory()


def _scrubbed(m: re.Match) -> str:
    return m.group(1) + ("[cap]" if m.group(1).lower() == "cap=" else "[token]")


def _record_factory(*args, **kwargs):
    record = _old_factory(*args, **kwargs)
    try:
        msg = record.getMessage()
    except Exception:                              # noqa: BLE001 - leave odd records alone
        return record
    if msg.startswith("Voil") and " is running at:" in msg[:20] and (
            _TOKEN or not re.search(r"//(127\.[0-9.]+|localhost|\[::1\]):", msg)):
        # Voila's own address: this machine's name and "[token]" (neither opens the
        # page on a phone); ./dashboard printed the addresses to open (issue 50)
        port = re.search(r":(\d+)/", msg)
        record.msg = (f"Voil\u00e0 is running on port {port.group(1) if port else '?'}: open "
                      "the address printed above" + (" (the host's page carries the token)"
                                                     if _TOKEN else "") + ".")
        record.args = ()
        return record
    low = msg.lower()
    if any(v in msg for v, _ in _HIDDEN) or (_TOKEN and ("token=" in low or "cap=" in low)):
        for v, name in _HIDDEN:
            msg = msg.replace(v, name)
        record.msg = _SCRUB.sub(_scrubbed, msg) if _TOKEN else msg
        record.args = ()
    return record


logging.setLogRecordFactory(_record_factory)
