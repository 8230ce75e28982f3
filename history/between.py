"""Between sessions: a character as it stood at the end of a session, and what changed
between two moments (docs/history.md, "Between sessions").

Every change of a character appends an :class:`~history.models.Activity` whose ``changes``
are ``[[label, before, after], ...]`` of its facts (:func:`history.facts.character_facts`).
So the facts at a moment are the facts now with every logged change after it undone, newest
first (label -> before; a ``before`` of ``""`` means the fact did not exist then), and what
changed between two moments is, for each fact a change in between moved, its value before
the first of those changes and after the last. Nothing here names a system: the facts are
in the system's words, grouped by what moved them (an XP entry, anything else) and by the
labels :mod:`history.facts` gives every system (XP, inventory).

A moment is an aware datetime; the end of a session is the end of its date in the site's time
zone (``settings.TIME_ZONE``), :func:`session_end`. A change at that instant or later is after
the session.

A player reads no GM-only entry (``Activity.gm_only``): a GM-only change is neither undone
nor listed for them, so nothing the GM did in secret shows in a player's diff; the fact it
moved reads, for them, as it stands after it. Today a player opens no sheet whose changes
are GM-only: those are a hidden NPC's, whose sheet is the GM's alone.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import F, Sum
from django.utils import timezone

from campaigns.models import Session
from characters.models import XpEntry
from history.facts import INVENTORY, XP_AVAILABLE, XP_EARNED, character_facts
from history.models import Activity

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from characters.models import Character

__all__ = [
    "Between", "Group", "Line", "Since", "between", "day_start", "facts_at", "group_facts",
    "last_session", "session_end", "since_last_session",
]

IDENTITY = ("Name", "Concept", "Standing")
"""The facts :func:`history.facts.character_facts` gives first, whatever the system: who the
character is and whether it is in the party."""

CHARACTER = "The character"
BOUGHT = "Bought with XP"
XP = "XP"
SHEET = "Sheet and tracks"
ITEMS = "Inventory"
GROUPS = (CHARACTER, BOUGHT, XP, SHEET, ITEMS)
"""The groups of a diff, in the order it reads: who the character is, the traits and dots
bought (or undone) with XP, its XP, everything else its sheet shows (tracks, points, what
the GM edited), its inventory."""

SUMMARY_LINES = 6
"""The most changed facts the sheet's "Since last session" lists; the page has them all."""


_CALENDAR = (datetime.date.min + datetime.timedelta(days=2),
             datetime.date.max - datetime.timedelta(days=2))
"""The days whose midnight, and the next day's, any time zone's offset keeps within the
calendar Python and the database hold (a session dated 9999-12-31 or 0001-01-01 is held to
these; nothing at the table happens that far off)."""


def day_start(day: datetime.date) -> datetime.datetime:
    """The first instant of ``day`` in the site's time zone (``settings.TIME_ZONE``), aware;
    a day at either end of the calendar is held within :data:`_CALENDAR`."""
    day = min(max(day, _CALENDAR[0]), _CALENDAR[1])
    return datetime.datetime.combine(day, datetime.time.min,
                                     tzinfo=timezone.get_default_timezone())


def session_end(day: datetime.date) -> datetime.datetime:
    """The end of the session played on ``day``: the first instant of the next day in the
    site's time zone (``settings.TIME_ZONE``), aware (:func:`day_start`). A change at this
    instant or later is after the session."""
    return day_start(min(day, _CALENDAR[1]) + datetime.timedelta(days=1))


def last_session(campaign_id: int) -> Session | None:
    """The campaign's latest session dated before today (in the site's time zone): the
    session whose end "since last session" counts from; ``None`` when it has none. A session
    of today is still being played. One query."""
    today = timezone.localdate(timezone=timezone.get_default_timezone())
    return (Session.objects.filter(campaign_id=campaign_id, date__lt=today)
            .only("pk", "campaign_id", "date", "title")
            .order_by("-date", "-created_at", "-id").first())


def _short(label: str) -> str:
    return label.removeprefix(f"{INVENTORY} · ")


@dataclass(frozen=True)
class Line:
    """One fact that changed: ``label`` went from ``before`` to ``after`` (``""``: the fact
    did not exist then, as an item not yet carried or gone)."""

    label: str
    before: str
    after: str

    @property
    def name(self) -> str:
        """The label as its group shows it: an item's without the ``Inventory · `` before it."""
        return _short(self.label)

    @property
    def came(self) -> bool:
        """Whether the fact is new (an item picked up, a trait first bought)."""
        return self.before == ""

    @property
    def went(self) -> bool:
        """Whether the fact is gone (an item dropped, a specialty undone)."""
        return self.after == ""

    def __str__(self) -> str:
        return f"{self.label}: {self.before or '(none)'} -> {self.after or '(none)'}"


@dataclass(frozen=True)
class Group:
    """Facts of one kind (:data:`GROUPS`), in the sheet's order: changed ones
    (``lines``: :class:`Line`), or as they stood (``facts``: ``(label, value)``)."""

    title: str
    lines: tuple[Line, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()

    @property
    def named_facts(self) -> tuple[tuple[str, str], ...]:
        """``facts`` with each label as the group shows it (:attr:`Line.name`)."""
        return tuple((_short(label), value) for label, value in self.facts)


@dataclass(frozen=True)
class Between:
    """What changed of a character between two moments (:func:`between`).

    ``start``/``end``: the moments (``end`` ``None``: now). ``facts``: its facts at
    ``start``, grouped (:func:`group_facts`), or ``None`` when it was made after ``start``.
    ``groups``: the facts that changed from ``start`` to ``end``, grouped, empty groups left
    out. ``xp_earned``/``xp_spent``: from the XP ledger, the XP earned (awards, net of any
    undone) and spent (on traits, net of refunds) between them; XP banked for a trait is
    neither.
    """

    start: datetime.datetime
    end: datetime.datetime | None
    facts: tuple[Group, ...] | None
    groups: tuple[Group, ...]
    xp_earned: int
    xp_spent: int

    @property
    def changed(self) -> bool:
        """Whether anything changed between the two moments: a fact or the ledger."""
        return bool(self.groups or self.xp_earned or self.xp_spent)


@dataclass(frozen=True)
class Since:
    """The sheet's "Since last session" (:func:`since_last_session`): the ``session`` it
    counts from, the changed facts ``groups`` and how many lines they hold (``count``), of
    which the summary shows the first :data:`SUMMARY_LINES` (``shown``)."""

    session: Session
    groups: tuple[Group, ...]
    count: int
    shown: tuple[Line, ...]


Rows = Iterable[tuple[str, Sequence[Sequence[str]]]]
"""Activity entries as ``(kind, changes)``, ``changes`` as ``Activity.changes``."""


def _entries(character: Character, *, after: datetime.datetime, gm: bool
             ) -> QuerySet[Activity]:
    """``character``'s activity at ``after`` or later, oldest first; a player's
    (``gm`` False) without the GM-only entries."""
    found = Activity.objects.filter(character=character, created_at__gte=after)
    if not gm:
        found = found.filter(gm_only=False)
    return found.order_by("created_at", "id")


def _triples(changed: Sequence[Sequence[str]]) -> Iterable[tuple[str, str, str]]:
    """The ``[label, before, after]`` rows of one entry's ``changes``, as strings; a row of
    another shape (which no writer makes) is skipped rather than break the sheet."""
    for row in changed:
        if isinstance(row, (list, tuple)) and len(row) == 3:
            yield str(row[0]), str(row[1]), str(row[2])


def _net(rows: Rows) -> tuple[dict[str, list[str]], set[str]]:
    """From ``rows`` (oldest first), each fact they moved: label -> ``[before the first
    change, after the last]``, in the order first moved; and the labels an XP entry moved."""
    net: dict[str, list[str]] = {}
    bought: set[str] = set()
    for kind, changed in rows:
        for label, before, after in _triples(changed):
            net.setdefault(label, [before, after])[1] = after
            if kind == Activity.Kind.XP:
                bought.add(label)
    return net, bought


def _kind_of(label: str, bought: set[str]) -> str:
    """Which of :data:`GROUPS` the fact ``label`` reads in."""
    if label in IDENTITY:
        return CHARACTER
    if label in (XP_AVAILABLE, XP_EARNED):
        return XP
    if label.startswith(f"{INVENTORY} · "):
        return ITEMS
    return BOUGHT if label in bought else SHEET


def _ordered(labels: Iterable[str], order: Sequence[str]) -> list[str]:
    """``labels`` in the sheet's ``order``: those it lists first, in its order; the rest
    (a fact the sheet no longer shows, an item) after them, by name."""
    place = {label: number for number, label in enumerate(order)}
    return sorted(labels, key=lambda label: (label not in place, place.get(label, 0), label))


def group_facts(facts: Mapping[str, str], *, order: Sequence[str] = ()) -> tuple[Group, ...]:
    """``facts`` (label -> value) as they stood, grouped as a diff is (:data:`GROUPS`; no
    "bought" group: a fact as it stood was not moved by anything), in the sheet's ``order``
    (default: the order of ``facts``). Facts with an empty value are left out."""
    groups: dict[str, list[tuple[str, str]]] = {title: [] for title in GROUPS}
    for label in _ordered(facts, order or list(facts)):
        if facts[label] != "":
            groups[_kind_of(label, set())].append((label, facts[label]))
    return tuple(Group(title, facts=tuple(found)) for title, found in groups.items() if found)


def _group_lines(net: Mapping[str, Sequence[str]], bought: set[str], order: Sequence[str]
                 ) -> tuple[Group, ...]:
    """The facts whose value differs at the two ends (``net``), grouped, in the sheet's
    ``order``."""
    groups: dict[str, list[Line]] = {title: [] for title in GROUPS}
    for label in _ordered(net, order):
        before, after = net[label]
        if before != after:
            groups[_kind_of(label, bought)].append(Line(label, before, after))
    return tuple(Group(title, lines=tuple(found)) for title, found in groups.items() if found)


def _undo(facts: dict[str, str], rows: Rows) -> dict[str, str]:
    """``facts`` with the changes of ``rows`` (newest first) undone, in place."""
    for _kind, changed in rows:
        for label, before, _after in _triples(changed):
            if before == "":
                facts.pop(label, None)
            else:
                facts[label] = before
    return facts


def facts_at(character: Character, moment: datetime.datetime, *, gm: bool
             ) -> dict[str, str] | None:
    """``character``'s facts (label -> value, as :func:`history.facts.character_facts`) as
    they stood at ``moment``: its facts now with every change logged since undone; ``None``
    when it was made after ``moment``. A fact with an empty value is left out: the log says
    "did not exist" with an empty value, so the two cannot be told apart. ``gm``: whether
    the reader runs the table (a player's reconstruction undoes only what players may read).
    Two queries (its items, its activity)."""
    if character.created_at >= moment:
        return None
    rows = _entries(character, after=moment, gm=gm).values_list("kind", "changes")
    facts = _undo(character_facts(character), reversed(list(rows)))
    return {label: value for label, value in facts.items() if value != ""}


def xp_between(character: Character, start: datetime.datetime,
               end: datetime.datetime | None) -> tuple[int, int]:
    """The XP ``character`` earned and spent from ``start`` to ``end`` (``None``: now), from
    its ledger: earned is the sum of ``total_delta`` (awards; an undone award takes its XP
    back), spent what left available and banked XP beyond that, so a purchase counts its
    price, an undone one its refund back, and XP moved to a bank nothing. One query."""
    entries = XpEntry.objects.filter(character=character, created_at__gte=start)
    if end is not None:
        entries = entries.filter(created_at__lt=end)
    sums = entries.aggregate(earned=Sum("total_delta"),
                             kept=Sum(F("available_delta") + F("banked_delta")))
    earned = sums["earned"] or 0
    return earned, earned - (sums["kept"] or 0)


def between(character: Character, start: datetime.datetime,
            end: datetime.datetime | None = None, *, gm: bool) -> Between:
    """What changed of ``character`` from ``start`` to ``end`` (``None``: now), and its facts
    at ``start`` (:class:`Between`). ``gm``: whether the reader runs the table (a player's
    reads only what players may: no GM-only change is undone or listed). ``end`` before
    ``start`` is taken as the same moment: nothing changed. Three queries (its items, its
    activity since ``start``, its ledger's sums)."""
    now = character_facts(character)
    rows = list(_entries(character, after=start, gm=gm).values_list("kind", "changes",
                                                                     "created_at"))
    past = (None if character.created_at >= start
            else _undo(dict(now), ((kind, changed) for kind, changed, _ in reversed(rows))))
    later = end is None or end > start
    net, bought = (_net((kind, changed) for kind, changed, at in rows if end is None or at < end)
                   if later else ({}, set()))
    earned, spent = xp_between(character, start, end) if later else (0, 0)
    order = list(now)
    return Between(
        start=start, end=end,
        facts=None if past is None else group_facts(past, order=order),
        groups=_group_lines(net, bought, order), xp_earned=earned, xp_spent=spent,
    )


def since_last_session(character: Character, *, gm: bool) -> Since | None:
    """What changed of ``character`` since the end of its campaign's latest session before
    today (:func:`last_session`), for the sheet's summary; ``None`` when there is no such
    session, the character was made since, or nothing it shows changed. ``gm`` as
    :func:`between`. Two queries (the session, the activity since its end); the facts' order
    is read from the sheet in hand, without its items."""
    session = last_session(character.campaign_id)
    if session is None:
        return None
    start = session_end(session.date)
    if character.created_at >= start:
        return None
    net, bought = _net(_entries(character, after=start, gm=gm).values_list("kind", "changes"))
    groups = _group_lines(net, bought, list(character_facts(character, items=False)))
    if not groups:
        return None
    lines = [line for group in groups for line in group.lines]
    return Since(session=session, groups=groups, count=len(lines),
                 shown=tuple(lines[:SUMMARY_LINES]))
