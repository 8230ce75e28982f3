"""Every change of an encounter: start, add, the order, the turn, remove, end
(docs/encounters.md).

Each runs in one transaction with the encounter's row locked (``SELECT ... FOR UPDATE``), so
the GM's two tabs, a co-GM and a player pressing at once queue behind one another and each
sees the change before it. A turn change carries the turn its page showed (:class:`Shown`):
one that no longer holds is refused with :class:`StaleTurn` and changes nothing, so two
presses of "Next" on one turn advance it once (docs/encounters.md, "Two at once").

Each change is announced once committed as ``encounterChanged``: to the GM's pages alone when
what the players see of the encounter (``encounters.context.players_view``) is as it was (a
hidden NPC added, its turn passing to another hidden NPC's), so that nothing a player's page
counts moves for it (docs/security.md, "Hidden activity").

Each change is logged too (``encounter`` entries of the activity log, linking the encounter's
page), in its transaction. An entry that names a hidden NPC is the GM's alone; where a change
moves both what the players see and what they do not (a hidden NPC and a player character
added at once, the order set with hidden NPCs in it), the players' part is an entry of its own
that names only whom they see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone

import systems
from characters.models import Character
from core.live import announce
from encounters.context import Place, gm_view, players_view
from encounters.models import Combatant, Encounter
from history.log import record
from history.models import Activity
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Session
    from rulesets.dice import Rng

RULE = "docs/encounters.md"
EVENT = "encounterChanged"
"""The live event of every change of an encounter (the pages' ``turn-order`` region)."""
ENDED = "This encounter has ended: nothing more changes in it."


@dataclass(frozen=True)
class Shown:
    """The turn a page showed when its "Next", "Previous", "Delay" or "Done" was pressed.

    Attributes:
        round: the round shown.
        code: the code of the combatant whose turn it was, "" before the first turn.
    """

    round: int
    code: str


@dataclass(frozen=True)
class Entry:
    """What the GM set of one combatant's initiative: ``choice`` (one of the system's
    ``initiative_choices``, "" for its default) and ``roll`` (None: the server rolls it)."""

    choice: str
    roll: int | None


class StaleTurn(RuleError):
    """The turn moved on since the page showed it: nothing was changed."""


def _lock(encounter: Encounter) -> Encounter:
    """The encounter's row, locked for the rest of the transaction, with its campaign; a
    running one only."""
    locked = Encounter.objects.select_for_update().get(pk=encounter.pk)
    locked.campaign = encounter.campaign
    if locked.ended_at is not None:
        raise RuleError(ENDED, RULE)
    return locked


def _combatants(encounter: Encounter) -> list[Combatant]:
    """Its combatants in order, with their characters. Call it holding the encounter's lock:
    every change of a combatant is made under it."""
    return list(encounter.combatants.select_related("character"))


def _announce(encounter: Encounter, before: object) -> None:
    """Announce the change once committed: to the GM's pages only when the players' view
    (``before``, read under the lock before the change) is as it was."""
    after = players_view(encounter, _combatants(encounter))
    announce(encounter.campaign_id, EVENT, gm_only=after == before)


def _check_turn(encounter: Encounter, combatants: Sequence[Combatant], shown: Shown) -> None:
    """Refuse a turn change made from a page that showed another turn."""
    current = next((c for c in combatants if c.pk == encounter.current_id), None)
    code = str(current.code) if current is not None else ""
    if shown.round != encounter.round or shown.code != code:
        raise StaleTurn(f"The turn had already moved on (it is now round {encounter.round}): "
                        "nothing was changed. The order shows where the fight stands.", RULE)


def _renumber(combatants: Iterable[Combatant]) -> None:
    """Positions 0, 1, 2... in the order given, saved where they changed."""
    for position, combatant in enumerate(combatants):
        if combatant.position != position:
            combatant.position = position
            combatant.save(update_fields=["position"])


def _advance(encounter: Encounter, active: Sequence[Combatant],
             combatants: Sequence[Combatant], leaving: Combatant | None = None) -> None:
    """Pass the turn to the next combatant of ``active`` after the current one (or after
    ``leaving``, the current one going out), the first of the next round after the last;
    a new round clears every delay. None is left when ``active`` is empty."""
    current_id = leaving.pk if leaving is not None else encounter.current_id
    standing = [c for c in active if c is not leaving]
    encounter.begun = True
    if not standing:
        encounter.current = None
        return
    if current_id is None:
        encounter.current = standing[0]
        return
    position = next(c.position for c in combatants if c.pk == current_id)
    later = [c for c in standing if (c.position, c.pk) > (position, current_id)]
    if later:
        encounter.current = later[0]
        return
    encounter.round += 1
    encounter.current = standing[0]
    for combatant in combatants:
        if combatant.delayed:
            combatant.delayed = False
            combatant.save(update_fields=["delayed"])


def _save(encounter: Encounter) -> None:
    encounter.save(update_fields=["round", "current", "begun"])


def _log(encounter: Encounter, action: str, text: str, by: User | None, *,
         gm_only: bool = False) -> None:
    """Append the change's activity entry (kind ``encounter``), linking the encounter."""
    record(campaign_id=encounter.campaign_id, kind=Activity.Kind.ENCOUNTER, action=action,
           text=text, by=by, gm_only=gm_only, link=encounter.get_absolute_url())


def _names(combatants: Iterable[Combatant] | Iterable[Character]) -> str:
    return ", ".join(c.name for c in combatants)


def _log_turn(encounter: Encounter, combatants: Sequence[Combatant], action: str,
              by: User | None, lead: str = "") -> None:
    """Log whose turn it is now ("Round 2: Vex's turn."), after ``lead`` (what happened
    first, in words); the GM's alone when it names a hidden NPC, ``lead`` included."""
    current = next((c for c in combatants if c.pk == encounter.current_id), None)
    whose = (f"{current.name}'s turn" if current is not None else "no one is left standing")
    hidden = current is not None and not current.shown_to_players
    _log(encounter, action, f"{lead}Round {encounter.round}: {whose}.", by,
         gm_only=hidden)


def _in_play(campaign: Campaign, characters: Iterable[Character]) -> list[Character]:
    """Those of ``characters`` who may fight: of ``campaign``, in the party or the GM's NPCs
    in play (not retired or dead, not an import awaiting the GM or refused, not out of the
    story by the system's rules)."""
    system = systems.for_campaign(campaign)
    fit = []
    for character in characters:
        if character.campaign_id == campaign.pk:
            character.campaign = campaign  # the system's check reads it: no query each
            if character.in_play and not system.is_out_of_play(character):
                fit.append(character)
    return fit


def _new_combatant(encounter: Encounter, character: Character, position: int) -> Combatant:
    """A new combatant at ``position``, its initiative not set yet (``{}``: the order form
    offers the system's first choice)."""
    return Combatant.objects.create(
        encounter=encounter, character=character, name=character.name, is_npc=character.is_npc,
        position=position)


def encounter_start(*, campaign: Campaign, by: User, name: str = "",
                    session: Session | None = None) -> Encounter:
    """Start an encounter with the party in it: every player character in play, in name
    order, before the first turn.

    Args:
        campaign: the campaign (its system says who is out of the story).
        by: whoever runs the table.
        name: its name; blank for "Encounter <n>".
        session: the session it happens in; None for the campaign's latest session dated
            today, if there is one.

    Returns:
        The new encounter.

    Raises:
        RuleError: an encounter is already running in the campaign (one at a time); nothing
            is written.
    """
    running = campaign.encounters.filter(ended_at__isnull=True).first()
    if running is not None:
        raise RuleError(f"{running.name} is still running: end it before starting another.",
                        RULE)
    if session is None:
        session = campaign.sessions.filter(date=timezone.localdate()).first()
    party = _in_play(campaign, Character.objects.filter(campaign=campaign))
    with transaction.atomic():
        try:
            with transaction.atomic():  # a savepoint: a second start at once is refused here
                encounter = Encounter.objects.create(
                    campaign=campaign, session=session, started_at=timezone.now(),
                    name=name.strip() or f"Encounter {campaign.encounters.count() + 1}")
        except IntegrityError:
            raise RuleError("Another encounter was started at the same moment: end it "
                            "before starting one more.", RULE) from None
        encounter.campaign = campaign
        for position, character in enumerate(party):
            _new_combatant(encounter, character, position)
        # The party alone: player characters, whom every player sees.
        _log(encounter, "start", f"Started {encounter.name}"
             + (f" with {_names(party)}." if party else "."), by)
        announce(campaign.pk, EVENT)
    return encounter


def combatants_add(*, encounter: Encounter, characters: Sequence[Character], by: User
                   ) -> list[Combatant]:
    """Add characters of the campaign (the GM's NPCs, or a player character who joins the
    fight) at the end of the order: they act last this round. One removed earlier comes
    back, at the end.

    Args:
        encounter: a running encounter.
        characters: characters of its campaign, in play.
        by: whoever runs the table.

    Returns:
        The combatants added or brought back.

    Raises:
        RuleError: the encounter has ended, or one of ``characters`` is already in the
            fight or cannot fight (of another campaign, retired, dead, awaiting the GM);
            nothing is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        before = players_view(locked, combatants)
        fit = {c.pk for c in _in_play(locked.campaign, characters)}
        placed = {c.character_id: c for c in combatants}
        position = max((c.position for c in combatants), default=-1)
        added: list[Combatant] = []
        for character in characters:
            if character.pk not in fit:
                raise RuleError(f"{character.name} cannot join this fight.", RULE)
            position += 1
            known = placed.get(character.pk)
            if known is None:
                added.append(_new_combatant(locked, character, position))
            elif known.defeated:
                known.defeated, known.delayed, known.position = False, False, position
                known.save(update_fields=["defeated", "delayed", "position"])
                added.append(known)
            else:
                raise RuleError(f"{character.name} is already in the fight.", RULE)
        _renumber(_combatants(locked))
        seen = [c for c in added if c.shown_to_players]
        unseen = [c for c in added if not c.shown_to_players]
        if seen:
            _log(locked, "add", f"Added {_names(seen)} to the fight.", by)
        if unseen:
            _log(locked, "add", f"Added {_names(unseen)} to the fight, hidden from the "
                 "players.", by, gm_only=True)
        _announce(locked, before)
    return added


def initiative_set(*, encounter: Encounter, entries: Mapping[str, Entry], by: User, rng: Rng
                   ) -> Encounter:
    """Set the order by the campaign's system's rule (``SheetSystem.initiative_key``): each
    combatant still in the fight takes its entry (by combatant code; one not posted keeps
    what it had), a number left blank where its choice has one is rolled by the server
    (``SheetSystem.initiative_roll``), and the order is sorted, ties keeping the order they
    had. Delays are cleared; the turn stays with whoever has it.

    Args:
        encounter: a running encounter.
        entries: combatant code -> what the GM set.
        by: whoever runs the table.
        rng: the server's dice (``core.dice.get_rng()``).

    Returns:
        The encounter, as saved.

    Raises:
        RuleError: the encounter has ended, or a choice the system does not have; nothing
            is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        before = players_view(locked, combatants)
        system = systems.for_campaign(locked.campaign)
        choices = [value for value, _ in system.initiative_choices]
        active = [c for c in combatants if not c.defeated]
        for combatant in active:
            stored = combatant.initiative or {}
            entry = entries.get(str(combatant.code))
            choice = (entry.choice if entry is not None and entry.choice
                      else str(stored.get("choice") or choices[0]))
            if choice not in choices:
                raise RuleError(f"{combatant.name}: {choice!r} is not one of "
                                f"{', '.join(choices)}.", RULE)
            roll: int | None = None
            if system.initiative_rolls(choice):
                kept = stored.get("roll")
                roll = entry.roll if entry is not None else (
                    kept if isinstance(kept, int) else None)
                if roll is None:
                    roll = system.initiative_roll(locked.campaign, combatant.character, rng)
            combatant.initiative = {"choice": choice, "roll": roll}
            combatant.delayed = False
            combatant.save(update_fields=["initiative", "delayed"])
        ordered = sorted(active, key=lambda c: system.initiative_key(
            is_npc=c.is_npc, choice=c.initiative["choice"], roll=c.initiative["roll"]))
        _renumber([*ordered, *(c for c in combatants if c.defeated)])
        _log_order(locked, before, by)
        _announce(locked, before)
    return locked


def _log_order(encounter: Encounter, before: object, by: User) -> None:
    """Log the order just set ("Set the order: Rook 17, Wren 12."): as the players see it
    when their view changed, and in full, the GM's alone, when a hidden NPC is in it."""
    combatants = _combatants(encounter)
    full = gm_view(encounter, combatants).order
    seen = players_view(encounter, combatants)

    def said(places: Iterable[Place]) -> str:
        return ", ".join(f"{p.name} {p.initiative}".strip() for p in places)

    hidden = any(p.hidden for p in full)
    if not hidden or seen != before:
        _log(encounter, "order", f"Set the order: {said(seen.order)}.", by)
    if hidden:
        _log(encounter, "order", f"Set the order, hidden NPCs included: {said(full)}.", by,
             gm_only=True)


def turn_next(*, encounter: Encounter, shown: Shown, by: User, players_own: bool = False
              ) -> Encounter:
    """The next turn: the first combatant's when the fight has not begun, else the one after
    the current one's, or the first of the next round after the last (a new round clears
    every delay).

    Args:
        encounter: a running encounter.
        shown: the turn the page showed.
        by: whoever pressed it.
        players_own: a player's "Done": allowed only while it is the turn of a character
            ``by`` plays.

    Returns:
        The encounter, as saved.

    Raises:
        StaleTurn: the turn is no longer ``shown``.
        RuleError: the encounter has ended, no one is left in the fight, or (a player's)
            it is not their character's turn. Nothing is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        _check_turn(locked, combatants, shown)
        if players_own:
            current = next((c for c in combatants if c.pk == locked.current_id), None)
            if (current is None or current.is_npc or current.character is None
                    or current.character.owner_id != by.pk):
                raise RuleError("It is not your character's turn: only the GM moves the "
                                "turn on now.", RULE)
        active = [c for c in combatants if not c.defeated]
        if not active:
            raise RuleError("No one is left in the fight: add someone, or end the encounter.",
                            RULE)
        before = players_view(locked, combatants)
        _advance(locked, active, combatants)
        _save(locked)
        _log_turn(locked, combatants, "turn", by)
        _announce(locked, before)
    return locked


def turn_previous(*, encounter: Encounter, shown: Shown, by: User) -> Encounter:
    """Back one turn: the combatant before the current one, or the last of the round before
    (a mistaken "Next").

    Raises:
        StaleTurn: the turn is no longer ``shown``.
        RuleError: the encounter has ended, has not begun, or is at its first turn. Nothing
            is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        _check_turn(locked, combatants, shown)
        active = [c for c in combatants if not c.defeated]
        if locked.current_id is None or not active:
            raise RuleError("There is no turn to go back to.", RULE)
        before = players_view(locked, combatants)
        index = next(i for i, c in enumerate(active) if c.pk == locked.current_id)
        if index > 0:
            locked.current = active[index - 1]
        elif locked.round > 1:
            locked.round -= 1
            locked.current = active[-1]
        else:
            raise RuleError("This is the first turn of the fight: there is none before it.",
                            RULE)
        _save(locked)
        _log_turn(locked, combatants, "turn-back", by, lead="Back one turn. ")
        _announce(locked, before)
    return locked


def turn_delay(*, encounter: Encounter, shown: Shown, by: User) -> Encounter:
    """The current combatant acts later this round: it swaps places with the next one in
    the order, whose turn it now is, and is marked delayed until the round ends. Delay again
    to fall further back; the order keeps the swap in later rounds.

    Raises:
        StaleTurn: the turn is no longer ``shown``.
        RuleError: the encounter has ended or has not begun, or the current combatant is
            the last of the round already. Nothing is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        _check_turn(locked, combatants, shown)
        active = [c for c in combatants if not c.defeated]
        current = next((c for c in active if c.pk == locked.current_id), None)
        if current is None:
            raise RuleError("No one's turn to delay.", RULE)
        index = active.index(current)
        if index == len(active) - 1:
            raise RuleError(f"{current.name} acts last this round already: press Next to "
                            "end the round.", RULE)
        before = players_view(locked, combatants)
        following = active[index + 1]
        current.position, following.position = following.position, current.position
        current.delayed = True
        current.save(update_fields=["position", "delayed"])
        following.save(update_fields=["position"])
        locked.current = following
        _save(locked)
        # Two entries: the delay (a hidden NPC's is the GM's to know), and the turn it
        # passes, as any turn passing is logged (and relayed to the group's chat).
        _log(locked, "delay", f"{current.name} delays.", by,
             gm_only=not current.shown_to_players)
        _log_turn(locked, combatants, "turn", by)
        _announce(locked, before)
    return locked


def combatant_remove(*, encounter: Encounter, code: str, by: User) -> Combatant:
    """Take a defeated combatant out of the order (kept in the record). When it was its turn,
    the turn passes on as with "Next".

    Args:
        encounter: a running encounter.
        code: the combatant's code.
        by: whoever runs the table.

    Returns:
        The combatant, removed.

    Raises:
        RuleError: the encounter has ended, or no combatant of it still in the fight has
            that code. Nothing is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        combatants = _combatants(locked)
        target = next((c for c in combatants if str(c.code) == code and not c.defeated), None)
        if target is None:
            raise RuleError("No one of that name is in the fight any more.", RULE)
        before = players_view(locked, combatants)
        passed = target.pk == locked.current_id
        if passed:
            _advance(locked, [c for c in combatants if not c.defeated], combatants,
                     leaving=target)
        target.defeated = True
        target.delayed = False
        target.save(update_fields=["defeated", "delayed"])
        _save(locked)
        _log(locked, "remove", f"Took {target.name} out of the fight.", by,
             gm_only=not target.shown_to_players)
        if passed:
            _log_turn(locked, combatants, "turn", by)
        _announce(locked, before)
    return target


def encounter_end(*, encounter: Encounter, by: User) -> Encounter:
    """End the encounter: its record keeps who took part, the rounds, and the rolls made
    while it ran; another may start.

    Raises:
        RuleError: it has ended already; nothing is written.
    """
    with transaction.atomic():
        locked = _lock(encounter)
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
        rounds = f"{locked.round} round{'s' if locked.round != 1 else ''}"
        _log(locked, "end", f"Ended {locked.name} after {rounds}."
             if locked.begun else f"Ended {locked.name} before its first turn.", by)
        announce(locked.campaign_id, EVENT)
    return locked
