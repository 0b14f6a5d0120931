"""Issue 53: every shipped value says where it comes from (data/README.md).

An entry of data/among-the-stars/*.yaml that ships any value (types, cost, energy, VP,
MAX, abilities, copies, an objective's measure, a race's secret objective ...) has a
``source`` made of the kinds data/README.md lists; the README's list and this test's
agree; the public card list (``list``) gives names, types, sets, kinds and copies but
no printed number, so an entry with a number names a book too.

The books state the types of two listed cards only: B FAQ "Restaurant: Does it count
itself as a Recreational location for the bonus it gives?" and R FAQ "If Residential
Area is built adjacent to a Hotel which is both a Business and a Recreational
location"; every other listed card's types come from the list, which its ``source``
says.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "among-the-stars"
README = ROOT / "data" / "README.md"

#: the kinds of ``source`` (data/README.md lists the same, exactly)
KINDS = {"list", "B p.3 example", "B p.7 card anatomy", "B FAQ", "B story", "B 7",
         "R p.3 example", "R FAQ", "derived from B FAQ (...)"}
#: keys that say what an entry is, not a value it ships
NOT_VALUES = {"name", "category", "source", "notes"}
#: values the public card list gives (everything else is a printed number or a rule)
LIST_GIVES = {"types", "set", "kind", "copies"}
BOOK_TYPES = {"Restaurant", "Hotel"}


def _entries() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(DATA.glob("*.yaml")):
        for e in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            out.append((path.name, e))
    return out


def _parts(source: str) -> list[str]:
    return [p.strip() for p in source.split("; ")]


def _kind(part: str) -> str | None:
    if part in KINDS:
        return part
    m = re.fullmatch(r"(derived from [BR] FAQ) \((.+)\)", part)
    if m and m.group(2).strip(' "'):
        return f"{m.group(1)} (...)"
    return None


def test_the_readme_lists_the_same_kinds_as_this_test():
    text = README.read_text(encoding="utf-8")
    block = text.split("The kinds (`source` values, exactly):", 1)[1].split("\n\n", 2)[1]
    listed = re.findall(r"^- `([^`]+)`", block, flags=re.M)
    assert set(listed) == KINDS and len(listed) == len(KINDS)


def test_every_shipped_value_has_a_documented_source():
    entries = _entries()
    assert len(entries) > 90                         # cards, races, objectives, conflicts
    for file, e in entries:
        values = {k for k, v in e.items() if k not in NOT_VALUES and v is not None}
        if not values:
            continue
        source = e.get("source")
        assert isinstance(source, str) and source, f"{file}: {e['name']} ships " \
            f"{sorted(values)} with no source"
        for part in _parts(source):
            assert _kind(part) is not None, f"{file}: {e['name']}: source part {part!r} " \
                "is not a kind data/README.md lists"
        books = [p for p in _parts(source) if p != "list"]
        if values - LIST_GIVES:
            # the list gives no printed number and no ability: a book says them
            assert books, f"{file}: {e['name']} ships {sorted(values - LIST_GIVES)} " \
                "from the card list, which gives no printed number"


def test_types_from_the_card_list_say_list():
    rows = {r["name"]: r for r in csv.DictReader(
        (DATA / "card-names.csv").open(encoding="utf-8", newline=""))}
    cards = {e["name"]: e for f, e in _entries() if f == "cards.yaml"}
    # + the Bureau: R FAQ names it, the list does not (build_catalogue.BOOK_ONLY)
    assert set(cards) == set(rows) | {"Bureau"}
    assert cards["Bureau"]["source"] == "R FAQ"
    for name, e in cards.items():
        if name == "Bureau":
            continue
        from_list = "list" in rows[name]["source"].split("+")
        assert ("list" in _parts(e["source"])) == from_list, name
        if e.get("types") and name not in BOOK_TYPES:
            assert "list" in _parts(e["source"]), f"{name}: its types come from the list"
    # the five the issue names: a book for their numbers or abilities, the list for types
    for name in ("Holographic Display Area", "Command Centre", "Sports Arena",
                 "School of Alien Cultures", "Communications Beacon"):
        assert _parts(cards[name]["source"])[-1] == "list", name
        assert len(_parts(cards[name]["source"])) == 2, name


def test_sports_arena_is_derived_from_one_faq_example():
    # B FAQ, Sports Arena: "No. You count only the remaining years. For example, if you
    # play the card during the 2nd year of the game, you will get a bonus of +2."
    arena = next(e for f, e in _entries() if e["name"] == "Sports Arena")
    book = _parts(arena["source"])[0]
    assert _kind(book) == "derived from B FAQ (...)"
    assert "during the 2nd year of the game, you will get a bonus of +2" in book
    (ability,) = arena["abilities"]
    assert ability["when"] == "immediate" and ability["note"].startswith("derived from")


def test_the_qualeen_ruling_is_said_to_be_a_ruling():
    qualeen = next(e for f, e in _entries() if e["name"] == "Qualeen")
    assert _kind(_parts(qualeen["source"])[0]) == "derived from B FAQ (...)"
    assert "Our ruling" in qualeen["notes"] and "docs/rules.md" in qualeen["notes"]


@pytest.mark.parametrize("source,ok", [
    ("list", True), ("B FAQ; list", True), ("derived from B FAQ (\"+2\"); list", True),
    ("rulebook", False), ("B FAQ;list", False), ("", False), ("derived from B FAQ ()", False),
])
def test_the_kinds_are_read_strictly(source, ok):
    assert all(_kind(p) is not None for p in _parts(source)) == ok
