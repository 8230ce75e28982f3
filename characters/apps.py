from django.apps import AppConfig

from characters import live


class CharactersConfig(AppConfig):
    """Characters: their sheets, XP ledgers and recent rolls."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "characters"

    def ready(self) -> None:
        # Here, not at import: the receiver draws with the rolls' model and templates.
        live.connect()
