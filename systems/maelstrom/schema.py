"""Maelstrom's import schema (:mod:`systems.schema`), and how its data of format version 1
is read.

Format version 2: the sheet (the shape in :mod:`systems.maelstrom.sheet`), no campaign data,
every roll's result the engine's whole :meth:`rulesets.maelstrom.RollResult.as_dict` (its d10
faces among it) and every request's data the roll dialog's data that answers it
(:func:`systems.maelstrom.rolling.request_data`). The ranges are wide; the rules' own check,
:func:`systems.maelstrom.checks.check_sheet`, decides what a sheet may hold and speaks first.

Format version 1 kept Maelstrom's sheet in trait rows, merits and flaws and track columns, a
character's roll's faces in the roll's dice columns and a request's pool in its columns:
:data:`VERSION_1` makes the version 2 parts from them (through
:mod:`systems.maelstrom.legacy`, the conversion the upgrade's data migrations froze), and
``dice`` and ``request_traits`` type those version 1 columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeAlias

from django.db import models

from rulesets import maelstrom
from systems import require, stored_int
from systems import schema as sk
from systems.maelstrom import legacy
from systems.schema import (
    LIST_MAX,
    NO_DATA,
    ImportSchema,
    Schema,
)

_Face: TypeAlias = Annotated[int, sk.between(1, 10)]  # the d10, the only die Maelstrom rolls
_DICE_MAX = maelstrom.MAX_BONUS_DICE  # exploding tens add bonus dice; the engine's cap
_Trait: TypeAlias = Annotated[str, sk.name_line(80)]
_Count: TypeAlias = Annotated[int, sk.between(0, 100)]  # dots, levels, points: the rules say
_Posted: TypeAlias = Annotated[str, sk.one_line(5)]  # a number as the roll dialog posts it
Attribute: TypeAlias = Annotated[str, sk.one_of(maelstrom.ATTRIBUTES)]
Ability: TypeAlias = Annotated[str, sk.one_of(maelstrom.ABILITIES)]


class Specialty(Schema):
    """One of ``sheet["specialties"]``: an owned specialty of an ability."""

    ability: _Trait
    name: _Trait
    advanced: bool


class MeritFlaw(Schema):
    """One of ``sheet["merits_flaws"]``: its price or award in XP (``points``)."""

    kind: Literal["merit", "flaw"]
    name: _Trait
    points: _Count
    detail: Annotated[str, sk.one_line(120)]


class Willpower(Schema):
    """``sheet["willpower"]``: permanent and current ranks, in dots, and at zero whether the
    incapacitation is resolved (absent: not)."""

    permanent: _Count
    current: _Count
    incapacitation_resolved: bool = False
    wounds_ignored_in: Annotated[str, sk.one_line(40)] = ""


class Health(Schema):
    """``sheet["health"]``: levels of each damage type marked, in boxes."""

    bashing: _Count
    lethal: _Count
    aggravated: _Count
    dead: bool
    huge_size: bool


class Sheet(Schema):
    """The Maelstrom sheet (:mod:`systems.maelstrom.sheet`)."""

    attributes: dict[Attribute, _Count]
    abilities: dict[Ability, _Count]
    specialties: Annotated[list[Specialty], sk.max_items(LIST_MAX)]
    merits_flaws: Annotated[list[MeritFlaw], sk.max_items(200)]
    willpower: Willpower
    health: Health


class Pool(Schema):
    """:meth:`rulesets.maelstrom.ActionPool.as_dict`."""

    kind: Annotated[str, sk.one_of(maelstrom.POOL_KINDS)]
    dice: Annotated[int, sk.between(0, 100)]
    difficulty: Annotated[int, sk.between(2, 10)]
    threshold: Annotated[int, sk.between(0, 100)]
    exploding: bool
    wound_penalty: Annotated[int, sk.between(-100, 100)]
    traits: Annotated[list[_Trait], sk.max_items(50)]
    specialties: Annotated[list[_Trait], sk.max_items(50)]
    automatic_successes: Annotated[int, sk.between(0, 100)]
    experience_die_allowed: bool
    notes: Annotated[list[sk.Line], sk.max_items(50)]
    # Stored only away from the seed's reading (a table reading: docs/systems/maelstrom.md).
    botches: bool = True
    automatic_at: Annotated[str, sk.one_of(maelstrom.AUTOMATIC_AT)] = maelstrom.AUTOMATIC_AT[0]


class Resolution(Schema):
    """The ``resolution`` of :meth:`rulesets.maelstrom.RollResult.as_dict`."""

    successes: Annotated[int, sk.between(0, _DICE_MAX * 2)]
    removed_by_threshold: Annotated[int, sk.between(0, _DICE_MAX * 2)]
    botches: Annotated[int, sk.between(0, _DICE_MAX)]
    net: Annotated[int, sk.between(-_DICE_MAX, _DICE_MAX * 2)]
    outcome: Annotated[str, sk.one_of(maelstrom.OUTCOMES)]


class Result(Schema):
    """:meth:`rulesets.maelstrom.RollResult.as_dict`: every roll's (a follow-up's too: an
    experience die's whole roll, a willpower spend's copy of its roll's)."""

    system: Literal["maelstrom"]
    pool: Pool
    dice: Annotated[list[_Face], sk.max_items(100)]
    bonus_dice: Annotated[list[_Face], sk.max_items(_DICE_MAX)]
    experience_die: Annotated[list[_Face], sk.max_items(_DICE_MAX)]
    resolution: Resolution
    summary: sk.Line


class RequestData(Schema):
    """The roll dialog's data of a GM's request (:func:`systems.maelstrom.rolling.
    request_data`): ``{"kind": "action", "trait": ["Precision", "Driving"], "difficulty":
    "7", "threshold": "0"}``."""

    kind: Annotated[str, sk.one_of(maelstrom.POOL_KINDS)]
    trait: Annotated[list[_Trait], sk.max_items(20)]
    difficulty: _Posted
    threshold: _Posted


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=NO_DATA,
    rolls=dict.fromkeys(("action", "willpower", "soak", "experience_die", "willpower_spend",
                         "npc"), (Pool, Result)),
    request_data=RequestData,
    # Format version 1's columns: a character's roll kept its faces there, a request its
    # traits (transfer.schema.check_rows, for a version 1 file).
    dice=Annotated[list[_Face], sk.max_items(_DICE_MAX)],
    request_traits=Annotated[list[_Trait], sk.max_items(20)],
)


# --- format version 1 -----------------------------------------------------------------------
# The columns format version 1 carried for Maelstrom's data, on every system's rows (each of
# another system's held its column's default), as the models declared them then: unbound
# fields, which an import checks a value against exactly as against a model's column.


def sheet_from_version_1(character: Mapping[str, Any], traits: list[dict[str, Any]],
                         merits_flaws: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet of a character of format version 1, from its track columns, trait rows and
    merits and flaws (:func:`systems.maelstrom.legacy.sheet_from_rows`), for
    :func:`~systems.maelstrom.checks.check_sheet` to judge as any imported sheet.

    Args:
        character: the character's columns (``willpower_permanent``, ``health_lethal``, ...
            among them); traits: its trait rows (``kind``, ``name``, ``ability``,
            ``advanced``, ``dots``, ...), in the file's order (the order acquired);
            merits_flaws: its merit and flaw rows. Each value of its column's type.

    Returns:
        ``Character.sheet``.

    Raises:
        RuleError: what the sheet has no place for (Maelstrom rules.md, Traits): a trait
            listed twice, a specialty row whose dots are not 1 (an owned specialty has
            exactly one).
        KeyError, ValueError: a row the conversion cannot read.
    """
    rule = f"{maelstrom.SOURCE}, Traits"
    seen: set[tuple[str, str, str]] = set()
    for row in traits:
        kind, name = row["kind"], row["name"]
        key = (kind, row["ability"], name)
        require(key not in seen, f"the sheet lists the trait {name!r} twice", rule)
        seen.add(key)
        if kind == "specialty":
            stored_int(row["dots"], f"The specialty {row['ability']}: {name}", 1, 1, rule)
    return legacy.sheet_from_rows(character, traits, merits_flaws)


def roll_from_version_1(roll: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A roll of format version 1 as ``(pool, result)``: a character's roll kept its faces
    in its dice columns and an empty result, so its result is made from them
    (:func:`systems.maelstrom.legacy.result_from_columns`) and its pool is the result's; an
    NPC's quick roll already kept its whole result, and keeps it.

    Raises:
        RuleError: faces or a pool the engine cannot read (Maelstrom rules.md, Resolving
            the Result).
        ValueError: a roll with faces both in its columns and in its result.
    """
    if roll["result"]:
        if any(roll[key] for key in ("dice", "bonus_dice", "experience_die")):
            raise ValueError("a roll keeps its faces in its result or in its dice columns, "
                             "not in both")
        return roll["pool"], roll["result"]
    result = legacy.result_from_columns(roll)
    return result["pool"], result


def request_from_version_1(row: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """A roll request of format version 1 as ``(data, description)``
    (:func:`systems.maelstrom.legacy.request_from_columns`: "Precision + Driving,
    difficulty 7")."""
    return legacy.request_from_columns(row)


class _Version1:
    """Maelstrom's data in format version 1 (:class:`transfer.schema.Version1Reader`)."""

    character: Mapping[str, models.Field[Any, Any]] = {
        "willpower_permanent": models.PositiveSmallIntegerField(),
        "willpower_current": models.PositiveSmallIntegerField(),
        "health_bashing": models.PositiveSmallIntegerField(),
        "health_lethal": models.PositiveSmallIntegerField(),
        "health_aggravated": models.PositiveSmallIntegerField(),
        "dead": models.BooleanField(),
        "huge_size": models.BooleanField(),
    }
    rows: Mapping[str, Mapping[str, models.Field[Any, Any]]] = {
        "traits": {
            "kind": models.CharField(max_length=16, choices=[
                ("attribute", "Attribute"), ("ability", "Ability"),
                ("specialty", "Specialty")]),
            "name": models.CharField(max_length=80),
            "group": models.CharField(max_length=32, blank=True),
            "ability": models.CharField(max_length=80, blank=True),
            "advanced": models.BooleanField(),
            "dots": models.PositiveSmallIntegerField(),
            "position": models.PositiveSmallIntegerField(),
        },
        "merits_flaws": {
            "kind": models.CharField(max_length=8, choices=[("merit", "Merit"),
                                                            ("flaw", "Flaw")]),
            "name": models.CharField(max_length=80),
            "points": models.PositiveSmallIntegerField(),
            "detail": models.CharField(max_length=120, blank=True),
        },
    }
    row_words: Mapping[str, tuple[str, str]] = {
        "traits": ("trait", "traits"), "merits_flaws": ("merit or flaw", "merits and flaws")}
    rows_max: Mapping[str, int] = {"traits": 500, "merits_flaws": 200}
    roll: Mapping[str, models.Field[Any, Any]] = {
        "dice": models.JSONField(default=list),
        "bonus_dice": models.JSONField(default=list),
        "experience_die": models.JSONField(default=list),
        "botches": models.PositiveSmallIntegerField(),
    }
    request: Mapping[str, models.Field[Any, Any]] = {
        "kind": models.CharField(max_length=20),
        "traits": models.JSONField(default=list),
        "difficulty": models.PositiveSmallIntegerField(),
        "threshold": models.PositiveSmallIntegerField(),
    }
    typed_by: Mapping[str, str] = {"dice": "dice", "bonus_dice": "dice",
                                   "experience_die": "dice", "traits": "request_traits"}
    make_sheet = staticmethod(sheet_from_version_1)
    make_roll = staticmethod(roll_from_version_1)
    make_request = staticmethod(request_from_version_1)


VERSION_1 = _Version1()
"""How an import reads Maelstrom's data of format version 1: the columns and rows it was kept
in (``character``, ``rows``, ``roll``, ``request``; ``typed_by`` names the field of
:data:`IMPORT_SCHEMA` that types a JSON column's items), and how the version 2 parts are made
of them (``make_sheet``, ``make_roll``, ``make_request``)."""
