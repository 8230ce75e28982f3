"""The GM's table: the campaign's page (the dashboard for its GM) and the GM's changes of the
system's campaign data.

Every view loads its campaign through ``campaigns.permissions``: a non-member gets 404, the
GM-only views give 404 to players too. The dashboard's live regions and the system's panel
are partials of ``table/campaign_detail.html`` and of the system's ``dashboard.html``; its
party cards are the shared ``characters/_party_card.html``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

import systems
from campaigns.invites import invite_context
from campaigns.permissions import get_campaign_as_gm, get_membership
from characters import npcs as npc_services
from characters.cards import CARD_TEMPLATE, party_card_context
from characters.models import Character
from characters.permissions import party_may_read
from core import dice as server_dice
from core.http import AuthenticatedHttpRequest, safe_next_page
from core.regions import (
    LivePage,
    answers_regions,
    asked_regions,
    asks_regions,
    by_event,
    no_regions,
    recall,
    render_regions,
    unchanged,
)
from encounters.board import board_context
from encounters.context import TURN_REGION
from rolls.forms import RequestWhoForm
from rulesets import registry
from rulesets.errors import RuleError
from table import services

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.http import HttpResponse

    from campaigns.models import Campaign

RECENT_ROLLS = 10
LATEST_ROLL_FIELDS = ("id", "code", "campaign", "character__name", "outcome", "summary",
                      "description", "result", "imported", "created_at")
"""What the latest rolls (``campaign-rolls``) read of a roll: its line (its code names it),
and its header (``SheetSystem.roll_header`` reads the description and at most the result);
the campaign's id, which ``campaign.rolls`` sets the campaign from (a query per roll without
it). Not the character's sheet, nor the roller's user row, which would be most of what it
reads: every roll at the table redraws this list for the GM."""


@answers_regions
@login_required
def campaign_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's page. For the GM, the dashboard, play first: the party (a card per
    character with its tracks and XP, edited in place), the latest rolls, "Ask for a roll",
    the system's panel when it is used in play (``SheetSystem.panel_in_play``) and the quick
    NPC roll, side by side at desktop width; the invite link only while nobody plays yet (its
    home, with the members and the system's configuration, is the settings page). For a
    player: the characters, the members and the latest rolls. Live: cards, lists and rolls
    refresh when the campaign's event stream says they changed.

    A player edits only their own sheets and reads their party-mates' only where the
    campaign shows the party's sheets (docs/decisions.md, "The party's sheets"), so fellow
    players' characters are passed separately, linked only then (``readable``). Retired and dead
    characters (dead by the GM's decision, or out of the story by the system's rules) have no
    card and are asked for no roll: they are listed apart, "Out of the party". In an archived
    campaign the cards keep no control that writes. A fixed number of queries, whatever the
    number of members, characters or rolls.
    """
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    version = campaign.page_version(is_gm=membership.is_gm)
    seat = campaign.live_seat(request.user.pk, membership.role)
    if asks_regions(request) and (same := unchanged(request, version) or recall(
            request, version, seat)):
        return same  # nothing at the table changed since these regions were drawn
    members = campaign.memberships.select_related("user")
    everyone = list(campaign.characters.select_related("owner"))
    system = systems.for_campaign(campaign)
    # Retired and dead characters leave the party (its cards, the roll dialogs) and are
    # listed apart, still readable by the GM and their owner: dead by the table's decision
    # (the status) or by the system's rules (out of the story, read from the sheet). An
    # import awaiting the GM stays with the party, marked, until the GM decides.
    gone = {c.pk for c in everyone if c.is_retired or system.is_out_of_play(c)}
    characters = [c for c in everyone if c.pk not in gone]
    out_of_party = [c for c in everyone if c.pk in gone]
    if membership.is_gm:
        sheets, fellow_characters = characters, []
        own_retired, fellows_retired = out_of_party, []
    else:
        sheets = [c for c in characters if c.owner_id == request.user.pk]
        fellow_characters = [c for c in characters if c.owner_id != request.user.pk]
        own_retired = [c for c in out_of_party if c.owner_id == request.user.pk]
        fellows_retired = [c for c in out_of_party if c.owner_id != request.user.pk]
    # The GM's NPCs in play have cards of their own; the players see only those revealed.
    npcs_in_play = (list(Character.npcs.filter(campaign=campaign, status=Character.Status.ACTIVE))
                    if membership.is_gm else [])
    for npc in npcs_in_play:
        npc.campaign = campaign
    players_npcs = [] if membership.is_gm else npc_services.shown_npcs(campaign)
    live = live_board(campaign, membership.is_gm, characters, npcs=[
        *(npc.pk for npc in npcs_in_play),
        *(row["id"] for row in players_npcs if row["tracks"])])
    regions = asked_regions(request, live)
    if regions == []:
        return no_regions(live)
    # A live region asks for itself alone (core/regions.py): the party's cards are drawn
    # only when the page, the party or "Ask for a roll" is asked for, a card alone from
    # its own character; the rolls' query runs only where the template reads them.
    def shown(*ids: str) -> bool:
        """Whether the answer shows any of ``ids``: the whole page, or a region asked."""
        return regions is None or not set(ids).isdisjoint(regions)

    whole_party = membership.is_gm and shown("party", "ask-for-roll")
    context = {
        "campaign": campaign,
        "live_campaign": campaign,
        "live": live,
        "membership": membership,
        "system": system,
        # Read-only: the party cards keep no write control (their partial drops them).
        "archived": campaign.is_archived,
        # The GM's panel of the system (Shahquest's tension pool, skill lists...): its forms
        # are built only for the page and the panel (a roll redraws the latest rolls alone).
        **(system.dashboard_context(campaign)
           if membership.is_gm and shown("system-panel") else {}),
        "members": members,
        # The GM's dashboard: a card per character with the tracks that matter at the table.
        "party": [party_card_context(c) for c in characters] if whole_party else [],
        "npc_cards": [party_card_context(n) for n in npcs_in_play] if shown("npcs") else [],
        "shown_npcs": players_npcs,
        "npc_examples": getattr(registry.get(campaign.ruleset).module, "QUICK_ROLL_EXAMPLES", ()),
        "npc_text": request.GET.get("npc", "")[:200],
        # The "Ask for a roll" form: whom (not a character out of the story, nor one
        # awaiting the GM) and what the system lets the GM ask for (none: no form).
        "request_form": RequestWhoForm(characters=[
            (c.pk, c.name) for c in characters
            if c.in_play and not system.is_out_of_play(c)]) if shown("ask-for-roll") else None,
        "request_what": system.request_form(campaign) if shown("ask-for-roll") else None,
        "sheets": sheets,
        "fellow_characters": fellow_characters,
        # The party-mates' sheets this player may read (Campaign.party_sheets), linked.
        "readable": {c.pk for c in [*fellow_characters, *fellows_retired] if party_may_read(c)},
        "own_retired": own_retired,
        "fellows_retired": fellows_retired,
        "recent_limit": RECENT_ROLLS,
        "rolls": campaign.rolls.filter(parent__isnull=True)
        .visible_to(is_gm=membership.is_gm)
        .select_related("character").only(*LATEST_ROLL_FIELDS)[:RECENT_ROLLS],
        **invite_context(request, campaign, membership.is_gm),
        # The encounter's card (turn-order): the GM's with its forms, or the players' view.
        **board_context(campaign, is_gm=membership.is_gm, viewer_id=request.user.pk,
                        regions=regions),
    }
    if regions is not None:
        cards = {f"card-{c.pk}": (CARD_TEMPLATE, {"card": party_card_context(c)})
                 for c in [*characters, *npcs_in_play] if f"card-{c.pk}" in regions}
        return render_regions(request, live, regions, (
            "table/campaign_detail.html", system.template_dashboard, "_live.html"), context,
            own=cards, seat=seat)
    return render(request, "table/campaign_detail.html", context)



def live_board(campaign: Campaign, is_gm: bool, party: list[Character],
               npcs: Sequence[int] = ()) -> LivePage:
    """What is live on the campaign's page (core/regions.py), by event. For the GM: a
    character's track or XP change redraws its card, and a track change the system's panel
    in play too (it may show the party's tracks: Shahquest's plot points); a change of the
    party (a character joins, leaves, changes hands or is renamed) or of the campaign's
    system data redraws the party, "Ask for a roll", the panel and the page's own live
    elements (a new card needs a new element). For everyone: a roll, or a change of the
    party (the rolls show names), redraws the latest rolls; a change of the party the
    characters' list; an encounter's change the order (``turn-order``, encounters). None in an
    archived campaign.

    Args:
        campaign: the campaign.
        is_gm: whether the viewer runs its table (its GM or a co-GM).
        party: the characters with a card (in the party: not retired, not out of play).
        npcs: the NPCs whose track changes the viewer's page shows: for the GM those in
            play (each a card of the NPCs' section), for a player those revealed with their
            tracks. A change of the NPCs (``npcsChanged``) redraws the GM's section, or the
            players' list of the NPCs they see.
    """
    url = campaign.get_absolute_url()
    if campaign.is_archived:
        return LivePage(url=url, regions=())
    panel: tuple[str, ...] = ()
    if is_gm and systems.for_campaign(campaign).panel_in_play:
        panel = ("system-panel",)
    # The encounter's order (encounters): its changes, an NPC shown or hidden, a character
    # handed to another player ("yours"). First: before live-regions in any one event's ids.
    hears: list[tuple[str, tuple[str, ...]]] = [
        (event, (TURN_REGION,)) for event in ("encounterChanged", "npcsChanged", "partyChanged")]
    if is_gm:
        for c in party:
            hears += [(f"trackChanged-{c.pk}", (f"card-{c.pk}", *panel)),
                      (f"xpChanged-{c.pk}", (f"card-{c.pk}",))]
        board = ("party", "ask-for-roll", *panel)
        hears += [("partyChanged", board), ("campaignChanged", board)]
        hears += [(f"trackChanged-{pk}", (f"card-{pk}",)) for pk in npcs]
        hears += [("npcsChanged", ("npcs",)), ("npcsChanged", ("live-regions",))]
    else:
        hears += [(f"trackChanged-{pk}", ("npcs-shown",)) for pk in npcs]
        # A newly revealed NPC's track changes need an element of their own.
        hears += [("npcsChanged", ("npcs-shown",)), ("npcsChanged", ("live-regions",))]
    hears += [("partyChanged", ("campaign-characters", "campaign-rolls")),
              ("rollMade", ("campaign-rolls",))]
    if is_gm:
        # Last: swapping the page's live elements detaches the element whose request is
        # being answered, and htmx then finds no target for the ids after it.
        # Only when the party changes (new cards need new elements): a redraw replaces the
        # elements whose requests may be in flight, and htmx drops their answers.
        hears += [("partyChanged", ("live-regions",))]
    regions = by_event(hears)
    # After a reconnection the party (which holds the cards) is asked for once, not each
    # card again inside it; the live elements last, as above.
    sync = tuple(sorted(dict.fromkeys(i for region in regions for i in region.ids
                                      if not i.startswith("card-")),
                        key=lambda i: i == "live-regions"))
    return LivePage(url=url, regions=regions, sync=sync,
                    version=campaign.page_version(is_gm=is_gm))


@require_POST
@login_required
def campaign_system_action(request: AuthenticatedHttpRequest, pk: int, action: str
                           ) -> HttpResponse:
    """A GM change of the campaign's system data (``action`` names it: grow or roll the
    Shahquest tension pool, edit the Genesys skill list). The system's form checks the
    input, its rule makes the change atomically; HTMX gets the changed panel, a plain POST
    a redirect with a message: to the page its ``next`` field names when that is a page of
    this site (the settings page sends one), else to the dashboard. Players and strangers
    get 404."""
    campaign = get_campaign_as_gm(request.user, pk)
    system = systems.for_campaign(campaign)
    change = system.campaign_actions.get(action)
    if change is None:
        raise Http404("No such change in this campaign.")
    form = change.form(request.POST)
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            campaign, success, _ = services.campaign_system_change(
                campaign=campaign, action=change, data=form.cleaned_data, by=request.user,
                rng=server_dice.get_rng())
        except RuleError as exc:
            error = str(exc)
    if request.htmx:
        context = {"campaign": campaign, "system": system, "error": error,
                   "success": success, **system.dashboard_context(campaign)}
        return render(request, f"{system.template('dashboard.html')}#{change.partial}",
                      context)
    (messages.error if error else messages.success)(request, error or success)
    next_page = safe_next_page(request)
    # Not redirect(next_page): it would read a bare word as a view's name to reverse.
    return HttpResponseRedirect(next_page) if next_page else redirect(campaign)
