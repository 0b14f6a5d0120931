"""Typed abilities (issue 13): parsed once when a card is made, read by attribute,
written back exactly as they were written (records and catalogue files keep their
bytes).  Numbers here are invented for fixture cards only."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion import Game
from companion.ats import abilities as abl
from companion.ats.catalogue import (Card, Catalogue, dump_yaml, load_yaml, merge_card,
                                     parse_card)
from companion.ats.station import LOCATION, Placed, Station
from companion.ats.abilitykinds import ability_unknowns
from companion.ats.vocabulary import Ability, Condition
from companion.core.errors import UnknownCardValues

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "data" / "samples").glob("*.json"))


def test_every_shipped_ability_is_typed_and_frozen():
    seen = 0
    for card in Catalogue.shipped():
        for ab in card.abilities or ():
            assert isinstance(ab, Ability)
            assert ab.kind is not None
            with pytest.raises(dataclasses.FrozenInstanceError):
                ab.vp = 1          # type: ignore[misc]
            seen += 1
    assert seen


def test_every_shipped_card_writes_back_what_it_read():
    cards = list(Catalogue.shipped())
    text = dump_yaml(cards)
    for card in cards:
        again = parse_card(card.to_dict())
        assert again == card
        assert json.dumps(again.to_dict()) == json.dumps(card.to_dict())
    assert dump_yaml([parse_card(c.to_dict()) for c in cards]) == text


@pytest.mark.parametrize("path", [p for p in SAMPLES
                                  if json.loads(p.read_text())["format"] == Game.format],
                         ids=lambda p: p.name)
def test_a_sample_records_cards_are_written_back_byte_for_byte(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    written = Game.from_record(record).to_record()
    assert json.dumps(written["cards"]) == json.dumps(record["cards"])


def test_a_catalogue_file_round_trips_with_its_key_order(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("""
- name: "Fixture: odd"
  category: race
  abilities:
  - note: printed text
    per: distinct_type
    when: end
    table: {"1": 1, "3": 4, 2: 2}
    cap: null
  - flat: 2
    if: {than: [military], more: [business]}
    when: end
""", encoding="utf-8")
    cards = load_yaml(f)
    text = dump_yaml(cards)
    assert text.index("note: printed text") < text.index("per: distinct_type") < \
        text.index("when: end")
    g = tmp_path / "again.yaml"
    g.write_text(text, encoding="utf-8")
    assert dump_yaml(load_yaml(g)) == text
    table, flat = cards[0].abilities
    assert table.kind == "per" and table.by_table and table.per == "distinct_type"
    assert dict(table.table) == {1: 1, 3: 4, 2: 2}            # counts written as text: whole
    assert table.has_cap and table.cap is None and table.note == "printed text"
    assert flat.kind == "flat" and flat.flat == 2
    assert flat.condition == Condition("more", more=("business",), than=("military",))


def test_values_not_known_stay_none_and_are_named():
    ab = Ability.from_dict({"when": None, "per": "credit", "every": None, "vp": None,
                            "cap": None})
    assert (ab.when, ab.vp, ab.every, ab.cap) == (None, None, None, None)
    assert ability_unknowns(ab) == ["when", "cap", "vp per unit", "every"]
    assert ability_unknowns(ab.to_dict()) == ability_unknowns(ab)
    st = Station()
    with pytest.raises(UnknownCardValues):
        abl.value(ab, abl.Context(st, None, 6, 1, "Fixture: unknown"))


def test_defaults_are_what_the_vocabulary_says():
    per = Ability.from_dict({"when": "end", "per": "station_location", "vp": 1})
    assert per.every == 1 and not per.written("every") and per.include_self
    assert per.types is None and not per.has_cap
    ships = Ability.from_dict({"when": "immediate", "spaceships": 2})
    assert ships.kind == "spaceships" and ships.target == "other" and ships.spaceships == 2
    school = Ability.from_dict({"when": "immediate", "choice": "pay_or_lose", "pay": 1,
                                "lose": 2})
    assert (school.kind, school.pay, school.lose) == ("choice", 1, 2)
    assert Ability.from_dict({"when": "end", "manual": True}).kind == "manual"


def test_an_ability_still_reads_as_the_mapping_it_was_written_as():
    written = {"when": "immediate", "per": "adjacent_location", "types": ["military"], "vp": 1}
    ab = Ability.from_dict(written)
    assert ab == written and written == ab and dict(ab) == written
    assert ab["types"] == ["military"] and ab.get("cap") is None and "per" in ab
    ab["types"].append("business")               # a copy: the ability does not change
    assert ab.types == ("military",) and ab.to_dict() == written


def test_a_card_made_with_written_abilities_holds_typed_ones():
    card = Card(name="Fixture: made", abilities=({"when": "end", "flat": 3},))
    assert isinstance(card.abilities[0], Ability) and card.abilities[0].flat == 3
    assert card == Card(name="Fixture: made", abilities=(Ability.from_dict(
        {"when": "end", "flat": 3}),))
    assert card.to_dict()["abilities"] == [{"when": "end", "flat": 3}]
    changed = dataclasses.replace(card, abilities=({"when": "end", "flat": 4},))
    assert changed.abilities[0].flat == 4


def test_merging_fills_an_abilitys_nulls_and_keeps_it_typed():
    known = parse_card({"name": "Fixture: r", "category": "race",
                        "abilities": [{"when": "end", "per": "reactor", "vp": 2}]})
    embedded = parse_card({"name": "Fixture: r", "category": "race",
                           "abilities": [{"when": "end", "per": "reactor", "vp": None}]})
    got = merge_card(known, embedded).abilities[0]
    assert isinstance(got, Ability) and got.vp == 2


def test_an_objectives_measure_is_parsed_once_with_the_card():
    obj = parse_card({"name": "Fixture: most military", "category": "objective", "vp": 3,
                      "most": {"per": "station_location", "types": ["military"]}})
    assert isinstance(obj.measure, Ability) and obj.measure.types == ("military",)
    st = Station()
    st.place((0, 1), Placed(LOCATION, "Fixture: m", ("military",), cost=1))
    assert abl.count(obj.measure, abl.Context(st, None, 0, 1, obj.name)) == 1
