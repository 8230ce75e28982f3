"""The group's chat: the GM's page of the campaign's webhook (docs/history.md)."""

from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("<int:pk>/chat/", views.campaign_chat, name="campaign-chat"),
    path("<int:pk>/chat/test/", views.campaign_chat_test, name="campaign-chat-test"),
    path("<int:pk>/chat/disconnect/", views.campaign_chat_delete, name="campaign-chat-delete"),
]
