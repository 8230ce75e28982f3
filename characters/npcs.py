"""The GM's NPCs and adversaries: made from a stat block or as copies, revealed to the players
or not, archived and brought back (docs/npcs.md).

An NPC is a ``Character`` with ``is_npc`` (characters.models): its sheet, rolls and track
actions are the system's as for any character. Every change here runs in one transaction and
is announced once committed as ``npcsChanged``: to the GM's pages only, unless it changes what
the players see (an NPC revealed or hidden, or one they see archived or renamed).

Each change is logged too (``character`` entries of the activity log, ``npc-*`` actions), in
its transaction: the GM's alone while the players do not see the NPC (docs/history.md,
"Activity log").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.db import transaction

import systems
from characters.ledger import lock_character
from characters.models import Character
from core.live import announce
from history.facts import character_facts
from history.log import changes, record
from history.models import Activity
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign

RULE_NPCS = "docs/npcs.md"
COPIES_MAX = 10
"""The most copies one "more like this one" makes (a mob is made ten at a time)."""
NAME_MAX = Character._meta.get_field("name").max_length or 80

_NUMBERED = re.compile(r"^(?P<stem>.*?)(?: (?P<number>\d+))?$")


def _announce(campaign_id: int, *, players_see: bool) -> None:
    """Tell the campaign's pages that its NPCs changed (``npcsChanged``), the players' too
    only when ``players_see``."""
    announce(campaign_id, "npcsChanged", gm_only=not players_see)


def npc_create(*, campaign: Campaign, by: User, data: dict[str, Any]) -> Character:
    """A new NPC of the campaign's system from its valid stat-block form's ``cleaned_data``
    (``SheetSystem.npc_form``): hidden from the players, with no XP and no ledger.

    Args:
        campaign: the campaign (its system builds the sheet).
        by: the GM or co-GM making it; kept as the row's ``owner``, which gives no rights.
        data: the form's ``cleaned_data``: ``name``, maybe ``concept``, the system's fields.

    Returns:
        The new NPC.

    Raises:
        RuleError: the system's rules refuse the sheet (``SheetSystem.npc_sheet`` and
            ``check_sheet``); nothing is written.
    """
    system = systems.for_campaign(campaign)
    sheet = system.npc_sheet(campaign, data)
    system.check_sheet(sheet, campaign)
    with transaction.atomic():
        npc = Character.all_objects.create(
            campaign=campaign, owner=by, is_npc=True, name=str(data["name"]).strip(),
            concept=str(data.get("concept") or "").strip(), sheet=sheet)
        # A new NPC is hidden: its making is the GM's secret.
        record(campaign_id=campaign.pk, kind=Activity.Kind.CHARACTER, action="npc-create",
               text=f"Made the NPC {npc.name}.", by=by, character=npc, gm_only=True)
        _announce(campaign.pk, players_see=False)
    return npc


def numbered_names(name: str, count: int, taken: set[str]) -> list[str]:
    """``count`` names for copies of ``name``, numbered after it and clear of ``taken``.

    "Goon" (or "Goon 1") gives "Goon 2", "Goon 3", ...; "Goon 4" gives "Goon 5", ...; a name
    already in ``taken`` is skipped. A long stem is cut so that each name fits the column.

    Args:
        name: the source's name.
        count: how many names, at least 1.
        taken: the names already in the campaign (compared as written).

    Returns:
        ``count`` distinct names, in order.
    """
    match = _NUMBERED.match(name.strip())
    stem = (match.group("stem") if match else name).strip() or name.strip()
    number = int(match.group("number")) if match and match.group("number") else 1
    names: list[str] = []
    while len(names) < count:
        number += 1
        suffix = f" {number}"
        candidate = stem[:NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate not in taken and candidate not in names:
            names.append(candidate)
    return names


def npc_copy(*, source: Character, by: User, count: int = 1, name: str = "") -> list[Character]:
    """Copies of a character or an NPC as new NPCs, all or none: each with the source's
    sheet (its tracks as they stand), concept and, from an NPC, the GM's notes and what the
    players see of it; from a player character nothing of the player's writing, and hidden.

    Args:
        source: the character or NPC copied (loaded for the GM).
        by: the GM or co-GM.
        count: 1 to :data:`COPIES_MAX`.
        name: the copy's name when ``count`` is 1; blank (or for several copies) the
            source's name numbered (:func:`numbered_names`).

    Returns:
        The new NPCs, in name order.

    Raises:
        RuleError: a count out of range, citing :data:`RULE_NPCS`; nothing is written.
    """
    if not 1 <= count <= COPIES_MAX:
        raise RuleError(f"Make 1 to {COPIES_MAX} copies at a time, not {count}.", RULE_NPCS)
    with transaction.atomic():
        locked = lock_character(source.pk)  # the sheet as it stands, not as the page saw it
        taken = set(Character.all_objects.filter(campaign_id=locked.campaign_id)
                    .values_list("name", flat=True))
        names = [name.strip()] if name.strip() and count == 1 else numbered_names(
            locked.name, count, taken)
        copies = [Character.all_objects.create(
            campaign_id=locked.campaign_id, owner=by, is_npc=True, name=copy_name,
            concept=locked.concept, sheet=locked.sheet,
            gm_notes=locked.gm_notes if locked.is_npc else "",
            npc_shown=locked.npc_shown if locked.is_npc else Character.Shown.HIDDEN)
            for copy_name in names]
        for copy in copies:
            # A copy is seen as its source is (a player character's copy is hidden).
            record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER,
                   action="npc-copy", text=f"Made the NPC {copy.name}, a copy of "
                   f"{locked.name}.", by=by, character=copy,
                   gm_only=copy.npc_shown == Character.Shown.HIDDEN)
        _announce(locked.campaign_id,
                  players_see=any(c.npc_shown for c in copies))
    return copies


SHOWN_TEXT: dict[str, str] = {
    Character.Shown.HIDDEN: "Hid {name} from the players.",
    Character.Shown.NAME: "Showed the players {name} by name.",
    Character.Shown.TRACKS: "Showed the players {name} and its tracks.",
}
"""The activity log's words for each choice of :func:`npc_show` (``{name}``: the NPC's)."""


def npc_show(*, npc: Character, shown: str, by: User) -> Character:
    """Set what the players see of an NPC: nothing, its name, or its name and tracks.

    Raises:
        RuleError: not an NPC, or an unknown choice, citing :data:`RULE_NPCS`; nothing is
            written.
    """
    if shown not in Character.Shown.values:
        raise RuleError(f"{shown!r} is not a choice of what the players see.", RULE_NPCS)
    with transaction.atomic():
        locked = lock_character(npc.pk)
        if not locked.is_npc:
            raise RuleError(f"{locked.name} is a player's character, always seen by the "
                            "party.", RULE_NPCS)
        was = locked.npc_shown
        locked.npc_shown = shown
        locked.save(update_fields=["npc_shown", "updated_at"])
        if was != shown:
            # The players hear of it when they saw the NPC before or see it now.
            record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER,
                   action="npc-show", text=SHOWN_TEXT[shown].format(name=locked.name),
                   by=by, character=locked, gm_only=not (was or shown))
        _announce(locked.campaign_id, players_see=bool(was or shown))
    return locked


def npc_archive(*, npc: Character, archived: bool, by: User) -> Character:
    """Archive an NPC (out of the dashboard, the encounters' choices and the players' view,
    its sheet and rolls kept) or bring it back. Archived is ``Character.Status.RETIRED``.

    Raises:
        RuleError: not an NPC, or already as asked, citing :data:`RULE_NPCS`; nothing is
            written.
    """
    status = Character.Status.RETIRED if archived else Character.Status.ACTIVE
    with transaction.atomic():
        locked = lock_character(npc.pk)
        if not locked.is_npc:
            raise RuleError(f"{locked.name} is a player's character: retire it from its "
                            "sheet instead.", RULE_NPCS)
        if locked.status == status:
            raise RuleError(f"{locked.name} is already "
                            f"{'archived' if archived else 'in play'}.", RULE_NPCS)
        before = character_facts(locked, items=False)
        locked.status = status
        locked.save(update_fields=["status", "updated_at"])
        record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER,
               action="npc-archive" if archived else "npc-restore",
               text=f"Archived the NPC {locked.name}." if archived else
               f"Brought the NPC {locked.name} back into play.", by=by, character=locked,
               changed=changes(before, character_facts(locked, items=False)),
               gm_only=not locked.npc_shown)
        _announce(locked.campaign_id, players_see=bool(locked.npc_shown))
    return locked


def shown_npcs(campaign: Campaign) -> list[dict[str, Any]]:
    """What the players see of the campaign's NPCs in play that the GM has revealed: one
    ``{"id": int, "name": str, "tracks": [TrackLine, ...]}`` per NPC, in name order, the
    tracks only where the GM shows them. One query. Nothing else of the row reaches a
    template (no sheet, concept or notes)."""
    system = systems.for_campaign(campaign)
    rows = (Character.npcs.filter(campaign=campaign, status=Character.Status.ACTIVE)
            .exclude(npc_shown=Character.Shown.HIDDEN)
            .only("id", "name", "npc_shown", "sheet", "campaign_id"))
    shown = []
    for npc in rows:
        npc.campaign = campaign
        tracks = system.track_lines(npc) if npc.npc_shown == Character.Shown.TRACKS else []
        shown.append({"name": npc.name, "id": npc.pk, "tracks": tracks})
    return shown
