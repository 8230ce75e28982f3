"""What the rich demo adds to each demo campaign, through the services a table uses: a spend
to undo, a follow-up roll, roll requests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from django import forms
from django.utils.datastructures import MultiValueDict

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character, XpEntry
from rolls import services as roll_services
from rolls.models import RequestedRoll
from rulesets.errors import RuleError
from tests.system_fixtures import fixtures_for


def _offered_keys(form: forms.Form) -> Iterator[str]:
    """Every value a choice of the system's spend form offers (optgroups flattened)."""
    for field in form.fields.values():
        for value, label in getattr(field, "choices", ()):
            if isinstance(label, list | tuple):
                yield from (str(v) for v, _ in label)
            elif value:
                yield str(value)


def spend_cheapest(character: Character, *, by: Any) -> XpEntry:
    """Buy the cheapest thing XP buys on the character's sheet; returns the spend.

    The system's listed advances, or (a system whose XP page names what to buy in its own
    form, as Maelstrom's trait list) every key its spend form offers, priced by its quote."""
    character = Character.objects.get(pk=character.pk)
    system = systems.for_campaign(character.campaign)
    advances = system.advances(character)
    if not advances:
        for key in _offered_keys(system.spend_form(character)):
            try:
                advances.append(system.quote(character, key))
            except RuleError:
                continue
    cheapest = min(advances, key=lambda advance: advance.cost)
    return character_services.xp_spend(character=character, key=cheapest.key, by=by)


def follow_up(campaign: Campaign, rng: random.Random) -> None:
    """The system's follow-up roll, where it has one (its fixtures' ``rich_demo_follow_up``:
    a Maelstrom willpower roll cancelled with a dot, a Shahquest pick of dice, a tally
    reroll)."""
    made = fixtures_for(campaign.ruleset).rich_demo_follow_up
    if made is not None:
        made(campaign, rng)


def ask_for_rolls(character: Character, gm: Any, rng: random.Random) -> None:
    """Ask ``character`` for two rolls and answer one of them: through the GM's request form
    and the roll dialog it prefills where the system has requests (its fixtures'
    ``request``), else as bare requests the first roll answers."""
    character = Character.objects.get(pk=character.pk)
    system = systems.for_campaign(character.campaign)
    what = system.request_form(character.campaign, dict(fixtures_for(system.slug).request))
    if what is not None:
        assert what.is_valid(), what.errors
        asked = roll_services.requested_roll_create(
            characters=[character, character], system=system, what=what.cleaned_data,
            note="Spot the tail", by=gm)
        posted = MultiValueDict()  # the prefilled dialog, as the sheet posts it
        for name, value in asked[0].prefill():
            posted.appendlist(name, value)
        dialog = system.roll_form(character, posted)
        assert dialog.is_valid(), dialog.errors
        roll_services.roll_create(character=character, data=dialog.cleaned_data,
                                  by=character.owner, rng=rng, answers=asked[0].pk)
        return
    answer = character.rolls.filter(parent__isnull=True).order_by("pk").first()
    for answered in (answer, None):
        request = RequestedRoll.objects.create(
            campaign=character.campaign, character=character, requested_by=gm,
            data={"note": "as asked"}, description="A roll the GM asked for")
        if answered is not None:
            request.answer = answered
            request.save(update_fields=["answer"])
