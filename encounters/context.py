"""What a page shows of an encounter, built apart for the GM and for the players
(docs/encounters.md, "Who sees what").

The GM's view (:func:`gm_view`) holds every combatant. The players' (:func:`players_view`) is
built from the rows the players may see and nothing else: a hidden NPC
(``Combatant.shown_to_players`` false) is left out of the order and never named, and its turn
is "The GM's turn"; no combatant's id or code enters it but the viewer's own character's, when
it is that character's turn (its "Done" posts it). Templates read these views, never the
encounter's rows, so no page, fragment or event a player gets can show what the GM hides
(docs/security.md, "Hidden activity").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import systems
from encounters.models import Combatant, Encounter

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character

GM_TURN = "The GM's turn"
"""What the players read while a hidden NPC acts."""
NOT_BEGUN = "Not begun: the GM is setting the order"
NOBODY_LEFT = "No one is left standing"
TURN_REGION = "turn-order"
"""The live region of the order, on the campaign's page and on every sheet."""


@dataclass(frozen=True)
class Place:
    """One combatant in the order, as a viewer sees it.

    Attributes:
        name: its name as it joined.
        npc: whether it is one of the GM's NPCs.
        initiative: its initiative in the system's words ("17", "Fast"; "" when unset).
        current: whether it is its turn.
        delayed: whether it gave up its place this round.
        yours: whether it is a character of the viewer's own (never an NPC).
        hidden: in the GM's view, an NPC the players do not see (never in theirs).
        code: in the GM's view, its code (for its Remove link); "" in the players'.
    """

    name: str
    npc: bool
    initiative: str
    current: bool
    delayed: bool
    yours: bool = False
    hidden: bool = False
    code: str = ""


@dataclass(frozen=True)
class TurnView:
    """A running encounter's order and turn, as one viewer may see it.

    Attributes:
        encounter_id: the encounter (its URLs take it).
        name: its name.
        round: the round, from 1.
        begun: whether the first turn has been taken.
        order: the combatants still in the fight, in order.
        out: those removed, defeated, in order.
        whose: whose turn it is, in words ("Rook's turn", "The GM's turn").
        current: the name of whose turn it is, "" when none or hidden from the viewer.
        gm_turn: the players' view of a hidden NPC's turn.
        yours: the name of the viewer's own character whose turn it is, else "".
        turn: the code a "Next" (the GM's) or "Done" (the player's, only while it is their
            character's turn) posts with the round, so that a page that saw an older turn
            changes nothing; "" when it may post none.
        current_character: the id of the character whose turn it is, when the viewer may
            see it (a sheet says "Your turn" on its own character's), else None.
    """

    encounter_id: int
    name: str
    round: int
    begun: bool
    order: tuple[Place, ...]
    out: tuple[Place, ...]
    whose: str
    current: str
    gm_turn: bool
    yours: str
    turn: str
    current_character: int | None


def running(campaign: Campaign) -> tuple[Encounter | None, list[Combatant]]:
    """The campaign's running encounter and its combatants in order, each with its character
    (one query when there is none, two when there is)."""
    encounter = Encounter.objects.filter(campaign=campaign, ended_at__isnull=True).first()
    if encounter is None:
        return None, []
    encounter.campaign = campaign
    return encounter, list(encounter.combatants.select_related("character"))


def _label(system: systems.SheetSystem, combatant: Combatant) -> str:
    data = combatant.initiative or {}
    roll = data.get("roll")
    return system.initiative_label(choice=str(data.get("choice", "")),
                                   roll=roll if isinstance(roll, int) else None)


def _yours(combatant: Combatant, viewer_id: int | None) -> bool:
    character = combatant.character
    return (viewer_id is not None and not combatant.is_npc and character is not None
            and character.owner_id == viewer_id)


def gm_view(encounter: Encounter, combatants: Sequence[Combatant], *,
            viewer_id: int | None = None) -> TurnView:
    """Everything of the encounter, for whoever runs the table (the GM or a co-GM).

    Args:
        encounter: the running encounter.
        combatants: its combatants in order (:func:`running`), with their characters.
        viewer_id: the GM's user id (a character of their own is "yours").
    """
    system = systems.for_campaign(encounter.campaign)

    def place(c: Combatant) -> Place:
        return Place(name=c.name, npc=c.is_npc, initiative=_label(system, c),
                     current=c.pk == encounter.current_id, delayed=c.delayed,
                     yours=_yours(c, viewer_id), hidden=not c.shown_to_players, code=str(c.code))

    current = next((c for c in combatants if c.pk == encounter.current_id), None)
    whose = (f"{current.name}'s turn" if current is not None
             else NOT_BEGUN if not encounter.begun else NOBODY_LEFT)
    return TurnView(
        encounter_id=encounter.pk, name=encounter.name, round=encounter.round,
        begun=encounter.begun,
        order=tuple(place(c) for c in combatants if not c.defeated),
        out=tuple(place(c) for c in combatants if c.defeated),
        whose=whose, current=current.name if current is not None else "", gm_turn=False,
        yours=current.name if current is not None and _yours(current, viewer_id) else "",
        turn=str(current.code) if current is not None else "",
        current_character=current.character_id if current is not None else None)


def players_view(encounter: Encounter, combatants: Sequence[Combatant], *,
                 viewer_id: int | None = None) -> TurnView:
    """What the players may see of the encounter: the combatants they see (every player
    character, the NPCs the GM shows), whose turn it is ("The GM's turn" for a hidden NPC's),
    and, for ``viewer_id``, whether it is their character's turn.

    Args:
        encounter: the running encounter.
        combatants: its combatants in order (:func:`running`), with their characters.
        viewer_id: the player's user id, or None for what every player sees alike (what the
            services compare to tell whether a change is the GM's alone).
    """
    system = systems.for_campaign(encounter.campaign)
    seen = [c for c in combatants if c.shown_to_players]

    def place(c: Combatant) -> Place:
        return Place(name=c.name, npc=c.is_npc, initiative=_label(system, c),
                     current=c.pk == encounter.current_id, delayed=c.delayed,
                     yours=_yours(c, viewer_id))

    current = next((c for c in combatants if c.pk == encounter.current_id), None)
    begun = encounter.begun
    visible = current is not None and current.shown_to_players
    if current is None:
        whose = NOT_BEGUN if not begun else NOBODY_LEFT
    else:
        whose = f"{current.name}'s turn" if visible else GM_TURN
    yours = current is not None and _yours(current, viewer_id)
    return TurnView(
        encounter_id=encounter.pk, name=encounter.name, round=encounter.round, begun=begun,
        order=tuple(place(c) for c in seen if not c.defeated),
        out=tuple(place(c) for c in seen if c.defeated),
        whose=whose, current=current.name if current is not None and visible else "",
        gm_turn=current is not None and not visible,
        yours=current.name if current is not None and yours else "",
        turn=str(current.code) if current is not None and yours else "",
        current_character=current.character_id if current is not None and visible else None)


def view_for(encounter: Encounter, combatants: Sequence[Combatant], *, is_gm: bool,
             viewer_id: int | None) -> TurnView:
    """The GM's view for whoever runs the table, the players' for anyone else."""
    build = gm_view if is_gm else players_view
    return build(encounter, combatants, viewer_id=viewer_id)


def sheet_turn_context(character: Character, *, is_gm: bool, reads_only: bool = False,
                       wanted: set[str] | None = None) -> dict[str, Any]:
    """What a character's sheet shows of the running encounter (its ``turn-order`` region):
    ``turn`` (a :class:`TurnView`, or None when no encounter runs or the region is not
    asked for) and ``turn_here``, whether it is this character's turn. The view is the GM's
    for whoever runs the table; else the players', as the sheet's owner sees it, or with no
    character of the viewer's for a party-mate reading it (``reads_only``: no "Done"). One
    query without an encounter, two with one; none when ``wanted`` (live region ids asked)
    leaves it out."""
    if wanted is not None and TURN_REGION not in wanted:
        return {"turn": None, "turn_here": False}
    encounter, combatants = running(character.campaign)
    if encounter is None:
        return {"turn": None, "turn_here": False}
    owner = None if is_gm or reads_only else character.owner_id
    view = view_for(encounter, combatants, is_gm=is_gm, viewer_id=owner)
    return {"turn": view, "turn_here": view.current_character == character.pk}
