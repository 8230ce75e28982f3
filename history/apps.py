from django.apps import AppConfig


class HistoryConfig(AppConfig):
    """The table's memory: the activity log (who changed what), what changed between two
    sessions, and how the dice ran (docs/history.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "history"
