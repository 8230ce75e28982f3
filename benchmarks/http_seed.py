"""The data of the load benchmark (``benchmarks/http.py``), made inside ``manage.py shell``.

Three Maelstrom campaigns with the same GM and the same four players, one character each
(built by tests/factories.py, so the dev dependencies must be installed):

- ``small`` and ``large``: 10 and 10,000 rolls in the campaign, half of them by Rook, the
  character whose sheet is measured (so its five recent rolls are a full list in both);
- ``rolling``: no rolls at first; the benchmark's roll POSTs land here, so they never change
  the other two.

The rolls are what the sheet's roll makes: each pool is built by
``systems.maelstrom.rolling.build_pool`` from the character's own sheet and rolled by
``rulesets.maelstrom.roll``, and the row is filled as ``rolls.log.roll_store`` fills it, but
stored with ``bulk_create`` (10,000 roll POSTs would take minutes and measure nothing). They
are spread over weekly sessions of 50 rolls a minute or so apart, newest last, as a long
campaign's log would be: identical timestamps would make ``ORDER BY created_at`` a tie-break
over every row, which no real log has. The table is analysed afterwards, as autovacuum would
soon after such an insert.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.errors import RuleError
from systems.maelstrom.rolling import RollRequest, build_pool
from tests.factories import PASSWORD, CampaignFactory, CharacterFactory, UserFactory

ROLLS_PER_SESSION = 50
BATCH = 1000
SPECIALTIES = [("Driving", "Cars", False), ("Firearms", "Pistols", False),
               ("Athletics", "Parkour", True)]


def seed(*, small: int = 10, large: int = 10_000, rng_seed: int = 7) -> dict[str, object]:
    """Create the three campaigns; the ids the benchmark needs and the logins' password.

    Returns ``{"password", "gm", "player", "small": {"campaign", "character"}, "large":
    {...}, "rolling": {...}}`` (usernames and ids). Raises whatever the factories or the
    engine raise: a benchmark without its data must not run.
    """
    rng = random.Random(rng_seed)
    gm = UserFactory(username="bench-gm")
    players = [UserFactory(username=name) for name in
               ("bench-player", "bench-ana", "bench-ben", "bench-cleo")]
    ids: dict[str, object] = {"password": PASSWORD, "gm": gm.username,
                              "player": players[0].username}
    for name, rolls in (("small", small), ("large", large), ("rolling", 0)):
        campaign, rook = _table(name, gm, players)
        roll_count = _bulk_rolls(campaign, rolls, rng)
        ids[name] = {"campaign": campaign.pk, "character": rook.pk, "rolls": roll_count}
    return ids


def _table(name: str, gm: object, players: list[object]) -> tuple[Campaign, Character]:
    """A campaign GMed by ``gm`` with one character per player; the first player's."""
    campaign = CampaignFactory(name=f"Benchmark {name}", created_by=gm)
    characters = [
        CharacterFactory(campaign=campaign, owner=player, name=character_name,
                         specialties=SPECIALTIES)
        for player, character_name in zip(players, ("Rook", "Ash", "Bram", "Cass"), strict=True)
    ]
    for player in players:
        Membership.objects.get_or_create(campaign=campaign, user=player,
                                         defaults={"role": Membership.Role.PLAYER})
    return campaign, characters[0]


def _request(sheet: dict[str, object], rng: random.Random) -> RollRequest:
    """A request a player could make from the sheet: mostly an attribute and an ability,
    sometimes with a specialty, now and then willpower or soak."""
    kind = rng.choices(["action", "willpower", "soak"], weights=[90, 5, 5])[0]
    if kind == "willpower":
        return RollRequest(kind="willpower", difficulty=rng.randint(5, 8))
    if kind == "soak":
        return RollRequest(kind="soak", damage_kind=rng.choice(["bashing", "lethal"]),
                           armor=rng.randint(0, 2))
    attributes: dict[str, int] = sheet["attributes"]  # type: ignore[assignment]  # the sheet's stored shape (systems/maelstrom/sheet.py)
    abilities: dict[str, int] = sheet["abilities"]  # type: ignore[assignment]  # the sheet's stored shape (systems/maelstrom/sheet.py)
    specialty_rows: list[dict[str, str]] = sheet["specialties"]  # type: ignore[assignment]  # the sheet's stored shape (systems/maelstrom/sheet.py)
    # In the catalogue's order, as the sheet lists them (and as the Trait rows were read).
    attribute = rng.choice([name for name in maelstrom.ATTRIBUTES if name in attributes])
    ability = rng.choice([name for name in maelstrom.ABILITIES if abilities.get(name)])
    owned = [s for s in specialty_rows if s["ability"] == ability]
    specialties = (f"{ability}: {owned[0]['name']}",) if owned and rng.random() < .5 else ()
    return RollRequest(traits=(attribute, ability), specialties=specialties,
                       difficulty=rng.randint(5, 8), threshold=rng.choice([0, 0, 0, 1]))


def _bulk_rolls(campaign: Campaign, count: int, rng: random.Random) -> int:
    """Append ``count`` rolls to ``campaign`` (half of them Rook's, the first character's);
    how many."""
    if not count:
        return 0
    characters = list(Character.objects.filter(campaign=campaign).select_related("owner")
                      .order_by("pk"))
    sessions = -(-count // ROLLS_PER_SESSION)
    first: datetime = timezone.now() - timedelta(weeks=sessions)
    rows = []
    for number in range(count):
        # Rook, whose sheet is measured, makes every other roll (so that its five recent
        # rolls are there with 10 rolls in the campaign too); the others share the rest.
        others = characters[1:]
        character = characters[0] if number % 2 == 0 else others[number // 2 % len(others)]
        request = _request(character.sheet, rng)
        try:
            pool = build_pool(character, request)
        except RuleError:  # not a pool the sheet would let through: the plainest one instead
            request = RollRequest(traits=("Precision", "Driving"))
            pool = build_pool(character, request)
        result = maelstrom.roll(pool, rng)
        data = result.as_dict()
        session, order = divmod(number, ROLLS_PER_SESSION)
        rows.append(Roll(
            campaign=campaign, character=character, rolled_by=character.owner,
            ruleset="maelstrom", kind=request.kind, description=pool.describe(),
            pool=data["pool"], result=data, outcome=result.outcome, net=result.net,
            summary=result.summary(),
            created_at=first + timedelta(weeks=session, minutes=order,
                                         seconds=rng.randint(0, 59)),
        ))
    created_at = Roll._meta.get_field("created_at")
    # auto_now_add would stamp every row with this very second; the log's spread matters to
    # how the database orders it (see the module's docstring).
    created_at.auto_now_add = False  # type: ignore[attr-defined]
    try:
        with transaction.atomic():
            Roll.objects.bulk_create(rows, batch_size=BATCH)
    finally:
        created_at.auto_now_add = True  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        # What autovacuum does a minute after a big insert, and a live database has long had:
        # the planner's statistics for the new rows.
        cursor.execute(f"ANALYZE {Roll._meta.db_table}")
    return count
