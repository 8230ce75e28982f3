"""The Shahquest GM's tension pool on the campaign dashboard (Shahquest wiki, Tension Pool).

Plugged into ``systems.shahquest.system`` as its ``campaign_actions``
(:data:`systems.shahquest.actions.CAMPAIGN_ACTIONS`), ``default_system_data``
(:func:`default_system_data`), ``check_system_data``
(:func:`systems.shahquest.checks.check_system_data`) and ``dashboard_context``
(:func:`dashboard_context`). The rules live in ``rulesets.shahquest``
(:class:`~rulesets.shahquest.TensionPool`, :func:`~rulesets.shahquest.roll_general_danger`);
this module keeps the pool in ``Campaign.system_data`` (reads and writes it) and draws the
panel; the GM's moves, one action per move of the seed, are in
:mod:`systems.shahquest.actions` and their forms in :mod:`systems.shahquest.forms`:

- ``tension-start``: set the campaign's starting pool ("3d6", or stepped up and spread for a
  challenging adventure: "d8 2d6") and reset the pool to it (Shahquest wiki, Tension Pool);
- ``tension-opportunity``: the GM activates a player's opportunity die: a d6 (or the
  opportunity die itself, as the Dice Pools example adds "the d8") joins the pool or a tension
  die steps up, and the player's character gets a plot point in the same
  transaction (Shahquest wiki, Building the Tension; Add an Opportunity die to the Tension
  Pool);
- ``tension-take``: a tension die leaves the pool, set aside for an NPC's roll or spent on
  effort or effect by matching its size (Shahquest wiki, Using the Tension Pool);
- ``tension-return``: a die set aside comes back, and the acting or reacting player's
  character gets a plot point; ``tension-drop``: it does not come back (it rolled an
  opportunity the player activated, or the GM keeps the plot point);
- ``tension-danger``: the whole pool is rolled as general danger, with an optional setting
  die and complication dice; two dice make the effort total and one the effect (Shahquest
  wiki, Tension Pool as General Danger). The roll is stored in the roll log.

``Campaign.system_data`` shape (a factory campaign may hold ``{}``: every reader falls back
to :func:`default_system_data`)::

    {
        "tension_pool": {"system": "shahquest", "tension_pool": [8, 6, 6]},  # TensionPool.as_dict()
        "starting_tension": [6, 6, 6],   # die sizes, largest first
        "tension_aside": [8],            # dice taken out for an NPC roll, not yet returned
        "last_danger": None | {"roll_id": int, "description": str, "note": str,
                                "result": RollResult.as_dict()},
    }

Every action runs inside ``table.services.campaign_system_change`` (campaign locked,
all or nothing): a :class:`RuleError` refuses the move, names the seed section, and nothing
is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulesets.dice import STEP_DICE, format_dice, step_up
from rulesets.errors import RuleError
from rulesets.shahquest import STARTING_TENSION, TensionPool

if TYPE_CHECKING:
    from campaigns.models import Campaign

__all__ = [
    "MAX_TENSION_DICE",
    "PANEL",
    "ROLL_IDS",
    "dashboard_context",
    "default_system_data",
    "tension_state",
]

PANEL = "system-panel"
"""The partial (and DOM id) of ``systems/shahquest/dashboard.html`` every action answers."""

MAX_TENSION_DICE = 40
"""Most dice a starting pool or a complication list may hold (a guard against runaway
input, not a game rule)."""

ROLL_IDS: tuple[tuple[str, str], ...] = (("last_danger", "roll_id"),)
"""The roll id this data keeps: the panel links the last general-danger roll
(``system_data["last_danger"]["roll_id"]``); the sheet layer's ``system_data_roll_ids``."""

_SOURCE = "Shahquest wiki"
_TENSION = f"{_SOURCE}, Tension Pool"
_BUILDING = f"{_SOURCE}, Building the Tension"
_USING = f"{_SOURCE}, Using the Tension Pool"
_DANGER = f"{_SOURCE}, Tension Pool as General Danger"


# --- the stored state ------------------------------------------------------------------------


def default_system_data() -> dict[str, Any]:
    """A new Shahquest campaign's system data: a 3d6 tension pool, 3d6 to start each
    adventure, no die aside, no general-danger roll yet (Shahquest wiki, Tension Pool: "The
    Tension Pool usually starts at 3d6").

    Returns:
        ``{"tension_pool": {"system": "shahquest", "tension_pool": [6, 6, 6]},
        "starting_tension": [6, 6, 6], "tension_aside": [], "last_danger": None}``.
    """
    return {
        "tension_pool": TensionPool.start().as_dict(),
        "starting_tension": list(STARTING_TENSION),
        "tension_aside": [],
        "last_danger": None,
    }


def _sizes(value: object, what: str, rule: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(size, int) and not isinstance(size, bool) and size in STEP_DICE
        for size in value
    ):
        raise RuleError(f"the stored {what} is not a list of step dice: {value!r}", rule)
    return tuple(sorted(value, reverse=True))


def tension_state(system_data: Mapping[str, Any]) -> dict[str, Any]:
    """Read the tension pool's state from ``Campaign.system_data``, filling any missing key
    from :func:`default_system_data` (a factory campaign's ``{}`` reads as a fresh 3d6 pool).

    Args:
        system_data: the campaign's ``system_data``.

    Returns:
        ``{"pool": TensionPool, "starting": tuple[int, ...], "aside": tuple[int, ...],
        "last_danger": dict | None}``.

    Raises:
        RuleError: a stored value that is not the shape above (Shahquest wiki, Tension Pool).
    """
    data = {**default_system_data(), **system_data}
    stored_pool = data["tension_pool"]
    if not isinstance(stored_pool, Mapping):
        raise RuleError(f"the stored tension pool is not readable: {stored_pool!r}", _TENSION)
    last = data["last_danger"]
    return {
        "pool": TensionPool.from_dict(stored_pool),
        "starting": _sizes(data["starting_tension"], "starting tension pool", _TENSION),
        "aside": _sizes(data["tension_aside"], "dice set aside", _USING),
        "last_danger": last if isinstance(last, Mapping) else None,
    }


def _save(campaign: Campaign, state: Mapping[str, Any]) -> None:
    """Write ``state`` (the shape :func:`tension_state` returns) into the locked campaign's
    ``system_data`` in memory, keeping every other key (the caller saves)."""
    pool: TensionPool = state["pool"]
    campaign.system_data = {
        **(campaign.system_data or {}),
        "tension_pool": pool.as_dict(),
        "starting_tension": list(state["starting"]),
        "tension_aside": list(state["aside"]),
        "last_danger": state["last_danger"],
    }


def _load(campaign: Campaign) -> dict[str, Any]:
    return tension_state(campaign.system_data or {})


def _die(size: int) -> str:
    return f"d{size}"


def _pool_text(pool: TensionPool) -> str:
    return format_dice(pool.dice) or "empty"


# --- the panel -------------------------------------------------------------------------------

_STATES = {"effort": "success", "effect": "plain", "opportunity": "botch", "unused": "ignored"}
_SOURCES = {"tension": "tension die", "setting": "setting die", "complication": "complication"}


def _danger_dice(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each die of a stored general-danger roll for the panel: size, face, where it came
    from, its role (effort, effect, opportunity, unused) and the ``rolls/_die.html`` state."""
    effort = set(result.get("effort_dice", []))
    effect = set(result.get("effect_dice", []))
    pool_dice = result.get("pool", {}).get("dice", [])
    rows = []
    for index, die in enumerate(result.get("dice", [])):
        if index in effort:
            role = "effort"
        elif index in effect:
            role = "effect"
        elif die.get("face") == 1:
            role = "opportunity"
        else:
            role = "unused"
        source = pool_dice[index].get("source", "") if index < len(pool_dice) else ""
        where = _SOURCES.get(source, "die")
        rows.append({
            "size": die.get("size"), "face": die.get("face"), "source": source,
            "role": role, "state": _STATES[role],
            "label": f"{_die(die.get('size', 0))} {where} showing {die.get('face')}: {role}",
        })
    return rows


def dashboard_context(campaign: Campaign) -> dict[str, Any]:
    """What ``systems/shahquest/dashboard.html`` needs; runs no query (the characters who
    may take a plot point are a lazy queryset the template reads only when the page's
    ``party`` cards are not in its context, i.e. in an HTMX answer).

    Returns:
        ``{"tension": TensionPool, "tension_text": "d8 2d6" or "empty",
        "tension_starting": "3d6", "tension_aside": [8], "tension_steps": [(6, 8), ...]
        (each distinct die that can step up, and what it becomes), "tension_sizes": the
        distinct sizes in the pool, largest first, "tension_dice":
        STEP_DICE, "tension_danger": the last general-danger roll or None (its
        "roll_id", "description", "effort", "effect_die", "summary", "dice" rows),
        "tension_characters": the campaign's living characters (lazy), "tension_warning":
        a message when the stored pool could not be read (a fresh pool is shown)}``.
    """
    warning = ""
    try:
        state = tension_state(campaign.system_data or {})
    except RuleError as exc:
        warning = f"The stored tension pool could not be read ({exc}); set its size again."
        state = tension_state({})
    pool: TensionPool = state["pool"]
    last = state["last_danger"]
    danger = None
    if last and isinstance(last.get("result"), Mapping):
        result = last["result"]
        danger = {
            "roll_id": last.get("roll_id"), "description": last.get("description", ""),
            "gm_only": last.get("gm_only", False), "effort": result.get("effort"),
            "effect_die": result.get("effect_die"), "summary": result.get("summary", ""),
            "opportunities": len(result.get("opportunities", [])),
            "dice": _danger_dice(result),
        }
    return {
        "tension": pool,
        "tension_text": _pool_text(pool),
        "tension_starting": format_dice(state["starting"]),
        "tension_aside": list(state["aside"]),
        "tension_steps": [(size, stepped) for size in sorted(set(pool.dice))
                          if (stepped := step_up(size)) is not None],
        "tension_sizes": sorted(set(pool.dice), reverse=True),
        "tension_dice": STEP_DICE,
        "tension_danger": danger,
        "tension_characters": campaign.characters.order_by("name", "id"),
        "tension_warning": warning,
    }
