from django.urls import path

from campaigns import live, views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("new/", views.campaign_create, name="campaign-create"),
    path("<int:pk>/events/", live.campaign_events, name="campaign-events"),
    path("<int:pk>/invite/renew/", views.campaign_invite_renew, name="campaign-invite-renew"),
    path("<int:pk>/invite/revoke/", views.campaign_invite_revoke, name="campaign-invite-revoke"),
    path(
        "<int:pk>/members/<int:membership_id>/remove/",
        views.membership_remove,
        name="membership-remove",
    ),
    path("join/<str:token>/", views.campaign_join, name="campaign-join"),
]
