"""Build Day of the Dead card sets in code: for tests, scenarios with invented cards, benches.

The real loader (``boneyard.pipeline.load``) validates card files; this module only assembles
already-trusted values, e.g. a set with a character invented in a test, so that the engine can
be shown to play cards it has never seen (no card has its own code path).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.cards import BackDef, CardSet, freeze
from boneyard.engine.hashing import content_hash

from boneyard.errors import RulesError

from .cards import BACKS, Character, Condition, DeadCard, Step
from .rules import COUNTER_CODES, OP_CODES, SWITCHES

_SCALAR_ARG = {
    "power": "amount",
    "set_power": "amount",
    "gain_vp": "amount",
    "dig": "amount",
    "auto_win": "who",
    "auto_lose": "who",
    "win_ties": "who",
    "suppress_spirit": "who",
    "copy_effect": "target",
    "flip": "target",
    "force_unearth": "target",
    "unearth": "target",
}
_DEFAULT_WHO = {"set_power": "opponent", "suppress_spirit": "opponent"}
_BACKS_DEFS = (
    BackDef("double", "Double", "#161616", "black"),
    BackDef("power_up", "Power Up", "#8c8c8c", "gray"),
    BackDef("unearth", "Unearth", "#f2f0ea", "white"),
)


def conditions_from_dict(when: Mapping[str, Any]) -> tuple[Condition, ...]:
    """``when:`` as written in docs/effects.md -> Condition records."""
    out: list[Condition] = []
    for test, value in when.items():
        if test == "count":
            subject = value["of"]
            if subject not in COUNTER_CODES:
                raise RulesError(f"unknown counter '{subject}'")
            for op, n in value.items():
                if op != "of":
                    out.append(Condition("count", int(n), op, subject))
        elif isinstance(value, Mapping):
            for op, n in value.items():
                out.append(Condition(test, n, op))
        else:
            out.append(Condition(test, value))
    return tuple(out)


def step_from_dict(data: Mapping[str, Any]) -> Step:
    """One effect step in the card-file shorthand (``power: 5``, ``flip: own_fallen``...)."""
    data = dict(data)
    when = conditions_from_dict(data.pop("when", {}) or {})
    ops = [k for k in data if k in OP_CODES]
    if len(ops) != 1:
        raise RulesError(f"a step needs exactly one primitive, got {sorted(data)}")
    op = ops[0]
    extra = sorted(k for k in data if k != op)
    if extra:
        raise RulesError(f"step '{op}': unexpected {', '.join(extra)} (put arguments under '{op}:')")
    arg = data[op]
    kwargs: dict[str, Any] = {"who": _DEFAULT_WHO.get(op, "self")}
    if isinstance(arg, Mapping):
        kwargs.update(arg)
    elif arg is not None and arg is not True and op in _SCALAR_ARG:
        kwargs[_SCALAR_ARG[op]] = arg
    if op in ("unearth", "force_unearth") and kwargs.get("target") == "self":
        kwargs["target"] = None
    if op == "dig" and not kwargs.get("amount"):
        kwargs["amount"] = 1
    return Step(op=op, when=when, **kwargs)


def character_from_dict(data: Mapping[str, Any]) -> Character:
    return Character(
        id=str(data["id"]),
        name=str(data.get("name", data["id"])),
        power=int(data["power"]),
        effect=tuple(step_from_dict(s) for s in (data.get("effect") or ())),
        flavor=data.get("flavor"),
        backs=tuple(data.get("backs", BACKS)),
        copies=int(data.get("copies", 1)),
    )


def make_card_set(
    characters: Sequence[Character],
    switches: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    name: str = "Day of the Dead (built in code)",
) -> CardSet:
    """A CardSet of ``characters`` x their backs x copies, switches filled with defaults."""
    sw = {k: d for k, (d, _) in SWITCHES.items()}
    sw.update(switches or {})
    cards: list[DeadCard] = []
    for back in BACKS:
        for ch in characters:
            if back in ch.backs:
                for _ in range(ch.copies):
                    cards.append(DeadCard(len(cards), ch, back))
    cs = CardSet(
        name=name,
        slug="dotd-code",
        rules="day-of-the-dead",
        params=freeze(params or {}),
        switches=freeze(sw),
        content_hash="",
        backs=_BACKS_DEFS,
        characters=tuple(characters),
        cards=tuple(cards),
    )
    from dataclasses import replace

    return replace(cs, content_hash=content_hash(cs))
