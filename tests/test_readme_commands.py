"""Issue 51: "Every command the README shows runs ... one test runs each README command
line that finishes in seconds."

Every command line of README.md's fenced code blocks (and every ``./run-tests ...`` it
names in its text) is in :data:`TABLE`, which says how that line is checked; a README
line the table does not know fails :func:`test_the_table_knows_every_readme_command`, and
so does a table entry no longer in the README.  The checks take their argument lists
from the README's own words (``shlex``), with the placeholders replaced by real files:

- ``python -m companion ...`` (all its spellings): :func:`companion.cli.main` in this
  process, on the test's own COMPANION_HOME; RECORD.json and game.json a sample record,
  export.bgsplay a real BG Stats file (tests/data/real/README-import.md),
  ``postgresql://…`` the test's real PostgreSQL (marked ``postgres``);
- ``./dashboard ...`` and ``star-companion-dashboard ...``:
  :func:`companion.dashboard.main` up to the moment it would start Voila (``os.execv``),
  with what it printed and the environment it would give the server; the bash wrapper
  ``./dashboard`` itself is run by tests/test_server.py (checked below);
- ``./run-tests ...``: the suite cannot run itself here, so ``RUN_TESTS_DRY=1
  ./run-tests ...`` prints each phase's command; the whole ``./run-tests`` is what CI runs
  (.ci/run);
- the wheel's lines: tests/test_wheel.py builds, installs and runs them (checked below);
- the Python block: executed statement by statement.
"""
from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLE = ROOT / "data" / "samples" / "thalia-u-cannon.json"            # a game under way
FINISHED = ROOT / "data" / "samples" / "george-base-final-scoring.json"  # a finished game
BG_STATS = ROOT / "tests" / "data" / "real" / "bgstats_format_description_play.json"
BG_STATS_GAME_ID = 445031          # the bggId of that file's one game (README-import.md)
TOKEN = "table-token-0123456789"   # 22 characters, as COMPANION_TOKEN=... asks (16+)
LAN_IP = "192.168.1.23"


# ----------------------------------------------------------------------------- the README
def _strip_comment(line: str) -> str:
    return re.sub(r"\s+#\s.*$", "", line).strip()


def readme_commands() -> list[str]:
    """Every command line of the README's fenced blocks (its trailing comment left out),
    the Python block as ``python: <its first line>``, and every command line the text
    shows inline (:data:`INLINE`)."""
    text = README.read_text(encoding="utf-8")
    found: list[str] = []
    for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.M | re.S):
        if lang == "python":
            found.append("python: " + body.strip().splitlines()[0])
            continue
        for line in body.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            found.append(" ".join(_strip_comment(line).split()))
    outside = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    for span in re.findall(r"`([^`\n]+)`", outside):
        span = " ".join(span.split())
        if re.match(INLINE, span) and span not in found:
            found.append(span)
    return found


#: the text's inline `...` spans that are command lines: a program the README's blocks
#: use, with at least one argument (a bare `./dashboard` names the command)
INLINE = r"([A-Z_]+=\S+\s+)*(\./run-tests|\./dashboard|python|\.venv/bin/python)\s+" \
         r"(?!-m companion$)\S"


def python_block() -> str:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    assert len(blocks) == 1, "the README has one Python block"
    return blocks[0]


# ----------------------------------------------------------------------------- the table
#: README command line -> (how it is checked, where).  "in-process": run here by the
#: check named; "dry": ./run-tests with RUN_TESTS_DRY=1; "test_wheel": tests/test_wheel.py
#: runs it from an installed wheel (asserted by test_the_wheel_lines_are_run_by_test_wheel);
#: "ci": the whole suite, which .ci/run runs.
TABLE: dict[str, tuple[str, str]] = {
    # the two commands
    "./dashboard": ("in-process", "dashboard.main([]): the address printed; the wrapper: "
                                  "tests/test_server.py runs ./dashboard"),
    "./run-tests": ("dry + ci", "every phase: mypy, without a browser, browser, solo, "
                                "notebooks; the run itself is .ci/run's"),
    "./run-tests --fast": ("dry", "no mypy, no browser phase"),
    "./run-tests tests/browser/test_sleep.py -k sse": ("dry", "one pytest run with them"),
    "./run-tests --soak": ("dry", "every phase with COMPANION_SOAK=1"),
    "./run-tests -m postgres": ("dry", "one pytest run with -m postgres"),
    "RUN_TESTS_DRY=1 ./run-tests …": ("run-tests-dry", "every form above is run so by "
                                       "dry_runs: it prints each phase and runs none"),
    # the wheel
    "python3.11 -m pip wheel --no-deps -w dist .": (
        "test_wheel", "builds the wheel (here: its name is the README's)"),
    "python3.11 -m venv ~/star-companion": ("test_wheel", "a new virtual environment"),
    "~/star-companion/bin/pip install -c requirements.lock "
    "dist/star_companion-0.1.0-py3-none-any.whl": (
        "test_wheel", "installs the wheel offline (--no-deps --no-index); here: "
                      "requirements.lock pins every dependency within its bounds"),
    "cd ~": ("test_wheel", "every command runs in a folder outside the checkout"),
    "~/star-companion/bin/star-companion score RECORD.json": (
        "test_wheel + in-process", "score of a sample"),
    "~/star-companion/bin/star-companion catalogue unknown": (
        "test_wheel + in-process", "the shipped catalogue"),
    "~/star-companion/bin/star-companion-dashboard --port 9000": (
        "test_wheel + in-process", "test_wheel opens the page; here: the address printed"),
    # the dashboard's options
    "./dashboard --port 9000": ("in-process", "the address on port 9000"),
    "./dashboard --lan": ("in-process", "the LAN address with a random token"),
    "COMPANION_TOKEN=... ./dashboard --lan": ("in-process", "your token, not printed"),
    "./dashboard --lan --token-file ~/.companion-token": (
        "in-process", "a real token file, not printed"),
    "./dashboard --lan --token-file ~/.companion-token --show-token": (
        "in-process", "the file's token printed"),
    "./dashboard --allow-host mypc.local": ("in-process", "mypc.local allowed"),
    "COMPANION_DATABASE_URL=postgresql://club@db.local/games ./dashboard --lan": (
        "in-process, postgres", "the test's PostgreSQL opened before the server starts"),
    './dashboard --lan --table "Hall A"': ("in-process", "the server's table is Hall A"),
    'python -m companion --table "Hall A" history import game.json': (
        "in-process", "the imported game tagged Hall A"),
    # the command line
    ".venv/bin/python -m companion score data/samples/george-base-final-scoring.json": (
        "in-process", "the final table: George 79"),
    ".venv/bin/python -m companion score data/samples/george-base-final-scoring.json --lines": (
        "in-process", "every VP line"),
    ".venv/bin/python -m companion score data/samples/george-base-final-scoring.json --json": (
        "in-process", "JSON only"),
    ".venv/bin/python -m companion check RECORD.json": ("in-process", "ok: N actions"),
    ".venv/bin/python -m companion catalogue unknown": ("in-process", "values still unknown"),
    ".venv/bin/python -m companion history stats": ("in-process", "the statistics' headers"),
    ".venv/bin/python -m companion history plays > plays.csv": ("in-process", "CSV read back"),
    ".venv/bin/python -m companion history import|export ...": (
        "in-process", "both: a record imported, the history exported"),
    ".venv/bin/python -m companion history import export.bgsplay": (
        "in-process", "a real BG Stats file: the one-line refusal, then imported by BGG id"),
    ".venv/bin/python -m companion notation RECORD.json": ("in-process", "one action a line"),
    ".venv/bin/python -m companion history copy --to postgresql://…": (
        "in-process, postgres", "the history copied into the test's PostgreSQL"),
    ".venv/bin/python -m companion score data/small-star-empires/samples/two-player-random.json"
    " --lines": ("in-process", "Small Star Empires' final table and lines"),
    # command lines in the text
    "./dashboard --lan": ("in-process", "(also in a block)"),
    "./dashboard --lan --database postgresql://club@db.local/games": (
        "in-process, postgres", "the test's PostgreSQL given to the server"),
    "COMPANION_DATABASE_URL=postgresql://club:…@db.local/games ./dashboard --lan": (
        "in-process, postgres", "the test's PostgreSQL (a password in the address: none "
                                "here)"),
    'python -c "import pgserver; print(pgserver.get_server(\'/srv/club-pg\', '
    'cleanup_mode=None).get_uri())"': (
        "pgserver_fixture", "a lasting server: tests/pgserver_fixture.py starts the same "
                            "way (pgserver.get_server in a folder), for the session"),
    "python -m companion catalogue export|import FILE": (
        "in-process", "both: a typed card exported to FILE and imported elsewhere"),
    "python -m companion check": ("in-process", "check of a partial record: what it "
                                                "takes on trust"),
    "PYTHONPATH=.:tests python bench/bench_sentences.py": (
        "test_benches", "tests/test_benches.py runs its --quick"),
    "./dashboard --camera": ("wrapper", "the wrapper's own option: it installs the "
                                        "[camera] extra and is not passed on"),
    "python bench/bench_photo.py": ("test_benches", "tests/test_benches.py runs its --quick"),
    ".venv/bin/python -m voila notebooks/what-if.ipynb": (
        "nbval", "a Voila server (not seconds): ./run-tests' notebooks phase runs the "
                 "notebook (pytest --nbval-lax notebooks/)"),
    "python -m companion rules": ("in-process", "the rule codes' table"),
    'python: from companion import Game, IllegalAction': (
        "in-process", "executed: the refusal names card, cell and rule; game unchanged"),
}

#: lines that need the test's real PostgreSQL
POSTGRES = {c for c, (how, _) in TABLE.items() if "postgres" in how}
#: README lines that do not work as written: line -> why (xfail strict, for the lead)
WRONG: dict[str, str] = {}


def test_the_table_knows_every_readme_command():
    """A command the README shows and the table does not know is a command nobody
    checks; a table entry the README no longer shows is a stale check."""
    shown = readme_commands()
    unknown = [c for c in shown if c not in TABLE]
    stale = [c for c in TABLE if c not in shown]
    assert not unknown, f"README command lines with no check in TABLE: {unknown}"
    assert not stale, f"TABLE entries no longer in the README: {stale}"
    assert len(shown) == len(set(shown))
    kinds = {"in-process", "dry", "test_wheel", "test_benches", "wrapper", "nbval",
             "pgserver_fixture", "run-tests-dry"}
    assert {how.split()[0].strip(",") for how, _ in TABLE.values()} <= kinds


def _params(kinds: tuple[str, ...]):
    out = []
    for cmd, (how, _) in TABLE.items():
        if not any(k in how for k in kinds):
            continue
        marks = [pytest.mark.postgres] if cmd in POSTGRES else []
        if cmd in WRONG:
            marks.append(pytest.mark.xfail(strict=True, reason=WRONG[cmd]))
        out.append(pytest.param(cmd, marks=marks, id=cmd[:70]))
    return out


# ----------------------------------------------------------------------------- helpers
def _words(cmd: str) -> tuple[dict[str, str], list[str]]:
    """(the environment assignments, the words) of a README line, as the shell splits it."""
    words = shlex.split(cmd)
    env = {}
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        k, _, v = words.pop(0).partition("=")
        env[k] = v
    return env, words


def _program(words: list[str]) -> tuple[str, list[str]]:
    """("cli" | "dashboard", its arguments) for every spelling the README uses."""
    for prefix in (["python", "-m", "companion"], ["python3.11", "-m", "companion"],
                   [".venv/bin/python", "-m", "companion"],
                   ["~/star-companion/bin/star-companion"]):
        if words[:len(prefix)] == prefix:
            return "cli", words[len(prefix):]
    if words[0] in ("./dashboard", "~/star-companion/bin/star-companion-dashboard"):
        return "dashboard", words[1:]
    raise AssertionError(f"no program for {words}")


@pytest.fixture
def run_cli_here(capsys):
    """``run(argv) -> (code, out, err)``: companion.cli.main in this process."""
    from companion import cli

    def run(argv):
        capsys.readouterr()
        code = cli.main([str(a) for a in argv])
        got = capsys.readouterr()
        return code, got.out, got.err
    return run


@pytest.fixture
def start_dashboard(monkeypatch, capsys):
    """``start(argv, env={}) -> (printed, Voila's command line, the server's environment)``:
    companion.dashboard.main up to starting Voila (os.execv), on a made-up LAN address
    (tests/dashboardkit.py, with the README's own arguments: no --lan or --port added);
    nothing printed on stderr."""
    from dashboardkit import stopped_at_voila
    stopped = stopped_at_voila(monkeypatch, capsys, LAN_IP)

    def start(argv, env=None):
        out, err, cmd, server_env = stopped(argv, env)
        assert err == "", err
        return out, cmd, server_env
    return start


# ----------------------------------------------------------------------------- the CLI
def _cli_argv(cmd: str, tmp_path: Path, request) -> tuple[dict[str, str], list[str]]:
    env, words = _words(cmd)
    kind, argv = _program(words)
    assert kind == "cli"
    real = {"RECORD.json": str(SAMPLE), "game.json": str(FINISHED)}
    if "postgresql://…" in argv:
        real["postgresql://…"] = request.getfixturevalue("pg_url")
    return env, [real.get(a, a) for a in argv]


@pytest.mark.parametrize("cmd", _params(("in-process",)))
def test_readme_command_runs(cmd, tmp_path, request, monkeypatch, run_cli_here,
                             companion_home):
    env, words = _words(cmd) if not cmd.startswith("python:") else ({}, [])
    if cmd.startswith("python:"):
        _python_block_runs()
    elif _program(words)[0] == "dashboard":
        _dashboard_runs(cmd, tmp_path, request, monkeypatch)
    else:
        _cli_runs(cmd, tmp_path, request, run_cli_here, companion_home)


def _cli_runs(cmd, tmp_path, request, run, home):
    env, argv = _cli_argv(cmd, tmp_path, request)
    assert not env
    if argv[:3] == ["history", "import|export", "..."]:
        # both: a record in, then every record out into a folder
        code, out, err = run(["history", "import", FINISHED])
        assert code == 0 and out.startswith("Imported 1 new game into "), (out, err)
        code, out, err = run(["history", "export", tmp_path / "out"])
        assert code == 0 and out.strip() == f"exported 1 record(s) to {tmp_path / 'out'}"
        [written] = (tmp_path / "out").glob("*.json")
        assert json.loads(written.read_text())["setup"]["players"] == \
            ["George", "Sandra", "Thalia", "Milo"]
        return
    if argv[:2] == ["history", "import"] and argv[2] == "export.bgsplay":
        # a real BG Stats export (tests/data/real): its one play is of a game it names
        # otherwise, so first the one-line refusal, then imported by the game's BGG id
        path = tmp_path / "export.bgsplay"
        shutil.copy(BG_STATS, path)
        code, out, err = run(["history", "import", path])
        assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
        assert "no play of Among the Stars or Small Star Empires in it" in err
        assert "nothing was imported" in err
        code, out, err = run(["history", "import", path,
                              "--bgg-id", f"Among the Stars={BG_STATS_GAME_ID}"])
        assert code == 0 and out.startswith("imported 1 play(s) of Among the Stars"), (out, err)
        return
    if argv[:2] == ["catalogue", "export|import"]:
        # both: a card typed here exported to FILE, imported into another data folder
        from companion.ats import catalogue as cat
        cat.save_user_card(cat.parse_card({"name": "Alien Bazaar", "cost": 3}))
        path = tmp_path / "cards.yaml"
        code, out, err = run(["catalogue", "export", path])
        assert (code, out) == (0, f"exported 1 card(s) to {path}\n"), err
        request.getfixturevalue("monkeypatch").setenv("COMPANION_HOME", str(tmp_path / "b"))
        code, out, err = run(["catalogue", "import", path])
        assert code == 0 and out.startswith("imported 1 card(s) into "), (out, err)
        assert str(tmp_path / "b") in out
        assert cat.Catalogue.default()["Alien Bazaar"].cost == 3
        return
    if argv == ["check"]:            # "check of its record says what was taken on trust"
        argv = ["check", FINISHED]
    redirect = None
    if ">" in argv:
        i = argv.index(">")
        argv, redirect = argv[:i], argv[i + 1]
        assert redirect == "plays.csv"
    if argv[:2] in (["history", "stats"], ["history", "plays"]) or "copy" in argv:
        code, out, err = run(["history", "import", FINISHED])     # a finished game to show
        assert code == 0, err
    code, out, err = run(argv)
    assert code == 0, err
    assert "Traceback" not in out + err
    if argv[:2] == ["--table", "Hall A"]:
        from companion.table.store import Store
        assert out.startswith("Imported 1 new game into "), out
        s = Store(home / "games.sqlite")
        try:
            assert [g.get("table") for g in s.games(format=None)] == ["Hall A"]
        finally:
            s.close()
    elif argv[0] == "score" and "small-star-empires" in argv[1]:
        assert "Small Star Empires - final scoring" in out and "Ann wins with 35 VP." in out
        assert re.search(r"^\s+Ann\s+planets\s+planetary system", out, re.M)   # --lines
    elif argv[0] == "score" and "--json" in argv:
        doc = json.loads(out)                                     # JSON only
        assert doc["winners"] == ["George"] and doc["players"][0]["total"] == 79
    elif argv[0] == "score" and argv[1] == str(FINISHED):
        assert out.startswith("Final scoring\n") and "George wins with 79 VP." in out
        assert re.search(r"^George\s+1\s+63\s+7\s+3\s+1\s+5\s+79\b", out, re.M)
        lines = re.findall(r"printed VP of 'Fixture: military 7 VP'\s+7$", out, re.M)
        assert bool(lines) == ("--lines" in argv)
    elif argv[0] == "score":                                    # RECORD.json, the wheel's
        assert "Thalia" in out and "player" in out
    elif argv[0] == "check" and argv[1] == FINISHED:
        assert out.startswith("ok: 96 actions, finished\n"), out
        assert "taken on trust (setup.options.on_trust): 2 objective(s)" in out
    elif argv[0] == "check":
        assert re.fullmatch(r"ok: 9 actions, year 1, turn 4\n", out), out
    elif argv[0] == "rules":
        assert out.startswith("# Rule codes\n") and "`not-adjacent`" in out, out[:500]
    elif argv[0] == "catalogue":
        assert re.search(r"^U-Cannon: ", out, re.M) and "cost" in out
    elif argv[0] == "notation":
        lines = out.splitlines()
        assert len(lines) == len(json.loads(SAMPLE.read_text())["actions"])
        assert lines[0] == '1.1 Thalia discard "Garden"'
    elif argv[:2] == ["history", "stats"]:
        for header in ("== games", "== win rate by player", "== scores"):
            assert header in out
        assert re.search(r"^0\s+George\s+1\s+1\s+1\.0$", out, re.M)    # George won his one
    elif argv[:2] == ["history", "plays"]:
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [(r["game"], r["players"], r["scores"], r["winner"]) for r in rows] == \
            [("Among the Stars", "George;Sandra;Thalia;Milo", "79;55;52;46", "George")]
    elif argv[:2] == ["history", "copy"]:
        from companion.table.backends import open_store
        n = len(json.loads(FINISHED.read_text())["actions"])
        assert re.fullmatch(rf"Copied 1 game \({n} actions\) from \S+ to postgresql://\S+; "
                            r"0 were already there; 0 conflicts\.\n", out), out
        pg = open_store(argv[argv.index("--to") + 1])
        try:
            games = pg.games(format=None)
            assert [len(g["players"]) for g in games] == [4], games
        finally:
            pg.close()
    else:
        raise AssertionError(f"no assertion for {cmd}")


# ----------------------------------------------------------------------------- the dashboard
def _dashboard_runs(cmd, tmp_path, request, monkeypatch):
    start = request.getfixturevalue("start_dashboard")
    monkeypatch.setenv("HOME", str(tmp_path))            # ~ as the shell expands it
    env, words = _words(cmd)
    _, argv = _program(words)
    argv = [os.path.expanduser(a) for a in argv]
    if env.get("COMPANION_TOKEN") == "...":
        env["COMPANION_TOKEN"] = TOKEN                   # "your own token (16+ characters)"
    club = [v for v in [*env.values(), *argv] if v.startswith("postgresql://")]
    if club:                                             # the club's: the test's PostgreSQL
        pg = request.getfixturevalue("pg_url")
        env = {k: pg if v in club else v for k, v in env.items()}
        argv = [pg if a in club else a for a in argv]
    if "--token-file" in argv:
        Path(argv[argv.index("--token-file") + 1]).write_text(TOKEN + "\n")
    out, voila, server_env = start(argv, env)
    port = argv[argv.index("--port") + 1] if "--port" in argv else "8866"
    assert f"--port={port}" in voila and "Press Ctrl-C to stop." in out
    assert TOKEN not in " ".join(voila)                   # never on the command line
    if "--lan" not in argv:
        assert f"Open http://127.0.0.1:{port}/ in your browser." in out
        assert "--Voila.ip=127.0.0.1" in voila and "token" not in out
        hosts = server_env["COMPANION_ALLOWED_HOSTS"].split(",")
        assert ("mypc.local" in hosts) == ("--allow-host" in argv)
        return
    assert "--Voila.ip=0.0.0.0" in voila
    host_page = re.search(rf"^The host's page .*: http://{LAN_IP}:{port}/\?token=(.+)$",
                          out, re.M)
    assert host_page, out
    shown = host_page.group(1)
    if "COMPANION_TOKEN" in env or "--token-file" in argv:
        if "--show-token" in argv:
            assert shown == TOKEN and "<your token>" not in out
        else:
            assert shown == "<your token>" and TOKEN not in out
            assert "add --show-token to print it" in out
        if "--token-file" in argv:
            assert server_env["COMPANION_TOKEN_FILE"] == os.path.realpath(
                argv[argv.index("--token-file") + 1])
        else:
            assert server_env["COMPANION_TOKEN"] == TOKEN
    else:                                                 # a random token, printed
        assert len(shown) >= 16 and server_env["COMPANION_TOKEN"] == shown
    assert re.search(rf"^http://{LAN_IP}:{port}/\?view=table&cap=\S+$", out, re.M)
    if club:                                 # every page's kernel opens the club's
        assert server_env["COMPANION_DATABASE_URL"] == pg
    else:
        assert not server_env.get("COMPANION_DATABASE_URL")
    if "--table" in argv:
        assert server_env["COMPANION_TABLE"] == "Hall A"
    else:
        assert not server_env.get("COMPANION_TABLE")


ELSEWHERE = [c for c, (how, _) in TABLE.items()
             if how in ("test_benches", "wrapper", "nbval", "pgserver_fixture", "run-tests-dry")]


@pytest.mark.parametrize("cmd", ELSEWHERE)
def test_the_lines_run_elsewhere_are_run_there(cmd):
    """Lines that do not finish in seconds or are not this process's: the test or the
    phase that runs them does (asserted on its text)."""
    how = TABLE[cmd][0]
    if how == "test_benches":                 # the bench's --quick, by tests/test_benches.py
        script = re.search(r"bench/(\w+\.py)", cmd).group(1)
        text = (ROOT / "tests" / "test_benches.py").read_text(encoding="utf-8")
        assert (ROOT / "bench" / script).is_file() and f'"{script}": (' in text
    elif how == "wrapper":                    # ./dashboard --camera: the wrapper's option
        wrapper = (ROOT / "dashboard").read_text(encoding="utf-8")
        assert 'if [[ "$arg" == "--camera" ]]; then camera=1; else args+=("$arg"); fi' \
            in wrapper and '-e ".[camera]"' in wrapper
    elif how == "run-tests-dry":              # the dry run: what dry_runs runs every form with
        assert 'dry="${RUN_TESTS_DRY:-}"' in (ROOT / "run-tests").read_text(encoding="utf-8")
        assert RUN_TESTS and all(f in PHASES for f in RUN_TESTS)
    elif how == "nbval":                      # the notebooks phase runs every notebook
        notebook = shlex.split(cmd)[-1]
        assert (ROOT / notebook).is_file() and notebook.startswith("notebooks/")
        assert "--nbval-lax --nbval-current-env notebooks/" in \
            (ROOT / "run-tests").read_text(encoding="utf-8")
    else:                                     # pgserver: the fixture starts it so
        code = shlex.split(cmd)[2]
        compile(code, "README.md", "exec")
        assert "pgserver.get_server(" in code and "get_uri()" in code
        text = (ROOT / "tests" / "pgserver_fixture.py").read_text(encoding="utf-8")
        assert 'server = pgserver.get_server(folder, cleanup_mode="stop")' in text
        assert "url = server.get_uri()" in text


def test_the_dashboard_wrapper_is_run_by_test_server():
    """The bash wrapper ./dashboard itself (its venv, then star-companion-dashboard) is
    started for real by tests/test_server.py."""
    text = (ROOT / "tests" / "test_server.py").read_text(encoding="utf-8")
    assert 'subprocess.Popen([str(ROOT / "dashboard"), *args]' in text
    assert 'subprocess.run([str(ROOT / "dashboard"), *args' in text
    wrapper = (ROOT / "dashboard").read_text(encoding="utf-8")
    assert 'exec "$VENV/bin/star-companion-dashboard"' in wrapper


# ----------------------------------------------------------------------------- Python
def _python_block_runs():
    """The README's Python block, statement by statement: the refused push prints one
    line naming the card, the cell and the rule, and leaves the game as it was."""
    import pandas as pd
    tree = ast.parse(python_block())
    ns: dict = {}
    printed = io.StringIO()
    value = None
    for stmt in tree.body:
        code = compile(ast.Module(body=[stmt], type_ignores=[]), "README.md", "exec")
        if isinstance(stmt, ast.Try):
            game = ns["game"]
            before = (json.dumps(game.to_record(), sort_keys=True), len(game.actions),
                      game.score().table.to_json())
            with contextlib.redirect_stdout(printed):
                exec(code, ns)
            after = (json.dumps(game.to_record(), sort_keys=True), len(game.actions),
                     game.score().table.to_json())
            assert after == before                       # "the game is unchanged"
            assert len(game.actions) == 1                # the reactor push is there
        elif stmt is tree.body[-1] and isinstance(stmt, ast.Expr):
            value = eval(compile(ast.Expression(stmt.value), "README.md", "eval"), ns)
        else:
            with contextlib.redirect_stdout(printed):
                exec(code, ns)
    line = printed.getvalue()
    assert line.count("\n") == 1, line
    assert "'Holographic Display Area'" in line and "[5, 5]" in line
    assert "[rule: not-adjacent]" in line and line.startswith("George ")
    assert len(ns["game"].actions) == 0                  # game.pop() undid the reactor
    assert isinstance(value, pd.DataFrame)
    assert list(value["player"]) == ["Sandra", "George", "Thalia"]


# ----------------------------------------------------------------------------- ./run-tests
RUN_TESTS = [c for c, (how, _) in TABLE.items() if how.startswith("dry")]


@pytest.fixture(scope="module")
def dry_runs():
    """Every README form of ./run-tests with RUN_TESTS_DRY=1, at once: ``{form: [phase
    command lines]}``."""
    # (the run's own settings out: COMPANION_TEST_WORKERS=3 ./run-tests printed -n 3)
    env = {k: v for k, v in os.environ.items()
           if k not in ("COMPANION_SOAK", "RUN_TESTS_DRY", "COMPANION_TEST_WORKERS",
                        "BROWSER_WORKERS")}
    env["RUN_TESTS_DRY"] = "1"

    def one(form):
        p = subprocess.run(["./run-tests", *shlex.split(form)[1:]], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "run-tests: all green" in p.stdout
        return re.findall(r"^run-tests: dry run: (.*)$", p.stdout, re.M)
    with ThreadPoolExecutor(len(RUN_TESTS)) as pool:
        return dict(zip(RUN_TESTS, pool.map(one, RUN_TESTS)))


PY = ".venv/bin/python"
MYPY = f"COMPANION_SOAK= {PY} -m mypy"
NOTEBOOKS = (f"COMPANION_SOAK= {PY} -m pytest -q -p no:xdist --nbval-lax --nbval-current-env "
             "notebooks/")
#: one process per core, plus one (nproc: the cores this process may use)
NO_BROWSER = f"COMPANION_SOAK= {PY} -m pytest -q -n {len(os.sched_getaffinity(0)) + 1} " \
             "--maxschedchunk=2 --durations=15 -m not solo --ignore=tests/browser"
BROWSER = f"COMPANION_SOAK= {PY} -m pytest -q -n 3 --durations=25 -m not solo tests/browser"
SOLO = f"COMPANION_SOAK= {PY} -m pytest -q -p no:xdist -m solo tests/browser " \
       "tests/test_benches.py"
#: what each README form runs: "the whole test suite"; "the tests without a browser
#: (every core) and the notebooks"; "any pytest arguments: one run with them";
#: "everything, the soak tests (marked soak) at full size"; "runs those alone"
PHASES = {
    "./run-tests": [MYPY, NO_BROWSER, BROWSER, SOLO, NOTEBOOKS],
    "./run-tests --fast": [NO_BROWSER, NOTEBOOKS],
    "./run-tests tests/browser/test_sleep.py -k sse": [
        MYPY, f"COMPANION_SOAK= {PY} -m pytest -q tests/browser/test_sleep.py -k sse", NOTEBOOKS],
    "./run-tests --soak": [p.replace("COMPANION_SOAK= ", "COMPANION_SOAK=1 ")
                           for p in (MYPY, NO_BROWSER, BROWSER, SOLO, NOTEBOOKS)],
    "./run-tests -m postgres": [MYPY, f"COMPANION_SOAK= {PY} -m pytest -q -m postgres",
                                NOTEBOOKS],
}


@pytest.mark.parametrize("form", RUN_TESTS)
def test_each_run_tests_form_runs_the_phases_the_readme_says(form, dry_runs):
    if form in WRONG:
        pytest.xfail(WRONG[form])
    assert dry_runs[form] == PHASES[form]


def test_no_test_module_imports_a_conftest_by_name():
    """Issue 51: "The README's `./run-tests -m postgres` fails before running a test:
    tests/test_iopub_burst.py does `from conftest import ROOT` and gets
    tests/browser/conftest.py": which ``conftest`` a name import finds depends on what
    pytest collected first, so a pytest-argument form of ./run-tests could break where
    the whole run does not."""
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "tests").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.match(r"\s*(from conftest import|import conftest\b)", line)]
    assert not found, found


def test_the_whole_run_is_what_ci_runs():
    """./run-tests with no argument is not run here (it is the suite): .ci/run runs it."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r'^exec \./run-tests "\$@"$', ci, re.M), ci


# ----------------------------------------------------------------------------- the wheel
def test_the_wheel_lines_are_run_by_test_wheel():
    """tests/test_wheel.py builds the wheel, makes a new virtual environment, installs
    the wheel into it and runs both commands from a folder outside the checkout."""
    text = (ROOT / "tests" / "test_wheel.py").read_text(encoding="utf-8")
    for piece in ('"pip", "wheel", "--no-deps"',              # pip wheel --no-deps -w dist
                  '"-m", "venv"',                             # python -m venv
                  '"install", "--no-deps"',                   # .../pip install the wheel
                  'cwd=installed["cwd"]',                     # cd ~: outside the checkout
                  '"star-companion"), "score"',               # star-companion score
                  '"star-companion"), "catalogue", "unknown"',
                  '"star-companion-dashboard"), "--port"'):
        assert piece in text, piece
    assert "def test_dashboard_command_answers_with_the_page" in text


def test_the_readme_wheel_is_the_one_pip_builds_and_the_lock_pins_its_dependencies():
    """What test_wheel.py does not do the README's way: its file name
    (dist/star_companion-0.1.0-py3-none-any.whl is the project's name and version), and
    ``-c requirements.lock`` (test_wheel installs offline, without dependencies): every
    dependency of the wheel is pinned there, within the project's bounds."""
    import tomllib
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wheel = f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"
    readme = [c for c in readme_commands() if "pip install" in c]
    assert readme and all(c.endswith("dist/" + wheel) for c in readme), readme
    pins = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version.strip()
    for dep in project["dependencies"]:
        req = Requirement(dep)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not pinned in requirements.lock"
        assert req.specifier.contains(pins[name], prereleases=True), (dep, pins[name])
