"""State changes of a character, for every system: its creation, an in-place change of its
sheet, the XP ledger (awards, purchases, undo), and its life around the table (what its
player and the GM write about it, retiring and bringing it back, a new owner, deletion).

Every function here is atomic: it locks the character row (``SELECT ... FOR NO KEY UPDATE``,
:func:`characters.ledger.lock_character`), lets the campaign's system check the rule, writes,
and either everything happens or nothing does. A rule violation raises
``rulesets.errors.RuleError`` before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction

import systems
from campaigns.models import Campaign, Membership
from characters.ledger import (
    LedgerLine,
    banked_xp,
    ledger_append,
    lock_character,
)
from characters.models import RULE_STATUS, Character, XpEntry
from core.appendonly import erasing_logs
from core.live import announce
from encounters.models import turn_of
from history.facts import character_facts, record_change
from history.log import record
from history.models import Activity
from rolls.models import RequestedRoll, Roll
from rulesets.errors import RuleError
from systems.initiative import ENCOUNTER_TURN

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Session

def _lock(character: Character) -> Character:
    """Re-read ``character`` under :func:`lock_character`'s lock."""
    return lock_character(character.pk)


def _save_sheet(character: Character) -> None:
    """Save a changed sheet and tell the campaign's open pages once committed. Call inside
    the transaction that changed it."""
    character.save(update_fields=["sheet", "updated_at"])
    announce(character.campaign_id, "trackChanged", character_id=character.pk,
             gm_only=character.changes_gm_only)


# --- Creation -----------------------------------------------------------------------------


def character_create(
    *, campaign: Campaign, owner: User, name: str, concept: str,
    sheet: dict[str, object], entries: Sequence[LedgerLine] = (), starting_xp: int = 0,
) -> Character:
    """Create a character of the campaign's system with its checked ``sheet``, all or
    nothing: the row, then its ledger's first lines in order (``starting_xp`` as one
    STARTING entry when given, then ``entries``: a system whose creation buys and sells, as
    Maelstrom's merits, flaws and purchases, writes one line each), each created by
    ``owner``. Announces ``partyChanged`` once committed (the dashboard's cards and lists).
    Returns the character."""
    with transaction.atomic():
        character = Character.objects.create(
            campaign=campaign, owner=owner, name=name.strip(), concept=concept.strip(),
            sheet=sheet,
        )
        lines = list(entries)
        if starting_xp:
            lines.insert(0, LedgerLine(kind=XpEntry.Kind.STARTING, available_delta=starting_xp,
                                       total_delta=starting_xp, reason="Starting XP"))
        for line in lines:
            ledger_append(character, kind=line.kind, available_delta=line.available_delta,
                          total_delta=line.total_delta, trait_key=line.trait_key,
                          rank_from=line.rank_from, rank_to=line.rank_to,
                          reason=line.reason[:200], created_by=owner, at_creation=True)
        record(campaign_id=campaign.pk, kind=Activity.Kind.CHARACTER, action="create",
               text=f"Created {character.name}.", by=owner, character=character,
               gm_only=character.changes_gm_only)
        # A character made during play joins the GM's open dashboard at once.
        _announce_party(character)
    return character


def character_create_from_data(
    *, campaign: Campaign, owner: User, data: Mapping[str, Any],
) -> Character:
    """Create a character of the campaign's system from creation-form ``data`` (field name ->
    value, as the one-form creation page posts it), exactly as that page does: the system's
    form checks it, its ``new_sheet`` builds the sheet, and :func:`character_create` writes
    it with its starting XP. The demo data and the tests make characters this way.

    Raises:
        ValueError: the form is invalid (its errors, one sentence each).
        RuleError: a rule refuses the sheet.
    """
    system = systems.for_campaign(campaign)
    form = system.creation_form(campaign, data)
    if not form.is_valid():
        raise ValueError(systems.errors_text(form))
    return character_create(
        campaign=campaign, owner=owner, name=form.cleaned_data["name"],
        concept=form.cleaned_data.get("concept", ""),
        sheet=system.new_sheet(campaign, form.cleaned_data),
        starting_xp=system.creation_xp(campaign, form.cleaned_data),
    )


# --- The sheet ----------------------------------------------------------------------------


def sheet_change(
    *, character: Character, action: systems.TrackAction, data: dict[str, object],
    by: User,
) -> tuple[Character, str]:
    """Make one in-place change of a character's sheet (damage marked, a stress step, a plot
    point spent, XP banked), all or nothing: lock the row, let the system's action change
    ``sheet`` (RuleError refuses it, and nothing is written), save, and announce
    ``trackChanged`` after commit. The action gets the form's data with
    ``systems.initiative.ENCOUNTER_TURN`` (asked only by a rule that needs it). The
    change's activity entry (its message, the facts it moved) is written with it.

    Returns the changed character and the action's message for the player.
    """
    with transaction.atomic():
        locked = _lock(character)
        before = character_facts(locked, items=False)
        message = action.apply(locked, {**data, ENCOUNTER_TURN: lambda: turn_of(locked)}, by)
        _save_sheet(locked)
        name = next((name for name, known in systems.for_campaign(locked.campaign)
                     .actions.items() if known is action), "")
        record_change(locked, before=before, kind=Activity.Kind.SHEET, action=name,
                      text=message, by=by)
    return locked, message


# --- The XP ledger ------------------------------------------------------------------------


def xp_award(
    *, character: Character, amount: int, reason: str, by: User,
    session: Session | None = None,
) -> XpEntry:
    """Award ``amount`` XP (1-100) with a reason, as part of ``session``'s awards when given.

    Raises RuleError for an amount out of range, an empty reason (citing the system's
    :attr:`~systems.SheetSystem.rule_earning`), or a character not in play.
    """
    rule = systems.for_campaign(character.campaign).rule_earning
    if amount < 1 or amount > 100:
        raise RuleError("An award is between 1 and 100 XP.", rule)
    if not reason.strip():
        raise RuleError("Give the award a reason.", rule)
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        before = character_facts(locked, items=False)
        entry = ledger_append(locked, kind=XpEntry.Kind.AWARD, available_delta=amount,
                              total_delta=amount, reason=reason.strip()[:200], created_by=by,
                              session=session)
        record_change(locked, before=before, kind=Activity.Kind.XP, action="award",
                      text=f"Awarded {amount} XP: {entry.reason}", by=by)
        return entry


def xp_award_many(
    *, character: Character, awards: list[tuple[int, str]], by: User,
    session: Session | None = None, named: Sequence[str] = (),
) -> list[XpEntry]:
    """Award several amounts at once, all or nothing: ``awards`` is ``[(xp, reason), ...]``
    and ``named`` the system's named awards ticked (:meth:`systems.SheetSystem.session_award`,
    e.g. Maelstrom's chapter awards, 1 XP each), given first. One ledger entry per award,
    each linked to ``session`` when given.

    Raises RuleError (and writes nothing) if any award is invalid; a refused named award's
    message names the character.
    """
    with transaction.atomic():
        entries: list[XpEntry] = []
        if named:
            system = systems.for_campaign(character.campaign)
            locked = _lock(character)
            locked.require_in_play()
            for name in named:
                if name not in system.session_awards(character.campaign):
                    raise RuleError(f"{name!r} is not one of this campaign's awards.",
                                    system.rule_earning)
                before = character_facts(locked, items=False)
                entry = system.session_award(locked, name, by=by, session=session)
                record_change(locked, before=before, kind=Activity.Kind.XP, action="award",
                              text=f"Awarded {entry.available_delta} XP: {entry.reason}",
                              by=by)
                entries.append(entry)
        entries += [xp_award(character=character, amount=amount, reason=reason, by=by,
                             session=session)
                    for amount, reason in awards]
        return entries


def xp_quote(character: Character, key: str) -> tuple[systems.Advance, int]:
    """The price of the next rank of ``key`` as the system quotes it, and how much of it
    banked XP pays (``Advance.bank_key``'s bank, used first: Maelstrom rules.md, Spending
    Experience). Raises RuleError as :meth:`systems.SheetSystem.quote` does."""
    advance = systems.for_campaign(character.campaign).quote(character, key)
    banked = banked_xp(character).get(advance.bank_key, 0) if advance.bank_key else 0
    return advance, min(banked, advance.cost)


def xp_spend(
    *, character: Character, key: str, by: User, expected_cost: int | None = None,
) -> XpEntry:
    """Buy the next rank of ``key`` (a dot, a skill rank, a die step, a buy-in level, a new
    specialty) with XP, as the system prices it: banked XP first, then available XP; one
    ledger entry, and the sheet changed in the same transaction.

    ``expected_cost`` is the price the player confirmed: if the price has changed since (a
    purchase made in another tab), the spend is refused. Raises RuleError with the reason
    (the system's refusal, the price change, or the shortfall naming cost and balance).

    A spend made while the character is still being built
    (:meth:`systems.SheetSystem.in_creation`) is marked as its creation's
    (``XpEntry.at_creation``): it does not keep the character from being deleted.
    """
    system = systems.for_campaign(character.campaign)
    with transaction.atomic():
        locked = _lock(character)
        locked.require_in_play()
        locked.campaign = character.campaign
        advance, from_bank = xp_quote(locked, key)
        if expected_cost is not None and advance.cost != expected_cost:
            raise RuleError(f"The price changed to {advance.cost} XP since you looked "
                            f"(you confirmed {expected_cost} XP); check it and confirm again.",
                            system.rule_spending)
        from_available = advance.cost - from_bank
        if from_available > locked.xp_available:
            bank = f" plus {from_bank} banked" if from_bank else ""
            raise RuleError(
                f"{advance.label} costs {advance.cost} XP; you have {locked.xp_available} XP "
                f"available{bank} ({from_available - locked.xp_available} short).",
                system.rule_spending)
        # Read before the rank changes: the purchase is judged by the sheet it was made on.
        at_creation = system.in_creation(locked)
        before = character_facts(locked, items=False)
        system.set_rank(locked, key, advance.rank_to)
        _save_sheet(locked)
        banked_note = f", {from_bank} XP from the bank" if from_bank else ""
        entry = ledger_append(
            locked, kind=XpEntry.Kind.SPEND, available_delta=-from_available,
            banked_delta=-from_bank, bank_key=advance.bank_key if from_bank else "",
            trait_key=advance.key, rank_from=advance.rank_from, rank_to=advance.rank_to,
            reason=f"{advance.label}{banked_note}"[:200], created_by=by,
            at_creation=at_creation)
        record_change(locked, before=before, kind=Activity.Kind.XP, action="spend",
                      text=f"Spent {advance.cost} XP: {entry.reason}", by=by)
        return entry


def xp_undo(*, entry: XpEntry, by: User, as_gm: bool) -> XpEntry:
    """Undo a spend with a reversing entry: the XP comes back (banked XP to its bank) and
    the rank goes back (a bought specialty is removed). Nothing is deleted.

    A player may undo only their own latest spend that is not yet undone; the GM
    (``as_gm``) any spend, as long as no later purchase on the same key stands on it.
    Raises RuleError with the reason otherwise.

    An undo made while the character is still being built
    (:meth:`systems.SheetSystem.in_creation`) is marked as its creation's, as such a spend
    is (``XpEntry.at_creation``).
    """
    with transaction.atomic():
        character = _lock(entry.character)
        character.require_in_play()
        entry = XpEntry.objects.select_related("reversal").get(pk=entry.pk)
        system = systems.for_campaign(character.campaign)
        rule = system.rule_spending
        if entry.kind != XpEntry.Kind.SPEND:
            raise RuleError("Only a spend can be undone.", rule)
        if hasattr(entry, "reversal"):
            raise RuleError("That spend has already been undone.", rule)
        if not as_gm and (player_undoable(character) != entry.pk
                          or entry.created_by_id != by.pk):
            raise RuleError("You can undo only your own latest spend, once; ask the GM to "
                            "undo an older one.", rule)
        if system.rank(character, entry.trait_key) != entry.rank_to:
            raise RuleError(
                f"{system.key_label(entry.trait_key)} has been changed since this spend; undo "
                "the later purchase first.", rule,
            )
        at_creation = system.in_creation(character)
        before = character_facts(character, items=False)
        system.set_rank(character, entry.trait_key, entry.rank_from or 0)
        _save_sheet(character)
        reversal = ledger_append(
            character, kind=XpEntry.Kind.REVERSAL, available_delta=-entry.available_delta,
            total_delta=-entry.total_delta, banked_delta=-entry.banked_delta,
            bank_key=entry.bank_key, trait_key=entry.trait_key, rank_from=entry.rank_to,
            rank_to=entry.rank_from, reverses=entry, reason=f"Undo: {entry.reason}",
            created_by=by, at_creation=at_creation,
        )
        record_change(character, before=before, kind=Activity.Kind.XP, action="undo",
                      text=f"Undid a spend of {entry.cost} XP: {entry.reason}", by=by)
        return reversal


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


# --- A character's life: what is written about it, retiring, a new owner, deletion -------

EDITABLE_FIELDS = frozenset({"name", "concept", "backstory", "notes", "gm_notes"})
"""What :func:`character_update` may change: the names and what people write about the
character. Its sheet changes only through the system's rules (:func:`sheet_change`)."""

PRIVATE_FIELDS = frozenset({"gm_notes"})
"""Fields no player may learn anything of, not even that they changed: a change of these alone
is announced to nobody."""


def character_update(*, character: Character, by: User, **fields: str) -> Character:
    """Change what is written about a character (its name, concept, backstory, the player's
    notes, the GM's notes), under the character's row lock, so that an edit queues behind a
    change of its sheet rather than overwriting it with stale values.

    The caller checks who may change what (the owner or the GM; the GM's notes only the GM)
    and the lengths (the forms of ``characters.forms``). A change anyone at the table can see
    is announced as ``trackChanged`` with the character's id (never the text), so the GM's
    party card shows the new name; a new name or concept also as ``partyChanged``, for the
    lists that show them (the party, "Ask for a roll", the characters' lists); a change of
    the GM's notes alone is announced to nobody.

    Args:
        character: the character, as loaded by the view.
        by: who makes the change (the owner or the GM).
        **fields: new values of :data:`EDITABLE_FIELDS`, e.g. ``name="Rook"``.

    Returns:
        The character as stored now.

    Raises:
        ValueError: a field that is not in :data:`EDITABLE_FIELDS`, or an empty name.
    """
    unknown = set(fields) - EDITABLE_FIELDS
    if unknown:
        raise ValueError(f"character_update cannot change {', '.join(sorted(unknown))}")
    values = {name: value.strip() for name, value in fields.items()}
    if "name" in values and not values["name"]:
        raise ValueError("A character needs a name.")
    with transaction.atomic():
        locked = _lock(character)
        changed = [name for name, value in values.items() if getattr(locked, name) != value]
        if not changed:
            return locked
        before = character_facts(locked, items=False)
        for name in changed:
            setattr(locked, name, values[name])
        locked.save(update_fields=[*changed, "updated_at"])
        _record_edit(locked, changed, before=before, by=by)
        if set(changed) - PRIVATE_FIELDS:
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk,
                     gm_only=locked.changes_gm_only)
        if {"name", "concept"} & set(changed):
            _announce_party(locked)
    return locked


EDITED = {"name": "the name", "concept": "the concept", "backstory": "the backstory",
          "notes": "the notes", "gm_notes": "the GM's notes"}
"""How the activity log names each of :data:`EDITABLE_FIELDS` ("Edited the backstory.")."""


def _record_edit(character: Character, changed: Sequence[str], *, before: dict[str, str],
                 by: User) -> None:
    """The activity entries of an edit: one for what the table may know changed (the name and
    concept with their values; the other texts by name alone, never their words), and one
    for the GM's notes, the GM's alone (:data:`PRIVATE_FIELDS`)."""
    public = [name for name in changed if name not in PRIVATE_FIELDS]
    if public:
        listed = ", ".join(EDITED[name] for name in public)
        record_change(character, before=before, kind=Activity.Kind.CHARACTER, action="edit",
                      text=f"Edited {listed}.", by=by)
    if set(changed) & PRIVATE_FIELDS:
        record(campaign_id=character.campaign_id, kind=Activity.Kind.CHARACTER,
               action="gm-notes", text=f"Edited {EDITED['gm_notes']}.", by=by,
               character=character, gm_only=True)


OUT_OF_PARTY = (Character.Status.RETIRED, Character.Status.DEAD)
"""The statuses :func:`character_retire` sets."""


def _announce_party(character: Character) -> None:
    """Tell the campaign's open pages, once committed, that the party changed around
    ``character`` (ids only): ``partyChanged`` for the dashboard's party cards and character
    lists, ``partyChanged-<id>`` for the character's sheet (its status and actions)."""
    announce(character.campaign_id, "partyChanged", character_id=character.pk,
             gm_only=character.changes_gm_only)


def character_retire(*, character: Character, status: str, by: User,
                     as_gm: bool = False) -> Character:
    """Take a character out of the party, as retired or dead: it leaves the party cards and
    the roll dialogs and can no longer roll, spend or receive XP, or be asked for a roll
    (``Character.require_in_play``); its sheet, rolls and ledger stay readable. The GM brings
    it back with :func:`character_restore`.

    Dead is the GM's call: a player (``as_gm`` False) may only retire a character, and may not
    change the status of one the GM marked dead. The GM may also turn a retired character into
    a dead one, or the reverse.

    Args:
        character: the character, as loaded by the view (its owner or the GM checked there).
        status: ``Character.Status.RETIRED`` or ``Character.Status.DEAD``.
        by: who retires it.
        as_gm: whether ``by`` is the campaign's GM.

    Returns:
        The character as stored now.

    Raises:
        RuleError: citing :data:`characters.models.RULE_STATUS`: a status that is not one of
            these, a player marking a character dead or changing a dead one's status, or a
            character that already has this status. Nothing is written.
    """
    if status not in OUT_OF_PARTY:
        raise RuleError("A character leaves the party retired or dead.", RULE_STATUS)
    if status == Character.Status.DEAD and not as_gm:
        raise RuleError("Only the GM can mark a character dead; you can retire it.",
                        RULE_STATUS)
    with transaction.atomic():
        locked = _lock(character)
        if locked.status == status:
            raise RuleError(f"{locked.name} is already {locked.get_status_display().lower()}.",
                            RULE_STATUS)
        if locked.status == Character.Status.DEAD and not as_gm:
            raise RuleError(f"The GM marked {locked.name} dead; only the GM can change that.",
                            RULE_STATUS)
        before = character_facts(locked, items=False)
        locked.status = status
        locked.save(update_fields=["status", "updated_at"])
        record_change(locked, before=before, kind=Activity.Kind.CHARACTER, action="retire",
                      text=f"{locked.name} left the party: {locked.get_status_display()}.",
                      by=by)
        _announce_party(locked)
    return locked


def character_restore(*, character: Character, by: User) -> Character:
    """Bring a retired or dead character back into the party (the GM's decision, checked by
    the caller): it appears on the party cards and in the roll dialogs again, and may roll,
    spend and receive XP (unless it is an import still awaiting the GM).

    Args:
        character: the character, as loaded by the view.
        by: the GM.

    Returns:
        The character as stored now.

    Raises:
        RuleError: the character is already in the party (citing
            :data:`characters.models.RULE_STATUS`). Nothing is written.
    """
    with transaction.atomic():
        locked = _lock(character)
        if locked.status == Character.Status.ACTIVE:
            raise RuleError(f"{locked.name} is already in the party.", RULE_STATUS)
        before = character_facts(locked, items=False)
        locked.status = Character.Status.ACTIVE
        locked.save(update_fields=["status", "updated_at"])
        record_change(locked, before=before, kind=Activity.Kind.CHARACTER, action="restore",
                      text=f"{locked.name} is back in the party.", by=by)
        _announce_party(locked)
    return locked


def character_move(*, character: Character, to_user: User, by: User) -> Character:
    """Give a character to another player of its campaign (the GM's decision, checked by the
    caller). Its rolls and ledger stay as they were, each naming who made it; the new owner
    answers its open roll requests, and the former owner no longer sees it.

    Args:
        character: the character, as loaded by the view.
        to_user: the new owner: a player of the character's campaign, not its owner now.
        by: the GM.

    Returns:
        The character as stored now.

    Raises:
        RuleError: ``to_user`` is not a player of the campaign (their seat may have been taken
            away since the form was shown, or be going away right now: checked under the
            campaign's row lock), or already owns the character. Nothing is written.
    """
    with transaction.atomic():
        # Lock order as campaigns.services._seat_close: the campaign row (FOR NO KEY UPDATE,
        # as campaigns.services._lock_campaign), then the character. A leave or a removal of
        # ``to_user`` holds the campaign row until their seat is deleted, and a handover
        # holds it until the seats' roles change, so the seat read below is the one that
        # stands: never an active character owned by someone who has just left the table
        # (the character's lock alone does not stop a leave, which locks only the leaver's
        # own characters).
        Campaign.objects.select_for_update(no_key=True).get(pk=character.campaign_id)
        locked = _lock(character)
        if locked.owner_id == to_user.pk:
            raise RuleError(f"{locked.name} already belongs to them.", RULE_STATUS)
        seated = Membership.objects.filter(campaign_id=locked.campaign_id, user=to_user,
                                           role=Membership.Role.PLAYER).exists()
        if not seated or not to_user.is_active:  # a former player's seat (a deleted account)
            raise RuleError("They are not a player of this campaign: only a player of the "
                            "campaign can take a character over.", RULE_STATUS)
        locked.owner = to_user
        locked.save(update_fields=["owner", "updated_at"])
        record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER, action="move",
               text=f"Gave {locked.name} to {to_user.get_short_name() or to_user.get_username()}.",
               by=by, character=locked, gm_only=locked.changes_gm_only)
        _announce_party(locked)
    return locked


@dataclass(frozen=True)
class DeleteBlockers:
    """What keeps a character from being deleted: its history at the table. Rolls, roll
    requests and any XP entry but those its creation wrote (``XpEntry.at_creation``) are
    history, and history is only ever deleted with its whole campaign."""

    rolls: int = 0
    requests: int = 0
    entries: int = 0

    def __bool__(self) -> bool:
        return bool(self.rolls or self.requests or self.entries)

    def explain(self, name: str) -> str:
        """Why ``name`` cannot be deleted, in one sentence, e.g. "Rook has 12 rolls and 3
        ledger entries since its creation: retire it instead, which keeps its history."
        (empty when nothing blocks it)."""
        parts = [_count(self.rolls, "roll"), _count(self.requests, "roll request"),
                 _count(self.entries, "ledger entry", "ledger entries")]
        history = [part for part in parts if part]
        if not history:
            return ""
        listed = (history[0] if len(history) == 1
                  else ", ".join(history[:-1]) + " and " + history[-1])
        return (f"{name} has {listed} since its creation: retire it instead, which keeps its "
                "history.")


def _count(number: int, one: str, many: str = "") -> str:
    if not number:
        return ""
    return f"{number} {one if number == 1 else many or one + 's'}"


def delete_blockers(character: Character) -> DeleteBlockers:
    """What keeps ``character`` from being deleted (:class:`DeleteBlockers`; falsy when it
    may be). Three counting queries."""
    return DeleteBlockers(
        rolls=Roll.objects.filter(character=character).count(),
        requests=RequestedRoll.objects.filter(character=character).count(),
        entries=XpEntry.objects.filter(character=character, at_creation=False).count(),
    )


def character_delete(*, character: Character, by: User) -> None:
    """Delete a character that has no history yet: no roll, no roll request and no XP entry
    but those its creation wrote. A character with history is retired instead
    (:func:`character_retire`), so that the roll log and the ledger stay true.

    The check is made again under the character's lock, so a roll made between the
    confirmation page and the deletion is seen and refuses it. The creation's ledger entries
    go with the character (the database's cascade, let through by
    :func:`core.appendonly.erasing_logs`): they are the record of building it, not of play.

    Args:
        character: the character, as loaded by the view (its owner or the GM checked there).
        by: who deletes it.

    Raises:
        RuleError: the character has history (:meth:`DeleteBlockers.explain` says what),
            citing :data:`characters.models.RULE_STATUS`. Nothing is deleted.
    """
    with transaction.atomic():
        # FOR UPDATE, not lock_character's FOR NO KEY UPDATE: the row is going away, so a row
        # that would point at it (a roll request, which takes no character lock) must wait
        # for this transaction, then fail on the missing character, rather than slip in
        # between the count below and the delete.
        locked = Character.all_objects.select_for_update().get(pk=character.pk)
        blockers = delete_blockers(locked)
        if blockers:
            raise RuleError(blockers.explain(locked.name), RULE_STATUS)
        _announce_party(locked)
        # The campaign's entry outlives the character; the character's own go with it.
        record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER, action="delete",
               text=f"Deleted {locked.name}.", by=by, gm_only=locked.changes_gm_only)
        # Checked just above: the only ledger rows it takes are its creation's.
        with erasing_logs("a character deleted before it made any history"):
            locked.delete()
