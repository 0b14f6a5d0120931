"""Drive the companion dashboard like a player: clicks and typing only.

Shared by tests/browser/test_play.py, test_resume.py and bench/bench_dashboard.py.
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
                      .map(o => o.textContent);
    if (JSON.stringify(opts) !== JSON.stringify(want.waiting)) return false;
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
                 "status": page.locator(".companion-status").inner_text()}
        raise AssertionError(f"the page did not reach the expected state.\n"
                             f"expected: {want}\nshown:    {shown}") from None


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
