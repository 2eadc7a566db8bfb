"""The bundled sets load into the card model the engines read, and the data CLI shows them.

What a designer and the engines rely on: both bundled sets validate; the deck is characters x
backs x copies with stable indices; YAML shorthand (``power: 5``) and the long form mean the
same Step; defaults for switches come from the schema; the schema, the docs and the engine
agree on every name; ``boneyard validate``/``cards`` work and never print a traceback.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from boneyard.engine.dotd.cards import BACKS, Condition, Step
from boneyard.engine.dotd.effects import (
    COMPARATORS,
    CONDITION_TESTS,
    COPY_SOURCES,
    COUNTERS,
    FLIP_TARGETS,
    PRIMITIVES,
    WHO,
)
from boneyard.engine.gf.cards import GF_KINDS
from boneyard.engine.hashing import content_hash
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import SetNotFoundError, check_set, load_set, resolve_set
from boneyard.pipeline.validate import schema, schema_defaults
from click.testing import CliRunner

from boneyard import __version__
from boneyard.paths import CARDS, DOCS, bundled_sets

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dotd():
    return load_set("day-of-the-dead")


@pytest.fixture(scope="module")
def gf():
    return load_set("grave-feast")


def _tiny_dotd(tmp_path: Path, characters: str, extra_game: str = "") -> Path:
    """A two-characters-per-back set written into tmp_path."""
    src = ROOT / "tests" / "fixtures" / "broken" / "duplicate-id" / "game.yaml"
    (tmp_path / "game.yaml").write_text(src.read_text() + extra_game)
    (tmp_path / "characters.yaml").write_text(characters)
    return tmp_path


# --- the bundled sets ---------------------------------------------------------------------------


def test_both_bundled_sets_are_valid():
    assert bundled_sets() == ["day-of-the-dead", "grave-feast"]
    for name in bundled_sets():
        check = check_set(name)
        assert check.problems == [], "\n".join(map(str, check.problems))
        assert check.ok


def test_day_of_the_dead_is_36_characters_on_each_of_three_backs(dotd):
    assert dotd.rules == "day-of-the-dead" and dotd.slug == "day-of-the-dead"
    assert len(dotd.characters) == 36
    assert len(dotd.cards) == 108
    assert [b.id for b in dotd.backs] == list(BACKS)
    for back in BACKS:
        deck = [c for c in dotd.cards if c.back == back]
        assert sorted(c.character.id for c in deck) == sorted(ch.id for ch in dotd.characters)
    # index is the position, and each back's deck is one contiguous run
    assert [c.index for c in dotd.cards] == list(range(108))
    assert [c.back for c in dotd.cards] == [b for b in BACKS for _ in range(36)]
    assert len({c.id for c in dotd.cards}) == 108
    powers = {ch.power for ch in dotd.characters}
    assert powers == set(range(10))  # the issue asks for powers spread 0-9


def test_the_rulebook_characters_are_there_as_written(dotd):
    oaf, anger, nemesis = dotd.character("oaf"), dotd.character("anger"), dotd.character("nemesis")
    assert (oaf.power, oaf.effect) == (7, ())
    assert anger.power == 3 and anger.effect == (Step("power", amount=5),)
    assert nemesis.effect == (Step("auto_win", who="self"),)
    assert dotd.character("spook").effect[0].op == "unearth"
    assert dotd.character("twin").effect[0].op == "copy_effect"
    assert dotd.character("hoard").effect[0].op == "gain_vp"


def test_grave_feast_deck_is_the_54_card_proposal(gf):
    by_kind: dict[str, int] = {}
    for f in gf.feast_cards:
        by_kind[f.kind] = by_kind.get(f.kind, 0) + f.copies
    assert by_kind == {"human": 36, "vampire": 4, "zombie": 4, "succubus": 4, "preacher": 6}
    humans = {(f.food, f.number): f for f in gf.feast_cards if f.kind == "human"}
    assert set(humans) == {(food, n) for food in ("blood", "brains") for n in range(1, 10)}
    assert humans[("blood", 3)].id == "blood-3" and humans[("blood", 3)].name == "Blood 3"
    assert all(f.copies == 2 for f in humans.values())
    assert not any(f.rare for f in gf.feast_cards)
    assert [(r.id, r.kind, r.rare, r.copies) for r in gf.rares] == [
        ("devil_wife", "devil_wife", True, 1), ("exorcist", "exorcist", True, 1)]
    assert all(f.flavor for f in (*gf.feast_cards, *gf.rares))


def test_switches_and_params_are_filled_from_the_schema_defaults(tmp_path, dotd):
    assert dict(dotd.switches) == {**schema_defaults("dotd_switches"), **dotd.switches}
    assert set(dotd.switches) == set(schema_defaults("dotd_switches"))
    assert dotd.params["turns"] == 6 and dotd.params["players"] == 2
    # a game.yaml that names no switch at all still gets every one, at its default
    folder = _tiny_dotd(tmp_path, "- {id: oaf, name: Oaf, power: 7}\n"
                                  "- {id: anger, name: Anger, power: 3, effect: [power: 5]}\n")
    tiny = load_set(folder)
    assert dict(tiny.switches) == schema_defaults("dotd_switches")
    assert tiny.params["hand_per_back"] == 1 and tiny.params["unearth_look"] == 3


def test_content_hash_is_stable_and_follows_play_relevant_changes(tmp_path, dotd):
    assert load_set("day-of-the-dead").content_hash == dotd.content_hash == content_hash(dotd)
    assert dotd.with_switches(tie_break="chain").content_hash != dotd.content_hash
    copy = tmp_path / "copy"
    shutil.copytree(CARDS / "day-of-the-dead", copy)
    assert load_set(copy).content_hash == dotd.content_hash  # the folder does not matter
    text = (copy / "characters.yaml").read_text()
    (copy / "characters.yaml").write_text(text.replace("power: 7", "power: 8", 1))
    assert load_set(copy).content_hash != dotd.content_hash


def test_every_card_file_starts_with_its_editor_schema_line():
    for path in sorted(CARDS.glob("*/*.yaml")):
        if path.name == "template.yaml":
            continue  # the renderer's layout file, not card data
        first = path.read_text().splitlines()[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, f"{path} does not start with the yaml-language-server line"
        assert (path.parent / m.group(1)).resolve().is_file(), first


# --- YAML forms -> Steps ------------------------------------------------------------------------


def _steps(tmp_path: Path, effect_yaml: str) -> tuple[Step, ...]:
    chars = ("- id: oaf\n  name: Oaf\n  power: 7\n"
             "- id: probe\n  name: Probe\n  power: 1\n  effect:\n" + effect_yaml)
    return load_set(_tiny_dotd(tmp_path, chars)).character("probe").effect


def test_shorthand_and_long_form_mean_the_same_step(tmp_path):
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    short = _steps(a, "    - power: 5\n    - auto_win: self\n    - copy_effect: adjacent\n"
                      "    - dig: 2\n    - flip: own_fallen\n")
    long = _steps(b, "    - power: {amount: 5}\n    - auto_win: {who: self}\n"
                     "    - copy_effect: {target: adjacent}\n    - dig: {amount: 2}\n"
                     "    - flip: {target: own_fallen}\n")
    assert short == long == (
        Step("power", amount=5), Step("auto_win", who="self"),
        Step("copy_effect", target="adjacent"), Step("dig", amount=2),
        Step("flip", target="own_fallen"))


def test_defaults_of_primitives_written_bare(tmp_path):
    steps = _steps(tmp_path, "    - dig:\n    - unearth:\n    - force_unearth:\n"
                             "    - set_power: 0\n    - suppress_spirit:\n    - negate:\n"
                             "    - take_priority:\n    - auto_lose:\n")
    assert steps == (
        Step("dig", amount=1), Step("unearth", target="self"),
        Step("force_unearth", target="opposing"), Step("set_power", amount=0, who="opponent"),
        Step("suppress_spirit", who="opponent"), Step("negate"), Step("take_priority"),
        Step("auto_lose", who="self"))


def test_conditions_become_one_test_each(tmp_path):
    (step,) = _steps(tmp_path, "    - gain_vp: {amount: 1, who: opponent, per: own_fallen}\n"
                               "      when:\n        turn: {ge: 2, le: 5}\n"
                               "        count: {of: opponent_active, gt: 1}\n"
                               "        priority: opponent\n        slot: newest\n"
                               "        opposing_power: 3\n        losing: true\n")
    assert (step.op, step.amount, step.who, step.per) == ("gain_vp", 1, "opponent", "own_fallen")
    assert step.when == (
        Condition("turn", 2, op="ge"), Condition("turn", 5, op="le"),
        Condition("count", 1, op="gt", subject="opponent_active"),
        Condition("priority", "opponent"), Condition("slot", "newest"),
        Condition("opposing_power", 3), Condition("losing", True))


def test_restricted_backs_and_copies_shape_the_deck(tmp_path):
    folder = _tiny_dotd(tmp_path, "- {id: oaf, name: Oaf, power: 7, copies: 3,"
                                  " backs: [unearth, double]}\n"
                                  "- {id: anger, name: Anger, power: 3, copies: 2,"
                                  " backs: [power_up]}\n")
    text = (folder / "game.yaml").read_text().replace(
        "cards_per_back: 2", "cards_per_back: {double: 3, power_up: 2, unearth: 3}")
    (folder / "game.yaml").write_text(text)
    cs = load_set(folder)
    assert [c.id for c in cs.cards] == ["oaf@double"] * 3 + ["anger@power_up"] * 2 + [
        "oaf@unearth"] * 3
    assert cs.character("oaf").backs == ("double", "unearth")  # canonical order


# --- schema, docs and engine agree ---------------------------------------------------------------


def test_character_schema_names_exactly_the_effect_language():
    defs = schema("characters")["$defs"]
    assert tuple(defs["step"]["properties"]) == (*PRIMITIVES, "when")
    assert tuple(defs["when"]["properties"]) == CONDITION_TESTS
    assert tuple(defs["who"]["enum"]) == WHO
    assert tuple(defs["counter"]["enum"]) == COUNTERS
    assert tuple(defs["copy_source"]["enum"]) == COPY_SOURCES
    assert tuple(defs["flip_target"]["enum"]) == FLIP_TARGETS
    assert tuple(defs["comparison"]["properties"]) == COMPARATORS
    assert tuple(defs["back"]["enum"]) == BACKS
    assert tuple(schema("feast-cards")["$defs"]["card"]["properties"]["kind"]["enum"]) == GF_KINDS
    documented = re.findall(r"^\| `(\w+)` \|", (DOCS / "effects.md").read_text(), re.M)
    assert [d for d in documented if d in PRIMITIVES] == list(PRIMITIVES)
    assert set(CONDITION_TESTS) <= set(documented)


def test_the_examples_in_the_effects_doc_are_valid_card_data():
    import jsonschema

    text = (DOCS / "effects.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        data = yaml.safe_load(block)
        name = "feast-cards" if "kind" in data[0] else "characters"
        jsonschema.Draft202012Validator(schema(name)).validate(data)
    # the one-line examples in the primitives table
    examples = re.findall(r"\| [\w ]+: `(\w+: [^`]+)` \|", text)
    assert len(examples) >= 6
    defs = schema("characters")["$defs"]
    step = jsonschema.Draft202012Validator(defs["step"] | {"$defs": defs})
    when = jsonschema.Draft202012Validator(defs["when"] | {"$defs": defs})
    for ex in examples:
        data = yaml.safe_load(ex)
        (key,) = data
        assert key in PRIMITIVES or key in CONDITION_TESTS, ex
        (step if key in PRIMITIVES else when).validate(data)


@pytest.mark.parametrize("rules, module, defs", [
    ("day-of-the-dead", "boneyard.engine.dotd.rules", "dotd_switches"),
    ("grave-feast", "boneyard.engine.gf.game", "gf_switches"),
])
def test_schema_switches_match_what_the_engine_reads(rules, module, defs):
    engine = pytest.importorskip(module)
    props = schema("game")["$defs"][defs]["properties"]
    assert set(props) == set(engine.SWITCHES)
    for name, (default, allowed) in engine.SWITCHES.items():
        assert props[name]["default"] == default, name
        if "enum" in props[name]:
            assert set(props[name]["enum"]) == set(allowed), name


# --- set resolution -----------------------------------------------------------------------------


def test_a_set_is_a_name_a_folder_or_its_game_yaml():
    folder = CARDS / "grave-feast"
    assert resolve_set("grave-feast") == folder
    assert resolve_set(folder) == folder
    assert resolve_set(str(folder / "game.yaml")) == folder
    assert resolve_set(folder / "rares.yaml") == folder  # a card file means its set
    with pytest.raises(SetNotFoundError) as info:
        load_set("no-such-set")
    assert info.value.exit_code == 2
    assert "bundled sets: day-of-the-dead, grave-feast" in str(info.value)


# --- CLI ----------------------------------------------------------------------------------------


def test_validate_without_arguments_checks_every_bundled_set():
    result = CliRunner().invoke(cli, ["validate"])
    assert result.exit_code == 0, result.output
    assert "ok: Day of the Dead is valid" in result.output
    assert "ok: Grave Feast is valid" in result.output
    assert re.search(r"Power Up\s*│\s*gray\s*│\s*36\s*│\s*36", result.output)
    assert re.search(r"preacher\s*│\s*1\s*│\s*6\s*│\s*0", result.output)
    assert re.search(r"total\s*│\s*24\s*│\s*54\s*│\s*2", result.output)
    row = re.search(r"│ characters │(.*)│", result.output).group(1).split("│")
    assert sum(int(n) for n in row[:10]) == 36  # characters per printed power 0-9


def test_cards_json_lists_the_physical_cards(dotd):
    result = CliRunner().invoke(cli, ["cards", "day-of-the-dead", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["content_hash"] == dotd.content_hash
    assert len(data["cards"]) == 108
    anger = next(c for c in data["cards"] if c["id"] == "anger@unearth")
    assert anger["power"] == 3 and anger["effect"][0]["op"] == "power"
    assert anger["text"] == "+5 power this fight."
    one_back = json.loads(CliRunner().invoke(
        cli, ["cards", "day-of-the-dead", "--back", "power_up", "--json"]).output)
    assert {c["back"] for c in one_back["cards"]} == {"power_up"}
    assert len(one_back["cards"]) == 36


def test_cards_json_of_a_set_with_problems_is_json_too(tmp_path):
    """A script that asked for JSON gets JSON: the problems as validate --json gives them."""
    root = tmp_path / "bad"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    chars = root / "characters.yaml"
    chars.write_text(chars.read_text().replace("  name: Anger\n  power: 3\n", "  name: Anger\n  power: 99\n"))
    result = CliRunner().invoke(cli, ["cards", str(root), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and len(data["problems"]) == 1
    assert data["problems"][0]["line"] == 93 and data["problems"][0]["card"] == "anger"
    assert data["problems"][0]["message"] == "power must be at most 9, got 99"


def test_cards_table_for_both_games():
    result = CliRunner().invoke(cli, ["cards", "grave-feast"])
    assert result.exit_code == 0, result.output
    assert "blood-9" in result.output and "Devil Wife" in result.output
    feast = json.loads(CliRunner().invoke(cli, ["cards", "grave-feast", "--json"]).output)
    assert sum(c["copies"] for c in feast["cards"]) == 54 and len(feast["rares"]) == 2
    result = CliRunner().invoke(cli, ["cards", "day-of-the-dead", "--back", "double"])
    assert result.exit_code == 0 and "Nemesis" in result.output


def test_cards_table_says_all_backs_once_and_spells_out_the_exceptions(tmp_path):
    """The usual character (once on each back) reads "all"; restricted or extra copies are listed,
    so the rules text keeps the width of the table."""
    folder = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    text = (folder / "characters.yaml").read_text()
    text = text.replace("  name: Oaf\n", "  name: Oaf\n  copies: 2\n", 1)
    (folder / "characters.yaml").write_text(text)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        "cards_per_back: 36", "cards_per_back: 37"))
    result = CliRunner().invoke(cli, ["cards", str(folder)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line.split("│")[4].strip()
            for line in result.output.splitlines() if line.startswith("│") and line.split("│")[1].strip()}
    assert rows["oaf"] == "Double x2, Power Up x2, Unearth x2"
    assert rows["anger"] == "all"


@pytest.mark.parametrize("args, message", [
    (["cards", "day-of-the-dead", "--back", "gold"], "no back 'gold'"),
    (["cards", "grave-feast", "--back", "double"], "have no backs"),
    (["cards", "nowhere"], "no such card set"),
    (["cards"], "Missing argument 'SET'"),
])
def test_cards_usage_errors_exit_2(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_cards_on_a_broken_set_lists_its_problems():
    folder = ROOT / "tests" / "fixtures" / "broken" / "bad-who"
    result = CliRunner().invoke(cli, ["cards", str(folder)])
    assert result.exit_code == 1
    assert "card 'anger': effect step 1 auto_win must be one of: self, opponent" in result.stderr


@pytest.mark.parametrize("command", [[], ["validate"], ["cards"]])
def test_help(command):
    result = CliRunner().invoke(cli, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_art_that_is_a_real_png_or_jpeg_inside_the_set_is_accepted(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art" / "oaf.png")
    Image.new("RGB", (8, 8), "blue").save(tmp_path / "art" / "anger.jpg")
    folder = _tiny_dotd(tmp_path, "- {id: oaf, name: Oaf, power: 7, art: art/oaf.png}\n"
                                  "- {id: anger, name: Anger, power: 3, art: ./art/anger.jpg}\n")
    cs = load_set(folder)
    assert cs.character("oaf").art == "art/oaf.png"
    assert cs.character("anger").art == "./art/anger.jpg"
    # the art's pixels are printed: a record made before they changed no longer vouches
    Image.new("RGB", (8, 8), "green").save(tmp_path / "art" / "oaf.png")
    assert load_set(folder).content_hash != cs.content_hash


def test_art_in_another_image_format_is_refused(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art" / "oaf.gif")
    folder = _tiny_dotd(tmp_path, "- {id: oaf, name: Oaf, power: 7, art: art/oaf.gif}\n"
                                  "- {id: anger, name: Anger, power: 3}\n")
    (problem,) = check_set(folder).problems
    assert (problem.line, problem.column, problem.card) == (1, 39, "oaf")
    assert problem.message == "art file 'art/oaf.gif' is GIF, expected PNG or JPEG (export it as PNG)"


def _art_problem(tmp_path: Path, art: str) -> str:
    folder = _tiny_dotd(tmp_path, f"- {{id: oaf, name: Oaf, power: 7, art: '{art}'}}\n"
                                  "- {id: anger, name: Anger, power: 3}\n")
    (problem,) = check_set(folder).problems
    assert problem.card == "oaf" and problem.hint is None
    return problem.message


def test_art_that_cannot_be_printed_says_why_and_what_to_do(tmp_path):
    """An SVG was "not a readable image", a pixel bomb "has too many pixels" with no limit."""
    from PIL import Image

    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "oaf.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    assert _art_problem(tmp_path, "art/oaf.svg") == (
        "art file 'art/oaf.svg' is SVG, expected PNG or JPEG (export it as PNG)")
    Image.new("1", (10_000, 10_000)).save(tmp_path / "art" / "big.png")
    assert _art_problem(tmp_path, "art/big.png") == (
        "art file 'art/big.png' has too many pixels: at most 89,478,485 (about 9,459 x 9,459); "
        "scale it down (a poker card at 300 dpi is 750 x 1050)")


def test_an_art_path_is_quoted_as_written_and_a_detour_says_the_plain_path(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art" / "oaf.png")
    assert _art_problem(tmp_path, "art/../art/oaf.png") == (
        "art 'art/../art/oaf.png' goes up with '..' and back in; write it as 'art/oaf.png'")
    assert _art_problem(tmp_path, "art/../../oaf.png").endswith(
        "goes outside the set folder with '..' (art paths are relative to the set folder)")
    assert _art_problem(tmp_path, "art\\nope.png") == (
        "art file 'art\\nope.png' does not exist (art paths are relative to the set folder)")


def test_back_and_spirit_conditions_may_say_is_not(tmp_path):
    (step,) = _steps(tmp_path, "    - power: 2\n      when:\n        own_spirit: {ne: none}\n"
                               "        opposing_back: {eq: unearth}\n        own_back: double\n")
    assert step.when == (Condition("own_spirit", "none", op="ne"),
                         Condition("opposing_back", "unearth", op="eq"),
                         Condition("own_back", "double"))
