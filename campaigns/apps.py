from django.apps import AppConfig

from campaigns import versions


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        versions.connect()
