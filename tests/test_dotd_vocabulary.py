"""One effect vocabulary (engine/dotd/effects.py): the schema, the reference, the converter, the
text and the interpreter all follow from each definition."""

from __future__ import annotations

import random

import pytest
import yaml
from boneyard.engine.dotd import DotdGame, effects, generate
from boneyard.engine.dotd.cards import Step
from boneyard.engine.dotd.convert import character_from_dict, step_from_dict
from boneyard.engine.dotd.invariants import invariants
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.dotd.text import step_text
from boneyard.pipeline import validate

from boneyard.errors import RulesError


def test_the_committed_schema_is_what_the_vocabulary_generates(root) -> None:
    committed = (root / "schema" / "characters.schema.json").read_text(encoding="utf-8")
    assert committed == generate.characters_schema_text(), (
        "schema/characters.schema.json is stale: run .venv/bin/python -m boneyard.engine.dotd.generate")


def test_the_committed_reference_is_what_the_vocabulary_generates(root) -> None:
    committed = (root / "docs" / "effects.md").read_text(encoding="utf-8")
    assert committed == generate.effects_doc(), (
        "docs/effects.md is stale: run .venv/bin/python -m boneyard.engine.dotd.generate")


def test_every_name_is_in_the_schema_once() -> None:
    defs = generate.characters_schema()["$defs"]
    assert list(defs["step"]["properties"]) == [*effects.PRIMITIVES, "when"]
    # exactly one primitive a step, said by key counts (no "required" an editor would misname)
    assert defs["step"]["not"] == {"required": ["when"], "maxProperties": 1}
    assert defs["step"]["then"]["maxProperties"] == 2 and defs["step"]["else"]["maxProperties"] == 1
    assert list(defs["when"]["properties"]) == list(effects.CONDITION_TESTS)
    assert defs["counter"]["enum"] == list(effects.COUNTERS)


@pytest.mark.parametrize("prim", effects.PRIMITIVE_DEFS, ids=lambda p: p.name)
def test_every_sample_validates_converts_prints_and_plays(prim: effects.Primitive) -> None:
    """Each sample of the reference is valid card data, and a character with it plays out."""
    schema = validate._validator("characters")
    for sample in prim.samples:
        data = {"id": "probe", "name": "Probe", "power": 4, "effect": [{prim.name: sample}]}
        assert list(schema.iter_errors([data])) == [], (prim.name, sample)
        step = step_from_dict({prim.name: sample})
        assert step_text(step).endswith(".")
    bigger = [character_from_dict({"id": f"p{k}", "power": k % 10,
                                   "effect": [{prim.name: prim.samples[k % len(prim.samples)]}]})
              for k in range(12)]
    game = DotdGame(make_card_set(bigger))
    rng = random.Random(1)
    for seed in range(20):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            assert invariants(s) == [], (prim.name, seed)  # what simulate --check asks of every step
        s.check_invariants()


def test_unearth_targets_self_through_every_entry_point(tmp_path) -> None:
    """docs/effects.md (and DD-07): unearth's only target is one of your own cards, ``self``.

    The loader used to say ``'self'`` and the code-built sets None; there is one converter now."""
    for written in ("self", None, {}, {"target": "self"}):
        assert step_from_dict({"unearth": written}) == Step("unearth", target="self")
    assert step_from_dict({"force_unearth": None}) == Step("force_unearth", target="opposing")


def test_the_loader_and_the_converter_agree_on_the_bundled_set(root) -> None:
    from boneyard.pipeline.load import load_set

    loaded = load_set("day-of-the-dead").characters
    raw = yaml.safe_load((root / "cards" / "day-of-the-dead" / "characters.yaml").read_text())
    assert tuple(character_from_dict(c) for c in raw) == loaded


@pytest.mark.parametrize(("data", "message"), [
    ({"power": 1, "dig": 1}, "exactly one primitive"),
    ({}, "exactly one primitive"),
    ({"power": 1, "who": "opponent"}, "unexpected who"),
    ({"power": {"amount": 1}, "when": {"count": {"of": "nobody", "ge": 1}}}, "unknown counter"),
])
def test_the_converter_refuses_what_it_cannot_read(data, message) -> None:
    with pytest.raises(RulesError, match=message):
        step_from_dict(data)


def test_a_new_primitive_is_one_definition(monkeypatch) -> None:
    """A primitive made of an existing operation needs nothing but its definition: the schema,
    the converter, the text, the interpreter and the greedy agent all pick it up."""
    import jsonschema
    from boneyard.engine.dotd import codes
    from boneyard.engine.dotd.effects import Arg, Primitive

    handicap = Primitive(
        "handicap", (Arg("amount", "int", 1, 9, required=True),), "amount",
        "The opposing fighter gets `amount` more power this fight.", "Help the opposing fighter.",
        lambda step: [(f"The opposing fighter gets +{step.amount} power this fight.", "plain")],
        (2,), "none", codes.RUN_FIGHT_ADD, codes.F_BONUS, side="opponent",
        rate=lambda amount, opp, per: (-float(amount), 0.0), keeps_hand=True)
    monkeypatch.setitem(effects.PRIMITIVE, "handicap", handicap)
    monkeypatch.setattr(generate, "PRIMITIVE_DEFS", (*effects.PRIMITIVE_DEFS, handicap))

    schema = generate.characters_schema()
    card = {"id": "helper", "name": "Helper", "power": 5, "effect": [{"handicap": 2}]}
    jsonschema.Draft202012Validator(schema).validate([card])
    assert step_text(step_from_dict({"handicap": 2})) == (
        "The opposing fighter gets +2 power this fight.")

    def play(effect: dict) -> list:
        chars = [character_from_dict({"id": f"c{k}", "power": k % 10,
                                      "effect": [effect] if k % 3 == 0 else []})
                 for k in range(12)]
        game = DotdGame(make_card_set(chars))
        out = []
        for seed in range(10):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
            out.append((s.history, s.fight_log, s.scores))
        return out

    # it plays exactly like the long way of saying the same thing
    assert play({"handicap": 2}) == play({"power": {"amount": 2, "who": "opponent"}})


def test_the_effect_references_card_examples_are_the_bundled_cards():
    """docs/effects.md names a bundled card beside each primitive and condition ("Underdog:
    `score_diff: {lt: 0}`"); Underdog prints `{le: 0}` and no card tests `opposing_has_effect`.
    An example that names a card shows what that card prints, or what it uses."""
    import re

    import yaml
    from boneyard.engine.dotd.effects import CONDITION_DEFS, PRIMITIVE_DEFS

    from boneyard.paths import CARDS

    cards = {c["name"]: c for c in yaml.safe_load((CARDS / "day-of-the-dead" / "characters.yaml").read_text())}

    def holds(data, key, value):
        if isinstance(data, dict):
            if key in data and (value is None or data[key] == value):
                return True
            return any(holds(v, key, value) for v in data.values())
        if isinstance(data, list):
            return any(holds(v, key, value) for v in data)
        return False

    checked = 0
    for name, example in [(p.name, p.example) for p in PRIMITIVE_DEFS] + [(c.name, c.example) for c in CONDITION_DEFS]:
        m = re.match(r"([A-Z][A-Za-z ]+?)(?::\s*`([^`]*)`|\s*\(|$)", example)
        if not m or m.group(1) not in cards:
            assert not any(card in example for card in cards), (name, example)  # no card misnamed
            continue
        card = cards[m.group(1)]
        if m.group(2):
            (key, value), = yaml.safe_load(m.group(2)).items()
            assert holds(card["effect"], key, value), (name, example, card["effect"])
        else:
            assert holds(card["effect"], name, None), (name, example, card["effect"])
        checked += 1
    assert checked >= 15
