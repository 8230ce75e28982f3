"""The encounters' part of the authorization matrix (tests/security/test_authorization_matrix.py)
and of its world (tests/security/urlmap.py): each table's running encounter, the rows of the
encounters' URLs, what their POSTs send, and what each needs done first.

Each table has a running encounter, begun: the owner's character (the party), then a hidden
NPC whose name is a GM-only secret (no answer to anyone else may hold it: the players' order,
sheet, record and fragments leave it out); a second hidden NPC waits outside it, to be added.
It is the owner's character's turn, so the owner's "Done" moves the turn on and the other
player's is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from characters.models import Character
from encounters import services
from encounters.models import Combatant, Encounter

#                     anonymous stranger player owner gm    staff
MEMBERS_200 = "login 404 200 200 200 404"
GM_200 = "login 404 404 404 200 404"
GM_WRITES = "login 404 404 404 302+ 404"
NOT_ALLOWED = "405 405 405 405 405 405"

ROWS: dict[str, tuple[str, str]] = {
    # Every member reads the list and a record; whoever runs the table starts one (the
    # world's is ended first: one at a time).
    "encounters:encounter-list": (MEMBERS_200, GM_WRITES),
    "encounters:encounter-detail": (MEMBERS_200, NOT_ALLOWED),
    "encounters:combatant-add": (NOT_ALLOWED, GM_WRITES),
    "encounters:initiative-set": (NOT_ALLOWED, GM_WRITES),
    # "Next" is the GM's, and the "Done" of the player whose character's turn it is: the
    # other player is told it is not theirs (nothing written).
    "encounters:turn-next": (NOT_ALLOWED, "login 404 302 302+ 302+ 404"),
    "encounters:turn-previous": (NOT_ALLOWED, GM_WRITES),
    "encounters:turn-delay": (NOT_ALLOWED, GM_WRITES),
    # Confirmation pages (GET), then the change.
    "encounters:combatant-remove": (GM_200, GM_WRITES),
    "encounters:encounter-end": (GM_200, GM_WRITES),
}
"""URL key -> (GET, POST) expectations, as the matrix's rows write them."""


def hidden_npc_name(label: str) -> str:
    """The hidden NPC's name in the table of ``label``: a GM-only secret."""
    return f"Lurking {label} NPC QX7"


def spare_npc_name(label: str) -> str:
    """The hidden NPC outside the fight (the add form offers it): a GM-only secret too."""
    return f"Spare {label} NPC QX7"


def running_encounter(campaign: Any, gm: Any, character: Character, label: str
                      ) -> tuple[Encounter, tuple[str, ...]]:
    """Start the table's encounter (see the module docstring) and return it, with the
    secrets only whoever runs the table may read (the NPCs' names)."""
    lurker, spare = (Character.all_objects.create(
        campaign=campaign, owner=gm, name=name, is_npc=True, sheet=character.sheet)
        for name in (hidden_npc_name(label), spare_npc_name(label)))
    encounter = services.encounter_start(campaign=campaign, by=gm, name=f"Matrix fight {label}")
    services.combatants_add(encounter=encounter, characters=[lurker], by=gm)
    services.turn_next(encounter=encounter, shown=services.Shown(1, ""), by=gm)
    assert Encounter.objects.get(pk=encounter.pk).current.character_id == character.pk  # type: ignore[union-attr]  # begun: someone's turn
    return encounter, (lurker.name, spare.name)


def turn(encounter: Encounter) -> dict[str, str]:
    """The turn every page shows now (the "Next" form's hidden fields)."""
    encounter = Encounter.objects.select_related("current").get(pk=encounter.pk)
    current: Combatant | None = encounter.current
    return {"round": str(encounter.round), "turn": str(current.code) if current else ""}


def _lurker(encounter: Encounter) -> dict[str, str]:
    return {"combatant": str(Combatant.objects.get(encounter=encounter, is_npc=True).code)}


def _spare(encounter: Encounter) -> dict[str, Any]:
    spare = Character.npcs.get(campaign_id=encounter.campaign_id, name__startswith="Spare ")
    return {"characters": [str(spare.pk)]}


PAYLOADS: dict[str, Callable[[Encounter], dict[str, Any]]] = {
    "encounters:encounter-list": lambda encounter: {"name": "Matrix new fight"},
    "encounters:combatant-add": _spare,
    # Every combatant rolling (where the system asks a choice), every number left blank: the
    # server rolls each one, a change in every system.
    "encounters:initiative-set": lambda encounter: {
        f"choice-{c.code}": "roll" for c in Combatant.objects.filter(encounter=encounter)},
    "encounters:turn-next": turn,
    "encounters:turn-previous": turn,
    "encounters:turn-delay": turn,
    "encounters:combatant-remove": _lurker,
}
"""URL key -> the POST's data, from the table's encounter."""

QUERIES: dict[str, Callable[[Encounter], dict[str, Any]]] = {
    "encounters:combatant-remove": _lurker,
}
"""URL key -> the GET's query (the confirmation page asks about one combatant)."""


def prepare(key: str, encounter: Encounter, gm: Any) -> None:
    """What the GM does first so that the request can change something: end the running
    encounter before a new one is started; pass a turn so that there is one to go back to."""
    if key == "encounters:encounter-list":
        services.encounter_end(encounter=encounter, by=gm)
    elif key == "encounters:turn-previous":
        now = turn(encounter)
        services.turn_next(encounter=encounter, by=gm,
                           shown=services.Shown(int(now["round"]), now["turn"]))
