"""How the dice ran, for a campaign or one character, over the whole campaign or one session:
which rolls count for the viewer, their luck (``rulesets.luck``) and XP over sessions, as the
luck page and its charts show them (docs/history.md, "How the dice ran").

Who sees what: the GM and co-GMs count every roll; a player counts only the rolls they may see
in the roll log (``Roll.objects.visible_to``): never a GM-only roll, so never a hidden NPC's,
nor a follow-up of a GM-only roll. The figures come from the rolls alone, so a player's figure
says nothing of the GM's secret rolls.

A session is a date: its rolls are those made on it (``table.sessions``).

The figures of a set of rolls are kept in the cache under a digest of those rolls' ids, in
their order (:func:`figures`), and each roll's luck in the campaign's ledger (:class:`_Ledger`),
so that a new roll costs its own luck and the sums. Both keys hold :data:`PROCESS`, so that a
server started with new code (a system's luck mended) never reads what the old code worked
out.
"""

from __future__ import annotations

import datetime
import hashlib
import uuid
from array import array
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

import systems
from characters.models import Character, XpEntry
from rolls.models import Roll, RollQuerySet
from rulesets.luck import Luck, Outcome, RollLuck, Tally

if TYPE_CHECKING:
    from campaigns.models import Campaign, Session

CACHE_SECONDS = 24 * 60 * 60
"""How long a figure stays in the cache; it is never stale (its key names its rolls)."""

PROCESS = uuid.uuid4().hex
"""This server process's own mark in the cache's keys (see the module's docstring)."""

POINTS = 200
"""The most points a line of the luck-over-time chart draws; a longer run is sampled evenly,
its last roll always kept."""


@dataclass(frozen=True)
class Figures:
    """The luck of one set of rolls, by character.

    Attributes:
        measure: the system's measure ("successes"); ``""`` when its rolls have none.
        table: the luck of every counted roll; ``None`` when none counts.
        characters: the luck of each character's counted rolls, by character id; the rolls
            of no character (the GM's quick rolls) under ``None``.
        running: per character id (and ``None``), the actual total minus the expected so far
            after each of its rolls, as ``(roll number, value)``, at most :data:`POINTS`.
        running_table: the same for all the rolls.
        mix: each value of the measure, rolls that gave it against rolls expected to.
        uncounted: rolls in the set the measure does not count (a follow-up that rolls no
            die).
    """

    measure: str
    table: Luck | None
    characters: dict[int | None, Luck] = field(default_factory=dict)
    running: dict[int | None, list[tuple[int, float]]] = field(default_factory=dict)
    running_table: list[tuple[int, float]] = field(default_factory=list)
    mix: list[Outcome] = field(default_factory=list)
    uncounted: int = 0


def rolls_seen(campaign: Campaign, *, is_gm: bool, session: Session | None = None,
               character: Character | None = None) -> RollQuerySet:
    """The campaign's rolls the viewer may count, follow-ups included, in the order they were
    made: all for the GM; for a player none GM-only, nor a follow-up of a GM-only roll. Only
    those made on ``session``'s date, and only ``character``'s, when given."""
    rolls = Roll.objects.filter(campaign=campaign).visible_to(is_gm=is_gm)
    if not is_gm:
        rolls = rolls.exclude(parent__gm_only=True)
    if session is not None:
        rolls = rolls.filter(created_at__date=session.date)
    if character is not None:
        rolls = rolls.filter(character=character)
    return rolls.order_by("created_at", "id")


def _sampled(values: list[float]) -> list[tuple[int, float]]:
    """``values`` as ``(1-based number, value)``, at most :data:`POINTS` of them, evenly
    spread, the last one kept."""
    if not values:
        return []
    step = max(1, -(-len(values) // POINTS))
    numbers = list(range(0, len(values), step))
    if numbers[-1] != len(values) - 1:
        numbers.append(len(values) - 1)
    return [(i + 1, values[i]) for i in numbers]


@dataclass
class _Ledger:
    """Every roll of a campaign whose luck was worked out, kept in the cache so that a new
    roll costs its own luck only: ``rolls[roll id]`` is ``(distribution, actual)``, an index
    into ``distributions`` (``(measure, low, chances)``, each once: a table rolls the same few
    pools again and again) and the value it gave, or ``None`` for a roll the measure does not
    count. A roll is never edited, so what is kept of it stays true."""

    distributions: list[tuple[str, int, tuple[Fraction, ...]]] = field(default_factory=list)
    rolls: dict[int, tuple[int, int] | None] = field(default_factory=dict)
    places: dict[tuple[str, int, tuple[Fraction, ...]], int] = field(default_factory=dict)
    """Each distribution's index in ``distributions``."""

    def add(self, pk: int, luck: RollLuck | None) -> None:
        """Keep roll ``pk``'s luck (``None``: not counted)."""
        if luck is None:
            self.rolls[pk] = None
            return
        shape = (luck.measure, luck.low, luck.chances)
        index = self.places.setdefault(shape, len(self.distributions))
        if index == len(self.distributions):
            self.distributions.append(shape)
        self.rolls[pk] = (index, luck.actual)

    def lucks(self, pks: list[int]) -> list[RollLuck | None]:
        """The luck of each roll of ``pks`` (all kept), in their order; rolls of one
        distribution share its ``chances`` tuple."""
        found: list[RollLuck | None] = []
        for pk in pks:
            kept = self.rolls[pk]
            if kept is None:
                found.append(None)
            else:
                measure, low, chances = self.distributions[kept[0]]
                found.append(RollLuck(measure, low, chances, kept[1]))
        return found


def _campaign_key(campaign: Campaign) -> str:
    """The campaign's part of a cache key: this process (:data:`PROCESS`), the campaign's id,
    the moment it was made and its system. The moment tells apart two campaigns given one id
    where ids can come round again (a test database, rolled back after each test), and with
    them two rolls of one id."""
    return f"{PROCESS}:{campaign.pk}:{campaign.created_at.timestamp():.6f}:{campaign.ruleset}"


def _ledger(campaign: Campaign, pks: list[int], system: systems.SheetSystem) -> _Ledger:
    """The campaign's :class:`_Ledger` from the cache, with the rolls of ``pks`` it lacked
    read (2,000 a query) and their luck asked of ``system``, kept again if any was."""
    key = f"history:luck-rolls:{_campaign_key(campaign)}"
    ledger = cache.get(key)
    if not isinstance(ledger, _Ledger):
        ledger = _Ledger()
    missing = [pk for pk in pks if pk not in ledger.rolls]
    for start in range(0, len(missing), 2000):
        for roll in Roll.objects.filter(pk__in=missing[start:start + 2000]):
            ledger.add(roll.pk, system.roll_luck(roll))
    if missing:
        cache.set(key, ledger, CACHE_SECONDS)
    return ledger


@dataclass
class _State:
    """One span's tally so far (a viewer's, over the campaign or a session, for the table or
    a character): the rolls added to ``tally``, by count and a digest of their ids in order,
    and how many of them the measure did not count."""

    count: int
    digest: str
    tally: Tally[int | None]
    uncounted: int = 0


def _digest(pks: list[int]) -> str:
    return hashlib.sha256(array("q", pks).tobytes()).hexdigest()


def _figures_of(state: _State, measure: str) -> Figures:
    """The :class:`Figures` of ``state``'s rolls, for the system's ``measure``."""
    characters, table = state.tally.figures()
    running, running_table = state.tally.running()
    return Figures(
        measure=measure, table=table, characters=characters,
        running={pk: _sampled(values) for pk, values in running.items()},
        running_table=_sampled(running_table), mix=state.tally.mix(),
        uncounted=state.uncounted)


def figures(campaign: Campaign, *, is_gm: bool, session: Session | None = None,
            character: Character | None = None) -> Figures:
    """The luck of the rolls :func:`rolls_seen` gives the viewer.

    One query for their ids; the figures come from the cache when the same rolls were worked
    out before. Else the span's tally (:class:`_State`) is taken up where it was left when
    the rolls it holds are the first of these, in the same order (a new roll is added at the
    end), and only the rolls after them are added, each roll's luck from the campaign's
    :class:`_Ledger` (which reads only the rolls it lacks); otherwise the tally starts again.

    The keys are digests of the rolls' ids, in order: ids are never handed out twice
    (PostgreSQL's sequences, SQLite's AUTOINCREMENT) and a roll is never edited, so the same
    ids are the same rolls, and a roll made or deleted since makes a new key."""
    rows = list(rolls_seen(campaign, is_gm=is_gm, session=session, character=character)
                .values_list("id", "character_id"))
    pks = [pk for pk, _ in rows]
    digest = _digest(pks)
    key = f"history:luck:{_campaign_key(campaign)}:{digest}"
    found = cache.get(key)
    if isinstance(found, Figures):
        return found
    system = systems.for_campaign(campaign)
    span = (f"history:luck-tally:{_campaign_key(campaign)}:{int(is_gm)}:"
            f"{session.pk if session else ''}:{character.pk if character else ''}")
    state = cache.get(span)
    if not (isinstance(state, _State) and state.count <= len(pks)
            and _digest(pks[:state.count]) == state.digest):
        state = _State(0, _digest([]), Tally())
    new = rows[state.count:]
    lucks = _ledger(campaign, [pk for pk, _ in new], system).lucks([pk for pk, _ in new])
    counted = [(character_id, luck) for (_, character_id), luck in zip(new, lucks, strict=True)
               if luck is not None]
    state.uncounted += len(new) - len(counted)
    state.tally.add(counted)
    state.count, state.digest = len(pks), digest
    cache.set(span, state, CACHE_SECONDS)
    result = _figures_of(state, system.luck_measure)
    cache.set(key, result, CACHE_SECONDS)
    return result


def percent(percentile: Fraction) -> str:
    """A percentile for the table's column: a whole number from 1 to 99 ("73"), two decimals
    nearer the ends ("0.43", "99.57"), "< 0.01" and "> 99.99" beyond them; "0" and "100" only
    for a figure exactly there."""
    value = float(percentile)
    if value <= 0 or value >= 100 or 1 <= value <= 99:
        return f"{value:.0f}"
    if value < 0.01:
        return "< 0.01"
    if value > 99.99:
        return "> 99.99"
    return f"{value:.2f}"


def in_words(luck: Luck) -> str:
    """What ``luck``'s percentile means to a player: "Luckier than 73 of 100 tables rolling
    the same dice", "Unluckier than 997 of 1,000 ...", "As the odds said" between 45 and 55
    (out of 100, or 1,000 and so on, as far as it takes to be told from all of them)."""
    value = luck.percentile / 100
    if Fraction(45, 100) <= value <= Fraction(55, 100):
        return "As the odds said: about half the tables rolling the same dice do better."
    word, share = ("Luckier", value) if value > Fraction(1, 2) else ("Unluckier", 1 - value)
    out_of = 100
    while round(share * out_of) >= out_of and out_of < 10**6:
        out_of *= 10
    count = min(round(share * out_of), out_of - 1)
    return f"{word} than {count:,} of {out_of:,} tables rolling the same dice."


@dataclass(frozen=True)
class SessionXp:
    """XP earned by each character in one session: ``earned[character_id]``."""

    session: Session
    earned: dict[int, int]


def xp_by_session(campaign: Campaign, characters: list[Character]) -> list[SessionXp]:
    """XP earned (the ledger's ``total_delta``, undoes included) by each of ``characters`` in
    each of the campaign's sessions, oldest first: the entries pointing at the session, and
    those of no session made on its date (an award on the sheet during play), never the XP a
    character was made with. One query for the sessions, one for the entries."""
    sessions = sorted(campaign.sessions.all(), key=lambda s: (s.date, s.created_at, s.pk))
    by_date: dict[datetime.date, Session] = {}
    for session in sessions:
        by_date.setdefault(session.date, session)  # the day's first session takes its awards
    rows = {session.pk: SessionXp(session, {c.pk: 0 for c in characters})
            for session in sessions}
    entries = (XpEntry.objects.filter(character__in=characters)
               .filter(Q(session__in=sessions) | Q(session__isnull=True))
               .exclude(total_delta=0).exclude(at_creation=True)
               .exclude(kind=XpEntry.Kind.STARTING)
               .values_list("character_id", "session_id", "created_at", "total_delta"))
    for character_id, session_id, created_at, delta in entries:
        if session_id is None:
            day = by_date.get(timezone.localdate(created_at))
            session_id = day.pk if day is not None else None
        if session_id in rows:
            earned = rows[session_id].earned
            earned[character_id] = earned.get(character_id, 0) + delta
    return [rows[session.pk] for session in sessions]
