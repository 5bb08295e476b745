"""`agari score` through typer's CliRunner: human output, --json, --batch, errors."""

import json

import pytest
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["score", *args], input=input)


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", ["Riichi", "Pinfu", "3900 points", "discarder pays: 3900"]),
        ("ja", ["立直", "平和", "断幺九", "3900 点"]),
        ("zh", ["立直", "平和", "3900 点", "放铳者支付"]),
    ],
)
def test_human_breakdown_in_three_languages(lang, words):
    result = run("234m567p34566678s", "--riichi", "--lang", lang)
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output


def test_json_output_and_melds_as_separate_arguments():
    result = run("456m77z", "[1111m]", "2222p", "3333s", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["yaku"] == [{"name": "sankantsu", "han": 2, "name_ja": "三槓子"}]
    assert (doc["han"], doc["fu"], doc["points"], doc["payments"]) == (2, 80, 5200, {"ron": 5200})


def test_options_reach_the_scorer():
    result = run(
        "123m456p789s11222z",
        "--tsumo",
        "--seat",
        "E",
        "--round",
        "E",
        "--dora",
        "1z",
        "--honba",
        "2",
        "--sticks",
        "1",
        "--json",
    )
    doc = json.loads(result.output)
    # dealer tsumo: seat wind south? no — 2z is neither; 11z pair is double east (4 fu)
    assert doc["payments"]["non_dealer"] == doc["points"] // 3 + 200 and doc["tsumo"] is True
    assert doc["total"] == doc["points"] + 600 + 1000


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["123m456p789s11z22z5m", "--json"], "not_agari", "tenpai on 1z 2z"),
        (["13m456p789s11z333z2m", "--json"], "no_yaku", "no yaku"),
        (["123m456p789s11x22z", "--json"], "invalid_tile", "cannot read"),
        (["11111m234p567s77z", "--json"], "invalid_hand", "5 copies"),
        (["234m567p34566678s", "--seat", "Q", "--json"], "invalid_input", "seat"),
        (["234m567p34566678s", "--rules", "nope", "--json"], "invalid_input", "unknown rules"),
    ],
)
def test_errors_are_one_json_object_and_exit_1(args, code, message):
    result = run(*args)
    assert result.exit_code == 1
    doc = json.loads(result.stdout.splitlines()[0])
    assert doc["error"]["code"] == code and message in doc["error"]["message"]


def test_human_errors_are_one_line_without_traceback():
    result = run("123m456p789s11z22z5m")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "agari: error: not a winning hand" in result.stderr


def test_bad_lang_and_hand_with_batch():
    assert run("234m567p34566678s", "--lang", "fr").exit_code == 1
    assert run("234m567p34566678s", "--batch", "-", input="").exit_code == 1


def test_batch_keeps_order_and_reports_bad_lines(tmp_path):
    lines = [
        json.dumps({"hand": "234m567p34566678s", "riichi": True}),
        "not json",
        json.dumps({"hand": "234m567p34566678s", "bogus": 1}),
        "",
        json.dumps({"hand": "123m456p789s11222z", "players": 3}),  # 2m, 3m: not in sanma
        json.dumps(["a", "list"]),
        json.dumps({"hand": "123m456p789s11z22z5m"}),
    ]
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = run("--batch", str(path))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == len(lines) and result.exit_code == 1
    assert out[0]["points"] == 3900
    assert [o.get("error", {}).get("code") for o in out] == [
        None,
        "invalid_input",
        "invalid_input",
        "invalid_input",
        "invalid_hand",
        "invalid_input",
        "not_agari",
    ]
    assert out[1]["error"]["line"] == 2 and out[6]["error"]["waits"] == ["1z", "2z"]
    assert "6 of 7" in result.stderr


def test_batch_from_stdin_and_sanma():
    line = json.dumps(
        {
            "hand": "123p456p789s11s222z",
            "tsumo": True,
            "players": 3,
            "seat": "E",
            "nuki": 1,
            "honba": 1,
        }
    )
    result = run("--batch", "-", input=line + "\n")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and set(doc["payments"]) == {"non_dealer"}
    assert doc["total"] == 2 * doc["payments"]["non_dealer"]


def test_missing_batch_file():
    result = run("--batch", "/nonexistent/requests.jsonl")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "invalid_input"


def _agari(*args, input=None):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "agari.cli", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_plain_batch_runs_without_typer_and_matches_the_typer_path(tmp_path):
    lines = [
        json.dumps({"hand": "234m567p34566678s", "riichi": True}),
        "{bad",
        json.dumps({"hand": "123p456p789s11s222z", "players": 3, "tsumo": True, "seat": "E"}),
    ]
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(lines) + "\n")
    fast = _agari("score", "--batch", str(path))
    slow = run("--batch", str(path), "--jobs", "1")
    assert fast.returncode == slow.exit_code == 1
    assert fast.stdout == slow.stdout and len(fast.stdout.splitlines()) == 3
    assert "1 of 3" in fast.stderr


def test_plain_batch_reports_an_unreadable_file_in_one_line():
    result = _agari("score", "--batch", "/nonexistent/x.jsonl")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "invalid_input"


def test_large_batch_in_worker_processes_keeps_every_line_in_order(tmp_path):
    import random

    from agari.engine.random_hands import random_win
    from agari.engine.requests import request_of

    rng = random.Random(3)
    lines = [json.dumps(request_of(*random_win(rng))) for _ in range(1300)]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n")
    serial = run("--batch", str(path), "--jobs", "1").stdout
    parallel = run("--batch", str(path), "--jobs", "3").stdout
    assert serial == parallel and len(parallel.splitlines()) == 1300
