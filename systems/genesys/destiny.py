"""The campaign's Destiny pool on the Genesys table (:mod:`rulesets.genesys.destiny`): where
it is kept (``Campaign.system_data["destiny"]``), the GM's moves on it (set, roll, a bare
flip: :class:`~systems.CampaignAction` apply functions) and the flips a check makes as it is
rolled (:func:`destiny_invest`), in the roll's own transaction.

Who may flip what (Genesys dice pool, Difficulty; Upgrading and Downgrading Dice): the player
rolling a check invests a light point to upgrade an ability die (the check dialog's
``destiny_point``); the GM invests a dark point to upgrade a difficulty die by asking for the
roll with it (the request's ``destiny_dark``), and the point flips when the roll is made.
A dark flip is accepted only on the answer to a GM's request that carries it, so no player
can post one; the GM's bare flips and the pool's setting are campaign actions, the GM's alone
(``table:campaign-system-action``, checked by its view through ``campaigns.permissions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaigns.models import Campaign
from characters.models import Character
from core.live import announce
from rolls.models import RequestedRoll
from rulesets import genesys
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from rolls.models import Roll
    from rulesets.dice import Rng

DESTINY_KEY = "destiny"
"""Where ``Campaign.system_data`` keeps the pool (:meth:`rulesets.genesys.DestinyPool.
as_dict`); absent until the GM first sets or rolls it (an empty pool)."""

RULE_GM_FLIP = f"{genesys.SOURCE}, Difficulty"
"""What a dark flip made outside the GM's request cites: the GM invests dark points to make
a check more challenging (Genesys dice pool, Difficulty)."""


def destiny_of(campaign: Campaign) -> genesys.DestinyPool:
    """The campaign's Destiny pool as stored, the empty pool when none was set. No query.

    Raises:
        RuleError: stored data no move could have left (an import is checked before it is
            written: :func:`systems.genesys.checks.check_system_data`).
    """
    stored = (campaign.system_data or {}).get(DESTINY_KEY)
    return genesys.DestinyPool.from_dict(stored if isinstance(stored, dict) else None)


def _store(campaign: Campaign, pool: genesys.DestinyPool) -> None:
    """Put ``pool`` in ``campaign.system_data`` (in memory; the caller saves)."""
    data = dict(campaign.system_data or {})
    data[DESTINY_KEY] = pool.as_dict()
    campaign.system_data = data


def destiny_context(campaign: Campaign) -> dict[str, Any]:
    """What the sheet and the GM's panel draw of the pool: ``pool`` (the
    :class:`~rulesets.genesys.DestinyPool`), ``points`` (one ``"light"`` or ``"dark"`` per
    point, light first, for the pips), ``rolled`` (each Force die rolled: its face and its
    pips in words) and ``set`` (whether the GM has set or rolled one). No query; a pool the
    page cannot read shows as empty rather than breaking the page (it is refused before it
    is stored)."""
    try:
        pool = destiny_of(campaign)
    except RuleError:
        pool = genesys.DestinyPool()
    rolled = []
    for face in pool.rolled:
        light, dark = genesys.force_pips(face)
        words = (f"{light} light" if light else f"{dark} dark")
        rolled.append({"face": face, "light": light, "dark": dark, "words": words})
    return {"pool": pool,
            "points": [genesys.LIGHT] * pool.light + [genesys.DARK] * pool.dark,
            "rolled": rolled,
            "set": DESTINY_KEY in (campaign.system_data or {})}


# --- The GM's moves (CampaignAction apply functions; the campaign row is locked) ------------


def destiny_set(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                ) -> tuple[str, Roll | None]:
    """``destiny-set``: the GM sets the pool at the start of a session, ``light`` and
    ``dark`` points typed in. Raises RuleError for too many points."""
    pool = genesys.set_destiny(data["light"], data["dark"])
    _store(campaign, pool)
    return f"The Destiny pool is set: {pool.describe()}.", None


def destiny_roll(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                 ) -> tuple[str, Roll | None]:
    """``destiny-roll``: the GM rolls the pool at the start of a session, ``dice`` Force dice
    (blank: one per character in the party, as each player rolls one), with the server's
    dice; the faces are stored with the pool, so what the panel shows was stored first.
    Raises RuleError for no character to roll for, or too many dice."""
    dice = data.get("dice")
    if not dice:
        dice = sum(1 for c in Character.objects.filter(campaign=campaign).only(
            "status", "review") if c.in_play)
        if not dice:
            raise RuleError("No character is in the party yet: say how many Force dice to "
                            "roll, one per player.", genesys.RULE_DESTINY)
    pool = genesys.roll_destiny(int(dice), rng)
    _store(campaign, pool)
    faces = ", ".join(f"{light} light" if light else f"{dark} dark"
                      for light, dark in map(genesys.force_pips, pool.rolled))
    plural = "die" if len(pool.rolled) == 1 else "dice"
    return (f"Rolled {len(pool.rolled)} Force {plural} ({faces}): the Destiny pool is "
            f"{pool.describe()}."), None


def destiny_flip(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                 ) -> tuple[str, Roll | None]:
    """``destiny-flip``: the GM flips one point outside a roll, ``side`` naming the side it
    shows now (a point invested away from the dice, or a correction). Raises RuleError when
    no point of that side is left."""
    side = data["side"]
    pool = destiny_of(campaign).flip(side)
    _store(campaign, pool)
    other = genesys.DARK if side == genesys.LIGHT else genesys.LIGHT
    return f"A {side} point flipped to {other}: the pool is {pool.describe()}.", None


# --- The flips of a check, made as it is rolled ----------------------------------------------


def _asked(character: Character, answers: int | None) -> RequestedRoll | None:
    """The GM's open request ``answers`` of this character, or None (no request, or not its:
    ``rolls.services.roll_create`` refuses those itself, having locked it first)."""
    if answers is None:
        return None
    return RequestedRoll.objects.filter(pk=answers, character=character,
                                        answer__isnull=True).first()


def require_no_npc_flip(character: Character, cleaned_data: dict[str, Any]) -> None:
    """Refuse a Destiny flip on an NPC's check: the dialog's light point is a player's, and
    the GM's dark point invested for an NPC (upgrading its ability die) is not modelled yet;
    the GM flips it by hand on the dashboard. No query.

    Raises:
        RuleError: the check is an NPC's and invests a point.
    """
    if getattr(character, "is_npc", False) and (
            cleaned_data.get("destiny_point") or cleaned_data.get("destiny_dark")):
        raise RuleError("An NPC's check invests no Destiny point here: the light points are "
                        "the players'. Flip a dark point by hand on the dashboard, and leave "
                        "an NPC's Impossible task to the story.", genesys.RULE_DESTINY)


def require_gm_flip_as_asked(character: Character, cleaned_data: dict[str, Any]) -> None:
    """Refuse a check whose dark flip is not the GM's: a dark Destiny point is the GM's to
    invest (Genesys dice pool, Difficulty), so the check dialog's ``destiny_dark`` stands
    only on the answer (``answers``) to the GM's request that asked for it, and an answer to
    such a request must carry it (the GM's point flips when the roll is made). One query when
    the check answers a request or claims a dark flip, none otherwise.

    Raises:
        RuleError: a dark flip on a roll the GM did not ask for with one, or an answer that
            drops the GM's flip.
    """
    claimed = bool(cleaned_data.get("destiny_dark"))
    answers = cleaned_data.get("answers")
    if not claimed and answers is None:
        return
    asked = _asked(character, answers)
    asked_dark = asked is not None and bool(asked.data.get("destiny_dark"))
    if claimed and not asked_dark:
        raise RuleError("Only the GM flips a dark Destiny point, by asking for the roll with "
                        "it.", RULE_GM_FLIP)
    if asked_dark and not claimed:
        raise RuleError("The GM asked for this roll with a dark Destiny point flipped to "
                        "upgrade a difficulty die: roll it as asked.", RULE_GM_FLIP)


def destiny_invest(character: Character, flips: tuple[str, ...]) -> genesys.DestinyPool:
    """Flip the Destiny points a check invests (``flips``: the pool's
    :attr:`~rulesets.genesys.DicePool.destiny_flips`, light and/or dark) in the campaign's
    pool, in the transaction that stores the roll: lock the campaign row (FOR NO KEY UPDATE,
    as every change of ``system_data``), flip, save, and announce ``campaignChanged`` after
    commit, so every open page of the campaign redraws the pool. ``character.campaign``'s
    ``system_data`` is brought up to date too (the roll's answer shows the dialog's odds with
    it).

    Should be called inside ``transaction.atomic()`` with the character locked (the system's
    roll, from ``rolls.services.roll_create``), which has locked the campaign first
    (``SheetSystem.roll_locks_campaign``), in the order a seat's closing takes them
    (campaign, then its characters); this lock is then already held.

    Returns:
        The pool after the flips.

    Raises:
        RuleError: (nothing written) no point of a side left to flip.
    """
    locked = Campaign.objects.select_for_update(no_key=True).get(pk=character.campaign_id)
    pool = destiny_of(locked)
    for side in flips:
        pool = pool.flip(side)
    _store(locked, pool)
    locked.save(update_fields=["system_data"])
    character.campaign.system_data = locked.system_data
    announce(locked.pk, "campaignChanged")
    return pool


def require_points_for_request(campaign: Campaign, *, light: bool, dark: bool) -> None:
    """Refuse a GM's request that would invest a point the pool does not have: a light point
    for an Impossible task (Impossible Tasks) or the GM's dark flip, counting the dark flips
    open requests have already promised. The points flip only when each roll is made
    (:func:`destiny_invest`, which refuses then if one is gone). One query for a dark flip.

    Raises:
        RuleError: naming the side that has no point to spare.
    """
    pool = destiny_of(campaign)
    if light and not pool.light:
        raise RuleError("The Destiny pool has no light point, and an Impossible task needs "
                        "one: set or roll the pool first.", f"{genesys.SOURCE}, Impossible Tasks")
    if dark:
        promised = RequestedRoll.objects.filter(
            campaign=campaign, answer__isnull=True, data__destiny_dark="on").count()
        if pool.dark <= promised:
            raise RuleError(
                f"The Destiny pool has {pool.dark} dark point{'s' if pool.dark != 1 else ''}"
                f"{f' and open requests already flip {promised}' if promised else ''}: no "
                "dark point is left to flip for this roll.", RULE_GM_FLIP)
