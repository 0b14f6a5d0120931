"""The one CSV writer of the companion: every CSV (the plays CSV, the statistics
CSVs of the command line and of the History tab, the final table's CSV) is
written here, so no cell can run as a formula in a spreadsheet (OWASP: CSV
injection, https://owasp.org/www-community/attacks/CSV_Injection).

The rule (docs/history.md, "CSV files"):

- a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return
  or a line feed is written with a single quote in front (``'=HYPERLINK(...)``):
  a spreadsheet shows it as text, it never runs it;
- a number stays a number: an ``int``/``float`` value (a score of -3, a total)
  is written as it is, and so is a text cell that is exactly a plain decimal
  number (``-3``, ``+2``, ``-0.5``): a spreadsheet reads it as that number, there is
  no formula in it (OWASP's guidance escapes the formula characters; a lone
  signed number has no function, reference or operator after its sign);
- anything else is written as it is; quoting (commas, quotes, line breaks inside
  a cell) is the csv module's.

Column names and index labels go through the same rule (a player's name is a
column of the head-to-head table).
"""
from __future__ import annotations

import csv
import io
import numbers
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

#: the first characters that make a spreadsheet read a cell as a formula (OWASP),
#: plus the line feed (a cell that starts on a new line hides what follows)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def is_formula_like(text: str) -> bool:
    """True when a spreadsheet could run ``text`` (it starts with a formula
    character and is not a plain number)."""
    return text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text)


def safe_cell(value: Any) -> Any:
    """One cell made safe: a formula-like text gets a leading single quote;
    numbers, None and every other value are returned unchanged."""
    if isinstance(value, str):
        return "'" + value if is_formula_like(value) else value
    if value is None or isinstance(value, (bool, numbers.Number)):
        return value
    text = str(value)
    return "'" + text if is_formula_like(text) else value


def _blank(v: Any) -> Any:
    """A missing value (None, NaN, pandas' NA/NaT) as an empty cell, as pandas writes it."""
    import pandas as pd
    if v is None:
        return ""
    if type(v) is str:                   # the common cell: never missing
        return v
    try:
        return "" if v is pd.NA or v is pd.NaT or (isinstance(v, float) and v != v) \
            or (isinstance(v, numbers.Number) and bool(pd.isna(v))) else v
    except (TypeError, ValueError):
        return v


def _cell(v: Any) -> Any:
    """``_blank(safe_cell(v))``, with the two common cells (a text, an int) first: a
    plays CSV of 10,000 games has 100,000 cells (issue 26)."""
    t = type(v)
    if t is str:
        return "'" + v if v.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(v) else v
    if t is int:
        return v
    return _blank(safe_cell(v))


def rows_csv(rows: Iterable[Iterable[Any]], header: Iterable[Any] | None = None) -> str:
    """Rows (and a header) as CSV text with ``\n`` line ends, every cell through
    :func:`safe_cell`; None/NaN as an empty cell.  A cell holding a carriage return
    or a line feed is quoted (the csv module quotes only the characters of its own
    line terminator: with ``\n`` alone a lone CR was written bare and split the row)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")       # quotes any cell with CR or LF
    out = []
    for row in ([header] if header is not None else []) + [r for r in rows]:
        buf.seek(0)
        buf.truncate()
        w.writerow([_cell(v) for v in row])
        out.append(buf.getvalue()[:-2] + "\n")
    return "".join(out)


def frame_csv(df: pd.DataFrame, *, index: bool = False, path: str | Path | None = None) -> str:
    """A DataFrame as CSV text (UTF-8, header, ``\\n`` line ends), every cell, column
    name and index label safe; written to ``path`` too when given."""
    names = list(df.index.names) if index else []
    header = [("" if n is None else n) for n in names] + [str(c) for c in df.columns]
    body = (((list(i) if isinstance(i, tuple) else [i]) if index else []) + list(r)
            for i, *r in df.itertuples(index=True, name=None))
    text = rows_csv(body, header)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text
