from __future__ import annotations

from importlib import import_module

from django.apps import AppConfig
from django.db.models.signals import post_save


class ChatConfig(AppConfig):
    """The group's chat: a campaign's Discord or Slack webhook, and the posts the table
    sends it (docs/history.md, "The group's chat")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self) -> None:
        # The activity log's writer sits below the services and cannot call the chat: the
        # chat hears each new entry instead. The receiver's module reads the models, so it is
        # loaded here, once they are, rather than when this module is (Django's own advice
        # for signal receivers, "AppConfig.ready()").
        relay = import_module("chat.relay")
        post_save.connect(relay.activity_saved, sender="history.Activity",
                          dispatch_uid="chat.relay")
