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
