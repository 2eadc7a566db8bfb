"""What ``validate`` checks beyond the card data: the playtest section, the set's own template
laid out for every card, and gates that name no figure. One function for every command that
must refuse what validate refuses (``validate``, ``build`` and ``watch``, whatever they skip),
so a set validate rejects is never played, kept as a last pass or called valid.
"""

from __future__ import annotations

import os
from pathlib import Path

from boneyard.engine.cards import CardSet


def set_problems(card_set: CardSet) -> tuple[list[str], list[str]]:
    """(problems, warnings) of a set whose card data loads, each line located as validate prints
    it. The kinds are taken in turn and the first that finds something is reported (a broken
    playtest section makes the trial playtest meaningless); the trial runs only on a set without
    other problems. The template's warnings are kept whatever else is found."""
    problems = playtest_problems(card_set)
    template, warnings = template_problems(card_set) if not problems else ([], [])
    problems = problems or template
    if problems:
        return problems, warnings
    from boneyard.pipeline.build import unmatched_gates

    typos, unsure = unmatched_gates(card_set)
    return typos, warnings + unsure


def playtest_problems(card_set: CardSet) -> list[str]:
    """What ``boneyard build`` would refuse in the ``playtest:`` section (gate bounds, profiles,
    runs) of every profile, found now rather than after validate said "ok"; a set without the
    section has none."""
    if not card_set.playtest:
        return []
    from boneyard.pipeline.build import _located, config_for

    from boneyard.errors import BoneyardError, GateError

    profiles = card_set.playtest.get("profiles") or {}
    out: list[str] = []
    for fast in (False, True) if "fast" in profiles else (False,):
        try:
            config_for(card_set, fast=fast, jobs=1)
        except GateError as exc:
            out += [line for line in str(exc).splitlines() if line not in out]
        except BoneyardError as exc:  # an engine refusing a run's settings: a problem of the
            # set, said among the others (and in the JSON report), never the command's end
            where = Path(card_set.root or card_set.slug) / "game.yaml"
            said = _located("\n".join(f"{where}: playtest: {line}"
                                      for line in str(exc).splitlines()), card_set)
            out += [line for line in said.splitlines() if line not in out]
    return out


def template_problems(card_set: CardSet) -> tuple[list[str], list[str]]:
    """(problems, warnings) of the set's own template.yaml, laid out for every card at every print
    size it names (nothing written, about a second): a broken template, text that does not fit
    or a character the font cannot draw is found by validate, not by the render at the end of a
    build."""
    if not card_set.root or not os.path.lexists(Path(card_set.root) / "template.yaml"):
        return [], []
    from boneyard.pipeline.render.api import preflight_set

    from boneyard.errors import RenderError

    try:  # every print size the template names, with the print shop's preflight checks
        return preflight_set(card_set)
    except RenderError as exc:
        return str(exc).splitlines(), []
