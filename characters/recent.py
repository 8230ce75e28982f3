"""A character's recent rolls: what the recent-rolls box every sheet shares reads
(characters/_recent_rolls.html, the ``recent-rolls`` live region of the sheet). A new roll's
line reaches open sheets with its event (characters.live).
"""

from __future__ import annotations

from django.db.models import OuterRef, Prefetch, Subquery, prefetch_related_objects

from characters.models import Character
from rolls.models import Roll

# What the recent-rolls box (characters/_recent_rolls.html) reads of a roll and of its
# follow-ups. The rest of a row (the pool, the dice, the engine's whole result as JSON) is
# most of its bytes and of the time spent reading it.
_RECENT_ROLL_FIELDS = ("id", "code", "description", "outcome", "summary", "imported",
                       "created_at")
_FOLLOWUP_FIELDS = ("id", "parent_id", "kind", "summary")

RECENT_ROLLS = 5
"""How many rolls the box shows (its list's ``data-live-limit``: a roll's line pushes the
oldest out)."""


def recent_rolls(character: Character, *fields: str) -> list[Roll]:
    """The character's :data:`RECENT_ROLLS` newest top-level rolls, newest first, each with
    its follow-ups as the list ``roll.followup_list`` (newest first): one query, and one
    more when any of them has follow-ups, whatever their number.

    Only the columns the recent-rolls box (characters/_recent_rolls.html) shows are read,
    plus ``fields`` (a system's ``_roll.html`` may read more of the roll).
    """
    # Most rolls never get a follow-up: the first query says which did (the id of one, if
    # any), so that a list of rolls without any reads nothing more. A scalar subquery rather
    # than EXISTS: PostgreSQL turns an EXISTS into a hash of every follow-up in the table,
    # built before the LIMIT applies, where this probes the parent index once per roll shown.
    followup = Roll.objects.filter(parent=OuterRef("pk")).order_by().values("pk")[:1]
    rolls = list(
        Roll.objects.filter(character=character, parent__isnull=True)
        .only(*_RECENT_ROLL_FIELDS, *fields).annotate(a_followup=Subquery(followup))[:RECENT_ROLLS]
    )
    with_followups: list[Roll] = []
    for roll in rolls:
        if roll.a_followup is not None:  # type: ignore[attr-defined]  # django-stubs: RollQuerySet yields plain Roll, dropping the annotate() attribute
            with_followups.append(roll)
        else:
            roll.followup_list = []  # type: ignore[attr-defined]  # django-stubs: Prefetch(to_attr=) attributes are not on the model
    if with_followups:
        prefetch_related_objects(with_followups, Prefetch(
            "followups", queryset=Roll.objects.only(*_FOLLOWUP_FIELDS), to_attr="followup_list"))
    return rolls
