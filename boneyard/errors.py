"""One error tree for everything a designer can get wrong.

    BoneyardError                 any problem the CLI reports without a traceback
    ├── CardDataError             card files: schema, semantics, YAML syntax, art (many problems at once)
    ├── RulesError                an illegal action or an impossible state in a rules engine
    ├── ScenarioError             a scenario file that does not describe a legal position
    ├── RenderError               templates, fonts, overflowing text, missing art while rendering
    └── GateError                 a playtest gate failed, or a render has no passing playtest record

Messages name the input, the place, what was expected and what was found, e.g.
``cards/my-set/characters.yaml:41:7: card 'anger': effect 'power' needs a whole number, got 'five'``.
"""

from __future__ import annotations

from dataclasses import dataclass


def excerpt(text: object, limit: int = 80) -> str:
    """``text`` as a message quotes it: at most ``limit`` characters, cut with an ellipsis, so
    a pasted page (or a request's 60,000-character string) is not echoed back whole."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


class BoneyardError(Exception):
    """Base of every error the CLI turns into a message and a non-zero exit code."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the card data, located in a file."""

    file: str
    line: int
    column: int
    message: str
    card: str | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        who = f" card '{self.card}':" if self.card else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}:{who} {self.message}{hint}"


class CardDataError(BoneyardError):
    """Invalid card data; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class RulesError(BoneyardError):
    """An action that is not legal in the current state, or a broken invariant."""


class ScenarioError(BoneyardError):
    """A scenario file that does not describe a legal position.

    ``warnings`` are what was noticed before the failure (a position the rules cannot reach):
    often the cause of a step that then fails, so they are printed with it; ``failed`` the
    expectations that did not hold before it, which often say why the step is not legal.
    """

    warnings: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()


class RenderError(BoneyardError):
    """A card that cannot be rendered (overflowing text, broken template, missing art)."""


class GateError(BoneyardError):
    """A failed playtest gate, or rendering without a passing playtest record."""
