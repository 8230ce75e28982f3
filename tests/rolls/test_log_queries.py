"""A long roll log costs the pages nothing: the sheet's recent rolls, the dashboard's latest
rolls and a page of the roll log read the same queries with a handful of rolls as with many,
and read them from the log indexes (rolls/models.py), newest first, without sorting the
campaign's whole history (docs/performance.md, "Serving under load")."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import Character
from core import regions
from rolls.models import Roll
from rulesets.maelstrom.storage import RollKind
from tests.rolls.test_roll_list import maelstrom_result

pytestmark = pytest.mark.django_db

FEW, MANY = 3, 40


def add_rolls(character: Character, count: int, start: int = 0) -> list[Roll]:
    """``count`` rolls of ``character``, each with an experience die after it (a follow-up,
    which no list shows as a roll of its own), and a GM-only NPC roll every tenth."""
    made = []
    for n in range(start, start + count):
        roll = Roll.objects.create(
            campaign=character.campaign, character=character, rolled_by=character.owner,
            ruleset="maelstrom", kind=Roll.Kind.ACTION, description=f"Roll number {n:03d}",
            outcome=Roll.Outcome.SUCCESS, net=1, summary="1 success",
            result=maelstrom_result([7, 2]),
        )
        Roll.objects.create(
            campaign=character.campaign, character=character, rolled_by=character.owner,
            ruleset="maelstrom", kind=RollKind.EXPERIENCE_DIE, parent=roll,
            description=f"Roll number {n:03d}", outcome=Roll.Outcome.SUCCESS, net=2,
            summary="2 successes",
        )
        if n % 10 == 9:
            Roll.objects.create(
                campaign=character.campaign, rolled_by=character.campaign.created_by,
                ruleset="maelstrom", kind=Roll.Kind.NPC, description=f"NPC roll {n:03d}",
                outcome=Roll.Outcome.FAILURE, net=0, summary="Failure", gm_only=True,
            )
        made.append(roll)
    return made


PAGES = {
    # page: (who looks, its URL, how many of the newest rolls it lists)
    "sheet": ("bob", lambda c: reverse("characters:character-detail", args=[c.pk]), 5),
    "dashboard": ("alice", lambda c: reverse("table:campaign-detail",
                                             args=[c.campaign_id]), 10),
    "campaign page of a player": ("bob", lambda c: reverse("table:campaign-detail",
                                                           args=[c.campaign_id]), 10),
    # The region every roll at the table redraws on the GM's dashboard, asked for alone.
    "dashboard's latest rolls alone": ("alice", lambda c: reverse(
        "table:campaign-detail", args=[c.campaign_id]) + "?live=campaign-rolls", 10),
    "roll log": ("bob", lambda c: reverse("rolls:roll-list", args=[c.campaign_id]), 25),
}


def read(client, url: str) -> tuple[int, str, list[str]]:  # type: ignore[no-untyped-def]
    """The page's query count, its text, and the SQL of its queries that read rolls, as drawn:
    a live region kept from an earlier ask (core.regions.recall) would read nothing of the
    rolls, and the rolls this module adds skip the services that would move its version."""
    caches[regions.CACHE].clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    sql = [query["sql"] for query in queries.captured_queries]
    return len(sql), response.content.decode(), [s for s in sql if 'FROM "rolls_roll"' in s]


@pytest.mark.parametrize("page", PAGES)
def test_a_page_reads_the_same_queries_with_40_rolls_as_with_3(
    page, client_for, alice, bob, bobs_character
) -> None:  # type: ignore[no-untyped-def]
    viewer, url_of, shown = PAGES[page]
    client = client_for(alice if viewer == "alice" else bob)
    url = url_of(bobs_character)
    add_rolls(bobs_character, FEW)
    client.get(url)  # warm up: content types, the session
    few, _, _ = read(client, url)

    add_rolls(bobs_character, MANY - FEW, start=FEW)
    many, text, _ = read(client, url)

    assert many == few
    assert "Roll number 039" in text  # the newest is there...
    assert f"Roll number {MANY - shown - 1:03d}" not in text  # ...the list stops at its size


@pytest.mark.parametrize("page", ["sheet", "dashboard", "roll log"])
def test_a_page_reads_its_rolls_from_a_log_index_already_in_order(
    page, client_for, alice, bob, bobs_character
) -> None:  # type: ignore[no-untyped-def]
    viewer, url_of, _ = PAGES[page]
    add_rolls(bobs_character, MANY)
    _, _, roll_queries = read(client_for(alice if viewer == "alice" else bob),
                              url_of(bobs_character))
    listing = next(sql for sql in roll_queries if "ORDER BY" in sql and "LIMIT" in sql)

    plan = explain(listing)

    assert "roll_campaign_log" in plan or "roll_character_log" in plan, plan
    assert not sorts(plan), plan


def explain(sql: str) -> str:
    """The database's plan for ``sql``, as text. The test tables are tiny, so PostgreSQL is
    told not to scan them whole: what is asked is whether an index can serve the query."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}")
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        return "\n".join(" ".join(str(cell) for cell in row) for row in cursor.fetchall())


def sorts(plan: str) -> bool:
    """Whether the plan sorts rows itself (the index would then not give the order)."""
    return "Sort" in plan if connection.vendor == "postgresql" else "TEMP B-TREE" in plan
