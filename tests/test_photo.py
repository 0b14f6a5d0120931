"""Reading a photo of a station's cards, or of one card (issue 40): companion.ats.photo.

The photos are synthetic (tests/photokit.py); real photos of printed cards are not
part of these tests.  Only card names are used, never card numbers."""
from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

from companion.ats import photo
from companion.ats.photo import PhotoError
from companion.core.errors import CompanionError

sys.path.insert(0, str(Path(__file__).parent))
import photokit  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [row["name"] for row in csv.DictReader(
    (ROOT / "data" / "among-the-stars" / "card-names.csv").open(encoding="utf-8"))]
TYPED = ["Xenobiology Lab", "Stellar Forge", "Quantum Archive Vault"]   # typed by players
NAMES = SHIPPED + TYPED
SMALL = photokit.Distortion(max_angle=0.0, skew=0.0, blur=0.0, quality=90, size=(1500, 2000))
BENT = photokit.Distortion(max_angle=8.0, skew=0.04, blur=1.5, quality=75, size=(1800, 2400))

LAYOUT = {(0, 0): "Main Reactor", (0, 1): "Shield Generator", (0, -1): "Holographic Display Area",
          (1, 0): "Power Reactor", (1, 1): "Stellar Forge", (-1, 0): "Galactic Bank",
          (-1, 1): "Trade Union Headquarters", (1, -1): "Xenobiology Lab"}


def ocr() -> None:
    pytest.importorskip("rapidocr_onnxruntime")


def names_by_cell(result: photo.StationPhoto) -> dict[tuple[int, int], str | None]:
    return {c.at: c.name for c in result.cells}


def test_clean_photo_places_every_name():
    ocr()
    result = photo.read_station(photokit.station_photo(LAYOUT, seed=1, distortion=SMALL), NAMES)
    assert result.anchored
    assert names_by_cell(result) == LAYOUT
    assert not any(c.uncertain for c in result.cells)
    assert result.seconds > 0


def test_turned_skewed_blurred_photo_places_every_name():
    ocr()
    for seed in (2, 3):
        result = photo.read_station(photokit.station_photo(LAYOUT, seed=seed, distortion=BENT),
                                    NAMES)
        assert result.anchored, result.notes
        assert names_by_cell(result) == LAYOUT, seed


def test_a_misread_name_is_marked_uncertain_with_options():
    ocr()
    layout = {(0, 0): "Main Reactor", (0, 1): "Trade Centre", (1, 0): "Turret"}
    result = photo.read_station(photokit.station_photo(layout, seed=4, distortion=SMALL), NAMES)
    cell = {c.at: c for c in result.cells}[(0, 1)]
    assert cell.uncertain
    assert cell.read.lower().replace(" ", "") == "tradecentre"
    assert "Galactic Trade Centre" in (cell.name, *cell.options)
    assert len(cell.options) >= 1
    assert not {c.at: c for c in result.cells}[(1, 0)].uncertain


def test_without_the_main_reactor_the_cells_are_placed_from_the_top_left():
    ocr()
    layout = {(0, 0): "Garden", (0, 1): "Turret", (1, 1): "Opera House", (1, 2): "Hotel"}
    result = photo.read_station(photokit.station_photo(layout, seed=5, distortion=SMALL), NAMES)
    assert not result.anchored
    assert any("Main Reactor was not found" in n for n in result.notes)
    assert names_by_cell(result) == layout


def test_one_card_gives_its_name_first():
    ocr()
    for seed, title in ((6, "Communications Beacon"), (7, "Quantum Archive Vault")):
        ranked = photo.read_card(photokit.card_photo(title, seed=seed), NAMES)
        assert ranked[0][0] == title
        assert 0.8 <= ranked[0][1] <= 1.0


def _jpeg(size: tuple[int, int] = (400, 300)) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", size, (200, 200, 200)).save(out, format="JPEG")
    return out.getvalue()


@pytest.mark.parametrize("data, words", [
    (b"", "empty"),
    (b"this is a shopping list, not a picture", "not a photo"),
    ("/tmp/station.jpg", "not a photo"),
])
def test_bad_input_is_a_clear_photo_error(data, words):
    for read in (photo.read_station, photo.read_card):
        with pytest.raises(PhotoError, match=words):
            read(data, NAMES)


def test_a_truncated_jpeg_is_a_photo_error():
    pytest.importorskip("PIL")
    data = photokit.station_photo({(0, 0): "Main Reactor"}, seed=8, distortion=SMALL)
    with pytest.raises(PhotoError, match="cut short"):
        photo.read_station(data[: len(data) // 2], NAMES)


def test_a_huge_image_is_refused_before_it_is_decoded():
    from PIL import Image
    out = io.BytesIO()
    Image.new("1", (9000, 6000)).save(out, format="PNG")      # 54 megapixels, a small file
    with pytest.raises(PhotoError, match="too large.*megapixels"):
        photo.read_station(out.getvalue(), NAMES)


def test_a_photo_without_any_text_is_a_photo_error():
    ocr()
    with pytest.raises(PhotoError, match="No card titles"):
        photo.read_station(_jpeg(), NAMES)
    with pytest.raises(PhotoError, match="No text"):
        photo.read_card(_jpeg(), NAMES)


def test_without_the_ocr_package(monkeypatch):
    pytest.importorskip("PIL")
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)   # import fails
    monkeypatch.setattr(photo, "_ENGINE", None)
    assert photo.available() is False
    for read in (photo.read_station, photo.read_card):
        with pytest.raises(PhotoError, match=r"\./dashboard --camera") as err:
            read(_jpeg(), NAMES)
        assert isinstance(err.value, CompanionError)
        assert "\n" not in str(err.value)


def test_the_module_imports_without_the_ocr_package():
    import subprocess
    code = ("import sys; sys.modules['rapidocr_onnxruntime'] = None\n"
            "from companion.ats import photo\n"
            "assert photo.available() is False\n"
            "assert 'rapidocr_onnxruntime' not in [m for m in sys.modules if sys.modules[m]]\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_available_says_whether_the_package_is_installed():
    try:
        import rapidocr_onnxruntime  # noqa: F401
        expected = True
    except ImportError:
        expected = False
    assert photo.available() is expected


def test_matching_tolerates_ocr_look_alikes():
    catalogue = photo._Names(NAMES)
    assert catalogue.rank("G4LACTIC BANK")[0][0] == "Galactic Bank"
    assert catalogue.rank("Ga1actic Research Faci1ity")[0] == ("Galactic Research Facility", 1.0)
    assert catalogue.rank("Arnbassador Quarters")[0] == ("Ambassador Quarters", 1.0)
    assert catalogue.rank("C0UNCIL R00M")[0] == ("Council Room", 1.0)
    assert catalogue.rank("stellarforge")[0] == ("Stellar Forge", 1.0)
