"""The Shahquest GM's tension pool on the campaign dashboard (Shahquest wiki, Tension Pool).

Plugged into ``characters.systems.shahquest`` as its ``campaign_actions``
(:data:`CAMPAIGN_ACTIONS`), ``default_system_data`` (:func:`default_system_data`) and
``dashboard_context`` (:func:`dashboard_context`). The rules live in
``rulesets.shahquest`` (:class:`~rulesets.shahquest.TensionPool`,
:func:`~rulesets.shahquest.roll_general_danger`); this module keeps the pool in
``Campaign.system_data`` and gives the GM one action per move of the seed:

- ``tension-start``: set the campaign's starting pool ("3d6", or stepped up and spread for a
  challenging adventure: "d8 2d6") and reset the pool to it (Shahquest wiki, Tension Pool);
- ``tension-opportunity``: the GM activates a player's opportunity die: a d6 joins the pool
  or a tension die steps up, and the player's character gets a plot point in the same
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

Every action runs inside ``campaigns.services.campaign_system_change`` (campaign locked,
all or nothing): a :class:`RuleError` refuses the move, names the seed section, and nothing
is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms

from characters.systems import CampaignAction, RolledResult
from rulesets.dice import STEP_DICE, format_dice, parse_dice, step_up
from rulesets.errors import RuleError
from rulesets.shahquest import STARTING_TENSION, TensionPool, roll_general_danger

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng

__all__ = [
    "CAMPAIGN_ACTIONS",
    "MAX_TENSION_DICE",
    "PANEL",
    "ROLL_IDS",
    "check_system_data",
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


def check_system_data(system_data: Mapping[str, Any]) -> None:
    """Refuse stored tension-pool data the moves above could never leave (the sheet layer's
    ``check_system_data``): it must read as :func:`tension_state` reads it.

    Args:
        system_data: a would-be ``Campaign.system_data`` (missing keys read as the defaults).

    Raises:
        RuleError: a pool, starting pool or dice set aside that is not a list of step dice,
            or a starting pool of more than :data:`MAX_TENSION_DICE` dice (Shahquest wiki,
            Tension Pool; Using the Tension Pool).
    """
    state = tension_state(system_data)
    # The starting pool passes through tension-start, which caps it; the pool itself may grow
    # past it one opportunity at a time, as at the table.
    if len(state["starting"]) > MAX_TENSION_DICE:
        raise RuleError(f"a starting tension pool of {len(state['starting'])} dice is more "
                        f"than the {MAX_TENSION_DICE} Sheetkeeper allows", _TENSION)


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


# --- plot points -----------------------------------------------------------------------------


def _grant_plot_point(campaign: Campaign, character_id: int, rule: str) -> Character:
    """Give one plot point to a character of ``campaign``: lock the row, add to
    ``sheet["plot_points"]``, save, and announce ``trackChanged`` after commit.

    Call inside the caller's ``transaction.atomic()`` (the campaign already locked), after
    every check that may refuse the move, so a refusal writes nothing.

    Raises:
        RuleError: no such character in the campaign, a dead one, or one already holding
            the sheet's most plot points (``characters.systems.shahquest.MAX_PLOT_POINTS``,
            a typing guard, not a rule).
    """
    from campaigns.live import announce  # the apps import this module; keep import order flat
    from characters.models import Character

    # The lock characters.services.lock_character takes (FOR NO KEY UPDATE: see why there).
    character = (
        Character.objects.select_for_update(no_key=True)
        .filter(pk=character_id, campaign=campaign).first()
    )
    if character is None:
        raise RuleError("choose a player's character of this campaign for the plot point", rule)
    if character.dead:
        raise RuleError(f"{character.name} is dead and cannot take a plot point", rule)
    # The sheet module imports this one, so its guard is read when a point is given.
    from characters.systems.shahquest import MAX_PLOT_POINTS, RULE_PLOT_POINTS

    sheet = dict(character.sheet or {})
    current = sheet.get("plot_points", 0)
    current = current if isinstance(current, int) and not isinstance(current, bool) else 0
    if current + 1 > MAX_PLOT_POINTS:
        raise RuleError(f"{character.name} already has {current} plot points, the most a "
                        "sheet holds", RULE_PLOT_POINTS)
    sheet["plot_points"] = current + 1
    character.sheet = sheet
    character.save(update_fields=["sheet", "updated_at"])
    announce(campaign.pk, "trackChanged", character_id=character.pk)
    return character


# --- forms -----------------------------------------------------------------------------------


class StartForm(forms.Form):
    """The campaign's starting tension pool, in dice notation ("3d6", "d8 2d6")."""

    dice = forms.CharField(
        label="Starting tension pool", max_length=100, strip=True,
        help_text="3d6 as usual; step up or spread it for a challenging adventure (d8 2d6).",
    )


class OpportunityForm(forms.Form):
    """An activated opportunity: how the pool grows and whose character gets the plot
    point. ``grow`` is ``"add"`` (a d6 joins) or ``"step-<size>"`` (step up that die)."""

    grow = forms.CharField(label="The pool grows by", max_length=20)
    character = forms.IntegerField(label="Plot point to", min_value=1,
                                   error_messages={"required": "Choose who gets the plot point."})


class TakeForm(forms.Form):
    """A tension die taken out: set aside for an NPC roll, or spent on effort or effect."""

    PURPOSES = (("npc", "for an NPC's roll (it may come back)"),
                ("spend", "to spend on effort or effect (it is gone)"))
    die = forms.IntegerField(label="Tension die")
    purpose = forms.ChoiceField(label="Take it", choices=PURPOSES, initial="npc")


class ReturnForm(forms.Form):
    """A die set aside comes back; the acting or reacting player's character gets a plot
    point."""

    die = forms.IntegerField(label="Die set aside")
    character = forms.IntegerField(label="Plot point to", min_value=1,
                                   error_messages={"required": "Choose who gets the plot point."})


class DropForm(forms.Form):
    """A die set aside that does not come back."""

    die = forms.IntegerField(label="Die set aside")


class DangerForm(forms.Form):
    """The general-danger roll: an optional setting die, complication dice, a note."""

    setting_die = forms.TypedChoiceField(
        label="Setting die", required=False, coerce=int, empty_value=None,
        choices=[("", "None"), *((str(s), _die(s)) for s in STEP_DICE)],
    )
    complications = forms.CharField(
        label="Complication dice", required=False, max_length=100, strip=True,
        help_text="The complications on the character, e.g. d6 d8; leave empty for none.",
    )
    note = forms.CharField(label="What is at stake", required=False, max_length=120, strip=True)
    gm_only = forms.BooleanField(label="GM only (hidden from players)", required=False)


# --- the moves -------------------------------------------------------------------------------


def _start(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
           ) -> tuple[str, Roll | None]:
    """``tension-start``: set the starting pool and reset the pool to it (Tension Pool)."""
    state = _load(campaign)
    pool = TensionPool.start(data["dice"])
    if len(pool.dice) > MAX_TENSION_DICE:
        raise RuleError(f"a starting tension pool of {len(pool.dice)} dice is more than "
                        f"the {MAX_TENSION_DICE} Sheetkeeper allows", _TENSION)
    _save(campaign, {**state, "pool": pool, "starting": pool.dice, "aside": ()})
    return f"The tension pool starts at {_pool_text(pool)}, and is reset to it.", None


def _opportunity(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
                 ) -> tuple[str, Roll | None]:
    """``tension-opportunity``: add a d6 or step up a tension die, and give the player's
    character a plot point, all or nothing (Building the Tension)."""
    state = _load(campaign)
    pool: TensionPool = state["pool"]
    grow = data["grow"]
    if grow == "add":
        grown, how = pool.activate_opportunity(), "a d6 joined the pool"
    elif grow.startswith("step-") and grow[5:].isdecimal():
        size = int(grow[5:])
        grown = pool.activate_opportunity(step_up=size)
        how = f"a {_die(size)} stepped up to a d{step_up(size)}"
    else:
        raise RuleError("an activated opportunity adds a d6 or steps up a tension die",
                        _BUILDING)
    character = _grant_plot_point(campaign, data["character"], _BUILDING)
    _save(campaign, {**state, "pool": grown})
    return (f"Opportunity activated: {how} (now {_pool_text(grown)}); "
            f"{character.name} gets a plot point."), None


def _take(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
          ) -> tuple[str, Roll | None]:
    """``tension-take``: a die leaves the pool, set aside or spent (Using the Tension Pool)."""
    state = _load(campaign)
    size = data["die"]
    rest = state["pool"].take(size)
    if data["purpose"] == "npc":
        _save(campaign, {**state, "pool": rest, "aside": (*state["aside"], size)})
        return (f"A {_die(size)} is set aside for the NPC's roll: add {_die(size)} to the "
                "NPC's dice. Return it by giving the player a plot point."), None
    _save(campaign, {**state, "pool": rest})
    return (f"A {_die(size)} was spent on effort or effect "
            f"(tension pool now {_pool_text(rest)})."), None


def _aside_without(aside: tuple[int, ...], size: int) -> tuple[int, ...]:
    if size not in aside:
        held = format_dice(aside) or "none"
        raise RuleError(f"no d{size} was set aside for an NPC's roll (set aside: {held})",
                        _USING)
    rest = list(aside)
    rest.remove(size)
    return tuple(rest)


def _return(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
            ) -> tuple[str, Roll | None]:
    """``tension-return``: a die set aside comes back for a plot point to the player
    (Using the Tension Pool)."""
    state = _load(campaign)
    size = data["die"]
    aside = _aside_without(state["aside"], size)
    pool = state["pool"].give_back(size)
    character = _grant_plot_point(campaign, data["character"], _USING)
    _save(campaign, {**state, "pool": pool, "aside": aside})
    return (f"The {_die(size)} is back in the tension pool (now {_pool_text(pool)}); "
            f"{character.name} gets a plot point."), None


def _drop(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
          ) -> tuple[str, Roll | None]:
    """``tension-drop``: a die set aside does not come back (Using the Tension Pool)."""
    state = _load(campaign)
    size = data["die"]
    _save(campaign, {**state, "aside": _aside_without(state["aside"], size)})
    return f"The {_die(size)} set aside leaves play; the tension pool stays as it is.", None


def _danger(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
            ) -> tuple[str, Roll | None]:
    """``tension-danger``: roll the whole pool with the setting and complication dice as
    general danger, store it in the roll log, and keep it for the panel (Tension Pool as
    General Danger). The pool itself is unchanged."""
    from rolls.services import roll_store

    state = _load(campaign)
    pool: TensionPool = state["pool"]
    text = data.get("complications") or ""
    complications = parse_dice(text) if text else ()
    if len(complications) > MAX_TENSION_DICE:
        raise RuleError(f"{len(complications)} complication dice are more than the "
                        f"{MAX_TENSION_DICE} Sheetkeeper allows", _DANGER)
    setting = data.get("setting_die")
    result = roll_general_danger(pool, rng, setting_die=setting, complications=complications)
    parts = [f"tension pool {_pool_text(pool)}"]
    if setting:
        parts.append(f"setting die {_die(setting)}")
    if complications:
        parts.append(f"complication{'s' if len(complications) > 1 else ''} "
                     f"{format_dice(complications)}")
    note = data.get("note") or ""
    description = "General danger: " + " + ".join(parts) + (f" ({note})" if note else "")
    roll = roll_store(
        campaign_id=campaign.pk, character=None, ruleset="shahquest",
        rolled=RolledResult(kind="general_danger", description=description, result=result,
                            outcome="rolled", net=result.effort, summary=result.summary()),
        by=by, gm_only=bool(data.get("gm_only")),
    )
    _save(campaign, {**state, "last_danger": {
        "roll_id": roll.pk, "description": description, "note": note,
        "gm_only": roll.gm_only, "result": roll.result,
    }})
    return (f"General danger: effort {result.effort}, effect {_die(result.effect_die)}. "
            "A character whose effort total is less takes stress or a complication."), roll


CAMPAIGN_ACTIONS: dict[str, CampaignAction] = {
    "tension-start": CampaignAction(form=StartForm, apply=_start, partial=PANEL),
    "tension-opportunity": CampaignAction(form=OpportunityForm, apply=_opportunity,
                                          partial=PANEL),
    "tension-take": CampaignAction(form=TakeForm, apply=_take, partial=PANEL),
    "tension-return": CampaignAction(form=ReturnForm, apply=_return, partial=PANEL),
    "tension-drop": CampaignAction(form=DropForm, apply=_drop, partial=PANEL),
    "tension-danger": CampaignAction(form=DangerForm, apply=_danger, partial=PANEL),
}
"""The GM's tension-pool moves, by the ``action`` of ``campaigns:campaign-system-action``;
each answers HTMX with ``systems/shahquest/dashboard.html#system-panel``."""


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
        "tension_characters": campaign.characters.filter(dead=False).order_by("name"),
        "tension_warning": warning,
    }
