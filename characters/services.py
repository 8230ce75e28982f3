"""State changes of a character: damage and healing, willpower, and the XP ledger.

Every function here is atomic: it locks the character row (``SELECT ... FOR UPDATE``), checks
the rule through ``rulesets.maelstrom``, writes, and either everything happens or nothing does.
A rule violation raises ``rulesets.maelstrom.RuleError`` before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Sum

import systems
from characters.ledger import RULE_SPENDING, ledger_append, lock_character
from characters.models import WILLPOWER_KEY, Character, Trait, XpEntry, trait_key, trait_label
from core.live import announce
from rulesets import maelstrom
from rulesets.maelstrom import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Session

RULE_BANKING = "Maelstrom rules.md, Banking Experience"
RULE_WILLPOWER = "Maelstrom rules.md, Spending Willpower"

# The seed's suggested awards (Maelstrom rules.md, Chapter and Story Experience Awards).
CHAPTER_AWARDS = ("Participation", "Creativity", "Roleplaying", "Heroism")
STORY_AWARDS = ("Victory", "Hazard", "Ingenuity")


def _lock(character: Character) -> Character:
    """Re-read ``character`` under :func:`lock_character`'s lock."""
    return lock_character(character.pk)


def _save_tracks(character: Character, fields: list[str]) -> None:
    """Save changed health or willpower and tell the campaign's open pages once committed.
    Call inside the transaction that changed them."""
    character.save(update_fields=[*fields, "updated_at"])
    announce(character.campaign_id, "trackChanged", character_id=character.pk)


# --- Health and willpower -----------------------------------------------------------------


def damage_mark(*, character: Character, kind: str, levels: int) -> Character:
    """Mark ``levels`` levels of ``kind`` damage (bashing, lethal, aggravated) on the chart.

    Follows the stacking order, push-down, incapacitated conversion and death of
    Maelstrom rules.md, Marking Damage / Incapacitation and Death. Returns the locked,
    updated character. Raises RuleError (e.g. damage to a dead character).
    """
    with transaction.atomic():
        locked = _lock(character)
        locked.set_health(maelstrom.take_damage(locked.health, kind, levels))
        _save_tracks(locked, ["health_bashing", "health_lethal", "health_aggravated", "dead"])
    return locked


def damage_heal(*, character: Character, kind: str | None = None, levels: int = 1) -> Character:
    """Heal ``levels`` levels of damage: of ``kind``, or the least serious first when None.

    Raises RuleError when there is no such damage or the character is dead.
    """
    with transaction.atomic():
        locked = _lock(character)
        locked.set_health(maelstrom.heal(locked.health, kind, levels))
        _save_tracks(locked, ["health_bashing", "health_lethal", "health_aggravated", "dead"])
    return locked


def willpower_spend(*, character: Character) -> Character:
    """Spend one current willpower dot (Maelstrom rules.md, Spending Willpower).

    Raises RuleError when no current dot is left.
    """
    with transaction.atomic():
        locked = _lock(character)
        if locked.willpower_current < 1:
            raise RuleError("No willpower dot is left to spend.", RULE_WILLPOWER)
        locked.willpower_current -= 1
        _save_tracks(locked, ["willpower_current"])
    return locked


def willpower_recover(*, character: Character) -> Character:
    """Recover one willpower dot, never above the permanent rank
    (Maelstrom rules.md, Recovering Willpower). Raises RuleError at the permanent rank."""
    with transaction.atomic():
        locked = _lock(character)
        if locked.willpower_current >= locked.willpower_permanent:
            raise RuleError(
                f"Current willpower is already at its permanent rank "
                f"({locked.willpower_permanent}).",
                "Maelstrom rules.md, Willpower",
            )
        locked.willpower_current += 1
        _save_tracks(locked, ["willpower_current"])
    return locked


# --- The XP ledger ------------------------------------------------------------------------


def banked_xp(character: Character) -> dict[str, int]:
    """XP banked per trait key, from the ledger: ``{"ability:Driving": 2}`` (zeros dropped)."""
    rows = (
        XpEntry.objects.filter(character=character)
        .exclude(banked_delta=0)
        .values("bank_key")
        .annotate(banked=Sum("banked_delta"))
        .order_by()
    )
    return {row["bank_key"]: row["banked"] for row in rows if row["banked"]}


def xp_award(
    *, character: Character, amount: int, reason: str, by: User,
    session: Session | None = None,
) -> XpEntry:
    """Award ``amount`` XP (1-100) with a reason (Maelstrom rules.md, Earning Experience),
    as part of ``session``'s awards when given.

    Raises RuleError for a non-positive amount or an empty reason.
    """
    if amount < 1 or amount > 100:
        raise RuleError("An award is between 1 and 100 XP.", "Maelstrom rules.md, "
                        "Earning Experience")
    if not reason.strip():
        raise RuleError("Give the award a reason.", "Maelstrom rules.md, Earning Experience")
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        return ledger_append(locked, kind=XpEntry.Kind.AWARD, available_delta=amount,
                       total_delta=amount, reason=reason.strip()[:200], created_by=by,
                       session=session)


def xp_award_many(
    *, character: Character, awards: list[tuple[int, str]], by: User,
    session: Session | None = None,
) -> list[XpEntry]:
    """Award several amounts at once, all or nothing: ``awards`` is ``[(xp, reason), ...]``,
    e.g. the seed's chapter awards ticked together. One ledger entry per award, each linked
    to ``session`` when given.

    Raises RuleError (and writes nothing) if any award is invalid.
    """
    with transaction.atomic():
        return [xp_award(character=character, amount=amount, reason=reason, by=by,
                         session=session)
                for amount, reason in awards]


@dataclass(frozen=True)
class Purchase:
    """What buying one more dot of a trait costs, before confirming.

    ``cost`` in XP; ``from_bank`` of it comes from XP banked in ``bank_key`` (used first),
    ``from_available`` from available XP. ``affordable`` says whether the balance covers it.
    """

    trait_key: str
    label: str
    xp_kind: str
    rank_from: int
    rank_to: int
    cost: int
    bank_key: str
    banked: int
    from_bank: int
    from_available: int
    available: int

    @property
    def affordable(self) -> bool:
        """Whether available XP covers what the bank does not."""
        return self.from_available <= self.available

    def refusal(self) -> str:
        """The message for a purchase the balance can't cover."""
        bank = f" plus {self.banked} banked" if self.banked else ""
        return (
            f"{self.label} {self.rank_from} → {self.rank_to} costs {self.cost} XP; "
            f"you have {self.available} XP available{bank}."
        )


def xp_quote(
    *, character: Character, kind: str, name: str, ability: str = "", advanced: bool = False,
    banked: dict[str, int] | None = None,
) -> Purchase:
    """Price the next dot of a trait (Maelstrom rules.md, Spending Experience).

    ``kind`` is ``attribute``, ``ability``, ``willpower`` or ``specialty`` (then ``ability``
    names the ability it belongs to and ``advanced`` its type). Raises RuleError for a trait
    at its maximum, an unknown trait, or a specialty already owned.
    """
    if kind == WILLPOWER_KEY:
        current, xp_kind, key, bank_key = (character.willpower_permanent, "willpower",
                                           WILLPOWER_KEY, WILLPOWER_KEY)
        label = "Willpower"
    elif kind in (Trait.Kind.ATTRIBUTE, Trait.Kind.ABILITY):
        trait = character.traits.filter(kind=kind, name=name).first()
        if trait is None:
            raise RuleError(f"{name} is not a Maelstrom {kind}.", RULE_SPENDING)
        current, xp_kind, key, bank_key, label = (trait.dots, str(kind), trait.key,
                                                  trait.bank_key, name)
    elif kind == Trait.Kind.SPECIALTY:
        name = " ".join(name.split())
        if not name:
            raise RuleError("Name the specialty.", RULE_SPENDING)
        if ability not in maelstrom.ABILITIES:
            raise RuleError(f"{ability!r} is not a Maelstrom ability; a specialty belongs to "
                            "one ability.", "Maelstrom rules.md, Specialties")
        if character.traits.filter(kind=kind, ability=ability, name__iexact=name).exists():
            raise RuleError(f"{ability}: {name} is already a specialty of this character.",
                            "Maelstrom rules.md, Specialties")
        suggestion = maelstrom.suggested_specialty(ability, name)
        if suggestion is not None:
            # The seed classifies its suggestions: Extreme Range is advanced whatever the box.
            name, advanced = suggestion
        current = 0
        xp_kind = "advanced_specialty" if advanced else "general_specialty"
        key = trait_key(Trait.Kind.SPECIALTY, name, ability)
        bank_key = trait_key(Trait.Kind.ABILITY, ability)
        label = f"{ability}: {name} ({'advanced' if advanced else 'general'})"
    else:
        raise RuleError(f"Unknown trait kind {kind!r}.", RULE_SPENDING)

    cost = maelstrom.xp_cost(xp_kind, current + 1)
    banks = banked_xp(character) if banked is None else banked
    in_bank = banks.get(bank_key, 0)
    from_bank = min(in_bank, cost)
    return Purchase(
        trait_key=key, label=label, xp_kind=xp_kind, rank_from=current, rank_to=current + 1,
        cost=cost, bank_key=bank_key, banked=in_bank, from_bank=from_bank,
        from_available=cost - from_bank, available=character.xp_available,
    )


def xp_spend(
    *, character: Character, kind: str, name: str, ability: str = "", advanced: bool = False,
    expected_cost: int | None = None, by: User,
) -> XpEntry:
    """Buy the next dot of a trait (or a new specialty) with XP, banked XP first.

    Arguments as ``xp_quote``. ``expected_cost`` is the cost the player saw and confirmed:
    if the price changed meanwhile (another tab bought the dot), RuleError asks to confirm
    again instead of charging a different amount. Raises RuleError when the balance can't
    cover the cost, naming cost and balance (Maelstrom rules.md, Spending Experience: "make
    sure to use any banked experience points that apply before spending available points").
    Returns the SPEND entry.
    """
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        quote = xp_quote(character=locked, kind=kind, name=name, ability=ability,
                         advanced=advanced)
        if expected_cost is not None and expected_cost != quote.cost:
            raise RuleError(
                f"The price changed to {quote.cost} XP since you looked "
                f"(you confirmed {expected_cost} XP); check and confirm again.", RULE_SPENDING
            )
        if not quote.affordable:
            raise RuleError(quote.refusal(), RULE_SPENDING)
        _set_rank(locked, quote.trait_key, quote.rank_to,
                  advanced=quote.xp_kind == "advanced_specialty")
        from_bank = f", {quote.from_bank} XP from the bank" if quote.from_bank else ""
        return ledger_append(
            locked, kind=XpEntry.Kind.SPEND, available_delta=-quote.from_available,
            banked_delta=-quote.from_bank, bank_key=quote.bank_key if quote.from_bank else "",
            trait_key=quote.trait_key, rank_from=quote.rank_from, rank_to=quote.rank_to,
            reason=f"{quote.label} {quote.rank_from} → {quote.rank_to}{from_bank}",
            created_by=by,
        )


def _set_rank(character: Character, key: str, rank: int, *, advanced: bool = False) -> None:
    """Set a trait's rank from its ledger key; a specialty at rank 0 is removed.

    Should be called while holding a SELECT FOR UPDATE lock on the character.
    """
    if key == WILLPOWER_KEY:
        # Buying willpower raises both ranks; undoing lowers both (Maelstrom rules.md,
        # Willpower: "they gain a dot in both their current and maximum ranks").
        delta = rank - character.willpower_permanent
        character.willpower_permanent = rank
        character.willpower_current = max(0, min(rank, character.willpower_current + delta))
        character.save(update_fields=["willpower_permanent", "willpower_current"])
        return
    kind, _, rest = key.partition(":")
    if kind == Trait.Kind.SPECIALTY:
        ability, _, name = rest.partition(":")
        if rank == 0:
            Trait.objects.filter(character=character, kind=kind, ability=ability,
                                 name=name).delete()
        else:
            group = maelstrom.ABILITIES[ability].group if ability in maelstrom.ABILITIES else ""
            Trait.objects.create(character=character, kind=kind, ability=ability, name=name,
                                 advanced=advanced, group=group, dots=1)
        return
    Trait.objects.filter(character=character, kind=kind, name=rest).update(dots=rank)


def xp_bank(
    *, character: Character, key: str, amount: int, by: User
) -> XpEntry:
    """Bank ``amount`` available XP into one trait (Maelstrom rules.md, Banking Experience).

    ``key`` is an attribute's, an ability's (which also pays for its specialties) or
    willpower's ledger key. Banked XP is spendable only on that trait and is used first
    when buying it. Raises RuleError for a specialty, an unknown trait, a non-positive
    amount or more than is available.
    """
    if amount < 1:
        raise RuleError("Bank at least 1 XP.", RULE_BANKING)
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        if key != WILLPOWER_KEY:
            kind, _, name = key.partition(":")
            if kind not in (Trait.Kind.ATTRIBUTE, Trait.Kind.ABILITY) or not (
                locked.traits.filter(kind=kind, name=name).exists()
            ):
                raise RuleError(
                    "XP is banked into an attribute, an ability (for it and its specialties) "
                    "or Willpower.", RULE_BANKING,
                )
        if amount > locked.xp_available:
            raise RuleError(
                f"Banking {amount} XP needs {amount} available; you have "
                f"{locked.xp_available} XP available.", RULE_BANKING,
            )
        return ledger_append(locked, kind=XpEntry.Kind.BANK, available_delta=-amount,
                       banked_delta=amount, bank_key=key, trait_key=key,
                       reason=f"Banked in {trait_label(key)}", created_by=by)


def xp_undo(*, entry: XpEntry, by: User, as_gm: bool) -> XpEntry:
    """Undo a spend with a reversing entry: the XP comes back (banked XP to its bank) and
    the dot goes (a specialty is removed). Nothing is deleted.

    A player may undo only their own latest spend that is not yet undone; the GM
    (``as_gm``) any spend, as long as no later purchase on the same trait stands on it.
    Raises RuleError with the reason otherwise.
    """
    with transaction.atomic():
        character = _lock(entry.character)
        character.require_in_play()
        entry = XpEntry.objects.select_related("reversal").get(pk=entry.pk)
        if entry.kind != XpEntry.Kind.SPEND:
            raise RuleError("Only a spend can be undone.", RULE_SPENDING)
        if hasattr(entry, "reversal"):
            raise RuleError("That spend has already been undone.", RULE_SPENDING)
        if not as_gm and (player_undoable(character) != entry.pk
                          or entry.created_by_id != by.pk):
            raise RuleError("You can undo only your own latest spend, once; ask the GM to "
                            "undo an older one.", RULE_SPENDING)
        system = systems.for_ruleset(character.campaign.ruleset)
        current = (system.rank(character, entry.trait_key) if system
                   else _current_rank(character, entry.trait_key))
        if current != entry.rank_to:
            raise RuleError(
                f"{trait_label(entry.trait_key)} has been changed since this spend; undo the "
                "later purchase first.", RULE_SPENDING,
            )
        if system:
            system.set_rank(character, entry.trait_key, entry.rank_from or 0)
            _save_tracks(character, ["sheet"])
        else:
            _set_rank(character, entry.trait_key, entry.rank_from or 0)
        return ledger_append(
            character, kind=XpEntry.Kind.REVERSAL, available_delta=-entry.available_delta,
            total_delta=-entry.total_delta, banked_delta=-entry.banked_delta,
            bank_key=entry.bank_key, trait_key=entry.trait_key, rank_from=entry.rank_to,
            rank_to=entry.rank_from, reverses=entry, reason=f"Undo: {entry.reason}",
            created_by=by,
        )


def player_undoable(character: Character) -> int | None:
    """The id of the spend a player may undo themselves: the latest spend or undo on the
    ledger, when it is a spend (so one undo, not a walk back through every purchase).
    Which player may is checked by the caller: the spend's own ``created_by``."""
    latest = (
        XpEntry.objects.filter(character=character,
                               kind__in=[XpEntry.Kind.SPEND, XpEntry.Kind.REVERSAL])
        .order_by("-created_at", "-id").values_list("pk", "kind").first()
    )
    if latest is None or latest[1] != XpEntry.Kind.SPEND:
        return None
    return int(latest[0])


def _current_rank(character: Character, key: str) -> int:
    if key == WILLPOWER_KEY:
        return character.willpower_permanent
    kind, _, rest = key.partition(":")
    if kind == Trait.Kind.SPECIALTY:
        ability, _, name = rest.partition(":")
        return int(Trait.objects.filter(character=character, kind=kind, ability=ability,
                                        name=name).exists())
    trait = Trait.objects.filter(character=character, kind=kind, name=rest).first()
    return trait.dots if trait else -1


def xp_bank_for_experience_die(
    *, character: Character, key: str, by: User, reason: str
) -> XpEntry:
    """Bank 1 available XP in a trait used by a roll, for an experience die (Maelstrom
    rules.md, Adding Experience Dice). Should be called while holding a SELECT FOR UPDATE
    lock on the character. Raises RuleError when no XP is available."""
    if character.xp_available < 1:
        raise RuleError("An experience die needs 1 available XP to bank; you have none.",
                        "Maelstrom rules.md, Adding Experience Dice")
    return ledger_append(character, kind=XpEntry.Kind.BANK, available_delta=-1, banked_delta=1,
                   bank_key=key, trait_key=key, reason=reason, created_by=by)


# --- Every other system: the sheet as its description says (systems/) --------


def system_character_create(
    *, campaign: Campaign, owner: User, name: str, concept: str,
    sheet: dict[str, object], starting_xp: int = 0,
) -> Character:
    """Create a character of a system described in ``systems/`` with its checked
    ``sheet``, and its starting XP as the ledger's first entry when there is any. Atomic."""
    with transaction.atomic():
        character = Character.objects.create(
            campaign=campaign, owner=owner, name=name.strip(), concept=concept.strip(),
            sheet=sheet,
        )
        if starting_xp:
            ledger_append(character, kind=XpEntry.Kind.STARTING, available_delta=starting_xp,
                    total_delta=starting_xp, reason="Starting XP", created_by=owner)
    return character


def character_create_from_data(
    *, campaign: Campaign, owner: User, data: Mapping[str, Any],
) -> Character:
    """Create a character of the campaign's system from creation-form ``data`` (field name ->
    value, as the creation page posts it), exactly as that page does: the system's form
    checks it, its ``new_sheet`` builds the sheet, and :func:`system_character_create` writes
    it with its starting XP. The demo data and the tests make characters this way.

    Raises:
        ValueError: the form is invalid (its errors, one sentence each).
        RuleError: a rule refuses the sheet, or the campaign's system has no sheet layer.
    """
    system = systems.for_campaign(campaign)
    if system is None:
        raise RuleError("This system creates characters on its own pages.", "Creation")
    form = system.creation_form(campaign, data)
    if not form.is_valid():
        raise ValueError(systems.errors_text(form))
    return system_character_create(
        campaign=campaign, owner=owner, name=form.cleaned_data["name"],
        concept=form.cleaned_data.get("concept", ""),
        sheet=system.new_sheet(campaign, form.cleaned_data),
        starting_xp=system.creation_xp(campaign, form.cleaned_data),
    )


def sheet_change(
    *, character: Character, action: systems.TrackAction, data: dict[str, object],
    by: User,
) -> tuple[Character, str]:
    """Make one in-place change of a character's sheet (a stress step, a plot point spent),
    all or nothing: lock the row, let the system's action change ``sheet`` (RuleError
    refuses it, and nothing is written), save, and announce ``trackChanged`` after commit.

    Returns the changed character and the action's message for the player.
    """
    with transaction.atomic():
        locked = _lock(character)
        message = action.apply(locked, data, by)
        _save_tracks(locked, ["sheet"])
    return locked, message


def xp_spend_advance(
    *, character: Character, key: str, by: User, expected_cost: int | None = None,
) -> XpEntry:
    """Buy the next rank of ``key`` (a skill rank, a die step, a buy-in level) with XP, as
    the system prices it; one ledger entry, and the sheet changed in the same transaction.

    ``expected_cost`` is the price the player confirmed: if the price has changed since (a
    purchase made elsewhere), the spend is refused. Raises RuleError with the reason (the
    system's refusal, the price change, or the shortfall).
    """
    system = systems.for_ruleset(character.campaign.ruleset)
    if system is None:
        raise RuleError("This sheet spends XP on its XP page.", "Advancement")
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        advance = system.quote(locked, key)
        if expected_cost is not None and advance.cost != expected_cost:
            raise RuleError(f"The price changed to {advance.cost} XP since you looked; check "
                            "it and confirm again.", "Advancement")
        if advance.cost > locked.xp_available:
            raise RuleError(
                f"{advance.label} costs {advance.cost} XP; you have {locked.xp_available} "
                f"available ({advance.cost - locked.xp_available} short).", "Advancement")
        system.set_rank(locked, key, advance.rank_to)
        _save_tracks(locked, ["sheet"])
        return ledger_append(locked, kind=XpEntry.Kind.SPEND, available_delta=-advance.cost,
                       trait_key=key, rank_from=advance.rank_from, rank_to=advance.rank_to,
                       reason=advance.label[:200], created_by=by)
