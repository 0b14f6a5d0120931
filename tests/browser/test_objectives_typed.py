"""Issue 21 in the real page, on a phone (390x844): objective cards typed once on the
catalogue screen, drawn for a 3-player game, claimed at the final table, and the
Qualeen's secret objective asked (no card was left for it at setup) and scored.

Every objective and race tile typed here is a TEST value typed as a player types it
from a physical card (the books name one objective and give none of these numbers);
nothing here is shipped data."""
from __future__ import annotations

import yaml
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import act, fill_names, settle
from companion import Game
from companion.ats.catalogue import OBJECTIVE_MEASURES
from companion.table.store import Store

PLAYERS = ["Ana", "Ben", "Cy"]
WAIT_MS = 20_000
# the "Measures" list of the card form, by label
MEASURE_LABEL = {**OBJECTIVE_MEASURES,
                 "manual": "a condition the players judge (claimed at the table)"}
# race tiles with no scoring of their own (test values typed in the player's catalogue)
TEST_RACES = [{"name": "Test race A", "category": "race", "abilities": []},
              {"name": "Test race B", "category": "race", "abilities": []}]


def _open_catalogue(page):
    page.locator(".catalogue-panel").wait_for(state="visible", timeout=WAIT_MS)
    if not page.locator(".catalogue-add-objective").is_visible():     # folded: unfold
        page.locator(".catalogue-panel").locator(
            ".lm-AccordionPanel-title, .jupyter-widget-Collapse-header").first.click()
    page.locator(".catalogue-add-objective").wait_for(state="visible", timeout=WAIT_MS)


def _type_objective(page, name, measure, vp=None, side="the most"):
    """Add an objective card on the catalogue screen, as read from the physical card."""
    page.click(".catalogue-add-objective")
    form = page.locator(".catalogue-new .card-form")
    form.wait_for(state="visible")
    form.locator(".form-name input").fill(name)
    form.locator(".form-measure select").select_option(label=MEASURE_LABEL[measure])
    if measure != "manual":
        form.locator(".form-most button", has_text=side).click()
    if vp is not None:
        form.locator(".form-vp input").fill(str(vp))
    # the values preview speaks of this card
    expect(form.locator(".form-preview")).to_contain_text(name, timeout=WAIT_MS)
    form.locator(".form-save").click()
    expect(page.locator(".catalogue-message")).to_contain_text(
        f"Saved the objective '{name}'", timeout=WAIT_MS)
    # the next card's form opens at once, empty
    expect(page.locator(".catalogue-new .form-name input")).to_have_value("", timeout=WAIT_MS)


def _store_game(home):
    store = Store(path=home / "games.sqlite")
    try:
        gid = store.games()[0]["id"]
        return gid, Game.from_record(store.load(gid), trusted=True)
    finally:
        store.close()


def test_objectives_typed_drawn_claimed_and_qualeens_secret(page, voila_server):
    (voila_server.home / "my-cards.yaml").write_text(yaml.safe_dump(TEST_RACES),
                                                   encoding="utf-8")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible", timeout=60_000)

    # -- the catalogue screen: type the objective cards once --------------------------
    _open_catalogue(page)
    expect(page.locator(".catalogue-objectives")).to_contain_text("1 of the box's 8")
    _type_objective(page, "Test: most reactors", "reactor", 4, "the most")
    # "Did you mean …?" is a button: it opens the objective already in the catalogue
    page.locator(".catalogue-new .form-name input").fill("Accelerated")
    page.locator(".catalogue-new .form-suggestion", has_text="Accelerated Construction").click()
    form = page.locator(".catalogue-selected + .catalogue-form .card-form")
    form.wait_for(state="visible", timeout=WAIT_MS)
    # its condition is not in the books: the players judge it and type its VP at the end
    form.locator(".form-measure select").select_option(label=MEASURE_LABEL["manual"])
    screenshot(page, "objectives-01-typing-accelerated")
    form.locator(".form-save").click()
    expect(page.locator(".catalogue-message")).to_contain_text(
        "Saved the values of 'Accelerated Construction'", timeout=WAIT_MS)
    _type_objective(page, "Test: least credits", "credit", 3, "the least")
    expect(page.locator(".catalogue-objectives")).to_contain_text("3 of the box's 8")
    screenshot(page, "objectives-02-catalogue")

    # -- a 3-player game with races and objectives drawn -------------------------------
    fill_names(page, PLAYERS)
    page.locator(".setup-races input").check()
    page.locator(".race-1 select").select_option("Test race A")
    page.locator(".race-2 select").select_option("Test race B")
    page.locator(".race-3 select").select_option("Qualeen")
    page.locator(".setup-objectives input").check()
    page.click(".start-game")
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible", timeout=WAIT_MS)
    gid, shadow = _store_game(voila_server.home)
    # the three objective cards the catalogue holds are drawn, one per player (B 3:
    # "randomly draw as many Objectives as the number of players"); none is left for
    # the Qualeen's secret objective, which is asked at the end
    assert sorted(shadow.setup.objectives) == ["Accelerated Construction",
                                                "Test: least credits", "Test: most reactors"]
    assert shadow.setup.races["Cy"] == "Qualeen" and not shadow.setup.secret_objectives
    settle(page, shadow)

    # -- the game: Cy builds the only Power Reactor, the rest is discards -------------
    built = False
    while not shadow.finished:
        for p in list(shadow.state.waiting):
            if p == "Cy" and not built:
                act(page, shadow, "Cy", "reactor", "Garden", (0, 1))
                built = True
            else:
                act(page, shadow, p, "discard", "Garden")

    # -- the final table asks the secret objective: no free card in the catalogue ------
    secret = page.locator(".secret-objective-row")
    secret.wait_for(state="visible", timeout=WAIT_MS)
    assert "Secret objective of Cy (Qualeen)" in secret.inner_text()
    assert "type it on the catalogue screen" in secret.inner_text()
    screenshot(page, "objectives-03-secret-asked")
    # the Qualeen's card is typed from the physical card, then the game is opened again
    page.click(".new-game")
    _open_catalogue(page)
    _type_objective(page, "Test: claimed at the table", "manual")
    page.reload()
    page.locator(".saved-games select, .secret-objective-row").first.wait_for(
        state="visible", timeout=60_000)
    if not page.locator(".secret-objective-row").is_visible():
        page.locator(".saved-games select").select_option(index=0)
        page.click(".resume-game")
    secret = page.locator(".secret-objective-row")
    secret.wait_for(state="visible", timeout=WAIT_MS)
    secret.locator(".secret-which select").select_option("Test: claimed at the table")
    # Accelerated Construction (claimed at the table): nobody
    ac = page.locator(".manual-form .widget-vbox", has_text="Objective Accelerated Construction")
    ac.locator(".manual-who select").select_option(label="nobody")
    page.click(".manual-save")
    # the revealed card is claimed at the table: who and the VP are asked next
    claim = page.locator(".manual-form .widget-vbox",
                         has_text="Secret objective of Cy: Test: claimed at the table")
    claim.wait_for(state="visible", timeout=WAIT_MS)
    claim.locator(".manual-who select").select_option("Cy")
    claim.locator(".manual-entry-vp input").fill("6")
    screenshot(page, "objectives-04-secret-claimed")
    page.click(".manual-save")

    # -- the final table: the objectives claimed, the secret one scored ----------------
    winner = page.locator(".final-winner")
    winner.wait_for(state="visible", timeout=WAIT_MS)
    page.locator(".final details summary").first.click()
    lines = page.locator(".final-lines").inner_text()
    assert "Test: most reactors" in lines                  # Cy: the only Power Reactor
    assert "Test: least credits" in lines                  # Cy paid 1 credit for it
    assert "Test: claimed at the table (secret objective of Cy)" in lines
    _, stored = _store_game(voila_server.home)
    result = stored.score()
    objectives = result.lines[result.lines.category == "objectives"]
    assert sorted(zip(objectives.player, objectives.source, objectives.vp)) == [
        ("Cy", "Test: claimed at the table (secret objective of Cy)", 6),
        ("Cy", "Test: least credits", 3),
        ("Cy", "Test: most reactors", 4)]
    assert f"Cy wins with {int(result.table.iloc[0].total)} VP" in winner.inner_text()
    # the revealed card travels with the record
    assert "Test: claimed at the table" in [c["name"] for c in stored.to_record()["cards"]]
    screenshot(page, "objectives-05-final-table")
