"""Issue 50, "A seat belongs to the table", in a real browser under a token (as
``./dashboard --lan`` serves: notebooks/config/voila.py, preheated kernels).

The issue: "Every new game, every phone and the TV scan again: seat links are bound to
one game, and the TV does not follow the table's next game."  Here: the host's page gives
out Ana's link; her phone and the TV open theirs; the host starts the next game with the
same players; the phone and the TV follow it by themselves (no scan, no reload), Ana's
page records her action in the new game, the host's codes are the ones scanned before,
and Ana's link opened again lands in the new game.  In-process: tests/test_seat_follows_table.py.
"""
from __future__ import annotations

import shutil
import time

import pytest

from browser_harness import VoilaServer, free_port, screenshot
from companion.ats.game import Game
from companion.table.store import Store
from test_capability_roles import (PLAYERS, TOKEN, context, force_discard, join_links,
                                   visit, wait_what, what)

pytestmark = pytest.mark.browser


@pytest.fixture
def lan_one_game(tmp_path):
    port = free_port()
    server = VoilaServer(home=tmp_path / "home", workdir=tmp_path / "voila", port=port,
                         config=True, env={
                             "COMPANION_TOKEN": TOKEN, "COMPANION_POOL_SIZE": "2",
                             "COMPANION_PUBLIC_URL": f"http://127.0.0.1:{port}/"})
    store = Store(path=server.home / "games.sqlite")
    try:
        g1 = store.create(Game({"players": PLAYERS}).to_record(), title="evening: G1")
    finally:
        store.close()
    server.start()
    try:
        yield server, g1
    finally:
        server.cleanup()
        shutil.rmtree(tmp_path / "voila", ignore_errors=True)


def test_the_next_game_keeps_the_links_and_the_phone_and_the_tv_follow(lan_one_game, chromium):
    server, g1 = lan_one_game
    host_ctx, phone_ctx, tv_ctx = context(chromium), context(chromium), context(chromium)
    try:
        host = host_ctx.new_page()
        visit(host, f"{server.url}?token={TOKEN}&game={g1}")
        links = join_links(host)
        ana_link, tv_link = links["Ana's seat"][0], links["Table view (read-only)"][0]
        phone, tv = phone_ctx.new_page(), tv_ctx.new_page()
        visit(phone, ana_link)
        visit(tv, tv_link)
        assert wait_what(phone, {"role": "seat", "seat": "Ana", "game": g1})["game"] == g1
        assert wait_what(tv, {"role": "table", "game": g1})["game"] == g1
        # the host starts the table's next game with the same players
        store = Store(path=server.home / "games.sqlite")
        try:
            g2 = store.create(Game({"players": PLAYERS}).to_record(), title="evening: G2")
        finally:
            store.close()
        got = wait_what(phone, {"role": "seat", "seat": "Ana", "game": g2}, timeout=30)
        assert got == {**got, "role": "seat", "seat": "Ana", "game": g2}, got
        got = wait_what(tv, {"role": "table", "game": g2}, timeout=30)
        assert got["game"] == g2, got
        screenshot(phone, "next-game-phone-followed")
        # Ana's page records her action in the new game
        force_discard(phone)
        deadline = time.monotonic() + 30
        store = Store(path=server.home / "games.sqlite")
        try:
            while not store.load(g2)["actions"] and time.monotonic() < deadline:
                time.sleep(0.3)
            assert [a["player"] for a in store.load(g2)["actions"]] == ["Ana"]
            assert store.load(g1)["actions"] == []
        finally:
            store.close()
        # the host's codes for the new game are the ones scanned before
        visit(host, f"{server.url}?token={TOKEN}&game={g2}")
        again = join_links(host)
        assert again["Ana's seat"][0] == ana_link and again["Table view (read-only)"][0] == tv_link
        # Ana's link opened again (a reload, a bookmark) lands in the new game
        other = phone_ctx.new_page()
        visit(other, ana_link)
        got = wait_what(other, {"role": "seat", "seat": "Ana", "game": g2})
        assert got["game"] == g2 and got["seat"] == "Ana", got
        assert what(tv)["game"] == g2
    finally:
        for ctx in (host_ctx, phone_ctx, tv_ctx):
            ctx.close()
