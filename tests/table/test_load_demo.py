"""The demo command that `make run` calls: a campaign to click through, loaded once."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest
from django.utils import timezone

from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Roll
from rulesets import registry
from table.management.commands.load_demo import DEMO_PASSWORD, GM, PLAYERS


def _load() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_maelstrom_demo_has_a_gm_two_players_two_characters_and_a_few_rolls() -> None:
    _load()
    campaign = Campaign.objects.get(ruleset="maelstrom")
    roles = dict(Membership.objects.filter(campaign=campaign)
                 .values_list("user__username", "role"))
    assert roles == {GM: "gm", PLAYERS[0]: "player", PLAYERS[1]: "player"}
    characters = list(Character.objects.filter(campaign=campaign))
    assert len(characters) == 2
    assert {c.owner.username for c in characters} == set(PLAYERS)
    assert Roll.objects.filter(campaign=campaign).count() >= 3
    for character in characters:
        sums = character.xp_entries.values_list("available_delta", "total_delta")
        assert character.xp_available == sum(a for a, _ in sums)
        assert character.xp_total == sum(t for _, t in sums)


@pytest.mark.django_db
def test_every_system_has_a_demo_campaign_with_a_finished_character_and_rolls() -> None:
    _load()
    for ruleset in registry.RULESETS:
        campaign = Campaign.objects.get(ruleset=ruleset)
        assert campaign.created_by.username == GM
        assert campaign.characters.exists(), ruleset
        assert campaign.rolls.exists(), ruleset
        for character in campaign.characters.all():
            sums = character.xp_entries.values_list("available_delta", "total_delta")
            assert character.xp_available == sum(a for a, _ in sums)
            assert character.xp_total == sum(t for _, t in sums)


@pytest.mark.django_db
def test_the_demo_prints_the_logins() -> None:
    output = _load()
    for username in (GM, *PLAYERS):
        assert username in output
    assert DEMO_PASSWORD in output


@pytest.mark.django_db
def test_the_log_in_link_names_the_servers_address() -> None:
    # make run PORT=8011 passes its address: the link printed is the one that answers.
    default, elsewhere = _load(), io.StringIO()
    call_command("load_demo", url="http://127.0.0.1:8011", stdout=elsewhere)

    assert "Log in at http://127.0.0.1:8000/login/" in default
    assert "Log in at http://127.0.0.1:8011/login/" in elsewhere.getvalue()


def test_make_run_passes_its_host_and_port_to_the_demo() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "load_demo --url http://$(HOST):$(PORT)" in makefile


@pytest.mark.django_db
def test_loading_the_demo_twice_changes_nothing() -> None:
    _load()
    counts = (Campaign.objects.count(), Character.objects.count(), Roll.objects.count(),
              get_user_model().objects.count())
    assert "already loaded" in _load()
    assert counts == (Campaign.objects.count(), Character.objects.count(), Roll.objects.count(),
                      get_user_model().objects.count())


@pytest.mark.django_db
def test_the_demo_users_can_log_in(client) -> None:  # type: ignore[no-untyped-def]
    _load()
    # django-axes checks every login against its request; the test client has none of its own.
    assert client.login(request=HttpRequest(), username=PLAYERS[0], password=DEMO_PASSWORD)


@pytest.mark.django_db
def test_the_demo_was_played_a_week_ago_in_its_first_session() -> None:
    # So that what anyone does on a fresh `make run` comes after the last session: the
    # sheet's "Since last session" and the history show it as at a real table.
    _load()
    campaign = Campaign.objects.get(ruleset="maelstrom")
    session = campaign.sessions.get()
    week_ago = timezone.localdate() - datetime.timedelta(days=7)
    assert (session.title, session.date) == ("The first evening", week_ago)
    assert {timezone.localdate(r.created_at) for r in Roll.objects.filter(campaign=campaign)} \
        == {week_ago}
    assert {timezone.localdate(e.created_at) for e in campaign.activity.all()} == {week_ago}
