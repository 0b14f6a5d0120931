"""The type-checking configuration (issue 23, "Types": "mypy --strict clean on the base,
table layer and both games; plain mypy on ui/").  ``./run-tests`` runs ``python -m mypy``
with pyproject.toml's [tool.mypy]: its ``files`` list every package of companion/ (the
base, the table layer, each registered game package, the UI), and its override sets
every per-module flag of the installed mypy's ``--strict`` on all of them but the UI
(``strict`` itself cannot be set per module)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from mypy import options as mypy_options
from mypy.main import process_options

from companion.table import registry

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
#: the layers that are checked with --strict besides each game package
STRICT_LAYERS = ("companion.core", "companion.table")
PLAIN = "companion.ui"


def _mypy_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]


def _strict_override() -> dict:
    overrides = [o for o in _mypy_config().get("overrides", [])
                 if "disallow_untyped_defs" in o]
    assert len(overrides) == 1, "one [[tool.mypy.overrides]] section holds the strict flags"
    return overrides[0]


def _strict_packages() -> set[str]:
    return set(STRICT_LAYERS) | set(registry.BUILTIN_GAMES)


def _strict_flags() -> dict[str, object]:
    """What ``--strict`` changes in the installed mypy, flag by flag."""
    def options(*args: str) -> mypy_options.Options:
        return process_options(["--config-file", "", *args, "-c", "pass"])[1]
    plain, strict = options(), options("--strict")
    names = [n for n in dir(strict) if not n.startswith("_")
             and not callable(getattr(strict, n))]
    return {n: getattr(strict, n) for n in names if getattr(plain, n, None) != getattr(strict, n)}


def test_files_list_every_package():
    listed = {f.replace("/", ".") for f in _mypy_config()["files"]}
    packages = {".".join(p.parent.relative_to(ROOT).parts)
                for p in (ROOT / "companion").glob("*/__init__.py")}
    assert _strict_packages() | {PLAIN} <= packages      # the names below are real packages
    assert listed == packages, f"missing {sorted(packages - listed)}, extra {sorted(listed - packages)}"


def test_strict_override_names_the_base_table_and_every_game_not_the_ui():
    modules = _strict_override()["module"]
    assert sorted(modules) == sorted(f"{p}.*" for p in _strict_packages())
    assert not any(m.startswith(PLAIN) for m in modules)


def test_strict_flags_are_those_of_the_installed_mypy():
    cfg, override = _mypy_config(), _strict_override()
    flags = _strict_flags()
    assert "disallow_untyped_defs" in flags and "warn_return_any" in flags   # the diff works
    for name, value in flags.items():
        if name in mypy_options.PER_MODULE_OPTIONS:
            assert override.get(name) == value, f"the strict override lacks {name} = {value}"
        else:
            assert cfg.get(name) == value, f"[tool.mypy] lacks the global {name} = {value}"


def test_the_config_checks_strict_packages_strictly_and_the_ui_plainly(tmp_path):
    """mypy itself, with pyproject.toml's section, on a copy of the layout where each
    package holds one untyped function and one wrong return: the strict packages get
    both errors, the UI only the wrong return."""
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "__init__.py").write_text("")
    for f in _mypy_config()["files"]:
        d = tmp_path / f
        d.mkdir(parents=True)
        (d / "__init__.py").write_text("")
        (d / "probe.py").write_text("def untyped(x):\n    return x\n\n\n"
                                    "def wrong() -> int:\n    return 'a'\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    for f in _mypy_config()["files"]:
        probe = f"{f}/probe.py"
        assert f"{probe}:6: error: Incompatible return value type" in out, out
        untyped = f"{probe}:1: error: Function is missing a type annotation" in out
        assert untyped == (f.replace("/", ".") != PLAIN), (probe, out)
