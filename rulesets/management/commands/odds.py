"""``python manage.py odds``: exact odds of any pool, for GMs pitching difficulties and for tests.

One sub-command per system, its flags built from the system's ``ODDS_PARAMETERS``
(:mod:`rulesets.query`), so a new system needs nothing here::

    python manage.py odds maelstrom --dice 5 --difficulty 6 --threshold 1 --specialty
    python manage.py odds genesys --pool "2A 1P 2D 1C 1B 1S"
    python manage.py odds --batch < queries.jsonl

Each query prints one JSON object of probabilities on one line. ``--batch`` reads one JSON
object per line (``{"system": "maelstrom", "dice": 5, ...}``) and answers each on its own line,
in order. Bad input: exit status 2 and one line naming the bad value (and, in a batch, the line).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, Protocol

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rulesets.errors import RuleError
from rulesets.query import Parameter
from rulesets.registry import RULESETS, Ruleset

BAD_INPUT = 2


def _with_odds() -> dict[str, Ruleset]:
    return {slug: ruleset for slug, ruleset in RULESETS.items() if ruleset.odds_query is not None}


class _Error(Protocol):
    """The shape of ``ArgumentParser.error``: ``message`` may be passed by name."""

    def __call__(self, message: str) -> NoReturn: ...


def _one_line_error(parser: argparse.ArgumentParser) -> _Error:
    # argparse prints the whole usage before its error; the contract is one line.
    def error(message: str) -> NoReturn:
        parser.exit(BAD_INPUT, f"odds: error: {message}\n")

    return error


class Command(BaseCommand):
    help = "Print the exact odds of a dice pool as JSON (one system per sub-command)."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.error = _one_line_error(parser)  # type: ignore[method-assign]  # Django builds this CommandParser itself, so its error method is replaced on the instance
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch",
            action="store_true",
            help="read one JSON query per line from standard input, answer one line each",
        )
        systems = parser.add_subparsers(dest="system", metavar="SYSTEM")
        for slug, ruleset in _with_odds().items():
            sub = systems.add_parser(slug, help=f"{ruleset.name} odds")
            sub.error = _one_line_error(sub)  # type: ignore[method-assign]  # add_parser builds this parser itself, so its error method is replaced on the instance
            for parameter in ruleset.odds_parameters:
                _add_flag(sub, parameter)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"]:
            if options["system"]:
                raise CommandError(
                    "give either a system or --batch, not both", returncode=BAD_INPUT
                )
            self._batch()
            return
        slug = options["system"]
        if not slug:
            names = ", ".join(_with_odds())
            raise CommandError(f"name a system ({names}) or give --batch", returncode=BAD_INPUT)
        ruleset = RULESETS[slug]
        query = {p.name: options[p.name] for p in ruleset.odds_parameters}
        try:
            self._answer(ruleset, query)
        except RuleError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None

    def _batch(self) -> None:
        systems = _with_odds()
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                query = json.loads(line)
            except ValueError as error:  # JSONDecodeError, and numbers too long to read
                raise CommandError(
                    f"line {number}: not JSON ({error})", returncode=BAD_INPUT
                ) from None
            if not isinstance(query, dict):
                raise CommandError(f"line {number}: not a JSON object", returncode=BAD_INPUT)
            slug = query.get("system")
            if slug not in systems:
                names = ", ".join(systems)
                raise CommandError(
                    f"line {number}: system {slug!r} is not one of {names}", returncode=BAD_INPUT
                )
            try:
                self._answer(systems[slug], query)
            except RuleError as error:
                raise CommandError(f"line {number}: {error}", returncode=BAD_INPUT) from None

    def _answer(self, ruleset: Ruleset, query: Mapping[str, object]) -> None:
        assert ruleset.odds_query is not None
        self.stdout.write(json.dumps(ruleset.odds_query(query)))


def _add_flag(parser: argparse.ArgumentParser, parameter: Parameter) -> None:
    flag = "--" + parameter.name.replace("_", "-")
    shown = "none" if parameter.default == "" else parameter.default
    required = " (required)" if parameter.required else f" (default {shown})"
    if parameter.kind is bool:
        parser.add_argument(flag, dest=parameter.name, action="store_true", help=parameter.help)
        return
    parser.add_argument(
        flag,
        dest=parameter.name,
        type=_typed(parameter),
        default=None,  # the engine fills defaults, so a flag and a batch line agree
        required=parameter.required,
        help=parameter.help + required,
    )


def _typed(parameter: Parameter) -> Callable[[str], object]:
    def convert(text: str) -> object:
        if parameter.kind is int:
            try:
                return int(text)
            except ValueError:
                raise argparse.ArgumentTypeError(
                    f"--{parameter.name.replace('_', '-')} must be a whole number, not {text!r}"
                ) from None
        return text

    convert.__name__ = parameter.name  # argparse names the type in some messages
    return convert
