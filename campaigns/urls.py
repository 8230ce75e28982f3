from django.urls import path

from campaigns import live, views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("new/", views.campaign_create, name="campaign-create"),
    path("<int:pk>/events/", live.campaign_events, name="campaign-events"),
    path("<int:pk>/settings/", views.campaign_settings, name="campaign-settings"),
    path("<int:pk>/settings/readings/", views.campaign_readings, name="campaign-readings"),
    path("<int:pk>/handover/", views.campaign_handover, name="campaign-handover"),
    path("<int:pk>/leave/", views.campaign_leave, name="campaign-leave"),
    path("<int:pk>/archive/", views.campaign_archive, name="campaign-archive"),
    path("<int:pk>/restore/", views.campaign_restore, name="campaign-restore"),
    path("<int:pk>/delete/", views.campaign_delete, name="campaign-delete"),
    path("<int:pk>/invite/renew/", views.campaign_invite_renew, name="campaign-invite-renew"),
    path("<int:pk>/invite/revoke/", views.campaign_invite_revoke, name="campaign-invite-revoke"),
    path(
        "<int:pk>/members/<int:membership_id>/remove/",
        views.membership_remove,
        name="membership-remove",
    ),
    path(
        "<int:pk>/members/<int:membership_id>/seat/",
        views.membership_seat,
        name="membership-seat",
    ),
    path("join/<str:token>/", views.campaign_join, name="campaign-join"),
]
