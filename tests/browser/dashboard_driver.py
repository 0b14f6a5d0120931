"""Drive the companion dashboard like a player: clicks and typing only.

Shared by the browser tests (tests/browser/test_table_game.py, test_resume.py, ...) and bench/bench_dashboard.py.
Nothing here calls Python in the kernel: the page is read through the DOM
(stable CSS class hooks set with ``add_class`` in companion/ui/app.py) and a
*shadow* engine in the test process (``companion.Game``) says what the page
should show after each action.

ipywidgets send every change over one websocket and the kernel handles the
messages in order, so a click sent after typing a card's name is processed
after that name.  What can race is the browser's view: a Dropdown syncs its
*index*, so a player must not be chosen while the list of waiting players is
stale (App.refresh sends the list and the selection in one message since
this harness caught a lost pick after an undo).  :func:`settle` waits until
the scoreboard, the turn line and the player list all match the shadow game
before the next action.
"""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PWTimeout

from companion.ui import cell_class

ACTION_LABEL = {"build": "Build location", "reactor": "Build reactor",
                "discard": "Discard for 3 credits"}
SETTLE_MS = 15_000
#: more for a page whose kernel has not started yet (wait_taking_entries)
STARTING_MS = 60_000

_READ_BOARD = """() => {
  const out = {};
  for (const tr of document.querySelectorAll('.scoreboard tr.score-row')) {
    const cell = (c) => tr.querySelector('td.' + c).textContent.trim();
    out[tr.dataset.player] = {vp: cell('vp'), credits: cell('credits'),
                              cubes: cell('cubes'), locations: cell('locations')};
  }
  return out;
}"""

_SETTLED = """(want) => {
  const rows = document.querySelectorAll('.scoreboard tr.score-row');
  if (rows.length !== Object.keys(want.board).length) return false;
  for (const tr of rows) {
    const w = want.board[tr.dataset.player];
    if (!w) return false;
    for (const c of ['vp', 'credits', 'cubes', 'locations'])
      if (tr.querySelector('td.' + c).textContent.trim() !== w[c]) return false;
  }
  const info = document.querySelector('.turn-info');
  if (!info || !info.textContent.includes(want.info)) return false;
  if (want.waiting !== null) {
    const opts = Array.from(document.querySelectorAll('.entry-player select option'))
                      // ipywidgets writes a label's spaces as no-break spaces
                      .map(o => o.textContent.replace(/\u00a0/g, ' '))
                      .filter(t => !t.endsWith(' (acted)'));   // listed, marked (issue 50)
    // seat order on the page (the list keeps its places), the rules' order in want
    if (JSON.stringify(opts.sort()) !== JSON.stringify([...want.waiting].sort())) return false;
  }
  return true;
}"""

_LEGAL = """() => Array.from(document.querySelectorAll('.station-grid .grid-cell.legal'))
  .map(b => Array.from(b.classList).find(c => c.startsWith('cell_'))).sort()"""


def read_board(page) -> dict:
    """{player: {vp, credits, cubes, locations}} as the page shows them (strings)."""
    return page.evaluate(_READ_BOARD)


def expected_board(game) -> dict:
    st = game.state
    return {p: {"vp": str(ps.vp), "credits": str(ps.credits), "cubes": str(ps.station.cubes()),
                "locations": str(len(ps.station.locations(reactors=False)))}
            for p, ps in st.players.items()}


def turn_words(game) -> str:
    st = game.state
    if st.finished:
        return "The game is over"
    return f"Year {st.year} · Turn {st.turn} of {st.setup.turns_in_year(st.year)}"


def settle(page, game, timeout: int = SETTLE_MS) -> None:
    """Wait until the page shows the shadow game's scoreboard, turn and waiting players."""
    want = {"board": expected_board(game), "info": turn_words(game),
            "waiting": None if game.state.finished else game.waiting_in_order()}
    try:
        page.wait_for_function(_SETTLED, arg=want, timeout=timeout, polling="raf")
    except PWTimeout:
        shown = {"board": read_board(page),
                 "info": page.locator(".turn-info").inner_text(),
                 "status": page.locator(".companion-status").inner_text(),
                 "entry message": page.evaluate(
                     "() => { const m = document.querySelector('.entry-message');"
                     " return m ? m.innerText : null; }"),
                 "ordered sync": page.evaluate(
                     "() => window.companionOrderedSync ? window.companionOrderedSync() : null")}
        raise AssertionError(f"the page did not reach the expected state.\n"
                             f"expected: {want}\nshown:    {shown}\n"
                             f"watchdog: {watchdog_info(page)}") from None


def watchdog_info(page) -> dict | None:
    """The page watchdog's own account (state, times not live, entries it swallowed and
    why), or None on a page without it."""
    return page.evaluate("() => window.companionWatchdog ? window.companionWatchdog.info() : null")


def wait_taking_entries(page, timeout: int = SETTLE_MS) -> None:
    """Wait until the page takes entries, as a player waits for the banner to go: while
    the watchdog does not hear the page's kernel (a busy laptop, a phone just woken), a
    tap is swallowed on purpose (the page template's watchdog)."""
    live = ("() => !window.companionWatchdog ||"
            " document.body.classList.contains('companion-live')")
    try:
        page.wait_for_function(live, timeout=timeout, polling="raf")
        return
    except PWTimeout:
        info = watchdog_info(page)
    if info and not info.get("everBeat"):
        # a page still starting (its kernel not heard once: a new kernel on a busy
        # laptop, several pages starting together): a player waits for it as for the
        # first screen; only a page that never comes up fails
        try:
            page.wait_for_function(live, timeout=STARTING_MS, polling="raf")
            return
        except PWTimeout:
            info = watchdog_info(page)
    raise AssertionError(f"the page is not live: {info}")


def wait_stored(load, n: int, timeout: float = SETTLE_MS / 1000):
    """Poll ``load()`` (a Game read from the store) until it holds ``n`` actions; return
    it.  A click is stored by the page's kernel a moment after it is made, so a test
    that reads the store right after a click must wait for it."""
    import time
    deadline = time.monotonic() + timeout
    game = load()
    while len(game.actions) != n and time.monotonic() < deadline:
        time.sleep(0.1)
        game = load()
    assert len(game.actions) == n, f"the store holds {len(game.actions)} actions, not {n}"
    return game


def start_game(page, url: str, players: list[str], *, timeout: int = 60_000) -> None:
    """Open the dashboard, type the names and press Start (setup screen expected)."""
    page.goto(url, timeout=timeout)
    page.locator(".start-game").wait_for(state="visible", timeout=timeout)
    fill_names(page, players)
    page.click(".start-game")
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible")


def open_setup_options(page) -> None:
    """Unfold "Mode, modules and variants" on the setup screen (folded by default)."""
    if not page.locator(".setup-mode").is_visible():
        page.locator(".setup-options .lm-AccordionPanel-title, "
                     ".setup-options .jupyter-widget-Collapse-header").first.click()
    page.locator(".setup-mode").wait_for(state="visible")


def fill_names(page, players: list[str]) -> None:
    for i, name in enumerate(players, 1):
        page.fill(f".player-name-{i} input", name)


def choose(page, player: str, do: str, card: str) -> None:
    """Select the player, the action and type the card's name (no click on the grid)."""
    wait_taking_entries(page)
    page.select_option(".entry-player select", player)
    page.locator(".entry-action button", has_text=ACTION_LABEL[do]).click()
    page.fill(".entry-card input", card)


def legal_shown(page) -> list[str]:
    return page.evaluate(_LEGAL)


def wait_legal(page, cells) -> None:
    """Wait until exactly ``cells`` are highlighted as legal on the grid."""
    want = sorted(cell_class(*c) for c in cells)
    try:
        page.wait_for_function(f"(want) => JSON.stringify(({_LEGAL})()) === JSON.stringify(want)",
                               arg=want, timeout=SETTLE_MS, polling="raf")
    except PWTimeout:
        raise AssertionError(f"legal cells shown {legal_shown(page)}, expected {want}") from None


def cell(page, at):
    return page.locator(f".station-grid .{cell_class(*at)}")


def act(page, game, player: str, do: str, card: str, at=None, *, energy_from=None,
        check_legal: bool = True) -> dict:
    """Enter one action through the page, apply it to the shadow ``game`` and wait
    until the page shows the result.  Returns the shadow's normalised action.

    ``energy_from``: a reactor cell to pick in the 'Energy from' choice (the
    choice must then be shown); otherwise, if the choice is shown, the default
    is confirmed.
    """
    choose(page, player, do, card)
    action = {"player": player, "do": do, "card": card}
    wait_taking_entries(page)
    if do == "discard":
        page.click(".do-discard")
    else:
        action["at"] = list(at)
        if check_legal:
            legal = game.legal_cells(player, card, do=do) if do == "build" else \
                game.legal_cells(player, do="reactor")
            wait_legal(page, legal)
        cell(page, at).click()
        if do == "build" and _needs_energy_choice(game, player, card, at):
            page.locator(".energy-from").wait_for(state="visible")
            if energy_from is not None:
                page.locator(".energy-from label", has_text=str(list(energy_from))).click()
                action["energy_from"] = [list(energy_from)]
            page.click(".confirm-build")
        elif energy_from is not None:
            raise AssertionError("energy_from given but the game offers no choice")
    norm = game.push(action)
    settle(page, game)
    return norm


def _needs_energy_choice(game, player, card, at) -> bool:
    """Mirror of App._extras for 1-energy cards: a choice when 2+ reactors can pay."""
    c = game.catalogue.get(card)
    if not c.energy:
        return False
    if c.energy != 1:
        raise NotImplementedError("only 1-energy cards are driven by these tests")
    return len(game.payers(player, tuple(at))) > 1


# -- pages at one table (issue 20): seats, the table view, a relay that is cut ------------
# Shared by test_sleep.py and test_four_pages.py.
#: the page must say it is not connected within this (the watchdog: a lost websocket at
#: once, an unanswered ping after 5 s)
NOTICE_MS = 12_000
#: the page must be back, by itself, within this after the relay is restored (server
#: probes back off to 15 s, then 8 s for a beat, then a reload on this loaded machine)
BACK_MS = 90_000
#: what a writing control says on the page (buttons and file uploads)
WRITING_WORDS = ("Delete", "Import", "Start the game", "Undo", "New game", "timer",
                 "Save", "Discard", "Open a record")


#: a phone's screen
PHONE = {"width": 390, "height": 844}
#: the pages open_page opened for the running test (its failure report shows what their
#: watchdogs said: tests/browser/conftest.py)
OPENED: list = []


def open_page(browser, url, *, viewport=None, contexts=None, timeout=60_000,
              ready=".live-state"):
    """Open ``url`` in its own browser context (``viewport``: a laptop's by default) and
    wait until ``ready`` is there (its live line: a game's screen).  The page's JavaScript errors are kept in
    ``page.errors``; the context is added to ``contexts`` (to be closed by the caller)."""
    from browser_harness import WIDGET_TIMEOUT_MS
    ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 1100})
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    if contexts is not None:
        contexts.append(ctx)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(exc.message))
    page.console = []          # the page watchdog's words among them ("reloading (why)")
    page.on("console", lambda msg: page.console.append(f"[{msg.type}] {msg.text}"))
    OPENED.append(page)
    page.goto(url, timeout=timeout)
    page.locator(ready).first.wait_for(state="attached", timeout=timeout)
    return page


def store_of(server):
    from companion.table.store import Store
    return Store(path=server.home / "games.sqlite")


def stored_actions(server, gid) -> list:
    """The actions of saved game ``gid`` as the server's store holds them now."""
    s = store_of(server)
    try:
        return s.load(gid)["actions"]
    finally:
        s.close()


def wait_actions(server, gid, n, timeout=15.0) -> list:
    """Wait until the store holds ``n`` actions of ``gid`` (a click is stored a moment
    after it is made); return them."""
    import time
    deadline = time.monotonic() + timeout
    acts = stored_actions(server, gid)
    while len(acts) != n and time.monotonic() < deadline:
        time.sleep(0.1)
        acts = stored_actions(server, gid)
    assert len(acts) == n, f"the store holds {len(acts)} actions, not {n}: {acts}"
    return acts


def kernel_id(page) -> str:
    return page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def live_line(page):
    """The live line of the game tab shown."""
    return page.locator(".live-state:visible").first


def is_live(page, timeout=BACK_MS) -> None:
    """The page says "● live" (the watchdog hears its kernel) and shows no banner."""
    from playwright.sync_api import expect
    page.wait_for_function("() => document.body.classList.contains('companion-live')",
                           timeout=timeout)
    expect(live_line(page).locator(".live-on")).to_be_visible()
    expect(live_line(page).locator(".live-off")).to_be_hidden()
    expect(page.locator("#companion-banner")).to_be_hidden()


def says_not_connected(page) -> None:
    from playwright.sync_api import expect
    banner = page.locator("#companion-banner")
    expect(banner).to_be_visible(timeout=NOTICE_MS)
    expect(banner).to_contain_text(
        "Not connected — reconnecting… nothing you enter is recorded")
    # "● live" is never shown without beats; the live line says it too
    expect(live_line(page).locator(".live-on")).to_be_hidden()
    expect(live_line(page).locator(".live-off")).to_be_visible()
    expect(live_line(page)).to_contain_text("not connected")


def overlay_is_under(page, locator) -> None:
    """What a finger on ``locator``'s centre touches is the overlay, not the control."""
    box = locator.bounding_box()
    assert box, "the control is not on screen"
    hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                        " return e ? e.id : null; }",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit == "companion-overlay", hit


def shows_actions(page, n, timeout=BACK_MS) -> None:
    from playwright.sync_api import expect
    expect(live_line(page)).to_contain_text(f"actions: {n}", timeout=timeout)


def query_of(page) -> dict:
    from urllib.parse import parse_qs, urlparse
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def wait_culled(server, kid, timeout=60.0) -> None:
    """Wait until the server's log says kernel ``kid`` was culled."""
    import re
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log_path.read_text(errors="replace")
        if re.search(rf"Culling '[^']*' kernel '[^']*' \({re.escape(kid)}\)", log):
            return
        time.sleep(0.5)
    raise AssertionError(f"kernel {kid} was not culled\n{server.log_tail()}")


def writing_controls(page) -> list[str]:
    """The controls the page shows that write: marked ``.writes`` / ``.host-only``, or
    buttons (file uploads are buttons too) whose words are a writing control's."""
    return page.evaluate(
        """(words) => {
            const shown = (el) => el.offsetParent !== null
                && getComputedStyle(el).visibility !== 'hidden';
            const out = [];
            document.querySelectorAll('.writes, .host-only').forEach(el => {
                if (shown(el)) out.push('marked: ' + el.className); });
            document.querySelectorAll('button, .widget-upload').forEach(el => {
                const t = (el.innerText || '').trim();
                if (shown(el) && words.some(w => t.toLowerCase().includes(w.toLowerCase())))
                    out.push('button: ' + t); });
            return out; }""", list(WRITING_WORDS))


def open_tab(page, title: str, *, history_games: int | None = None,
             sse_ready: str = ".sse-play .live-state") -> None:
    """Open a game tab by a tap on its title; wait until it shows its game (Small Star
    Empires: ``sse_ready``, its play screen unless the store holds no such game) or,
    History, lists ``history_games`` games."""
    from playwright.sync_api import expect
    page.locator(".lm-TabBar-tab", has_text=title).click()
    expect(page.locator(".companion-title")).to_contain_text(title)
    if title == "Small Star Empires":
        page.locator(sse_ready).wait_for(state="visible", timeout=60_000)
    elif title == "History" and history_games is not None:   # filled after the sync
        expect(page.locator(".history-games option")).to_have_count(history_games,
                                                                    timeout=60_000)


def ats_enter(page, game, player, do, card="Garden", at=None) -> dict:
    """Enter ``player``'s Among the Stars action: on the host page by the Player list, on
    a seat page as its own player (a seat page has no Player list: issue 20, a seat
    stays its player).  Applies it to the shadow ``game``; returns the normalised one."""
    wait_taking_entries(page)
    if "seat=" in page.url:
        assert page.locator(".entry-player select").input_value() == player
    else:
        page.select_option(".entry-player select", player)
    page.locator(".entry-action button", has_text=ACTION_LABEL[do]).click()
    page.fill(".entry-card input", card)
    action = {"player": player, "do": do, "card": card}
    wait_taking_entries(page)
    if do == "discard":
        page.click(".do-discard")
    else:
        action["at"] = list(at)
        wait_legal(page, game.legal_cells(player, card) if do == "build"
                   else game.legal_cells(player, do="reactor"))
        cell(page, at).click()
    return game.push(action)


def ats_shows(page, game, timeout=BACK_MS) -> None:
    """The page shows the shadow game's number of actions and its scoreboard."""
    shows_actions(page, len(game.actions), timeout)
    want = expected_board(game)
    page.wait_for_function(
        """(want) => { const got = {};
             document.querySelectorAll('.scoreboard tr.score-row').forEach(r => {
               got[r.dataset.player] = {vp: r.querySelector('.vp').innerText,
                 credits: r.querySelector('.credits').innerText,
                 cubes: r.querySelector('.cubes').innerText,
                 locations: r.querySelector('.locations').innerText}; });
             return JSON.stringify(got) === JSON.stringify(want); }""",
        arg=want, timeout=15_000)
    assert read_board(page) == want


def sse_move(page, g, ship=0) -> dict:
    """Move the current player's ship (a city on the first planetary or nebula system it
    can reach): a seat page that is not that player's enters it through its switch
    (issue 20: a seat moves only its own ships otherwise)."""
    from test_sse import hexbtn, pick
    from test_sse import wait_legal as sse_wait_legal
    player = g.current
    wait_taking_entries(page)
    seat = query_of(page).get("seat")
    if seat is not None and seat != player:
        page.click(".sse-play .seat-switch")
    hexbtn(page, g.state.players[player].ships[ship].at).click()
    sse_wait_legal(page, g.legal_destinations(player, ship, piece="city"))
    to = pick(g, ship)
    wait_taking_entries(page)
    hexbtn(page, to).click()
    return g.push({"player": player, "ship": ship, "to": list(to), "piece": "city"})


def sse_shows(page, g, timeout=BACK_MS) -> None:
    from test_sse import settle as sse_settle
    shows_actions(page, len(g.actions), timeout)
    sse_settle(page, g)


#: the Small Star Empires final table as the page shows it: ``{head, rows}`` of its text,
#: or null while it is not there (test_sse, test_sse_lay_browser, test_sse_tiles_browser)
SSE_FINAL_TABLE = """() => {
  const t = document.querySelector('.sse-final table.sse-final-table');
  if (!t) return null;
  const head = Array.from(t.querySelectorAll('thead th')).map(th => th.textContent.trim());
  const rows = Array.from(t.querySelectorAll('tbody tr')).map(
      tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent.trim()));
  return {head, rows};
}"""
