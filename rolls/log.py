"""The roll log's one writer for every system: append a roll, announce it after commit.

Below the systems and the services that compose them: a system's action that rolls (a tension
pool, an NPC roll) stores through :func:`roll_store` as the generic services do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from core.live import announce
from history.log import record
from history.models import Activity
from rolls.models import Roll
from rolls.rolled import RolledResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character

__all__ = ["just_made", "roll_store"]


def just_made(roll: Roll) -> Roll:
    """``roll``, just inserted, knowing that no request is answered by it yet: only the
    service making it may set a request's ``answer`` (which then caches itself on the roll),
    so showing a new roll needs no query to ask. Returns the same Roll."""
    Roll.answers.related.set_cached_value(roll, None)
    return roll


def roll_store(
    *, campaign_id: int, character: Character | None, ruleset: str,
    rolled: RolledResult, by: User, parent: Roll | None = None,
    gm_only: bool = False, readings: Mapping[str, str] | None = None,
) -> Roll:
    """Append a roll of any system to the log and announce it after commit (to the GM alone
    when ``gm_only``). ``rolled.result`` is the engine's result: its ``as_dict()`` is kept
    whole in ``Roll.result`` for the system's ``_roll.html`` to draw. A follow-up of a GM-only
    roll is GM-only too, whatever the caller says. ``readings`` are the campaign's table
    readings the roll was made under, where they differ from the seed's (``Readings.changed()``);
    a follow-up keeps its roll's. The roll's activity entry (its pool and verdict, GM-only
    with it) is written beside it. Call inside the transaction that made the roll."""
    gm_only = gm_only or (parent is not None and parent.gm_only)
    readings = dict(parent.readings) if parent is not None else dict(readings or {})
    data = rolled.result.as_dict()
    roll = just_made(Roll.objects.create(
        campaign_id=campaign_id, character=character, rolled_by=by, ruleset=ruleset,
        kind=rolled.kind, parent=parent, description=rolled.description[:2000],
        pool=data.get("pool", {}) if isinstance(data.get("pool"), dict) else {},
        outcome=rolled.outcome, net=rolled.net,
        summary=(rolled.summary or rolled.result.summary())[:200], result=data,
        gm_only=gm_only, readings=readings,
    ))
    record(campaign_id=campaign_id, kind=Activity.Kind.ROLL, action=roll.kind,
           text=f"{roll.description}: {roll.summary}", by=by, character=character,
           gm_only=gm_only, roll=roll)
    announce(campaign_id, "rollMade", character_id=character.pk if character else None,
             gm_only=gm_only, subject=roll)
    return roll
