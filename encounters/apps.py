from django.apps import AppConfig


class EncountersConfig(AppConfig):
    """Encounters: the order of a fight, its rounds and turns, live on every page of the
    table, and its record (docs/encounters.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "encounters"
