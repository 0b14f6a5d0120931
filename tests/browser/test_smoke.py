"""The dashboard loads in a real browser and shows its title."""

import json
import time

import pytest
from playwright.sync_api import expect

from browser_harness import ARTIFACTS, WIDGET_TIMEOUT_MS, screenshot

pytestmark = pytest.mark.browser


def test_dashboard_shows_title(voila_server, page):
    t0 = time.monotonic()
    page.goto(voila_server.url, timeout=WIDGET_TIMEOUT_MS)
    title = page.locator(".companion-title")
    title.wait_for(state="visible", timeout=WIDGET_TIMEOUT_MS)
    seconds_to_widget = time.monotonic() - t0

    screenshot(page, "smoke-dashboard")
    expect(title).to_contain_text("Among the Stars — table companion")

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "smoke-timings.json").write_text(json.dumps({
        "voila_start_to_ready_s": round(voila_server.startup_seconds, 2),
        "goto_to_title_visible_s": round(seconds_to_widget, 2),
    }, indent=1) + "\n")
