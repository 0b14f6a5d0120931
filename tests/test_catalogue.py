"""The card catalogue: the shipped files, their honesty, the loader's validation,
and the player's own catalogue (save, export, import, overlays).

Honesty rule: the shipped catalogue holds only numbers the rulebooks state.  The
tests below check that every number in it comes from build_catalogue.py's FACTS
and that those equal the rules digest.  Tests never give numbers to real card
names: user-catalogue overrides are exercised on FIXTURE cards (and on a fixture
"shipped" folder where an override of shipped nulls is needed).
"""
from __future__ import annotations

import csv
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from companion import Card, Catalogue, CatalogueError, Game, RecordError, UnknownCardValues
from companion.ats import catalogue as catmod
from companion.core.paths import data_dir, user_catalogue_path

DATA = data_dir() / "among-the-stars"
SHARED_CSV = Path("/work/shared/data/among-the-stars-card-names.csv")

#: The numbers the rules digest states ("Card facts stated in the books").
DIGEST_NUMBERS = {
    "Holographic Display Area": {"cost": 2, "energy": 1, "vp": 2},
    "U-Cannon": {"cost": 2, "energy": 1, "vp": 3},
}
DIGEST_MAX = {"Command Centre": 1}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    h = tmp_path / "companion-home"
    monkeypatch.setenv("COMPANION_HOME", str(h))
    return h


def load_facts() -> dict:
    spec = importlib.util.spec_from_file_location("build_catalogue", DATA / "build_catalogue.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FACTS


def csv_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def fixture(name="Fixture: mine", **kw) -> Card:
    values = dict(types=("military",), cost=3, energy=1, vp=2, max="none", abilities=())
    values.update(kw)
    return Card(name=name, **values)


# ---------------------------------------------------------------------------
# The shipped catalogue
# ---------------------------------------------------------------------------
def test_shipped_catalogue_loads():
    cat = Catalogue.shipped()
    # + the Bureau, which R FAQ names and the card list does not (build_catalogue.BOOK_ONLY)
    assert len(cat.names("location")) == len(csv_rows(DATA / "card-names.csv")) + 1
    assert "Humareen" in cat.names("race") and "Qualeen" in cat.names("race")
    assert "Accelerated Construction" in cat.names("objective")
    # Catalogue.default() with no user file is the shipped catalogue
    assert not user_catalogue_path().exists()
    assert [c.to_dict() for c in Catalogue.default()] == [c.to_dict() for c in cat]


def test_repo_csv_is_the_shared_list():
    if not SHARED_CSV.exists():
        pytest.skip("the shared card list is not available on this machine")
    assert (DATA / "card-names.csv").read_bytes() == SHARED_CSV.read_bytes()


@pytest.mark.parametrize("csv_path", [DATA / "card-names.csv", SHARED_CSV], ids=["repo", "shared"])
def test_every_listed_card_is_present_with_its_types(csv_path):
    if not csv_path.exists():
        pytest.skip(f"{csv_path} is not available on this machine")
    cat = Catalogue.shipped()
    rows = csv_rows(csv_path)
    assert rows
    for row in rows:
        card = cat.get(row["name"])
        assert card is not None, row["name"]
        assert card.category == "location"
        assert card.name == row["name"].strip()
        types = tuple(t for t in row["types"].split("|") if t)
        assert card.types == (types or None), row["name"]


def test_honesty_every_shipped_number_comes_from_the_books():
    facts = load_facts()
    raw = yaml.safe_load((DATA / "cards.yaml").read_text(encoding="utf-8"))
    with_numbers = {}
    for entry in raw:
        for key in ("cost", "energy", "vp", "max"):
            if entry[key] is not None:
                assert entry["name"] in facts, (entry["name"], key)
                assert facts[entry["name"]][key] == entry[key], (entry["name"], key)
                with_numbers.setdefault(entry["name"], {})[key] = entry[key]
        if entry["abilities"] is not None:
            assert entry["name"] in facts, f"{entry['name']}: an ability not from the books"
            assert entry["abilities"] == facts[entry["name"]]["abilities"]
    # exactly the digest's numbers, nothing more
    expected = {n: dict(v) for n, v in DIGEST_NUMBERS.items()}
    # issue 53, R FAQ (Commercial Zone): "The Bureaus have a cost of 0."
    expected["Bureau"] = {"cost": 0}
    for n, m in DIGEST_MAX.items():
        expected.setdefault(n, {})["max"] = m
    assert with_numbers == expected
    # the capped abilities the digest states
    shipped = Catalogue.shipped()
    assert [a.get("cap") for a in shipped.get("U-Cannon").abilities] == [3]
    assert [a.get("cap") for a in shipped.get("Command Centre").abilities] == [8]
    assert shipped.get("U-Cannon").types is None          # not in the books
    assert shipped.get("Holographic Display Area").types == ("recreational",)


def test_honesty_races_and_objectives_carry_no_numbers():
    for f in ("races.yaml", "objectives.yaml"):
        for entry in yaml.safe_load((DATA / f).read_text(encoding="utf-8")):
            for key in ("cost", "energy", "vp", "max"):
                assert entry.get(key) is None, (f, entry["name"], key)
            for ab in entry.get("abilities") or []:
                for key in ("vp", "table", "flat", "every", "cap"):
                    assert ab.get(key) is None, (f, entry["name"], key)


def test_honesty_only_book_cards_can_be_built_from_the_shipped_catalogue():
    buildable = sorted(c.name for c in Catalogue.shipped()
                       if c.category == "location" and not c.unknown_for_build())
    assert buildable == sorted(DIGEST_NUMBERS)


def test_cards_yaml_is_what_build_catalogue_generates(tmp_path):
    work = tmp_path / "build"
    work.mkdir()
    shutil.copy(DATA / "build_catalogue.py", work)
    shutil.copy(DATA / "card-names.csv", work)
    run = subprocess.run([sys.executable, str(work / "build_catalogue.py")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert (work / "cards.yaml").read_text(encoding="utf-8") == \
        (DATA / "cards.yaml").read_text(encoding="utf-8"), \
        "cards.yaml differs from build_catalogue.py's output: rerun the script"


# ---------------------------------------------------------------------------
# Loader validation: errors name the file, the card and the key
# ---------------------------------------------------------------------------
GOOD = {"name": "Fixture: card", "types": ["military"], "cost": 1, "energy": 0, "vp": 1,
        "max": "none", "abilities": [{"when": "immediate", "flat": 1}]}


def _entry(**changes):
    e = dict(GOOD)
    for k, v in changes.items():
        if v is KeyError:
            e.pop(k)
        else:
            e[k] = v
    return e


BAD_ENTRIES = {
    "unknown top-level key": (_entry(colour="red"), "colour", "unknown key 'colour'"),
    "unknown ability key": (_entry(abilities=[{"when": "immediate", "flat": 1, "bonus": 2}]),
                            "abilities[0]", "unknown key 'bonus'"),
    "unknown counter": (_entry(abilities=[{"when": "end", "per": "planet", "vp": 1}]),
                        "abilities[0].per", "unknown counter 'planet'"),
    "two ability kinds": (_entry(abilities=[{"when": "end", "flat": 1, "manual": True}]),
                          "abilities[0]", "exactly one of"),
    "no ability kind": (_entry(abilities=[{"when": "end"}]), "abilities[0]", "exactly one of"),
    "ability without when": (_entry(abilities=[{"flat": 1}]), "abilities[0].when", "missing"),
    "bad when": (_entry(abilities=[{"when": "later", "flat": 1}]), "abilities[0].when",
                 "immediate, end"),
    "negative cap": (_entry(abilities=[{"when": "end", "flat": 1, "cap": -1}]),
                     "abilities[0].cap", "from 0 to 99"),
    "bad type name": (_entry(types=["scientific"]), "types", "distinct types from"),
    "three types": (_entry(types=["military", "business", "diplomatic"]), "types", "0-2"),
    "bad ability type": (_entry(abilities=[{"when": "end", "per": "adjacent_location", "vp": 1,
                                            "types": ["science"]}]),
                         "abilities[0].types", "location types"),
    "negative cost": (_entry(cost=-1), "cost", "from 0 to 99"),
    "fractional energy": (_entry(energy=1.5), "energy", "whole number"),
    "boolean vp": (_entry(vp=True), "vp", "whole number"),
    "max zero": (_entry(max=0), "max", "from 1 to 99"),
    "max word": (_entry(max="many"), "max", "'none'"),
    "non-list abilities": (_entry(abilities="none"), "abilities", "must be a list"),
    "bad category": (_entry(category="spaceship"), "category", "location, race"),
    "bad choice": (_entry(abilities=[{"when": "immediate", "choice": "vote", "pay": 1,
                                      "lose": 2}]), "abilities[0].choice", "unknown choice"),
    "choice without pay": (_entry(abilities=[{"when": "immediate", "choice": "pay_or_lose",
                                              "lose": 2}]), "abilities[0].pay", "whole number"),
    "bad condition": (_entry(abilities=[{"when": "end", "flat": 2,
                                         "if": {"nearest_to_main_reactor": True}}]),
                      "abilities[0].if", "farthest_from_main_reactor"),
    "location_within without distance": (
        _entry(abilities=[{"when": "end", "per": "location_within", "vp": 1}]),
        "abilities[0].distance", "distance"),
    "per with vp and table": (_entry(abilities=[{"when": "end", "per": "reactor", "vp": 1,
                                                 "table": {1: 1}}]),
                              "abilities[0]", "exactly one of 'vp'"),
    "key of another counter": (_entry(abilities=[{"when": "end", "per": "reactor", "vp": 1,
                                                  "distance": 2}]),
                               "abilities[0]", "unknown key 'distance'"),
}


@pytest.mark.parametrize("case", sorted(BAD_ENTRIES))
def test_loader_error_names_file_card_and_key(case, tmp_path):
    entry, key, part = BAD_ENTRIES[case]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump([dict(GOOD, name="Fixture: fine"), entry]), encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        catmod.load_yaml(path)
    e = info.value
    msg = str(e)
    assert e.file == str(path) and str(path) in msg
    assert e.card == "Fixture: card" and "card 'Fixture: card'" in msg
    assert e.key == key and f"key '{key}'" in msg
    assert part in msg, msg


def test_the_good_entry_is_good(tmp_path):
    path = tmp_path / "good.yaml"
    path.write_text(yaml.safe_dump([GOOD]), encoding="utf-8")
    [card] = catmod.load_yaml(path)
    assert card.name == "Fixture: card" and card.abilities == ({"when": "immediate", "flat": 1},)


def test_loader_duplicate_names(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text(yaml.safe_dump([GOOD, dict(GOOD, name="fixture: CARD ")]), encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        catmod.load_yaml(path)
    assert info.value.file == str(path)
    assert info.value.card and info.value.card.lower() == "fixture: card"
    assert "defined twice" in str(info.value)


@pytest.mark.parametrize("text,part", [
    ("- name: Fixture: card\n  cost: [1\n", "not valid YAML at line"),
    ("- {name: 'Fixture: card', cost: 1\n", "not valid YAML"),
    ("name: Fixture card\n", "must be a list of entries"),
    ("- just a string\n", "entry 0 must be a mapping"),
    ("- cost: 1\n", "needs a non-empty 'name'"),
])
def test_loader_malformed_files(tmp_path, text, part):
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        catmod.load_yaml(path)
    assert info.value.file == str(path) and str(path) in str(info.value)
    assert part in str(info.value)


def test_loader_missing_file(tmp_path):
    with pytest.raises(CatalogueError) as info:
        catmod.load_yaml(tmp_path / "nope.yaml")
    assert "cannot read" in str(info.value)


def test_an_empty_file_is_an_empty_catalogue(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing yet\n", encoding="utf-8")
    assert catmod.load_yaml(path) == []


def test_record_cards_are_validated_like_the_catalogue():
    with pytest.raises(RecordError) as info:
        Game({"players": ["Sandra", "George"]}, cards=[_entry(cost=-2)])
    msg = str(info.value)
    assert "record cards" in msg and "card 'Fixture: card'" in msg and "key 'cost'" in msg


def test_card_to_dict_round_trips(tmp_path):
    card = fixture(abilities=({"when": "end", "per": "adjacent_location", "types": ["business"],
                               "vp": 1, "cap": 4},))
    path = tmp_path / "one.yaml"
    path.write_text(catmod.dump_yaml([card]), encoding="utf-8")
    [back] = catmod.load_yaml(path)
    assert back == card and back.to_dict() == card.to_dict()


# ---------------------------------------------------------------------------
# The player's own catalogue
# ---------------------------------------------------------------------------
def test_save_user_card_is_seen_by_default(home):
    path = catmod.save_user_card(fixture())
    assert path == home / "my-cards.yaml" and path.exists()
    assert Catalogue.default().get("fixture: MINE") == fixture()
    assert Catalogue.shipped().get("Fixture: mine") is None
    # the shipped cards are still there
    assert Catalogue.default().get("Garden") == Catalogue.shipped().get("Garden")


def test_saving_again_replaces_the_card_and_is_seen_at_once():
    catmod.save_user_card(fixture(vp=1))
    assert Catalogue.default().get("Fixture: mine").vp == 1
    catmod.save_user_card(fixture(vp=2))        # same file size, same second
    assert Catalogue.default().get("Fixture: mine").vp == 2
    catmod.save_user_card(fixture(name="Fixture: other"))
    assert [c.name for c in catmod.load_user_cards()] == ["Fixture: mine", "Fixture: other"]


@pytest.fixture
def fixture_shipped(tmp_path, monkeypatch) -> Path:
    """A stand-in for the shipped folder, with a card whose values are null."""
    root = tmp_path / "shipped-data"
    folder = root / "among-the-stars"
    folder.mkdir(parents=True)
    (folder / "cards.yaml").write_text(yaml.safe_dump([{
        "name": "Fixture: shipped", "types": ["business"], "cost": None, "energy": None,
        "vp": None, "max": None, "abilities": None, "set": "base"}]), encoding="utf-8")
    for other in catmod.SHIPPED_FILES[1:]:          # races, objectives, conflicts
        (folder / other).write_text("[]\n", encoding="utf-8")
    monkeypatch.setattr(catmod, "data_dir", lambda: root)
    return folder


def test_user_card_overrides_shipped_null_values(fixture_shipped):
    shipped = Catalogue.shipped().get("Fixture: shipped")
    assert shipped.unknown_all() == ["cost", "energy", "vp", "abilities", "max"]
    g = Game({"players": ["Sandra", "George"]})
    with pytest.raises(UnknownCardValues) as info:
        g.push({"player": "Sandra", "do": "build", "card": "Fixture: shipped", "at": [0, 1]})
    assert info.value.fields == ["cost", "energy", "vp", "abilities"]
    typed = Card(name="Fixture: shipped", types=("business",), cost=1, energy=0, vp=3, max=2,
                 abilities=())
    catmod.save_user_card(typed)
    assert Catalogue.default().get("Fixture: shipped") == typed
    assert Catalogue.shipped().get("Fixture: shipped").cost is None
    g = Game({"players": ["Sandra", "George"]})
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: shipped", "at": [0, 1]})
    assert g.state.players["Sandra"].vp == 3
    # the record embeds the definition, so it replays without the user file
    rec = g.to_record()
    assert [c for c in rec["cards"] if c["name"] == "Fixture: shipped"][0]["vp"] == 3
    user_catalogue_path().unlink()
    assert Game.from_record(rec).state.players["Sandra"].vp == 3


def test_export_then_import_into_a_fresh_home_round_trips(tmp_path, monkeypatch):
    cards = [fixture(), fixture(name="Fixture: ender", types=("diplomatic", "business"), max=1,
                                abilities=({"when": "end", "per": "station_location",
                                            "types": ["business"], "include_self": False,
                                            "vp": 1, "cap": 5},))]
    for c in cards:
        catmod.save_user_card(c)
    out = tmp_path / "export.yaml"
    assert catmod.export_user_catalogue(out) == out
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "fresh-home"))
    assert catmod.load_user_cards() == []
    assert catmod.import_user_catalogue(out) == ["Fixture: ender", "Fixture: mine"]
    assert catmod.load_user_cards() == sorted(cards, key=lambda c: c.name)
    assert [c.to_dict() for c in catmod.load_user_cards()] == \
        [c.to_dict() for c in sorted(cards, key=lambda c: c.name)]
    assert Catalogue.default().get("Fixture: ender") == cards[1]


def test_import_merges_and_the_imported_card_wins(tmp_path):
    catmod.save_user_card(fixture(vp=1))
    catmod.save_user_card(fixture(name="Fixture: kept"))
    src = tmp_path / "incoming.yaml"
    src.write_text(catmod.dump_yaml([fixture(vp=5)]), encoding="utf-8")
    assert catmod.import_user_catalogue(src) == ["Fixture: mine"]
    got = {c.name: c for c in catmod.load_user_cards()}
    assert got["Fixture: mine"].vp == 5 and "Fixture: kept" in got


@pytest.mark.parametrize("text", [
    "- name: Fixture: x\n  cost: [\n",
    "- {name: 'Fixture: x', cost: -3}\n",
    "- {name: 'Fixture: x', abilities: [{when: end, per: planets, vp: 1}]}\n",
    "- {name: 'Fixture: x'}\n- {name: 'Fixture: X'}\n",
])
def test_importing_a_malformed_file_changes_nothing(tmp_path, text):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    # with no user file yet
    with pytest.raises(CatalogueError):
        catmod.import_user_catalogue(bad)
    assert not user_catalogue_path().exists()
    # with a user file
    catmod.save_user_card(fixture())
    before = user_catalogue_path().read_bytes()
    with pytest.raises(CatalogueError) as info:
        catmod.import_user_catalogue(bad)
    assert str(bad) in str(info.value)
    assert user_catalogue_path().read_bytes() == before
    assert not list(user_catalogue_path().parent.glob("*.tmp"))


def test_a_malformed_user_file_is_reported_by_default(home):
    home.mkdir(parents=True, exist_ok=True)
    (home / "my-cards.yaml").write_text("- {name: 'Fixture: x', max: 0}\n", encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        Catalogue.default()
    assert "my-cards.yaml" in str(info.value) and "key 'max'" in str(info.value)


def test_record_cards_win_over_the_user_catalogue():
    catmod.save_user_card(fixture(vp=1, cost=0, energy=0))
    record_def = fixture(vp=5, cost=0, energy=0).to_dict()
    g = Game({"players": ["Sandra", "George"]}, cards=[record_def])
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: mine", "at": [0, 1]})
    assert g.state.players["Sandra"].vp == 5
    rec = g.to_record()
    assert [c["vp"] for c in rec["cards"] if c["name"] == "Fixture: mine"] == [5]
    assert Game.from_record(rec).state.players["Sandra"].vp == 5
    # and with no `cards` in the record the user catalogue is used
    g2 = Game({"players": ["Sandra", "George"]})
    g2.push({"player": "Sandra", "do": "build", "card": "Fixture: mine", "at": [0, 1]})
    assert g2.state.players["Sandra"].vp == 1


def test_a_record_using_user_cards_is_complete_on_its_own(tmp_path, monkeypatch):
    catmod.save_user_card(fixture(cost=0, energy=0, vp=4))
    g = Game({"players": ["Sandra", "George"]})
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: mine", "at": [0, 1]})
    rec = g.to_record()
    assert "Fixture: mine" in [c["name"] for c in rec["cards"]]
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "another-machine"))
    assert Catalogue.default().get("Fixture: mine") is None
    assert Game.from_record(rec).state.players["Sandra"].vp == 4


def test_exported_dicts_do_not_alias_the_catalogue():
    """Mutating a card's to_dict() (or a record's `cards`) must not change the
    process-wide (cached) catalogue, nor may a game share the caller's lists."""
    d = Catalogue.default().get("Restaurant").to_dict()
    d["abilities"][0]["types"].append("military")
    assert Catalogue.default().get("Restaurant").abilities[0]["types"] == ["recreational"]
    g = Game({"players": ["Sandra", "George"]})
    g.push({"player": "Sandra", "do": "discard", "card": "Restaurant"})
    rec = g.to_record()
    [r] = [c for c in rec["cards"] if c["name"] == "Restaurant"]
    r["abilities"][0]["types"].clear()
    assert Catalogue.shipped().get("Restaurant").abilities[0]["types"] == ["recreational"]
    assert g.card("Restaurant").abilities[0]["types"] == ["recreational"]
    mine = {"name": "Fixture: mine", "types": ["military"], "cost": 0, "energy": 0, "vp": 0,
            "max": "none", "abilities": [{"when": "end", "per": "adjacent_location",
                                          "types": ["military"], "vp": 1}]}
    g = Game({"players": ["Sandra", "George"]}, cards=[mine])
    mine["abilities"][0]["types"].append("business")
    assert g.card("Fixture: mine").abilities[0]["types"] == ["military"]
