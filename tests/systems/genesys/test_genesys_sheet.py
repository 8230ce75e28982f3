"""The Genesys sheet and its in-place changes: characteristics, skills with the dice each check
starts with, wounds and strain against their thresholds (10 + Brawn, 10 + Willpower: Genesys
Core Rulebook, Step 2 Average Human), and the end of creation. Every change answers an HTMX
request with its partial, a plain POST with a redirect and a message, and the GM's card with
the card."""

from __future__ import annotations

import pytest
from django.urls import reverse

from systems.genesys import system as sheet_module
from tests.helpers import action_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import (
    set_sheet,
    sheet_of,
    text_of,
)

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign, kes = cast.gx_campaign, cast.kes

# With rolls: their follow-ups are read only when one of them has any (these have none); and
# the Equipment card's items (equipment.inventory); the running encounter (encounters); the
# last session ("Since last session", history.between: none here, so no activity read).
SHEET_QUERIES = 8


# --- Who may see and change it -------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in(client, kes) -> None:
    for response in (client.get(kes.get_absolute_url()),
                     client.post(action_url(kes, "wounds"), {"amount": 1,
                                                             "direction": "suffer"})):
        assert response.status_code == 302
        assert "/login/" in response.url
    assert sheet_of(kes)["wounds"]["current"] == 0


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_stranger_gets_404_and_changes_nothing(client_for, carol, kes, htmx) -> None:
    client = client_for(carol, htmx=htmx)

    assert client.get(kes.get_absolute_url()).status_code == 404
    response = client.post(action_url(kes, "wounds"), {"amount": 1, "direction": "suffer"})

    assert response.status_code == 404
    assert sheet_of(kes)["wounds"]["current"] == 0


@pytest.mark.parametrize("who", ["bob", "alice"])
def test_the_player_and_the_gm_see_the_whole_sheet(client_for, who, request, kes) -> None:
    response = client_for(request.getfixturevalue(who)).get(kes.get_absolute_url())

    text = text_of(response)
    assert response.status_code == 200
    assert "Kestrel" in text and "Scoundrel" in text and "Genesys" in text
    for name in ("Brawn", "Agility", "Intellect", "Cunning", "Willpower", "Presence"):
        assert f"2 {name}" in text
    assert "Wounds 0 / 12" in text and "Strain 0 / 12" in text
    assert "XP: 110 available, 110 total" in text
    assert "Finish creation" in text


def test_each_skill_shows_its_rank_career_and_the_dice_its_check_starts_with(
    client_for, bob, kes
) -> None:
    set_sheet(kes, characteristics={"Brawn": 2, "Agility": 3, "Intellect": 2, "Cunning": 2,
                                    "Willpower": 2, "Presence": 2},
              skills={"Ranged": 2, "Athletics": 1})

    text = text_of(client_for(bob).get(kes.get_absolute_url()))

    # Genesys dice pool, Skill and Characteristic: the higher value in dice, the lower of them
    # upgraded: Agility 3 and Ranged 2 start with 2 proficiency and 1 ability.
    assert "Ranged (Ag) career ●●○○○ rank 2; pool 1 ability, 2 proficiency PPA" in text
    assert "Athletics (Br) ●○○○○ rank 1; pool 1 ability, 1 proficiency PA" in text
    assert "Knowledge (Int) ○○○○○ rank 0; pool 2 ability AA" in text


def test_a_skill_taken_off_the_campaigns_list_keeps_its_ranks_but_is_not_rolled(
    client_for, bob, kes, gx_campaign
) -> None:
    set_sheet(kes, skills={"Sorcery": 3})

    response = client_for(bob).get(kes.get_absolute_url())

    assert "Ranks in skills no longer on the campaign's list (not rolled): Sorcery 3." in (
        text_of(response))
    assert 'value="Sorcery"' not in response.content.decode()


@pytest.mark.parametrize("rolls", [1, 5])
def test_the_sheet_costs_the_same_queries_whatever_the_number_of_rolls(
    rolls, client_for, bob, kes, seeded_rng, django_assert_num_queries
) -> None:
    client = client_for(bob)
    for _ in range(rolls):
        client.post(reverse("rolls:roll-create", args=[kes.pk]),
                    {"skill": "Ranged", "difficulty": "Average"})

    with django_assert_num_queries(SHEET_QUERIES):
        response = client.get(kes.get_absolute_url())

    assert response.status_code == 200
    assert response.content.decode().count('class="gx-dice gx-compact"') == rolls


def test_a_sheet_render_reads_the_sheet_once_and_computes_no_odds(
    client_for, bob, kes, monkeypatch
) -> None:
    reads = []
    read_sheet = sheet_module.read_sheet
    monkeypatch.setattr(sheet_module, "read_sheet",
                        lambda character: reads.append(character.pk) or read_sheet(character))
    monkeypatch.setattr(sheet_module.genesys, "odds", lambda pool: pytest.fail("odds computed"))

    response = client_for(bob).get(kes.get_absolute_url())

    assert response.status_code == 200
    assert reads == [kes.pk]


# --- Wounds and strain ---------------------------------------------------------------------


def test_suffering_three_wounds_answers_htmx_with_the_tracks_partial(client_for, bob, kes) -> None:
    response = client_for(bob, htmx=True).post(action_url(kes, "wounds"),
                                               {"amount": "3", "direction": "suffer"})

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert content.lstrip().startswith('<div id="sheet-tracks">')
    assert "Suffered 3 wounds: 3/12." in text_of(response)
    assert "Wounds 3 / 12" in text_of(response)
    assert "trackChanged" in response.headers["HX-Trigger"]
    assert sheet_of(kes)["wounds"] == {"current": 3, "threshold": 12}


def test_a_plain_post_redirects_to_the_sheet_with_the_message(client_for, bob, kes) -> None:
    client = client_for(bob)

    response = client.post(action_url(kes, "strain"), {"amount": "2", "direction": "suffer"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == kes.get_absolute_url()
    assert "Suffered 2 strain: 2/12." in text_of(page)
    assert "Strain 2 / 12" in text_of(page)


def test_healing_takes_wounds_off(client_for, bob, kes) -> None:
    set_sheet(kes, wounds={"current": 5, "threshold": 12})

    response = client_for(bob, htmx=True).post(action_url(kes, "wounds"),
                                               {"amount": "2", "direction": "heal"})

    assert "Healed 2 wounds: 3/12." in text_of(response)
    assert sheet_of(kes)["wounds"]["current"] == 3


def test_exceeding_the_strain_threshold_says_the_character_is_incapacitated(
    client_for, bob, kes
) -> None:
    set_sheet(kes, strain={"current": 11, "threshold": 12})

    response = client_for(bob, htmx=True).post(action_url(kes, "strain"),
                                               {"amount": "2", "direction": "suffer"})

    text = text_of(response)
    assert "Suffered 2 strain: 13/12. Strain exceeds the threshold: incapacitated." in text
    assert "Threshold exceeded: incapacitated." in text


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_healing_more_than_there_is_is_refused_and_writes_nothing(
    client_for, bob, kes, htmx
) -> None:
    set_sheet(kes, wounds={"current": 2, "threshold": 12})
    client = client_for(bob, htmx=htmx)

    response = client.post(action_url(kes, "wounds"), {"amount": "3", "direction": "heal"})
    shown = response if htmx else client.get(response.url)

    assert ("Kestrel has 2 wounds to heal, not 3. (Genesys Core Rulebook, Step 5: Determine "
            "Derived Attributes)") in text_of(shown)
    assert sheet_of(kes)["wounds"]["current"] == 2
    if htmx:
        assert "HX-Trigger" not in response.headers


@pytest.mark.parametrize("data", [{"amount": "0", "direction": "suffer"},
                                  {"amount": "2", "direction": "explode"}],
                         ids=["zero", "unknown direction"])
def test_a_bad_amount_or_direction_is_refused(client_for, bob, kes, data) -> None:
    response = client_for(bob, htmx=True).post(action_url(kes, "wounds"), data)

    assert 'role="alert"' in response.content.decode()
    assert sheet_of(kes)["wounds"]["current"] == 0


def test_more_than_99_wounds_are_refused(client_for, bob, kes) -> None:
    set_sheet(kes, wounds={"current": 90, "threshold": 12})

    response = client_for(bob, htmx=True).post(action_url(kes, "wounds"),
                                               {"amount": "10", "direction": "suffer"})

    assert "A sheet records at most 99 wounds." in text_of(response)
    assert sheet_of(kes)["wounds"]["current"] == 90


def test_the_gm_changes_a_track_from_the_dashboard_card_in_place(client_for, alice, kes) -> None:
    response = client_for(alice, htmx=True).post(
        action_url(kes, "wounds"), {"amount": "1", "direction": "suffer", "from": "dashboard"})

    content = response.content.decode()
    assert content.lstrip().startswith(
        f'<article class="card party-card gx-card" id="card-{kes.pk}"')
    assert "Suffered 1 wound: 1/12." in text_of(response)
    assert "Wounds 1/12" in text_of(response)
    assert sheet_of(kes)["wounds"]["current"] == 1


def test_a_plain_post_from_the_dashboard_goes_back_to_the_dashboard(
    client_for, alice, kes, gx_campaign
) -> None:
    response = client_for(alice).post(
        action_url(kes, "strain"), {"amount": "1", "direction": "suffer", "from": "dashboard"})

    assert response.status_code == 302
    assert response.url == gx_campaign.get_absolute_url()
    assert sheet_of(kes)["strain"]["current"] == 1


# --- Creation ------------------------------------------------------------------------------


def test_the_player_finishes_creation_once(client_for, bob, kes) -> None:
    client = client_for(bob, htmx=True)

    first = client.post(action_url(kes, "finish-creation"))
    second = client.post(action_url(kes, "finish-creation"))

    assert first.content.decode().lstrip().startswith('<div id="sheet-creation">')
    assert "Creation finished: characteristics are now fixed" in text_of(first)
    assert "Kestrel's creation is already finished." in text_of(second)
    assert sheet_of(kes)["creation"] is False


def test_only_the_gm_reopens_creation(client_for, alice, bob, kes) -> None:
    set_sheet(kes, creation=False)

    refused = client_for(bob, htmx=True).post(action_url(kes, "reopen-creation"))
    assert refused.status_code == 404
    assert sheet_of(kes)["creation"] is False

    response = client_for(alice, htmx=True).post(action_url(kes, "reopen-creation"))
    assert "Creation reopened" in text_of(response)
    assert sheet_of(kes)["creation"] is True


def test_an_unknown_change_is_404(client_for, bob, kes) -> None:
    assert client_for(bob).post(action_url(kes, "plot-points")).status_code == 404
