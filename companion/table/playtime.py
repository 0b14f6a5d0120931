"""Play details kept in a record's ``meta``: the play timer, the location, notes and
the "new player" flags (docs/record-format.md, ``meta``).

Everything here is a pure function over a ``meta`` dict: it never changes the dict
it is given and returns a new one, so a page only calls these and stores the
result (:func:`companion.table.history.set_play_details` writes it into the store).
Times are seconds since the epoch (``time.time()``); ``now`` defaults to it.

The timer in ``meta["timer"]``::

    {"started": 1767900000.0, "pauses": [[1767900600.0, 1767900900.0]], "stopped": null}

``pauses`` holds ``[paused at, resumed at]`` pairs; the last one is ``[t, null]``
while the game is paused.  :func:`stop` also writes ``meta["duration_min"]``,
the minutes played without the pauses (rounded to the nearest minute), which a
player may as well type by hand.

:func:`details` reads back every detail of a meta dict (and of records written
before these existed: everything is optional), checked and bounded: a hostile or
damaged meta gives empty details, never an exception.
"""
from __future__ import annotations

import math
import time

from ..core.jsontypes import JSON
from ..core.safeio import BAD_CHAR

#: the longest location / notes kept (characters); longer text is cut
MAX_LOCATION = 200
MAX_NOTES = 5000
#: the longest play the timer or a typed duration may give (minutes): 7 days
MAX_MINUTES = 7 * 24 * 60
#: the latest time a timestamp may carry (2100-01-01), as companion.table.history.MAX_PLAYED
MAX_TIME = 4_102_444_800

STATES = ("not started", "running", "paused", "stopped")


class TimerError(ValueError):
    """A timer step that does not apply (pause a timer that is not running...)."""


def _now(now: float | None) -> float:
    t = time.time() if now is None else float(now)
    if not math.isfinite(t) or not 0 <= t <= MAX_TIME:
        raise TimerError(f"not a time: {now!r}")
    return t


def _time(v: object) -> float | None:
    """A stored timestamp, or None when it is not one."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) and 0 <= v <= MAX_TIME else None


def timer(meta: JSON | None) -> JSON | None:
    """The meta's timer, checked: ``{"started", "pauses", "stopped"}`` or None
    (no timer, or one that is not well formed)."""
    t = (meta or {}).get("timer") if isinstance(meta, dict) else None
    if not isinstance(t, dict):
        return None
    started = _time(t.get("started"))
    if started is None:
        return None
    pauses = []
    raw = t.get("pauses") or []
    if not isinstance(raw, list):
        return None
    last = started
    for i, p in enumerate(raw[:1000]):
        if not (isinstance(p, list) and len(p) == 2):
            return None
        a, b = _time(p[0]), (None if p[1] is None else _time(p[1]))
        if a is None or a < last or (p[1] is not None and (b is None or b < a)):
            return None
        if b is None and i != len(raw) - 1:
            return None                      # only the last pause may be open
        pauses.append([a, b])
        last = b if b is not None else a
    stopped = None if t.get("stopped") is None else _time(t.get("stopped"))
    if t.get("stopped") is not None and (stopped is None or stopped < last):
        return None
    return {"started": started, "pauses": pauses, "stopped": stopped}


def _started(meta: JSON | None) -> JSON:
    """The timer of a meta whose :func:`state` says it was started."""
    t = timer(meta)
    if t is None:
        raise TimerError("the timer was never started")
    return t


def state(meta: JSON | None) -> str:
    """One of :data:`STATES`."""
    t = timer(meta)
    if t is None:
        return "not started"
    if t["stopped"] is not None:
        return "stopped"
    if t["pauses"] and t["pauses"][-1][1] is None:
        return "paused"
    return "running"


def _with_timer(meta: JSON | None, t: JSON) -> JSON:
    out = dict(meta or {})
    out["timer"] = {"started": t["started"], "pauses": [list(p) for p in t["pauses"]],
                    "stopped": t["stopped"]}
    return out


def start(meta: JSON | None, now: float | None = None) -> JSON:
    """Start the timer (the game begins).  A timer already started is refused."""
    if state(meta) != "not started":
        raise TimerError("the timer is already started")
    return _with_timer(meta, {"started": _now(now), "pauses": [], "stopped": None})


def pause(meta: JSON | None, now: float | None = None) -> JSON:
    """Pause a running timer."""
    if state(meta) != "running":
        raise TimerError(f"the timer is {state(meta)}, not running")
    t = _started(meta)
    at = max(_now(now), t["pauses"][-1][1] if t["pauses"] else t["started"])
    t["pauses"].append([at, None])
    return _with_timer(meta, t)


def resume(meta: JSON | None, now: float | None = None) -> JSON:
    """Resume a paused timer."""
    if state(meta) != "paused":
        raise TimerError(f"the timer is {state(meta)}, not paused")
    t = _started(meta)
    t["pauses"][-1][1] = max(_now(now), t["pauses"][-1][0])
    return _with_timer(meta, t)


def toggle(meta: JSON | None, now: float | None = None) -> JSON:
    """The one tap of the page: start, pause or resume, whichever applies."""
    s = state(meta)
    if s == "not started":
        return start(meta, now)
    if s == "running":
        return pause(meta, now)
    if s == "paused":
        return resume(meta, now)
    raise TimerError("the timer is stopped")


def stop(meta: JSON | None, now: float | None = None) -> JSON:
    """Stop the timer (the final table) and write ``duration_min``.  A paused timer
    stops at the moment it was paused; stopping twice keeps the first stop."""
    s = state(meta)
    if s == "not started":
        raise TimerError("the timer was never started")
    if s == "stopped":
        return dict(meta or {})
    t = _started(meta)
    if s == "paused":
        at = t["pauses"].pop()[0]         # the open pause ends the game
    else:
        at = max(_now(now), t["pauses"][-1][1] if t["pauses"] else t["started"])
    t["stopped"] = at
    out = _with_timer(meta, t)
    out["duration_min"] = min(MAX_MINUTES, int(round(elapsed(out) / 60)))
    return out


def paused_seconds(meta: JSON | None, now: float | None = None) -> float:
    """Seconds spent paused (an open pause counts up to ``now``)."""
    t = timer(meta)
    if t is None:
        return 0.0
    end = t["stopped"] if t["stopped"] is not None else None
    total = 0.0
    for a, b in t["pauses"]:
        if b is None:
            b = end if end is not None else max(_now(now), a)
        total += b - a
    return total


def elapsed(meta: JSON | None, now: float | None = None) -> float:
    """Seconds played so far (or in all, once stopped), pauses left out."""
    t = timer(meta)
    if t is None:
        return 0.0
    end: float | None = t["stopped"]
    if end is None:
        end = t["pauses"][-1][0] if t["pauses"] and t["pauses"][-1][1] is None \
            else max(_now(now), t["started"])
    paused = sum(min(b if b is not None else end, end) - a for a, b in t["pauses"] if a < end)
    played: float = end - t["started"] - paused
    return max(0.0, played)


def clock(meta: JSON | None, now: float | None = None) -> str:
    """The timer as the page shows it: ``H:MM:SS``, and its state."""
    s = int(elapsed(meta, now))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d} ({state(meta)})"


# ---------------------------------------------------------------------------
# the other details
# ---------------------------------------------------------------------------
def _text(v: object, limit: int) -> str:
    if not isinstance(v, str):
        return ""
    # control characters (but tab and newline) and lone surrogates are dropped:
    # the record's reader refuses them (companion.core.safeio), and a detail must never
    # make a stored record unreadable
    return BAD_CHAR.sub("", v).strip()[:limit]


def duration_minutes(meta: JSON | None) -> int | None:
    """The play's length in minutes: ``duration_min`` (typed or written by
    :func:`stop`), else a stopped timer's; None when unknown."""
    m = meta if isinstance(meta, dict) else {}
    d = m.get("duration_min")
    if isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= MAX_MINUTES:
        return d
    if state(m) == "stopped":
        return min(MAX_MINUTES, int(round(elapsed(m) / 60)))
    return None


def details(meta: JSON | None, players: list[str] | None = None) -> JSON:
    """Every play detail of a meta dict, checked:

    ``started`` (timestamp or None), ``duration_min`` (int or None),
    ``paused_min`` (minutes paused, 0 without a timer), ``timer`` (one of
    :data:`STATES`), ``location`` and ``notes`` (str, "" when none),
    ``new_players`` (names, in seat order when ``players`` is given; names not
    among ``players`` are left out), ``expansions`` (names declared by hand)."""
    m = meta if isinstance(meta, dict) else {}
    t = timer(m)
    new = m.get("new_players")
    new = [p for p in new if isinstance(p, str)] if isinstance(new, list) else []
    if players is not None:
        new = [p for p in players if p in new]
    exp = m.get("expansions")
    exp = [e[:80] for e in exp if isinstance(e, str) and e.strip()][:10] \
        if isinstance(exp, list) else []
    return {"started": t["started"] if t else None,
            "duration_min": duration_minutes(m),
            "paused_min": int(round(paused_seconds(m) / 60)) if t else 0,
            "timer": state(m),
            "location": _text(m.get("location"), MAX_LOCATION),
            "notes": _text(m.get("notes"), MAX_NOTES),
            "new_players": new[:6],
            "expansions": exp}


def with_details(meta: JSON | None, *, location: str | None = None, notes: str | None = None,
                 new_players: list[str] | None = None, duration_min: int | None = None,
                 expansions: list[str] | None = None) -> JSON:
    """A copy of ``meta`` with the given details set (None: left as it is; an
    empty string / list clears one).  Values are checked and bounded."""
    out = dict(meta or {})
    if location is not None:
        if not isinstance(location, str):
            raise ValueError("the location is text")
        out["location"] = _text(location, MAX_LOCATION)
    if notes is not None:
        if not isinstance(notes, str):
            raise ValueError("the notes are text")
        out["notes"] = _text(notes, MAX_NOTES)
    if new_players is not None:
        if not isinstance(new_players, list) or not all(isinstance(p, str) for p in new_players):
            raise ValueError("new players are a list of names")
        out["new_players"] = list(dict.fromkeys(_text(p, 100) for p in new_players))
    if duration_min is not None:
        if isinstance(duration_min, bool) or not isinstance(duration_min, int) \
                or not 0 <= duration_min <= MAX_MINUTES:
            raise ValueError(f"the duration is a whole number of minutes, 0 to {MAX_MINUTES}")
        out["duration_min"] = duration_min
    if expansions is not None:
        if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
            raise ValueError("expansions are a list of names")
        out["expansions"] = [e.strip()[:80] for e in expansions if e.strip()][:10]
    for k in ("location", "notes"):
        if k in out and out[k] == "":
            del out[k]
    for k in ("new_players", "expansions"):
        if k in out and out[k] == []:
            del out[k]
    return out

