"""Hostile and broken inputs for the companion (issue 12): the mutation engine
shared by tests/test_fuzz_inputs.py (Hypothesis) and bench/fuzz.py (20,000 runs).

A *picker* makes every random choice (``int(lo, hi)``, ``choice(seq)``,
``bool()``): :class:`RandomPick` wraps ``random.Random`` (the bench),
:class:`DataPick` wraps Hypothesis' ``data.draw`` (the test, so failures
shrink).  :func:`make_case` turns one picker into one input: a file's bytes and
the command lines to run on it:

* ``ats``: an Among the Stars record (the samples), mutated;
* ``sse``: a Small Star Empires record, mutated;
* ``map``: the map of a Small Star Empires record (basic-2p), mutated, embedded
  in the record and also written alone (read by ``load_map_file``);
* ``catalogue``: a catalogue (YAML or JSON) of FIXTURE cards (invented values,
  names "Fixture: ..."), mutated, imported, exported and listed.

Mutations: a value anywhere replaced by a hostile one (numbers of 30 to 5,000
digits, NaN, deep nesting, control characters, ESC sequences, lone surrogates,
10,000+ character texts, "../../x", wrong types), keys deleted or added,
subtrees swapped, and byte-level damage (truncation, flipped and inserted
bytes, Latin-1 / UTF-16 encodings, random bytes, an empty file); catalogues
also get YAML specials (alias bombs, anchors, dates, binary, sets, tags).

:func:`run_cli` calls ``companion.cli.main`` in-process with captured
output; :func:`judge` says what is wrong with an outcome (None = fine: exit 0,
or exit 2 with exactly one clean ``error:`` line on standard error and nothing
on standard output).
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import re
import signal
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ATS_SAMPLES = [ROOT / "data" / "samples" / n for n in (
    "sandra-holographic-display-area.json", "thalia-u-cannon.json",
    "george-base-final-scoring.json")]
SSE_SAMPLE = ROOT / "data" / "small-star-empires" / "samples" / "two-player-random.json"

#: fixture cards for the catalogue runs: invented values, never a real card's
FIXTURE_CATALOGUE = [
    {"name": "Fixture: fuzz plain", "types": ["business"], "cost": 1, "energy": 0, "vp": 1,
     "max": 2, "abilities": [], "notes": "test fixture: invented values"},
    {"name": "Fixture: fuzz adjacent", "types": ["military"], "cost": 2, "energy": 1, "vp": 0,
     "max": "none", "abilities": [{"when": "end", "per": "adjacent_location",
                                   "types": ["military"], "vp": 1, "cap": 4}]},
    {"name": "Fixture: fuzz table", "category": "race", "types": None, "cost": None,
     "energy": None, "vp": None, "max": None,
     "abilities": [{"when": "end", "per": "distinct_type", "table": {1: 1, 2: 3, 3: 6}}]},
    {"name": "Fixture: fuzz objective", "category": "objective", "vp": 4,
     "most": {"per": "station_location", "types": ["military"]}, "types": None,
     "cost": None, "energy": None, "max": None, "abilities": None},
    {"name": "Fixture: fuzz flat", "types": ["administrative", "diplomatic"], "cost": 0,
     "energy": 2, "vp": 2, "max": 1, "copies": 2, "set": "fixture", "source": "fuzz",
     "abilities": [{"when": "immediate", "flat": 2, "if": {"adjacent_to": ["business"]}}]},
]

# markers replaced in the serialised text (json.dumps cannot write these itself)
BIG = "\u0000BIGNUM\u0000"
NAN = "\u0000NAN\u0000"
DEEP = "\u0000DEEP\u0000"
_MARKS = re.compile(r'"\\u0000(BIGNUM|NAN|DEEP)\\u0000(\d*)"')


# ---------------------------------------------------------------------------
# pickers
# ---------------------------------------------------------------------------
class RandomPick:
    def __init__(self, rng):
        self.rng = rng

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def bool(self) -> bool:
        return self.int(0, 1) == 1

    def bytes(self, n: int) -> bytes:
        return bytes(self.rng.getrandbits(8) for _ in range(n))


class DataPick(RandomPick):
    """Choices drawn from Hypothesis (``data`` of ``st.data()``)."""

    def __init__(self, data):
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def int(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))

    def bytes(self, n: int) -> bytes:
        return self.data.draw(self.st.binary(min_size=n, max_size=n))


# ---------------------------------------------------------------------------
# hostile values
# ---------------------------------------------------------------------------
HOSTILE_TEXTS = [
    "", " ", "x" * 101, "x" * 4_001, "x" * 10_001, "x" * 200_000,
    "a\nb", "line\r\nbreak", "esc\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "nul\x00", "del\x7f",
    "c1\x85\x9b", "sep\u2028\u2029", "bidi\u202eevil", "lone\ud800surrogate", "\udfff",
    "../../x", "..", "/etc/passwd", "CON", "a/b\\c", "Ωé漢字", "\ufeffbom", "\t",
    "none", "null", "1", "[0, 0]", "line", "wormhole", "city", "trade_station", "build",
    "discard", "reactor", "move", "damage", "epic", "standard", "aggressive", "end",
    "immediate", "objective", "race", "location", "Garden", "Turret", "Ann", "Bob",
]
HOSTILE_INTS = [0, 1, -1, 2, 3, 5, 12, 13, 99, 100, 999, 1000, 1001, 2 ** 31, 2 ** 63,
                -2 ** 63, 10 ** 12, -10 ** 12, 10 ** 20, 10 ** 29]


def hostile_value(pick, base=None):
    """One hostile value (maybe built from ``base``, the value it replaces)."""
    kind = pick.int(0, 13)
    if kind <= 2:
        return pick.choice(HOSTILE_INTS) * (1 if pick.bool() else -1)
    if kind == 3:
        return f"{BIG}{pick.choice([31, 300, 4_301, 5_000, 100_000])}"
    if kind == 4:
        return pick.choice([1.5, -0.5, 1e308, 0.0, NAN, 1e-300])
    if kind <= 7:
        return pick.choice(HOSTILE_TEXTS)
    if kind == 8:
        return f"{DEEP}{pick.choice([5, 31, 33, 100, 900, 5_000, 200_000])}"
    if kind == 9:
        return pick.choice([None, True, False, [], {}, [None], {"": None}])
    if kind == 10:
        return [hostile_value(pick) for _ in range(pick.int(1, 3))]
    if kind == 11:
        n = pick.choice([2, 3, 1, 0])
        return [pick.choice(HOSTILE_INTS) * pick.choice([1, -1]) for _ in range(n)]
    if kind == 12 and isinstance(base, str):
        return base + pick.choice(["\n", "\x1b[2J", "\ud800", "x" * 200, " "])
    if kind == 13 and isinstance(base, int) and not isinstance(base, bool):
        return base + pick.choice([1, -1, 1000, -1000, 10 ** 12])
    return {pick.choice(HOSTILE_TEXTS[:20]): hostile_value(pick)}


# ---------------------------------------------------------------------------
# tree mutations
# ---------------------------------------------------------------------------
def _containers(tree, limit: int = 4000):
    """(container, key) of every slot in the tree, breadth-first, at most ``limit``."""
    out, queue = [], [tree]
    while queue and len(out) < limit:
        node = queue.pop(0)
        if isinstance(node, dict):
            for k in list(node):
                out.append((node, k))
                queue.append(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                out.append((node, i))
                queue.append(node[i])
    return out


def mutate_tree(tree, pick, n: int):
    for _ in range(n):
        slots = _containers(tree)
        op = pick.int(0, 9)
        if not slots or op == 9:
            tree = hostile_value(pick, tree) if pick.int(0, 4) == 0 else tree
            continue
        # prefer the actions (where the rules run) half of the time
        node, key = pick.choice(slots)
        if op <= 4:
            node[key] = hostile_value(pick, node[key])
        elif op == 5:
            if isinstance(node, dict):
                del node[key]
            else:
                node.pop(key)
        elif op == 6:
            if isinstance(node, dict):
                node[pick.choice(HOSTILE_TEXTS[:30] + ["extra", "cards", "meta", "note", "from",
                                                       "to", "via", "pay", "then", "at"])] = \
                    hostile_value(pick)
            else:
                node.insert(key, hostile_value(pick))
        elif op == 7:
            other_node, other_key = pick.choice(slots)
            node[key] = copy.deepcopy(other_node[other_key])
        else:                      # duplicate an entry many times (item-count limits)
            times = pick.choice([1, 2, 50, 3000])
            try:
                size = len(json.dumps(node[key]))
            except (TypeError, ValueError, RecursionError):
                size = 100
            times = max(1, min(times, 3_000_000 // max(size, 1)))   # files of at most ~3 MB
            if isinstance(node, list):
                node.extend([copy.deepcopy(node[key])] * times)
            else:
                node[key] = [node[key]] * times
    return tree


def _expand(m: re.Match) -> str:
    what, n = m.group(1), int(m.group(2) or 0)
    if what == "BIGNUM":
        return "9" * n
    if what == "NAN":
        return "NaN"
    return "[" * n + "]" * n


def dump_json(tree) -> bytes:
    text = json.dumps(tree, ensure_ascii=True)
    return _MARKS.sub(_expand, text).encode("utf-8")


def dump_yaml(tree) -> bytes:
    import yaml
    try:
        text = yaml.safe_dump(tree, allow_unicode=False, sort_keys=False)
    except Exception:
        return dump_json(tree)                      # JSON is YAML too
    text = re.sub(r'"?\\0BIGNUM\\0(\d+)"?', lambda m: "9" * int(m.group(1)), text)
    text = re.sub(r'"?\\0NAN\\0"?', ".nan", text)
    text = re.sub(r'"?\\0DEEP\\0(\d+)"?', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)),
                  text)
    return text.encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------------
# byte mutations
# ---------------------------------------------------------------------------
def mutate_bytes(data: bytes, pick) -> bytes:
    op = pick.int(0, 7)
    if op == 0 and data:
        return data[:pick.int(0, len(data) - 1)]
    if op == 1 and data:
        i = pick.int(0, len(data) - 1)
        return data[:i] + bytes([data[i] ^ (1 << pick.int(0, 7))]) + data[i + 1:]
    if op == 2:
        i = pick.int(0, len(data))
        return data[:i] + pick.choice([b"\xff", b"\x00", b"\xc3", b"\xed\xa0\x80", b"\x1b[31m",
                                       b"\n", b"{", b"[", b"\"", b"&a ", b"*a", b"!!binary "]) \
            + data[i:]
    if op == 3:
        try:
            return data.decode("utf-8").replace("Fixture", "Fïxture").encode("latin-1", "replace")
        except UnicodeDecodeError:
            return data
    if op == 4:
        return data.decode("utf-8", "replace").encode("utf-16")
    if op == 5:
        return pick.bytes(pick.int(0, 64))
    if op == 6:
        return b""
    return data + b"\n" + data[: pick.int(0, 200)]


YAML_SPECIALS = [
    # the alias bomb of the issue (expands in notes)
    '- name: "Fixture: bomb"\n  notes: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    '  source: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  kind: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n'
    '  set: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  copies: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n'
    '  most: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n',
    '- &x {name: "Fixture: self", notes: *x}\n',
    '- name: "Fixture: dated"\n  source: 2024-01-01\n',
    '- name: "Fixture: stamp"\n  notes: 2001-12-14t21:59:43.10-05:00\n',
    '- name: "Fixture: binary"\n  notes: !!binary aGVsbG8=\n',
    '- name: "Fixture: set"\n  notes: !!set {a, b}\n',
    '- name: "Fixture: object"\n  notes: !!python/object/apply:os.system ["true"]\n',
    '- name: "Fixture: merge"\n  base: &b {vp: 1}\n  <<: *b\n',
    '- name: "Fixture: sexagesimal"\n  vp: 1:30\n',
    '- name: "Fixture: hex"\n  vp: 0x' + "f" * 40 + '\n',
    '- name: "Fixture: inf"\n  vp: .inf\n',
    '- name: "Fixture: key"\n  ? [a, b]\n  : 1\n',
    '--- \n- name: a\n--- \n- name: b\n',
    '- name: "Fixture: tab"\n\tvp: 1\n',
    '- name: "Fixture: esc \\e[31m"\n',
    '- name: "Fixture: nel \\N"\n',
    '- name: "Fixture: sur \\ud800"\n',
    "- name: 'Fixture: many'\n" * 3,
    "".join(f"- name: 'Fixture: c{i}'\n" for i in range(2_100)),
    "- name: 'Fixture: deep'\n  notes: " + "[" * 40 + "]" * 40 + "\n",
    "- name: 'Fixture: deeper'\n  notes: " + "[" * 5_000 + "\n",
    "- name: 'Fixture: long'\n  notes: '" + "x" * 5_000 + "'\n",
    "- name: '" + "x" * 101 + "'\n",
    "- name: 'Fixture: big'\n  vp: " + "9" * 5_000 + "\n",
    "- name: 'Fixture: huge vp'\n  vp: 100000000000000000000\n",
]


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------
_BASES: dict = {}


def _base(kind: str):
    if kind not in _BASES:
        if kind == "ats":
            _BASES[kind] = [json.loads(p.read_text(encoding="utf-8")) for p in ATS_SAMPLES]
        elif kind in ("sse", "map"):
            _BASES[kind] = [json.loads(SSE_SAMPLE.read_text(encoding="utf-8"))]
        else:
            _BASES[kind] = [FIXTURE_CATALOGUE]
    return _BASES[kind]


KINDS = ("ats", "sse", "map", "catalogue")
RECORD_COMMANDS = (["score"], ["score", "--json"], ["score", "--lines"], ["check"])


def make_case(pick, kind: str) -> dict:
    """One hostile input: {"kind", "files": {name: bytes}, "commands": [[argv...]], "map"}."""
    base = copy.deepcopy(pick.choice(_base(kind)))
    n = pick.int(1, 3)
    byte_damage = pick.int(0, 5) == 0
    if kind == "catalogue":
        if pick.int(0, 4) == 0:
            data = pick.choice(YAML_SPECIALS).encode("utf-8")
        else:
            tree = mutate_tree(base, pick, n)
            data = dump_yaml(tree) if pick.int(0, 3) else dump_json(tree)
        if byte_damage:
            data = mutate_bytes(data, pick)
        name = "cards.yaml"
        return {"kind": kind, "files": {name: data},
                "commands": [["catalogue", "import", name], ["catalogue", "export", "out.yaml"],
                             ["catalogue", "unknown"]]}
    if kind == "map":
        m = mutate_tree(base["setup"]["map"], pick, n)
        base["setup"]["map"] = m
        if pick.bool():
            base["actions"] = base["actions"][:pick.int(0, 5)]
        data, map_data = dump_json(base), dump_json(m)
        if byte_damage:
            map_data = mutate_bytes(map_data, pick)
        return {"kind": kind, "files": {"game.json": data, "map.json": map_data},
                "commands": [pick.choice(RECORD_COMMANDS) + ["game.json"]], "map": "map.json"}
    data = dump_json(mutate_tree(base, pick, n))
    if byte_damage:
        data = mutate_bytes(data, pick)
    return {"kind": kind, "files": {"game.json": data},
            "commands": [pick.choice(RECORD_COMMANDS) + ["game.json"]]}


# ---------------------------------------------------------------------------
# running and judging
# ---------------------------------------------------------------------------
class _Timeout(BaseException):
    """A hang (BaseException: the CLI's `except Exception` does not hide it)."""


def _alarm(signum, frame):
    raise _Timeout()


def run_cli(argv: list[str], *, timeout: float = 20.0):
    """``companion.cli.main(argv)`` in-process: (exit code, stdout, stderr, seconds)."""
    from companion.cli import main
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    t0 = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:             # argparse
                code = e.code if isinstance(e.code, int) else 2
    except _Timeout:
        code = "hang"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - t0


_UNCLEAN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def judge(code, out: str, err: str) -> str | None:
    """What is wrong with one outcome, or None."""
    if code == 0:
        if _UNCLEAN.sub("", out.replace("\n", "").replace("\t", "")) != \
                out.replace("\n", "").replace("\t", ""):
            return "exit 0 but control characters on standard output"
        return None
    if code != 2:
        return f"exit {code}: {err.strip()[:300]!r}"
    if out:
        return f"exit 2 with standard output {out[:200]!r}"
    if not err.endswith("\n") or err.count("\n") != 1:
        return f"exit 2 but not exactly one line on standard error: {err[:300]!r}"
    line = err[:-1]
    if not line.startswith("error: "):
        return f"exit 2 but the line does not start with 'error: ': {line[:200]!r}"
    if "Traceback" in line or _UNCLEAN.search(line):
        return f"exit 2 but the line is not clean: {line[:300]!r}"
    return None


def run_case(case: dict, folder: Path, *, timeout: float = 20.0) -> list[dict]:
    """Write the case's files into ``folder`` (also the COMPANION_HOME) and run its
    commands there; one result dict per command (and one for a map file)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in case["files"].items():
        (folder / name).write_bytes(data)
    results = []
    old_home, old_cwd = os.environ.get("COMPANION_HOME"), os.getcwd()
    os.environ["COMPANION_HOME"] = str(folder / "home")
    os.chdir(folder)
    try:
        for argv in case["commands"]:
            code, out, err, secs = run_cli(list(argv), timeout=timeout)
            results.append({"argv": argv, "code": code, "out": out, "err": err, "secs": secs,
                            "problem": judge(code, out, err)})
        if case.get("map"):
            results.append(run_map(folder / case["map"]))
    finally:
        os.chdir(old_cwd)
        if old_home is None:
            os.environ.pop("COMPANION_HOME", None)
        else:
            os.environ["COMPANION_HOME"] = old_home
    return results


def run_map(path: Path) -> dict:
    """``load_map_file``: a map or MapError with one clean line, nothing else."""
    from companion.core.safeio import terminal_line
    from companion.sse.hexmap import MapError, load_map_file
    t0 = time.perf_counter()
    problem, code = None, 0
    try:
        load_map_file(path)
    except MapError as e:
        code = 2
        line = terminal_line(str(e))
        if not line or "\n" in line:
            problem = f"map error not one line: {line!r}"
    except Exception as e:          # noqa: BLE001 - any other exception is the finding
        code = 3
        problem = f"load_map_file raised {type(e).__name__}: {str(e)[:200]}"
    return {"argv": ["load_map_file", path.name], "code": code, "out": "", "err": "",
            "secs": time.perf_counter() - t0, "problem": problem}
