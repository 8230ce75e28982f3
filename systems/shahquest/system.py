"""Shahquest's sheet layer: the :class:`Shahquest` system and its ``SYSTEM``.

The rules live in :mod:`rulesets.shahquest` (cited as "Shahquest wiki, <section>", the seed
000, ``000_f80b8c0f83e34825.txt``); the package lays them on a sheet: the sheet's shape and
how it is read and written (:mod:`systems.shahquest.sheet`), the forms
(:mod:`systems.shahquest.forms`), the in-place changes, the choice of dice and the GM's moves
(:mod:`systems.shahquest.actions`), the checks of stored data (:mod:`systems.shahquest.checks`)
and the demo (:mod:`systems.shahquest.demo`). The tension pool on the GM's dashboard is
:mod:`systems.shahquest.tension`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils import timezone

from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError
from systems import (
    Advance,
    RolledResult,
    SheetSystem,
    percent_text,
)
from systems.base import RollHeader
from systems.shahquest import history as sheet_history
from systems.shahquest import luck, npcs, tension
from systems.shahquest.actions import ACTIONS, CAMPAIGN_ACTIONS, ROLL_ACTIONS
from systems.shahquest.checks import (
    check_roll,
    check_sheet,
    check_system_data,
    verdict_of_effort,
)
from systems.shahquest.forms import (
    DIE_CHOICES,
    DOWNTIME_CHOICES,
    CreationForm,
    FeatureEditForm,
    FeatureLearnForm,
    FeatureRemoveForm,
    RequestForm,
    RollForm,
    SpecializationForm,
)
from systems.shahquest.sheet import (
    SLUG,
    TEXT_TYPES,
    TYPE_LABELS,
    _find,
    _remove_feature,
    _set_next_roll,
    _set_plot_points,
    _set_specialization,
    _set_track,
    build_pool,
    feature_key,
    features,
    ledger_name,
    next_roll_push_die,
    next_roll_step_up,
    plot_points,
    readings_of,
    request_data,
    stress_taken,
    stress_track,
    trauma_recovery,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng
    from rulesets.luck import RollLuck
    from systems.npcs import TrackLine


# --- the system --------------------------------------------------------------------------------


class Shahquest(SheetSystem):
    """Shahquest's sheet description (the sheet's shape: :mod:`systems.shahquest.sheet`)."""
    live_tracks = ("sheet-tracks", "sheet-features")

    # No source gives character-creation budgets (RULES.md section 2): a new character
    # starts with no XP, whatever the campaign's starting XP says.
    uses_starting_xp = False
    # The tension pool grows and is rolled during play: it belongs beside the party.
    panel_in_play = True

    def default_system_data(self) -> dict[str, Any]:
        """The tension pool's data (:mod:`systems.shahquest.tension`)."""
        return tension.default_system_data()

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The tension pool panel's context (:mod:`systems.shahquest.tension`)."""
        return tension.dashboard_context(campaign)

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The tension pool's stored state (:func:`~systems.shahquest.checks.
        check_system_data`). Raises RuleError (Shahquest wiki, Tension Pool)."""
        check_system_data(data)

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Features, plot points and stress as the rules make them
        (:func:`~systems.shahquest.checks.check_sheet`).
        Raises RuleError naming the first value refused."""
        check_sheet(sheet)

    # creation
    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        """:class:`CreationForm`."""
        return CreationForm(data)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet :class:`CreationForm` built and checked."""
        return dict(cleaned_data["sheet"])

    # the sheet
    def _layout(self, character: Character) -> dict[str, Any]:
        entries = features(character)
        sets: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for e in entries:
            if e["type"] in ("power_set", *TEXT_TYPES):
                group = sets.setdefault(e.get("power_set") or "",
                                        {"power": [], "sfx": [], "limit": []})
                group["power" if e["type"] == "power_set" else e["type"]].append(e)
        groups: list[dict[str, Any]] = [
            {"type": kind, "title": title, "items": [e for e in entries if e["type"] == kind]}
            for kind, title in TYPE_LABELS.items()]
        for feature_group in groups:
            if feature_group["type"] == "power_set":
                feature_group["sets"] = [{"name": n, **g} for n, g in sets.items()]
        return {"feature_groups": groups}

    def _tracks(self, character: Character) -> dict[str, Any]:
        track = stress_track(character)
        ready, today = trauma_recovery(character.sheet), timezone.localdate()
        lines = []
        for kind in sq.STRESS_TYPES:
            line = track.line(kind)
            day = ready.get(kind)
            lines.append({
                "kind": kind, "stress": line.stress, "trauma": line.trauma,
                "stressed_out": line.stressed_out, "taken_out": line.taken_out,
                "recovery_time": (sq.trauma_recovery_time(line.trauma)
                                  if line.trauma else ""),
                "recovery_next": sq.day_text(day) if day and day > today else "",
            })
        taken = stress_taken(character.sheet)
        just_taken = None if taken is None else {
            "kind": taken[0], "die": taken[1],
            "others": [kind for kind in sq.STRESS_TYPES if kind != taken[0]]}
        return {"plot_points": plot_points(character), "stress_lines": lines,
                "stress_just_taken": just_taken,
                "next_roll_push_die": next_roll_push_die(character.sheet),
                "next_roll_step_up": next_roll_step_up(character.sheet),
                "stress_state": track.describe(), "stressed_out": track.stressed_out,
                "taken_out": track.taken_out, "die_choices": DIE_CHOICES,
                "stress_types": sq.STRESS_TYPES, "downtime_choices": DOWNTIME_CHOICES}

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """Features grouped by type (power sets with their effects and limits), plot points,
        stress lines and the state in words; the form that renames a feature or changes its
        description, and for the GM the one that removes a feature. No queries."""
        return {**self._layout(character), **self._tracks(character),
                "feature_edit_form": FeatureEditForm(character=character),
                **({"feature_remove_form": FeatureRemoveForm(character=character)}
                   if is_gm else {})}

    def card_context(self, character: Character) -> dict[str, Any]:
        """Plot points, stress in words and per type, the controls' choices. No queries."""
        return self._tracks(character)

    # NPCs (systems.shahquest.npcs)
    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> forms.Form:
        """The stat block (:class:`~systems.shahquest.npcs.NpcForm`): affiliations, a few
        attributes and skills, a quirk and plot points, every die checked."""
        return npcs.npc_form(campaign, data)

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet the stat block built and checked (:func:`systems.shahquest.npcs.
        npc_sheet`)."""
        return npcs.npc_sheet(cleaned_data)

    def track_lines(self, character: Character) -> list[TrackLine]:
        """Stress and trauma by type, and plot points (:func:`systems.shahquest.npcs.
        track_lines`)."""
        return npcs.track_lines(character)

    # XP
    def advances(self, character: Character) -> list[Advance]:
        """Every die XP can step up now: attributes, skills and powers below d12."""
        out = []
        for entry in features(character):
            if entry["type"] in sq.ADVANCEABLE_TYPES and entry["die"] < STEP_DICE[-1]:
                out.append(self.quote(character, feature_key(entry)))
        return out

    def quote(self, character: Character, key: str) -> Advance:
        """Price of stepping up ``<type>:<ledger name>``'s die
        (:func:`rulesets.shahquest.step_up_cost`). A new specialization or feature is bought
        with the XP page's own forms (they need a name), not through a key. Raises RuleError
        naming the problem."""
        kind, _, name = key.partition(":")
        if kind == "specialization":
            raise RuleError("Learn a specialization with the form below: it needs a name.",
                            sq.ADVANCEMENT_RULE)
        if kind not in sq.ADVANCEABLE_TYPES:
            raise RuleError("XP steps up attributes, skills and powers.", sq.ADVANCEMENT_RULE)
        entry = _find(character, kind, name)
        die = entry["die"]
        cost = sq.step_up_cost(die)
        return Advance(key=key, label=f"{entry['name']} d{die} → d{cost}", rank_from=die,
                       rank_to=cost, cost=cost,
                       notes=(f"A step up costs the new die's size ({cost} XP).",))

    def rank(self, character: Character, key: str) -> int:
        """A feature's die size, or 1/0 for a specialization owned or not."""
        kind, _, name = key.partition(":")
        if kind == "specialization":
            skill_name, _, spec = name.partition(":")
            try:
                skill = _find(character, "skill", skill_name)
            except RuleError:
                return 0
            return int(any(s["name"] == spec for s in skill.get("specializations", [])))
        return int(_find(character, kind, name)["die"])

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set a feature's die to ``rank`` (a step die), or take off a feature bought new
        (rank 0: the undo of :func:`~systems.shahquest.actions._feature_learn_apply`'s
        spend), or remove a specialization (rank 0; rank 1 keeps or adds it as a spread).

        Raises:
            RuleError: an unknown key; at rank 0, a skill with specializations learned
                since (undo those first) or a feature the sheet must keep
                (:func:`~systems.shahquest.sheet._remove_feature`).
        """
        kind, _, name = key.partition(":")
        if kind == "specialization":
            if not rank:
                _set_specialization(character, key, None)
            elif not self.rank(character, key):  # keep the use it was learned with
                _set_specialization(character, key, "spread")
            return
        if kind not in sq.ADVANCEABLE_TYPES:
            raise RuleError("XP steps up attributes, skills and powers.", sq.ADVANCEMENT_RULE)
        if rank and rank not in STEP_DICE:
            raise RuleError(f"d{rank} is not a step die.", sq.ADVANCEMENT_RULE)
        entries = features(character)
        for index, entry in enumerate(entries):
            if entry["type"] == kind and ledger_name(entry) == name:
                if rank:
                    entries[index] = {**entry, "die": rank}
                    character.sheet = {**character.sheet, "features": entries}
                elif entry.get("specializations"):
                    raise RuleError(f"{entry['name']} has specializations learned since it "
                                    "was bought: undo them first.", sq.ADVANCEMENT_RULE)
                else:
                    _remove_feature(character, index)
                return
        raise RuleError(f"{character.name} has no {kind.replace('_', ' ')} called {name!r}.",
                        sq.ADVANCEMENT_RULE)

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """What an undo takes back, in steps (Shahquest wiki, Dice, Step Up, Step Down, and
        Spreads; the advancement house rule, docs/systems/shahquest.md): "Agility steps back
        down from d8 to d6.", "The new skill Stealth (d4) comes off the sheet.", "Fighting
        loses the specialization Swords and the spread it gave." (the use as the sheet
        records it; left out when the sheet no longer has it). A feature renamed since is
        named as it is now."""
        kind, _, name = entry.trait_key.partition(":")
        if kind == "specialization":
            skill, _, spec = name.partition(":")
            found = next((f for f in features(character)
                          if f["type"] == "skill" and ledger_name(f) == skill), None)
            use = next((s.get("use") for s in (found or {}).get("specializations", [])
                        if s["name"] == spec), "")
            gave = {"step_up": " and the step up it gave", "spread": " and the spread it gave"}
            skill = found["name"] if found else skill
            return f"{skill} loses the specialization {spec}{gave.get(use, '')}."
        if kind in sq.ADVANCEABLE_TYPES and entry.rank_to:
            now = next((f["name"] for f in features(character)
                        if f["type"] == kind and ledger_name(f) == name), name)
            if not entry.rank_from:
                word = "power" if kind == "power_set" else kind
                return f"The new {word} {now} (d{entry.rank_to}) comes off the sheet."
            return f"{now} steps back down from d{entry.rank_to} to d{entry.rank_from}."
        return super().undo_description(character, entry)

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The new-specialization and new-feature forms and their fixed prices."""
        return {"specialization_form": SpecializationForm(character=character),
                "specialization_cost": sq.SPECIALIZATION_COST,
                "feature_form": FeatureLearnForm(character=character),
                "new_feature_cost": sq.NEW_FEATURE_COST,
                "new_feature_die": sq.NEW_FEATURE_DIE,
                "has_skills": any(e["type"] == "skill" for e in features(character))}

    # rolls
    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """:class:`RollForm` for the character."""
        return RollForm(data, character=character)

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool (:func:`build_pool`), spend and earn its plot points, roll with the
        best effort and effect preselected, use up a stepped up push die waiting from a GM's
        opportunity, and the step up waiting from one when the roll steps a die up with it
        (Activate Opportunity die), and step up own stress used (Shahquest wiki,
        Using Your Own Stress). Runs with the character locked."""
        pool = build_pool(character, cleaned_data)
        result = sq.roll(pool, rng)
        _set_plot_points(character, plot_points(character) - pool.plot_points_spent
                         + pool.plot_points_earned)
        _set_next_roll(character, "push_die", False)  # the stepped up push die, if any, is used
        if cleaned_data.get("step_up"):  # build_pool stepped up the die chosen
            _set_next_roll(character, "step_up", False)
        if pool.stress_step_up:
            track = stress_track(character)
            for kind in pool.stress_step_up:
                track = sq.step_up_stress(track, kind)
            _set_track(character, track)
        outcome, net, summary = verdict_of_effort(result)
        return RolledResult(kind="action", description=pool.describe(), result=result,
                            outcome=outcome, net=net, summary=summary)

    # the table's memory (docs/history.md)
    luck_measure: ClassVar[str] = sq.LUCK_MEASURE

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """Plot points, stress and trauma by type, then every feature by the sheet's groups,
        in the sheet's words (:func:`systems.shahquest.history.sheet_facts`)."""
        return sheet_history.sheet_facts(sheet if sheet is not None else character.sheet)

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """The roll's best effort total against its exact odds, for a sheet's roll, an NPC's
        quick roll and general danger; None for a choice of dice
        (:func:`systems.shahquest.luck.roll_luck`). No query."""
        return luck.roll_luck(roll)

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """The dice its pool rolls, and the effort and effect they give
        (:func:`check_roll`). Raises RuleError naming the first disagreement."""
        check_roll(roll, parent)

    def roll_header(self, roll: Roll) -> RollHeader:
        """"Coordination + Partner · d10 3d8 2d6": the attribute and the affiliation the
        stored pool names, then the dice; every die by name and what the roll cost folded
        ("Partner d6, Coordination d10, ...; 1 plot point spent"). A pool without them (an
        NPC's dice) reads as its dice alone."""
        header = super().roll_header(roll)
        # The result's copy of the pool: roll.pool is a column the sheet's recent rolls leave
        # unread (SheetSystem.roll_header).
        result = roll.result if isinstance(roll.result, dict) else {}
        stored = result.get("pool")
        pool: dict[str, Any] = stored if isinstance(stored, dict) else {}
        dice = pool.get("dice")
        if pool.get("notation") != header.short or not isinstance(dice, list):
            return header
        names = [str(die.get("name", "")).split(" (")[0] for source in ("attribute", "affiliation")
                 for die in dice if isinstance(die, dict) and die.get("source") == source]
        if not names:
            return header
        return RollHeader(short=f"{' + '.join(names)} · {header.short}", details=header.details)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of the best effort total and of rolling an opportunity, and, under the
        campaign's table reading of no effect die, of having none."""
        pool = build_pool(character, cleaned_data)
        odds = sq.odds(pool.sizes, readings=readings_of(character))
        rows = []
        for target in (7, 11, 15):
            p = float(odds.effort_at_least(target))
            rows.append((f"Effort {target}+", p, percent_text(p), True))
        none = float(dict(odds.opportunities).get(0, 0))
        rows.append(("Opportunity", 1 - none, percent_text(1 - none), False))
        if odds.no_effect is not None:
            p = float(odds.no_effect)
            rows.append(("No effect die", p, percent_text(p), False))
        mean = sum(value * p for value, p in odds.effort)
        likely = max(odds.effort, key=lambda pair: pair[1])[0]
        return {
            "odds": odds, "pool": pool, "pool_text": pool.describe(), "odds_rows": rows,
            "odds_lines": [f"Best effort total: {float(mean):.1f} on average, {likely} most "
                           "often (two highest non-1 dice)."],
            "odds_headline": f"Effort 11+: {rows[1][2]}",
        }

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> RequestForm:
        """The GM's "Ask for a roll": :class:`RequestForm` (an attribute and a skill by name,
        a specialization, an affiliation, the setting die)."""
        return RequestForm(data, campaign=campaign)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """:func:`request_data`: the roll dialog's data answering the request, and the
        request in words. Raises RuleError naming what the character lacks."""
        return request_data(character, cleaned_data)


SYSTEM = Shahquest(
    slug=SLUG,
    actions=ACTIONS,
    campaign_actions=CAMPAIGN_ACTIONS,
    roll_actions=ROLL_ACTIONS,
    system_data_roll_ids=tension.ROLL_IDS,
)
