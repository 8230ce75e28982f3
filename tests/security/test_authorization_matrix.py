"""The authorization matrix: every URL of the URLconf, asked by everyone, with GET and POST.

Who asks (columns, in this order): ``anonymous stranger player owner gm staff`` (see
``urlmap.ROLES``), and a co-GM of the campaign (``urlmap.CO_GM``), who is answered as the GM
but where :data:`CO_GM_DIFFERS` says otherwise (the lead GM's own powers). What each URL must
answer is written by hand in :data:`TABLE`, one line of six tokens per method, from what the
view is meant to allow (docs/architecture.md and docs/decisions.md, "Who sees what" and "The
co-GM"):

- ``200``, ``302``: allowed, nothing written; ``200+``, ``302+``: allowed, and the POST (sent
  with a payload that would change something, :func:`payload`) writes to the database;
- ``login``: 302 to the login page, with ``next`` (anonymous visitors);
- ``admin``: 302 to the admin's login page (anyone who is not staff, on any admin URL);
- ``404``: refused as if the thing did not exist: the project's rule for anyone who may not
  see a campaign or one of its rows, so the existence of a campaign, a character or a roll
  does not leak (403 would confirm it). GM-only views answer 404 to players for the same
  reason;
- ``403``: the admin's answer to a staff user without the model permission (the staff role
  holds none: a fresh staff account sees the admin index and nothing else; pages of a model
  need its permission, which ``test_admin_pages_open_for_staff_with_the_permissions`` checks);
- ``405``: the method is not allowed (POST-only views answer GET so, before anything else).

A URL inside a campaign whose view hands the request to the campaign's system (its form,
sheet, result template, action or schema: tests/by_system.py) is asked once per rule system of
the registry, each system's data (a creation form, a pool to roll, each action's form) read
from its tests/systems/<slug>/fixtures.py. A shared URL inside a campaign (a session, a
membership, the campaign's settings) runs the same checks whatever the system: it is asked in
one system's campaign, the systems taken in turn over the shared URLs so that each is used.
The co-GM asks every URL, in one system's campaign per URL (the systems in turn,
:func:`co_gm_asks`): a system is handed whether the viewer runs the table and never reads the
seat, so the co-GM's answer cannot differ by system.
A URL that only means something for some systems names them in ``only``: for a campaign of
any other system everyone logged in gets 404. That is how a
system's own pages (its package's ``urls.py``, under the system's slug as namespace: Maelstrom's
creation steps) are asked: their rows and payloads come from the system's fixtures
(``SystemFixtures.pages``), found by namespace, so a sixth system's pages need no line here.
An action a system lacks is asked by another system's name and must be 404 too; so must a
"crossed" URL (a campaign's membership, session or XP entry asked for under the stranger's
own campaign or character, ``urlmap.Plan.crossed``).

For every case: the status; no write unless the token says so (a snapshot of every table,
sessions aside, before and after: a denied POST writes nothing); no secret in a denied
answer (a campaign's name, its character's name and concept, its session's title, its invite
token, its GM-only roll); no GM-only secret in any answer to someone who is not the GM or a co-GM,
and nothing the owner wrote for themselves (the backstory) in any answer to a fellow player,
who may read the owner's sheet itself (``Campaign.party_sheets``, on by default).
A live page that answers someone who is not the GM is asked for all its regions again, the GM
asking first: kept regions (core.regions.recall) go only to the seat they were drawn for, so
that answer too holds nothing of the GM's.

The matrix fails when the URLconf has a URL with no row (so no view is forgotten) and when a
row names a URL that no longer exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign
from chat.models import ChatHook
from core.regions import LivePage
from tests.by_system import SHARED, by_system, system_in_turn
from tests.encounters import matrix as encounter_matrix
from tests.security import urlmap
from tests.security.urlmap import ASKING, CO_GM, HOME_SYSTEM, ROLES, Plan, Target, World
from tests.system_fixtures import SystemFixtures, SystemPage, fixtures_for, form_data
from transfer import export as transfer_export

pytestmark = pytest.mark.django_db

Expect = str | Callable[[Plan], str]

# --- expectations -----------------------------------------------------------------------------
#                     anonymous stranger player owner gm    staff
EVERYONE_200 = "200 200 200 200 200 200"
NOT_ALLOWED = "405 405 405 405 405 405"
LOGGED_IN_200 = "login 200 200 200 200 200"
MEMBERS_200 = "login 404 200 200 200 404"
CHARACTER_200 = "login 404 404 200 200 404"
CHARACTER_WRITES = "login 404 404 302+ 302+ 404"
GM_200 = "login 404 404 404 200 404"
GM_WRITES = "login 404 404 404 302+ 404"
NO_ONE = "login 404 404 404 404 404"


def by_roll(roll: str, gm_roll: str) -> Callable[[Plan], str]:
    """The expectation for the character's roll, and for the GM-only NPC roll."""
    return lambda plan: gm_roll if plan.roll == "gm-roll" else roll


def by_action(open_to_player: str, gm_only: str) -> Callable[[Plan], str]:
    """The expectation for an action the owner may take, and for a GM-only one."""
    return lambda plan: gm_only if plan.action_gm_only else open_to_player


def by_creation(own_pages: str, one_form: str) -> Callable[[Plan], str]:
    """The expectation for a system that makes characters on pages of its own (the generic
    creation page only sends its members there: ``urlmap.own_creation_pages``), and for one
    made on the generic page's one form."""
    return lambda plan: (own_pages if plan.system and urlmap.own_creation_pages(plan.system)
                         else one_form)


@dataclass(frozen=True)
class Row:
    """What one URL answers to each role, for GET and POST.

    ``only``: the rule systems where the URL means something (elsewhere 404 for everyone
    logged in). ``outsiders_read``: secrets (by kind) the URL shows to someone outside the
    campaign by design (the invite page shows the campaign's name to whoever holds the
    link).
    """

    get: Expect
    post: Expect
    only: tuple[str, ...] | None = None
    outsiders_read: frozenset[str] = field(default_factory=frozenset)

    def expect(self, plan: Plan, method: str) -> list[str]:
        """The tokens for ``plan`` and ``method``, one per role of ``urlmap.ASKING`` (the six
        of the line, then the co-GM's: the GM's, or :data:`CO_GM_DIFFERS`'), with ``only``
        applied."""
        line = self.get if method == "GET" else self.post
        tokens = (line(plan) if callable(line) else line).split()
        assert len(tokens) == len(ROLES), line
        differs = CO_GM_DIFFERS.get(plan.key)
        tokens.append(differs[method] if differs and method in differs
                      else tokens[ROLES.index("gm")])
        meaningless = ((self.only is not None and plan.system not in self.only)
                       or not plan.action_known or plan.crossed)
        if meaningless:
            tokens = [t if t in {"login", "405"} else "404" for t in tokens]
        return tokens


TABLE: dict[str, Row] = {
    # --- outside any campaign
    "home": Row(get="200 302 302 302 302 302", post="200 302 302 302 302 302"),
    "signup": Row(get=EVERYONE_200, post=EVERYONE_200),
    "login": Row(get=EVERYONE_200, post=EVERYONE_200),
    # Django 5 logs out on POST only; the redirect goes to the login page (settings).
    # django-axes stamps the logout time on the user's access log: the only write.
    "logout": Row(get=NOT_ALLOWED, post="302 302+ 302+ 302+ 302+ 302+"),
    # The account page: anyone logged in, for their own account only (no id in the URL);
    # saving an email writes their user row.
    # An address given is mailed a link and stored nowhere (accounts.addresses).
    "account": Row(get=LOGGED_IN_200, post="login 302 302 302 302 302"),
    # Django's password change: the matrix's users have no usable password, so the old one
    # never matches and the form is shown again.
    "password_change": Row(get=LOGGED_IN_200, post=LOGGED_IN_200),
    "password_change_done": Row(get=LOGGED_IN_200, post="login 405 405 405 405 405"),
    # The reset: for everyone, and the same answer whether the address has an account or
    # not (it sends an email, writes nothing). The confirm link is asked with a token that
    # is not one: the invalid-link page.
    "password_reset": Row(get=EVERYONE_200, post="302 302 302 302 302 302"),
    "password_reset_done": Row(get=EVERYONE_200, post=NOT_ALLOWED),
    "password_reset_confirm": Row(get=EVERYONE_200, post=EVERYONE_200),
    "password_reset_complete": Row(get=EVERYONE_200, post=NOT_ALLOWED),
    # The display name: anyone logged in, their own row only.
    "account-display-name": Row(get=NOT_ALLOWED, post="login 302+ 302+ 302+ 302+ 302+"),
    # Deleting one's account asks for the password (the matrix's users have none that
    # matches: the page again, nothing written); the GM of a table with other members is
    # refused outright (409) until they hand the seat over or end the campaign.
    "account-delete": Row(get=LOGGED_IN_200, post="login 200 200 200 409 200"),
    # Whoever holds a link may follow it (it went to the address's mailbox); a forged one is
    # refused alike for everyone.
    "account-address-confirm": Row(get="400 400 400 400 400 400",
                                   post="400 400 400 400 400 400"),
    "campaigns:campaign-list": Row(get=LOGGED_IN_200, post=LOGGED_IN_200),
    "campaigns:campaign-create": Row(get=LOGGED_IN_200, post="login 302+ 302+ 302+ 302+ 302+"),
    # --- a campaign
    "table:campaign-detail": Row(get=MEMBERS_200, post=MEMBERS_200),
    "campaigns:campaign-events": Row(get=MEMBERS_200, post=MEMBERS_200),
    "table:campaign-system-action": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "campaigns:campaign-invite-renew": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "campaigns:campaign-invite-revoke": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "campaigns:membership-remove": Row(get=GM_200, post=GM_WRITES),
    # The GM seats a player as a co-GM and back (asked of the non-owning player's seat: made
    # a co-GM); a co-GM may step down from their own seat only (tests/campaigns/test_co_gm.py).
    "campaigns:membership-seat": Row(get=GM_200, post=GM_WRITES),
    # A campaign's life: the GM's settings, seat, archive and deletion (deleting asks for the
    # campaign's name, typed); a player leaves (the GM is told to hand the seat over first:
    # nothing written). Restoring a campaign that is not archived changes nothing.
    "campaigns:campaign-settings": Row(get=GM_200, post=GM_WRITES),
    # The table readings (docs/rules.md, Table readings): saved from the settings page, in
    # the systems that have readings (a 404 in the others).
    "campaigns:campaign-readings": Row(get=NOT_ALLOWED, post=GM_WRITES,
                                       only=urlmap.SYSTEMS_WITH_READINGS),
    "campaigns:campaign-handover": Row(get=GM_200, post=GM_WRITES),
    "campaigns:campaign-leave": Row(get="login 404 200 200 200 404",
                                    post="login 404 302+ 302+ 302 404"),
    "campaigns:campaign-archive": Row(get=GM_200, post=GM_WRITES),
    "campaigns:campaign-restore": Row(get=NOT_ALLOWED, post="login 404 404 404 302 404"),
    "campaigns:campaign-delete": Row(get=GM_200, post=GM_WRITES),
    # Whoever holds the link may join; members are sent to the campaign ("already a member").
    "campaigns:campaign-join": Row(get="login 200 302 302 302 200",
                                   post="login 302+ 302 302 302 302+",
                                   outsiders_read=frozenset({"campaign"})),
    "table:session-list": Row(get=MEMBERS_200, post=GM_WRITES),
    "table:session-detail": Row(get=MEMBERS_200, post=GM_WRITES),
    "table:session-recap": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "rolls:roll-list": Row(get=MEMBERS_200, post=MEMBERS_200),
    "rolls:npc-roll-create": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "rolls:requested-roll-create": Row(get=NOT_ALLOWED, post=GM_WRITES),
    # Any member may create a character (the GM too). A system with creation pages of its own
    # (its row below, from its fixtures) is sent there: nothing written here.
    "characters:character-create": Row(
        get=by_creation("login 404 302 302 302 404", MEMBERS_200),
        post=by_creation("login 404 302 302 302 404", "login 404 302+ 302+ 302+ 404")),
    # --- a character: its owner and the GM only, but its sheet, which a party-mate may read
    # (Campaign.party_sheets, on in the world; read-only, and never the owner's writing).
    "characters:character-detail": Row(get=MEMBERS_200, post=MEMBERS_200),
    # Each system's sheet actions (damage, heal, willpower, banking XP, stress, plot points...).
    "characters:character-action": Row(get=NOT_ALLOWED, post=by_action(CHARACTER_WRITES,
                                                                       GM_WRITES)),
    "characters:character-xp": Row(get=CHARACTER_200, post=CHARACTER_200),
    # A character's life: its player and the GM write its name, concept, backstory and notes
    # and retire it; the GM's notes, moving it to another player and bringing it back are the
    # GM's (restoring one in the party changes nothing). Deleting is refused (409) for a
    # character with a history: the world's has rolls and spends.
    "characters:character-edit": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "characters:character-gm-notes": Row(get=GM_200, post=GM_WRITES),
    "characters:character-retire": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "characters:character-restore": Row(get=NOT_ALLOWED, post="login 404 404 404 302 404"),
    "characters:character-delete": Row(get=CHARACTER_200, post="login 404 404 409 409 404"),
    "characters:character-move": Row(get=GM_200, post=GM_WRITES),
    "characters:character-xp-award": Row(get=NOT_ALLOWED, post=GM_WRITES),
    "characters:character-xp-spend": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "characters:character-xp-undo": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    # --- the GM's NPCs (characters/npc_views.py): whoever runs the table; a player never
    # learns one exists. Asked of the world's player character: copying it needs a count
    # (empty POST: the form again, 400), and it is no NPC to reveal or archive (refused with
    # a message, nothing written).
    "characters:npc-list": Row(get=GM_200, post=NOT_ALLOWED),
    "characters:npc-create": Row(get=GM_200, post="login 404 404 404 400 404"),
    "characters:npc-copy": Row(get=GM_200, post="login 404 404 404 400 404"),
    "characters:npc-shown": Row(get=NOT_ALLOWED, post="login 404 404 404 302 404"),
    "characters:npc-archive": Row(get=NOT_ALLOWED, post="login 404 404 404 302 404"),
    "rolls:roll-create": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "rolls:roll-odds": Row(get=CHARACTER_200, post=NOT_ALLOWED),
    # A character's equipment (equipment/views.py): its owner and the GM add, change and
    # remove items (GET: the item's page, the removal's confirmation) and use one in play
    # (each system's item actions: Maelstrom's fire and reload, on the world's heavy pistol
    # with 3 of its 8 rounds).
    "equipment:item-add": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "equipment:item-change": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "equipment:item-remove": Row(get=CHARACTER_200, post=CHARACTER_WRITES),
    "equipment:item-act": Row(get=NOT_ALLOWED, post=CHARACTER_WRITES),
    # --- a roll: every member reads the log, a GM-only roll is the GM's; follow-ups are for
    # the character's owner and the GM
    "rolls:roll-detail": Row(get=by_roll(MEMBERS_200, GM_200),
                             post=by_roll(MEMBERS_200, GM_200)),
    # A roll by its id, not its code: the GM is sent on to the roll; for anyone else no id
    # is a roll, not even their own (ids count the GM-only rolls: Roll.code).
    "rolls:roll-by-number": Row(get="login 404 404 404 302 404", post=NOT_ALLOWED),
    # Each system's roll follow-ups (an experience die, willpower spent, dice chosen). One on
    # the GM's NPC roll has no character to act for: 404 even for the GM.
    "rolls:roll-act": Row(get=NOT_ALLOWED, post=by_roll(CHARACTER_WRITES, NO_ONE)),
}

CO_GM_DIFFERS: dict[str, dict[str, str]] = {
    # The lead GM's own powers (docs/decisions.md, "The co-GM"): a co-GM runs the table but
    # cannot end it, give its seat away or change who else runs it; their pages do not exist
    # for a co-GM, as a GM-only page for a player.
    "campaigns:campaign-delete": {"GET": "404", "POST": "404"},
    "campaigns:campaign-handover": {"GET": "404", "POST": "404"},
    # Seating a co-GM is the GM's; a co-GM changes their own seat only (stepping down), and
    # the matrix asks of the player's.
    "campaigns:membership-seat": {"GET": "404", "POST": "404"},
    # A co-GM may leave the table as a player may (their seat goes); the GM may not.
    "campaigns:campaign-leave": {"POST": "302+"},
    # A co-GM is no campaign's GM, so deleting their account is not refused (409) for the
    # tables they help run: the wrong password is (the page again).
    "account-delete": {"POST": "200"},
}
"""The co-GM's answers where they differ from the GM's column, by URL and method. Removing
the GM's own seat (the same URL as removing a player's) is refused to the co-GM too: the
matrix asks of a player's seat, tests/campaigns/test_co_gm.py of the GM's."""

# --- the admin: staff only; a staff user without permissions sees the index and gets 403 on
# every model page (Django's own checks; nothing of a campaign is shown)
ADMIN_ONLY_STAFF = "admin admin admin admin admin {}"
ADMIN_MODELS = ("auth.group", "auth.user", "axes.accessattempt", "axes.accesslog",
                "axes.accessfailurelog", "campaigns.campaign", "campaigns.session",
                "django_tasks_database.dbtaskresult")
"""Every model registered in the admin; a model registered later fails the matrix until it
is added here (with its own decision if its pages differ)."""

READ_ONLY_ADMIN_MODELS = ("django_tasks_database.dbtaskresult",)
"""Admin models whose rows are read there and never added, changed or deleted, whatever the
permissions: the task queue's rows are the worker's (django-tasks-db's admin allows only
viewing). Their add and delete pages answer 403 to every staff user."""

TABLE.update({
    "admin:index": Row(get=ADMIN_ONLY_STAFF.format(200), post=ADMIN_ONLY_STAFF.format(200)),
    # The login form is for everyone; staff already logged in are sent on to the index.
    "admin:login": Row(get="200 200 200 200 200 302", post=EVERYONE_200),
    # Logging out of the admin: POST only, then to LOGOUT_REDIRECT_URL (the site's login page),
    # with axes stamping the logout time; anyone not staff is sent to the admin's index
    # instead (which asks them to log in) and stays logged in.
    "admin:logout": Row(get="302 302 302 302 302 405", post="302 302 302 302 302 302+"),
    "admin:password_change": Row(get=ADMIN_ONLY_STAFF.format(200),
                                 post=ADMIN_ONLY_STAFF.format(200)),
    "admin:password_change_done": Row(get=ADMIN_ONLY_STAFF.format(200),
                                      post=ADMIN_ONLY_STAFF.format(405)),
    # Autocomplete needs a model and field it may search: without them, 403.
    "admin:autocomplete": Row(get=ADMIN_ONLY_STAFF.format(403),
                              post=ADMIN_ONLY_STAFF.format(405)),
    "admin:jsi18n": Row(get=ADMIN_ONLY_STAFF.format(200), post=ADMIN_ONLY_STAFF.format(405)),
    # "View on site" redirects to the object's own page, which checks its own permissions.
    "admin:view_on_site": Row(get=ADMIN_ONLY_STAFF.format(302),
                              post=ADMIN_ONLY_STAFF.format(302)),
    # An app's index lists only models the user may see: none, so it does not exist for them.
    "admin:app_list": Row(get=ADMIN_ONLY_STAFF.format(404), post=ADMIN_ONLY_STAFF.format(404)),
    # Any other admin path: 404 for staff, and the login page for everyone else (an outsider
    # cannot tell which admin URLs exist).
    "admin:[admin/(?P<url>.*)$]": Row(get=ADMIN_ONLY_STAFF.format(404),
                                      post=ADMIN_ONLY_STAFF.format(404)),
    "admin:auth_user_password_change": Row(get=ADMIN_ONLY_STAFF.format(403),
                                           post=ADMIN_ONLY_STAFF.format(403)),
})
for _model in ADMIN_MODELS:
    _app, _name = _model.split(".")
    for _page in ("changelist", "add", "history", "delete", "change"):
        TABLE[f"admin:{_app}_{_name}_{_page}"] = Row(get=ADMIN_ONLY_STAFF.format(403),
                                                     post=ADMIN_ONLY_STAFF.format(403))
    # The bare object URL redirects to its change page (which then needs the permission).
    TABLE[f"admin:[admin/{_app}/{_name}/<path:object_id>/]"] = Row(
        get=ADMIN_ONLY_STAFF.format(302), post=ADMIN_ONLY_STAFF.format(302))

# --- transfer: export and import (transfer/views.py). A character's file is its owner's or
# the GM's, a campaign's the GM's (GET only); any member imports a character as their own, any
# logged-in user imports a campaign and becomes its GM.
TABLE.update({
    "transfer:character-export": Row(get=CHARACTER_200, post=NOT_ALLOWED),
    "transfer:campaign-export": Row(get=GM_200, post=NOT_ALLOWED),
    "transfer:character-import": Row(get=MEMBERS_200, post="login 404 302+ 302+ 302+ 404"),
    "transfer:campaign-import": Row(get=LOGGED_IN_200, post="login 302+ 302+ 302+ 302+ 302+"),
    # The GM's review of a player's imported character (asked of the world's character made
    # an import awaiting the GM, _prepare): the GM only, the owner too gets 404.
    "transfer:import-review": Row(get=GM_200, post=GM_WRITES),
})

# --- the group's chat (chat/views.py): the campaign's webhook is kept by whoever runs the
# table (the GM and the co-GMs, as the settings page); a player never learns there is one.
# Asked with a hook connected (_prepare). The test post queues a task and writes nothing.
TABLE.update({
    "chat:campaign-chat": Row(get=GM_200, post=GM_WRITES),
    "chat:campaign-chat-test": Row(get=NOT_ALLOWED, post="login 404 404 404 302 404"),
    "chat:campaign-chat-delete": Row(get=GM_200, post=GM_WRITES),
})

# --- the table's memory (history/): the table's history is every member's (each reads what
# they may: history/log_views.py); a character's is open to whoever may open its sheet, a
# party-mate too (Campaign.party_sheets, on in the world). Pages to read: no POST.
TABLE.update({
    "history:campaign-history": Row(get=MEMBERS_200, post=NOT_ALLOWED),
    "history:character-history": Row(get=MEMBERS_200, post=NOT_ALLOWED),
    # A character between two sessions (history/between_views.py): whoever may read its sheet.
    "history:character-between": Row(get=MEMBERS_200, post=NOT_ALLOWED),
})

# --- how the dice ran (history/luck_views.py): the table's luck is every member's (each
# counts the rolls they may see), a character's is open to whoever may read its sheet; each
# chart is an image under its page's permission. Pages to read: no POST.
TABLE.update({
    "history:campaign-luck": Row(get=MEMBERS_200, post=NOT_ALLOWED),
    "history:campaign-luck-chart": Row(get=MEMBERS_200, post=NOT_ALLOWED),
    "history:character-luck": Row(get=MEMBERS_200, post=NOT_ALLOWED),
    "history:character-luck-chart": Row(get=MEMBERS_200, post=NOT_ALLOWED),
})

# --- encounters (encounters/views.py): every member reads them, whoever runs the table runs
# them, a player ends their own character's turn (tests/encounters/matrix.py).
TABLE.update({key: Row(get=get, post=post) for key, (get, post) in encounter_matrix.ROWS.items()})

# --- each system's own pages (its package's urls.py, under its slug): their rows are the
# system's decision, written in its fixtures (SystemFixtures.pages); in any other system's
# campaign they are 404 for everyone logged in.
ROUTES = urlmap.routes()


def _system_page(route: urlmap.Route) -> SystemPage | None:
    """The fixtures' row of a system's own page, or None (no decision written yet)."""
    system = urlmap.page_system(route)
    assert system is not None and route.name is not None, route
    return fixtures_for(system).pages.get(route.name)


SYSTEM_PAGES: dict[str, SystemPage] = {
    route.key: page for route in ROUTES
    if urlmap.page_system(route) and (page := _system_page(route)) is not None
}
"""URL key (``maelstrom:character-create``) -> its system's row."""

TABLE.update({
    key: Row(get=page.get, post=page.post, only=(key.partition(":")[0],))
    for key, page in SYSTEM_PAGES.items()
})

MATRIX_WEBHOOK = "https://162.159.135.232/api/webhooks/1/matrix-s3cr3t"
"""A webhook URL on a public address (no name to resolve), which nothing posts to: the
matrix's transactions never commit."""

# --- payloads: what each POST (and some GETs) sends --------------------------------------------

Payload = Callable[[Plan, Target, World], dict[str, Any]]


def _table(target: Target) -> urlmap.Table:
    assert target.table is not None
    return target.table


def _fixtures(plan: Plan) -> SystemFixtures:
    """What the matrix needs of the plan's system (tests/systems/<slug>/fixtures.py): a
    valid creation form, a pool its sheet can roll, a roll the GM can ask for, and the form
    data of each of its changes."""
    assert plan.system is not None, plan
    return fixtures_for(plan.system)


def _action_data(kind: str) -> Payload:
    """The form data of the plan's action of ``kind`` (``sheet_actions``,
    ``campaign_actions``, ``roll_actions`` of the system's fixtures): one that changes the
    world's character or campaign. An action the system lacks is asked with nothing."""
    def data(plan: Plan, target: Target, world: World) -> dict[str, Any]:
        if not plan.action_known:
            return {}
        found = getattr(_fixtures(plan), kind)[plan.action]
        return form_data(found, _table(target).character)
    return data


def _spend(plan: Plan, target: Target, world: World) -> dict[str, Any]:
    """The purchase the XP page confirms: a key its form takes (``urlmap.Table.buy``, what
    the character can still buy) and the price shown."""
    key, cost = _table(target).buy
    return {"key": key, "expected_cost": str(cost)}


def _page_data(plan: Plan, target: Target, world: World) -> dict[str, Any]:
    """A system's own page's POST (its fixtures' ``pages``), asked in every system's
    campaign: only its own answers."""
    data = SYSTEM_PAGES[plan.key].data
    return form_data(data, _table(target).character)


def _export_file(plan: Plan, target: Target, world: World) -> dict[str, Any]:
    """The import form's upload: the world's character (or, for a campaign import, the
    registry's first system's campaign) as its export file."""
    if target.table is not None:
        document = transfer_export.export_character(target.table.character)
    else:
        document = transfer_export.export_campaign(world.tables[HOME_SYSTEM].campaign)
    return {"file": SimpleUploadedFile(transfer_export.document_filename(document),
                                       transfer_export.document_json(document).encode(),
                                       content_type="application/json")}


def _encounter_data(data: Callable[[Any], dict[str, Any]]) -> Payload:
    """A payload of tests/encounters/matrix.py, from the table's running encounter."""
    return lambda plan, target, world: data(_table(target).encounter)


PAYLOADS: dict[str, Payload] = {
    "account": lambda *_: {"email": "matrix-new@example.org"},
    "password_reset": lambda *_: {"email": "owner-matrix@example.org"},
    "campaigns:campaign-create": lambda *_: {"name": "Matrix new table", "ruleset": HOME_SYSTEM,
                                             "starting_xp": "30"},
    "table:campaign-system-action": _action_data("campaign_actions"),
    "table:session-list": lambda *_: {"date": "2026-02-03", "title": "Matrix session"},
    "table:session-detail": lambda *_: {"amount_all": "2", "reason_all": "Matrix"},
    "table:session-recap": lambda *_: {"recap": "Matrix *recap*"},
    "campaigns:campaign-settings": lambda *_: {"name": "Matrix renamed table",
                                               "description": "Matrix", "starting_xp": "40"},
    "campaigns:campaign-handover": lambda plan, target, world: {
        "membership": str(_table(target).membership.pk)},
    "campaigns:campaign-delete": lambda plan, target, world: {
        "name": _table(target).campaign.name},
    "campaigns:membership-seat": lambda *_: {"role": "co_gm"},
    "campaigns:campaign-readings": lambda plan, *_: urlmap.readings_changed(plan.system),
    "account-display-name": lambda *_: {"first_name": "Matrix name"},
    "account-delete": lambda *_: {"password": "not-the-password"},
    "characters:character-edit": lambda *_: {"name": "Matrix renamed", "concept": "",
                                             "backstory": "Matrix past", "notes": ""},
    "characters:character-gm-notes": lambda *_: {"gm_notes": "Matrix GM note"},
    "characters:character-retire": lambda *_: {"status": "retired"},
    "characters:character-move": lambda plan, target, world: {
        "to_user": str(world.users["player"].pk)},
    "rolls:npc-roll-create": lambda plan, *_: {
        "text": urlmap.quick_roll_example(plan.system or HOME_SYSTEM)},
    "rolls:requested-roll-create": lambda plan, *_: {
        "character": "all", "note": "Matrix request", **_fixtures(plan).request},
    "characters:character-create": lambda plan, *_: dict(_fixtures(plan).new_character),
    "characters:character-action": _action_data("sheet_actions"),
    "characters:character-xp-award": lambda *_: {"amount": "2", "reason": "Matrix"},
    "characters:character-xp-spend": _spend,
    "rolls:roll-create": lambda plan, *_: dict(_fixtures(plan).roll_pool),
    "rolls:roll-act": _action_data("roll_actions"),
    "equipment:item-add": lambda *_: {"name": "Matrix rope", "quantity": "1", "note": ""},
    "equipment:item-change": lambda *_: {"name": "Matrix kit", "quantity": "2",
                                         "note": "Matrix change"},
    "chat:campaign-chat": lambda *_: {"url": MATRIX_WEBHOOK, "format": "slack",
                                      "post_rolls": "on"},
    "transfer:character-import": _export_file,
    "transfer:campaign-import": _export_file,
    "transfer:import-review": lambda *_: {"decision": "accept", "confirm": "on"},
    **dict.fromkeys(SYSTEM_PAGES, _page_data),
    **{key: _encounter_data(data) for key, data in encounter_matrix.PAYLOADS.items()},
}
"""POST data, for each URL whose POST needs some to change anything."""

QUERIES: dict[str, Payload] = {
    "characters:character-xp-spend": lambda plan, target, world: {
        k: v for k, v in _spend(plan, target, world).items() if k != "expected_cost"},
    "rolls:roll-odds": lambda plan, *_: dict(_fixtures(plan).roll_pool),
    **dict.fromkeys([key for key, page in SYSTEM_PAGES.items() if page.query],
                    lambda plan, *_: dict(SYSTEM_PAGES[plan.key].query)),
    **{key: _encounter_data(data) for key, data in encounter_matrix.QUERIES.items()},
}
"""GET query strings, for pages that show something only when asked (a price, the odds)."""


def _prepare(plan: Plan, target: Target, world: World) -> None:
    """Put the world in the state a POST needs to change something (inside the test's
    transaction, before the snapshot)."""
    if plan.route.namespace == "chat":
        ChatHook.objects.create(campaign=_table(target).campaign, url=MATRIX_WEBHOOK)
        return
    if plan.key == "transfer:import-review":
        urlmap.make_pending_import(_table(target).character)
        return
    if plan.key in encounter_matrix.ROWS and not plan.crossed:
        encounter = _table(target).encounter
        assert encounter is not None
        encounter_matrix.prepare(plan.key, encounter, world.users["gm"])
        return
    if plan.key != "characters:character-action" or not plan.action_known:
        return
    # What the GM does first so that the action changes something (the system's fixtures'
    # matrix_before: Genesys's creation reopened before it is finished, Shahquest's stress
    # taken to trauma before it is recovered).
    table = _table(target)
    for name, data in _fixtures(plan).matrix_before.get(plan.action or "", ()):
        urlmap.sheet_action(table.character, name, dict(data), by=world.users["gm"])


# --- the cases --------------------------------------------------------------------------------

UNPLACED: list[str] = []
PLANS: list[Plan] = []
for _route in ROUTES:
    try:
        PLANS += urlmap.plans(_route)
    except urlmap.UnknownParameter as exc:
        UNPLACED.append(str(exc))

SHARED_IN_A_CAMPAIGN = {plan.key for plan in PLANS if plan.system is not None
                        and plan.key in TABLE and not by_system(plan.key)}
"""The shared URLs inside a campaign, which take the registry's systems in turn."""


def asked(plan: Plan) -> bool:
    """Whether the matrix asks ``plan``: every plan of a URL outside any campaign or of one
    that can answer differently by system (tests/by_system.py); of a shared URL inside a
    campaign, the plans in its one system's campaign (each action, roll and crossing)."""
    if plan.system is None or by_system(plan.key):
        return True
    return plan.system == system_in_turn(plan.key, SHARED_IN_A_CAMPAIGN, urlmap.SYSTEMS)


ASKED = [plan for plan in PLANS if plan.key in TABLE and asked(plan)]

BY_SYSTEM_IN_A_CAMPAIGN = {plan.key for plan in ASKED if plan.system is not None
                           and by_system(plan.key)}
"""The URLs inside a campaign asked in every system's campaign."""


def co_gm_asks(plan: Plan) -> bool:
    """Whether the co-GM asks ``plan``: wherever the matrix asks it, but a URL asked in every
    system's campaign is asked by the co-GM in one of them, the systems taken in turn. What a
    co-GM may do is the shared views' decision (a system is handed ``is_gm`` and never reads
    the seat: tests/architecture/test_one_shape.py's ``test_no_system_reads_the_seat``), so
    the co-GM's answer differs by URL, never by system."""
    if plan.system is None or plan.key not in BY_SYSTEM_IN_A_CAMPAIGN:
        return True
    return plan.system == system_in_turn(plan.key, BY_SYSTEM_IN_A_CAMPAIGN, urlmap.SYSTEMS)


CASES = [(plan, method, role) for plan in ASKED for method in ("GET", "POST") for role in ASKING
         if role != CO_GM or co_gm_asks(plan)]
IDS = [f"{plan.label}-{method}-{role}" for plan, method, role in CASES]


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world, built once for the module inside a transaction that is rolled back at
    its end; each test runs in a savepoint of it (pytest-django's ``db``), so what a test
    writes is gone before the next one."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield urlmap.build_world()
        transaction.set_rollback(True)


def test_every_url_of_the_urlconf_has_a_row() -> None:
    missing = sorted({r.key for r in ROUTES} - set(TABLE))
    assert not missing, (
        f"URLs without a row in TABLE (decide who may use them): {missing}; a system's own "
        "page's row is its tests/systems/<slug>/fixtures.py's `pages` entry")


def test_every_row_names_a_url_that_exists() -> None:
    stale = sorted(set(TABLE) - {r.key for r in ROUTES})
    assert not stale, f"Rows in TABLE for URLs that no longer exist: {stale}"


def test_every_co_gm_difference_names_a_row() -> None:
    stale = sorted(set(CO_GM_DIFFERS) - set(TABLE))
    assert not stale, f"CO_GM_DIFFERS names URLs without a row: {stale}"


def test_every_url_can_be_made_concrete() -> None:
    assert not UNPLACED, UNPLACED


def test_every_system_answers_for_some_shared_url() -> None:
    """The shared URLs are spread over the registry: each system's campaign (tally's too)
    answers some of them, so a shared check that fails only with one system's data shows."""
    used = {plan.system for plan in ASKED
            if plan.system is not None and not by_system(plan.key)}
    assert used == set(urlmap.SYSTEMS), sorted(set(urlmap.SYSTEMS) - used)


def test_a_by_system_url_is_asked_in_every_systems_campaign() -> None:
    """Every URL inside a campaign that can answer differently by system is asked in each
    system's campaign (the cases above are built so; this says it)."""
    inside = {plan.key for plan in PLANS if plan.system is not None and plan.key in TABLE}
    for key in inside - SHARED:
        systems_asked = {plan.system for plan, _, _ in CASES if plan.key == key}
        assert systems_asked == set(urlmap.SYSTEMS), (key, systems_asked)


def test_the_co_gm_asks_every_url_in_some_systems_campaign() -> None:
    """The co-GM's column is asked of every URL inside a campaign, and over the URLs asked in
    every system's campaign it takes each system's in turn."""
    inside = {plan.key for plan in ASKED if plan.system is not None}
    by_co_gm = {plan.key for plan, _, role in CASES if role == CO_GM and plan.system}
    assert by_co_gm == inside, sorted(inside - by_co_gm)
    systems_used = {plan.system for plan, _, role in CASES
                    if role == CO_GM and plan.key in BY_SYSTEM_IN_A_CAMPAIGN}
    assert systems_used == set(urlmap.SYSTEMS), sorted(set(urlmap.SYSTEMS) - systems_used)


def test_every_shared_url_names_a_url_that_exists() -> None:
    """tests/by_system.py's list of shared URLs names only URLs of the URLconf."""
    stale = sorted(SHARED - {r.key for r in ROUTES})
    assert not stale, f"tests/by_system.py's SHARED names URLs that no longer exist: {stale}"



@pytest.mark.parametrize(("plan", "method", "role"), CASES, ids=IDS)
def test_the_url_answers_each_role_as_its_row_says(world: World, plan: Plan, method: str,
                                                   role: str) -> None:
    row = TABLE[plan.key]
    expected = row.expect(plan, method)[ASKING.index(role)]
    target = urlmap.concrete_url(plan, world)
    _prepare(plan, target, world)
    client = world.client(role)
    before = urlmap.snapshot()

    if method == "GET":
        query = QUERIES.get(plan.key)
        response = client.get(target.url, query(plan, target, world) if query else None)
    else:
        payload = PAYLOADS.get(plan.key)
        response = client.post(target.url, payload(plan, target, world) if payload else {})

    changed = urlmap.changed_tables(before, urlmap.snapshot())
    _assert_status(response, expected, target.url)
    if expected.endswith("+"):
        assert changed, f"{method} {target.url} as {role} was allowed but wrote nothing"
    else:
        assert not changed, f"{method} {target.url} as {role} wrote to {changed}"
    _assert_no_leak(response, plan, target, world, role, row, denied=expected in DENIED)
    if method == "GET" and response.status_code == 200 and role not in {"gm", CO_GM}:
        _assert_no_leak_from_kept_regions(response, plan, target, world, role, row)


def _assert_no_leak_from_kept_regions(response: Any, plan: Plan, target: Target, world: World,
                                      role: str, row: Any) -> None:
    """A live page's regions, asked by the GM first (who may see more, and whose answer is
    kept: core.regions.recall) and then by ``role`` at the same version: ``role`` gets its
    own, with nothing of the GM's in it."""
    live = response.context.get("live") if response.context is not None else None
    if not isinstance(live, LivePage) or not live.regions:
        return
    url = live.url_for(live.ids)
    world.client("gm").get(url, headers={"HX-Request": "true"})
    regions = world.client(role).get(url, headers={"HX-Request": "true"})
    assert regions.status_code == 200, (url, role, regions.status_code)
    _assert_no_leak(regions, plan, target, world, role, row, denied=False)


DENIED = {"login", "admin", "403", "404", "405"}


def _assert_status(response: Any, expected: str, url: str) -> None:
    if expected == "login":
        assert response.status_code == 302, response.status_code
        assert response["Location"].startswith(f"{reverse('login')}?next="), response["Location"]
    elif expected == "admin":
        assert response.status_code == 302, response.status_code
        assert response["Location"].startswith(f"{reverse('admin:login')}?next="), (
            response["Location"])
    else:
        assert response.status_code == int(expected.rstrip("+")), (
            f"{url}: {response.status_code}, expected {expected}")


def _body(response: Any) -> str:
    # An event stream runs for an hour: its status and headers are the answer, not its body.
    if response.streaming:
        return ""
    return str(response.content.decode(errors="replace") + response.get("Location", ""))


def _assert_no_leak(response: Any, plan: Plan, target: Target, world: World, role: str,
                    row: Row, *, denied: bool) -> None:
    """No secret in a refusal; nothing of the GM's for anyone but the GM and a co-GM; not the
    owner's backstory for a fellow player (who may read the sheet, not what its player
    wrote); nothing of the campaign for an outsider beyond what the row lets them read."""
    body = _body(response)
    in_url = {s for s in world.all_secrets() if s and s in target.url}
    leaked: set[str] = set()
    if denied:
        leaked |= {s for s in world.all_secrets() if s and s in body}
    table = target.table
    if table is not None and not denied:
        if role not in {"gm", CO_GM}:
            leaked |= {s for s in table.gm_secrets if s in body}
        if role == "player":
            backstory = next(s for s in table.secrets if s.startswith("hidden</strong>"))
            leaked |= {backstory} if backstory in body else set()
        if role in {"anonymous", "stranger", "staff"}:
            readable = {table.campaign.name} if "campaign" in row.outsiders_read else set()
            leaked |= {s for s in table.secrets if s and s in body} - readable
    assert not leaked - in_url, f"{target.url} as {role} shows {sorted(leaked - in_url)}"
    # The chat's webhook URL is no one's to read once saved, the GM's included (ChatHook.masked).
    assert MATRIX_WEBHOOK not in body, f"{target.url} as {role} shows the webhook URL"


# --- an archived campaign: read-only for everyone ------------------------------------------

ARCHIVE_WRITABLE = frozenset({"campaigns:campaign-restore", "campaigns:campaign-delete"})
"""The only writes an archived campaign takes: the GM's restore and deletion."""

ARCHIVE_CASES = [
    (plan, role) for plan in ASKED
    if plan.system is not None and plan.key not in ARCHIVE_WRITABLE
    for role in ROLES if TABLE[plan.key].expect(plan, "POST")[ROLES.index(role)].endswith("+")
]
"""Every write a member may make inside a campaign (the ``+`` cells of the table's POST
lines, each system's own pages included), by whoever may make it. Not again as the co-GM:
the refusal reads the campaign, never the seat (campaigns.archive), and the GM's column
asks every write a co-GM may make."""


@pytest.mark.parametrize(("plan", "role"), ARCHIVE_CASES,
                         ids=[f"{plan.label}-{role}" for plan, role in ARCHIVE_CASES])
def test_an_archived_campaign_refuses_every_write(world: World, plan: Plan, role: str) -> None:
    """The same POST that writes in the matrix above, sent once the campaign is archived:
    403, nothing written, and the member told why (campaigns/archive.py)."""
    target = urlmap.concrete_url(plan, world)
    _prepare(plan, target, world)
    Campaign.objects.filter(pk=_table(target).campaign.pk).update(archived_at=timezone.now())
    before = urlmap.snapshot()

    payload = PAYLOADS.get(plan.key)
    response = world.client(role).post(target.url,
                                       payload(plan, target, world) if payload else {})

    assert response.status_code == 403, (target.url, response.status_code)
    assert "is archived" in response.content.decode()
    assert not urlmap.changed_tables(before, urlmap.snapshot())


def test_archived_writes_are_asked_of_every_kind_of_url() -> None:
    """The archive test above is not empty by accident: it covers a campaign's own pages,
    a character's, a roll's and an import's."""
    keys = {plan.key for plan, _ in ARCHIVE_CASES}
    assert {"table:session-list", "characters:character-xp-spend", "rolls:roll-act",
            "transfer:character-import", "campaigns:campaign-settings"} <= keys


SYSTEM_PAGE_PLANS = [plan for plan in PLANS if plan.key in SYSTEM_PAGES
                     and plan.system == urlmap.page_system(plan.route)]


@pytest.mark.parametrize("plan", SYSTEM_PAGE_PLANS, ids=[p.label for p in SYSTEM_PAGE_PLANS])
def test_a_systems_own_pages_refuse_posts_in_an_archived_campaign(world: World, plan: Plan
                                                                  ) -> None:
    """A system's own pages (Maelstrom's creation steps keep their draft in the session, so
    the table above sees no write of theirs) are refused like the rest once archived."""
    target = urlmap.concrete_url(plan, world)
    Campaign.objects.filter(pk=_table(target).campaign.pk).update(archived_at=timezone.now())

    response = world.client("owner").post(target.url, _page_data(plan, target, world))

    assert response.status_code == 403, (target.url, response.status_code)
    assert "is archived" in response.content.decode()


# --- the admin with the permissions -----------------------------------------------------------

ADMIN_PLANS = [p for p in PLANS if p.admin_model]


@pytest.mark.parametrize("plan", ADMIN_PLANS, ids=[p.label for p in ADMIN_PLANS])
def test_admin_pages_open_for_staff_with_the_permissions(world: World, plan: Plan) -> None:
    """The other side of the 403s above: with the model's permissions a staff user reads
    every page of it (and the matrix's URLs point at rows that exist). GET only."""
    target = urlmap.concrete_url(plan, world)
    before = urlmap.snapshot()

    response = world.editor_client().get(target.url)

    expected = 302 if plan.key.startswith("admin:[") else 200
    if plan.admin_model in READ_ONLY_ADMIN_MODELS and plan.key.endswith(("_add", "_delete")):
        expected = 403
    assert response.status_code == expected, (target.url, response.status_code)
    assert not urlmap.changed_tables(before, urlmap.snapshot())

