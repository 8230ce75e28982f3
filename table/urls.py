"""The GM's table, under /campaigns/<id>/ beside the campaigns app's own pages."""

from django.urls import path

from table import sessions, views

app_name = "table"

urlpatterns = [
    path("<int:pk>/", views.campaign_detail, name="campaign-detail"),
    path("<int:pk>/system/<slug:action>/", views.campaign_system_action,
         name="campaign-system-action"),
    path("<int:pk>/sessions/", sessions.session_list, name="session-list"),
    path("<int:pk>/sessions/<int:session_pk>/", sessions.session_detail, name="session-detail"),
    path("<int:pk>/sessions/<int:session_pk>/recap/", sessions.session_recap,
         name="session-recap"),
]
