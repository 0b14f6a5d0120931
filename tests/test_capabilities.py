"""Issue 35, "A role is a capability, not an address", without a browser.

The issue: "The host's page needs the host's secret; each seat's link (and its QR code)
carries that seat's capability, bound to its player and its game; the table view's link
carries a view-only one.  The login cookie carries the role it was given, and no address
can raise it: a seat's phone that opens the plain address or another seat gets its own
seat or a view, never more.  The host can re-issue a seat's link (a lost or borrowed
phone) and see which seats are joined.  On 127.0.0.1 without ``--lan``, the laptop is
the host as now."

Here: the capabilities themselves (companion.table.capabilities: issued, verified,
re-issued, bound to a player and a game, kept across a restart, given out by the host
only); the server's one decision (notebooks/config/voila.py ``_grant`` and
``_page_query``, loaded in a process of its own); the page's session, which enforces
it (GameSession.bind_capability, companion/ui/seats.py); the join links.  The browser
test is tests/browser/test_capability_roles.py.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError, RoleRefused
from companion.core.roles import Role
from companion.table import capabilities as caps
from companion.table.store import Store
from companion.ui.joinpanel import join_links
from companion.ui.live import parse_query
from companion.ui.session import GameSession

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "notebooks" / "config" / "voila.py"
PLAYERS = ["Ana", "Ben"]


def _discard(player: str) -> dict:
    return {"do": "discard", "player": player, "card": "Garden"}


@pytest.fixture
def two_games(tmp_path):
    """A store with two games that Ana and Ben both play: G1 and G2."""
    store = Store(path=tmp_path / "games.sqlite")
    g1 = store.create(Game({"players": PLAYERS}).to_record(), title="one")
    g2 = store.create(Game({"players": PLAYERS}).to_record(), title="two")
    yield store, g1, g2
    store.close()


# -- the capabilities -------------------------------------------------------------------
def test_a_seat_capability_is_issued_verified_and_bound_to_its_player_and_game():
    """ "each seat's link ... carries that seat's capability, bound to its player and its
    game": a secret per (game, player), the same one asked again, another one for any
    other player or game; an unknown or altered secret is nothing."""
    ana = caps.seat("G1", "Ana")
    assert len(ana.secret) >= 32 and ana.role == "seat"
    assert caps.verify(ana.secret) == ana
    assert (ana.game, ana.player) == ("G1", "Ana")
    assert caps.seat("G1", "Ana") == ana                      # the link given out stays
    others = {caps.seat("G1", "Ben").secret, caps.seat("G2", "Ana").secret, ana.secret}
    assert len(others) == 3
    assert caps.verify(ana.secret[:-1] + ("A" if ana.secret[-1] != "A" else "B")) is None
    for bad in ("", None, "x" * 500, ana.id):
        assert caps.verify(bad) is None
    view = caps.view()
    assert view.role == "table" and view.game is None and view.player is None
    assert caps.view() == view and caps.verify(view.secret) == view


def test_the_capabilities_survive_a_restart_and_only_their_owner_reads_them():
    """ "it must survive a server restart": another process (a server started again)
    verifies the secret from the file in COMPANION_HOME, which is 0600."""
    ana = caps.seat("G1", "Ana")
    mode = stat.S_IMODE(caps.path().stat().st_mode)
    assert mode == 0o600, oct(mode)
    code = ("import sys; from companion.table import capabilities as c; "
            "k = c.verify(sys.argv[1]); print(k.player, k.game)")
    out = subprocess.run([sys.executable, "-c", code, ana.secret], capture_output=True,
                         text=True, timeout=60, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Ana", "G1"]


def test_a_reissued_seat_link_stops_working_and_the_others_stay():
    """ "The host can re-issue a seat's link (a lost or borrowed phone)": the old secret
    and its id stop working at once; Ben's seat and the table view are untouched."""
    old, ben, view = caps.seat("G1", "Ana"), caps.seat("G1", "Ben"), caps.view()
    new = caps.reissue("G1", "Ana")
    assert new.secret != old.secret
    assert caps.verify(old.secret) is None and not caps.is_current(old.id)
    assert caps.verify(new.secret) == new and caps.is_current(new.id)
    assert caps.seat("G1", "Ana") == new
    assert caps.verify(ben.secret) == ben and caps.verify(view.secret) == view


def test_only_the_hosts_page_gives_out_links():
    """A seat or the table view cannot issue or re-issue a link (one line)."""
    for role in (Role.SEAT, Role.TABLE):
        for call in (lambda: caps.seat("G1", "Ana", role=role),
                     lambda: caps.reissue("G1", "Ana", role=role),
                     lambda: caps.view(role=role)):
            with pytest.raises(RoleRefused) as e:
                call()
            assert "\n" not in str(e.value) and "host" in str(e.value)
    assert not caps.path().exists()                           # nothing was written


def test_the_host_sees_which_seats_joined():
    """ "and see which seats are joined": a page load with a seat's capability marks it."""
    ana, ben = caps.seat("G1", "Ana"), caps.seat("G1", "Ben")
    assert caps.seats("G1")["Ana"].joined is None
    caps.mark_joined(ana.id, when=1000.0)
    joined = caps.seats("G1")
    assert joined["Ana"].joined == 1000.0 and joined["Ben"].joined is None
    assert caps.verify(ana.secret).joined == 1000.0           # still the same capability


def test_a_damaged_capability_file_gives_no_capability():
    caps.seat("G1", "Ana")
    caps.path().write_text("{not json", encoding="utf-8")
    assert caps.verify("anything") is None
    with pytest.raises(CompanionError) as e:
        caps.seat("G1", "Ana")
    assert "\n" not in str(e.value)


# -- the server's one decision ------------------------------------------------------------
def _server(code: str, *args: str) -> list:
    """Run ``code`` with the dashboard's Voila configuration loaded (its functions in
    scope as ``v``), in a process of its own (the configuration patches Voila)."""
    prog = ("import json, runpy, sys\n"
            "from traitlets.config import Config\n"
            f"v = runpy.run_path({str(CONFIG)!r}, init_globals={{'get_config': Config}})\n"
            + code)
    env = {**os.environ, "COMPANION_TOKEN": "Tok-" + "x7Qm2Lp9Zr4Vb8Nc1Hd6"}
    out = subprocess.run([sys.executable, "-c", prog, *args], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_no_address_raises_the_role_the_credential_gives():
    """ "The login cookie carries the role it was given, and no address can raise it: a
    seat's phone that opens the plain address or another seat gets its own seat or a
    view, never more."  The query the page's kernel gets is the server's: Ana's seat in
    Ana's game whatever the address asks (``seat=Ben``, another ``game``, nothing, a
    forged ``capid``), or a view of her game; the table view's capability is a view;
    the host's token keeps its address (less the token)."""
    ana, view = caps.seat("G1", "Ana"), caps.view()
    asks = ["", "seat=Ben", "seat=Ben&game=G2", "game=G2", "view=table&game=G2",
            "token=x&cap=y&capid=0123456789abcdef", "tab=history&seat=Ben"]
    code = (
        "from urllib.parse import parse_qsl\n"
        "from companion.table import capabilities as c\n"
        "ana, view = c.verify(sys.argv[1]), c.verify(sys.argv[2])\n"
        "asks = json.loads(sys.argv[3])\n"
        "out = {}\n"
        "G = v['_Grant']\n"
        "for name, grant in (('ana', G('seat', ana)), ('view', G('table', view)),\n"
        "                    ('host', G('host'))):\n"
        "    out[name] = [dict(parse_qsl(v['_page_query'](q, grant))) for q in asks]\n"
        "print(json.dumps(out))\n")
    got = _server(code, ana.secret, view.secret, json.dumps(asks))
    for ask, q in zip(asks, got["ana"]):
        if "view=table" in ask:
            assert q == {"game": "G1", "view": "table", "capid": ana.id}, (ask, q)
        else:
            assert {k: q[k] for k in ("game", "seat", "capid")} == {
                "game": "G1", "seat": "Ana", "capid": ana.id}, (ask, q)
            assert "view" not in q and "token" not in q and "cap" not in q
    assert got["ana"][-1]["tab"] == "history"
    for ask, q in zip(asks, got["view"]):
        assert q["view"] == "table" and "seat" not in q and q["capid"] == view.id, (ask, q)
    assert got["host"][1] == {"seat": "Ben"} and got["host"][0] == {}
    assert got["host"][5] == {}                 # the token, a cap or a capid: never passed on


def test_the_request_credential_is_the_role_decided_once():
    """``_grant``: the token is the host's; ``?cap=`` a capability's role (a re-issued one:
    no role, so the page answers with the login form); a login cookie's user (signed by
    the server) names the capability by its public id and is checked again (a re-issued
    one is no role); a wrong token, or a cookie of another kind, is no role."""
    ana = caps.seat("G1", "Ana")
    old = caps.seat("G1", "Ben")
    caps.reissue("G1", "Ben")
    code = (
        "import asyncio\n"
        "class Req:\n"
        "    def __init__(s, q): s.headers = {}; s.q = q\n"
        "class H:\n"
        "    settings = {}\n"
        "    def __init__(s, **q): s.request = Req(q)\n"
        "    def get_query_argument(s, k, d=''): return s.request.q.get(k, d)\n"
        "T = 'Tok-' + 'x7Qm2Lp9Zr4Vb8Nc1Hd6'\n"
        "def g(**q):\n"
        "    r = asyncio.run(v['_grant'](H(**q), T))\n"
        "    return None if r is None else [r.role, r.cap.player if r.cap else None, r.fresh]\n"
        "print(json.dumps([g(token=T), g(token='nope'), g(cap=sys.argv[1]),\n"
        "                  g(cap=sys.argv[2]), g(), g(cap='x' * 32),\n"
        "                  v['_grant_of_cap'](sys.argv[1], False).role,\n"
        "                  v['_grant_of_cookie']('companion-cap-' + sys.argv[3]).cap.player,\n"
        "                  v['_grant_of_cookie']('companion-cap-' + sys.argv[4]),\n"
        "                  v['_grant_of_cookie']('companion-host').role,\n"
        "                  v['_grant_of_cookie']('Anonymous Io')]))\n")
    got = _server(code, ana.secret, old.secret, ana.id, old.id)
    assert got == [["host", None, True], None, ["seat", "Ana", True], None, None, None,
                   "seat", "Ana", None, "host", None]


# -- the page's session enforces it -------------------------------------------------------
def _seat_page(store: Store, gid: str, cap) -> GameSession:
    """A seat's page as the server makes it under --lan: its role, its name, its
    capability bound to its game (what Shell.apply_query does with the server's query)."""
    s = GameSession(store, role=Role.SEAT)
    s.set_seat("Ana")
    s.bind_capability(cap.id, gid)
    s.open(gid)
    s.seat = s._seat_in_game()
    return s


def test_the_session_keeps_a_seat_in_its_game_and_refuses_a_reissued_link(two_games):
    """"every write forced through its page's session beyond that is refused in one
    line": Ana's capability for G1 records in G1; G2 opened on the same page (Ana plays
    there too) is a view of it; once the host re-issued Ana's link, nothing at all."""
    store, g1, g2 = two_games
    cap = caps.seat(g1, "Ana")
    s = _seat_page(store, g1, cap)
    assert s.seat == "Ana"
    s.push(_discard("Ana"))
    assert len(store.load(g1)["actions"]) == 1
    s.open(g2)                                               # the saved-games list, forced
    assert s.seat is None
    with pytest.raises(RoleRefused) as e:
        s.push(_discard("Ana"))
    assert "\n" not in str(e.value) and "another game" in str(e.value)
    assert store.load(g2)["actions"] == []
    s.open(g1)
    assert s.seat == "Ana"
    caps.reissue(g1, "Ana")
    for write in (lambda: s.push(_discard("Ana")), s.undo,
                  lambda: s.set_play_details({"location": "here"})):
        with pytest.raises(RoleRefused) as e:
            write()
        assert "\n" not in str(e.value) and "no longer works" in str(e.value)
    assert len(store.load(g1)["actions"]) == 1


def test_the_page_reads_its_capability_only_when_the_server_gives_roles(monkeypatch):
    """On 127.0.0.1 without --lan the address decides as before: ``capid`` in an address
    binds nothing (``COMPANION_CAPS`` is set by the server's configuration only when a
    token is in force); under it, the server's ``capid`` is read."""
    from companion.ui.live import capabilities_in_force
    monkeypatch.delenv("COMPANION_CAPS", raising=False)
    assert not capabilities_in_force()
    assert parse_query("seat=Ana&capid=0123456789abcdef")["capid"] == "0123456789abcdef"
    assert "capid" not in parse_query("capid=../../etc")
    monkeypatch.setenv("COMPANION_CAPS", "1")
    assert capabilities_in_force()


def test_join_links_carry_capabilities_under_lan_and_only_on_the_hosts_page(monkeypatch):
    """ "each seat's link (and its QR code) carries that seat's capability ... the table
    view's link carries a view-only one": no token in them; a seat's or the table
    view's page gives out no link.  Without --lan the links are as before."""
    base, token = "http://192.168.1.5:8866/", "Tok-" + "x7Qm2Lp9Zr4Vb8Nc1Hd6"
    monkeypatch.delenv("COMPANION_CAPS", raising=False)
    before = join_links(base, token=token, gid="G1", players=PLAYERS)
    assert all(f"token={token}" in url for _, url in before)
    monkeypatch.setenv("COMPANION_CAPS", "1")
    links = dict(join_links(base, token=token, gid="G1", players=PLAYERS))
    assert all(token not in url for url in links.values())
    assert f"cap={caps.seat('G1', 'Ana').secret}" in links["Ana's seat"]
    assert f"cap={caps.seat('G1', 'Ben').secret}" in links["Ben's seat"]
    assert f"cap={caps.view().secret}" in links["Table view (read-only)"]
    for role in (Role.SEAT, Role.TABLE):
        assert join_links(base, token=token, gid="G1", players=PLAYERS, role=role) == []


def test_a_capability_in_a_logged_address_is_scrubbed():
    """A seat's link carries its capability (``?cap=``), a secret like the token: the
    server's log shows ``cap=[cap]``, never the secret (the public ``capid`` may show)."""
    ana = caps.seat("G1", "Ana")
    code = (
        "import logging\n"
        "rec = logging.getLogRecordFactory()('tornado.access', 20, 'x.py', 1,\n"
        "    '200 GET /?cap=%s&capid=%s (127.0.0.1) 3.1ms', (sys.argv[1], sys.argv[2]), None)\n"
        "print(json.dumps(rec.getMessage()))\n")
    line = _server(code, ana.secret, ana.id)
    assert ana.secret not in line
    assert "cap=[cap]" in line and f"capid={ana.id}" in line, line
