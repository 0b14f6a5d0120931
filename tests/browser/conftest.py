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


def pytest_collection_modifyitems(config, items):
    # Every test under tests/browser is a browser test, whatever its module says.
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


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
    server = item.funcargs.get("voila_server") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and server is not None:
        # every failing test with a server keeps the server's log (its kernels' too)
        try:
            report.sections.append(("voila", server.log_tail(120)))
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
