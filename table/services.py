"""State changes of the GM's table: sessions of play and their end-of-session awards, and the
GM's changes of the system's campaign data (the tension pool, the skill list).

Every award is an ordinary XP ledger entry written by ``characters.services.xp_award``, so
the cached balances stay in step and every open page hears ``xpChanged`` once the awards
commit; the entry points at its session, which is how a session knows what it gave.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction

import systems
from campaigns.models import Campaign, Session
from characters.models import Character, XpEntry
from characters.services import xp_award_many
from core.live import announce
from history.facts import character_facts
from history.log import changes, record
from history.models import Activity
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from rolls.models import Roll
    from rulesets.dice import Rng
    from systems.base import CampaignAction

RULE_AWARDS = "Sessions and awards"
"""What a refused award cites: the award grid's own rules (whose characters, which awards,
what amount), the same for every system."""

CUSTOM_MIN, CUSTOM_MAX = 1, 100


def session_create(
    *, campaign: Campaign, date: datetime.date, title: str = "", recap: str = "",
    by: User | None = None,
) -> Session:
    """Open a session of play on ``date`` (the GM's, checked by the caller), with an
    optional ``recap`` (Markdown), and log it (``session``/``create``, linking the session's
    page). ``by``: the GM opening it; None for the server (a seed, a script)."""
    with transaction.atomic():
        session = Session.objects.create(campaign=campaign, date=date, title=title.strip(),
                                         recap=recap.strip())
        record(campaign_id=campaign.pk, kind=Activity.Kind.SESSION, action="create",
               text=f"Opened the session {session}.", by=by,
               link=session.get_absolute_url())
    return session


def session_recap_update(*, session: Session, recap: str, by: User) -> Session:
    """Write or rewrite a session's recap (Markdown, read by every member on its page).

    Args:
        session: the session; its campaign's GM is ``by`` (checked by the caller, as is the
            recap's length: core.markdown.MAX_LENGTH).
        recap: the GM's Markdown; spaces at either end are dropped, and an empty recap
            clears it.
        by: the GM.

    Returns:
        The session as saved. The last of two saves wins: the recap is one text with one
        writer, not a balance, so nothing is lost that its writer did not replace.
    """
    had = bool(session.recap)
    if session.recap == recap.strip():
        return session  # nothing changed: nothing to save, log or post
    session.recap = recap.strip()
    with transaction.atomic():
        # One UPDATE of the recap's column alone: the title and date are never written back
        # from the copy this request holds.
        session.save(update_fields=["recap"])
        # The recap's words stay on the session's page: the log says that it changed.
        text = (f"Cleared the recap of {session}." if not session.recap else
                f"Rewrote the recap of {session}." if had else
                f"Wrote the recap of {session}.")
        record(campaign_id=session.campaign_id, kind=Activity.Kind.SESSION, action="recap",
               text=text, by=by, link=session.get_absolute_url())
    return session


def session_award(
    *,
    session: Session,
    awards: Mapping[int, Iterable[str]] | None = None,
    custom: Mapping[int, tuple[int, str]] | None = None,
    custom_for_all: tuple[int, str] | None = None,
    expected_entries: int | None = None,
    by: User,
) -> list[XpEntry]:
    """Hand out a session's awards, all or nothing; one ledger entry per award and character.

    Args:
        session: the session the awards belong to; every entry is linked to it.
        awards: the system's named awards ticked per character id, e.g.
            ``{12: ["Heroism"]}`` (:meth:`systems.SheetSystem.session_awards`: Maelstrom's
            chapter and story awards, Shattered World's universal achievements).
        custom: a custom amount (1-100 XP) and its reason per character id.
        custom_for_all: a custom amount and reason for every living character of the
            campaign (on top of any custom amount of their own).
        expected_entries: how many entries the session had when the GM opened the page; when
            it has more or fewer now (a double submit, a second tab), nothing is awarded and
            the GM is asked to look again, as ``xp_spend`` does with ``expected_cost``.
        by: the GM (the caller checks that they are).

    Raises RuleError, before writing anything, for an unknown award, a character outside
    the session's campaign, a character not in play (an import awaiting the GM, or refused:
    ``custom_for_all`` skips those, as it skips a character out of the story:
    :meth:`systems.SheetSystem.is_out_of_play`), a custom amount outside 1-100 or
    without a reason, and when nothing at all is awarded. Returns the entries, by character
    id then in award order.
    """
    awards = awards or {}
    custom = custom or {}
    with transaction.atomic():
        # Lock order, session then characters by id, so two submits queue up, never deadlock.
        session = Session.objects.select_for_update().get(pk=session.pk)
        if expected_entries is not None and session.xp_entries.count() != expected_entries:
            raise RuleError(
                "Awards were given in this session since you opened the page (a second submit "
                "or another tab); check what each character received and submit again if "
                "it is still due.", RULE_AWARDS,
            )
        characters = {c.pk: c for c in Character.objects.filter(campaign=session.campaign_id)}
        for character_id in sorted({*awards, *custom}):
            character = characters.get(character_id)
            if character is not None and not character.in_play:
                character.require_in_play()  # raises, naming it and why
        system = systems.for_campaign(session.campaign)
        named = _named_awards(awards, system.session_awards(session.campaign), characters)
        custom_awards = _custom_awards(custom, custom_for_all, characters, system)
        if not custom_awards and not named:
            raise RuleError("Tick at least one award or enter an amount of XP, for a character "
                            "or for everyone.", RULE_AWARDS)
        entries: list[XpEntry] = []
        for character_id in sorted({*named, *custom_awards}):
            try:
                entries += xp_award_many(character=characters[character_id],
                                         named=named.get(character_id, ()),
                                         awards=custom_awards.get(character_id, []),
                                         by=by, session=session)
            except RuleError as exc:
                name = characters[character_id].name
                if exc.message.startswith(f"{name}"):
                    raise
                raise RuleError(f"{name}: {exc.message}", exc.rule) from None
    return entries


def _named_awards(
    awards: Mapping[int, Iterable[str]], offered: tuple[str, ...],
    characters: Mapping[int, Character],
) -> dict[int, list[str]]:
    """The system's ticked awards, checked against what it offers and the
    campaign's characters. Raises RuleError for the first problem."""
    result: dict[int, list[str]] = {}
    for character_id, names in awards.items():
        if character_id not in characters:
            raise RuleError(f"Character #{character_id} is not in this campaign; awards go to "
                            "its characters only.", RULE_AWARDS)
        for name in names:
            if name not in offered:
                raise RuleError(f"{name!r} is not one of this campaign's awards.", RULE_AWARDS)
            result.setdefault(character_id, []).append(name)
    return result


def _custom_awards(
    custom: Mapping[int, tuple[int, str]],
    custom_for_all: tuple[int, str] | None,
    characters: Mapping[int, Character],
    system: systems.SheetSystem,
) -> dict[int, list[tuple[int, str]]]:
    """Check the custom amounts and spell them out as ``{character id: [(xp, reason), ...]}``;
    characters who get nothing are left out. Raises RuleError for the first problem."""
    strangers = sorted(set(custom) - set(characters))
    if strangers:
        raise RuleError(
            f"Character #{strangers[0]} is not in this campaign; awards go to its characters "
            "only.", RULE_AWARDS,
        )
    result: dict[int, list[tuple[int, str]]] = {}
    for character_id, (amount, reason) in custom.items():
        _check_custom(amount, reason, for_whom=characters[character_id].name,
                      rule=system.rule_earning)
        result.setdefault(character_id, []).append((amount, reason.strip()))
    if custom_for_all is not None:
        amount, reason = custom_for_all
        _check_custom(amount, reason, for_whom="everyone", rule=system.rule_earning)
        for character in characters.values():
            if character.in_play and not system.is_out_of_play(character):
                result.setdefault(character.pk, []).append((amount, reason.strip()))
    return result


def _check_custom(amount: int, reason: str, *, for_whom: str, rule: str) -> None:
    if not CUSTOM_MIN <= amount <= CUSTOM_MAX:
        raise RuleError(f"The custom award for {for_whom} must be between {CUSTOM_MIN} and "
                        f"{CUSTOM_MAX} XP.", rule)
    if not reason.strip():
        raise RuleError(f"Give a reason for the custom award for {for_whom}.", rule)


def campaign_system_change(
    *, campaign: Campaign, action: CampaignAction, data: dict[str, Any], by: User,
    rng: Rng,
) -> tuple[Campaign, str, Roll | None]:
    """A GM change of the campaign's system data (grow or roll the tension pool, edit the
    skill list), all or nothing: lock the campaign row, let the system's action change
    ``system_data`` (RuleError refuses it and nothing is written), save, and announce
    ``campaignChanged`` after commit: to the GM's pages alone when the action made a GM-only
    roll (Shahquest's general danger rolled in secret), whose record in ``system_data`` only
    the GM's panel shows; players hear nothing of it (docs/security.md, "Hidden activity").
    Returns the campaign, the message and any roll made.

    The change is logged with the action's name (its ``campaign_actions`` key) and message:
    one entry per character whose facts the action moved (a plot point given with an
    opportunity die: :func:`history.facts.character_facts`, before and after), or one for
    the campaign alone. An entry is the GM's alone when the roll is GM-only or its character
    is an NPC whose changes the players do not see."""
    system = systems.for_campaign(campaign)
    name = next((key for key, known in system.campaign_actions.items() if known is action), "")
    with transaction.atomic():
        # FOR NO KEY UPDATE, not FOR UPDATE: two changes of system_data still queue, but a
        # row that merely points at the campaign (a player's Roll, stored while that player's
        # character is locked) may be written meanwhile. With FOR UPDATE, an opportunity
        # (campaign, then the character for its plot point) and a roll (the character, then
        # the Roll's foreign-key check on the campaign) would deadlock on PostgreSQL
        # (tests/concurrency/test_shahquest.py). Ignored where the database has no row locks.
        locked = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
        before = {c.pk: character_facts(c, items=False) for c in _cast(locked)}
        message, roll = action.apply(locked, data, by, rng)
        locked.save(update_fields=["system_data"])
        _record_system_change(locked, name, message, roll, before, by)
        announce(locked.pk, "campaignChanged", gm_only=roll is not None and roll.gm_only)
    return locked, message, roll


def _cast(campaign: Campaign) -> list[Character]:
    """The campaign's characters and NPCs, each with ``campaign`` set (their facts read it)."""
    cast = list(Character.all_objects.filter(campaign=campaign).order_by("pk"))
    for character in cast:
        character.campaign = campaign
    return cast


def _record_system_change(campaign: Campaign, name: str, message: str, roll: Roll | None,
                          before: Mapping[int, Mapping[str, str]], by: User) -> None:
    """The activity entries of a campaign action (:func:`campaign_system_change`): the
    characters' facts now against ``before`` (character id -> facts), one entry per character
    that changed, else one for the campaign; the roll's page is the link."""
    secret = roll is not None and roll.gm_only
    link = roll.get_absolute_url() if roll is not None else ""
    moved = [(character, changed) for character in _cast(campaign)
             if (changed := changes(before.get(character.pk, {}),
                                    character_facts(character, items=False)))]
    if not moved:
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, action=name,
               text=message, by=by, gm_only=secret, link=link)
    for character, changed in moved:
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, action=name,
               text=message, by=by, character=character, changed=changed,
               gm_only=secret or character.changes_gm_only, link=link)
