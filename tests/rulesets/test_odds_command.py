"""``python manage.py odds``: the engine's command-line face (one JSON line per query)."""

from __future__ import annotations

import io
import json

import pytest

from rulesets import maelstrom
from rulesets.management.commands.odds import Command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    """Run the command as the shell would; return (exit status, stdout lines, stderr lines)."""
    status = 0
    try:
        Command().run_from_argv(["manage.py", "odds", *argv])
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_it_prints_the_odds_of_a_maelstrom_pool_as_one_json_object(capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run(
        capsys, "maelstrom", "--dice", "5", "--difficulty", "6", "--threshold", "1", "--specialty"
    )
    assert (status, err, len(out)) == (0, [], 1)
    answer = json.loads(out[0])
    expected = maelstrom.odds(dice=5, difficulty=6, threshold=1, exploding=True)
    assert answer["success"] == expected.success
    assert answer["botch"] == expected.botch
    assert answer["successes"]["1"] == expected.successes[1]


def test_flags_left_out_take_the_engine_defaults(capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = run(capsys, "maelstrom", "--dice", "2")
    assert status == 0
    answer = json.loads(out[0])
    assert (answer["success"], answer["failure"]) == pytest.approx((0.65, 0.26))


def test_a_batch_answers_each_line_in_order(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    lines = [
        {"system": "maelstrom", "dice": 3, "difficulty": 8},
        {"system": "maelstrom", "dice": 4, "threshold": 1},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status, out, err = run(capsys, "--batch")
    assert (status, err) == (0, [])
    assert [round(json.loads(line)["success"], 10) for line in out] == [0.54, 0.5525]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["maelstrom", "--dice", "five"], "--dice must be a whole number, not 'five'"),
        (["maelstrom", "--dice", "5", "--difficulty", "11"], "not 11"),
        (["maelstrom"], "the following arguments are required: --dice"),
        (["tarot"], "invalid choice: 'tarot'"),
        ([], "name a system"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_value(capsys, argv, message) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run(capsys, *argv)
    assert (status, out, len(err)) == (2, [], 1)
    assert message in err[0]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"system": "maelstrom", "dice": true}', "line 2: dice must be a whole number, not True"),
        ('{"system": "tarot"}', "line 2: system 'tarot' is not one of"),
        ("[1, 2]", "line 2: not a JSON object"),
        ("{dice: 5}", "line 2: not JSON"),
        ('{"system": "maelstrom", "dice": ' + "9" * 5000 + "}", "line 2: not JSON"),
        ('{"system": "maelstrom", "dice": 5, "colour": "red"}', "line 2: unknown parameter"),
    ],
)
def test_a_bad_batch_line_is_named_by_number(capsys, monkeypatch, line, message) -> None:  # type: ignore[no-untyped-def]
    good = json.dumps({"system": "maelstrom", "dice": 2})
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{good}\n{line}\n{good}\n"))
    status, out, err = run(capsys, "--batch")
    assert status == 2
    assert len(out) == 1  # the good line before it was answered; nothing after
    assert len(err) == 1
    assert message in err[0]


@pytest.mark.parametrize(
    ("argv", "keys"),
    [
        (["genesys", "--pool", "2A 1P 2D 1C 1B 1S"],
         ["success", "advantage", "threat", "triumph", "despair"]),
        (["shahquest", "--pool", "d10 2d8 d6"], ["effort", "opportunities"]),
        (["three_d6", "--td", "12", "--modifier", "1", "--favor", "1", "--disfavor", "0"],
         ["success", "critical_success", "critical_failure"]),
        (["shattered_world", "--die", "4", "--target", "5", "--modifier", "1"],
         ["success", "degree"]),
    ],
)
def test_each_example_of_the_issue_prints_its_systems_shape(capsys, argv, keys) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run(capsys, *argv)
    assert (status, err, len(out)) == (0, [], 1)
    answer = json.loads(out[0])
    assert list(answer) == keys
    for key, value in answer.items():
        values = value.values() if isinstance(value, dict) else [value]
        assert all(0 <= p <= 1 for p in values), key


def test_the_command_answers_what_the_engine_computes(capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run(capsys, "shattered_world", "--die", "4", "--target", "5", "--modifier", "1")
    # d4 + 1 against 5: only a 4 reaches it (total 5, a bare match: degree 1).
    assert json.loads(out[0]) == {"success": 0.25, "degree": {"1": 0.25}}
    _, out, _ = run(capsys, "three_d6", "--td", "3")
    assert json.loads(out[0])["critical_success"] == pytest.approx(1 / 216)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["genesys", "--pool", "2Q"], "'2Q'"),
        (["shahquest", "--pool", "d7"], "'d7'"),
        (["three_d6", "--td", "0"], "test difficulty 0"),
        (["shattered_world", "--die", "5", "--target", "3"], "d5 is not on the die chart"),
        (["shattered_world", "--die", "6", "--target", "3", "--multipliers", "x0"], "x0"),
    ],
)
def test_each_system_names_its_bad_value_in_one_line(capsys, argv, message) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run(capsys, *argv)
    assert (status, out, len(err)) == (2, [], 1)
    assert message in err[0]


def test_a_batch_mixes_systems_in_order(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    lines = [
        {"system": "genesys", "pool": "2A 1D"},
        {"system": "three_d6", "td": 12, "favor": 1},
        {"system": "shahquest", "pool": "d8 d6"},
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(json.dumps(q) for q in lines)))
    status, out, _ = run(capsys, "--batch")
    assert status == 0
    assert [sorted(json.loads(line))[0] for line in out] == ["advantage", "critical_failure",
                                                              "effort"]
