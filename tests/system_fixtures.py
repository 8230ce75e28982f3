"""What the shared suites need from each rule system, read from the system's own tests.

The authorization matrix (tests/security), the fuzz (tests/fuzz), the transfer round trips
(tests/transfer) and the shared concurrency storms (tests/concurrency) run over every system
of ``rulesets.registry.RULESETS``; what differs from one system to the next (a valid creation
form, a pool its sheet can roll, the form data of each of its changes, who may use its own
pages) is data, kept next to the system's tests in ``tests/systems/<slug>/fixtures.py`` as
``FIXTURES`` (a :class:`SystemFixtures`). A sixth system adds that file and no line to a
shared suite (tests/test_system_fixtures.py fails until it does).

The helpers below make what every suite's world needs the same way for every system: a
campaign filled by the system's demo (:func:`demo_campaign`) and a player's character in one
(:func:`demo_character`), what its XP page offers to buy (:func:`purchases`), the roll whose
follow-ups are still open (:func:`open_roll`), and a sheet or campaign change made as the page
makes it.

Why there and not in ``systems/<slug>/``: it is test data (form data chosen to change the
world of a test, dice scripted to leave a follow-up open), which the application never reads;
and each system's tests already live in ``tests/systems/<slug>/``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction

import systems
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters import services as character_services
from characters.models import Character
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import registry
from rulesets.errors import RuleError
from systems import demos
from table.services import campaign_system_change
from tests.conftest import ScriptedRng

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FormData = Mapping[str, Any] | Callable[[Character], dict[str, Any]]
"""A form's data: as it is, or made from the world's character (a pk, an entry's id)."""

Changes = tuple[tuple[str, Mapping[str, Any]], ...]
"""``(action name, form data)`` pairs, applied in order."""

FollowUp = Callable[[Campaign, random.Random], None]
"""Makes a follow-up roll in a demo campaign."""


@dataclass(frozen=True)
class SystemPage:
    """One of the system's own pages (a URL of its package's ``urls.py``, such as
    Maelstrom's creation steps): who may use it, as the authorization matrix checks it, and
    what is sent to it.

    Attributes:
        get: what a GET answers each role, six tokens in the matrix's column order
            (``anonymous stranger player owner gm staff``), in the words of
            tests/security/test_authorization_matrix.py (``200``, ``302``, ``302+`` for an
            answer that writes, ``login``, ``404``, ``405``...), asked in a campaign of this
            system (in another system's campaign every logged-in user must get 404).
        post: the same for a POST of ``data``.
        data: the POST's form data: one that changes something when it is allowed (made
            from the world's character when it is a function).
        query: the GET's query string, for a page that shows something only when asked.
    """

    get: str
    post: str
    data: FormData = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemFixtures:
    """One system's data for the shared suites (every field has a default but the first
    three: a system without a kind of change leaves its field empty).

    Attributes:
        new_character: a valid creation form (for a system with creation pages of its own,
            :meth:`systems.SheetSystem.creation_url`, their first step).
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
        matrix_roll: ``(roll dialog data, die faces)`` of a roll whose follow-ups all stay
            open (:func:`open_roll`): the matrix asks about it, and the fuzz world's character
            rolls it so every follow-up form shows; ``None`` takes the demo's latest roll
            (a system whose demo leaves its follow-ups open, or that has none).
        matrix_before: sheet action -> sheet actions the GM makes first, so that it changes
            something (finishing creation needs it reopened).
        fuzz_request: the GM's roll request of the fuzz world (``request_form`` data).
        fuzz_campaign: campaign actions the GM makes in the fuzz world, so a form shows.
        fuzz_other_character: sheet actions the GM makes on the second player's character in
            the fuzz world, so a form shows (a character still in creation).
        creation_steps: the creation pages' POSTs (to :meth:`systems.SheetSystem.
            creation_url`) the fuzz's player makes before the crawl (Maelstrom's wizard keeps a
            draft: every step's form is then offered).
        pages: the system's own pages (its package's ``urls.py``) by URL name without the
            namespace (``"character-create"`` for ``maelstrom:character-create``): who may
            use each (:class:`SystemPage`); the matrix fails on a page without one.
        xp_buy: the key the shared XP storm (tests/concurrency/test_shared_layer_xp.py) buys
            rank after rank, as the XP page asks its price; ``""`` takes the cheapest
            :func:`purchases` offers the demo's character.
        rich_demo_campaign: ``(campaign action, cleaned data)`` the rich demo of the transfer
            tests makes (a roll kept in ``system_data``).
        rich_demo_follow_up: makes a follow-up roll in the demo campaign, or ``None``.
        impossible_face: ``(path, value, where, words)``: a die face the system's dice do not
            have, at its place in a character export (``rolls.0.result.dice.0``), where the
            refusal names it and words of its rule.
        matrix_item: the ``Item.details`` of the item the matrix and fuzz worlds' character
            carries: one every item action of the system (``SheetSystem.item_actions``)
            changes when it is posted with no input (Maelstrom: a heavy pistol neither full
            nor empty, to fire and reload); ``{}`` (gear) for a system without any.
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
    pages: Mapping[str, SystemPage] = field(default_factory=dict)
    xp_buy: str = ""
    matrix_item: Mapping[str, Any] = field(default_factory=dict)


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


def demo_campaign(slug: str, *, name: str, gm: User, players: Sequence[User],
                  rng: random.Random) -> Campaign:
    """A campaign of system ``slug`` filled by its demo (``systems/<slug>/demo.py``, as
    ``manage.py load_demo`` fills one): ``gm`` GMs it, each of ``players`` is a member with a
    character. The demo seats as many of them as it has characters for, in one build; a
    player it left without one gets the demo's first character from a build of their own.
    The campaign starts with the demo's starting XP. Returns the campaign, read again.

    Raises:
        LookupError: the system has no demo (the shared suites' worlds are made from it).
        RuleError, ValueError: the demo's data no longer passes the system's rules.
    """
    demo = demos.demo_for(slug)
    if demo is None:
        raise LookupError(f"{slug} has no demo (systems/<slug>/demo.py): the shared suites "
                          "build their worlds from it")
    campaign = campaign_create(name=name, ruleset=slug, starting_xp=demo.starting_xp, gm=gm)
    for player in players:
        Membership.objects.create(campaign=campaign, user=player)
    demo.build(campaign=campaign, gm=gm, players=list(players), rng=rng)
    for player in players:
        if not campaign.characters.filter(owner=player).exists():
            demo.build(campaign=campaign, gm=gm, players=[player], rng=rng)
    return Campaign.objects.get(pk=campaign.pk)


def demo_character(slug: str, *, gm: User, player: User) -> Character:
    """``player``'s character in a demo campaign of system ``slug`` that ``gm`` GMs
    (:func:`demo_campaign`, named "Table <slug>", built with ``random.Random(7)``)."""
    campaign = demo_campaign(slug, name=f"Table {slug}", gm=gm, players=[player],
                             rng=random.Random(7))
    return campaign.characters.get(owner=player)


def purchases(character: Character) -> list[tuple[str, int]]:
    """What the character's XP page offers to buy now, priced, cheapest first: ``(key,
    cost)`` with the key as the purchase form posts it (:meth:`systems.SheetSystem.
    spend_form`'s ``cleaned_data["key"]``). The advances the system lists; for a system
    whose purchase form names what to buy instead (Maelstrom's list of traits), each choice
    of that form's lists that makes a key on its own. A key the system will not price now
    (at its maximum, a prerequisite unmet) is left out."""
    system = systems.for_campaign(character.campaign)
    found = {advance.key: advance.cost for advance in system.advances(character)}
    if not found:
        for name, value in _offered_choices(system.spend_form(character)):
            form = system.spend_form(character, {name: value})
            key = form.cleaned_data.get("key") if form.is_valid() else None
            if not key or key in found:
                continue
            try:
                found[key] = system.quote(character, key).cost
            except RuleError:
                continue
    return sorted(found.items(), key=lambda item: item[1])


def _offered_choices(form: Any) -> Iterator[tuple[str, str]]:
    """``(field name, value)`` of every non-empty choice of the form's lists (option groups
    read through)."""
    for name, form_field in form.fields.items():
        for value, label in getattr(form_field, "choices", ()):
            if isinstance(label, list | tuple):
                yield from ((name, str(inner)) for inner, _ in label if inner)
            elif value:
                yield name, str(value)


def first_purchase(character: Character, *, by: User, keep: bool = True
                   ) -> tuple[str, int, Any]:
    """Buy the cheapest of :func:`purchases` the rules let the character buy (a purchase
    refused, as for want of XP, tries the next), as ``by``; ``keep=False`` rolls it back
    (what the character can still buy). Returns ``(key, cost, the SPEND entry)``.

    Raises AssertionError when nothing can be bought.
    """

    class Undo(Exception):
        pass

    for key, cost in purchases(character):
        try:
            with transaction.atomic():
                entry = character_services.xp_spend(character=character, key=key, by=by,
                                                    expected_cost=cost)
                if not keep:
                    raise Undo
        except Undo:
            return key, cost, None
        except RuleError:
            continue
        return key, cost, entry
    raise AssertionError(f"{character.campaign.ruleset}: {character.name} can buy nothing")


def open_roll(character: Character, *, by: User) -> Roll | None:
    """The system's fixtures' ``matrix_roll`` rolled for ``character`` by ``by`` with its
    scripted faces (a roll whose follow-ups all stay open), through the roll dialog's form
    and the roll service; ``None`` when the fixtures name none.

    Raises AssertionError when the dialog refuses the data.
    """
    seeded = fixtures_for(character.campaign.ruleset).matrix_roll
    if seeded is None:
        return None
    data, faces = seeded
    system = systems.for_campaign(character.campaign)
    form = system.roll_form(character, data)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data, by=by,
                                     rng=ScriptedRng(faces))


def form_data(data: FormData, character: Character) -> dict[str, Any]:
    """``data`` as a dict (made from ``character`` when it is a function)."""
    return data(character) if callable(data) else dict(data)


def roll_follow_up(action: str, data: Mapping[str, Any]) -> FollowUp:
    """A :data:`FollowUp` that takes the roll follow-up ``action`` with form ``data`` on the
    campaign's first roll of a character, as its roller."""

    def follow_up(campaign: Campaign, rng: random.Random) -> None:
        roll = campaign.rolls.filter(character__isnull=False, parent__isnull=True).first()
        assert roll is not None, campaign
        roll_action = systems.for_campaign(campaign).roll_actions[action]
        form = roll_action.form(dict(data))
        assert form.is_valid(), form.errors
        roll_services.roll_act(roll=roll, action=roll_action, data=form.cleaned_data,
                               by=roll.rolled_by, rng=rng)

    return follow_up


def campaign_change(campaign: Campaign, name: str, data: Mapping[str, Any], *, by: User,
                    rng: random.Random) -> Campaign:
    """Apply the campaign's system's campaign action ``name`` with form ``data``, as the
    dashboard does; returns the campaign, changed. Raises AssertionError when the form
    refuses the data (and RuleError when the rule does)."""
    action = systems.for_campaign(campaign).campaign_actions[name]
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
    action = systems.for_campaign(character.campaign).actions[name]
    form = (action.form(dict(data), character=character)  # type: ignore[call-arg]  # TrackAction.form is typed Form; a needs_character form takes character=
            if action.needs_character else action.form(dict(data)))
    assert form.is_valid(), form.errors
    character, _ = character_services.sheet_change(character=character, action=action,
                                                   data=form.cleaned_data, by=by)
    return character
