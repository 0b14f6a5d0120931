"""issue 25: the wheel carries its data and notebooks, and its commands work from an
install outside the checkout.

The wheel is built from a copy of this checkout's sources (``pip wheel --no-deps``: a
build in the checkout itself writes its build/ folder, and two test processes building at
once broke each other's), installed with
``--no-deps --no-index`` into a fresh virtual environment in a temporary folder; the
dependencies come from the test environment's site-packages through a ``.pth`` line
(nothing is downloaded).  Every command then runs with a temporary folder as its
working directory and without PYTHONPATH, so only the wheel's ``companion`` can be
imported (checked)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel


ROOT = Path(__file__).resolve().parent.parent
SAMPLE = "samples/thalia-u-cannon.json"
SSE_SAMPLE = "small-star-empires/samples/two-player-random.json"
#: what the wheel is built from (setup.py copies data/ and notebooks/ into the package)
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "requirements.lock",
           "companion",
           "data", "notebooks"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(cmd, cwd, env, timeout=120):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh venv's bin folder, its site-packages, an environment, a working folder)."""
    base = tmp_path_factory.mktemp("wheel")
    # no PYTHONPATH: the checkout on it (with the build's star_companion.egg-info) would
    # count as star-companion already installed
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COMPANION_TOKEN")}
    dist = base / "dist"
    src = base / "src"
    src.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=skip)
        else:
            shutil.copy2(ROOT / name, src / name)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
                 cwd=base, env=clean, timeout=300)
    assert built.returncode == 0, built.stderr
    wheels = list(dist.glob("star_companion-*.whl"))
    assert len(wheels) == 1, wheels
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base,
                env=clean)
    assert made.returncode == 0, made.stderr
    py = venv / "bin" / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     cwd=base, env=clean).stdout.strip())
    # the dependencies: the test environment's site-packages, after the venv's own
    (site / "deps-from-test-env.pth").write_text(sysconfig.get_path("purelib") + "\n")
    inst = _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--ignore-installed",
                 "--no-index", "-q", str(wheels[0])], cwd=base, env=clean)
    assert inst.returncode == 0, inst.stderr
    env = dict(clean)
    env["COMPANION_HOME"] = str(base / "home")
    # Voila's own templates (lab, base) are in the dependencies' prefix, not the new venv's
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    for var, sub in [("JUPYTER_RUNTIME_DIR", "rt"), ("JUPYTER_CONFIG_DIR", "jcfg"), ("TMPDIR", "tmp")]:
        (base / sub).mkdir()
        env[var] = str(base / sub)
    work = base / "work"
    work.mkdir()
    return {"wheel": wheels[0], "bin": venv / "bin", "site": site, "env": env, "cwd": work}


def test_the_wheel_ships_data_notebooks_license_and_commands(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for rel in ("data/" + SAMPLE, "data/" + SSE_SAMPLE, "data/among-the-stars/cards.yaml",
                "data/small-star-empires/maps/basic-2p.json", "notebooks/companion.ipynb",
                "notebooks/config/voila.py",
                "notebooks/config/jupyter/nbconvert/templates/star-companion/conf.json",
                "notebooks/config/jupyter/nbconvert/templates/star-companion/index.html.j2",
                "notebooks/config/jupyter/nbconvert/templates/star-companion/ordered_sync.js"):
        folder, _, rest = rel.partition("/")
        assert (ROOT / rel).is_file(), rel                       # the checkout keeps its layout
        assert f"companion/_{folder}/{rest}" in names, rel
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    meta = zipfile.ZipFile(installed["wheel"]).read(
        "star_companion-0.1.0.dist-info/METADATA").decode()
    assert "Name: star-companion" in meta
    assert "Among the Stars" in meta and "Small Star Empires" in meta
    assert "License :: OSI Approved :: MIT License" in meta
    assert any(n.endswith("dist-info/licenses/LICENSE") or n.endswith("dist-info/LICENSE")
               for n in names)
    entry = zipfile.ZipFile(installed["wheel"]).read(
        "star_companion-0.1.0.dist-info/entry_points.txt").decode()
    assert "star-companion = companion.cli:main" in entry
    assert "star-companion-dashboard = companion.dashboard:main" in entry


def test_the_installed_package_is_the_wheels(installed):
    got = _run([str(installed["bin"] / "python"), "-c",
                "import companion, companion.core.paths as p; "
                "print(companion.__file__); print(p.data_dir()); print(p.notebooks_dir())"],
               cwd=installed["cwd"], env=installed["env"])
    assert got.returncode == 0, got.stderr
    module, data, notebooks = got.stdout.split("\n")[:3]
    site = str(installed["site"])
    assert module.startswith(site), module
    assert data == str(installed["site"] / "companion" / "_data")
    assert notebooks == str(installed["site"] / "companion" / "_notebooks")


@pytest.mark.parametrize("sample", [SAMPLE, SSE_SAMPLE])
def test_score_on_a_shipped_sample_matches_the_checkout(installed, sample):
    shipped = installed["site"] / "companion" / "_data" / sample
    wheel = _run([str(installed["bin"] / "star-companion"), "score", str(shipped)],
                 cwd=installed["cwd"], env=installed["env"])
    here = _run([sys.executable, "-m", "companion", "score", str(ROOT / "data" / sample)],
                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert here.returncode == 0, here.stderr
    assert wheel.returncode == 0, wheel.stderr
    assert wheel.stdout == here.stdout
    assert "Thalia" in wheel.stdout or "player" in wheel.stdout


def test_catalogue_unknown_finds_the_shipped_catalogue(installed):
    wheel = _run([str(installed["bin"] / "star-companion"), "catalogue", "unknown"],
                 cwd=installed["cwd"], env=installed["env"])
    here = _run([sys.executable, "-m", "companion", "catalogue", "unknown"], cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_HOME": installed["env"]["COMPANION_HOME"]})
    assert wheel.returncode == 0, wheel.stderr
    assert wheel.stdout == here.stdout
    # a card of the shipped catalogue (data/among-the-stars/cards.yaml) is listed
    assert "U-Cannon" in wheel.stdout


def test_dashboard_command_answers_with_the_page(installed):
    port = free_port()
    log = installed["cwd"] / "dashboard.log"
    env = {**installed["env"], "COMPANION_POOL_SIZE": "0"}
    with open(log, "w") as fh:
        proc = subprocess.Popen([str(installed["bin"] / "star-companion-dashboard"), "--port", str(port)],
                                cwd=installed["cwd"], env=env, stdout=fh, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        page = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=90) as resp:
                    page = (resp.status, resp.read().decode("utf-8", "replace"))
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        assert page is not None, log.read_text()
        status, body = page
        assert status == 200
        # the page is the notebook's, rendered with the shipped template "star-companion"
        assert "/voila/templates/star-companion/static/" in body, log.read_text()
        assert "#companion-banner" in body                   # the template's own style
        assert "window.companionOrderedSync = function" in body   # ordered_sync.js, included
        assert "application/vnd.jupyter.widget-view+json" in body
        assert "fontawesome" not in body.lower()
        assert "Traceback" not in body
    finally:
        try:
            os.killpg(proc.pid, 15)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
