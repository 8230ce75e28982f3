"""factory-boy factories for the whole suite."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Membership
from characters.models import Character, Trait, XpEntry, trait_rows

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


class CharacterFactory(factory.django.DjangoModelFactory):
    """A finished Maelstrom character with every attribute and ability row and its starting
    XP on the ledger. Pass ``attributes=``/``abilities=`` dicts to override ranks,
    ``specialties=[("Driving", "Motorcycles", True), ...]`` to add owned specialties."""

    class Meta:
        model = Character
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Character {n}")
    concept = "Smuggler with a past"

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Character:
        ranks = {key: kwargs.pop(key) for key in ("attributes", "abilities", "specialties")
                 if key in kwargs}
        character = super()._create(model_class, *args, **kwargs)
        character._factory_ranks = ranks
        return character

    @factory.post_generation
    def traits(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        kwargs = {**getattr(self, "_factory_ranks", {}), **kwargs}
        Trait.objects.bulk_create(trait_rows(
            self,
            attributes={**DEFAULT_ATTRIBUTES, **kwargs.get("attributes", {})},
            abilities={**DEFAULT_ABILITIES, **kwargs.get("abilities", {})},
            specialties=kwargs.get("specialties", []),
        ))

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
