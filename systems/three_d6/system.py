"""The 3d6 tests system's sheet: six traits and twelve subtraits with modifiers, tests against
a test difficulty (TD) with favor and disfavor, contests with the seed's tie-breakers, a
health track and a level (decisions, see docs/systems/three_d6.md).

The seed ("3d6 Rolls and Tests", seed 002, ``002_6302363384505e15.txt``; RULES.md section 5) is
the authority for the dice; the rules engine is :mod:`rulesets.three_d6`. The seed names
neither the traits nor the subtraits, has no advancement, no character creation and no health:
everything here that is not a roll is a **decision**, written where it is made and collected
in the doc.

The package's modules: :mod:`~systems.three_d6.sheet` (the stored shapes, the decisions'
numbers and the readers), :mod:`~systems.three_d6.forms`, :mod:`~systems.three_d6.actions`,
:mod:`~systems.three_d6.pools` (a roll's two sides), :mod:`~systems.three_d6.checks` (stored
data), :mod:`~systems.three_d6.demo` and :mod:`~systems.three_d6.schema`; this module is the
:class:`ThreeD6System` and its ``SYSTEM``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulesets import three_d6
from rulesets.errors import RuleError
from rulesets.three_d6.luck import MEASURE as LUCK_MEASURE
from rulesets.three_d6.storage import RollKind
from systems import Advance, RolledResult, SheetSystem, percent_text
from systems.base import RollHeader
from systems.three_d6 import history, luck, npcs
from systems.three_d6.actions import ACTIONS, CAMPAIGN_ACTIONS
from systems.three_d6.checks import (
    check_roll,
    check_sheet,
    check_system_data,
    verdict_of_contest,
    verdict_of_test,
)
from systems.three_d6.forms import CreationForm, NamesForm, RequestForm, RollForm
from systems.three_d6.pools import (
    defends,
    opponent,
    opponents,
    own_pool,
    side_text,
    split_side,
    tie_text,
)
from systems.three_d6.sheet import (
    HEALTH_LIMIT,
    HEALTH_START,
    LEVEL_MAX,
    LEVEL_START,
    MODIFIER_CAP,
    RULE_ADVANCE,
    SLOTS,
    SUBTRAIT_PRICE,
    TRAIT_PRICE,
    advance_key,
    default_names,
    groups,
    health,
    is_trait,
    level,
    modifier,
    names,
    price,
    signed,
    slot_of,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng
    from rulesets.luck import RollLuck
    from systems.npcs import TrackLine


# --- The system -----------------------------------------------------------------------------


class ThreeD6System(SheetSystem):
    """The 3d6 tests sheet (see the module docstring for its decisions and
    :mod:`systems.three_d6.sheet` for its shapes)."""
    live_xp = ("sheet-xp", "d6-traits")

    # The seed says nothing of XP at creation; decision: the GM sets it per campaign.
    uses_starting_xp = True

    def default_system_data(self) -> dict[str, Any]:
        """``{"traits": [6 default names], "subtraits": [12]}``."""
        return default_names()

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The trait and subtrait names (:func:`check_system_data`). Raises RuleError."""
        check_system_data(data)

    # creation

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> CreationForm:
        """The one-page creation form (see :class:`CreationForm` for the budgets)."""
        return CreationForm(data, campaign=campaign)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet from a valid creation form: its modifiers, level 1, 10 health."""
        return {
            "modifiers": {slot: cleaned_data[slot] for slot in SLOTS},
            "level": LEVEL_START,
            "health": {"current": HEALTH_START, "max": HEALTH_START},
        }

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Modifiers, level and health in their ranges (:func:`check_sheet`). Raises
        RuleError naming the first value refused."""
        check_sheet(sheet, campaign)

    # the sheet

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The groups of traits, the level and health (no queries)."""
        current, maximum = health(character)
        return {"d6_groups": groups(character), "d6_level": level(character),
                "d6_health": current, "d6_health_max": maximum,
                "d6_level_max": LEVEL_MAX, "d6_health_limit": HEALTH_LIMIT}

    def card_context(self, character: Character) -> dict[str, Any]:
        """The party card: level, health, the six traits (no queries)."""
        current, maximum = health(character)
        return {"d6_traits": [row for row, _ in groups(character)], "d6_level": level(character),
                "d6_health": current, "d6_health_max": maximum}

    # NPCs (systems.three_d6.npcs)

    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> npcs.NpcForm:
        """The stat block (:class:`~systems.three_d6.npcs.NpcForm`): every modifier, the level
        and health, their ranges checked, no creation budget."""
        return npcs.NpcForm(data, campaign=campaign)

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The stat block's sheet (:func:`systems.three_d6.npcs.npc_sheet`)."""
        return npcs.npc_sheet(cleaned_data)

    def track_lines(self, character: Character) -> list[TrackLine]:
        """Health (:func:`systems.three_d6.npcs.track_lines`)."""
        return npcs.track_lines(character)

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The GM's names form, filled with the campaign's names (no queries)."""
        return {"d6_names_form": NamesForm(initial=names(campaign)),
                "d6_defaults": default_names()}

    # XP

    def advances(self, character: Character) -> list[Advance]:
        """The next +1 of every trait and subtrait below :data:`MODIFIER_CAP`."""
        return [self.quote(character, advance_key(slot)) for slot in SLOTS
                if modifier(character, slot) < MODIFIER_CAP]

    def quote(self, character: Character, key: str) -> Advance:
        """The price of +1 on ``key`` ("trait:t0"). Raises RuleError for an unknown key or a
        modifier at the cap."""
        slot = slot_of(key)
        name = names(character.campaign)[slot]
        current = modifier(character, slot)
        if current >= MODIFIER_CAP:
            raise RuleError(f"{name} is at {signed(current)}, the most XP can buy.",
                            RULE_ADVANCE)
        each = TRAIT_PRICE if is_trait(slot) else SUBTRAIT_PRICE
        kind = "trait" if is_trait(slot) else "subtrait"
        return Advance(key=key, label=f"{name} {signed(current)} → {signed(current + 1)}",
                       rank_from=current, rank_to=current + 1, cost=price(slot, current + 1),
                       notes=(f"A {kind} costs {each} XP × the new modifier.",))

    def rank(self, character: Character, key: str) -> int:
        """The modifier of ``key``'s slot."""
        return modifier(character, slot_of(key))

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set the modifier of ``key``'s slot (a spend or its undo)."""
        slot = slot_of(key)
        character.sheet = {**character.sheet,
                           "modifiers": {**character.sheet.get("modifiers", {}), slot: rank}}

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """The modifier back, under the campaign's name for the trait or subtrait (3d6 sheet
        decision, Advancement), as "Power's modifier goes back from +4 to +3"."""
        if entry.rank_from is None or entry.rank_to is None:
            return super().undo_description(character, entry)
        try:
            name = names(character.campaign)[slot_of(entry.trait_key)]
        except RuleError:
            return super().undo_description(character, entry)
        return (f"{name}'s modifier goes back from {signed(entry.rank_to)} to "
                f"{signed(entry.rank_from)}.")

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The price list for ``xp.html``."""
        return {"d6_trait_price": TRAIT_PRICE, "d6_subtrait_price": SUBTRAIT_PRICE,
                "d6_cap": MODIFIER_CAP}

    # rolls

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> RollForm:
        """The roll dialog's form; lists the campaign's other characters (one query)."""
        return RollForm(data, character=character, opponents=opponents(character))

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Roll a test (3d6 Rolls and Tests, Rolls and Tests) or a contest (Contesting, Tie
        Breakers): the character's dice first, then the opponent's, then a d2 if a tie goes
        to chance. Stored once, with both sides for a contest."""
        if cleaned_data["mode"] != "contest":
            pool = own_pool(character, cleaned_data, td=cleaned_data["td"])
            result = three_d6.roll_test(pool, rng)
            outcome, net, summary = verdict_of_test(result)
            return RolledResult(kind=RollKind.TEST, description=pool.describe(), result=result,
                                outcome=outcome, net=net, summary=summary)
        pool = own_pool(character, cleaned_data, td=None)
        other = opponent(character, cleaned_data)
        mine, theirs = three_d6.roll_test(pool, rng), three_d6.roll_test(other.pool, rng)
        i_defend, they_defend = defends(cleaned_data)
        contest = three_d6.resolve_contest(
            three_d6.ContestSide(result=mine, is_pc=True, is_defender=i_defend,
                                 level=level(character), name=character.name),
            three_d6.ContestSide(result=theirs, is_pc=other.is_pc, is_defender=they_defend,
                                 level=other.level, name=other.name),
            rng)
        description = (f"Contest: {side_text(character.name, pool)} against "
                       f"{side_text(other.name, other.pool)}")
        outcome, net, summary = verdict_of_contest(contest)
        return RolledResult(kind=RollKind.CONTEST, description=description, result=contest,
                            outcome=outcome, net=net, summary=summary)

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """The dice each test's pool rolls, and what they give (:func:`check_roll`). Raises
        RuleError naming the first disagreement."""
        check_roll(roll, parent)

    def roll_header(self, roll: Roll) -> RollHeader:
        """A test: "Agility test · 4d6 + 1 · TD 10", favor and disfavor folded ("1 favor").
        A contest: "Power test · Mara Quill against Dock guard", each side's dice folded
        ("Mara Quill: Power test: 3d6 + 3; Dock guard: 3d6 + 2"). Read from the stored
        description (:meth:`rulesets.three_d6.TestPool.describe`, ``side_text``)."""
        text = self.roll_description(roll)
        if text.startswith("Contest: "):  # its words, not roll.kind: see SheetSystem.roll_header
            first, found, second = text.removeprefix("Contest: ").partition(") against ")
            # A name may hold brackets ("Mara (the Quill)"), a side's test its notes.
            mine_side, their_side = split_side(first + ")"), split_side(second)
            if not (found and mine_side and their_side):
                return super().roll_header(roll)
            (mine, my_dice), (theirs, their_dice) = mine_side, their_side
            label, labelled, _ = my_dice.partition(": ")
            sides = f"{mine} against {theirs}"
            return RollHeader(short=f"{label} · {sides}" if labelled and "(" not in label
                              else sides,
                              details=f"{mine}: {my_dice}; {theirs}: {their_dice}")
        header = super().roll_header(roll)
        name, found, rest = header.short.partition(": ")
        if not found:
            return header
        dice, against, td = rest.partition(" vs ")
        return RollHeader(short=" · ".join([name, dice, *([td] if against else [])]),
                          details=header.details)

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> RequestForm:
        """The GM's "Ask for a roll": a trait or subtrait, a TD, favor and disfavor."""
        return RequestForm(data, campaign=campaign)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The roll dialog's data for the GM's request, and the request in words ("Power
        test vs TD 12, 1 favor")."""
        favor, disfavor = cleaned_data.get("favor") or 0, cleaned_data.get("disfavor") or 0
        data = {"mode": "test", "target": cleaned_data["target"], "td": cleaned_data["td"],
                "situational": 0, "favor": favor, "disfavor": disfavor}
        name = names(character.campaign)[cleaned_data["target"]]
        words = f"{name} test vs TD {cleaned_data['td']}"
        words += f", {favor} favor" if favor else ""
        words += f", {disfavor} disfavor" if disfavor else ""
        return data, words

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds: of success and of each critical for a test; of winning a contest,
        ties settled as the tie-breakers would."""
        if cleaned_data["mode"] != "contest":
            pool = own_pool(character, cleaned_data, td=cleaned_data["td"])
            chances = three_d6.odds(pool.td or three_d6.TD_MIN, pool.modifier, pool.favor,
                                    pool.disfavor, readings=pool.readings)
            rows = [("Success", chances.success, True),
                    ("Critical success", chances.critical_success, True),
                    ("Critical failure", chances.critical_failure, False)]
            return {"odds": True, "pool_text": pool.describe(),
                    "odds_rows": [(label, float(p), percent_text(float(p)), good)
                                  for label, p, good in rows],
                    "odds_headline": f"Success {percent_text(float(chances.success))}",
                    "odds_lines": (["No dice: the test fails automatically."]
                                   if pool.automatic_failure else [])}
        pool = own_pool(character, cleaned_data, td=None)
        other = opponent(character, cleaned_data)
        i_defend, they_defend = defends(cleaned_data)
        chances_c = three_d6.contest_odds(
            pool, other.pool,
            three_d6.TieFacts(is_pc=True, is_defender=i_defend, modifier=pool.modifier,
                              level=level(character)),
            three_d6.TieFacts(is_pc=other.is_pc, is_defender=they_defend,
                              modifier=other.pool.modifier, level=other.level))
        win, tie = float(chances_c.win), float(chances_c.tie)
        return {"odds": True,
                "pool_text": (f"{side_text(character.name, pool)} against "
                              f"{side_text(other.name, other.pool)}"),
                "odds_rows": [("Win", win, percent_text(win), True),
                              ("Tie", tie, percent_text(tie), True)],
                "odds_headline": f"Win {percent_text(win)}",
                "odds_lines": [tie_text(chances_c.tie_decided_by, chances_c.tie_winner,
                                        character.name, other.name)]}

    # the table's memory (systems.three_d6.history, systems.three_d6.luck)

    luck_measure = LUCK_MEASURE

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """Each trait and subtrait's modifier under the campaign's names, health and level
        (:func:`systems.three_d6.history.sheet_facts`). No query once the character's
        campaign is loaded."""
        return history.sheet_facts(character.sheet if sheet is None else sheet,
                                   names(character.campaign))

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """A test's total against its exact odds (:func:`systems.three_d6.luck.roll_luck`:
        which rolls count). No query."""
        return luck.roll_luck(roll)


SYSTEM = ThreeD6System(
    slug="three_d6",
    actions=ACTIONS,
    campaign_actions=CAMPAIGN_ACTIONS,
)
