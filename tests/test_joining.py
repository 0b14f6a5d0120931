"""companion.table.joining (issue 14): page addresses for seats and the table view, and
their QR codes."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.table.joining import join_url, qr_svg, qr_text

BASE = "http://192.168.1.20:8866/"
HOSTILE = [
    "Ana",
    "Ana María",
    "Zoë & Jürgen",
    "a=b&seat=Mallory&token=x",
    "#frag?q=1",
    "1+1 %20 %",
    "<script>alert(1)</script>",
    "\"quoted\" 'single'",
    "tab\there / slash\\back",
    "日本語 😀",
]


def _query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query, keep_blank_values=True, strict_parsing=True)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_seat_name_round_trips_as_one_parameter(name):
    url = join_url(BASE, token="tok_en-0123456789abcdef", seat=name, game="g42")
    q = _query(url)
    assert q == {"seat": [name], "token": ["tok_en-0123456789abcdef"], "game": ["g42"]}
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path, parts.fragment) == (
        "http", "192.168.1.20:8866", "/", "")
    assert " " not in url and "<" not in url and "#" not in url


def test_table_view_and_parameters_left_out():
    assert join_url(BASE) == BASE
    assert join_url(BASE, view="table") == BASE + "?view=table"
    assert _query(join_url(BASE, token="t" * 20, view="table")) == {
        "view": ["table"], "token": ["t" * 20]}
    assert join_url("http://127.0.0.1:8866", seat="Ben") == "http://127.0.0.1:8866/?seat=Ben"
    assert join_url(BASE, seat="", token=None, game=None) == BASE


def test_a_query_in_the_base_is_kept_and_a_fragment_dropped():
    url = join_url("http://h:1/voila/?x=1#top", seat="Ana")
    assert url == "http://h:1/voila/?x=1&seat=Ana"


@pytest.mark.parametrize("base", ["", "192.168.1.20:8866", "ftp://h/", "javascript:alert(1)"])
def test_not_an_http_address_is_refused(base):
    with pytest.raises(ValueError):
        join_url(base, seat="Ana")


def test_seat_and_view_together_are_refused():
    with pytest.raises(ValueError):
        join_url(BASE, seat="Ana", view="table")


@pytest.mark.parametrize("name", HOSTILE)
def test_the_svg_is_well_formed_and_holds_no_user_text(name):
    url = join_url(BASE, token="tok_en-0123456789abcdef", seat=name)
    svg = qr_svg(url)
    root = ET.fromstring(svg)
    assert root.tag.rsplit("}", 1)[-1] == "svg"
    assert root.get("viewBox")
    # only the code's geometry: no text nodes, no element beyond svg/path, no user text
    assert {el.tag.rsplit("}", 1)[-1] for el in root.iter()} <= {"svg", "path"}
    assert all(not (el.text or "").strip() for el in root.iter())
    for piece in ("script", "alert", "token", "seat", "192.168", name.split()[0]):
        assert piece not in svg


def test_an_address_too_long_for_a_qr_code_gives_no_svg():
    assert qr_svg(BASE + "?seat=" + "x" * 8000) == ""


def test_terminal_qr_is_compact_text():
    text = qr_text(join_url(BASE, view="table", token="t" * 24))
    lines = text.splitlines()
    assert len(lines) > 10
    assert set("".join(lines)) <= set("█▀▄ ")
    # compact: two module rows per line, so fewer lines than columns
    assert len(lines) < len(lines[0])


def test_command_line_prints_the_terminal_qr():
    url = join_url(BASE, view="table", token="t" * 24)
    run = subprocess.run([sys.executable, "-m", "companion.table.joining", url],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == qr_text(url)
    piped = subprocess.run([sys.executable, "-m", "companion.table.joining", "-"],
                           input=url + "\n", capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0 and piped.stdout == run.stdout
    bad = subprocess.run([sys.executable, "-m", "companion.table.joining"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "usage" in bad.stderr
