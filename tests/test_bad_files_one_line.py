"""Issue 35, "every fault ends in one line": bad files and disk faults on the command
line and on the page, and a token the user chose never printed.

From the issue's findings: "`history import` of a BG Stats file whose `id`,
`gameRefId`, `playerRefId` or `locationRefId` is a list or an object (`TypeError:
unhashable type`), of BGG XML with `startposition="²"` or 5,000 digits (`ValueError`);
on the page the same files say "Something went wrong … The actions shown on the board
are saved", which is wrong for an import.  `catalogue import` and `tiles import` on a
read-only folder or a full disk: `OSError`, exit 3.  `notation` prints part of a bad
record, then its error."  And: "with `COMPANION_TOKEN` or `--token-file`, the address
shown reads `<your token>`, but the table view's QR code printed to the server's output
encodes the real token."

Every bad file is a real file written in ``tmp_path``; the command line runs in-process
(``fuzzkit.run_cli``, as tests/test_fuzz_inputs.py), or as a subprocess where the
process itself must lose root's permission override (a read-only folder).
"""
from __future__ import annotations

import copy
import errno
import html
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from as_user import as_user
import fuzzkit
from companion.table import plays_export, plays_import
from companion.table.backends import open_store

ROOT = fuzzkit.ROOT
NO_IDS = {g: None for g in plays_export.GAMES}
SANDRA = ROOT / "data" / "samples" / "sandra-holographic-display-area.json"


def one_line_exit_2(code, out, err, *needles) -> str:
    """Exit 2, nothing on standard output, exactly one clean ``error:`` line holding
    every needle; the line without its ``error: ``."""
    problem = fuzzkit.judge(code, out, err)
    assert problem is None, problem
    assert code == 2, (code, out, err)
    for n in needles:
        assert n in err, (n, err)
    return err[len("error: "):-1]


def stored_games() -> list:
    store = open_store()             # the test's own COMPANION_HOME (conftest)
    try:
        return store.games(format=None)
    finally:
        store.close()


# ---------------------------------------------------------------------------
# history import: BG Stats JSON
# ---------------------------------------------------------------------------
def bgstats() -> dict:
    """A good BG Stats export of one play of Among the Stars (every field the reader uses)."""
    return {"players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bea"}],
            "games": [{"id": 1, "name": "Among the Stars", "bggId": 0}],
            "locations": [{"id": 7, "name": "Club"}],
            "plays": [{"uuid": "abc", "playDate": "2025-01-02 20:00:00", "gameRefId": 1,
                       "locationRefId": 7, "durationMin": 30,
                       "playerScores": [
                           {"playerRefId": 1, "score": "40", "winner": True, "rank": 1,
                            "seatOrder": 0},
                           {"playerRefId": 2, "score": "30", "winner": False, "rank": 2,
                            "seatOrder": 1}]}]}


def import_file(tmp_path, data, name: str):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode()
                     if not isinstance(data, str) else data.encode("utf-8"))
    code, out, err, _ = fuzzkit.run_cli(["history", "import", str(path)], timeout=60)
    return code, out, err


def test_a_good_bgstats_file_still_imports(tmp_path):
    """The checks below refuse only what is wrong: the same file with every field
    right imports its play."""
    code, out, err = import_file(tmp_path, bgstats(), "plays.bgsplay")
    assert code == 0, err
    assert "imported 1 play(s)" in out and len(stored_games()) == 1


def _set(doc: dict, where: str, value) -> None:
    table, key = where.split(".")
    row = (doc["plays"][0]["playerScores"][0] if table == "score"
           else doc[table][0])
    row[key] = value


@pytest.mark.parametrize("value, words", [([1], "a list"), ({"id": 1}, "an object")],
                         ids=["list", "object"])
@pytest.mark.parametrize("where, field, at", [
    ("players.id", "id", "players 1"), ("games.id", "id", "games 1"),
    ("locations.id", "id", "locations 1"), ("plays.gameRefId", "gameRefId", "play 1"),
    ("score.playerRefId", "playerRefId", "play 1"),
    ("plays.locationRefId", "locationRefId", "play 1")])
def test_an_id_that_is_a_list_or_an_object_is_one_line_and_nothing_stored(
        tmp_path, where, field, at, value, words):
    """Issue 35: "`history import` of a BG Stats file whose `id`, `gameRefId`,
    `playerRefId` or `locationRefId` is a list or an object (`TypeError: unhashable
    type`)" must end in one line (exit 2) naming the file and the fault, nothing stored."""
    doc = bgstats()
    _set(doc, where, value)
    code, out, err = import_file(tmp_path, doc, "plays.bgsplay")
    line = one_line_exit_2(code, out, err, "plays.bgsplay", "nothing was imported")
    assert f"{at}: {field} must be a number, not {words}" in line, line
    assert stored_games() == []


@pytest.mark.parametrize("where, value, words", [
    ("plays.playDate", ["2025-01-02"], "playDate must be text (YYYY-MM-DD HH:MM:SS), not a list"),
    ("plays.uuid", {"u": 1}, "uuid must be text, not an object"),
    ("plays.durationMin", [30], "the duration (durationMin) must be a whole number of "
                                "minutes, not a list"),
    ("plays.gameRefId", 1.5, "gameRefId must be a whole number, not 1.5"),
    ("plays.gameRefId", True, "gameRefId must be a number, not true/false"),
    ("score.rank", 10**29, "rank 100000000000… (30 characters) is out of range (0 to 1000)"),
    ("score.rank", {"r": 1}, "rank must be a whole number, not an object"),
    ("score.seatOrder", [0], "seatOrder must be a whole number, not a list"),
    ("score.seatOrder", -1, "seatOrder -1 is out of range"),
    ("games.bggId", {"id": 1}, "its game's bggId must be a whole number, not an object"),
    ("score.score", [40], "the score is not a whole number (a list)"),
], ids=["date-list", "uuid-object", "duration-list", "ref-fraction", "ref-bool",
        "rank-huge", "rank-object", "seat-list", "seat-negative", "bggid-object",
        "score-list"])
def test_every_number_id_and_date_of_the_wrong_type_or_size_is_one_line(
        tmp_path, where, value, words):
    """Issue 35 asks the same of every field with that weakness ("One line for every bad
    file ... in every command"): a date, a uuid, a duration, a rank, a seat order, a BGG
    id given a wrong JSON type or a huge number is refused in one line naming the file,
    the play and the field; nothing stored (a rank of 10^29 was stored, and its play
    was then missing from `history plays`)."""
    doc = bgstats()
    _set(doc, where, value)
    code, out, err = import_file(tmp_path, doc, "plays.bgsplay")
    line = one_line_exit_2(code, out, err, "plays.bgsplay: play 1: ")
    assert words in line, line
    assert stored_games() == []


# ---------------------------------------------------------------------------
# history import: BGG plays XML
# ---------------------------------------------------------------------------
def bgg_xml(**attrs) -> str:
    a = {"id": "5", "length": "30", "objectid": "", "startposition": "1", **attrs}
    return ('<plays><play id="{id}" date="2024-03-01" length="{length}" incomplete="0">'
            '<item name="Small Star Empires" objectid="{objectid}"/><players>'
            '<player name="Ann" startposition="{startposition}" score="9" win="1"/>'
            '<player name="Bob" startposition="2" score="3" win="0"/>'
            '</players></play></plays>').format(**a)


@pytest.mark.parametrize("attrs, words", [
    ({"startposition": "²"}, "play 5: a player's startposition must be a whole number, "
                             "not the text '²'"),
    ({"startposition": "7" * 5000}, "play 5: a player's startposition is a number of 5,000 "
                                    "digits, out of range"),
    ({"id": "²"}, "play 1: its id must be a whole number, not the text '²'"),
    ({"length": "9" * 5000}, "play 5: the duration (length) is a number of 5,000 digits"),
    ({"objectid": "²"}, "play 5: the objectid of its <item> must be a whole number"),
], ids=["startposition-superscript", "startposition-5000-digits", "id-superscript",
        "length-5000-digits", "objectid-superscript"])
def test_bgg_xml_with_a_number_that_is_not_one_is_one_line(tmp_path, attrs, words):
    """Issue 35: "`history import` ... of BGG XML with `startposition="²"` or 5,000
    digits (`ValueError`)" must end in one line (exit 2) naming the file and the fault,
    nothing stored."""
    code, out, err = import_file(tmp_path, bgg_xml(**attrs), "plays.xml")
    line = one_line_exit_2(code, out, err, "plays.xml: ", "nothing was imported")
    assert words in line, line
    assert stored_games() == []
    good = import_file(tmp_path, bgg_xml(), "good.xml")     # the same file, right: imported
    assert good[0] == 0 and len(stored_games()) == 1, good


def test_a_fault_half_way_through_storing_takes_the_stored_plays_out(store, tmp_path,
                                                                      monkeypatch):
    """Issue 35, "each bad file above (exit 2, one line, nothing stored)": whatever stops
    an import while it stores (here an unexpected fault on the second play), the plays
    it stored are taken out again, so "Nothing was imported" is true."""
    doc = bgstats()
    second = copy.deepcopy(doc["plays"][0])
    second.update(uuid="def", playDate="2025-01-03 20:00:00")
    doc["plays"].append(second)
    path = tmp_path / "plays.bgsplay"
    path.write_text(json.dumps(doc), encoding="utf-8")
    real, calls = store.create, []

    def create(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("a fault of the companion")
        return real(*args, **kwargs)
    monkeypatch.setattr(store, "create", create)
    with pytest.raises(RuntimeError):
        plays_import.import_plays(store, [path], bgg_ids=NO_IDS)
    assert len(calls) == 2 and store.games(format=None) == []


# ---------------------------------------------------------------------------
# the History tab's "Import plays"
# ---------------------------------------------------------------------------
def _upload(widget, name: str, data: bytes) -> None:
    widget.value = ({"name": name, "type": "", "size": len(data), "content": memoryview(data),
                     "last_modified": __import__("datetime").datetime(2026, 1, 1)},)


@pytest.fixture
def history_tab(store, monkeypatch):
    from companion.ui.app import App
    monkeypatch.setattr(plays_export, "load_settings", lambda path=None: {"bgg_ids": NO_IDS})
    app = App(store)
    app.tabs.selected_index = 2
    return app, app.history


@pytest.mark.parametrize("name, data, fault", [
    ("plays.bgsplay", "gameRefId-list",
     "plays.bgsplay: play 1: gameRefId must be a number, not a list"),
    ("plays.xml", bgg_xml(startposition="²"),
     "plays.xml: play 5: a player's startposition must be a whole number, not the text '²'"),
], ids=["bgstats-list-id", "bgg-superscript-seat"])
def test_the_page_says_nothing_was_imported_and_the_files_fault(history_tab, store, name,
                                                                 data, fault):
    """Issue 35: "on the page the same files say "Something went wrong … The actions shown
    on the board are saved", which is wrong for an import."  The import's message speaks
    of the import: "Nothing was imported: " and the table layer's line for the file."""
    app, tab = history_tab
    if data == "gameRefId-list":
        doc = bgstats()
        doc["plays"][0]["gameRefId"] = [1]
        data = json.dumps(doc)
    _upload(tab.plays_upload, name, data.encode())
    said = html.unescape(app.status.value)
    assert f"Nothing was imported: {fault}" in said, said
    assert "Something went wrong" not in said and "on the board" not in said
    assert said.count("othing was imported") == 1          # said once, not twice
    assert store.games(format=None) == [] and tab.plays_upload.value == ()


def test_a_fault_of_the_companion_during_an_import_speaks_of_the_import(history_tab, store,
                                                                        monkeypatch):
    """Issue 35: an import's failure must not say "The actions shown on the board are
    saved" ("wrong for an import"): even a fault of the companion itself (not a bad
    file) says that nothing was imported (the import stores all or nothing)."""
    app, tab = history_tab

    def broken(*args, **kwargs):
        raise TypeError("a fault of the companion")
    monkeypatch.setattr(plays_import, "parse_bgstats", broken)
    _upload(tab.plays_upload, "plays.bgsplay", json.dumps(bgstats()).encode())
    said = html.unescape(app.status.value)
    assert "Nothing was imported: a fault in the companion (TypeError: a fault of the " \
           "companion)" in said, said
    assert "Something went wrong" not in said and "on the board" not in said
    assert store.games(format=None) == []


# ---------------------------------------------------------------------------
# catalogue import, tiles import: a read-only folder, a full disk
# ---------------------------------------------------------------------------
def _catalogue_file(folder: Path) -> Path:
    from companion.ats import catalogue as cat
    f = folder / "cards.yaml"
    f.write_text(cat.dump_yaml([cat.parse_card({"name": "Alien Bazaar", "cost": 3,
                                                "energy": 1, "vp": 2, "abilities": [],
                                                "max": "none"})]), encoding="utf-8")
    return f


def _tiles_file(folder: Path) -> Path:
    from companion.sse import tiles as tl
    from test_sse_tiles import home_tile, main_tile
    f = folder / "tiles.json"
    f.write_text(json.dumps({"format": tl.TILES_FORMAT,
                             "tiles": [main_tile("M1a"), home_tile("H1")]}), encoding="utf-8")
    return f


#: (command, the input file's maker, the file it writes in the data folder)
KINDS = {"catalogue": (_catalogue_file, "my-cards.yaml"), "tiles": (_tiles_file, "sse-tiles.json")}


def _run_as_a_user(home: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m companion ARGS`` with COMPANION_HOME=home, without root's permission
    override (tests/as_user.py: a folder's mode then binds root too)."""
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_DEBUG"}
    env["COMPANION_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]]
                                                        if env.get("PYTHONPATH") else []))
    cmd = as_user([sys.executable, "-m", "companion", *args])
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120,
                          cwd=str(ROOT))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_import_into_a_read_only_folder_is_one_line_and_changes_nothing(tmp_path, kind):
    """Issue 35: "`catalogue import` and `tiles import` on a read-only folder ...:
    `OSError`, exit 3" must be exit 2 and one line saying nothing was changed."""
    make, written = KINDS[kind]
    home = tmp_path / "home"
    home.mkdir()
    first = _run_as_a_user(home, kind, "import", str(make(tmp_path)))
    assert first.returncode == 0, first.stderr          # the folder as it was: one import
    before = {p.name: p.read_bytes() for p in home.iterdir()}
    assert written in before
    home.chmod(0o555)
    (home / written).chmod(0o444)
    try:
        r = _run_as_a_user(home, kind, "import", str(make(tmp_path)))
    finally:
        home.chmod(0o755)
        (home / written).chmod(0o644)
    line = one_line_exit_2(r.returncode, r.stdout, r.stderr, str(home / written),
                           "could not be written", "nothing was changed")
    assert "read-only" in line and "Traceback" not in r.stderr
    assert {p.name: p.read_bytes() for p in home.iterdir()} == before


@pytest.fixture
def full_disk(tmp_path):
    """A small tmpfs (root only; skipped elsewhere, as tests/test_store_hostile.py's),
    filled up; unmounted afterwards."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip() or r.returncode})")

    def fill():
        with open(mnt / "filler", "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError as e:
                assert e.errno == errno.ENOSPC
    yield mnt, fill
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_import_on_a_full_disk_is_one_line_and_changes_nothing(tmp_path, full_disk,
                                                               monkeypatch, kind):
    """Issue 35: "`catalogue import` and `tiles import` on ... a full disk: `OSError`,
    exit 3" must be exit 2 and one line saying nothing was changed (a real full disk)."""
    mnt, fill = full_disk
    make, written = KINDS[kind]
    home = mnt / "home"
    monkeypatch.setenv("COMPANION_HOME", str(home))
    src = make(tmp_path)
    first = fuzzkit.run_cli([kind, "import", str(src)], timeout=60)
    assert first[0] == 0, first
    before = {p.name: p.read_bytes() for p in home.iterdir()}
    fill()
    code, out, err, _ = fuzzkit.run_cli([kind, "import", str(make(tmp_path))], timeout=60)
    one_line_exit_2(code, out, err, str(home / written), "could not be written (the disk is "
                    "full); nothing was changed")
    assert {p.name: p.read_bytes() for p in home.iterdir()} == before


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_import_when_the_system_says_the_disk_is_full_without_a_mount(tmp_path, monkeypatch,
                                                                      kind):
    """Issue 35, the same full disk where no tmpfs can be mounted (not root): the
    operating system's ENOSPC on the write gives exit 2 and one line, the file as it was."""
    make, written = KINDS[kind]
    src = make(tmp_path)
    assert fuzzkit.run_cli([kind, "import", str(src)], timeout=60)[0] == 0
    home = Path(os.environ["COMPANION_HOME"])
    before = (home / written).read_bytes()

    def no_space(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
    monkeypatch.setattr(Path, "write_text", no_space)
    code, out, err, _ = fuzzkit.run_cli([kind, "import", str(src)], timeout=60)
    one_line_exit_2(code, out, err, str(home / written), "(the disk is full); nothing was "
                    "changed")
    assert (home / written).read_bytes() == before
    assert sorted(p.name for p in home.iterdir()) == sorted([written, written + ".lock"])


# ---------------------------------------------------------------------------
# notation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("mutate, words", [
    (lambda a: a.update(do="fly"), "action 8: unknown kind of action 'fly'"),
    (lambda a: a.update(cell=[0, 0]), "action 8: discard: unknown key 'cell'"),
], ids=["unknown-kind", "unknown-key"])
def test_notation_of_a_bad_record_prints_nothing_on_standard_output(tmp_path, mutate, words):
    """Issue 35: "`notation` prints part of a bad record, then its error"; it must print
    nothing unless the whole record reads (here its last action, of 9, is bad)."""
    rec = json.loads(SANDRA.read_text(encoding="utf-8"))
    assert len(rec["actions"]) == 9
    mutate(rec["actions"][-1])
    path = tmp_path / "bad-record.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err, _ = fuzzkit.run_cli(["notation", str(path)], timeout=60)
    line = one_line_exit_2(code, out, err, str(path))
    assert out == "" and words in line, (out, line)
    good = fuzzkit.run_cli(["notation", str(SANDRA)], timeout=60)
    assert good[0] == 0 and len(good[1].splitlines()) == 9


# ---------------------------------------------------------------------------
# the dashboard's start: your own token is never printed
# ---------------------------------------------------------------------------
TOKEN = "my-own-token-chosen-by-me-1234"
LAN_IP = "192.0.2.10"


@pytest.fixture
def start_dashboard(monkeypatch, capsys):
    """``start_dashboard(*args, env={})``: companion.dashboard.main up to starting Voila
    (os.execv), on a made-up LAN address; returns what it printed."""
    from dashboardkit import stopped_at_voila
    start = stopped_at_voila(monkeypatch, capsys, LAN_IP)
    return lambda *args, env=None: start(["--lan", "--port", "9123", *args], env)[0]


def _qr(token: str) -> str:
    from companion.table.joining import qr_text
    return qr_text(f"http://{LAN_IP}:9123/?view=table&token={token}")


def _view_qr() -> str:
    """The table view's QR code as ./dashboard --lan prints it: its view-only capability,
    never the token (issue 35, "A role is a capability, not an address")."""
    from companion.table import capabilities
    from companion.table.joining import join_url, qr_text
    return qr_text(join_url(f"http://{LAN_IP}:9123/", view="table",
                            cap=capabilities.view().secret))


@pytest.mark.parametrize("how", ["COMPANION_TOKEN", "--token-file"])
def test_your_own_token_is_not_printed_not_even_in_the_qr_code(tmp_path, start_dashboard,
                                                                how):
    """Issue 35: "with `COMPANION_TOKEN` or `--token-file`, the address shown reads
    `<your token>`, but the table view's QR code printed to the server's output encodes
    the real token."  "A token you chose is never printed, not even inside a QR code,
    unless you ask for it.\""""
    if how == "COMPANION_TOKEN":
        out = start_dashboard(env={"COMPANION_TOKEN": TOKEN})
    else:
        f = tmp_path / "token"
        f.write_text(TOKEN + "\n")
        out = start_dashboard("--token-file", str(f))
    assert "?token=<your token>" in out and TOKEN not in out
    assert _qr(TOKEN) not in out, out
    assert _view_qr() in out            # the table view's QR code: a capability, no token
    assert "--show-token" in out                             # how to ask for it


@pytest.mark.parametrize("how", ["COMPANION_TOKEN", "--token-file"])
def test_show_token_prints_your_token_and_its_qr_code(tmp_path, start_dashboard, how):
    """Issue 35: your own token is printed "unless you ask for it": ``--show-token``
    asks, and the host's address then carries it; the table view's QR code carries its
    view-only capability, never the token (the token is the host's role)."""
    if how == "COMPANION_TOKEN":
        out = start_dashboard("--show-token", env={"COMPANION_TOKEN": TOKEN})
    else:
        f = tmp_path / "token"
        f.write_text(TOKEN + "\n")
        out = start_dashboard("--token-file", str(f), "--show-token")
    assert f"http://{LAN_IP}:9123/?token={TOKEN}" in out
    assert _qr(TOKEN) not in out and _view_qr() in out


def test_a_random_token_is_printed_with_its_qr_code(start_dashboard):
    """Issue 35 prints the random token (nobody else knows that token) in the host's
    address; the table view's QR code carries its view-only capability, not the token."""
    import re
    out = start_dashboard()
    token = re.search(rf"http://{LAN_IP}:9123/\?token=([A-Za-z0-9_-]+)\s", out).group(1)
    assert len(token) >= 16 and _qr(token) not in out and _view_qr() in out


def test_show_token_applies_only_with_lan(capsys):
    """--show-token without --lan is a wrong option (no token on 127.0.0.1): one line,
    exit 2, as the other token options."""
    from companion import dashboard
    assert dashboard.main(["--show-token"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--show-token only applies with --lan" in err
