"""Printed rules text, generated mechanically from a character's effect data.

The same ``Step`` records that the engine interprets are turned into English here from the
templates of the vocabulary (``effects.py``: one per primitive, one clause per condition test),
so a card can never say one thing and do another. There are no per-card strings: a new card gets
its text for free, and a new primitive brings its template in its definition.

Text comes in *runs* ``(text, style)`` so the renderer can set the keywords (Dig, Unearth) apart;
``rules_text`` is simply the runs joined. Pure: the engine may hold it, the pipeline and the
renderer call it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from boneyard.engine.cards import CardSet

from .cards import BACKS, Character, Condition, Step
from .effects import CONDITION, PRIMITIVE
from .phrases import DEFAULT_BACK_NAMES, KEYWORD, PLAIN, Run, back_name

__all__ = [
    "DEFAULT_BACK_NAMES", "KEYWORD", "PLAIN", "Run", "back_names", "condition_prefix",
    "rules_runs", "rules_text", "step_runs", "step_text",
]
assert set(DEFAULT_BACK_NAMES) == set(BACKS)


def back_names(card_set: CardSet | None) -> dict[str, str]:
    """Back id -> printed name: game.yaml's names over the defaults."""
    names = dict(DEFAULT_BACK_NAMES)
    if card_set is not None:
        names.update({b.id: b.name for b in card_set.backs})
    return names


def _action_runs(step: Step) -> list[Run]:
    """The step's sentence without its conditions, as it reads at the start of a sentence."""
    prim = PRIMITIVE.get(step.op)
    if prim is None:
        raise ValueError(f"no rules-text template for primitive {step.op!r}")
    return prim.text(step)


def condition_prefix(when: Sequence[Condition], names: Mapping[str, str] | None = None) -> str:
    """``On turn 5 or later, `` / ``If you have priority and ..., `` (empty without conditions).

    Conditions on the same quantity are printed as one range; a leading test (``turn``) comes
    first because "On turn 5 or later, if ..." is how a rulebook says it.
    """
    names = names or DEFAULT_BACK_NAMES
    groups: dict[tuple[str, str | None], list[Condition]] = {}
    for cond in when:
        groups.setdefault((cond.test, cond.subject), []).append(cond)
    leads: list[str] = []
    clauses: list[str] = []
    for (test, _), conds in groups.items():
        definition = CONDITION.get(test)
        if definition is None:
            raise ValueError(f"no rules-text template for condition {test!r}")
        (leads if definition.leads else clauses).append(definition.clause(conds, names))
    parts = [lead + ", " for lead in leads]
    if clauses:
        parts.append(f"{'if' if leads else 'If'} {' and '.join(clauses)}, ")
    return "".join(parts)


def _merge(runs: Iterable[Run]) -> list[Run]:
    out: list[Run] = []
    for text, style in runs:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + text, style)
        elif text:
            out.append((text, style))
    return out


def step_runs(step: Step, card_set: CardSet | None = None) -> list[Run]:
    """One step as styled runs: its condition prefix, then its action."""
    action = _action_runs(step)
    prefix = condition_prefix(step.when, back_names(card_set))
    if not prefix:
        return action
    text, style = action[0]
    if style == PLAIN and text[:1].isupper():
        action[0] = (text[0].lower() + text[1:], style)
    return _merge([(prefix, PLAIN), *action])


def step_text(step: Step, card_set: CardSet | None = None) -> str:
    """One step as a printed sentence, e.g. ``On turn 5 or later, +5 power this fight.``"""
    return "".join(text for text, _ in step_runs(step, card_set))


def rules_runs(character: Character, card_set: CardSet | None = None) -> list[Run]:
    """The character's rules text as runs with style ``plain`` or ``keyword``; [] for no effect."""
    runs: list[Run] = []
    for i, step in enumerate(character.effect):
        if i:
            runs.append((" ", PLAIN))
        runs.extend(step_runs(step, card_set))
    return _merge(runs)


def rules_text(character: Character, card_set: CardSet | None = None) -> str:
    """The character's printed rules text ("" for a character with no effect, like Oaf)."""
    return "".join(text for text, _ in rules_runs(character, card_set))


def back_label(back: str, card_set: CardSet | None = None) -> str:
    """A back's printed name (for lists of backs, e.g. docs/characters.md)."""
    return back_name(back, back_names(card_set))
