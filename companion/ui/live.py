"""One game, many devices (issue 14): every page follows the saved-games file live.

Voila gives every page its own kernel, so a page cannot hear another page's click.  Each
kernel polls the store instead (:meth:`GameSession.poll`: SQLite's ``PRAGMA data_version``,
which changes only when another connection commits) a few times a second, in the kernel's
own event loop; on a change the session replays the record and the screen refreshes,
keeping what the person was typing and checking it again against the new state.

The page address says what the page is for (:func:`read_query`):

- ``?seat=Ana``: Ana's phone.  Her entry comes first, her station is shown large, with a
  compact line of her score on top.
- ``?view=table``: the read-only table view for the laptop or TV in the middle: every
  station, the scoreboard, the objectives and their leaders, year, turn, passing and who
  is still to act.  It records nothing.
- ``?game=<id>``: that saved game (the most recent one otherwise).
- ``?tab=<tab>``: that tab shown (``among-the-stars-1``, ``small-star-empires-1``,
  ``history``: :func:`tab_slug`); a page that reloads itself keeps its tab with it.

No game rule here.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import traceback
from typing import Any, Callable
from urllib.parse import parse_qs

from ..core.htmlsafe import escape

log = logging.getLogger("companion.ui")

#: how often a page looks at the store, in seconds (issue 14: "about every 0.3-0.5 s")
POLL_SECONDS = float(os.environ.get("COMPANION_POLL_SECONDS", "0.4"))
#: the most a query value may be (a seat is a player's name: at most 40 characters)
MAX_VALUE = 80


def parse_query(qs: str | None) -> dict[str, str]:
    """``seat``, ``view``, ``game``, ``tab`` and ``capid`` from a page's query string;
    anything else (the token too) is dropped.  Values are stripped and cut to
    :data:`MAX_VALUE` characters.  ``capid`` (issue 35) is the public id of the capability
    the server gave the page (16 hex digits); only :func:`capabilities_in_force` makes it
    count."""
    out: dict[str, str] = {}
    for key, values in parse_qs((qs or "").lstrip("?"), keep_blank_values=False).items():
        if key in ("seat", "view", "game", "tab", "capid") and values:
            v = values[-1].strip()[:MAX_VALUE]
            if v:
                out[key] = v
    if out.get("view") not in (None, "table"):
        out.pop("view")
    if "tab" in out and not _TAB.fullmatch(out["tab"]):
        out.pop("tab")
    if "capid" in out and not re.fullmatch(r"[0-9a-f]{16}", out["capid"]):
        out.pop("capid")
    return out


def capabilities_in_force() -> bool:
    """Whether the server gives roles by capability (issue 35: a token is in force,
    ``./dashboard --lan``): notebooks/config/voila.py sets ``COMPANION_CAPS=1`` in the
    kernels' environment, and then writes every page's query itself (the address's
    ``seat``, ``view`` and ``game`` are what the page's credential allows, and
    ``capid`` names that credential).  Without it (127.0.0.1), the address decides."""
    return os.environ.get("COMPANION_CAPS", "") == "1"


_TAB = re.compile(r"[a-z0-9-]{1,60}")


def tab_slug(name: str) -> str:
    """A tab's name in a page address and in its screen's class: a game's record
    format (``small-star-empires/1`` -> ``small-star-empires-1``) or ``history``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


#: the class of a tab's screen in the page (``companion-screen-<tab>``): the page's
#: watchdog checks that the screen its kernel says it shows is there (issue 34)
SCREEN_CLASS = "companion-screen-"


def page_token(qs: str | None) -> str | None:
    """The access token the page was opened with (for the join links it shows)."""
    v = parse_qs((qs or "").lstrip("?")).get("token")
    return v[-1] if v else None


#: a preheated kernel's websocket to the server that hands it its page's address: the
#: most one attempt to open it may take (Voila's own helper gave up after 5 s), and how
#: long the kernel keeps trying before it gives up (a pool kernel waits for its page for
#: as long as it takes; only the connection is retried)
QUERY_OPEN_TIMEOUT = 30.0
QUERY_RETRY_FOR = float(os.environ.get("COMPANION_QUERY_RETRY_FOR", "600"))


def query_string() -> str | None:
    """The page's query string.  A preheated kernel (Voila's pool) waits here until a
    browser takes it; the widgets are built before, so that part is preheated.  None:
    the page's address could not be learnt (the page must then stay what
    :func:`companion.ui.dashboard` built it as: the table view, which writes nothing)."""
    if os.environ.get("VOILA_PREHEAT", "False") == "True":
        return _preheated_query()
    return os.environ.get("QUERY_STRING", "")


def _query_socket_url() -> str:
    """Where Voila's server hands a preheated kernel its page's request (the same
    address ``voila.utils.wait_for_request`` uses)."""
    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/"
            f"{env.get('VOILA_KERNEL_ID', '')}")


def _preheated_query() -> str | None:
    """Wait for the page's request and put its variables (``QUERY_STRING`` ...) into the
    environment, as ``voila.utils.get_query_string`` does, but without its one try with a
    5 s limit: on a loaded server the websocket's handshake can take longer, and Voila's
    helper then returned no address at all, so that a seat's phone (``?seat=Ana``) or a
    Small Star Empires page (``?game=...``) was built as the host's plain page (it never
    shows its game, with the host's rights).  Here a failed or dropped
    connection is opened again (the server keeps the request for a kernel that is not
    connected and sends it when it connects) until :data:`QUERY_RETRY_FOR` seconds."""
    import json
    import threading
    import time

    url = _query_socket_url()
    deadline = time.monotonic() + QUERY_RETRY_FOR
    tries = 0
    while True:
        tries += 1
        got: dict[str, Any] = {}

        def receive() -> None:
            async def recv() -> Any:
                import websockets
                # a dead socket is seen within about 15 s (pings), not 40 s (the library's
                # 20 + 20): the kernel then connects again and the server sends the
                # address it kept (notebooks/config/voila.py, send_updates)
                async with websockets.connect(url, open_timeout=QUERY_OPEN_TIMEOUT,
                                              ping_interval=5, ping_timeout=10) as ws:
                    info = await ws.recv()
                    try:               # the server forgets the address it kept for us
                        await ws.send("received")
                    except Exception:  # noqa: BLE001 - the address is here all the same
                        pass
                    return info
            loop = asyncio.new_event_loop()
            try:
                got["info"] = loop.run_until_complete(recv())
            except Exception as e:          # noqa: BLE001 - said below, then tried again
                got["error"] = e
            finally:
                loop.close()

        # a thread of its own: the kernel's own event loop is running in this one
        thread = threading.Thread(target=receive, name="companion-page-address", daemon=True)
        thread.start()
        thread.join()
        if "info" in got:
            try:
                for k, v in json.loads(got["info"]).items():
                    os.environ[str(k)] = str(v)
            except (ValueError, AttributeError):
                log.error("the page's request could not be read: %r", got["info"])
                return None
            if tries > 1:
                log.warning("the page's address arrived at try %d", tries)
            return os.environ.get("QUERY_STRING", "")
        err = got.get("error")
        if time.monotonic() > deadline:
            log.error("the page's address never arrived (%d tries; last: %s: %s)", tries,
                      type(err).__name__, err)
            return None
        log.warning("waiting for the page's address: %s: %s; trying again",
                    type(err).__name__, err)
        time.sleep(min(2.0, 0.2 * tries))


class Poller:
    """Calls ``tick`` every ``every`` seconds in the kernel's event loop until stopped.  A
    tick that fails is logged and the polling goes on (a page must not freeze)."""

    def __init__(self, tick: Callable[[], Any], every: float = POLL_SECONDS):
        self.tick, self.every = tick, every
        self.task: asyncio.Future | None = None

    def start(self) -> bool:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return False
        if self.task is None:
            self.task = asyncio.ensure_future(self._run(), loop=loop)
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                self.tick()
            except Exception:
                log.error("live update failed:\n%s", traceback.format_exc())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


def show(widget: Any, html: str) -> None:
    """Set an HTML widget's value; an empty one takes no room (a widget keeps its line
    height even when empty, which pushes the board below a laptop's first screen)."""
    widget.value = html
    widget.layout.display = "" if html else "none"


def live_widgets() -> tuple[Any, Any]:
    """A game screen's two live lines: ``.live-state`` ("actions: N", the stored record
    the page shows; tests and the bench wait on it) and ``.live-note`` (another page's
    change, hidden while empty)."""
    import ipywidgets as w
    state = w.HTML()
    state.add_class("live-state")
    note = w.HTML(layout=w.Layout(display="none"))
    note.add_class("live-note")
    return state, note


def show_live(state: Any, actions: int, game: str | None = None,
              trouble: str | None = None) -> None:
    """The live line: "● live · actions: N".  "● live" is shown only while the page's
    watchdog (notebooks/config/jupyter/nbconvert/templates/star-companion/index.html.j2) hears the kernel's heartbeat
    (``body.companion-live``); while it does not, the line says "○ not connected"
    (``body.companion-offline``) or neither.  ``data-game`` / ``data-actions`` say what
    the page shows, for the watchdog's check after a reconnection.  ``trouble``: the
    kernel's last poll of the store got no answer (why, :func:`poll_store`): the line says
    "○ not connected to the games' store" whatever the watchdog hears (issue 35)."""
    gid = f" data-game='{escape(game)}'" if game else ""
    if trouble:
        state.value = (f"<span class='live-line live-store-down' data-actions='{int(actions)}'"
                       f"{gid} title='{escape(trouble)}'><span class='live-store'>○ not "
                       "connected to the games' store · </span>"
                       f"actions: {int(actions)}</span>")
        return
    state.value = (f"<span class='live-line' data-actions='{int(actions)}'{gid}>"
                   "<span class='live-on'><span class='live-dot'>●</span> live · </span>"
                   "<span class='live-off'>○ not connected · </span>"
                   f"actions: {int(actions)}</span>")


def poll_store(session: Any, screen: Any) -> Any:
    """One poll of the store for a game screen (``session``: its GameSession; ``screen``
    has ``live_state``, ``error``, ``_gone``); the change, or None.  A game deleted
    meanwhile sends the page to its setup.  A store that does not answer (a stopped
    database server, a lost connection, a file that cannot be read) keeps the game on
    the screen and says so: once as a message, and on the live line until a poll gets an
    answer again (issue 35: a page must not show "● live" while nothing can be saved)."""
    from ..core.errors import CompanionError, GameNotFound, StoreError
    try:
        change = session.poll()
    except GameNotFound:
        if session.gid is not None:
            screen.gone()
        return None
    except StoreError as e:
        if session.trouble is None:
            screen.error(f"{e} Nothing on this page was lost; it goes on showing the game "
                         "and says when the store answers again.")
        session.trouble = str(e)
        _live_line(session, screen)
        return None
    except CompanionError:               # the record cannot be read as a game any more
        if session.gid is not None:
            screen.gone()
        return None
    if session.trouble is not None:
        session.trouble = None
        _live_line(session, screen)
    return change


def _live_line(session: Any, screen: Any) -> None:
    if session.game is not None:
        show_live(screen.live_state, len(session.game.actions), session.gid, session.trouble)


class Heartbeat:
    """The page's proof of life (issue 20: phones that sleep).

    The page's watchdog (an inline script of the page template) writes a new value into
    the hidden text field ``.companion-ping`` every ~2 s; the kernel answers at once by
    putting that value into ``.companion-beat`` as ``data-beat``, with ``data-game`` and
    ``data-actions`` (what ``about()`` says the page shows), ``data-ping`` (the ping
    widget's model id, so that the script can set it) and ``data-screen`` (the class of
    the tab's screen the page must show, from ``screen()``: a page whose widgets did not
    all arrive lacks it, and reloads itself, issue 34).  The page counts as connected only
    while its pings come back.  The beat is an answer, never sent by itself: a kernel
    whose page has gone sends nothing and is culled as before."""

    def __init__(self, about: Callable[[], tuple[str | None, int | None]],
                 on_beat: Callable[[], Any] | None = None,
                 screen: Callable[[], str | None] | None = None):
        import ipywidgets as w
        self.about = about
        self.screen = screen
        #: called after each answer (issue 21: the play timer's clock advances on screen
        #: with the page's pings, so only while the page is there; nothing is written)
        self.on_beat = on_beat
        self.ping = w.Text(layout=w.Layout(display="none"))
        self.ping.add_class("companion-ping")
        self.beat = w.HTML()
        self.beat.add_class("companion-beat")
        self.box = w.Box([self.ping, self.beat], layout=w.Layout(display="none"))
        self.box.add_class("companion-heartbeat")
        self.ping.observe(self._pinged, "value")
        self.answer("")

    def _pinged(self, change: Any) -> None:
        try:
            self.answer(str(change["new"])[:MAX_VALUE])
        except Exception:                   # the page must still get its beat
            log.error("heartbeat failed:\n%s", traceback.format_exc())
        if self.on_beat is not None:
            try:
                self.on_beat()
            except Exception:               # a clock that fails must not stop the beat
                log.error("heartbeat hook failed:\n%s", traceback.format_exc())

    def answer(self, seq: str) -> None:
        try:
            game, actions = self.about()
        except Exception:
            log.error("heartbeat: what the page shows:\n%s", traceback.format_exc())
            game, actions = None, None
        attrs = [f"data-beat='{escape(seq)}'", f"data-ping='{escape(self.ping.model_id)}'"]
        if game:
            attrs.append(f"data-game='{escape(game)}'")
        if actions is not None:
            attrs.append(f"data-actions='{int(actions)}'")
        try:
            shown = self.screen() if self.screen is not None else None
        except Exception:
            log.error("heartbeat: the screen shown:\n%s", traceback.format_exc())
            shown = None
        if shown:
            attrs.append(f"data-screen='{escape(shown)}'")
        self.beat.value = f"<span class='beat' {' '.join(attrs)}></span>"


def show_note(note: Any, text: str) -> None:
    """Say another page's change (escaped) in the screen's ``.live-note``."""
    show(note, f"<div class='live-note-text'>{escape(text)}</div>")
