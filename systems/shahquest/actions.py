"""Shahquest's actions: the sheet's in-place changes (:data:`ACTIONS`, by the ``action`` of
``characters:character-action``), the player's choice of dice after a roll (:func:`_choose_apply`,
the system's roll action ``choose``) and the GM's tension-pool moves on the dashboard
(:data:`CAMPAIGN_ACTIONS`; the pool's stored state and panel are
:mod:`systems.shahquest.tension`). Their forms are in :mod:`systems.shahquest.forms`.

Each apply runs inside the shared service's transaction with the character (or the campaign)
locked; a :class:`RuleError` refuses the change and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from characters.ledger import ledger_append, lock_character
from characters.models import Character, XpEntry
from core.live import announce
from rolls.log import roll_store
from rolls.models import Roll
from rulesets import shahquest as sq
from rulesets.dice import format_dice, parse_dice, step_up
from rulesets.errors import RuleError
from rulesets.shahquest import ShahquestReadings, TensionPool, roll_general_danger
from rulesets.shahquest.storage import RollKind
from systems import CampaignAction, RollAction, RolledResult, TrackAction
from systems.shahquest.checks import verdict_of_choice, verdict_of_effort
from systems.shahquest.forms import (
    ChoiceForm,
    DangerForm,
    DowntimeForm,
    DropForm,
    FeatureEditForm,
    FeatureLearnForm,
    FeatureRemoveForm,
    OpportunityForm,
    OpportunityPushForm,
    PlotPointForm,
    ReturnForm,
    SpecializationForm,
    StartForm,
    StressChangeForm,
    StressForm,
    TakeForm,
)
from systems.shahquest.sheet import (
    MAX_PLOT_POINTS,
    RULE_ACTIVATE_OPPORTUNITY,
    RULE_FEATURES,
    RULE_PLOT_POINTS,
    RULE_POOLS,
    SLUG,
    TEXT_TYPES,
    USE_LABELS,
    _engine_feature,
    _find,
    _name_taken,
    _record_trauma_attempt,
    _remove_feature,
    _set_next_roll,
    _set_plot_points,
    _set_specialization,
    _set_track,
    feature_key,
    features,
    ledger_name,
    next_roll_push_die,
    next_roll_step_up,
    plot_points,
    stress_taken,
    stress_track,
    trauma_recovery,
)
from systems.shahquest.tension import (
    _BUILDING,
    _DANGER,
    _TENSION,
    _USING,
    MAX_TENSION_DICE,
    PANEL,
    _die,
    _load,
    _pool_text,
    _save,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

# --- in-place changes (TrackActions) -----------------------------------------------------------

_CHANGE_STRESS = "Shahquest wiki, Change Stress Type"
_ACTIVATE_OPPORTUNITY = RULE_ACTIVATE_OPPORTUNITY


def _plot_points_apply(character: Character, data: dict[str, Any], by: User
                       ) -> str:
    """``plot-points``: one plot point gained or spent (Shahquest wiki, Plot Points). Raises
    RuleError below 0 or past :data:`~systems.shahquest.sheet.MAX_PLOT_POINTS`."""
    before = plot_points(character)
    _set_plot_points(character, before + data["change"])
    verb = "Gained" if data["change"] > 0 else "Spent"
    return f"{verb} a plot point: {plot_points(character)} now."


def _stress_apply(change: str) -> Callable[[Character, dict[str, Any], User], str]:
    """The apply of ``stress-take`` (``change`` "take"), ``stress-recover`` ("recover") or
    ``trauma-recover`` (any other): the engine's take_stress, recover_stress or
    recover_trauma with the form's type and effect die (Shahquest wiki, Stress and Trauma;
    Stressing Out and Trauma). A trauma recovery is an attempt: refused before the day the
    last one's downtime ends (today is the server's local date), it keeps on the sheet the
    day the next may be made (:func:`~systems.shahquest.sheet.trauma_recovery`). The engine's
    RuleError refuses."""
    def apply(character: Character, data: dict[str, Any], by: User) -> str:
        track = stress_track(character)
        kind, die = data["kind"], data["die"]
        taken = None
        if change == "take":
            taken = {"kind": kind, "die": die, "before": track.as_dict()}
            track = sq.take_stress(track, kind, die)
            done = f"Took a d{die} {kind} stress effect"
        elif change == "recover":
            track = sq.recover_stress(track, kind, die)
            done = f"Recovered {kind} stress with a d{die} effect"
        else:
            today = timezone.localdate()
            sq.check_trauma_recovery(kind, trauma_recovery(character.sheet).get(kind), today)
            before = track.line(kind).trauma
            track = sq.recover_trauma(track, kind, die)
            assert before is not None  # recover_trauma refuses a type without trauma
            _record_trauma_attempt(character, kind, before, track, today)
            done = f"Recovered {kind} trauma with a d{die} effect"
        _set_track(character, track, taken=taken)
        return f"{done}. {track.describe()}."
    return apply


def _stress_change_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``stress-change``: spend a plot point to take the stress effect just taken as another
    type (Shahquest wiki, Change Stress Type; :func:`rulesets.shahquest.change_stress_type`).
    Raises RuleError when no stress was just taken (any later change of the track ends the
    chance), for the same type, or without a plot point."""
    taken = stress_taken(character.sheet)
    if taken is None:
        raise RuleError("Only the stress just taken can change its type, and the track has "
                        "changed since (or no stress was taken).", _CHANGE_STRESS)
    kind, die, before = taken
    if plot_points(character) < 1:
        raise RuleError("Changing the type of stress taken costs a plot point; there is none "
                        "left.", _CHANGE_STRESS)
    track = sq.change_stress_type(before, kind, die, data["to"])
    _set_track(character, track)
    _set_plot_points(character, plot_points(character) - 1)
    return (f"Spent a plot point: the d{die} {kind} stress effect is {data['to']} stress "
            f"instead. {track.describe()}.")


def _activate_opportunity(character: Character, reward: str, waiting: str, done: str) -> str:
    """Spend a plot point on the GM's opportunity for a ``reward`` that waits on the sheet for
    the next roll (``next_roll[reward]``: "push_die" or "step_up"; Shahquest wiki, Activate
    Opportunity die) and answer ``done``. Raises RuleError (``waiting`` its words) when that
    reward already waits, or without a plot point."""
    waits = {"push_die": next_roll_push_die, "step_up": next_roll_step_up}[reward]
    if waits(character.sheet):
        raise RuleError(waiting, _ACTIVATE_OPPORTUNITY)
    if plot_points(character) < 1:
        raise RuleError("Activating the GM's opportunity costs a plot point; there is none "
                        "left.", _ACTIVATE_OPPORTUNITY)
    _set_plot_points(character, plot_points(character) - 1)
    _set_next_roll(character, reward, True)
    return done


def _opportunity_push_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``opportunity-push``: when the GM rolls an opportunity, spend a plot point to "add a
    Stepped Up Push" die (d8) to the character's next action or reaction (Shahquest wiki,
    Activate Opportunity die); the next roll's pool and odds show it and the roll uses it up.
    Raises RuleError without a plot point, or when one already waits."""
    return _activate_opportunity(
        character, "push_die", "A stepped up push die already waits for the next roll.",
        "Spent a plot point on the GM's opportunity: a stepped up push die (d8) joins the "
        "next roll.")


def _opportunity_step_up_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``opportunity-step-up``: when the GM rolls an opportunity, spend a plot point to "Step
    Up any one die in his Pool" for the character's next action or reaction (Shahquest wiki,
    Activate Opportunity die). It waits on the sheet; the roll dialog asks which die
    (:func:`~systems.shahquest.sheet.build_pool`), the pool and odds show it, and the roll
    that steps a die up uses it. Raises RuleError without a plot point, or when one already
    waits."""
    return _activate_opportunity(
        character, "step_up", "A step up from the GM's opportunity already waits for the next "
        "roll.", "Spent a plot point on the GM's opportunity: choose one die of the next roll "
        "to step up when you roll.")


def _downtime_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``downtime``: spend one plot point to step down stress twice (one type or two) or a
    trauma once (Shahquest wiki, During Downtime, you may spend a Plot Point to...); a trauma
    "after the time listed" (Stressing Out and Trauma), kept as for ``trauma-recover``.
    Raises RuleError without a plot point, or before the trauma's day."""
    what, _, kinds = data["option"].partition(":")
    if plot_points(character) < 1:
        raise RuleError("Downtime recovery costs a plot point; there is none left.",
                        "Shahquest wiki, During Downtime, you may spend a Plot Point to\u2026")
    track = stress_track(character)
    if what == "trauma":
        today = timezone.localdate()
        sq.check_trauma_recovery(kinds, trauma_recovery(character.sheet).get(kinds), today)
        before = track.line(kinds).trauma
        track = sq.downtime_recovery(track, trauma=kinds)
        assert before is not None  # downtime_recovery refuses a type without trauma
        _record_trauma_attempt(character, kinds, before, track, today)
    else:
        track = sq.downtime_recovery(track, stress=tuple(kinds.split(",")))
    _set_track(character, track)
    _set_plot_points(character, plot_points(character) - 1)
    return f"Spent a plot point in downtime. {track.describe()}."


def _specialization_apply(character: Character, data: dict[str, Any], by: User
                          ) -> str:
    """``specialization-learn``: add a named specialization to a skill and spend
    :data:`rulesets.shahquest.SPECIALIZATION_COST` XP in the ledger (the advancement house
    rule, docs/systems/shahquest.md). Raises RuleError: the price changed, a repeated name,
    an illegal specialization, or too little XP."""
    cost = sq.SPECIALIZATION_COST
    if data.get("expected_cost") is not None and data["expected_cost"] != cost:
        raise RuleError(f"The price changed to {cost} XP since you looked; check it and "
                        "confirm again.", sq.ADVANCEMENT_RULE)
    skill = _find(character, "skill", data["skill"])
    if any(s["name"].casefold() == data["name"].casefold()
           for s in skill.get("specializations", [])):
        raise RuleError(f"{skill['name']} already has the specialization {data['name']}.",
                        sq.ADVANCEMENT_RULE)
    sq.check_feature(_engine_feature(skill, specialization=data["name"],
                                     specialization_use=data["use"]))
    if character.xp_available < cost:
        raise RuleError(f"A new specialization costs {cost} XP; you have "
                        f"{character.xp_available} available.", sq.ADVANCEMENT_RULE)
    key = f"specialization:{ledger_name(skill)}:{data['name']}"
    _set_specialization(character, key, data["use"])
    label = f"{skill['name']}: new specialization {data['name']} ({USE_LABELS[data['use']]})"
    ledger_append(character, kind=XpEntry.Kind.SPEND, available_delta=-cost, trait_key=key,
                  rank_from=0, rank_to=1, reason=label, created_by=by)
    return f"Learned {data['name']} for {cost} XP."


_TYPE_WORDS = {"power_set": "power", "sfx": "special effect"}


def _word(kind: str) -> str:
    return _TYPE_WORDS.get(kind, kind)


def _feature_learn_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``feature-learn``: buy a new attribute, skill or power at a d4 for
    :data:`rulesets.shahquest.NEW_FEATURE_COST` XP, one SPEND in the ledger (key
    ``<type>:<name>``, rank 0 to 4), which the undo page takes back (the advancement house
    rule, docs/systems/shahquest.md; Shahquest wiki, Feature Types: "Any intelligent
    character is capable of learning Skills given time and proper training").

    Raises:
        RuleError: the price changed, a type XP does not buy (affiliations are three, quirks
            and resources come from the story), a name the type already has (or its ledger
            keys spell), a power without its power set, or too little XP.
    """
    cost, die, kind = sq.NEW_FEATURE_COST, sq.NEW_FEATURE_DIE, data["type"]
    if data.get("expected_cost") is not None and data["expected_cost"] != cost:
        raise RuleError(f"The price changed to {cost} XP since you looked; check it and "
                        "confirm again.", sq.ADVANCEMENT_RULE)
    if kind not in sq.ADVANCEABLE_TYPES:
        raise RuleError("XP buys new attributes, skills and powers.", sq.ADVANCEMENT_RULE)
    name = data["name"]
    if _name_taken(character, kind, name):
        raise RuleError(f"{character.name} already has a {_word(kind)} called {name} (or had "
                        "one under that name): give the new one its own name.", RULE_FEATURES)
    entry: dict[str, Any] = {"type": kind, "name": name, "die": die, "count": 1}
    if kind == "skill":
        entry["specializations"] = []
    if kind == "power_set":
        wanted = (data.get("power_set") or "").casefold()
        if not wanted:
            raise RuleError(f"The power {name} belongs to a power set: name it.", RULE_FEATURES)
        entry["power_set"] = next(
            (e["power_set"] for e in features(character)
             if e["type"] == "power_set" and e["power_set"].casefold() == wanted),
            data["power_set"])
    sq.check_feature(_engine_feature(entry))
    if character.xp_available < cost:
        raise RuleError(f"A new {_word(kind)} costs {cost} XP; you have "
                        f"{character.xp_available} available.", sq.ADVANCEMENT_RULE)
    character.sheet = {**character.sheet, "features": [*features(character), entry]}
    in_set = f" ({entry['power_set']})" if kind == "power_set" else ""
    ledger_append(character, kind=XpEntry.Kind.SPEND, available_delta=-cost,
                  trait_key=feature_key(entry), rank_from=0, rank_to=die,
                  reason=f"New {_word(kind)} {name}{in_set} d{die}"[:200], created_by=by)
    return f"Learned the {_word(kind)} {name} at d{die} for {cost} XP."


def _which(character: Character, value: str) -> int:
    """The index of the feature a form's ``which`` ("<type>:<name>") names. Raises RuleError
    when the sheet no longer has it."""
    kind, _, name = value.partition(":")
    for index, entry in enumerate(features(character)):
        if entry["type"] == kind and entry["name"] == name:
            return index
    raise RuleError(f"{character.name} no longer has the {_word(kind)} {name}.", RULE_FEATURES)


def _feature_edit_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``feature-edit``: rename a feature, or change a special effect's or limit's
    description (a blank one keeps it); no XP. A renamed feature keeps the name its ledger
    keys spell (:func:`~systems.shahquest.sheet.ledger_name`), so its purchases still undo
    and a removal still finds them.

    Raises:
        RuleError: the sheet no longer has it; an affiliation (named Solo, Partner or Gang:
            the engine's check); a name its type already has; a description for a feature
            with a die; nothing changed.
    """
    index = _which(character, data["which"])
    entries = features(character)
    entry = entries[index]
    kind, old, name, text = entry["type"], entry["name"], data["name"], data.get("text") or ""
    if text and kind not in TEXT_TYPES:
        raise RuleError(f"{old} is a {_word(kind)} with a die: only special effects and limits "
                        "have a description.", RULE_FEATURES)
    if name.casefold() != old.casefold() and _name_taken(character, kind, name, but=index):
        raise RuleError(f"{character.name} already has a {_word(kind)} called {name} (or had "
                        "one under that name).", RULE_FEATURES)
    changed = {**entry, "name": name, **({"text": text} if text else {})}
    changed.pop("ledger_name", None)
    if ledger_name(entry) != name:
        changed["ledger_name"] = ledger_name(entry)
    if kind in sq.FEATURE_TYPES:
        sq.check_feature(_engine_feature(changed))
    if changed == entry:
        raise RuleError(f"{old} already has that name and description.", RULE_FEATURES)
    entries[index] = changed
    character.sheet = {**character.sheet, "features": entries}
    done = [f"renamed {old} to {name}"] if name != old else []
    if text and text != entry.get("text"):
        done.append(f"changed the description of {name}")
    return " and ".join(done).capitalize() + "; no XP changes."


def _feature_remove_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """``feature-remove`` (the GM's, confirmed): take a feature off the sheet and give back,
    through the ledger, only the XP it shows spent on it: each SPEND on its key (and, for a
    skill, on its specializations' keys) not yet undone gets its reversing entry, newest
    first, as the undo page's would; a feature no XP bought (made at creation, a resource, a
    special effect) goes with no XP change, and the message says so.

    Raises:
        RuleError: the sheet no longer has it, or it must stay
            (:func:`~systems.shahquest.sheet._remove_feature`: an affiliation, the last
            attribute, a power its set's special effects or limits still need).
    """
    character.require_in_play()
    index = _which(character, data["which"])
    entry = features(character)[index]
    _remove_feature(character, index)
    spends: list[XpEntry] = []
    if entry["type"] in sq.FEATURE_TYPES:
        specs = f"specialization:{ledger_name(entry)}:" if entry["type"] == "skill" else None
        rows = XpEntry.objects.filter(character=character, kind=XpEntry.Kind.SPEND,
                                      reversal__isnull=True).order_by("-created_at", "-id")
        spends = [row for row in rows if row.trait_key == feature_key(entry)
                  or (specs is not None and row.trait_key.startswith(specs))]
    for spend in spends:
        ledger_append(
            character, kind=XpEntry.Kind.REVERSAL, available_delta=-spend.available_delta,
            total_delta=-spend.total_delta, banked_delta=-spend.banked_delta,
            bank_key=spend.bank_key, trait_key=spend.trait_key, rank_from=spend.rank_to,
            rank_to=spend.rank_from, reverses=spend,
            reason=f"Removed {entry['name']}: {spend.reason}"[:200], created_by=by)
    what = f"the {_word(entry['type'])} {entry['name']}"
    if not spends:
        return f"Removed {what}: no XP was spent on it, so none comes back."
    back = -sum(spend.available_delta for spend in spends)
    return (f"Removed {what}: the {back} XP spent on it come back "
            f"({len(spends)} purchase{'s' if len(spends) > 1 else ''} reversed).")


ACTIONS: dict[str, TrackAction] = {
    "plot-points": TrackAction(form=PlotPointForm, apply=_plot_points_apply,
                               partial="sheet-tracks"),
    "stress-take": TrackAction(form=StressForm, apply=_stress_apply("take"),
                               partial="sheet-tracks"),
    "stress-recover": TrackAction(form=StressForm, apply=_stress_apply("recover"),
                                  partial="sheet-tracks"),
    "trauma-recover": TrackAction(form=StressForm, apply=_stress_apply("trauma"),
                                  partial="sheet-tracks"),
    "stress-change": TrackAction(form=StressChangeForm, apply=_stress_change_apply,
                                 partial="sheet-tracks"),
    "opportunity-push": TrackAction(form=OpportunityPushForm, apply=_opportunity_push_apply,
                                    partial="sheet-tracks"),
    "opportunity-step-up": TrackAction(form=OpportunityPushForm,
                                       apply=_opportunity_step_up_apply,
                                       partial="sheet-tracks"),
    "downtime": TrackAction(form=DowntimeForm, apply=_downtime_apply, partial="sheet-tracks"),
    "specialization-learn": TrackAction(form=SpecializationForm, apply=_specialization_apply,
                                        partial="sheet-features", needs_character=True),
    "feature-learn": TrackAction(form=FeatureLearnForm, apply=_feature_learn_apply,
                                 partial="sheet-features", needs_character=True),
    "feature-edit": TrackAction(form=FeatureEditForm, apply=_feature_edit_apply,
                                partial="features-panel", needs_character=True),
    "feature-remove": TrackAction(form=FeatureRemoveForm, apply=_feature_remove_apply,
                                  partial="features-panel", needs_character=True, gm_only=True),
}
"""The sheet's in-place changes, by the ``action`` of ``characters:character-action``."""


# --- the choice of dice after a roll (RollAction) ------------------------------------------------


def _choose_apply(roll: Roll, character: Character, data: dict[str, Any],
                  by: User, rng: Rng) -> Roll:
    """Store the player's choice of effort and effect dice as a follow-up roll, spending a
    plot point per effort die past two and per effect die past one, and one for a reaction
    won whose effect die is used (Shahquest wiki, Add to Effort total; Extra Effect die; Use
    a Effect die from a reaction). Runs with the character locked."""
    if roll.ruleset != SLUG or roll.kind != Roll.Kind.ACTION or roll.parent_id:
        raise RuleError("Only a roll from the sheet takes a choice of dice.", RULE_POOLS)
    if roll.followups.filter(kind=RollKind.CHOICE).exists():
        raise RuleError("The dice of this roll are already chosen.", RULE_POOLS)
    result = sq.RollResult.from_dict(roll.result)
    sizes = result.pool.sizes
    effect = sorted(data["effect"], key=lambda i: (-sizes[i] if 0 <= i < len(sizes) else 0, i))
    chosen = sq.choose_dice(result, effort=sorted(data["effort"]), effect=effect,
                            plot_points=plot_points(character),
                            reaction_effect=bool(data.get("reaction")))
    spent = chosen.plot_points_after_roll
    if spent:
        _set_plot_points(character, plot_points(character) - spent)
    outcome, net, summary = verdict_of_choice(chosen)
    return roll_store(
        campaign_id=roll.campaign_id, character=character, ruleset=SLUG,
        rolled=RolledResult(kind=RollKind.CHOICE, description=roll.description,
                            result=chosen, outcome=outcome, net=net, summary=summary),
        by=by, parent=roll)


ROLL_ACTIONS: dict[str, RollAction] = {
    "choose": RollAction(form=ChoiceForm, apply=_choose_apply),
}
"""The follow-ups on a stored roll, by the ``action`` of the roll's action endpoint: the
player's choice of effort and effect dice."""


# --- the GM's tension pool: plot points (systems.shahquest.tension keeps the pool) ------------


def _grant_plot_point(campaign: Campaign, character_id: int, rule: str) -> Character:
    """Give one plot point to a character of ``campaign``: lock the row, add to
    ``sheet["plot_points"]``, save, and announce ``trackChanged`` after commit.

    Call inside the caller's ``transaction.atomic()`` (the campaign already locked), after
    every check that may refuse the move, so a refusal writes nothing.

    Raises:
        RuleError: no such character in the campaign, or one already holding
            the sheet's most plot points (``systems.shahquest.sheet.MAX_PLOT_POINTS``,
            a typing guard, not a rule).
    """
    # Every change of a character takes characters.ledger.lock_character's lock (FOR NO KEY
    # UPDATE: see why there); a character of another campaign is refused as a missing one.
    try:
        character: Character | None = lock_character(character_id)
    except Character.DoesNotExist:
        character = None
    if character is None or character.campaign_id != campaign.pk:
        raise RuleError("choose a player's character of this campaign for the plot point", rule)
    sheet = dict(character.sheet or {})
    current = sheet.get("plot_points", 0)
    current = current if isinstance(current, int) and not isinstance(current, bool) else 0
    if current + 1 > MAX_PLOT_POINTS:
        raise RuleError(f"{character.name} already has {current} plot points, the most a "
                        "sheet holds", RULE_PLOT_POINTS)
    sheet["plot_points"] = current + 1
    character.sheet = sheet
    character.save(update_fields=["sheet", "updated_at"])
    announce(campaign.pk, "trackChanged", character_id=character.pk,
             gm_only=character.changes_gm_only)
    return character


# --- the GM's tension pool: the moves (CampaignActions) ----------------------------------------


def _start(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
           ) -> tuple[str, Roll | None]:
    """``tension-start``: set the starting pool and reset the pool to it (Tension Pool)."""
    state = _load(campaign)
    pool = TensionPool.start(data["dice"])
    if len(pool.dice) > MAX_TENSION_DICE:
        raise RuleError(f"a starting tension pool of {len(pool.dice)} dice is more than "
                        f"the {MAX_TENSION_DICE} Sheetkeeper allows", _TENSION)
    _save(campaign, {**state, "pool": pool, "starting": pool.dice, "aside": ()})
    return f"The tension pool starts at {_pool_text(pool)}, and is reset to it.", None


def _opportunity(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                 ) -> tuple[str, Roll | None]:
    """``tension-opportunity``: add a d6, add the opportunity die itself (``grow``
    ``"add-<size>"``: the Dice Pools example's "add the d8 into the Tension Pool") or step
    up a tension die, and give the player's character a plot point, all or nothing
    (Shahquest wiki, Building the Tension; Dice Pools)."""
    state = _load(campaign)
    pool: TensionPool = state["pool"]
    grow = data["grow"]
    if grow == "add":
        grown, how = pool.activate_opportunity(), "a d6 joined the pool"
    elif grow.startswith("add-") and grow[4:].isdecimal():
        size = int(grow[4:])
        grown = pool.activate_opportunity(add=size)
        how = f"the {_die(size)} opportunity die joined the pool"
    elif grow.startswith("step-") and grow[5:].isdecimal():
        size = int(grow[5:])
        grown = pool.activate_opportunity(step_up=size)
        how = f"a {_die(size)} stepped up to a d{step_up(size)}"
    else:
        raise RuleError("an activated opportunity adds a d6 (or the opportunity die itself) "
                        "or steps up a tension die", _BUILDING)
    character = _grant_plot_point(campaign, data["character"], _BUILDING)
    _save(campaign, {**state, "pool": grown})
    return (f"Opportunity activated: {how} (now {_pool_text(grown)}); "
            f"{character.name} gets a plot point."), None


def _take(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
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


def _return(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
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


def _drop(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
          ) -> tuple[str, Roll | None]:
    """``tension-drop``: a die set aside does not come back (Using the Tension Pool)."""
    state = _load(campaign)
    size = data["die"]
    _save(campaign, {**state, "aside": _aside_without(state["aside"], size)})
    return f"The {_die(size)} set aside leaves play; the tension pool stays as it is.", None


def _danger(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
            ) -> tuple[str, Roll | None]:
    """``tension-danger``: roll the whole pool with the setting and complication dice as
    general danger, store it in the roll log, and keep it for the panel (Tension Pool as
    General Danger), under the campaign's table readings, which the roll keeps. The pool
    itself is unchanged."""
    state = _load(campaign)
    pool: TensionPool = state["pool"]
    text = data.get("complications") or ""
    complications = parse_dice(text) if text else ()
    if len(complications) > MAX_TENSION_DICE:
        raise RuleError(f"{len(complications)} complication dice are more than the "
                        f"{MAX_TENSION_DICE} Sheetkeeper allows", _DANGER)
    setting = data.get("setting_die")
    readings = ShahquestReadings.from_values(campaign.readings, strict=False)
    result = roll_general_danger(pool, rng, setting_die=setting, complications=complications,
                                 readings=readings)
    parts = [f"tension pool {_pool_text(pool)}"]
    if setting:
        parts.append(f"setting die {_die(setting)}")
    if complications:
        parts.append(f"complication{'s' if len(complications) > 1 else ''} "
                     f"{format_dice(complications)}")
    note = data.get("note") or ""
    description = "General danger: " + " + ".join(parts) + (f" ({note})" if note else "")
    outcome, net, summary = verdict_of_effort(result)
    roll = roll_store(
        campaign_id=campaign.pk, character=None, ruleset="shahquest",
        rolled=RolledResult(kind=RollKind.GENERAL_DANGER, description=description, result=result,
                            outcome=outcome, net=net, summary=summary),
        by=by, gm_only=bool(data.get("gm_only")), readings=readings.changed(),
    )
    _save(campaign, {**state, "last_danger": {
        "roll_id": roll.pk, "description": description, "note": note,
        "gm_only": roll.gm_only, "result": roll.result,
    }})
    effect = "no effect die" if result.effect_die is None else f"effect {_die(result.effect_die)}"
    return (f"General danger: effort {result.effort}, {effect}. "
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
"""The GM's tension-pool moves, by the ``action`` of ``table:campaign-system-action``;
each answers HTMX with ``systems/shahquest/dashboard.html#system-panel``."""
