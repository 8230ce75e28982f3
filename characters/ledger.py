"""The XP ledger's one writer and the character row's lock: what every change of a character
starts with, below the systems and the services that compose them.

Every change of a character (tracks, sheet, XP balance) locks its row first
(:func:`lock_character`), so changes queue; every XP entry goes through :func:`ledger_append`,
which keeps ``Character.xp_available`` and ``xp_total`` in step with the ledger in the same
transaction and announces ``xpChanged`` once it commits.
"""

from __future__ import annotations

from characters.models import Character, XpEntry
from core.live import announce
from rulesets.errors import RuleError

RULE_SPENDING = "Maelstrom rules.md, Spending Experience"


def lock_character(pk: int) -> Character:
    """Read the character row ``pk`` under a row lock; call inside transaction.atomic().

    Every change of a character (tracks, sheet, XP balance) takes this lock first, so they
    queue. It is FOR NO KEY UPDATE, not FOR UPDATE: rows that only point at the character (a
    roll request, a session's award entry, a roll) may still be written by another
    transaction meanwhile. With FOR UPDATE their foreign-key checks waited for it, and a GM
    asking the whole party for a roll (rows written in name order) while awarding a session
    (characters locked in id order) deadlocked on PostgreSQL
    (tests/concurrency/test_maelstrom_table.py). SQLite has no row locks and ignores it.

    Raises Character.DoesNotExist.
    """
    return Character.objects.select_for_update(no_key=True).get(pk=pk)


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
        raise RuleError("That would leave negative XP.", RULE_SPENDING)
    character.save(update_fields=["xp_available", "xp_total", "updated_at"])
    announce(character.campaign_id, "xpChanged", character_id=character.pk)
    return entry
