"""Hostile and broken input on the command line (issue 12).

1. A Hypothesis fuzzer (tests/fuzzkit.py): mutated Among the Stars records,
   Small Star Empires records, maps and catalogues, 4 kinds x 500 examples =
   2,000 inputs per run (derandomized, so CI is reproducible).  Every outcome
   must be exit 0, or exit 2 with exactly one clean ``error:`` line
   (``fuzzkit.judge``).  ``bench/fuzz.py`` runs 20,000.
2. One regression test per item of the issue's "Command line and records",
   "Catalogue import" and "History" lists that had no test yet (deep nesting,
   4,300-digit numbers, far SSE moves, ``"from": 5``, surrogates, newline/ESC,
   FIFO and /dev/zero, ``| head``, YAML specials, big files and names, 20,000
   cards, Latin-1 / random bytes, a card worth 10^20 VP, ``history export``
   with a crafted id).
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzkit
ROOT = fuzzkit.ROOT

#: a hang guard, not a speed target (issue 34: these bounds were 5-15 s and failed on a
#: loaded 2-core machine running the suite on every core; a real blow-up, an alias bomb
#: expanded or a file read whole, takes minutes or never ends).  Speed: bench/fuzz.py.
HANG = 60

EXAMPLES_PER_KIND = 500
FUZZ = settings(max_examples=EXAMPLES_PER_KIND, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

SANDRA = ROOT / "data" / "samples" / "sandra-holographic-display-area.json"
GEORGE = ROOT / "data" / "samples" / "george-base-final-scoring.json"
SSE = fuzzkit.SSE_SAMPLE


# ---------------------------------------------------------------------------
# 1. the fuzzer
# ---------------------------------------------------------------------------
_COUNT: dict[str, int] = {}


@pytest.mark.parametrize("kind", fuzzkit.KINDS)
def test_fuzz(kind, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"fuzz-{kind}")
    _COUNT[kind] = 0

    @FUZZ
    @given(st.data())
    def one(data):
        case = fuzzkit.make_case(fuzzkit.DataPick(data), kind)
        _COUNT[kind] += 1
        case_dir = folder / f"c{_COUNT[kind]}"
        for r in fuzzkit.run_case(case, case_dir, timeout=HANG + 10):
            assert r["problem"] is None, (r["argv"], r["problem"])
            assert r["secs"] < HANG, (r["argv"], f"took {r['secs']:.1f} s")

    one()
    assert _COUNT[kind] >= EXAMPLES_PER_KIND


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def clean_failure(code, out, err, *needles) -> str:
    problem = fuzzkit.judge(code, out, err)
    assert problem is None, problem
    assert code == 2, (code, out, err)
    for n in needles:
        assert n in err, (n, err)
    return err


def run_file(tmp_path, data, *argv, name="game.json"):
    """Write ``data`` (bytes / str / a tree) and run ``argv + [file]`` in-process."""
    path = tmp_path / name
    if isinstance(data, (dict, list)):
        data = json.dumps(data)
    path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    code, out, err, secs = fuzzkit.run_cli([*argv, str(path)], timeout=20)
    return code, out, err, secs


def ats() -> dict:
    return json.loads(SANDRA.read_text(encoding="utf-8"))


def sse() -> dict:
    return json.loads(SSE.read_text(encoding="utf-8"))


def first_move(rec: dict) -> dict:
    return next(a for a in rec["actions"] if a.get("do") == "move")


# ---------------------------------------------------------------------------
# 2. command line and records
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["ats", "sse"])
@pytest.mark.parametrize("depth", [31, 33, 5_000])
def test_deep_nesting_inside_a_record(tmp_path, game, depth):
    rec = ats() if game == "ats" else sse()
    target = rec["actions"][2] if game == "ats" else first_move(rec)
    target["note" if game == "ats" else "via"] = fuzzkit.DEEP + str(depth)
    for cmd in ("score", "check"):
        code, out, err, _ = run_file(tmp_path, fuzzkit.dump_json(rec), cmd)
        clean_failure(code, out, err)


@pytest.mark.parametrize("game", ["ats", "sse"])
def test_number_of_4300_digits(tmp_path, game):
    rec = ats() if game == "ats" else sse()
    if game == "ats":
        rec["actions"][3]["at"] = [fuzzkit.BIG + "4301", 0]
    else:
        first_move(rec)["ship"] = fuzzkit.BIG + "4301"
    code, out, err, _ = run_file(tmp_path, fuzzkit.dump_json(rec), "score", "--json")
    clean_failure(code, out, err, "digits")


@pytest.mark.parametrize("to", [[10 ** 12, 0], [0, -10 ** 12], [10 ** 12, -10 ** 12],
                                [2 ** 63, 0], [10 ** 29, 1]])
def test_sse_move_far_away_is_refused_quickly(tmp_path, to):
    rec = sse()
    first_move(rec)["to"] = to
    code, out, err, secs = run_file(tmp_path, rec, "check")
    clean_failure(code, out, err, "action 0")
    assert secs < 5


@pytest.mark.parametrize("value", [5, "5", [1], [1, 2, 3], [True, 0], [1.5, 0], {}])
def test_sse_move_from_of_the_wrong_type(tmp_path, value):
    rec = sse()
    first_move(rec)["from"] = value
    code, out, err, _ = run_file(tmp_path, rec, "score")
    clean_failure(code, out, err, "action 0")


@pytest.mark.parametrize("game", ["ats", "sse"])
def test_lone_surrogate_in_a_player_name(tmp_path, game, run_cli):
    """Through a real process and a real (UTF-8) pipe: no UnicodeEncodeError."""
    path = tmp_path / "game.json"
    rec = ats() if game == "ats" else sse()
    old = rec["setup"]["players"][0]
    rec["setup"]["players"][0] = old + "\ud800"
    text = json.dumps(rec, ensure_ascii=True)      # "\ud800" as a JSON escape
    path.write_text(text, encoding="utf-8")
    for args in (("score",), ("score", "--json"), ("check",)):
        proc = run_cli(*args, path)
        assert "Traceback" not in proc.stderr and "UnicodeEncodeError" not in proc.stderr
        assert fuzzkit.judge(proc.returncode, proc.stdout, proc.stderr) is None, proc.stderr


@pytest.mark.parametrize("bad", ["Garden\nerror: fake second line", "Gar\x1b[2Jden",
                                 "x\x1b]0;pwned\x07", "a\r\nb", "bidi\u202eevil", "nel\x85"])
def test_control_characters_in_a_field_give_one_escaped_line(tmp_path, bad):
    rec = ats()
    rec["actions"][6]["card"] = bad
    code, out, err, _ = run_file(tmp_path, rec, "score")
    line = clean_failure(code, out, err)
    assert "action 6" in line or "actions[6]" in line, line
    assert "\x1b" not in line and "\r" not in line and line.count("\n") == 1


def test_control_characters_in_the_file_name(tmp_path):
    code, out, err, _ = fuzzkit.run_cli(["score", str(tmp_path / "no\nsuch\x1b[2J.json")])
    clean_failure(code, out, err, "cannot read")


def _run_with_deadline(*argv, seconds=20):
    """A real process; killed (and the test failed) if it blocks."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "companion", *map(str, argv)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{argv} blocked for {seconds} s")
    return proc.returncode, out, err


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)                            # nobody ever writes to it
    for cmd in (["score"], ["check"], ["history", "import"]):
        t0 = time.monotonic()
        code, out, err = _run_with_deadline(*cmd, fifo)
        assert time.monotonic() - t0 < 20
        clean_failure(code, out, err, "not a regular file")
    code, out, err = _run_with_deadline("catalogue", "import", fifo)
    clean_failure(code, out, err, "not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/stdin"])
def test_devices_are_refused_without_reading_them(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    code, out, err = _run_with_deadline("score", device)
    clean_failure(code, out, err)
    code, out, err = _run_with_deadline("catalogue", "import", device)
    clean_failure(code, out, err)


def test_score_into_a_pipe_closed_early_has_no_traceback(tmp_path):
    """The reader is gone before the first byte is written (worst case of ``| head``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for args in (["score", GEORGE, "--lines"], ["score", GEORGE, "--json"],
                 ["score", SSE, "--lines"]):
        proc = subprocess.Popen([sys.executable, "-m", "companion", *map(str, args)], cwd=ROOT,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
        assert "BrokenPipe" not in err and "Traceback" not in err and "Exception" not in err, err
        assert code in (0, 141) and err == "", (code, err)


def test_score_piped_into_head(tmp_path):
    """The shell pipeline of the issue: only head's line, nothing on standard error."""
    cmd = (f"'{sys.executable}' -m companion score '{GEORGE}' --lines | head -n 1; "
           f"exit ${{PIPESTATUS[0]}}")
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert proc.stdout == "Final scoring\n"
    assert proc.stderr == "", proc.stderr
    assert proc.returncode == 0


# ---------------------------------------------------------------------------
# 3. catalogue import
# ---------------------------------------------------------------------------
def catalogue_import(tmp_path, data: bytes, name="cards.yaml", *, seconds: float = HANG):
    code, out, err, secs = run_file(tmp_path, data, "catalogue", "import", name=name)
    assert secs < seconds, f"took {secs:.1f} s"
    return code, out, err


def no_user_catalogue():
    from companion.ats import catalogue as cat
    assert cat.load_user_cards() == []


@pytest.mark.parametrize("special", [0, 1, 2, 3, 4, 5, 6, 7],
                         ids=["alias-bomb", "self-alias", "date", "timestamp", "binary", "set",
                              "python-tag", "merge-key"])
def test_yaml_specials_are_refused_quickly(tmp_path, special):
    code, out, err = catalogue_import(tmp_path, fuzzkit.YAML_SPECIALS[special].encode())
    clean_failure(code, out, err)
    no_user_catalogue()


def test_alias_bomb_stops_at_the_alias_budget(tmp_path):
    levels = 12           # 9**12 strings if expanded
    lines = ['- name: "Fixture: bomb"', '  notes: &a0 ["lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"  k{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    code, out, err = catalogue_import(tmp_path, ("\n".join(lines) + "\n").encode())
    clean_failure(code, out, err)


def test_a_100_mb_file_is_refused_by_what_is_read(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as fh:                  # sparse: 100 MB, no disk used
        fh.write(b"- name: 'Fixture: huge'\n  notes: '")
        fh.truncate(100 * 1024 * 1024)
    t0 = time.perf_counter()
    code, out, err, _ = fuzzkit.run_cli(["catalogue", "import", str(path)])
    assert time.perf_counter() - t0 < HANG
    clean_failure(code, out, err, "larger than")


def test_a_10_mb_name_is_refused(tmp_path):
    code, out, err = catalogue_import(tmp_path, b"- name: '" + b"x" * 10_000_000 + b"'\n")
    clean_failure(code, out, err)


def test_a_long_name_inside_the_size_limit_is_refused(tmp_path):
    code, out, err = catalogue_import(tmp_path, b"- name: '" + b"x" * 500_000 + b"'\n")
    clean_failure(code, out, err)
    code, out, err = catalogue_import(tmp_path, b"- name: 'Fixture: " + b"x" * 200 + b"'\n")
    clean_failure(code, out, err, "name")


def test_20000_cards_are_refused(tmp_path):
    data = "".join(f"- name: 'Fixture: c{i}'\n" for i in range(20_000)).encode()
    # PyYAML (pure Python) parses the 500 kB first: about 3 s here, more on a busy machine
    code, out, err = catalogue_import(tmp_path, data)
    clean_failure(code, out, err, "2000")
    no_user_catalogue()


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "cp1252"])
def test_other_encodings_are_refused(tmp_path, encoding):
    data = "- name: 'Fixture: Café Ångström'\n  notes: 'é'\n".encode(encoding)
    code, out, err = catalogue_import(tmp_path, data)
    clean_failure(code, out, err, "UTF-8")


@pytest.mark.parametrize("seed", range(6))
def test_random_bytes_are_refused(tmp_path, seed):
    import random
    rng = random.Random(seed)
    data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4096)))
    for argv, name in ((["catalogue", "import"], "cards.yaml"), (["score"], "game.json"),
                       (["check"], "game.json")):
        code, out, err, _ = run_file(tmp_path, data, *argv, name=name)
        assert fuzzkit.judge(code, out, err) is None, (argv, err)


def test_deep_nesting_in_a_catalogue(tmp_path):
    for depth in (40, 5_000, 200_000):
        data = b"- name: 'Fixture: deep'\n  notes: " + b"[" * depth + b"]" * depth + b"\n"
        code, out, err = catalogue_import(tmp_path, data)
        clean_failure(code, out, err)
        data = b'[{"name": "Fixture: deep", "notes": ' + b"[" * depth + b"]" * depth + b"}]"
        code, out, err = catalogue_import(tmp_path, data, name="cards.json")
        clean_failure(code, out, err)


# ---------------------------------------------------------------------------
# 4. history
# ---------------------------------------------------------------------------
HUGE_CARD = {"name": "Fixture: huge vp", "types": ["business"], "cost": 1, "energy": 0,
             "vp": 10 ** 20, "max": 1, "abilities": []}


@pytest.mark.parametrize("vp", [10 ** 20, 10 ** 12, -10 ** 20, 2 ** 63])
def test_a_card_worth_huge_vp_is_refused_by_check(tmp_path, vp):
    rec = ats()
    rec.setdefault("cards", []).append(dict(HUGE_CARD, vp=vp))
    code, out, err, _ = run_file(tmp_path, rec, "check")
    clean_failure(code, out, err, "Fixture: huge vp")


def test_a_card_worth_10_20_vp_is_not_imported_and_history_still_works(tmp_path):
    rec = ats()
    rec.setdefault("cards", []).append(HUGE_CARD)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err, _ = fuzzkit.run_cli(["history", "import", str(path)])
    clean_failure(code, out, err, "huge.json")
    code, out, err, _ = fuzzkit.run_cli(["history", "import", str(GEORGE)])
    assert code == 0, err
    for argv in (["history", "stats"], ["history", "plays"]):
        code, out, err, _ = fuzzkit.run_cli(argv)
        assert code == 0 and fuzzkit.judge(code, out, err) is None, (argv, err)


@pytest.mark.parametrize("crafted", ["../../escaped", "/tmp/abs", "..", "a/../../b",
                                     "..\\..\\win", "CON", "x\x00y", "\u202e..", ""])
def test_history_export_with_a_crafted_id_stays_in_its_folder(tmp_path, crafted):
    from companion.table.store import Store
    code, out, err, _ = fuzzkit.run_cli(["history", "import", str(GEORGE)])
    assert code == 0, err
    store = Store()
    gid = store.games(format=None)[0]["id"]
    db = store.path
    store.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys=OFF")
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    with conn:
        conn.execute("UPDATE games SET id=? WHERE id=?", (crafted, gid))
        for t in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
            if "game_id" in cols:
                conn.execute(f"UPDATE {t} SET game_id=? WHERE game_id=?", (crafted, gid))
    conn.close()
    target = tmp_path / "deep" / "out"
    before = {p for p in tmp_path.rglob("*")}
    code, out, err, _ = fuzzkit.run_cli(["history", "export", str(target)])
    assert fuzzkit.judge(code, out, err) is None, err
    new = {p for p in tmp_path.rglob("*")} - before
    written = [p for p in new if p.is_file()]
    assert written, (code, out, err)
    for p in written:
        assert p.parent == target, p
        assert p.name.endswith(".json") and "/" not in p.name
    assert not Path("/tmp/abs.json").exists()


@pytest.mark.parametrize("char", [b"\x00", b"\x07", b"\x1b", b"\xef\xbf\xbe"])
def test_characters_yaml_refuses_give_a_clean_error(tmp_path, char):
    """Found by the fuzzer: PyYAML's reader refuses these before parsing starts."""
    code, out, err = catalogue_import(tmp_path, b"- name: 'Fixture: a" + char + b"b'\n")
    clean_failure(code, out, err, "cards.yaml")


def test_a_card_with_thousands_of_abilities_is_refused_quickly(tmp_path):
    """Found by bench/fuzz.py (seed 12, case 2311): a card with 3,001 abilities was
    imported, and then every command took 5-8 s to read the catalogue back."""
    card = dict(fuzzkit.FIXTURE_CATALOGUE[0], abilities=[{"when": "immediate", "flat": 1}] * 3001)
    code, out, err = catalogue_import(tmp_path, json.dumps([card]).encode(), name="cards.json")
    clean_failure(code, out, err, "Fixture: fuzz plain")
    assert "abilities" in err or "too large" in err
    card = dict(fuzzkit.FIXTURE_CATALOGUE[0], set="s" * 90, source="x" * 90, notes="n" * 4000,
                abilities=[{"when": "end", "per": "adjacent_location",
                            "types": ["military"], "vp": 1, "cap": 4}] * 16)
    code, out, err = catalogue_import(tmp_path, json.dumps([card]).encode(), name="cards.json")
    assert code == 0, err                     # the largest sensible card still fits
