"""Day of the Dead card files (already valid) -> the frozen card model: characters with their
effect steps, and the physical deck (each back's deck one contiguous run of card indices)."""

from __future__ import annotations

from typing import Any

from boneyard.engine.cards import (
    BACKS,
    BackDef,
    CardSet,
    Character,
    Condition,
    DeadCard,
    Step,
)
from boneyard.engine.spec import SetFiles


def build(files: SetFiles, base: dict[str, Any]) -> CardSet:
    """The set's CardSet (without its content hash; the loader adds it)."""
    g = files.game.data
    backs = tuple(BackDef(b["id"], b["name"], b["colour"], b.get("colour_name", ""))
                  for b in g["backs"])
    characters = tuple(character(c) for d in files.docs for c in d.data)
    cards: list[DeadCard] = []
    # Back-major order: each back's deck is one contiguous run of indices.
    for back in backs:
        for ch in characters:
            if back.id in ch.backs:
                for _ in range(ch.copies):
                    cards.append(DeadCard(len(cards), ch, back.id))
    return CardSet(backs=backs, characters=characters, cards=tuple(cards), **base)


_MAIN_ARG = {
    "power": "amount", "set_power": "amount", "gain_vp": "amount", "dig": "amount",
    "auto_win": "who", "auto_lose": "who", "win_ties": "who", "suppress_spirit": "who",
    "copy_effect": "target", "unearth": "target", "force_unearth": "target", "flip": "target",
}
_DEFAULTS: dict[str, dict[str, Any]] = {
    "set_power": {"who": "opponent"},
    "suppress_spirit": {"who": "opponent"},
    "dig": {"amount": 1},
    "unearth": {"target": "self"},
    "force_unearth": {"target": "opposing"},
}


def _step(raw: dict[str, Any]) -> Step:
    op = next(k for k in raw if k != "when")
    arg = raw[op]
    args: dict[str, Any] = dict(_DEFAULTS.get(op, {}))
    if isinstance(arg, dict):
        args.update(arg)
    elif arg is not None and op in _MAIN_ARG:
        args[_MAIN_ARG[op]] = arg
    return Step(op=op, when=_conditions(raw.get("when") or {}), **args)


def _conditions(when: dict[str, Any]) -> tuple[Condition, ...]:
    out: list[Condition] = []
    for test, value in when.items():
        if test == "count":
            out += [Condition("count", n, op=op, subject=value["of"])
                    for op, n in value.items() if op != "of"]
        elif isinstance(value, dict):  # comparisons, and {ne: back} on the back/spirit tests
            out += [Condition(test, n, op=op) for op, n in value.items()]
        else:
            out.append(Condition(test, value))
    return tuple(out)


def character(raw: dict[str, Any]) -> Character:
    return Character(
        id=raw["id"],
        name=raw["name"],
        power=raw["power"],
        effect=tuple(_step(s) for s in raw.get("effect") or ()),
        flavor=raw.get("flavor"),
        art=raw.get("art"),
        backs=tuple(b for b in BACKS if b in raw.get("backs", BACKS)),
        copies=raw.get("copies", 1),
    )
