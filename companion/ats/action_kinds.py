"""The kinds of turn action a player may choose now, with their words and costs
(issue 23, "no rule in the page"): the page shows these labels and hints, the numbers
come from the rules' constants (:mod:`companion.ats.setup`), the hints quote the
:class:`~companion.core.rules.Rule` texts.  No widgets here."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.rules import ATS, Rule
from .setup import CONFLICT_COST, DISCARD_GAIN, MAX_SPACESHIP_REMOVAL, REACTOR_COST, Setup

#: a Power Reactor enters the station with 2 energy cubes (B 4, Build Power Reactor;
#: companion.ats.build places it so)
REACTOR_CUBES = 2


def _credits(n: int) -> str:
    return f"{n} credit" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class ActionKind:
    """One kind of turn action (the record's ``do``).

    ``label``: the page's choice; ``button``: the words of the button that records it
    (None: a cell of the grid records it); ``cost``: the credits it costs (None: the
    card's printed cost); ``gain``: the credits it gives; ``hint``: what the page says
    when it is chosen; ``rule``: the rule the hint quotes (its text: ``rule_text``)."""
    kind: str
    label: str
    cost: int | None
    gain: int
    hint: str
    rule: Rule | None
    button: str | None = None

    @property
    def rule_text(self) -> str:
        return self.rule.text(ATS) if self.rule is not None else ""


def base_kinds() -> list[ActionKind]:
    """The turn actions of every game (B 4): build a location, build a Power Reactor,
    discard the card for credits."""
    return [
        ActionKind("build", "Build location", None, 0,
                   "Click a highlighted cell to build it.", Rule.NOT_ADJACENT),
        ActionKind("reactor", "Build reactor", REACTOR_COST, 0,
                   f"Click a highlighted cell to build a Power Reactor ({_credits(REACTOR_COST)}, "
                   f"{REACTOR_CUBES} cubes).", Rule.REACTOR_CREDITS),
        ActionKind("discard", f"Discard for {_credits(DISCARD_GAIN)}", 0, DISCARD_GAIN,
                   f"Discard the selected card and take {_credits(DISCARD_GAIN)}.", None,
                   button=f"Discard for {_credits(DISCARD_GAIN)}"),
    ]


def action_kinds(setup: Setup) -> list[ActionKind]:
    """The turn actions of a game of ``setup``, in the page's order: :func:`base_kinds`;
    Apply Conflict in aggressive mode; Remove spaceships with the Revival spaceships."""
    kinds = base_kinds()
    if setup.mode == "aggressive":
        kinds.append(ActionKind(
            "conflict", "Apply Conflict", CONFLICT_COST, 0,
            f"Apply the Conflict: it costs {_credits(CONFLICT_COST)}.", Rule.CONFLICT,
            button=f"Apply the Conflict ({_credits(CONFLICT_COST)})"))
    if setup.options.get("spaceships"):
        kinds.append(ActionKind(
            "remove_spaceships", "Remove spaceships", 0, 0,
            f"Discard the selected card and remove up to {MAX_SPACESHIP_REMOVAL} spaceships.",
            Rule.SPACESHIPS))
    return kinds
