from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out

from campaigns import versions


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        from campaigns.live import close_streams_at_logout  # it reads models: once ready

        versions.connect()
        user_logged_out.connect(close_streams_at_logout,
                                dispatch_uid="campaigns.live.close_streams_at_logout")
