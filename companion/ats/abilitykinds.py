"""The ability-kind table: one entry per kind of ability (docs/abilities.md).

Everything the companion does that depends on *which kind* an ability is goes
through :data:`KINDS` (keyed by the kind's name, the one key of the ability as
written that names it: ``per``, ``flat``, ...).  An entry carries:

- ``validate``: the kind's own check of the ability as written (the keys every
  ability has are checked by :func:`validate_ability`);
- ``unknowns``: the names of its values still not known (null);
- ``evaluate``: the VP it gives and a short explanation (None: the engine does
  not compute it, the players answer or it acts on spaceships);
- ``describe``: one line a player can read;
- ``answer``, ``question``, ``default``, ``check``: the action key holding the
  players' answer to an immediate ability of this kind, what to ask them, the
  answer a trial (what-if) assumes, and the check of the answer in a build;
- ``ask``: what ``Game.needs`` puts under ``answer`` for a build of the card (the
  page's question, from an :class:`Asking`) and the answer it assumes to check
  the rest of the build (None: the kind asks nothing there);
- ``resolve``: how the answer is applied (in words, naming the code that does it),
  with ``typed`` (the VP typed by the players is gained) and ``pending`` (it
  resolves after everyone's action, as the rulebook's interactions do);
- ``templates``, ``template_of``, ``form_rank``: the card form's choices.

A new kind is one more entry here, its name in the vocabulary's words
(``vocabulary.ABILITY_KINDS``, which :class:`~companion.ats.vocabulary.Ability` reads
its kind from; the entry reads its values from the ability as written, ``ab["n"]``)
and its section in docs/abilities.md.  tests/test_ability_kinds.py checks every
entry and that no module outside this one tests ``ab.kind`` against a kind's name.
The counters and conditions the evaluations use are companion/ats/counters.py;
companion/ats/abilities.py evaluates any ability through this table.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..core.errors import CatalogueError, IllegalAction
from . import counters as cnt
from .vocabulary import (ABILITY_COMMON, ABILITY_KINDS, CHOICES, CONDITIONS, COUNTERS, SPACESHIP_TARGETS, TYPES,
                         VALUE_LIMIT, WHEN, Ability, in_range, types_ok)

#: ``err(message, key=None)``: raises CatalogueError naming the file, card and key
Err = Callable[..., NoReturn]
#: a template of the card form: (label, the ability's skeleton, the fields it shows,
#: extra words the find box matches)
Template = tuple[str, "dict[str, Any] | None", tuple[str, ...], str]


def _nothing(ab: Ability) -> list[str]:
    return []


@dataclass(frozen=True)
class Asking:
    """What a kind's ``ask`` reads about the build being asked about (``Game.needs``):
    the card, the players other than the builder, whether the Spaceships module is in
    play, and ``spots(target)``: the ``[player, [r, c]]`` spaces a spaceship of an
    ability with that ``target`` could go to (R 3)."""
    card: str
    others: list[str]
    spaceships: bool
    spots: Callable[[str], list[list[Any]]]


@dataclass(frozen=True)
class AbilityKind:
    """One kind of ability; see the module's text for what each entry means."""
    name: str
    #: the keys it accepts besides the kind's own and ABILITY_COMMON (per: also its counter's)
    keys: tuple[str, ...]
    #: the kind's own check: the ability (normalised) and the keys it accepts
    validate: Callable[[dict[str, Any], Err], tuple[dict[str, Any], set[str]]]
    describe: Callable[[Ability], str]
    resolve: str
    unknowns: Callable[[Ability], list[str]] = _nothing
    evaluate: Callable[[Ability, cnt.Context], tuple[int, str]] | None = None
    value: Callable[[Ability, cnt.Context], int] | None = None
    typed: bool = False
    pending: bool = False
    answer: str | None = None
    question: str | None = None
    default: Callable[[Ability, list[str]], Any] | None = None
    check: Callable[[Ability, dict[str, Any], str, list[str]], None] | None = None
    templates: Mapping[str, Template] = field(default_factory=dict)
    template_of: Callable[[Ability], str] = lambda ab: "manual"
    #: the card's own (label, skeleton) for its template (the School's pay/lose), or None
    own_template: Callable[[Ability], tuple[str, dict[str, Any]]] | None = None
    #: the number the form's "N (VP)" field shows
    form_n: Callable[[Ability], int | None] = lambda ab: None
    form_rank: int = 99
    help: str = ""
    #: ``ask(ab, asking, asked)``: (the question under ``answer``, the answer assumed to
    #: check the rest), or None; ``asked`` is what an earlier ability of the card put
    #: there (None if nothing)
    ask: Callable[[Ability, Asking, Any], tuple[Any, Any] | None] | None = None


# -- per ---------------------------------------------------------------------------------
def _validate_per(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    counter = ab["per"]
    if not isinstance(counter, str) or counter not in COUNTERS:
        err(f"unknown counter '{counter}'; known: {', '.join(COUNTERS)}", "per")
    allowed = set(COUNTERS[counter]) | {"vp", "every", "table"}
    if ("vp" in ab) == ("table" in ab):
        err("a 'per' ability needs exactly one of 'vp' (per unit) or 'table'")
    if "vp" in ab and ab["vp"] is not None and not in_range(ab["vp"], -VALUE_LIMIT):
        err(f"must be a whole number from {-VALUE_LIMIT} to {VALUE_LIMIT} or null", "vp")
    if "table" in ab and ab["table"] is not None:
        t = ab["table"]
        if isinstance(t, dict):  # JSON keys are strings: accept "3" as 3
            t = {int(k) if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 3
                 else k: v for k, v in t.items()}
        if not isinstance(t, dict) or not all(in_range(k, 0) and in_range(v, -VALUE_LIMIT)
                                              for k, v in t.items()):
            err(f"must map whole-number counts (0 to {VALUE_LIMIT}) to whole-number VP "
                f"({-VALUE_LIMIT} to {VALUE_LIMIT}), or be null", "table")
        ab = {**ab, "table": t}
    if "every" in ab and ab["every"] is not None and not in_range(ab["every"], 1):
        err(f"must be a whole number from 1 to {VALUE_LIMIT}, or null if not known", "every")
    if "types" in ab and not types_ok(ab["types"]):
        err(f"must be a list of location types ({', '.join(TYPES)})", "types")
    if "include_self" in ab and not isinstance(ab["include_self"], bool):
        err("must be true or false", "include_self")
    if counter == "location_within" and not in_range(ab.get("distance"), 1):
        err(f"location_within needs a whole-number distance from 1 to {VALUE_LIMIT}",
            "distance")
    return ab, allowed


def _unknowns_per(ab: Ability) -> list[str]:
    out = []
    if not ab.by_table and ab.vp is None:
        out.append("vp per unit")
    if ab.by_table and ab.table is None:
        out.append("table")
    if ab.every is None:
        out.append("every")
    return out


def _value_per(ab: Ability, ctx: cnt.Context) -> int:
    n = cnt.count(ab, ctx)
    if ab.by_table:
        return cnt.by_table(ab, n, ctx)
    return (n // cnt.known(ab.every, ctx, "'every'")) * cnt.known(ab.vp, ctx, "VP per unit")


def _evaluate_per(ab: Ability, ctx: cnt.Context) -> tuple[int, str]:
    n = cnt.count(ab, ctx)
    counter = str(ab.per).replace('_', ' ')
    if ab.by_table:
        vp = cnt.by_table(ab, n, ctx)
        return vp, f"{n} {counter}(s) -> {vp} by the table"
    every = cnt.known(ab.every, ctx, "'every'")
    per_unit = cnt.known(ab.vp, ctx, "VP per unit")
    unit = f"per {every} " if every != 1 else "per "
    return (n // every) * per_unit, f"{per_unit:+d} {unit}{counter}: {n}"


def _describe_per(ab: Ability) -> str:
    counter = str(ab.per).replace('_', ' ')
    t = f" [{'/'.join(ab.types)}]" if ab.types else ""
    if ab.by_table:
        return f"table by {counter}"
    vp = "?" if ab.vp is None else f"{ab.vp:+d}"
    every = ab.every
    s = f"{vp} per {'' if every == 1 else str(every) + ' '}{counter}{t}"
    if ab.per == "location_within":
        s += f" within {ab.distance}"
    return s


_PER_TEMPLATES: dict[str, Template] = {
    "adjacent": ("+N per adjacent location", {"per": "adjacent_location"}, ("vp", "types"),
                 "next neighbour neighbor orthogonal touching"),
    "station": ("+N per location in the station", {"per": "station_location"},
                ("vp", "types", "include_self"), "each every location count"),
    "within": ("+N per location within distance D", {"per": "location_within"},
               ("vp", "types", "distance"), "distance near range"),
    "reactor": ("+N per reactor", {"per": "reactor"}, ("vp",), "reactors main"),
    "empty_reactor": ("+N per reactor with no cubes", {"per": "empty_reactor"}, ("vp",),
                      "empty reactors cubes"),
    "cube": ("+N per energy cube left", {"per": "energy_cube"}, ("vp",), "energy cubes left"),
    "credit": ("+N per K credits", {"per": "credit"}, ("vp", "every"), "credits money every"),
    "year": ("+N per remaining year", {"per": "remaining_year"}, ("vp",),
             "years remaining turn"),
    "distinct": ("+N per location type built", {"per": "distinct_type"}, ("vp",),
                 "different types kinds"),
    "distinct_table": ("VP by the number of location types built (a table)",
                       {"per": "distinct_type", "table": None}, ("table",),
                       "different types kinds table humareen"),
    "spaceship": ("+N per spaceship", {"per": "spaceship"}, ("vp",), "spaceships ships revival"),
    "others": ("+N per location in other players' stations", {"per": "other_station_location"},
               ("vp", "types"), "other opponents players stations"),
}


def _template_per(ab: Ability) -> str:
    if ab.by_table and ab.per == "distinct_type":
        return "distinct_table"
    for k, (_, sk, _, _) in _PER_TEMPLATES.items():
        if sk and sk.get("per") == ab.per and "table" not in sk:
            return k
    return "manual"     # a counter the form has no template for (as before the table)


# -- flat --------------------------------------------------------------------------------
def _validate_flat(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    if ab["flat"] is not None and not in_range(ab["flat"], -VALUE_LIMIT):
        err(f"must be a whole number from {-VALUE_LIMIT} to {VALUE_LIMIT} or null", "flat")
    cond = ab.get("if")
    if cond is not None:
        if not isinstance(cond, dict) or len([c for c in cond if c in CONDITIONS]) != 1:
            err("must be a mapping with one of: " + ", ".join(CONDITIONS), "if")
        extra = set(cond) - set(CONDITIONS) - {"than"}
        if extra:
            err(f"unknown key '{sorted(extra)[0]}'", "if")
        if "more" in cond and not (types_ok(cond["more"]) and types_ok(cond.get("than"))):
            err("'more' and 'than' must be lists of location types", "if")
        if "adjacent_to" in cond and not types_ok(cond["adjacent_to"]):
            err("'adjacent_to' must be a list of location types", "if")
        if "farthest_from_main_reactor" in cond and cond["farthest_from_main_reactor"] is not True:
            err("'farthest_from_main_reactor' must be true", "if")
    return ab, {"if"}


def _value_flat(ab: Ability, ctx: cnt.Context) -> int:
    return cnt.known(ab.flat, ctx, "VP") if cnt.condition(ab.condition, ctx) else 0


def _evaluate_flat(ab: Ability, ctx: cnt.Context) -> tuple[int, str]:
    ok = cnt.condition(ab.condition, ctx)
    flat = cnt.known(ab.flat, ctx, "VP")
    if ab.condition is not None:
        return (flat if ok else 0,
                f"{flat:+d} if {cnt.cond_text(ab.condition)}: {'met' if ok else 'not met'}")
    return (flat if ok else 0), f"{flat:+d}"


def _template_flat(ab: Ability) -> str:
    test = ab.condition.test if ab.condition is not None else ""
    return test if test in ("farthest", "more", "adjacent_to") else "flat"


# -- choice ------------------------------------------------------------------------------
def _validate_choice(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    if ab["choice"] not in CHOICES:
        err(f"unknown choice '{ab['choice']}'; known: {', '.join(CHOICES)}", "choice")
    for k in ("pay", "lose"):
        if not in_range(ab.get(k), 0):
            err(f"must be a whole number from 0 to {VALUE_LIMIT}", k)
    return ab, {"pay", "lose"}


def _check_choice(ab: Ability, a: dict[str, Any], card: str, others: list[str]) -> None:
    ch = a.get("choices")
    if (not isinstance(ch, dict) or set(ch) != set(others)
            or not all(v in ("pay", "lose") for v in ch.values())):
        raise IllegalAction("choice", f"each other player ({', '.join(others)}) must "
                            f"choose 'pay' ({ab.pay} credit) or 'lose' ({ab.lose} VP)",
                            action=a)


def _ask_choice(ab: Ability, asking: Asking, asked: Any) -> tuple[Any, Any]:
    """Each other player: pay or lose (the School of Alien Cultures)."""
    return ({"card": asking.card, "players": asking.others,
             "options": [("pay", f"pay {ab.pay} credit" + ("s" if ab.pay != 1 else "")),
                         ("lose", f"lose {ab.lose} VP")]},
            {p: "pay" for p in asking.others})


def school_label(pay: int | None = 1, lose: int | None = 2) -> str:
    """The School of Alien Cultures template's label, from its values."""
    return (f"Every other player pays {pay} credit{'' if pay == 1 else 's'} "
            f"or loses {lose} VP")


SCHOOL: dict[str, Any] = {"choice": "pay_or_lose", "pay": 1, "lose": 2}


# -- manual ------------------------------------------------------------------------------
def _validate_manual(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    if ab["manual"] is not True:
        err("must be true", "manual")
    return ab, set()


def _check_manual(ab: Ability, a: dict[str, Any], card: str, others: list[str]) -> None:
    mv = a.get("manual_vp")
    if not (isinstance(mv, int) and not isinstance(mv, bool)):
        raise IllegalAction("manual-vp", f"type the VP '{card}' gave now (manual_vp)", action=a)


def _ask_manual(ab: Ability, asking: Asking, asked: Any) -> tuple[Any, Any]:
    """The VP the card gives now, typed by the players."""
    return {"card": asking.card, "prompt": f"VP '{asking.card}' gives now (from its ability)"}, 0


# -- spaceships --------------------------------------------------------------------------
def _ask_spaceships(ab: Ability, asking: Asking, asked: Any) -> tuple[Any, Any] | None:
    """How many spaceships the card places and the spaces they could go to (R 3),
    added to what its earlier spaceship abilities asked; none without the module."""
    if not asking.spaceships:
        return None
    spec: dict[str, Any] = asked if asked is not None else {"card": asking.card, "count": 0,
                                                             "spots": []}
    spec["count"] += ab.need("spaceships", asking.card)
    for spot in asking.spots(ab.target):
        if spot not in spec["spots"]:
            spec["spots"].append(spot)
    return spec, []


def _validate_spaceships(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    if not in_range(ab["spaceships"], 1):
        err(f"the number of spaceships placed must be a whole number from 1 to {VALUE_LIMIT}",
            "spaceships")
    if ab.get("target", "other") not in SPACESHIP_TARGETS:
        err(f"must be one of {', '.join(SPACESHIP_TARGETS)}", "target")
    return ab, {"target"}


def _validate_any(ab: dict[str, Any], err: Err) -> tuple[dict[str, Any], set[str]]:
    return ab, set()


def _not_evaluated(ab: Ability, ctx: cnt.Context) -> Any:
    raise ValueError("manual and choice abilities are resolved by the game")


KINDS: dict[str, AbilityKind] = {k.name: k for k in (
    AbilityKind(
        "per", ("vp", "table", "every", "types", "include_self", "distance"),
        _validate_per, _describe_per,
        resolve="evaluated by the engine (abilities.count): VP per unit counted, or a table",
        unknowns=_unknowns_per, evaluate=_evaluate_per, value=_value_per,
        templates=_PER_TEMPLATES, template_of=_template_per, form_n=lambda ab: ab.vp, form_rank=1,
        help="VP per thing counted (a counter from the vocabulary)"),
    AbilityKind(
        "flat", ("if",), _validate_flat,
        lambda ab: (f"{'?' if ab.flat is None else format(ab.flat, '+d')} "
                    f"if {cnt.cond_text(ab.condition)}"),
        resolve="evaluated by the engine (abilities.condition): the VP if the condition holds",
        unknowns=lambda ab: ["flat VP"] if ab.flat is None else [],
        evaluate=_evaluate_flat, value=_value_flat,
        templates={
            "flat": ("+N (always)", {"flat": None}, ("flat",), "bonus fixed always"),
            "farthest": ("+N if no location is farther from the Main Reactor",
                         {"flat": None, "if": {"farthest_from_main_reactor": True}}, ("flat",),
                         "far distance main reactor bonus"),
            "more": ("+N if more of type A than of type B",
                     {"flat": None, "if": {"more": [], "than": []}}, ("flat", "types", "than"),
                     "majority than compare bonus"),
            "adjacent_to": ("+N if adjacent to a type", {"flat": None, "if": {"adjacent_to": []}},
                            ("flat", "types"), "next neighbour neighbor bonus"),
        }, template_of=_template_flat, form_n=lambda ab: ab.flat, form_rank=2,
        help="a fixed VP bonus, possibly under a condition"),
    AbilityKind(
        "choice", ("pay", "lose"), _validate_choice,
        lambda ab: f"others pay {ab.pay} credit or lose {ab.lose} VP",
        resolve="each other player's answer is applied after everyone's action "
                "(effects.resolve, a pending 'choice'): pays the credits or loses the VP",
        pending=True, answer="choices",
        question="each other player: pay the credits or lose the VP?",
        default=lambda ab, others: {p: "pay" for p in others}, check=_check_choice,
        templates={"school": (school_label(SCHOOL["pay"], SCHOOL["lose"]), dict(SCHOOL), (),
                              "alien cultures choice pay lose credit")},
        template_of=lambda ab: "school", form_rank=3,
        own_template=lambda ab: (school_label(ab.pay, ab.lose),
                                 {"choice": ab.choice, "pay": ab.pay, "lose": ab.lose}),
        help="every other player chooses: pay credits or lose VP", ask=_ask_choice),
    AbilityKind(
        "manual", (), _validate_manual, lambda ab: "VP typed by the players",
        resolve="the VP typed by the players is gained (effects.own_effects; at the end, "
                "the final entries scoring.py reads)",
        typed=True, answer="manual_vp", question="the VP the card gives now (from its ability)",
        default=lambda ab, others: 0, check=_check_manual,
        templates={"manual": ("VP typed at the table (manual)", {"manual": True}, (),
                              "typed other anything")},
        template_of=lambda ab: "manual", form_rank=5,
        help="an ability the engine does not compute: the players type its VP",
        ask=_ask_manual),
    AbilityKind(
        "spaceships", ("target",), _validate_spaceships,
        lambda ab: f"place {ab.spaceships} spaceship(s) ({ab.target} stations)",
        resolve="the spaceships are placed after everyone's action (spaceships."
                "check_spaceships, then effects.resolve, a pending 'spaceships')",
        answer="spaceships", question="where each spaceship goes (R 3)",
        templates={"spaceships": ("Places N spaceships (Revival)",
                                  {"spaceships": None, "target": "other"}, ("ships", "target"),
                                  "spaceship ships place revival block")},
        template_of=lambda ab: "spaceships", form_rank=4,
        help="places N spaceships (Revival)", ask=_ask_spaceships),
    AbilityKind(
        "remove_spaceships", (), _validate_any,
        lambda ab: f"remove up to {ab.remove_spaceships} of your spaceships",
        resolve="the spaceships named are removed from the owner's station "
                "(spaceships.check_removals, then effects.own_effects)",
        answer="spaceships_removed", question="which of your spaceships to remove (R FAQ)",
        form_rank=6, help="removes up to N of its owner's spaceships (Travelling Exhibition)"),
)}
if tuple(KINDS) != ABILITY_KINDS:       # the vocabulary's words for the kinds (Ability.kind)
    raise ImportError("the ability-kind table and vocabulary.ABILITY_KINDS differ")

#: an ability with none of the kinds' keys (not from a checked catalogue)
NO_KIND = AbilityKind("", (), _validate_any, lambda ab: "VP typed by the players",
                      resolve="none", evaluate=_not_evaluated, value=_not_evaluated)


def ability_kind(ab: Ability) -> AbilityKind:
    """The table's entry for ``ab``'s kind (:data:`NO_KIND` for none)."""
    return KINDS.get(ab.kind or "", NO_KIND)


def of_kind(abilities: Any, name: str) -> list[Ability]:
    """The abilities of kind ``name`` among ``abilities`` (None: none)."""
    return [ab for ab in abilities or () if ab.kind == name]


def validate_ability(ab: Any, *, file: str | None, card: str, i: int) -> dict[str, Any]:
    """``ab`` as written (a mapping) checked against the vocabulary; returns a copy
    (a table's counts written as text, as JSON has them, made whole numbers).
    Raises CatalogueError naming the file, the card and the key."""
    key = f"abilities[{i}]"

    def err(msg: str, k: str | None = None) -> NoReturn:
        raise CatalogueError(msg, file=file, card=card, key=f"{key}.{k}" if k else key)

    if not isinstance(ab, dict):
        err("an ability must be a mapping")
    kinds = [k for k in ABILITY_KINDS if k in ab]
    if len(kinds) != 1:
        err("an ability needs exactly one of: " + ", ".join(ABILITY_KINDS))
    kind = KINDS[kinds[0]]
    allowed = set(ABILITY_COMMON) | {kind.name}
    if "when" not in ab:
        err("missing (immediate, end, or null if not known yet)", "when")
    if ab["when"] is not None and ab["when"] not in WHEN:
        err(f"must be one of {', '.join(WHEN)} or null", "when")
    if "cap" in ab and ab["cap"] is not None and not in_range(ab["cap"], 0):
        err(f"must be a whole number from 0 to {VALUE_LIMIT} or null", "cap")
    ab, own = kind.validate(ab, err)
    allowed |= own
    extra = set(ab) - allowed
    if extra:
        err(f"unknown key '{sorted(extra)[0]}'")
    return copy.deepcopy(dict(ab))      # never share nested lists with the caller's data


def ability_unknowns(ab: Ability | Mapping[str, Any]) -> list[str]:
    """Names of the values of one ability that are still null."""
    ab = Ability.of(ab)
    out = []
    if ab.when is None:
        out.append("when")
    if ab.has_cap and ab.cap is None:
        out.append("cap")
    return out + ability_kind(ab).unknowns(ab)


def form_templates() -> dict[str, Template]:
    """The card form's templates, in the order it lists them: "none", then each
    kind's (by ``form_rank``)."""
    out: dict[str, Template] = {"none": ("No ability", None, (), "nothing empty blank")}
    for k in sorted(KINDS.values(), key=lambda k: k.form_rank):
        out.update(k.templates)
    return out


def template_of(ab: Ability | Mapping[str, Any] | None) -> str:
    """The card form's template key that fits an ability (its values aside)."""
    if not ab:
        return "none"
    return ability_kind(Ability.of(ab)).template_of(Ability.of(ab))
