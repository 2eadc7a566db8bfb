"""Coverage gates and per-kind sensitivity (issue 13.6, 13.7): what a designer relies on.

A rule or effect the playtest never applied fails the build as "never tested"; one the set's
switches or deck make impossible is not asked for; the counts come from the vocabulary and the
rules, so a card nobody has seen counts like any other; a Grave Feast deck out of proportion is
refused while the bundled deck passes.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from boneyard.engine.cards import freeze
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.coverage import items as dotd_items
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.gf import FeastGame
from boneyard.engine.gf.coverage import items as gf_items
from boneyard.engine.gf.variants import variants
from boneyard.engine.hashing import content_hash
from boneyard.engine.sim import simulate
from boneyard.pipeline.build import config_for
from boneyard.pipeline.coverage import never_tested
from boneyard.pipeline.load import load_set
from boneyard.pipeline.playtest import playtest
from test_dotd_rules import CHARS

from boneyard.errors import GateError

QUICK = {"agents": "greedy", "seed": 3, "substitution": {"games": 0}, "strength": {"games": 0},
         "gates": [{"metric": "draw_rate", "max": 1.0}]}


def _dotd_set(extra: list[dict], drop: tuple[str, ...] = (), **playtest):
    chars = [character_from_dict(c) for c in CHARS if c["id"] not in drop]
    cs = make_card_set(chars + [character_from_dict(c) for c in extra])
    return replace(cs, playtest=freeze({**QUICK, **playtest}))


def _names(items) -> set[str]:
    """The items a game can apply (the hook lists every item it counts, each on or off)."""
    return {name for name, _what, _hint, on in items if on}


def _random_games(card_set, n: int):
    game = DotdGame(card_set)
    out = []
    for seed in range(n):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        out.append(s.summary())
    return out


def test_an_invented_card_fires_the_counters_of_its_primitive():
    """No card table: a character the engine has never seen counts its primitive and its uses."""
    cs = _dotd_set([{"id": "lantern", "power": 3, "effect": [{"take_priority": True}]}], drop=("riser",))
    summaries = _random_games(cs, 20)
    fired = sum(dict(s.primitives).get("take_priority", 0) for s in summaries)
    uses = sum(dict(s.effects).get("lantern", 0) for s in summaries)
    # its one step is the set's only take_priority; a copy of it fires the primitive for the copier
    assert 0 < uses <= fired
    assert all("oaf" not in dict(s.effects) for s in summaries)  # no effect, never fired
    res = simulate(cs, ["random", "random"], 20, 5, jobs=1)
    metric = {m.name: m for m in res.metrics}
    assert metric["fired.primitive.take_priority"].value == metric["fired.primitive.take_priority"].high > 0
    assert metric["card.lantern.effect_fired"].value > 0 and metric["card.oaf.effect_fired"].value == 0


def test_a_primitive_that_never_fires_fails_the_build_as_never_tested():
    # gain_vp only on a card whose condition cannot hold in a six-turn game
    late = {"id": "late", "power": 4, "effect": [{"gain_vp": 2, "when": {"turn": {"ge": 7}}}]}
    cs = _dotd_set([late], drop=("hoard",), games=60, coverage={"min": 1})
    cfg = config_for(cs, jobs=1)
    record = playtest(cs, cfg)
    assert not record["passed"]
    lines = never_tested(record)
    # the vocabulary item, and the card's own text, which does nothing in these games
    assert len(lines) == 2 and lines[0].startswith(
        "never tested: primitive.gain_vp (fired 0 times in 60 games of run 'main', fewer than 1;")
    assert lines[1].startswith("never tested: card.late (fired 0 times in 60 games of run 'main'")
    assert "text that does nothing" in lines[1]
    assert "on late" in next(g["gate"]["why"] for g in record["gates"]
                              if g["gate"]["metric"] == "fired.primitive.gain_vp")
    failed = [g["gate"]["metric"] for g in record["gates"] if g["status"] == "fail"]
    assert failed == ["fired.primitive.gain_vp", "fired.card.late"]
    # exempt with a reason: the build passes and the reason stays in the record
    ok = replace(cs, playtest=freeze({**cs.playtest, "coverage": {"min": 1, "exempt": {
        "gain_vp": "a test", "late": "a test"}}}))
    again = playtest(ok, config_for(ok, jobs=1))
    assert again["passed"] and any(g["gate"].get("why", "").endswith(": a test") for g in again["gates"])


def test_a_card_whose_effect_never_runs_fails_though_its_primitive_is_tested():
    """A condition typed the wrong way round (Poltergeist's flip "turn 2 or later" typed
    `le: 1`) leaves a card whose printed text does nothing; its primitive still fires on other
    cards, so only the card's own coverage can say so. A card without an effect is asked nothing."""
    dud = {"id": "dud", "power": 4, "effect": [{"power": 2, "when": {"turn": {"ge": 7}}}]}
    cs = _dotd_set([dud], drop=("hoard",), games=60, coverage={"min": 1})
    record = playtest(cs, config_for(cs, jobs=1))
    failed = [g["gate"]["metric"] for g in record["gates"] if g["status"] == "fail"]
    assert failed == ["fired.card.dud"]
    asked = {g["gate"]["metric"] for g in record["gates"]}
    assert "fired.card.anger" in asked and "fired.card.oaf" not in asked  # Oaf prints no effect


def test_an_exemption_names_something_that_can_happen_and_says_why():
    cs = _dotd_set([], coverage={"exempt": {"explosion": "never"}})
    with pytest.raises(GateError, match=r"coverage\.exempt\.explosion: the game counts nothing of that name"):
        config_for(cs, jobs=1)
    cs = _dotd_set([], coverage={"exempt": {"dig": {"agents": ["greedy"]}}})
    with pytest.raises(GateError, match=r"coverage\.exempt\.dig: give the reason"):
        config_for(cs, jobs=1)
    # exempt under another agent only: still required under greedy
    cs = _dotd_set([], coverage={"exempt": {"dig": {"why": "x", "agents": ["random"]}}})
    why = {g.metric: g.why for g in config_for(cs, jobs=1).gates}
    assert why["fired.primitive.dig"].startswith("coverage: ")


def test_what_the_switches_or_the_deck_rule_out_is_not_required():
    base = make_card_set([character_from_dict(c) for c in CHARS])
    names = _names(dotd_items(DotdGame(base)))
    assert "ability.unearth_retrigger" not in names and "ability.double_use" in names
    on = make_card_set(base.characters, {"unearth_retrigger_on_spirit_replace": True})
    assert "ability.unearth_retrigger" in _names(dotd_items(DotdGame(on)))
    # only the primitives the cards use
    plain = make_card_set([character_from_dict(c) for c in CHARS if "effect" not in c or "power" in c["effect"][0]])
    assert {n for n in _names(dotd_items(DotdGame(plain))) if n.startswith("primitive.")} == {"primitive.power"}

    gf = load_set("grave-feast")
    regular = _names(gf_items(FeastGame(gf, num_players=4)))
    assert not any(n.startswith(("ability.dw_", "ability.exorcist_", "ability.coin")) for n in regular)
    assert "ability.flub" not in regular and "ability.steal_family" in regular
    rares = _names(gf_items(FeastGame(gf, num_players=4, rares=True)))
    assert {"ability.dw_placed", "ability.explosion", "ability.coin_flip"} <= rares
    heads = _names(gf_items(FeastGame(gf, num_players=4, rares=True, coin_p_heads=1.0)))
    assert "ability.exorcist_hid" in heads and "ability.exorcist_seduced" not in heads
    # a deck that lost a kind of the rulebook's deck is asked for its first ability only, with
    # a hint that names the missing kind
    no_succubi = replace(gf, feast_cards=tuple(f for f in gf.feast_cards if f.kind != "succubus"))
    asked = {n: hint for n, _, hint, on in gf_items(FeastGame(no_succubi, num_players=4)) if on}
    assert "ability.steal_mash" not in asked
    assert asked["ability.steal_family"].startswith("the deck needs a succubus: it has none")
    no_exorcist = replace(gf, rares=tuple(f for f in gf.rares if f.kind != "exorcist"))
    asked = {n: hint for n, _, hint, on in gf_items(FeastGame(no_exorcist, num_players=4, rares=True)) if on}
    assert asked["ability.exorcist_blast"].startswith("the rares file needs an Exorcist: it has none")
    assert "ability.exorcist_maelstrom" not in asked and "ability.dw_placed" in asked
    # the bundled gates ask for the rares' abilities only in the run that has them
    cfg = config_for(gf, jobs=1)
    runs = {g.run for g in cfg.gates if g.metric == "fired.ability.dw_from_hand"}
    assert runs == {"rares"}


def _gf_two_players(card_set, sensitivity_games: int):
    """The bundled deck's own gates and sensitivity bounds, on its two-player run only."""
    pt = dict(card_set.playtest)
    pt.update(runs=[{"label": "p2", "players": 2}], games=300, strength={"games": 0}, profiles={},
              gates=[g for g in pt["gates"] if g.get("run") in (None, "p2")],
              sensitivity={**pt["sensitivity"], "games": sensitivity_games,
                           "gates": [g for g in pt["sensitivity"]["gates"] if g.get("run") in (None, "p2")]})
    return replace(card_set, playtest=freeze(pt))


def _with_copies(card_set, kind: str, copies: int):
    faces = tuple(replace(f, copies=copies) if f.kind == kind else f for f in card_set.feast_cards)
    cs = replace(card_set, feast_cards=faces)
    return replace(cs, content_hash=content_hash(cs))


def test_the_bundled_deck_passes_and_three_times_the_succubi_is_refused():
    bundled = _gf_two_players(load_set("grave-feast"), 25)
    record = playtest(bundled, config_for(bundled, jobs=2))
    assert record["passed"], [g["gate"]["metric"] for g in record["gates"] if g["status"] != "pass"]
    metrics = {m["name"]: m for m in record["runs"][0]["metrics"]}
    assert metrics["kind.succubus.plus.steals_delta"]["n"] > 0 and metrics["kind.succubus.plus.steals_delta"]["value"] > 0
    assert len([n for n in metrics if n.endswith(".rounds_delta")]) == len(variants(bundled))
    tripled = _with_copies(bundled, "succubus", 12)
    record = playtest(tripled, config_for(tripled, jobs=2))
    failed = {g["metric"]["name"] for g in record["gates"] if g["status"] == "fail"}
    assert not record["passed"] and "steals_per_game" in failed


def test_a_deck_with_a_hole_is_asked_what_the_missing_card_would_do():
    gf = load_set("grave-feast")
    holed = replace(gf, feast_cards=tuple(f for f in gf.feast_cards if f.id != "blood-5"))
    keys = {k: what for k, what, _ in variants(holed)}
    assert "blood-5.minus" not in keys and keys["blood-5.plus"] == "one Blood 5 (the deck has none)"
    added = next(vs for k, _, vs in variants(holed) if k == "blood-5.plus")
    assert FeastGame(added, num_players=2).names.count("blood 5") == 1
    assert len(variants(gf)) == 2 * len(gf.feast_cards)
