"""Printed rules text, generated mechanically from a character's effect data.

The same ``Step`` records that the engine interprets are turned into English here, one template
per primitive and one per condition test (docs/effects.md lists them all), so a card can never
say one thing and do another. There are no per-card strings: a new card gets its text for free,
and a new primitive needs exactly one template below.

Text comes in *runs* ``(text, style)`` so the renderer can set the keywords (Dig, Unearth) apart;
``rules_text`` is simply the runs joined.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from boneyard.engine.cards import CardSet
from boneyard.engine.dotd.cards import BACKS, Character, Condition, Step

PLAIN = "plain"
KEYWORD = "keyword"

Run = tuple[str, str]

#: Back names used when no card set is given (game.yaml's names win when one is).
DEFAULT_BACK_NAMES: dict[str, str] = {
    "double": "Double",
    "power_up": "Power Up",
    "unearth": "Unearth",
}
assert set(DEFAULT_BACK_NAMES) == set(BACKS)

#: ``for each of ...`` phrases of the counters (``per:``).
COUNTER_PHRASES: dict[str, str] = {
    "own_fallen": "your fallen fighters",
    "own_active": "your active fighters",
    "opponent_fallen": "your opponent's fallen fighters",
    "opponent_active": "your opponent's active fighters",
    "own_winners": "your fighters that won this turn",
    "opponent_winners": "your opponent's fighters that won this turn",
    "own_adjacent_active": "your active fighters next to this one",
}

#: The ``count`` condition: (who has them, singular noun, plural noun) per counter.
COUNT_NOUNS: dict[str, tuple[str, str, str]] = {
    "own_fallen": ("you have", "fallen fighter", "fallen fighters"),
    "own_active": ("you have", "active fighter", "active fighters"),
    "opponent_fallen": ("your opponent has", "fallen fighter", "fallen fighters"),
    "opponent_active": ("your opponent has", "active fighter", "active fighters"),
    "own_winners": ("you have", "fighter that won this turn", "fighters that won this turn"),
    "opponent_winners": (
        "your opponent has",
        "fighter that won this turn",
        "fighters that won this turn",
    ),
    "own_adjacent_active": (
        "you have",
        "active fighter next to this one",
        "active fighters next to this one",
    ),
}

_SUBJECT = {"self": "This fighter", "opponent": "The opposing fighter"}


# --- numbers ---------------------------------------------------------------------------------


class _Bounds:
    """A comparison list (``ge 5``, ``le 3`` ...) reduced to an integer range plus exclusions.

    Several ``when:`` comparisons on one quantity describe one range; printing the range reads
    better than printing each comparison ("turns 2 to 4", not "turn 2 or later and 4 or earlier").
    """

    __slots__ = ("hi", "lo", "ne")

    def __init__(self, comparisons: Iterable[tuple[str, int]]) -> None:
        self.lo: int | None = None
        self.hi: int | None = None
        self.ne: list[int] = []
        for op, n in comparisons:
            n = int(n)
            if op in ("ge", "gt", "eq"):
                low = n + 1 if op == "gt" else n
                self.lo = low if self.lo is None else max(self.lo, low)
            if op in ("le", "lt", "eq"):
                high = n - 1 if op == "lt" else n
                self.hi = high if self.hi is None else min(self.hi, high)
            if op == "ne":
                self.ne.append(n)
            elif op not in ("ge", "gt", "eq", "le", "lt"):
                raise ValueError(f"unknown comparison {op!r}")

    @property
    def exact(self) -> int | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None

    def phrase(self, more: str, less: str, exactly: str = "") -> str:
        """``5 or more`` / ``3 or less`` / ``2 to 4`` / ``5``, then ``other than n`` exclusions."""
        if self.exact is not None:
            text = f"{exactly}{self.exact}"
        elif self.lo is not None and self.hi is not None:
            text = f"{self.lo} to {self.hi}"
        elif self.lo is not None:
            text = f"{self.lo} or {more}"
        elif self.hi is not None:
            text = f"{self.hi} or {less}"
        else:
            text = ""
        if self.ne:
            others = " or ".join(str(n) for n in self.ne)
            text = f"{text}, but not {others}" if text else f"other than {others}"
        return text


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"-{-n}"


def _points(n: int) -> str:
    return f"{n} victory point" if n == 1 else f"{n} victory points"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _back_name(back: str, back_names: dict[str, str]) -> str:
    return back_names.get(back, back.replace("_", " ").title())


def _back_names(card_set: CardSet | None) -> dict[str, str]:
    names = dict(DEFAULT_BACK_NAMES)
    if card_set is not None:
        names.update({b.id: b.name for b in card_set.backs})
    return names


# --- primitives ------------------------------------------------------------------------------


def _per(step: Step) -> str:
    if step.per is None:
        return ""
    try:
        return f" for each of {COUNTER_PHRASES[step.per]}"
    except KeyError:
        raise ValueError(f"unknown counter {step.per!r}") from None


def _action_runs(step: Step) -> list[Run]:
    """The step's sentence without its conditions, as it reads at the start of a sentence."""
    who = step.who
    match step.op:
        case "power":
            bonus = f"{_signed(step.amount)} power this fight{_per(step)}."
            if who == "opponent":
                return [(f"The opposing fighter gets {bonus}", PLAIN)]
            return [(bonus, PLAIN)]
        case "set_power":
            owner = "The opposing fighter's" if who == "opponent" else "This fighter's"
            return [(f"{owner} printed power counts as {step.amount} this fight.", PLAIN)]
        case "auto_win":
            return [(f"{_SUBJECT[who]} wins the fight, no questions asked.", PLAIN)]
        case "auto_lose":
            return [(f"{_SUBJECT[who]} loses the fight.", PLAIN)]
        case "win_ties":
            return [(f"{_SUBJECT[who]} wins ties.", PLAIN)]
        case "gain_vp":
            gains = step.amount >= 0
            points = _points(abs(step.amount)) + _per(step)
            if who == "opponent":
                verb = "gains" if gains else "loses"
                return [(f"Your opponent {verb} {points}.", PLAIN)]
            return [(f"{'Gain' if gains else 'Lose'} {points}.", PLAIN)]
        case "copy_effect":
            source = {
                "opposing": "the opposing fighter",
                "adjacent": "one of your active fighters next to this one",
                "own_active": "one of your other active fighters",
            }[step.target or "opposing"]
            return [(f"Use the effect of {source}.", PLAIN)]
        case "dig":
            times = step.amount or 1
            return [("Dig" if times == 1 else f"Dig {times}", KEYWORD), (".", PLAIN)]
        case "unearth":
            return [("Unearth", KEYWORD), (".", PLAIN)]
        case "force_unearth":
            return [
                ("Unearth", KEYWORD),
                (" the opposing fighter; you choose its replacement.", PLAIN),
            ]
        case "flip":
            if step.target == "opponent_fought":
                return [
                    (
                        "Turn one of your opponent's fighters that has already fought this turn"
                        " face down.",
                        PLAIN,
                    )
                ]
            if step.target == "own_fallen":
                return [("Turn one of your fallen fighters face up.", PLAIN)]
            raise ValueError(f"unknown flip target {step.target!r}")
        case "suppress_spirit":
            owner = "Your opponent's" if who == "opponent" else "Your"
            return [(f"{owner} spirit has no effect on this fight.", PLAIN)]
        case "negate":
            return [("The opposing fighter's effect does nothing this fight.", PLAIN)]
        case "take_priority":
            return [("Take the Priority counter.", PLAIN)]
        case "give_priority":
            return [("Give the Priority counter to your opponent.", PLAIN)]
    raise ValueError(f"no rules-text template for primitive {step.op!r}")


# --- conditions ------------------------------------------------------------------------------


def _is(cond: Condition) -> bool:
    """Whether an equality test holds as printed (``ne`` prints the negation)."""
    return cond.op != "ne"


def _clause(test: str, conds: Sequence[Condition], back_names: dict[str, str]) -> str:
    """One ``if`` clause (lower case, without "if") for the conditions on one quantity."""
    first = conds[0]
    match test:
        case "priority":
            holder_is_self = (first.value == "self") == _is(first)
            return "you have priority" if holder_is_self else "your opponent has priority"
        case "slot":
            if first.value in ("newest", "oldest"):
                neg = "" if _is(first) else "not "
                return f"this is {neg}your {first.value} slot"
            bounds = _Bounds((c.op, c.value) for c in conds)
            return f"this is slot {bounds.phrase('higher', 'lower')}"
        case "own_spirit" | "opponent_spirit":
            mine = test == "own_spirit"
            if first.value == "none":
                has = "you have" if mine else "your opponent has"
                return f"{has} {'no spirit' if _is(first) else 'a spirit'}"
            name = _back_name(first.value, back_names)
            whose = "your spirit" if mine else "your opponent's spirit"
            neg = "" if _is(first) else "not "
            return f"{whose} is {neg}{_article(name)} {name}"
        case "own_back" | "opposing_back":
            name = _back_name(first.value, back_names)
            card = "this card" if test == "own_back" else "the opposing fighter"
            verb = "has" if _is(first) else "does not have"
            return f"{card} {verb} {_article(name)} {name} back"
        case "opposing_power":
            bounds = _Bounds((c.op, c.value) for c in conds)
            return f"the opposing fighter's printed power is {bounds.phrase('more', 'less')}"
        case "opposing_has_effect":
            has = bool(first.value) == _is(first)
            return f"the opposing fighter has {'an' if has else 'no'} effect"
        case "losing":
            losing = bool(first.value) == _is(first)
            return "this fighter is losing" if losing else "this fighter is not losing"
        case "count":
            return _count_clause(first.subject, _Bounds((c.op, c.value) for c in conds))
        case "score_diff":
            return _score_clause(_Bounds((c.op, c.value) for c in conds))
    raise ValueError(f"no rules-text template for condition {test!r}")


def _count_clause(counter: str | None, bounds: _Bounds) -> str:
    try:
        has, one, many = COUNT_NOUNS[counter or ""]
    except KeyError:
        raise ValueError(f"unknown counter {counter!r}") from None
    if bounds.hi is not None and bounds.hi <= 0 and not bounds.ne:
        return f"{has} no {many}"
    if bounds.exact == 1 and not bounds.ne:
        return f"{has} exactly 1 {one}"
    if bounds.exact is not None and not bounds.ne:
        return f"{has} exactly {bounds.exact} {many}"
    return f"{has} {bounds.phrase('more', 'fewer')} {many}"


def _score_clause(b: _Bounds) -> str:
    """Your score minus your opponent's, in the words a player uses: ahead, behind, tied."""
    if not b.ne:
        if b.exact == 0:
            return "the scores are tied"
        if b.exact is not None:
            side = "ahead" if b.exact > 0 else "behind"
            return f"you are {side} by exactly {abs(b.exact)}"
        if b.lo is None and b.hi is not None:
            if b.hi == -1:
                return "you are behind"
            if b.hi < -1:
                return f"you are behind by {-b.hi} or more"
            if b.hi == 0:
                return "you are not ahead"
            return f"you are not ahead by more than {b.hi}"
        if b.hi is None and b.lo is not None:
            if b.lo == 1:
                return "you are ahead"
            if b.lo > 1:
                return f"you are ahead by {b.lo} or more"
            if b.lo == 0:
                return "you are not behind"
            return f"you are not behind by more than {-b.lo}"
    if b.ne == [0] and b.lo is None and b.hi is None:
        return "the scores are not tied"
    return f"your score minus your opponent's is {b.phrase('more', 'less')}"


def _turn_prefix(conds: Sequence[Condition]) -> str:
    b = _Bounds((c.op, c.value) for c in conds)
    if b.exact is not None and not b.ne:
        return f"On turn {b.exact}"
    if b.lo is not None and b.hi is not None:
        text = f"On turns {b.lo} to {b.hi}"
    elif b.lo is not None:
        text = f"On turn {b.lo} or later"
    elif b.hi is not None:
        text = f"On turn {b.hi} or earlier"
    else:
        return "Except on turn " + " or ".join(str(n) for n in b.ne)
    if b.ne:
        text += ", except turn " + " or ".join(str(n) for n in b.ne)
    return text


def condition_prefix(when: Sequence[Condition], back_names: dict[str, str] | None = None) -> str:
    """``On turn 5 or later, `` / ``If you have priority and ..., `` (empty without conditions).

    Conditions on the same quantity are printed as one range; turn conditions come first
    because "On turn 5 or later, if ..." is how a rulebook says it.
    """
    names = back_names or DEFAULT_BACK_NAMES
    groups: dict[tuple[str, str | None], list[Condition]] = {}
    for cond in when:
        groups.setdefault((cond.test, cond.subject), []).append(cond)
    turn = groups.pop(("turn", None), None)
    clauses = [_clause(test, conds, names) for (test, _), conds in groups.items()]
    parts = []
    if turn:
        parts.append(_turn_prefix(turn) + ", ")
    if clauses:
        lead = "if" if turn else "If"
        parts.append(f"{lead} {' and '.join(clauses)}, ")
    return "".join(parts)


# --- steps and characters --------------------------------------------------------------------


def step_runs(step: Step, card_set: CardSet | None = None) -> list[Run]:
    """One step as styled runs: its condition prefix, then its action."""
    action = _action_runs(step)
    prefix = condition_prefix(step.when, _back_names(card_set))
    if not prefix:
        return action
    text, style = action[0]
    if style == PLAIN and text[:1].isupper():
        action[0] = (text[0].lower() + text[1:], style)
    return _merge([(prefix, PLAIN), *action])


def step_text(step: Step, card_set: CardSet | None = None) -> str:
    """One step as a printed sentence, e.g. ``On turn 5 or later, +5 power this fight.``"""
    return "".join(text for text, _ in step_runs(step, card_set))


def _merge(runs: Iterable[Run]) -> list[Run]:
    out: list[Run] = []
    for text, style in runs:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + text, style)
        elif text:
            out.append((text, style))
    return out


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


# --- the character list in the docs ----------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def characters_table_markdown(card_set: CardSet) -> str:
    """docs/characters.md: every character with power, generated effect text and flavor.

    Generated, never hand-written, so the list cannot drift from the card data; a test compares
    the committed file with this output.
    """
    chars = card_set.characters
    lines = [
        f"# {card_set.name}: the {len(chars)} characters",
        "",
        "Generated from `cards/"
        + (card_set.slug or "day-of-the-dead")
        + "/characters.yaml` by `boneyard.pipeline.text.characters_table_markdown`;"
        " do not edit by hand. Regenerate with `.venv/bin/python -m boneyard.pipeline.text`.",
        "The effect text is exactly what is printed on the cards.",
        "",
    ]
    if chars:
        mean = sum(c.power for c in chars) / len(chars)
        spread = ", ".join(
            f"{p}: {sum(1 for c in chars if c.power == p)}"
            for p in sorted({c.power for c in chars})
        )
        lines += [f"Printed powers (characters per power): {spread}; mean {mean:.2f}.", ""]
    lines += ["| # | Name | Power | Effect | Flavor |", "|---:|---|---:|---|---|"]
    every_back = tuple(b.id for b in card_set.backs) or BACKS
    names = _back_names(card_set)
    for n, ch in enumerate(chars, 1):
        effect = rules_text(ch, card_set) or "—"
        extras = []
        if tuple(ch.backs) != every_back:
            extras.append("backs: " + ", ".join(_back_name(b, names) for b in ch.backs))
        if ch.copies != 1:
            extras.append(f"{ch.copies} copies per back")
        name = ch.name + (f" ({'; '.join(extras)})" if extras else "")
        lines.append(
            f"| {n} | {_cell(name)} | {ch.power} | {_cell(effect)} | {_cell(ch.flavor or '')} |"
        )
    return "\n".join(lines) + "\n"


def write_characters_doc(card_set: CardSet, path: str | Path) -> None:
    """Write the character list atomically (temp file + rename: never a half-written doc)."""
    path = Path(path)
    text = characters_table_markdown(card_set)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate docs/characters.md from the bundled Day of the Dead set."""
    from boneyard.pipeline.load import load_set

    from boneyard.paths import DOCS

    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else DOCS / "characters.md"
    write_characters_doc(load_set("day-of-the-dead"), target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
