"""A display name, set on the account page (or at sign-up), shown at the table instead of the
login name: on the dashboard, the sheet, the roll log and the header."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.forms import DISPLAY_NAME_MAX
from rolls.models import Roll
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("account")
NAME_URL = reverse("account-display-name")


def set_name(client: Client, name: str):  # type: ignore[no-untyped-def]
    return client.post(NAME_URL, {"first_name": name})


@pytest.fixture
def robert(bob):  # type: ignore[no-untyped-def]
    """Bob, who goes by "Robert the Bold" at the table."""
    bob.first_name = "Robert the Bold"
    bob.save(update_fields=["first_name"])
    return bob


# --- Setting it ----------------------------------------------------------------------------------


def test_the_account_page_offers_the_display_name_and_says_what_it_is_for(client_for, bob):
    response = client_for(bob).get(ACCOUNT)

    assert response.status_code == 200
    page = response.content.decode()
    assert f'action="{NAME_URL}"' in page
    assert 'name="first_name"' in page
    assert "Shown at the table instead of your login name" in text_of(response)


def test_a_player_sets_a_display_name_stripped_of_spaces_at_either_end(client_for, bob):
    client = client_for(bob)

    response = set_name(client, "  Robert the Bold  ")

    assert response.status_code == 302
    assert response.url == ACCOUNT
    assert fresh(bob).first_name == "Robert the Bold"
    page = client.get(ACCOUNT)
    assert "You are shown as Robert the Bold at the table." in text_of(page)


def test_an_empty_display_name_shows_the_login_name_again(client_for, robert):
    client = client_for(robert)

    set_name(client, "")

    assert fresh(robert).first_name == ""
    assert "You are shown by your login name at the table." in text_of(client.get(ACCOUNT))
    assert '<span class="who">bob</span>' in client.get(ACCOUNT).content.decode()


@pytest.mark.parametrize(("name", "reason"), [
    ("   ", "A display name cannot be only spaces."),
    ("\u200b\u200b", "A display name cannot be only spaces."),
    ("Rob\tthe Bold", "no tabs, line breaks or other control characters"),
    ("Rob\nthe Bold", "no tabs, line breaks or other control characters"),
    ("Rob\x1b[31m", "no tabs, line breaks or other control characters"),
    ("Rob\u202eblod", "no tabs, line breaks or other control characters"),
    ("R" * (DISPLAY_NAME_MAX + 1),
     f"Keep the display name to {DISPLAY_NAME_MAX} characters (it has {DISPLAY_NAME_MAX + 1})."),
])
def test_a_bad_display_name_is_refused_with_the_reason_and_nothing_is_saved(
        client_for, robert, name, reason):
    response = set_name(client_for(robert), name)

    assert response.status_code == 200
    assert reason in text_of(response)
    assert fresh(robert).first_name == "Robert the Bold"


def test_a_refused_display_name_is_shown_again_for_the_player_to_correct(client_for, bob):
    response = set_name(client_for(bob), "R" * (DISPLAY_NAME_MAX + 1))

    assert f'value="{"R" * (DISPLAY_NAME_MAX + 1)}"' in response.content.decode()


def test_a_display_name_of_exactly_the_limit_and_in_any_script_is_saved(client_for, bob):
    name = "Ысолда 🐉 " + "x" * (DISPLAY_NAME_MAX - 9)
    assert len(name) == DISPLAY_NAME_MAX

    set_name(client_for(bob), name)

    assert fresh(bob).first_name == name


def test_the_display_name_url_takes_only_a_post(client_for, bob):
    assert client_for(bob).get(NAME_URL).status_code == 405


def test_an_anonymous_visitor_is_sent_to_log_in_and_nothing_changes():
    response = Client().post(NAME_URL, {"first_name": "Nobody"})

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_the_display_name_is_markup_safe(client_for, bob):
    set_name(client_for(bob), "<b>Bob</b><script>x</script>")

    page = client_for(bob).get(ACCOUNT).content.decode()

    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page


# --- At sign-up ----------------------------------------------------------------------------------


def test_sign_up_may_give_a_display_name():
    Client().post(reverse("signup"), {
        "username": "newbie", "first_name": " Nova ", "email": "newbie@example.org",
        "password1": "lantern-quarry-mosaic-41", "password2": "lantern-quarry-mosaic-41"})

    assert get_user_model().objects.get(username="newbie").first_name == "Nova"


def test_sign_up_refuses_a_display_name_of_spaces_only_and_makes_no_account():
    response = Client().post(reverse("signup"), {
        "username": "newbie", "first_name": "   ", "email": "newbie@example.org",
        "password1": "lantern-quarry-mosaic-41", "password2": "lantern-quarry-mosaic-41"})

    assert response.status_code == 200
    assert "A display name cannot be only spaces." in text_of(response)
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_sign_up_welcomes_the_new_player_by_their_display_name():
    client = Client()
    client.post(reverse("signup"), {
        "username": "newbie", "first_name": "Nova", "email": "newbie@example.org",
        "password1": "lantern-quarry-mosaic-41", "password2": "lantern-quarry-mosaic-41"})

    page = client.get(reverse("campaigns:campaign-list"))
    assert "Welcome to Sheetkeeper, Nova." in text_of(page)


# --- Shown at the table --------------------------------------------------------------------------


def test_the_header_shows_the_display_name(client_for, robert):
    page = client_for(robert).get(ACCOUNT).content.decode()

    assert '<span class="who">Robert the Bold</span>' in page


def test_the_dashboard_shows_the_players_display_name(client_for, alice, robert, bobs_character):
    response = client_for(alice).get(reverse("table:campaign-detail",
                                             args=[bobs_character.campaign_id]))

    text = text_of(response)
    assert "Rook · Robert the Bold" in text  # the party card
    assert " bob " not in f" {text} "


def test_the_sheet_says_who_plays_it_by_display_name(client_for, alice, robert, bobs_character):
    response = client_for(alice).get(bobs_character.get_absolute_url())

    assert "played by Robert the Bold" in text_of(response)


def test_the_roll_log_names_who_rolled_by_display_name(client_for, alice, robert, bobs_character):
    Roll.objects.create(
        campaign=bobs_character.campaign, character=bobs_character, rolled_by=robert,
        ruleset="maelstrom", kind=Roll.Kind.ACTION, description="Drive through the storm",
        outcome=Roll.Outcome.SUCCESS, net=2, summary="2 successes")

    response = client_for(alice).get(reverse("rolls:roll-list",
                                             args=[bobs_character.campaign_id]))

    assert "Robert the Bold," in text_of(response)


def test_without_a_display_name_the_table_shows_the_login_name(client_for, alice, bob,
                                                               bobs_character):
    response = client_for(alice).get(bobs_character.get_absolute_url())

    assert "played by bob" in text_of(response)
