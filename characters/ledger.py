"""The XP ledger's one writer and the character row's lock: what every change of a character
starts with, below the systems and the services that compose them.

Every change of a character (tracks, sheet, XP balance) locks its row first
(:func:`lock_character`), so changes queue; every XP entry goes through :func:`ledger_append`,
which keeps ``Character.xp_available`` and ``xp_total`` in step with the ledger in the same
transaction and announces ``xpChanged`` once it commits.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum

from characters.models import Character, XpEntry
from core.live import announce
from rulesets.errors import RuleError

RULE_LEDGER = "Advancement"
"""What the ledger's own guard cites (an overdraft no service let through): the systems'
advancement rules all forbid spending XP one does not have."""


@dataclass(frozen=True)
class LedgerLine:
    """One ledger entry to write at creation (starting XP, a merit's price, a flaw's award, a
    purchase made while building the character), in the order given: ``kind`` one of
    ``XpEntry.KINDS``, deltas in XP, ``trait_key`` the ledger key bought (``""`` for none) and
    the ranks it went from and to (dots; ``None`` for none)."""

    kind: str
    available_delta: int = 0
    total_delta: int = 0
    trait_key: str = ""
    reason: str = ""
    rank_from: int | None = None
    rank_to: int | None = None


def lock_character(pk: int) -> Character:
    """Read the character row ``pk`` under a row lock; call inside transaction.atomic().

    Every change of a character (tracks, sheet, XP balance) takes this lock first, so they
    queue. It is FOR NO KEY UPDATE, not FOR UPDATE: rows that only point at the character (a
    roll request, a session's award entry, a roll) may still be written by another
    transaction meanwhile. Under FOR UPDATE their foreign-key checks would wait for it, and a
    GM asking the whole party for a roll (rows written in name order) while awarding a session
    (characters locked in id order) would deadlock on PostgreSQL
    (tests/concurrency/test_maelstrom_table.py). SQLite has no row locks and ignores it.

    Raises Character.DoesNotExist.
    """
    return Character.all_objects.select_for_update(no_key=True).get(pk=pk)


def ledger_append(character: Character, **fields: object) -> XpEntry:
    """Append an XP ledger entry (``XpEntry`` fields) and keep the character's cached sums in
    step; announces ``xpChanged`` after commit.

    Should be called while holding a SELECT FOR UPDATE lock on the character
    (:func:`lock_character`; a system's action runs under it). Refuses (RuleError) a character
    not in play: an import awaiting the GM, or refused (the public services check it first;
    this is the guard no path around them passes), and an overdraft.
    """
    character.require_in_play()
    entry = XpEntry.objects.create(character=character, **fields)
    character.xp_available += entry.available_delta
    character.xp_total += entry.total_delta
    if character.xp_available < 0:  # a guard: callers check first, with a clearer message
        raise RuleError("That would leave negative XP.", RULE_LEDGER)
    character.save(update_fields=["xp_available", "xp_total", "updated_at"])
    announce(character.campaign_id, "xpChanged", character_id=character.pk,
             gm_only=character.changes_gm_only)
    return entry


def banked_xp(character: Character) -> dict[str, int]:
    """XP banked per ledger key, from the ledger: ``{"ability:Driving": 2}`` (zeros dropped;
    ``{}`` for a system that banks nothing). One query."""
    rows = (
        XpEntry.objects.filter(character=character)
        .exclude(banked_delta=0)
        .values("bank_key")
        .annotate(banked=Sum("banked_delta"))
        .order_by()
    )
    return {row["bank_key"]: row["banked"] for row in rows if row["banked"]}
