"""`agari game …` through typer's CliRunner on a real SQLite file."""

import json

import pytest
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.sqlite3")


def game(db, *args, json_out=False):
    argv = ["game", *args, "--db", db] + (["--json"] if json_out else [])
    result = runner.invoke(app, argv)
    if json_out:
        return result, json.loads(result.stdout.strip().splitlines()[-1])
    return result, None


def ok(db, *args):
    result, doc = game(db, *args, json_out=True)
    assert result.exit_code == 0, result.output
    return doc


def test_a_short_game_end_to_end(db):
    doc = ok(db, "new", "Alice", "Bob", "Carol", "Dave")
    assert doc["game"]["id"] == 1 and doc["state"]["label"] == "East 1"
    doc = ok(db, "win", "Carol", "--from", "Bob", "--han", "3", "--fu", "30", "--riichi", "Carol")
    assert doc["hand"]["deltas"] == [0, -3900, 3900, 0]
    # E = Bob deals East 2; Dave's riichi makes him tenpai too: 3 tenpai, Carol pays 3000
    doc = ok(db, "draw", "--tenpai", "Alice,E", "--riichi", "Dave")
    assert doc["hand"]["deltas"] == [1000, 1000, -3000, 0]
    assert doc["state"]["sticks"] == 1 and doc["state"]["label"] == "East 2, 1 honba"
    doc = ok(db, "abort", "kyuushu")
    assert doc["state"]["label"] == "East 2, 2 honba"
    # double ron: Dave is nearer to Bob than Alice, so Dave takes the stick and honba
    doc = ok(db, "win", "Alice=2/30", "Dave=3/30", "--from", "Bob")
    assert doc["hand"]["deltas"] == [2000, -2000 - 4500, 0, 3900 + 600 + 1000]
    assert doc["state"]["label"] == "East 3"
    doc = ok(db, "chombo", "3")  # Carol, the dealer of East 3: 4000 to each
    assert doc["hand"]["deltas"] == [4000, 4000, -12000, 4000]
    doc = ok(db, "undo")
    assert doc["undone"]["kind"] == "chombo" and len(doc["hands"]) == 4
    doc = ok(db, "end")
    assert doc["state"]["finished"] and doc["settlement"]["order"][0] == 3
    assert round(sum(r["result"] for r in doc["settlement"]["rows"]), 6) == 0


def test_show_is_a_table_with_names_totals_and_the_settlement(db):
    ok(db, "new", "Ann", "Ben", "Cy", "Di")
    ok(db, "win", "Ann", "--tsumo", "--han", "5")
    ok(db, "end")
    result, _ = game(db, "show")
    assert result.exit_code == 0
    text = result.stdout
    for needle in ("Ann", "Ben", "East 1", "+12000", "37000", "settlement", "+47.0"):
        assert needle in text


def test_export_has_every_entry_and_hand(db, tmp_path):
    ok(db, "new", "A", "B", "C")
    ok(db, "draw", "--tenpai", "B")
    ok(db, "win", "C", "--from", "A", "--han", "1", "--fu", "30")
    result = runner.invoke(app, ["game", "export", "--db", db, "--json"])
    doc = json.loads(result.stdout)
    assert [e["kind"] for e in doc["entries"]] == ["draw", "win"]
    assert [h["label"] for h in doc["hands"]] == ["East 1", "East 2, 1 honba"]
    assert doc["game"]["table"]["players"] == 3 and doc["state"]["scores"][2] > 35000
    out = tmp_path / "game.json"
    runner.invoke(app, ["game", "export", "--db", db, "--out", str(out)])
    assert json.loads(out.read_text())["entries"] == doc["entries"]


def test_a_hand_is_scored_with_the_table_state(db):
    ok(db, "new", "A", "B", "C", "D")
    # B sits South in East 1: the 2z triplet is a seat wind; riichi comes from --riichi
    doc = ok(db, "win", "B", "--from", "C", "--hand", "123m406p789s11222z", "--win", "2z",
             "--riichi", "B")
    claim = doc["hand"]["event"]["claims"][0]
    assert (claim["han"], claim["fu"]) == (3, 40)
    assert {"riichi", "seat_wind_south", "aka_dora"} <= set(claim["yaku"])
    assert doc["hand"]["deltas"] == [0, 5200, -5200, 0]
    # East 2: B deals and sits East, so 2z is no longer B's wind: no yaku without riichi...
    result, doc = game(db, "win", "B", "--from", "C", "--hand", "123m406p789s11222z",
                       "--win", "2z", json_out=True)
    assert result.exit_code == 1 and doc["error"]["code"] == "no_yaku"
    # ...and with riichi it is a dealer's 2 han 40 fu (double-east pair): 3900
    doc = ok(db, "win", "B", "--from", "C", "--hand", "123m406p789s11222z", "--win", "2z",
             "--riichi", "B")
    assert doc["hand"]["deltas"] == [0, 3900, -3900, 0]


def test_pao_from_the_hand(db):
    ok(db, "new", "A", "B", "C", "D")
    doc = ok(db, "win", "B", "--tsumo", "--hand", "555z666z777z11z 123m", "--pao", "C")
    assert doc["hand"]["deltas"] == [0, 32000, -32000, 0]
    result, doc = game(db, "win", "B", "--tsumo", "--hand", "123m406p789s11222z", "--pao", "C",
                       json_out=True)
    assert result.exit_code == 1 and "pao needs" in doc["error"]["message"]
    result, doc = game(db, "win", "B", "--tsumo", "--hand", "123m406p789s1122z", json_out=True)
    assert result.exit_code == 1 and doc["error"]["code"] == "not_agari"


def test_table_options_on_new(db):
    doc = ok(db, "new", "A", "B", "C", "D", "--rules", "mleague", "--uma", "5-10",
             "--set", "tenpai_pool=3000", "--length", "east", "--rounding", "gosha-rokunyu")
    table = doc["game"]["table"]
    assert table["uma"] == [10, 5, -5, -10] and table["length"] == "east"
    assert table["rounding"] == "gosha-rokunyu" and table["multiple_ron"] == "head-bump"


def test_custom_hand_rules_from_a_toml_file(db, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('base = "tenhou"\nkiriage = true\n')
    doc = ok(db, "new", "A", "B", "C", "D", "--rules", str(rules))
    assert doc["game"]["rules"] == "tenhou" and doc["game"]["custom_rules"]["kiriage"] is True
    rules.write_text('base = "tenhou"\nkiriage = false\n')  # the stored game keeps its rules
    doc = ok(db, "win", "B", "--from", "C", "--han", "4", "--fu", "30")
    assert doc["hand"]["deltas"] == [0, 8000, -8000, 0]   # kiriage mangan, not 7700


def test_games_are_separate_and_listed(db):
    ok(db, "new", "A", "B", "C", "D")
    ok(db, "new", "E", "F", "G", "H")
    ok(db, "draw", "--game", "1")
    doc = ok(db, "list")
    assert [(g["id"], g["entries"]) for g in doc["games"]] == [(1, 1), (2, 0)]


@pytest.mark.parametrize(
    "args,message",
    [
        (["win", "Zed", "--from", "A", "--han", "1", "--fu", "30"], "no player 'Zed'"),
        (["win", "A", "--from", "A", "--han", "1", "--fu", "30"], "own discard"),
        (["win", "A", "--from", "B", "--han", "2"], "give --fu too"),
        (["win", "A", "--from", "B"], "hand value once"),
        (["win", "A", "B", "--from", "C", "--han", "1", "--fu", "30"], "each value"),
        (["win", "A", "--from", "B", "--han", "1", "--fu", "30", "--dora", "1m"], "need --hand"),
        (["win", "A=3/x", "--from", "B"], "cannot read hand value"),
        (["abort", "sneeze"], "unknown abortive draw"),
        (["draw", "--tenpai", "A,A"], "listed twice"),
        (["new", "A", "B"], "3 or 4 players"),
        (["new", "A", "B", "C", "D", "--uma", "ten"], "cannot read uma"),
        (["new", "A", "B", "C", "D", "--set", "colour=red"], "unknown table option"),
        (["new", "A", "B", "C", "D", "--busting", "maybe"], "busting must be one of"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(db, args, message):
    ok(db, "new", "A", "B", "C", "D")
    result = runner.invoke(app, ["game", *args, "--db", db])
    assert result.exit_code == 1
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    result, doc = game(db, *args, json_out=True)
    assert result.exit_code == 1 and message in doc["error"]["message"]


def test_nothing_recorded_after_the_game_is_over(db):
    ok(db, "new", "A", "B", "C", "D")
    ok(db, "end")
    result, doc = game(db, "draw", json_out=True)
    assert result.exit_code == 1 and doc["error"]["code"] == "game_over"
    assert ok(db, "end")["state"]["finished"]  # ending again just shows the settlement


def test_missing_game_and_bad_file(tmp_path):
    db = str(tmp_path / "empty.sqlite3")
    result, doc = game(db, "show", json_out=True)
    assert result.exit_code == 1 and "agari game new" in doc["error"]["message"]
    assert not (tmp_path / "empty.sqlite3").exists()   # reading never creates a file
    ok(db, "new", "A", "B", "C", "D")
    assert game(db, "undo")[0].exit_code == 1           # nothing to undo
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 100)
    result, doc = game(str(junk), "show", json_out=True)
    assert result.exit_code == 1 and doc["error"]["code"] == "ledger"


def test_default_db_lives_in_the_user_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("AGARI_HOME", str(tmp_path / "home"))
    result = runner.invoke(app, ["game", "new", "A", "B", "C", "D"])
    assert result.exit_code == 0
    assert (tmp_path / "home" / "games.sqlite3").exists()
