"""factory-boy factories for the whole suite."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Membership
from characters.models import Character, XpEntry
from rulesets import maelstrom
from systems.maelstrom import sheet as maelstrom_sheet

PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    """A Maelstrom campaign whose creator is its GM (a GM membership is made too)."""

    class Meta:
        model = Campaign
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Campaign {n}")
    ruleset = "maelstrom"
    starting_xp = 30
    created_by = factory.SubFactory(UserFactory)
    invite_token = factory.LazyFunction(lambda: __import__("secrets").token_urlsafe(32))

    @factory.post_generation
    def gm_membership(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            Membership.objects.create(campaign=self, user=self.created_by, role=Membership.Role.GM)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER


# A valid starting character: Physical primary (+6), Mental secondary (+4); the ability
# allotment of two at 3, four at 2, six at 1 (Maelstrom rules.md, Character Creation).
DEFAULT_ATTRIBUTES = {
    "Strength": 2, "Precision": 4, "Reflexes": 3,
    "Perception": 3, "Intelligence": 2, "Wits": 2,
}
DEFAULT_ABILITIES = {
    "Driving": 3, "Firearms": 3,
    "Alertness": 2, "Athletics": 2, "Technology": 2, "Streetwise": 2,
    "Melee": 1, "Stealth": 1, "Survival": 1, "Medicine": 1, "Piloting": 1, "Investigation": 1,
}


SHEET_KNOBS: tuple[str, ...] = (
    "attributes", "abilities", "specialties", "merits_flaws", "huge_size", "dead",
    "willpower_permanent", "willpower_current", "health_bashing", "health_lethal",
    "health_aggravated",
)
"""The keyword arguments :class:`CharacterFactory` writes into the Maelstrom sheet rather
than onto the row (the knobs the old track columns and trait rows had)."""


def maelstrom_sheet_for(**knobs: Any) -> dict[str, Any]:
    """A Maelstrom sheet (:func:`systems.maelstrom.sheet.new_sheet`) of the default starting
    character, with the :data:`SHEET_KNOBS` given: ``attributes=``/``abilities=`` override
    ranks, ``specialties=[("Driving", "Motorcycles", True), ...]`` and ``merits_flaws=[{...}]``
    add them, ``willpower_permanent``/``willpower_current`` set Willpower (current defaults
    to permanent), ``health_bashing``/``health_lethal``/``health_aggravated``/``dead``/
    ``huge_size`` set the health chart."""
    permanent = knobs.get("willpower_permanent", maelstrom.STARTING_WILLPOWER)
    sheet = maelstrom_sheet.new_sheet(
        attributes={**DEFAULT_ATTRIBUTES, **knobs.get("attributes", {})},
        abilities={**DEFAULT_ABILITIES, **knobs.get("abilities", {})},
        specialties=knobs.get("specialties", ()),
        merits_flaws=knobs.get("merits_flaws", ()),
        willpower=permanent,
        huge_size=knobs.get("huge_size", False),
    )
    sheet["willpower"]["current"] = knobs.get("willpower_current", permanent)
    return _set_tracks(sheet, knobs)


def _set_tracks(sheet: dict[str, Any], knobs: dict[str, Any]) -> dict[str, Any]:
    if "willpower_permanent" in knobs:
        sheet["willpower"]["permanent"] = knobs["willpower_permanent"]
    if "willpower_current" in knobs:
        sheet["willpower"]["current"] = knobs["willpower_current"]
    for kind in ("bashing", "lethal", "aggravated"):
        if f"health_{kind}" in knobs:
            sheet["health"][kind] = knobs[f"health_{kind}"]
    for flag in ("dead", "huge_size"):
        if flag in knobs:
            sheet["health"][flag] = bool(knobs[flag])
    return sheet


def sheet_update(character: Character, **knobs: Any) -> Character:
    """Change a stored Maelstrom character's sheet behind the services' back, as a test's
    setup (what ``Character.objects.filter(pk=...).update(willpower_current=2)`` did with the
    old columns): the :data:`SHEET_KNOBS` given change those values, ``attributes=`` and
    ``abilities=`` the ranks named, ``specialties=`` and ``merits_flaws=`` are added; the rest
    of the sheet stays. Returns the character read back from the database."""
    unknown = set(knobs) - set(SHEET_KNOBS)
    if unknown:
        raise TypeError(f"not a sheet knob: {', '.join(sorted(unknown))}")
    sheet = Character.objects.get(pk=character.pk).sheet
    sheet["attributes"].update(knobs.get("attributes", {}))
    sheet["abilities"].update(knobs.get("abilities", {}))
    sheet["specialties"] += [{"ability": ability, "name": name, "advanced": bool(advanced)}
                             for ability, name, advanced in knobs.get("specialties", ())]
    if "merits_flaws" in knobs:
        merits = sheet["merits_flaws"] + [
            {"kind": m["kind"], "name": m["name"], "points": m["points"],
             "detail": m.get("detail", "")} for m in knobs["merits_flaws"]]
        sheet["merits_flaws"] = sorted(merits, key=lambda m: (m["kind"], m["name"]))
    Character.objects.filter(pk=character.pk).update(sheet=_set_tracks(sheet, knobs))
    return Character.objects.get(pk=character.pk)


class CharacterFactory(factory.django.DjangoModelFactory):
    """A finished Maelstrom character: its sheet with every attribute and ability, and its
    starting XP on the ledger. The :data:`SHEET_KNOBS` go into the sheet
    (:func:`maelstrom_sheet_for`): ``attributes=``/``abilities=`` dicts override ranks,
    ``specialties=[("Driving", "Motorcycles", True), ...]`` adds owned specialties,
    ``willpower_current=2``, ``health_lethal=3``, ``dead=True``, ``huge_size=True`` set the
    tracks. ``sheet=`` gives the whole sheet instead (another system's character)."""

    class Meta:
        model = Character
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Character {n}")
    concept = "Smuggler with a past"

    @classmethod
    def _adjust_kwargs(cls, **kwargs: Any) -> dict[str, Any]:
        knobs = {key: kwargs.pop(key) for key in SHEET_KNOBS if key in kwargs}
        if "sheet" not in kwargs:
            kwargs["sheet"] = maelstrom_sheet_for(**knobs)
        return kwargs

    @factory.post_generation
    def starting_xp(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        amount = self.campaign.starting_xp if extracted is None else extracted
        XpEntry.objects.create(character=self, kind=XpEntry.Kind.STARTING,
                               available_delta=amount, total_delta=amount,
                               reason="Starting XP", created_by=self.owner)
        Character.objects.filter(pk=self.pk).update(xp_available=amount, xp_total=amount)
        self.xp_available = self.xp_total = amount

    @factory.post_generation
    def membership(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            Membership.objects.get_or_create(
                campaign=self.campaign, user=self.owner,
                defaults={"role": Membership.Role.PLAYER},
            )
