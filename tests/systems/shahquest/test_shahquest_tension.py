"""The Shahquest GM's tension pool on the dashboard: it starts at 3d6 (or the campaign's own
size), grows when the GM activates an opportunity (the player gets a plot point in the same
transaction), lends a die to an NPC roll and takes it back for a plot point, and is rolled
whole as general danger with a setting die and complications (Shahquest wiki, Tension Pool;
Building the Tension; Using the Tension Pool; Tension Pool as General Danger)."""

from __future__ import annotations

import pytest
from django.template.exceptions import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Roll
from rulesets.shahquest import TensionPool
from systems.shahquest.actions import CAMPAIGN_ACTIONS
from systems.shahquest.sheet import MAX_PLOT_POINTS
from systems.shahquest.tension import (
    dashboard_context,
    default_system_data,
    tension_state,
)
from tests.factories import CampaignFactory
from tests.helpers import campaign_action_url, text_of
from tests.shahquest_cast import plot_points

pytestmark = pytest.mark.django_db


def test_the_shahquest_system_plugs_in_the_tension_pool() -> None:
    system = systems.for_ruleset("shahquest")
    assert system is not None
    assert system.campaign_actions is CAMPAIGN_ACTIONS
    assert system.default_system_data() == default_system_data()


@pytest.fixture
def table(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs a Shahquest campaign made by the factory (its system data is ``{}``); Bob
    plays in it."""
    campaign = CampaignFactory(name="The Shah's Road", ruleset="shahquest", created_by=alice)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def shawn(table, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's character with one plot point."""
    return Character.objects.create(campaign=table, owner=bob, name="Shawn",
                                    sheet={"plot_points": 1, "features": [], "stress": {}})


def pool_of(campaign: Campaign) -> tuple[int, ...]:
    campaign.refresh_from_db()
    return tension_state(campaign.system_data)["pool"].dice


def aside_of(campaign: Campaign) -> tuple[int, ...]:
    campaign.refresh_from_db()
    return tension_state(campaign.system_data)["aside"]


def set_pool(campaign: Campaign, notation: str) -> None:
    campaign.system_data = {**default_system_data(),
                            "tension_pool": TensionPool.start(notation).as_dict()}
    campaign.save(update_fields=["system_data"])


def shown(client, response) -> str:  # type: ignore[no-untyped-def]
    """What the GM reads after a move: the HTMX answer, or the page the plain POST
    redirects to (with its message)."""
    if response.status_code == 302:
        return text_of(client.get(response["Location"]))
    assert response.status_code == 200
    return text_of(response)


# --- a fresh campaign ------------------------------------------------------------------------


def test_a_factory_campaign_with_empty_system_data_reads_as_a_3d6_pool(table) -> None:  # type: ignore[no-untyped-def]
    assert table.system_data == {}
    assert pool_of(table) == (6, 6, 6)
    context = dashboard_context(table)
    assert context["tension_text"] == "3d6"
    assert context["tension_starting"] == "3d6"


def test_the_default_system_data_holds_a_3d6_pool_and_nothing_aside() -> None:
    data = default_system_data()
    assert data["tension_pool"]["tension_pool"] == [6, 6, 6]
    assert data["tension_aside"] == []
    assert data["last_danger"] is None


def test_the_gm_sees_the_pool_and_its_moves_on_the_dashboard(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    page = client_for(alice).get(table.get_absolute_url())
    assert page.status_code == 200
    content = page.content.decode()
    assert 'id="system-panel"' in content
    text = text_of(page)
    assert "Tension pool 3d6" in text
    for button in ("Take the die", "Roll general danger", "Start the pool at this size"):
        assert button in text
    assert "No characters yet: the plot point needs a player's character." in text
    assert campaign_action_url(table, "tension-opportunity") in content


def test_a_player_never_sees_the_tension_pool(client_for, bob, table) -> None:  # type: ignore[no-untyped-def]
    content = client_for(bob).get(table.get_absolute_url()).content.decode()
    assert 'id="system-panel"' not in content
    assert "tension-opportunity" not in content


def test_the_dashboard_offers_each_living_character_for_the_plot_point(client_for, alice, table,
                                                                         shawn) -> None:  # type: ignore[no-untyped-def]
    try:
        get_template("systems/shahquest/_card.html")
    except TemplateDoesNotExist:
        pytest.skip("the Shahquest party card has not landed")
    text = text_of(client_for(alice).get(table.get_absolute_url()))
    assert "Shawn (1 plot point)" in text
    assert "Activate the opportunity" in text


# --- who may act -----------------------------------------------------------------------------

MOVES = [
    ("tension-start", {"dice": "d8 2d6"}),
    ("tension-opportunity", {"grow": "add", "character": "0"}),
    ("tension-take", {"die": "6", "purpose": "npc"}),
    ("tension-return", {"die": "6", "character": "0"}),
    ("tension-drop", {"die": "6"}),
    ("tension-danger", {"setting_die": "", "complications": ""}),
]


@pytest.mark.parametrize(("action", "data"), MOVES)
def test_an_anonymous_visitor_is_sent_to_log_in(client, table, action, data) -> None:  # type: ignore[no-untyped-def]
    response = client.post(campaign_action_url(table, action), data)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert table.system_data == {} and Campaign.objects.get(pk=table.pk).system_data == {}


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("action", "data"), MOVES)
def test_a_stranger_and_a_player_get_404_and_nothing_changes(client_for, bob, carol, table,
                                                             shawn, action, data, htmx) -> None:  # type: ignore[no-untyped-def]
    data = {k: (str(shawn.pk) if k == "character" else v) for k, v in data.items()}
    for user in (carol, bob):
        assert client_for(user, htmx=htmx).post(campaign_action_url(table, action),
                                                data).status_code == 404
    assert Campaign.objects.get(pk=table.pk).system_data == {}
    assert plot_points(shawn) == 1
    assert not Roll.objects.exists()


def test_an_unknown_move_is_404(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    assert client_for(alice).post(campaign_action_url(table, "tension-steal"),
                                  {}).status_code == 404


def test_a_get_is_refused(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    assert client_for(alice).get(campaign_action_url(table, "tension-take")).status_code == 405


# --- the starting size -----------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_gm_sets_a_stepped_up_and_spread_starting_pool(client_for, alice, table,
                                                           htmx) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice, htmx=htmx)
    response = client.post(campaign_action_url(table, "tension-start"), {"dice": "d8 2d6"})
    assert pool_of(table) == (8, 6, 6)
    assert table.system_data["starting_tension"] == [8, 6, 6]
    if htmx:
        assert response.status_code == 200
        assert 'id="system-panel"' in response.content.decode()
        assert "The tension pool starts at d8 2d6" in text_of(response)
    else:
        assert response.status_code == 302
        assert "The tension pool starts at d8 2d6, and is reset to it." in shown(client, response)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_starting_pool_of_odd_dice_is_refused_and_nothing_is_written(client_for, alice, table,
                                                                       htmx) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice, htmx=htmx)
    response = client.post(campaign_action_url(table, "tension-start"), {"dice": "d7 2d6"})
    assert Campaign.objects.get(pk=table.pk).system_data == {}
    text = shown(client, response)
    assert "'d7' is not dice notation" in text or "d7" in text
    assert "Dice, Step Up" in text or "Shahquest" in text or "notation" in text


def test_resetting_clears_the_dice_set_aside(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice)
    client.post(campaign_action_url(table, "tension-take"), {"die": "6", "purpose": "npc"})
    assert aside_of(table) == (6,)
    client.post(campaign_action_url(table, "tension-start"), {"dice": "3d6"})
    assert pool_of(table) == (6, 6, 6)
    assert aside_of(table) == ()


# --- building the tension --------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_an_activated_opportunity_adds_a_d6_and_gives_the_player_a_plot_point(
        client_for, alice, table, shawn, htmx) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice, htmx=htmx)
    response = client.post(
        campaign_action_url(table, "tension-opportunity"), {"grow": "add", "character": shawn.pk})
    assert pool_of(table) == (6, 6, 6, 6)
    assert plot_points(shawn) == 2
    text = shown(client, response)
    assert "Opportunity activated: a d6 joined the pool (now 4d6); Shawn gets a plot point." in text
    if htmx:
        assert "Shawn (2 plot points)" in text


def test_an_activated_opportunity_may_step_up_a_tension_die_instead(client_for, alice, table,
                                                                    shawn) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(campaign_action_url(table, "tension-opportunity"),
                           {"grow": "step-6", "character": shawn.pk})
    assert pool_of(table) == (8, 6, 6)
    assert plot_points(shawn) == 2


def test_an_activated_opportunity_may_add_the_opportunity_die_itself(client_for, alice, table,
                                                                    shawn) -> None:  # type: ignore[no-untyped-def]
    """The seed's example: "the GM could award Shawn a Plot Point to add the d8 into the
    Tension Pool" (Shahquest wiki, Dice Pools)."""
    page = text_of(client_for(alice).get(table.get_absolute_url()))
    assert "Adding the opportunity die itself, a d8" in page
    response = client_for(alice, htmx=True).post(
        campaign_action_url(table, "tension-opportunity"), {"grow": "add-8", "character": shawn.pk})
    assert pool_of(table) == (8, 6, 6, 6)
    assert plot_points(shawn) == 2
    assert "the d8 opportunity die joined the pool (now d8 3d6)" in text_of(response)


def test_the_plot_point_is_announced_to_the_characters_sheet(client_for, alice, table, shawn,
                                                             monkeypatch) -> None:  # type: ignore[no-untyped-def]
    heard: list[tuple[int, str, int | None]] = []
    monkeypatch.setattr("systems.shahquest.actions.announce",
                        lambda campaign_id, event, *, character_id=None, gm_only=False:
                        heard.append((campaign_id, event, character_id)))
    monkeypatch.setattr("table.services.announce",
                        lambda campaign_id, event, *, character_id=None, gm_only=False:
                        heard.append((campaign_id, event, character_id)))
    client_for(alice).post(campaign_action_url(table, "tension-opportunity"),
                           {"grow": "add", "character": shawn.pk})
    assert (table.pk, "trackChanged", shawn.pk) in heard
    assert (table.pk, "campaignChanged", None) in heard


@pytest.mark.parametrize("htmx", [False, True])
def test_a_d12_cannot_step_up_and_neither_pool_nor_plot_points_change(client_for, alice, table,
                                                                      shawn, htmx) -> None:  # type: ignore[no-untyped-def]
    set_pool(table, "d12 d6")
    before = Campaign.objects.get(pk=table.pk).system_data
    client = client_for(alice, htmx=htmx)
    response = client.post(
        campaign_action_url(table, "tension-opportunity"),
        {"grow": "step-12", "character": shawn.pk})
    assert Campaign.objects.get(pk=table.pk).system_data == before
    assert plot_points(shawn) == 1
    text = shown(client, response)
    assert "a d12 tension die cannot be stepped up (Shahquest wiki, Building the Tension)" in text


def test_stepping_up_a_die_the_pool_lacks_is_refused(client_for, alice, table, shawn) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        campaign_action_url(table, "tension-opportunity"),
        {"grow": "step-8", "character": shawn.pk})
    assert "there is no d8 in the tension pool (3d6)" in text_of(response)
    assert pool_of(table) == (6, 6, 6)
    assert plot_points(shawn) == 1


def test_the_plot_point_must_go_to_a_character_of_this_campaign(client_for, alice, carol, table,
                                                                shawn) -> None:  # type: ignore[no-untyped-def]
    elsewhere = CampaignFactory(ruleset="shahquest", created_by=carol)
    outsider = Character.objects.create(campaign=elsewhere, owner=carol, name="Mara",
                                        sheet={"plot_points": 0})
    response = client_for(alice, htmx=True).post(
        campaign_action_url(table, "tension-opportunity"),
        {"grow": "add", "character": outsider.pk})
    assert "choose a player's character of this campaign for the plot point" in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}
    assert plot_points(outsider) == 0


def test_an_opportunity_without_a_character_is_refused(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-opportunity"),
                                                 {"grow": "add"})
    assert "Choose who gets the plot point." in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}


def test_the_pool_and_the_plot_point_change_together_or_not_at_all(client_for, alice, table,
                                                                   shawn, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A failure after the plot point is written (saving the campaign) rolls both back."""
    def broken_save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Campaign, "save", broken_save)
    with pytest.raises(RuntimeError):
        client_for(alice).post(campaign_action_url(table, "tension-opportunity"),
                               {"grow": "add", "character": shawn.pk})
    monkeypatch.undo()
    assert plot_points(shawn) == 1
    assert Campaign.objects.get(pk=table.pk).system_data == {}


# --- using the tension pool ------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_gm_takes_a_die_for_an_npc_roll_and_returns_it_for_a_plot_point(
        client_for, alice, table, shawn, htmx) -> None:  # type: ignore[no-untyped-def]
    set_pool(table, "d8 2d6")
    client = client_for(alice, htmx=htmx)
    response = client.post(campaign_action_url(table, "tension-take"),
                           {"die": "8", "purpose": "npc"})
    assert pool_of(table) == (6, 6)
    assert aside_of(table) == (8,)
    if htmx:
        text = text_of(response)
        assert "A d8 is set aside for the NPC's roll: add d8 to the NPC's dice." in text
        assert "Return the d8" in text
    response = client.post(campaign_action_url(table, "tension-return"),
                           {"die": "8", "character": shawn.pk})
    assert pool_of(table) == (8, 6, 6)
    assert aside_of(table) == ()
    assert plot_points(shawn) == 2
    text = shown(client, response)
    assert "The d8 is back in the tension pool (now d8 2d6); Shawn gets a plot point." in text


def test_a_die_set_aside_may_be_let_go_without_a_plot_point(client_for, alice, table,
                                                             shawn) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice, htmx=True)
    client.post(campaign_action_url(table, "tension-take"), {"die": "6", "purpose": "npc"})
    response = client.post(campaign_action_url(table, "tension-drop"), {"die": "6"})
    assert "The d6 set aside leaves play" in text_of(response)
    assert pool_of(table) == (6, 6)
    assert aside_of(table) == ()
    assert plot_points(shawn) == 1


def test_a_die_spent_on_effort_or_effect_is_gone(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-take"),
                                                 {"die": "6", "purpose": "spend"})
    assert "A d6 was spent on effort or effect (tension pool now 2d6)." in text_of(response)
    assert pool_of(table) == (6, 6)
    assert aside_of(table) == ()


@pytest.mark.parametrize("htmx", [False, True])
def test_taking_from_an_empty_pool_is_refused(client_for, alice, table, htmx) -> None:  # type: ignore[no-untyped-def]
    set_pool(table, "d6")
    client_for(alice).post(campaign_action_url(table, "tension-take"),
                           {"die": "6", "purpose": "spend"})
    before = Campaign.objects.get(pk=table.pk).system_data
    client = client_for(alice, htmx=htmx)
    response = client.post(campaign_action_url(table, "tension-take"),
                           {"die": "6", "purpose": "npc"})
    assert Campaign.objects.get(pk=table.pk).system_data == before
    text = shown(client, response)
    assert ("there is no d6 in the tension pool (empty) (Shahquest wiki, Using the Tension Pool)"
            in text)


def test_an_unknown_die_is_refused_with_the_rule(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-take"),
                                                 {"die": "7", "purpose": "npc"})
    assert "the tension die must be one of d4, d6, d8, d10, d12, not 7" in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}


def test_only_a_die_set_aside_can_come_back(client_for, alice, table, shawn) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-return"),
                                                 {"die": "6", "character": shawn.pk})
    assert ("no d6 was set aside for an NPC's roll (set aside: none) "
            "(Shahquest wiki, Using the Tension Pool)") in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}
    assert plot_points(shawn) == 1


# --- general danger --------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_gm_rolls_the_pool_as_general_danger_with_a_setting_die_and_a_complication(
        client_for, alice, table, scripted_dice, htmx) -> None:  # type: ignore[no-untyped-def]
    """The seed's pit: 3d6 plus a d10 setting die for the pit's width, and a d8 complication.
    Faces 5, 1, 3 on the d6s, 7 on the d10, 2 on the d8: effort 7 + 5 = 12; the effect is
    the largest die left, the d8."""
    scripted_dice([5, 1, 3, 7, 2])
    client = client_for(alice, htmx=htmx)
    response = client.post(
        campaign_action_url(table, "tension-danger"),
        {"setting_die": "10", "complications": "d8", "note": "Leap the pit"})
    roll = Roll.objects.get()
    assert roll.kind == "general_danger"
    assert roll.character is None and roll.rolled_by == alice
    assert roll.ruleset == "shahquest"
    assert roll.net == 12
    assert roll.result["effort"] == 12 and roll.result["effect_die"] == 8
    assert [d["face"] for d in roll.result["dice"]] == [5, 1, 3, 7, 2]
    assert roll.description == ("General danger: tension pool 3d6 + setting die d10 + "
                                "complication d8 (Leap the pit)")
    assert pool_of(table) == (6, 6, 6)  # rolling it does not spend it
    assert table.system_data["last_danger"]["roll_id"] == roll.pk
    text = shown(client, response)
    assert "General danger: effort 12, effect d8." in text
    assert "Effort 12 · effect d8 · 1 opportunity" in text
    if htmx:
        content = response.content.decode()
        assert 'aria-label="d10 setting die showing 7: effort"' in content
        assert 'aria-label="d6 tension die showing 1: opportunity"' in content
        assert 'aria-label="d8 complication showing 2: effect"' in content


def test_the_general_danger_roll_is_in_the_roll_log(client_for, alice, bob, table,
                                                    scripted_dice) -> None:  # type: ignore[no-untyped-def]
    scripted_dice([4, 6, 2])
    client_for(alice).post(campaign_action_url(table, "tension-danger"), {"setting_die": ""})
    roll = Roll.objects.get()
    assert roll.summary == "Effort 10, effect d6"
    page = client_for(bob).get(table.get_absolute_url())
    assert "General danger: tension pool 3d6" in text_of(page)
    assert "Effort 10, effect d6" in text_of(page)
    try:
        get_template("systems/shahquest/_roll.html")
    except TemplateDoesNotExist:
        return  # the roll log draws rolls with the Shahquest template once it lands
    log = client_for(bob).get(reverse("rolls:roll-list", args=[table.pk]))
    assert "General danger" in text_of(log)


def test_a_gm_only_general_danger_roll_is_hidden_from_players(client_for, alice, bob, table,
                                                              scripted_dice) -> None:  # type: ignore[no-untyped-def]
    scripted_dice([4, 6, 2])
    client_for(alice).post(campaign_action_url(table, "tension-danger"), {"gm_only": "on"})
    assert Roll.objects.get().gm_only
    assert "General danger" not in text_of(client_for(bob).get(table.get_absolute_url()))


@pytest.mark.parametrize("htmx", [False, True])
def test_an_empty_pool_without_a_setting_die_cannot_be_rolled(client_for, alice, table,
                                                              htmx) -> None:  # type: ignore[no-untyped-def]
    set_pool(table, "d6")
    client_for(alice).post(campaign_action_url(table, "tension-take"),
                           {"die": "6", "purpose": "spend"})
    before = Campaign.objects.get(pk=table.pk).system_data
    client = client_for(alice, htmx=htmx)
    response = client.post(campaign_action_url(table, "tension-danger"), {})
    assert not Roll.objects.exists()
    assert Campaign.objects.get(pk=table.pk).system_data == before
    text = shown(client, response)
    assert ("the tension pool is empty and there is no setting die "
            "(Shahquest wiki, Tension Pool as General Danger)") in text


def test_bad_complication_dice_are_refused_and_nothing_is_rolled(client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-danger"),
                                                 {"complications": "d20"})
    assert not Roll.objects.exists()
    assert "d20" in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}


def test_an_empty_pool_with_a_setting_die_rolls_the_setting_die_alone(client_for, alice, table,
                                                                      scripted_dice) -> None:  # type: ignore[no-untyped-def]
    set_pool(table, "d6")
    client_for(alice).post(campaign_action_url(table, "tension-take"),
                           {"die": "6", "purpose": "spend"})
    scripted_dice([9])
    client_for(alice).post(campaign_action_url(table, "tension-danger"), {"setting_die": "10"})
    assert Roll.objects.get().result["effort"] == 9


def test_a_sheet_at_its_most_plot_points_refuses_the_opportunity(client_for, alice, table,
                                                                 shawn) -> None:  # type: ignore[no-untyped-def]
    shawn.sheet = {**shawn.sheet, "plot_points": MAX_PLOT_POINTS}
    shawn.save()
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-opportunity"),
                                                 {"grow": "add", "character": shawn.pk})
    assert f"Shawn already has {MAX_PLOT_POINTS} plot points" in text_of(response)
    assert Campaign.objects.get(pk=table.pk).system_data == {}
    assert plot_points(shawn) == MAX_PLOT_POINTS


def test_the_panel_context_runs_no_query(table, shawn, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    with django_assert_num_queries(0):
        context = dashboard_context(table)
    assert context["tension_text"] == "3d6"
    assert [c.name for c in context["tension_characters"]] == ["Shawn"]  # read lazily


def test_the_answers_message_goes_outside_the_panel_so_a_live_refresh_keeps_it(
        client_for, alice, table) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(campaign_action_url(table, "tension-take"),
                                                 {"die": "6", "purpose": "spend"})
    content = response.content.decode()
    assert '<div id="tension-status" aria-live="polite" hx-swap-oob="innerHTML">' in content
    page = client_for(alice).get(table.get_absolute_url()).content.decode()
    assert '<div id="tension-status" aria-live="polite">' in page  # never swapped by a refresh


def test_the_general_danger_roll_opens_from_the_panel(client_for, alice, table,
                                                      scripted_dice) -> None:  # type: ignore[no-untyped-def]
    scripted_dice([4, 6, 2])
    client_for(alice).post(campaign_action_url(table, "tension-danger"), {"setting_die": ""})
    roll = Roll.objects.get()
    page = client_for(alice).get(table.get_absolute_url())
    # The panel keeps the roll's id: its link sends the GM (and the GM alone) to the roll.
    assert reverse("rolls:roll-by-number", args=[roll.pk]) in page.content.decode()
    found = client_for(alice).get(reverse("rolls:roll-by-number", args=[roll.pk]))
    assert found.status_code == 302 and found["Location"] == roll.get_absolute_url()
    detail = client_for(alice).get(roll.get_absolute_url())
    assert detail.status_code == 200
    assert "General danger: tension pool 3d6" in text_of(detail)
