"""Fixtures for the real-browser tests of the Voila dashboard.

- ``voila_server``: a fresh Voila on a free port for each test, with its own
  COMPANION_HOME (``.url``, ``.home``, ``.restart(hard=False)``).
- ``page``: a Playwright page in Debian's headless Chromium. A JavaScript
  exception in the page (``pageerror``) fails the test; console errors do not
  (the FontAwesome/MathJax CDNs are unreachable offline). On failure a
  screenshot is saved to tests/artifacts/.

pytest-playwright's plugin is disabled in pyproject.toml (``-p no:playwright``)
so its ``page``/``browser`` fixtures cannot clash with these.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from browser_harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ORDERED_SYNC_JS,
    WIDGET_TIMEOUT_MS,
    VoilaServer,
    screenshot,
)

__all__ = ["screenshot"]

HERE = Path(__file__).resolve().parent


#: seconds a browser test took (setup and teardown included) in a full run, measured
#: with ``--durations`` (issue 34; the merged tests of issue 51 from their helpers'
#: runs); the longest go first, so that the three browser
#: processes of ./run-tests end together instead of one starting the longest test last.
#: An order only: a test not listed counts as 20 s, a wrong figure costs minutes, not a
#: failure.
SECONDS = {
    "test_table_game.py::test_a_whole_game_at_the_table": 165,
    "test_four_pages.py::test_four_pages_small_star_empires": 160,
    "test_four_pages.py::test_four_pages_among_the_stars_timing_rules": 130,
    "test_sleep.py::test_a_seat_cut_off_says_so_takes_nothing_and_comes_back[ats-60-True]": 99,
    "test_lay_four_browser.py::test_the_first_evening_four_phones_and_the_tv_lay_a_game_then_play_the_next": 96,
    "test_sse.py::test_two_player_game_to_its_end_then_the_editor_and_a_campaign": 75,
    "test_widgets_recover.py::test_a_tab_whose_widgets_were_lost_reloads_itself_and_says_so": 72,
    "test_widgets_recover.py::test_a_page_whose_widgets_never_came_reloads_itself_and_says_so": 66,
    "test_club_servers.py::test_two_servers_one_postgresql": 62,
    "test_capability_roles.py::test_a_seat_link_gives_ana_her_seat_in_her_game_and_never_more": 60,
    "test_sleep.py::test_a_seat_cut_off_says_so_takes_nothing_and_comes_back[sse-12-True]": 53,
    "test_objectives_typed.py::test_objectives_typed_drawn_claimed_and_qualeens_secret": 53,
    "test_sse_lay_browser.py::test_three_seats_lay_their_pieces_and_every_page_shows_the_final_table": 48,
    "test_resume.py::test_second_tab_shows_the_same_game_and_a_stale_tab_is_refused": 42,
    "test_hands_free_browser.py::test_a_year_of_one_players_actions_through_the_line_only": 40,
    "test_revival_two_players.py::test_final_tables_on_a_phone_show_the_total_without_swiping": 40,
    "test_sleep.py::test_a_seat_cut_off_says_so_takes_nothing_and_comes_back[ats-12-False]": 40,
    "test_resume.py::test_damaged_store_is_reported_and_kept": 39,
    "test_card_form_finishes_browser.py::test_the_card_forms_keep_the_station_in_view_and_finish_their_action_when_saved": 37,
    "test_evening_pages.py::test_a_seat_whose_socket_went_is_freed_and_comes_back_by_itself[vanished]": 38,
    "test_sleep.py::test_a_frozen_phone_wakes_to_the_current_game_not_a_dead_page": 35,
    "test_lay_now_browser.py::test_a_game_joined_in_year_2_is_laid_then_played_to_year_3_with_a_refusal_and_an_undo": 35,
    "test_lay_browser.py::test_two_seats_lay_their_stations_and_every_page_shows_the_final_table": 33,
    "test_evening_pages.py::test_a_seat_whose_socket_went_is_freed_and_comes_back_by_itself[closed]": 32,
    "test_club_servers.py::test_small_star_empires_across_two_servers": 31,
    "test_revival_two_players.py::test_revival_two_player_year_with_spaceships_and_advisors": 31,
    "test_phone_layout_sse_history.py::test_sse_and_history_fit_the_screen_at_each_size": 30,
    "test_browser_play_details.py::test_final_table_details_and_exports_on_a_phone": 30,
}


def pytest_collection_modifyitems(config, items):
    # Every test under tests/browser is a browser test, whatever its module says.
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
    # the longest first (a stable sort: the same order in every xdist process), with the
    # tests without a browser when they run in the same pytest run (tests/conftest.py)
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item._companion_seconds = SECONDS.get(f"{Path(str(item.path)).name}::{item.name}", 20)
    items.sort(key=lambda item: -getattr(item, "_companion_seconds", 0))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    errors = getattr(item, "_companion_page_errors", None)
    if errors:
        pytest.fail("JavaScript error(s) in the page:\n" + "\n".join(errors), pytrace=False)
    # a page that had to reload itself because its widgets did not arrive (the watchdog's
    # second line of defence, issue 34) passes for its player, never for the suite
    recovered = [m for m in getattr(item, "_companion_console", [])
                 if "companion watchdog: recovered" in m]
    if recovered:
        pytest.fail("The page's widgets did not arrive and it reloaded itself:\n"
                    + "\n".join(recovered), pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and page is not None:
        # The page is still open here (teardown has not run): keep evidence.
        name = re.sub(r"[^\w.-]+", "_", item.nodeid.split("::", 1)[-1])
        try:
            shot = f"screenshot: {screenshot(page, f'FAILED-{name}')}"
        except Exception as exc:  # the page or browser may be gone
            shot = f"no screenshot: {exc}"
        console = getattr(item, "_companion_console", [])
        report.sections.append(
            ("browser", shot + "\nconsole (last 50):\n" + "\n".join(console[-50:])))
    if report.when == "call" and report.failed:
        # every page dashboard_driver.open_page opened for this test: what it shows now
        # (its live line, its message line) and a screenshot, so that a failure on one
        # page says what the others did (fresh13: was the other page's entry recorded?)
        import dashboard_driver
        shown = []
        for i, other in enumerate(list(dashboard_driver.OPENED)):
            try:
                live = other.evaluate("""() => [...document.querySelectorAll(
                    '.live-state, .companion-status')].map(e => e.innerText.trim())
                    .filter(t => t).join(' | ')""")
                name = re.sub(r"[^\w.-]+", "_", item.nodeid.split("::", 1)[-1])
                shot = screenshot(other, f"FAILED-{name}-page{i}")
                shown.append(f"page {i} {other.url}: {live!r}\n    {shot}")
            except Exception as exc:    # noqa: BLE001 - evidence, never a second failure
                shown.append(f"page {i}: {exc}")
        if shown:
            report.sections.append(("pages", "\n".join(shown)))
        # ... and what its watchdog said (why it reloaded, a tap it did not take), in order
        if WATCHDOG_SAID:
            report.sections.append(("watchdog", "\n".join(WATCHDOG_SAID[-60:])))
    server = item.funcargs.get("voila_server") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and server is not None:
        # every failing test with a server keeps the server's log (its kernels' too)
        try:
            report.sections.append(("voila", server.log_tail(120)))
            # the kernels' story from the whole log (a tail can be all one page's 404s)
            story = [line for line in server.log_path.read_text(errors="replace").splitlines()
                     if re.search(r"Kernel started|pre-heated|Culling|ending kernel|Kernel "
                                  r"shutdown|waits for its page|Connecting to kernel|"
                                  r"is filled with", line)]
            report.sections.append(("voila kernels", "\n".join(story[-80:])))
        except Exception as exc:        # noqa: BLE001 - evidence, never a second failure
            report.sections.append(("voila", f"no log: {exc}"))
    if report.when == "call" and report.failed and hasattr(item, "funcargs"):
        # servers a test's own fixture started (a tuple of them: test_club_servers.py)
        for name, value in item.funcargs.items():
            if name == "voila_server" or not isinstance(value, (tuple, list)):
                continue
            for i, other in enumerate(v for v in value if isinstance(v, VoilaServer)):
                try:
                    report.sections.append((f"voila {name}[{i}]", other.log_tail(80)))
                except Exception as exc:    # noqa: BLE001
                    report.sections.append((f"voila {name}[{i}]", f"no log: {exc}"))
    return report


#: what the watchdog of every page of the running test said (why it reloaded, a tap it
#: did not take), in order, with the page's address: a failing test's report shows it
WATCHDOG_SAID: list[str] = []


def _hear_watchdog(page) -> None:
    """Keep every 'companion watchdog' console line of ``page`` (any context made by
    the chromium fixture's new_context) in WATCHDOG_SAID."""
    def heard(msg):
        if "companion watchdog" in msg.text:
            WATCHDOG_SAID.append(f"{time.strftime('%H:%M:%S')} {page.url}: {msg.text}")
    page.on("console", heard)


@pytest.fixture(autouse=True)
def _pages_of_this_test():
    """dashboard_driver.OPENED holds the pages open_page opens for one test only."""
    import dashboard_driver
    dashboard_driver.OPENED.clear()
    WATCHDOG_SAID.clear()
    yield
    dashboard_driver.OPENED.clear()
    WATCHDOG_SAID.clear()


@pytest.fixture
def voila_server(tmp_path, request):
    # @pytest.mark.server_env({...}): extra environment for the server and its kernels,
    # e.g. COMPANION_POLL_SECONDS to keep a page behind (the stale-page tests)
    marker = request.node.get_closest_marker("server_env")
    env = dict(marker.args[0]) if marker else None
    # @pytest.mark.dashboard_config: Voila as ./dashboard runs it (notebooks/config/voila.py:
    # preheated kernels, the page template), not Voila's defaults
    config = request.node.get_closest_marker("dashboard_config") is not None
    server = VoilaServer(home=tmp_path / "companion-home", workdir=tmp_path / "voila", env=env,
                         config=config)
    server.start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def chromium():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. Install it with "
            "`apt-get install -y chromium` (./run-tests does this as root) "
            "or set COMPANION_CHROMIUM.", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # every page gets the dashboard template's ordered_sync.js (changes and taps reach
        # the kernel in the order they were made), also on the servers with Voila's own
        # template; browser.bare_new_context makes a context without it
        bare = browser.new_context

        def new_context(*args, **kwargs):
            ctx = bare(*args, **kwargs)
            ctx.add_init_script(path=str(ORDERED_SYNC_JS))
            ctx.on("page", _hear_watchdog)
            return ctx
        browser.bare_new_context = bare
        browser.new_context = new_context
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium, request):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    console: list[str] = []
    request.node._companion_page_errors = errors
    request.node._companion_console = console
    page.on("pageerror", lambda exc: errors.append(f"{exc.name}: {exc.message}\n{exc.stack or ''}"))
    page.on("console", lambda msg: console.append(f"[{msg.type}] {msg.text}"))
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def shadow_home(tmp_path, monkeypatch):
    """The test process's own COMPANION_HOME (its shadow games read no player's files);
    the server has its own (voila_server.home).  Files ask for it with
    ``pytest.mark.usefixtures("shadow_home")``."""
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


@pytest.fixture
def open_pages(chromium):
    """``open_pages(url, viewport=..., ready=...)``: dashboard_driver.open_page, each page
    in a browser context of its own (its own cookies: a device of its own); all closed
    at the end of the test."""
    from dashboard_driver import open_page
    contexts: list = []
    yield lambda url, **kw: open_page(chromium, url, contexts=contexts, **kw)
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def phones(open_pages):
    """``phones(url)``: :func:`open_pages` at a phone's size (390x844)."""
    from dashboard_driver import PHONE
    return lambda url, **kw: open_pages(url, **{"viewport": PHONE, **kw})
