"""The line of entry (issue 40, "Hands-free"): what a player says, or dictates into the
phone's keyboard ("build bio lab at one zero, energy from the main reactor", "Ben: trade
station to the red nebula"), or a line of notation, read by the game in the context of
the position (``game.parse``: :mod:`companion.ats.spoken`, :mod:`companion.sse.spoken`).

Nothing is recorded from the line itself: what the game understood is put into the page's
ordinary entry (the player, the card, the cell highlighted, the energy chosen; in Small
Star Empires the ship, the piece, the destination), where one tap confirms it or the form
corrects it.  What cannot be read gets one line saying what was missed; close names are
offered as buttons.  No rule here: the reading is the engine's, the staging the screen's
(``stage``), the recording the session's.  Every text shown is escaped."""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as w

from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from ..core.htmlsafe import escape
from ..core.notation import IncompleteNotation
from .common import ERR
from .writes import writes

#: what a game's entry form asks anyway: a line that leaves only this open is staged
FORM_ASKS = {"ats": ("at", "energy_from"), "sse": ("to", "piece")}
#: what the form still asks, in a player's words
STILL = {"at": "its cell (tap a green one)",
         "energy_from": "the reactors that pay its energy (below)",
         "to": "the destination (tap a green system)",
         "piece": "the piece (City or Trade Station), then Confirm"}
EXAMPLES = {"ats": "say it: bio lab at one zero",
            "sse": "say it: city on the red nebula"}


class SayLine:
    """One text line, a *Read* button and one line of reply.  ``stage(value)`` puts an
    understood action into the screen's entry; ``take(name)`` (optional) puts a close
    name offered as a button into it; ``who()`` (optional): the player a line that names
    nobody is for (a seat's page: its player); ``beside``: widgets in the line's row
    (the card's camera)."""

    def __init__(self, screen: Any, stage: Callable[[dict[str, Any]], None], game: str,
                 take: Callable[[str], None] | None = None,
                 who: Callable[[], str | None] | None = None,
                 beside: tuple[w.Widget, ...] = ()) -> None:
        self.screen = screen
        self.stage = stage
        self.take = take
        self.who = who              # whose the line is when it names nobody (a seat's page)
        self.form_asks = FORM_ASKS.get(game, ())
        self.example = EXAMPLES.get(game, "say what was done").removeprefix("say it: ")
        self.text = w.Text(placeholder=EXAMPLES.get(game, "say what was done"),
                           continuous_update=False,
                           layout=w.Layout(flex="1 1 0%", width="auto", min_width="0"))
        self.text.add_class("say-line")
        self.go = w.Button(description="Read", icon="comment", tooltip=(
            "read what is typed or dictated: nothing is recorded before you confirm"),
            layout=w.Layout(width="auto", min_height="40px"))
        self.go.add_class("say-go")
        # empty, they take no room (the laptop's first screen keeps the whole board)
        self.reply = w.HTML(layout=w.Layout(display="none"))
        self.reply.add_class("say-reply")
        self.reply.observe(lambda ch: setattr(self.reply.layout, "display",
                                              "" if ch["new"] else "none"), "value")
        self.options = w.HBox(layout=w.Layout(flex_flow="row wrap", display="none"))
        self.options.observe(lambda ch: setattr(self.options.layout, "display",
                                                "" if ch["new"] else "none"), "children")
        self.options.add_class("say-options")
        row = w.HBox([self.text, self.go, *beside],
                     layout=w.Layout(width="100%", flex_flow="row nowrap"))
        row.add_class("say-row")
        self.box = w.VBox([row,
                           self.reply, self.options], layout=w.Layout(min_width="0"))
        self.box.add_class("say-box")
        writes(self.box)
        self._read_text: str | None = None
        self.go.on_click(screen.guarded(lambda _: self.read(force=True)))
        self.text.observe(screen.guarded(lambda _: self.read()), "value")

    def clear(self) -> None:
        """After an entry is recorded or the page changes game: an empty line."""
        self._read_text = None
        self.reply.value = ""
        self.options.children = []

    def read(self, force: bool = False) -> None:
        """Read the line (Enter, or the button): the understood action staged, or one
        line saying what was missed.  The same text is read once (the button after
        Enter), unless the button asks again."""
        text = (self.text.value or "").strip()
        if not text:
            if force:
                self.say_missed(f"Say or type what was done, e.g. \"{self.example}\".")
            return
        if text == self._read_text and not force:
            return
        self._read_text = text
        self.options.children = []
        game = self.screen.game
        if game is None or game.state.finished:
            self.say_missed("No game is being played on this page.")
            return
        try:
            player = self.who() if self.who is not None else None
            value = game.parse(text, player=player) if player else game.parse(text)
        except UnknownCardValues as e:
            if e.action.get("do"):              # understood: the form asks the values
                self.understood(e.action)
                return
            self.say_missed(str(e))
            return
        except IncompleteNotation as e:
            if e.missing in self.form_asks and e.partial.get("do"):
                # understood but for what the entry's form asks anyway (the cell on the
                # grid, the energy's reactors, the piece): staged, the form asks the rest
                self.understood(e.partial, missing=e.missing)
                return
            self.say_missed(self._plain(str(e)))
            self._offer(e)
            return
        except IllegalAction as e:
            self.say_missed(f"Not possible: {e}")
            return
        except CompanionError as e:
            self.say_missed(self._plain(str(e)))
            return
        self.understood(value.to_dict())

    def understood(self, action: dict[str, Any], missing: str = "") -> None:
        # a whole action in the game's own words; a partial one as it was said (the
        # game's words would describe what it is not yet)
        words = self._said_back(action) if not missing else said_words(action)
        rest = (f" Not recorded yet; still to choose: {STILL.get(missing, missing)}."
                if missing else " Not recorded yet: check it below and tap Confirm, or "
                "correct it.")
        self.reply.value = (f"<span class='say-understood'>Understood: <b>{escape(words)}</b>."
                            f"{rest}</span>")
        self.stage(action)

    def _said_back(self, action: dict[str, Any]) -> str:
        """A whole action said back in the game's words, with where it lands (issue 52:
        "Ben: city on the blue nebula at 0,2, 1 step east (right) of ship 0"), so a
        misreading is seen before Confirm; the record's words where a game has none."""
        say_back = getattr(self.screen.game, "say_back", None)
        if say_back is None:
            return str(self.screen.session.describe(action))
        return str(say_back(action))

    def stale(self) -> None:
        """The action staged from the line was not recorded: another page changed the
        game first.  The sentence stays in the line; one tap on *Read* reads it again in
        the position the page shows now (nothing is sent before that and Confirm)."""
        if self._read_text is None or not (self.text.value or "").strip():
            return
        self._read_text = None
        self.say_missed("Not recorded: the game changed on another page. Your sentence is "
                        "still here: press Read to read it again in the new position.")

    def say_missed(self, words: str) -> None:
        self.reply.value = f"<span class='say-missed' style='color:{ERR}'>{escape(words)}</span>"

    def _offer(self, e: IncompleteNotation) -> None:
        """Close names as buttons (a tap puts the name into the entry's form)."""
        if self.take is None or e.missing != "card":
            return
        kids = []
        for name in [o for o in e.options if isinstance(o, str)][:4]:
            b = w.Button(description=name, layout=w.Layout(width="auto", min_height="40px"))
            b.add_class("say-option")
            b.on_click(self.screen.guarded(lambda _, n=name: self._took(n)))
            kids.append(b)
        self.options.children = kids

    def _took(self, name: str) -> None:
        self.options.children = []
        assert self.take is not None
        self.take(name)

    @staticmethod
    def _plain(message: str) -> str:
        """The notation's "notation: " prefix off: a player did not write notation."""
        return message[len("notation: "):] if message.startswith("notation: ") else message


def said_words(action: dict[str, Any]) -> str:
    """A partial action as it was said: who, what, the card or ship, where."""
    parts = [str(action[k]) for k in ("player", "do") if action.get(k)]
    if action.get("card"):
        parts.append(str(action["card"]))
    if action.get("ship") is not None:
        parts.append(f"ship {action['ship']}")
    for key, mark in (("at", "at"), ("to", "to")):
        v = action.get(key)
        if isinstance(v, (list, tuple)) and len(v) == 2:
            parts.append(f"{mark} [{v[0]}, {v[1]}]")
    if action.get("piece"):
        parts.append(str(action["piece"]).replace("_", " "))
    return " ".join(parts)
