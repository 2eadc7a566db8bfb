"""The one YAML-to-effect converter: card-file mappings -> :class:`Step`, :class:`Condition`,
:class:`Character`.

The loader (``boneyard.pipeline.load``) calls it on validated card files; scenarios and tests call
it on mappings written in code, which no schema has checked, so it refuses what it cannot read
with a :class:`RulesError` instead of guessing. The shorthand (``power: 5``, ``flip: own_fallen``)
and the defaults (``dig:`` is one Dig, ``unearth:`` targets ``self``...) come from the
vocabulary in ``effects.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import BackDef, CardSet
from boneyard.engine.spec import SetFiles

from boneyard.errors import RulesError

from .cards import BACKS, Character, Condition, DeadCard, Step
from .effects import COUNTER, PRIMITIVE


def conditions_from_dict(when: Mapping[str, Any]) -> tuple[Condition, ...]:
    """``when:`` as written in docs/effects.md -> one Condition per comparison."""
    out: list[Condition] = []
    for test, value in when.items():
        if test == "count":
            subject = value["of"]
            if subject not in COUNTER:
                raise RulesError(f"unknown counter '{subject}'")
            out += [Condition("count", n, op, subject) for op, n in value.items() if op != "of"]
        elif isinstance(value, Mapping):  # comparisons, and {ne: back} on the back/spirit tests
            out += [Condition(test, n, op) for op, n in value.items()]
        else:
            out.append(Condition(test, value))
    return tuple(out)


def step_from_dict(data: Mapping[str, Any]) -> Step:
    """One effect step in the card-file form: a primitive with its argument, and ``when:``."""
    ops = [k for k in data if k in PRIMITIVE]
    if len(ops) != 1:
        raise RulesError(f"a step needs exactly one primitive, got {sorted(data)}")
    op = ops[0]
    extra = sorted(k for k in data if k not in (op, "when"))
    if extra:
        raise RulesError(f"step '{op}': unexpected {', '.join(extra)} (put arguments under '{op}:')")
    prim = PRIMITIVE[op]
    arg = data[op]
    args = prim.defaults()
    if isinstance(arg, Mapping):
        args.update(arg)
    elif arg is not None and arg is not True and prim.main is not None:
        args[prim.main] = arg
    return Step(op=op, when=conditions_from_dict(data.get("when") or {}), **args)


def character_from_dict(data: Mapping[str, Any]) -> Character:
    """A character as the card file writes it (``name`` defaults to the id for code-built sets);
    its backs in the canonical order."""
    return Character(
        id=str(data["id"]),
        name=str(data.get("name", data["id"])),
        power=int(data["power"]),
        effect=tuple(step_from_dict(s) for s in (data.get("effect") or ())),
        flavor=data.get("flavor"),
        art=data.get("art"),
        backs=tuple(b for b in BACKS if b in data.get("backs", BACKS)),
        copies=int(data.get("copies", 1)),
    )


def build(files: SetFiles, base: dict[str, Any]) -> CardSet:
    """A validated set's CardSet (without its content hash; the loader adds it): the characters,
    and the physical deck with each back's deck one contiguous run of card indices."""
    g = files.game.data
    backs = tuple(BackDef(b["id"], b["name"], b["colour"], b.get("colour_name", ""))
                  for b in g["backs"])
    characters = tuple(character_from_dict(c) for d in files.docs for c in d.data)
    cards: list[DeadCard] = []
    for back in backs:
        for ch in characters:
            if back.id in ch.backs:
                for _ in range(ch.copies):
                    cards.append(DeadCard(len(cards), ch, back.id))
    return CardSet(backs=backs, characters=characters, cards=tuple(cards), **base)
