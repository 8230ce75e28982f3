"""Every URL of the project, made concrete against a world of fixtures.

The authorization matrix (``test_authorization_matrix.py``) asks three things of this module:

1. :func:`routes`: every pattern of the URLconf, walked recursively from
   ``django.urls.get_resolver()`` through every ``include()`` (the admin's too), each with a
   stable key: its namespaced name (``table:campaign-detail``), or for the few patterns
   without a name (the admin's redirects and catch-all) ``admin:[<the full route>]``.
2. :func:`plans`: for each route, the cases worth asking about, known before the database
   exists (pytest collects them): one per rule system when the URL takes a campaign, a
   character, a roll or anything inside a campaign; one per named action of the system when
   it takes an ``<action>``; the character's roll and the GM-only roll when it takes a roll.
3. :func:`build_world` and :func:`concrete_url`: the world (a campaign of every system, filled
   by the system's demo, with its GM, a co-GM, a player who owns a character, a player who
   does not, a stranger who GMs a table of their own, a staff user) and the concrete URL of a
   plan in it,
   built from the names of
   the URL's parameters (``pk`` after ``campaigns/`` is a campaign, ``entry_id`` an XP entry,
   ``token`` the invite token...). A parameter this module cannot place raises
   :class:`UnknownParameter`: a new kind of URL needs a decision here, not a guess.
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection, models
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks_db.models import DBTaskResult

import systems
from campaigns.models import Campaign, Membership, Session
from characters import services as character_services
from characters.models import Character, CharacterImport, XpEntry
from encounters.models import Encounter
from equipment.models import Item
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import registry
from table.services import session_create
from tests import system_fixtures
from tests.encounters.matrix import running_encounter as matrix_encounter
from tests.factories import CampaignFactory, CharacterFactory
from tests.system_fixtures import (
    demo_campaign,
    first_purchase,
    fixtures_for,
    open_roll,
    selectable_systems,
)

ROLES = ("anonymous", "stranger", "player", "owner", "gm", "staff")
"""Who asks, in the matrix's column order:

- ``anonymous``: not logged in;
- ``stranger``: logged in, not a member of the campaign (but GM of a table of their own, so a
  check that asks "is this user a GM?" instead of "the GM of this campaign?" is caught);
- ``player``: a player of the campaign who does not own the character in question;
- ``owner``: the player who owns the character;
- ``gm``: the campaign's GM;
- ``staff``: ``is_staff`` without any model permission, member of no campaign.

These are the six columns of every line of the matrix (and of a system's own pages' rows in
its fixtures); the co-GM (:data:`CO_GM`) asks too, its answer read from the GM's column but
where the matrix says otherwise (:data:`ASKING`).
"""

CO_GM = "cogm"
"""A co-GM of every campaign of the world (``Membership.Role.CO_GM``), owning no character:
what runs the table answers them as the GM, but for the lead GM's own powers."""

ASKING: tuple[str, ...] = (*ROLES, CO_GM)
"""Everyone who asks the matrix's URLs: :data:`ROLES`, then the co-GM."""

SYSTEMS: tuple[str, ...] = selectable_systems()
"""Every rule system a campaign can be created with (the tests' own tally too), in the
registry's order; what the matrix needs of each is its tests/systems/<slug>/fixtures.py."""

SYSTEMS_WITH_READINGS: tuple[str, ...] = tuple(
    slug for slug in SYSTEMS if systems.for_ruleset(slug).readings)
"""The systems whose campaigns have table readings to choose (docs/rules.md)."""

HOME_SYSTEM: str = SYSTEMS[0]
"""The system whose table stands in where any campaign will do (the admin's rows, a campaign
export to import, a new campaign's ruleset): the registry's first."""

# The literal segment before a bare ``<pk>`` names what the pk is.
PK_SUBJECTS = {"campaigns": "campaign", "characters": "character", "rolls": "roll"}
# Parameters named for what they hold.
NAMED_SUBJECTS = {
    "campaign_id": "campaign", "character_id": "character", "roll_id": "roll",
    "roll_code": "roll", "encounter_id": "encounter",
    "membership_id": "membership", "session_pk": "session", "session_id": "session",
    "entry_id": "xp-entry", "token": "invite-token", "action": "action",
    "item_id": "item", "chart": "chart",
}
# Parameters whose meaning is the route's own, by URL name: Django's password-reset link
# (``reset/<uidb64>/<token>/``) names an account and a reset token, not an invite's.
ROUTE_SUBJECTS = {
    "password_reset_confirm": {"uidb64": "reset-uid", "token": "reset-token"},
    "account-address-confirm": {"token": "address-token"},
}
# Inside a campaign: a URL with any of these is asked once per rule system.
CAMPAIGN_SCOPED = {"campaign", "character", "roll", "membership", "session", "xp-entry",
                   "invite-token", "encounter", "item"}
# The admin's own parameters.
ADMIN_SUBJECTS = {"object_id": "admin-object", "id": "admin-object",
                  "content_type_id": "content-type", "app_label": "app-label",
                  "url": "admin-path"}


class UnknownParameter(LookupError):
    """A URL parameter this module does not know how to fill (a new kind of URL)."""


# --- the URLconf ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One pattern of the URLconf, with everything above it.

    ``key``: the namespaced name, or ``<namespace>:[<full route>]`` for an unnamed pattern.
    ``full``: the route strings of every level, joined (regex levels keep ``^``/``$``).
    ``parameters``: the parameter names in the order they appear.
    """

    key: str
    name: str | None
    namespace: str
    full: str
    parts: tuple[RoutePattern | RegexPattern, ...]
    parameters: tuple[str, ...]
    callback: Any


def routes() -> list[Route]:
    """Every URL pattern of the project, included ones too, in URLconf order.

    Returns a list of :class:`Route`. Raises ``ValueError`` if two patterns share a key
    (a duplicated name would let one of them hide from the matrix).
    """
    found = list(_walk(get_resolver(), (), ""))
    keys = [r.key for r in found]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ValueError(f"URL names used twice: {duplicates}")
    return found


def _walk(resolver: URLResolver, parts: tuple[Any, ...], namespace: str) -> Iterator[Route]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry, (*parts, entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            all_parts = (*parts, entry.pattern)
            # Joined as Django joins ResolverMatch.route: an inner "^" is dropped.
            full = "".join(str(p) if i == 0 else str(p).removeprefix("^")
                           for i, p in enumerate(all_parts))
            if entry.name:
                key = f"{namespace}:{entry.name}" if namespace else entry.name
            else:
                key = f"{namespace}:[{full}]"
            yield Route(key=key, name=entry.name, namespace=namespace, full=full,
                        parts=all_parts, parameters=tuple(_parameters(all_parts)),
                        callback=entry.callback)


_ROUTE_PARAMETER = re.compile(r"<(?:[^>:]+:)?(\w+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(\w+)>([^()]*)\)")


def _parameters(parts: tuple[Any, ...]) -> Iterator[str]:
    for part in parts:
        if isinstance(part, RoutePattern):
            yield from _ROUTE_PARAMETER.findall(str(part))
        else:
            yield from (name for name, _ in _REGEX_GROUP.findall(str(part)))


def _fill(route: Route, values: Mapping[str, object]) -> str:
    """The path of ``route`` with its parameters replaced by ``values``."""
    pieces = []
    for part in route.parts:
        text = str(part)
        if isinstance(part, RoutePattern):
            pieces.append(_ROUTE_PARAMETER.sub(lambda m: str(values[m[1]]), text))
        else:
            text = _REGEX_GROUP.sub(lambda m: str(values[m[1]]), text)
            pieces.append(text.removeprefix("^").removesuffix("$"))
    return "/" + "".join(pieces)


def _subjects(route: Route) -> dict[str, str]:
    """What each parameter of ``route`` holds: ``{"pk": "campaign", "action": ...}``.

    Raises :class:`UnknownParameter` for a parameter no rule places.
    """
    subjects = {}
    own = ROUTE_SUBJECTS.get(route.key, {})
    for name in route.parameters:
        if name in own:
            subjects[name] = own[name]
        elif route.namespace == "admin" and name in ADMIN_SUBJECTS:
            subjects[name] = ADMIN_SUBJECTS[name]
        elif name in NAMED_SUBJECTS:
            subjects[name] = NAMED_SUBJECTS[name]
        elif name == "pk":
            before = _segment_before(route.full, name)
            if before not in PK_SUBJECTS:
                raise UnknownParameter(f"{route.key}: <pk> after {before!r}/ is not placed")
            subjects[name] = PK_SUBJECTS[before]
        else:
            raise UnknownParameter(f"{route.key}: no rule fills <{name}> ({route.full})")
    if "content_type_id" in subjects:
        subjects["object_id"] = "content-object"  # the admin's "view on site" shortcut
    return subjects


def _segment_before(full: str, parameter: str) -> str:
    """The literal path segment just before ``<...:parameter>`` in a route."""
    head = re.split(rf"<(?:[^>:]+:)?{parameter}>", full)[0].rstrip("/")
    return head.rsplit("/", 1)[-1]


def page_system(route: Route) -> str | None:
    """The registered system whose own page ``route`` is (a URL of its package's
    ``urls.py``, included under the system's slug as namespace), or None."""
    return route.namespace if route.namespace in registry.RULESETS else None


def readings_changed(system: str | None) -> dict[str, str]:
    """The table readings form's data that changes one reading of ``system`` (its first, to
    its second choice) and keeps the others (docs/rules.md, Table readings); ``{}`` for a
    system with none."""
    readings = systems.for_ruleset(system or HOME_SYSTEM).readings
    data = {reading.key: reading.default for reading in readings}
    if readings:
        data[readings[0].key] = readings[0].choices[1].value
    return data


def quick_roll_example(system: str) -> str:
    """The first of the system's engine's NPC quick roll examples (the GM's notation)."""
    module = registry.get(system).module
    assert module is not None, f"{system} has no rules engine"
    return module.QUICK_ROLL_EXAMPLES[0]


@cache
def own_creation_pages(system: str) -> bool:
    """Whether ``system`` makes its characters on pages of its own
    (:meth:`systems.SheetSystem.creation_url`), so that the generic creation page only sends
    its members there. Asked with an unsaved campaign: the answer is the system's, not a
    campaign's."""
    return systems.for_ruleset(system).creation_url(Campaign(pk=1, ruleset=system)) is not None


# --- plans: the cases known at collection time ------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One URL to ask about, before any row exists.

    ``system``: the campaign's rule system, or None for a URL outside any campaign.
    ``action``: the ``<action>`` asked for; ``action_known`` whether the system defines it
    (a system without actions of that kind is asked with another system's name, expecting
    404); ``action_gm_only`` whether the system keeps it for the GM.
    ``roll``: ``"roll"`` (the character's) or ``"gm-roll"`` (the GM-only NPC roll).
    ``admin_model``: ``app_label.model_name`` whose row an admin URL shows.
    ``app_label``: the app of the admin's app index.
    ``crossed``: the URL's first id is the stranger's own campaign (or character) and the
    next one a row of this campaign: a check that loads the inner row without asking whether
    it belongs to the outer one lets the stranger, GM of their own table, reach it.
    """

    route: Route
    system: str | None = None
    action: str | None = None
    action_known: bool = True
    action_gm_only: bool = False
    roll: str | None = None
    admin_model: str | None = None
    app_label: str | None = None
    crossed: bool = False

    @property
    def key(self) -> str:
        """The route's key: the row of the matrix's table this plan is checked against."""
        return self.route.key

    @property
    def label(self) -> str:
        """``table:campaign-detail[genesys]``: the plan's part of a test id."""
        extras = [x for x in (self.system, self.app_label, self.admin_model) if x]
        if self.action:
            extras.append(f"{self.action}{'' if self.action_known else '(none)'}")
        if self.roll == "gm-roll":
            extras.append("gm-roll")
        if self.crossed:
            extras.append("crossed")
        return f"{self.key}[{','.join(extras)}]" if extras else self.key


def plans(route: Route) -> list[Plan]:
    """The cases of ``route``: one per system (and per action, and per roll) for a URL in a
    campaign, one per app for the admin's app index, one otherwise.

    Raises :class:`UnknownParameter` when a parameter cannot be placed.
    """
    subjects = _subjects(route)
    kinds = set(subjects.values())
    if route.namespace == "admin":
        return _admin_plans(route, kinds)
    if not kinds & CAMPAIGN_SCOPED:
        if "action" in kinds:
            raise UnknownParameter(f"{route.key}: an <action> outside any campaign")
        return [Plan(route)]
    result = []
    rolls = ("roll", "gm-roll") if "roll" in kinds else (None,)
    ids = [s for s in subjects.values() if s in CAMPAIGN_SCOPED]
    crossings = (False, True) if len(ids) > 1 and ids[0] in {"campaign", "character"} else (
        False,)
    for system in SYSTEMS:
        for action, known, gm_only in _actions(route, system, "action" in kinds):
            result += [Plan(route, system=system, action=action, action_known=known,
                            action_gm_only=gm_only, roll=roll, crossed=crossed)
                       for roll in rolls for crossed in crossings]
    return result


def _actions(route: Route, system: str, takes_action: bool
             ) -> list[tuple[str | None, bool, bool]]:
    """``(action, the system defines it, GM only)`` for each action the URL is asked with."""
    if not takes_action:
        return [(None, True, False)]
    kind = _segment_before(route.full, "action")
    attribute = {"sheet": "actions", "system": "campaign_actions", "act": "roll_actions",
                 "use": "item_actions"}.get(kind)
    if attribute is None:
        raise UnknownParameter(f"{route.key}: <action> after {kind!r}/ is not placed")
    own = getattr(systems.for_ruleset(system), attribute)
    if own:
        return [(name, True, bool(getattr(a, "gm_only", attribute == "campaign_actions")))
                for name, a in own.items()]
    # Nothing of this kind in the system: ask with another system's name; it must be 404.
    other = next(name for slug in SYSTEMS
                 for name in getattr(systems.for_ruleset(slug), attribute))
    return [(other, False, False)]


def _admin_plans(route: Route, kinds: set[str]) -> list[Plan]:
    if "content-type" in kinds:
        return [Plan(route)]
    if "app-label" in kinds:
        labels = re.search(r"\(\?P<app_label>([^)]*)\)", route.full)
        assert labels, route.full
        return [Plan(route, app_label=label) for label in labels[1].split("|")]
    if "admin-object" in kinds:
        parts = route.full.split("/")
        return [Plan(route, admin_model=f"{parts[1]}.{parts[2]}")]
    return [Plan(route)]


# --- the world --------------------------------------------------------------------------------


@dataclass
class Table:
    """One campaign of one rule system, and what its URLs point at.

    ``character``: the owner's character. ``membership``: the non-owning player's seat.
    ``spend``: the owner's latest own XP spend (which the owner may undo).
    ``rolls``: ``roll`` (the character's, with follow-ups still open: the system's fixtures'
    ``matrix_roll``, or the demo's latest) and ``gm-roll`` (an NPC roll for the GM alone).
    ``buy``: ``(key, price)`` of something the character can still buy, the key as the XP
    page's purchase form posts it (tests/system_fixtures.py's ``purchases``).
    ``secrets``: what no one outside the campaign may read (its name, the character's name
    and concept, the session's title, the invite token). ``gm_secrets``: what only the GM (and
    a co-GM) may read (the invite token, the GM-only roll's link and tag, the GM's notes on
    the character, which its owner may not read either).
    """

    system: str
    campaign: Campaign
    character: Character
    membership: Membership
    session: Session
    spend: XpEntry
    rolls: dict[str, Roll]
    buy: tuple[str, int]
    secrets: tuple[str, ...] = ()
    gm_secrets: tuple[str, ...] = ()
    item: Item | None = None
    """An item the character carries (its system's fixtures' ``matrix_item``: one every
    item action changes)."""
    # The running encounter, begun: the owner's character's turn (tests/encounters/matrix.py).
    encounter: Encounter | None = None


@dataclass
class World:
    """Everyone and everything the matrix asks about.

    ``users``: role -> user (``anonymous`` is None). ``session_keys``: role -> the session
    key of a login made once for the module. ``tables``: system -> :class:`Table`.
    ``elsewhere``: the stranger's own campaign, ``elsewhere_character`` the stranger's
    character in it. ``admin_objects``: ``app.model`` -> a row
    every admin page of that model can show. ``staff_editor``: a staff user holding every
    permission on the admin's models (for the check that the admin pages do open).
    """

    users: dict[str, Any]
    session_keys: dict[str, str]
    tables: dict[str, Table]
    elsewhere: Campaign
    elsewhere_character: Character
    admin_objects: dict[str, models.Model] = field(default_factory=dict)
    staff_editor: Any = None
    staff_editor_session: str = ""

    def client(self, role: str, **headers: str) -> Client:
        """A fresh test client logged in as ``role`` (with the module's session)."""
        from django.conf import settings

        client = Client(headers=headers or None)
        key = self.session_keys.get(role)
        if key:
            client.cookies[settings.SESSION_COOKIE_NAME] = key
        return client

    def editor_client(self) -> Client:
        """A fresh test client logged in as the staff user with every admin permission."""
        from django.conf import settings

        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = self.staff_editor_session
        return client

    def all_secrets(self) -> tuple[str, ...]:
        """Every campaign's secrets (the stranger's own table is theirs to read)."""
        return tuple(s for t in self.tables.values() for s in (*t.secrets, *t.gm_secrets))


def build_world() -> World:
    """Create the world in the current transaction (the caller rolls it back).

    Returns a :class:`World`. Raises LookupError for a rule system without a demo (every
    table is the system's demo campaign) or without fixtures.
    """
    User = get_user_model()
    users: dict[str, Any] = {"anonymous": None}
    for role in ASKING[1:]:
        users[role] = User.objects.create_user(f"{role}-matrix", is_staff=role == "staff")
    gm, owner, player = users["gm"], users["owner"], users["player"]

    tables = {system: _table(system, gm=gm, owner=owner, player=player, co_gm=users[CO_GM])
              for system in SYSTEMS}
    # factory_boy's factories are untyped; each returns the row it made.
    elsewhere = cast(Campaign, CampaignFactory(  # type: ignore[no-untyped-call]  # untyped factory
        name="The stranger's own table", created_by=users["stranger"]))
    hero = cast(Character, CharacterFactory(  # type: ignore[no-untyped-call]  # untyped factory
        campaign=elsewhere, owner=users["stranger"], name="Stranger's hero"))

    editor = User.objects.create_user("staff-editor-matrix", is_staff=True)
    world = World(users=users, session_keys={}, tables=tables, elsewhere=elsewhere,
                  elsewhere_character=hero, staff_editor=editor)
    world.admin_objects = _admin_objects(world)
    editor.user_permissions.set(Permission.objects.filter(
        content_type__in=[ContentType.objects.get_for_model(o) for o in
                          world.admin_objects.values()]))
    for role, user in users.items():
        if user is not None:
            world.session_keys[role] = _login(user)
    world.staff_editor_session = _login(editor)
    return world


def _login(user: Any) -> str:
    from django.conf import settings

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _table(system: str, *, gm: Any, owner: Any, player: Any, co_gm: Any) -> Table:
    """The system's demo campaign for ``owner`` (tests/system_fixtures.py's
    :func:`~tests.system_fixtures.demo_campaign`), the GM's ``matrix_campaign`` changes made,
    ``player`` seated without a character, ``co_gm`` seated as a co-GM, 40 XP awarded, the
    rolls, a session, a spend."""
    label = system.replace("_", " ").title()
    campaign = demo_campaign(system, name=f"Hidden {label} Table QX7", gm=gm, players=[owner],
                             rng=random.Random(7))
    character = campaign.characters.get()
    _prepare_campaign(campaign, gm)
    membership = Membership.objects.create(campaign=campaign, user=player)
    Membership.objects.create(campaign=campaign, user=co_gm, role=Membership.Role.CO_GM)
    Character.objects.filter(pk=character.pk).update(
        name=f"Secret {label} Hero QX7", concept=f"Concealed {label} concept QX7",
        backstory=f"A **hidden** {label} past QX7", gm_notes=f"GM whisper about {label} QX7")
    character_services.xp_award(character=character, amount=40, reason="Matrix award", by=gm)
    character = Character.objects.get(pk=character.pk)

    latest = open_roll(character, by=owner) or Roll.objects.filter(
        character=character, parent__isnull=True).order_by("-pk").first()
    assert latest is not None, f"{system}: the demo's character has no roll"
    rolls = {"roll": latest}
    rolls["gm-roll"] = roll_services.npc_roll_create(
        campaign=campaign, text=quick_roll_example(system), gm_only=True, by=gm,
        rng=random.Random(3))
    session = session_create(campaign=campaign, date=datetime.date(2026, 1, 2),
                             title=f"Covert {label} session QX7")
    # A spend of the owner's to undo, then something the character can still buy.
    _, _, spend = first_purchase(character, by=owner)
    character = Character.objects.get(pk=character.pk)
    key, cost, _ = first_purchase(character, by=owner, keep=False)
    encounter, npc_names = matrix_encounter(campaign, gm, character, label)
    campaign.refresh_from_db()
    assert campaign.invite_token
    item = Item.objects.create(character=character, name=f"{label} kit", note="Matrix",
                               details=dict(fixtures_for(system).matrix_item))
    return Table(
        system=system, campaign=campaign, character=character, membership=membership,
        session=session, spend=spend, rolls=rolls, buy=(key, cost), item=item,
        secrets=(campaign.name, character.name, character.concept, session.title,
                 campaign.invite_token, "hidden</strong> " + label),
        gm_secrets=(campaign.invite_token, f'href="{rolls["gm-roll"].get_absolute_url()}"',
                    '<span class="tag">GM only</span>', character.gm_notes, *npc_names),
        encounter=encounter,
    )


def _prepare_campaign(campaign: Campaign, gm: Any) -> None:
    """Campaign data every GM change can act on (the system's fixtures' ``matrix_campaign``:
    a tension pool with a die out for an NPC, a changed skill list and trait names so the
    resets change something, a buy-in to remove)."""
    for name, data in fixtures_for(campaign.ruleset).matrix_campaign:
        campaign = campaign_change(campaign, name, dict(data), by=gm)


def campaign_change(campaign: Campaign, name: str, data: dict[str, Any], *, by: Any
                    ) -> Campaign:
    """Apply the system's campaign action ``name`` with form ``data``, as the dashboard
    does (:func:`tests.system_fixtures.campaign_change`, with the matrix's dice). Raises
    AssertionError when the form refuses the data."""
    return system_fixtures.campaign_change(campaign, name, data, by=by, rng=random.Random(5))


sheet_action = system_fixtures.sheet_change
"""Apply the system's sheet action ``name`` with form ``data``, as the sheet does
(:func:`tests.system_fixtures.sheet_change`)."""


def make_pending_import(character: Character) -> Character:
    """Make ``character`` look like a player's import awaiting the GM (its review state and
    import record, as ``transfer.imports.import_character`` writes them), so that the GM's
    review page has something to show and decide. Returns it, re-read."""
    Character.objects.filter(pk=character.pk).update(review=Character.Review.PENDING)
    CharacterImport.objects.update_or_create(
        character=character, defaults={"imported_by": character.owner, "file_system":
                                       character.campaign.ruleset, "file_version": 1})
    return Character.objects.get(pk=character.pk)


def _admin_objects(world: World) -> dict[str, models.Model]:
    """A row of every model the admin shows, so its change, history and delete pages have
    something to open."""
    from axes.models import (  # type: ignore[import-untyped]  # django-axes ships no type hints
        AccessAttempt,
        AccessFailureLog,
        AccessLog,
    )

    home = world.tables[HOME_SYSTEM]
    stamp = {"user_agent": "matrix", "ip_address": "127.0.0.1", "username": "owner-matrix",
             "http_accept": "text/html", "path_info": "/login/"}
    made: list[models.Model] = [
        home.campaign, home.session, world.users["owner"],
        Group.objects.create(name="Matrix group"),
        AccessAttempt.objects.create(**stamp, get_data="", post_data="", failures_since_start=1),
        AccessLog.objects.create(**stamp),
        AccessFailureLog.objects.create(**stamp),
        DBTaskResult.objects.create(args_kwargs={"args": [], "kwargs": {}},
                                    task_path="core.housekeeping.prune", backend_name="default"),
    ]
    return {f"{o._meta.app_label}.{o._meta.model_name}": o for o in made}


# --- concrete URLs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A plan made concrete: the path, and the rows it points at."""

    url: str
    table: Table | None = None
    roll: Roll | None = None


def concrete_url(plan: Plan, world: World) -> Target:
    """The concrete URL of ``plan`` in ``world``, checked to resolve back to its pattern.

    Raises :class:`UnknownParameter` when a parameter cannot be filled, AssertionError when
    the URL built resolves to another pattern.
    """
    route = plan.route
    subjects = _subjects(route)
    table = world.tables[plan.system] if plan.system else None
    roll = None
    values: dict[str, object] = {}
    outer = next(iter(subjects)) if plan.crossed else None
    for parameter, subject in subjects.items():
        if parameter == outer:
            values[parameter] = (world.elsewhere.pk if subject == "campaign"
                                 else world.elsewhere_character.pk)
        elif subject in CAMPAIGN_SCOPED:
            assert table is not None, plan
            if subject == "roll":
                roll = table.rolls["gm-roll" if plan.roll == "gm-roll" else "roll"]
            values[parameter] = _in_table(table, subject, roll)
            if parameter == "roll_code":  # the roll by its code, not its id (Roll.code)
                assert roll is not None, plan
                values[parameter] = roll.code
        elif subject == "action":
            assert table is not None, plan
            values[parameter] = plan.action
        elif subject == "chart":  # one of the luck page's charts (history/luck_views.py)
            values[parameter] = "time"
        elif subject == "admin-object":
            assert plan.admin_model is not None, plan
            values[parameter] = world.admin_objects[plan.admin_model].pk
        elif subject == "content-type":
            values[parameter] = ContentType.objects.get_for_model(Campaign).pk
        elif subject == "content-object":
            values[parameter] = world.tables[HOME_SYSTEM].campaign.pk
        elif subject == "app-label":
            values[parameter] = plan.app_label
        elif subject == "admin-path":
            values[parameter] = "no-such-page/"
        elif subject == "reset-uid":
            # The owner's account, with a token that is not one: the link a guess or a
            # tampered email gives (a valid link is tests/accounts/test_passwords.py's).
            values[parameter] = urlsafe_base64_encode(force_bytes(world.users["owner"].pk))
        elif subject in {"reset-token", "address-token"}:
            # Not one the site signed: a valid address link is tests/accounts/
            # test_addresses.py's.
            values[parameter] = "no-such-token"
        else:  # pragma: no cover - _subjects only returns the kinds above
            raise UnknownParameter(f"{route.key}: {parameter} -> {subject}")
    url = _fill(route, values)
    match = resolve(url)
    assert match.route == route.full, f"{url} resolves to {match.route}, not {route.full}"
    return Target(url=url, table=table, roll=roll)


def _in_table(table: Table, subject: str, roll: Roll | None) -> object:
    """The value of a campaign-scoped parameter holding ``subject``, in ``table``."""
    values: dict[str, object] = {
        "campaign": table.campaign.pk, "character": table.character.pk,
        "membership": table.membership.pk, "session": table.session.pk,
        "xp-entry": table.spend.pk, "invite-token": table.campaign.invite_token,
        "item": table.item.pk if table.item is not None else None,
        "roll": roll.pk if roll is not None else None,
        "encounter": table.encounter.pk if table.encounter is not None else None,
    }
    return values[subject]


# --- what the database holds ------------------------------------------------------------------

# Sessions change with every login and logout, and hold the creation wizard's draft: they are
# the visitor's, not the application's data.
UNSNAPSHOTTED = {"sessions.session"}


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model (sessions aside), ordered by primary key: two snapshots
    differ if and only if something was created, changed or deleted.

    Plain SQL, one query a table: the matrix takes two snapshots per case, and the ORM's
    query building would be most of its time.
    """
    rows = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for label, table, pk in _snapshot_tables():
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY {quote(pk)}")  # noqa: S608
            rows[label] = cursor.fetchall()
    return rows


def _snapshot_tables() -> list[tuple[str, str, str]]:
    """``(label, table, primary key column)`` of every managed model but sessions, with the
    many-to-many tables (a user's groups and permissions)."""
    tables = {}
    for model in apps.get_models():
        if model._meta.label_lower in UNSNAPSHOTTED or not model._meta.managed:
            continue
        tables[model._meta.label_lower] = (model._meta.db_table, model._meta.pk.column)
        for m2m in model._meta.local_many_to_many:
            model_through = m2m.remote_field.through
            assert model_through is not None, m2m  # Django makes one for every many-to-many
            through = model_through._meta
            tables.setdefault(through.label_lower, (through.db_table, through.pk.column))
    return [(label, table, pk) for label, (table, pk) in sorted(tables.items())]


def changed_tables(before: Mapping[str, list[Any]], after: Mapping[str, list[Any]]
                   ) -> list[str]:
    """The labels of the models whose rows differ between two snapshots."""
    return sorted(label for label in before if before[label] != after.get(label))
