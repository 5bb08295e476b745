"""Rule presets as data, and custom rules from TOML."""

import dataclasses
from pathlib import Path

import pytest
from agari.engine import PRESETS, InvalidInput, Rules
from agari.engine.rules import PRESET_DIR


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_names_itself(name):
    rules = Rules.preset(name)
    assert rules.name == name and rules.description


def test_every_preset_file_sets_every_option():
    options = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    import tomllib

    for name in PRESETS:
        data = tomllib.loads((Path(PRESET_DIR) / f"{name}.toml").read_text())
        assert set(data) == options, name


def test_every_option_is_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    for f in dataclasses.fields(Rules):
        assert f"`{f.name}`" in doc, f.name


def test_tenhou_facts():
    t = Rules.preset("tenhou")
    assert not t.kiriage and t.kazoe == "yakuman" and not t.double_yakuman
    assert t.sanma_tsumo == "loss" and t.honba_unit(3) == 200 and t.honba_unit(4) == 300


def test_custom_from_toml(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "tenhou"\nkiriage = true\nred_fives = [1, 2, 1]\n')
    rules = Rules.from_toml(path)
    assert rules.kiriage and rules.red_fives == (1, 2, 1) and rules.name == "house"
    assert rules.kazoe == "yakuman"  # inherited


@pytest.mark.parametrize(
    "text,message",
    [
        ("kiriage = 1\n", "must be a bool"),
        ("kazoe = 'always'\n", "kazoe must be one of"),
        ("bogus = true\n", "unknown rules option"),
        ("base = 'nowhere'\n", "unknown rules preset"),
        ("kiriage = \n", "not valid TOML"),
        ("double_yakuman = ['suuankou']\n", "unknown"),
        ("red_fives = [1, 1]\n", "three counts"),
    ],
)
def test_bad_toml_is_rejected_with_reason(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=message):
        Rules.from_toml(path)


def test_missing_file_and_unknown_preset():
    with pytest.raises(InvalidInput, match="cannot read"):
        Rules.from_toml("/nonexistent/rules.toml")
    with pytest.raises(InvalidInput, match="unknown rules"):
        Rules.resolve("tenhuo")


@pytest.mark.parametrize("name", PRESETS)
def test_preset_values_are_what_the_files_say(name):
    """Presets load from Python values (no TOML reader at start-up); the files stay the source."""
    from agari.engine.preset_values import PRESET_VALUES
    from agari.engine.rules import read_preset_file

    assert PRESET_VALUES[name] == read_preset_file(name)
    from_file = Rules().replace(name=name, **read_preset_file(name))
    assert Rules.preset(name) == from_file
    assert Rules.preset(name).description == from_file.description
