"""What the shared suites need from each rule system, read from the system's own tests.

The authorization matrix (tests/security), the fuzz (tests/fuzz) and the transfer round trips
(tests/transfer) run over every system of ``rulesets.registry.RULESETS``; what differs from
one system to the next (a valid creation form, a pool its sheet can roll, the form data of
each of its changes) is data, kept next to the system's tests in
``tests/systems/<slug>/fixtures.py`` as ``FIXTURES`` (a :class:`SystemFixtures`). A sixth
system adds that file and no line to a shared suite.

Why there and not in ``systems/<slug>/``: it is test data (form data chosen to change the
world of a test, dice scripted to leave a follow-up open), which the application never reads;
and each system's tests already live in ``tests/systems/<slug>/``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character
from rolls import services as roll_services
from rulesets import registry
from table.services import campaign_system_change

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FormData = Mapping[str, Any] | Callable[[Character], dict[str, Any]]
"""A form's data: as it is, or made from the world's character (a pk, an entry's id)."""

Changes = tuple[tuple[str, Mapping[str, Any]], ...]
"""``(action name, form data)`` pairs, applied in order."""

FollowUp = Callable[[Campaign, random.Random], None]
"""Makes a follow-up roll in a demo campaign."""


@dataclass(frozen=True)
class SystemFixtures:
    """One system's data for the shared suites (every field has a default but the first
    three: a system without a kind of change leaves its field empty).

    Attributes:
        new_character: a valid creation form (Maelstrom: the wizard's first step).
        roll_pool: the roll dialog's data, a pool the world's character can roll (the
            matrix's roll and odds requests).
        request: the GM's roll request form, one every character can answer (the matrix).
        sheet_actions: each sheet action's form data, one that changes the matrix world's
            character (``characters:character-action``).
        campaign_actions: each GM campaign action's form data, one that changes the matrix
            world's campaign (``table:campaign-system-action``).
        roll_actions: each roll follow-up's form data (``rolls:roll-act``).
        matrix_campaign: campaign actions the GM makes on the matrix's campaign once, so every
            campaign action has something to act on (a tension die out for an NPC, a changed
            skill list to reset, a buy-in to remove).
        matrix_roll: ``(roll dialog data, die faces)`` of the character's roll the matrix asks
            about, when the demo's latest roll will not do (its follow-ups must still be open);
            ``None`` takes the demo's latest roll.
        matrix_before: sheet action -> sheet actions the GM makes first, so that it changes
            something (finishing creation needs it reopened).
        fuzz_request: the GM's roll request of the fuzz world (``request_form`` data).
        fuzz_campaign: campaign actions the GM makes in the fuzz world, so a form shows.
        fuzz_other_character: sheet actions the GM makes on the second player's character in
            the fuzz world, so a form shows (a character still in creation).
        creation_steps: the creation pages' POSTs the fuzz's player makes before the crawl
            (Maelstrom's wizard keeps a draft: every step's form is then offered).
        rich_demo_campaign: ``(campaign action, cleaned data)`` the rich demo of the transfer
            tests makes (a roll kept in ``system_data``).
        rich_demo_follow_up: makes a follow-up roll in the demo campaign, or ``None``.
        impossible_face: ``(path, value, where, words)``: a die face the system's dice do not
            have, at its place in a character export (``rolls.0.result.dice.0``), where the
            refusal names it and words of its rule.
    """

    new_character: Mapping[str, Any]
    roll_pool: Mapping[str, Any]
    request: Mapping[str, Any]
    sheet_actions: Mapping[str, FormData] = field(default_factory=dict)
    campaign_actions: Mapping[str, FormData] = field(default_factory=dict)
    roll_actions: Mapping[str, FormData] = field(default_factory=dict)
    matrix_campaign: Changes = ()
    matrix_roll: tuple[Mapping[str, Any], tuple[int, ...]] | None = None
    matrix_before: Mapping[str, Changes] = field(default_factory=dict)
    fuzz_request: Mapping[str, Any] = field(default_factory=dict)
    fuzz_campaign: Changes = ()
    fuzz_other_character: Changes = ()
    creation_steps: tuple[Mapping[str, Any], ...] = ()
    rich_demo_campaign: Changes = ()
    rich_demo_follow_up: FollowUp | None = None
    impossible_face: tuple[str, Any, str, str] | None = None


def fixtures_for(slug: str) -> SystemFixtures:
    """``FIXTURES`` of ``tests/systems/<slug>/fixtures.py``.

    Raises:
        ModuleNotFoundError: the system has no fixtures module (add one: the shared suites
            need it).
    """
    module = importlib.import_module(f"tests.systems.{slug}.fixtures")
    fixtures: SystemFixtures = module.FIXTURES
    return fixtures


def selectable_systems() -> tuple[str, ...]:
    """Every system a campaign may choose, in the registry's order (the tests' own too)."""
    return tuple(slug for slug, ruleset in registry.RULESETS.items() if ruleset.selectable)


def form_data(data: FormData, character: Character) -> dict[str, Any]:
    """``data`` as a dict (made from ``character`` when it is a function)."""
    return data(character) if callable(data) else dict(data)


def roll_follow_up(action: str, data: Mapping[str, Any]) -> FollowUp:
    """A :data:`FollowUp` that takes the roll follow-up ``action`` with form ``data`` on the
    campaign's first roll of a character, as its roller."""

    def follow_up(campaign: Campaign, rng: random.Random) -> None:
        roll = campaign.rolls.filter(character__isnull=False, parent__isnull=True).first()
        assert roll is not None, campaign
        system = systems.for_campaign(campaign)
        assert system is not None, campaign
        roll_action = system.roll_actions[action]
        form = roll_action.form(dict(data))
        assert form.is_valid(), form.errors
        roll_services.system_roll_act(roll=roll, action=roll_action, data=form.cleaned_data,
                                      by=roll.rolled_by, rng=rng)

    return follow_up


def campaign_change(campaign: Campaign, name: str, data: Mapping[str, Any], *, by: User,
                    rng: random.Random) -> Campaign:
    """Apply the campaign's system's campaign action ``name`` with form ``data``, as the
    dashboard does; returns the campaign, changed. Raises AssertionError when the form
    refuses the data (and RuleError when the rule does)."""
    system = systems.for_campaign(campaign)
    assert system is not None, campaign
    action = system.campaign_actions[name]
    form = action.form(dict(data))
    assert form.is_valid(), form.errors
    campaign, _, _ = campaign_system_change(campaign=campaign, action=action,
                                            data=form.cleaned_data, by=by, rng=rng)
    return campaign


def sheet_change(character: Character, name: str, data: Mapping[str, Any], *, by: User
                 ) -> Character:
    """Apply the character's system's sheet action ``name`` with form ``data``, as the sheet
    does; returns the character, changed. Raises AssertionError when the form refuses the
    data (and RuleError when the rule does)."""
    system = systems.for_campaign(character.campaign)
    assert system is not None, character
    action = system.actions[name]
    form = (action.form(dict(data), character=character)  # type: ignore[call-arg]  # TrackAction.form is typed Form; a needs_character form takes character=
            if action.needs_character else action.form(dict(data)))
    assert form.is_valid(), form.errors
    character, _ = character_services.sheet_change(character=character, action=action,
                                                   data=form.cleaned_data, by=by)
    return character
