"""Plays to other loggers (issue 16, companion/plays_export.py): BG Stats' play
file read back field by field, its "create play" link and QR code, and
BoardGameGeek's play XML checked against the documented elements and attributes.

Format sources (see companion/plays_export.py): a BG Stats play file
(pastebin.com/iDbHyBui), the bgsplay writer github.com/ctuncan/bga_bgstats, and
BoardGameGeek's XML API 2 plays as in the test data of the arnak crate (docs.rs)
and github.com/lcosmin/boardgamegeek.

Every expected value comes from the engines' own score of the fixture games of
tests/test_history.py (``_games()[k].score().to_json()``), not from the tables the
exporter reads.
"""
from __future__ import annotations

import functools
import json
import re
import time
import uuid
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.table import history, playtime, plays_export
from companion.core.errors import CompanionError
from companion.ats.kind import REVIVAL
from companion.table.store import Store

from test_history import A, _ats, _games, build, records

T0 = 1_767_900_000.0                           # 2026-01-08 19:20:00 UTC
H1 = "<b>&\"Ann'</b>"                          # hostile names: markup, quotes, CDATA end
H2 = ']]></comments><x y="1">'

# issue 22: the keys every play of a real BG Stats export has (tests/test_exports_real_readers.py
# checks them against the stored real export); locationRefId only with a location
PLAY_KEYS = {"uuid", "modificationDate", "entryDate", "playDate", "usesTeams", "durationMin",
             "ignored", "manualWinner", "rounds", "bggId", "importPlayId", "gameRefId", "board",
             "rating", "nemestatsId", "scoringSetting", "playImages", "comments",
             "expansionPlays", "playerScores"}
SCORE_KEYS = {"playerRefId", "score", "winner", "rank", "seatOrder", "startPlayer", "role",
              "newPlayer"}
GAME_KEYS = {"id", "uuid", "name", "modificationDate", "cooperative", "highestWins", "noPoints",
             "usesTeams", "urlThumb", "urlImage", "bggName", "bggYear", "bggId", "designers",
             "isBaseGame", "isExpansion", "rating", "minPlayerCount", "maxPlayerCount",
             "minPlayTime", "maxPlayTime", "minAge"}
FINISHED = ("G1", "G2", "G3", "G4", "S1", "S2", "H")


@functools.lru_cache(maxsize=None)
def _hostile():
    """A shared victory of two hostile names: each builds A in year 1 turn 1 (37 VP each)."""
    return _ats([H1, H2], {H1: [build(A)], H2: [build(A)]})


def engine(k: str) -> dict:
    return (_hostile() if k == "H" else _games()[k]).score().to_json()


def setup_players(k: str) -> list[str]:
    return [H1, H2] if k == "H" else records()[k]["setup"]["players"]


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """The files write local time (issue 22): these tests read it in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    s = Store(path=tmp_path / "games.sqlite")
    ids = {}
    for k, rec in records().items():
        ids[k] = s.create(rec, title=k)
        time.sleep(0.002)
    ids["H"] = s.create(json.loads(json.dumps(_hostile().to_record())), title="H")
    # G4: a timed play (70 min) at a location, Dan new; G1 played with Revival (declared)
    m = playtime.stop(playtime.start({}, now=T0), now=T0 + 70 * 60)
    history.set_play_details(s, ids["G4"], playtime.with_details(
        m, location="Ann's <kitchen>", notes="first game for Dan", new_players=["Dan"]))
    history.set_play_details(s, ids["G1"], {"expansions": ["Revival"]})
    yield s, ids
    s.close()


def _bgstats(s, tmp_path, **kw) -> dict:
    path = tmp_path / "plays.bgsplay.json"
    n = plays_export.write_bgstats(s, path, **kw)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert n == len(doc["plays"])
    return doc


def _scoresheet(comments: str) -> list[str]:
    return comments.split("Scoresheet:\n", 1)[1].splitlines() if "Scoresheet:\n" in comments \
        else []


# ---------------------------------------------------------------------------
# BG Stats: the play file, read back
# ---------------------------------------------------------------------------
def test_bgstats_file_has_exactly_the_documented_fields(store, tmp_path):
    s, ids = store
    doc = _bgstats(s, tmp_path, bgg_ids={})
    assert set(doc) == {"about", "players", "locations", "games", "plays", "userInfo"}
    assert "Board Game Stats" in doc["about"]
    for p in doc["players"]:
        assert set(p) == {"id", "uuid", "name", "isAnonymous", "modificationDate"}
        uuid.UUID(p["uuid"])
    assert len({p["id"] for p in doc["players"]}) == len(doc["players"])
    for g in doc["games"]:
        assert set(g) == GAME_KEYS and g["bggId"] == 0   # BGG ids are never guessed
        assert g["highestWins"] is True and g["noPoints"] is False
    assert {(g["name"], g["isExpansion"], g["isBaseGame"]) for g in doc["games"]} == {
        ("Among the Stars", 0, 1), ("Small Star Empires", 0, 1), (REVIVAL, 1, 0)}
    assert doc["locations"] == [{"id": 1, "uuid": doc["locations"][0]["uuid"],
                                 "name": "Ann's <kitchen>",
                                 "modificationDate": doc["locations"][0]["modificationDate"]}]
    for play in doc["plays"]:
        assert set(play) - {"locationRefId"} == PLAY_KEYS
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
        for ps in play["playerScores"]:
            assert set(ps) == SCORE_KEYS
            assert isinstance(ps["score"], str)


def test_bgstats_file_finds_every_play_player_score_winner_seat_duration_and_row(store,
                                                                                 tmp_path):
    s, ids = store
    doc = _bgstats(s, tmp_path, bgg_ids={})
    names = {p["id"]: p["name"] for p in doc["players"]}
    games = {g["id"]: g["name"] for g in doc["games"]}
    by_uuid = {p["uuid"]: p for p in doc["plays"]}
    # every finished game is one play (G5, in progress, is not); nothing else
    assert len(doc["plays"]) == len(FINISHED)
    everyone = set()
    for k in FINISHED:
        play = by_uuid[plays_export._uid("play", ids[k])]
        want = engine(k)
        seats = setup_players(k)
        everyone |= set(seats)
        assert games[play["gameRefId"]] == ("Small Star Empires" if k.startswith("S")
                                            else "Among the Stars")
        got = {names[ps["playerRefId"]]: ps for ps in play["playerScores"]}
        assert list(got) == seats                           # in seat order
        for p in want["players"]:
            ps = got[p["player"]]
            assert ps["score"] == str(p["total"])
            assert ps["rank"] == p["rank"]
            assert ps["winner"] is (p["player"] in want["winners"])
            assert ps["seatOrder"] == seats.index(p["player"]) + 1
        # the breakdown: one scoresheet row per category, then the totals
        rows = _scoresheet(play["comments"])
        for cat in want["players"][0]["breakdown"]:
            assert f"{cat.replace('_', ' ')}: " + ", ".join(
                f"{p} {next(q for q in want['players'] if q['player'] == p)['breakdown'][cat]}"
                for p in seats) in rows
        assert rows[-1] == "total: " + ", ".join(
            f"{p} {next(q for q in want['players'] if q['player'] == p)['total']}"
            for p in seats)
        # the tiebreak sentence, when a tiebreak decided the game
        if want["decided_by"] != "vp":
            assert play["comments"].startswith(want["explanation"])
        else:
            assert want["explanation"] not in play["comments"]
        # duration: only G4 was timed
        assert play["durationMin"] == (70 if k == "G4" else 0)
    assert set(names.values()) == everyone


def test_bgstats_roles_start_player_new_player_location_and_revival(store, tmp_path):
    s, ids = store
    doc = _bgstats(s, tmp_path, bgg_ids={})
    names = {p["id"]: p["name"] for p in doc["players"]}
    games = {g["id"]: g for g in doc["games"]}
    by_uuid = {p["uuid"]: p for p in doc["plays"]}

    def play(k):
        return by_uuid[plays_export._uid("play", ids[k])]

    def scores(k):
        return {names[ps["playerRefId"]]: ps for ps in play(k)["playerScores"]}
    # role: the race in Among the Stars (G1: Ann Beta, Bea Alpha), none without one
    assert {p: ps["role"] for p, ps in scores("G1").items()} == \
        {"Ann": "Fixture: race Beta", "Bea": "Fixture: race Alpha"}
    assert {p: ps["role"] for p, ps in scores("G3").items()} == {"Bea": "", "Cid": ""}
    # the colour in Small Star Empires (the default colours, by name); seat 1 starts
    assert {p: (ps["role"], ps["startPlayer"]) for p, ps in scores("S1").items()} == \
        {"Ann": ("yellow", True), "Bob": ("purple", False)}
    assert not any(ps["startPlayer"] for ps in scores("G1").values())   # simultaneous play
    # G4: Dan is new, the location and the notes
    assert {p: ps["newPlayer"] for p, ps in scores("G4").items()} == \
        {"Ann": False, "Bea": False, "Dan": True}
    # issue 22: "locationRefId is 0 when there is no location, where real files leave it out"
    assert play("G4")["locationRefId"] == 1 and "locationRefId" not in play("G1")
    assert "first game for Dan" in play("G4")["comments"]
    assert play("G4")["playDate"] == "2026-01-08 19:20:00"   # local time (TZ=UTC), the timer
    # Revival as an expansion play of G1 only
    (exp,) = play("G1")["expansionPlays"]
    assert games[exp["gameRefId"]]["name"] == REVIVAL and games[exp["gameRefId"]]["isExpansion"]
    assert all(play(k)["expansionPlays"] == [] for k in FINISHED if k != "G1")


def test_bgstats_bgg_ids_appear_only_once_set(store, tmp_path):
    s, ids = store
    doc = _bgstats(s, tmp_path, bgg_ids={"Among the Stars": 21, REVIVAL: 22,
                                         "Small Star Empires": 23})
    assert {g["name"]: g["bggId"] for g in doc["games"]} == {
        "Among the Stars": 21, REVIVAL: 22, "Small Star Empires": 23}
    g1 = next(p for p in doc["plays"] if p["uuid"] == plays_export._uid("play", ids["G1"]))
    assert g1["expansionPlays"][0]["bggId"] == 22
    # from the settings file in the data folder: none until the player sets one
    assert plays_export.load_settings()["bgg_ids"] == {g: None for g in plays_export.GAMES}
    plays_export.save_bgg_ids({"Small Star Empires": "23"})
    doc = _bgstats(s, tmp_path)
    assert {g["name"]: g["bggId"] for g in doc["games"]} == {      # 0: not set (issue 22)
        "Among the Stars": 0, REVIVAL: 0, "Small Star Empires": 23}


def test_bgstats_hostile_names_round_trip(store, tmp_path):
    s, ids = store
    path = tmp_path / "plays.json"
    plays_export.write_bgstats(s, path, bgg_ids={})
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert {H1, H2} <= {p["name"] for p in doc["players"]}
    play = next(p for p in doc["plays"] if p["uuid"] == plays_export._uid("play", ids["H"]))
    assert play["comments"].startswith(engine("H")["explanation"])


def test_the_same_play_keeps_its_uuid_from_one_export_to_the_next(store, tmp_path):
    s, ids = store
    a = _bgstats(s, tmp_path, bgg_ids={})
    b = _bgstats(s, tmp_path, bgg_ids={})
    assert [p["uuid"] for p in a["plays"]] == [p["uuid"] for p in b["plays"]]
    assert [p["uuid"] for p in a["players"]] == [p["uuid"] for p in b["players"]]


# ---------------------------------------------------------------------------
# BG Stats: the "create play" link and its QR code
# ---------------------------------------------------------------------------
def test_create_play_link_carries_the_play_as_url_encoded_json(store):
    s, ids = store
    link = plays_export.play_link(s, ids["G4"], bgg_ids={"Among the Stars": 21})
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == plays_export.CREATE_PLAY_URL
    (data,) = parse_qs(parts.query)["data"]
    play = json.loads(data)
    want = engine("G4")
    assert play["game"] == {"name": "Among the Stars", "sourceGameId": "among-the-stars/1",
                            "highestWins": True, "noPoints": False, "bggId": 21}
    assert play["sourceName"] == plays_export.SOURCE_NAME and play["sourcePlayId"] == ids["G4"]
    assert (play["durationMin"], play["location"], play["playDate"]) == \
        (70, "Ann's <kitchen>", "2026-01-08 19:20:00")
    assert [(p["name"], p["score"], p["winner"], p["seatOrder"], p["newPlayer"])
            for p in play["players"]] == [
        (q["player"], str(q["total"]), q["player"] in want["winners"],
         setup_players("G4").index(q["player"]) + 1, q["player"] == "Dan")
        for q in sorted(want["players"], key=lambda q: setup_players("G4").index(q["player"]))]
    assert play["comments"].startswith(want["explanation"])
    # no BGG id set: none in the link
    assert "bggId" not in json.loads(parse_qs(urlsplit(plays_export.play_link(
        s, ids["G4"], bgg_ids={})).query)["data"][0])["game"]


def test_qr_code_of_the_link_is_svg(store):
    s, ids = store
    link = plays_export.play_link(s, ids["H"], bgg_ids={})
    svg = plays_export.qr_svg(link)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert plays_export.qr_svg("x" * 10_000) is None      # too long for any QR code


# ---------------------------------------------------------------------------
# BoardGameGeek: the play XML
# ---------------------------------------------------------------------------
def test_bgg_xml_has_the_documented_elements_and_attributes(store, tmp_path):
    s, ids = store
    path = tmp_path / "plays.xml"
    n = plays_export.write_bgg(s, path, finished_only=False, bgg_ids={})
    text = path.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>')
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "plays" and len(root) == n == len(FINISHED) + 1     # and G5
    for play in root:
        assert play.tag == "play"
        assert set(play.attrib) == {"id", "date", "quantity", "length", "incomplete",
                                    "nowinstats", "location"}
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", play.get("date"))
        assert [c.tag for c in play] in (["item", "comments", "players"], ["item", "players"])
        item = play.find("item")
        assert set(item.attrib) == {"name", "objecttype"}     # no objectid while not set
        assert item.get("objecttype") == "thing"
        for p in play.find("players"):
            assert p.tag == "player"
            assert set(p.attrib) == {"username", "userid", "name", "startposition", "color",
                                     "score", "new", "rating", "win"}
    plays = [(tuple(p.get("name") for p in play.find("players")), play) for play in root]
    # every finished play: scores, winners, seats, colours as the engine says
    for k in FINISHED:
        want = engine(k)
        seats = setup_players(k)
        matches = [pl for key, pl in plays if key == tuple(seats)
                   and pl.get("incomplete") == "0"
                   and [p.get("score") for p in pl.find("players")] ==
                   [str(next(q for q in want["players"] if q["player"] == n)["total"])
                    for n in seats]]
        assert len(matches) == 1, k
        pl = matches[0]
        assert [p.get("win") for p in pl.find("players")] == \
            ["1" if n in want["winners"] else "0" for n in seats]
        assert [p.get("startposition") for p in pl.find("players")] == \
            [str(i) for i in range(1, len(seats) + 1)]
        assert pl.find("item").get("name") == ("Small Star Empires" if k.startswith("S")
                                               else "Among the Stars")
    g4 = next(pl for key, pl in plays if key == ("Ann", "Bea", "Dan"))
    assert (g4.get("length"), g4.get("location")) == ("70", "Ann's <kitchen>")
    assert [p.get("new") for p in g4.find("players")] == ["0", "0", "1"]
    assert g4.find("comments").text.startswith(engine("G4")["explanation"])
    s1 = next(pl for key, pl in plays if key == ("Ann", "Bob")
              and pl.find("players")[0].get("win") == "1")
    assert [p.get("color") for p in s1.find("players")] == ["yellow", "purple"]
    g1 = next(pl for key, pl in plays if key == ("Ann", "Bea") and pl.find("comments") is not None
              and "Expansions" in pl.find("comments").text)
    assert [p.get("color") for p in g1.find("players")] == \
        ["Fixture: race Beta", "Fixture: race Alpha"]
    assert "Expansions: " + REVIVAL in g1.find("comments").text
    # the game in progress is incomplete, with no scores to claim a winner
    g5 = [pl for pl in root if pl.get("incomplete") == "1"]
    assert len(g5) == 1 and all(p.get("win") == "0" for p in g5[0].find("players"))


def test_bgg_xml_escapes_hostile_names_and_text(store, tmp_path):
    s, ids = store
    history.set_play_details(s, ids["H"], playtime.with_details(
        {}, location='a"b<c>&d', notes="bad \x01\x0b chars ]]> </comments>"))
    (play,) = plays_export.plays(s, {ids["H"]})           # the game still derives
    assert play["notes"] == "bad  chars ]]> </comments>"  # control characters dropped
    text = plays_export.bgg_xml([play], bgg_ids={})
    assert "<b>" not in text and "<x " not in text and "</comments><x" not in text
    root = ET.fromstring(text.encode("utf-8"))
    (el,) = root
    assert [p.get("name") for p in el.find("players")] == [H1, H2]
    assert el.get("location") == 'a"b<c>&d'
    assert "bad  chars ]]> </comments>" in el.find("comments").text
    # text XML cannot hold (from a crafted play) becomes U+FFFD, never broken XML
    crafted = {**play, "notes": "x\x01y\ud800z", "location": "\x1b[31m"}
    el = ET.fromstring(plays_export.bgg_xml([crafted], bgg_ids={}).encode("utf-8"))[0]
    assert "x\ufffdy\ufffdz" in el.find("comments").text
    assert el.get("location") == "\ufffd[31m"


def test_details_that_would_break_the_record_are_refused(store):
    s, ids = store
    history.sync(s)
    with pytest.raises(CompanionError):
        history.set_play_details(s, ids["G1"], {"notes": "x" * 20_000})
    with pytest.raises(CompanionError):
        history.set_play_details(s, ids["G1"], {"timer": {"started": float("nan")}})
    assert history.sync(s) == 0 and [p for p in plays_export.plays(s, {ids["G1"]})]


def test_bgg_object_ids_come_from_the_settings(store, tmp_path):
    s, ids = store
    text = plays_export.bgg_xml(plays_export.plays(s, {ids["G1"], ids["S1"]}),
                                bgg_ids={"Among the Stars": 21, "Small Star Empires": 23})
    root = ET.fromstring(text.encode("utf-8"))
    assert sorted(p.find("item").get("objectid") for p in root) == ["21", "23"]


# ---------------------------------------------------------------------------
# settings and the command line
# ---------------------------------------------------------------------------
def test_settings_refuse_bad_ids_and_a_broken_file(tmp_path):
    with pytest.raises(CompanionError):
        plays_export.parse_bgg_ids(["Chess=1"])
    with pytest.raises(CompanionError):
        plays_export.parse_bgg_ids(["Among the Stars=abc"])
    with pytest.raises(CompanionError):
        plays_export.save_bgg_ids({"Among the Stars": -1}, tmp_path / "s.json")
    assert plays_export.parse_bgg_ids(["Among the Stars=21"]) == {"Among the Stars": 21}
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    with pytest.raises(CompanionError, match="broken.json"):
        plays_export.load_settings(bad)
    s = plays_export.save_bgg_ids({REVIVAL: 22}, tmp_path / "s.json")
    assert s["bgg_ids"][REVIVAL] == 22
    assert plays_export.save_bgg_ids({REVIVAL: ""}, tmp_path / "s.json")["bgg_ids"][REVIVAL] \
        is None


def test_cli_exports_both_formats_with_progress(store, tmp_path, monkeypatch, capsys):
    from companion import cli
    s, ids = store
    monkeypatch.setattr("companion.table.store.default_path", lambda: s.path)
    out = tmp_path / "cli.json"
    assert cli.main(["history", "export", "--format", "bgstats", str(out), "--progress",
                     "--bgg-id", "Among the Stars=99"]) == 0
    doc = json.loads(out.read_text())
    assert len(doc["plays"]) == len(FINISHED)
    assert next(g for g in doc["games"] if g["name"] == "Among the Stars")["bggId"] == 99
    xml = tmp_path / "cli.xml"
    assert cli.main(["history", "export", str(xml), "--format", "bgg", "--all"]) == 0
    assert len(ET.parse(xml).getroot()) == len(FINISHED) + 1
    captured = capsys.readouterr()
    assert "exported 7 play(s)" in captured.out
    assert cli.main(["history", "link", ids["G4"], "--qr", str(tmp_path / "qr.svg")]) == 0
    assert capsys.readouterr().out.startswith(plays_export.CREATE_PLAY_URL)
    ET.parse(tmp_path / "qr.svg")
    assert cli.main(["history", "bgg-ids", "Small Star Empires=23"]) == 0
    assert "Small Star Empires: 23" in capsys.readouterr().out
    assert cli.main(["history", "export", "--format", "bgstats"]) == 2


def test_cli_progress_line_on_stderr(tmp_path, monkeypatch, capsys):
    """A first sync of several games with --progress: one line on stderr,
    rewritten in place, ending with done = total."""
    from companion import cli
    s = Store(path=tmp_path / "games.sqlite")
    for k in ("G1", "G2", "S1"):
        s.create(records()[k], title=k)
    s.close()
    monkeypatch.setattr("companion.table.store.default_path", lambda: tmp_path / "games.sqlite")
    assert cli.main(["history", "plays", "--progress"]) == 0
    err = capsys.readouterr().err
    assert err.endswith("3/3 (100%)\n") and err.startswith("\r") and err.count("\n") == 1
    assert cli.main(["history", "plays"]) == 0                 # not a terminal: quiet
    assert capsys.readouterr().err == ""
