from django.apps import AppConfig


class EquipmentConfig(AppConfig):
    """Equipment: what a character carries, for every system (docs/equipment.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "equipment"
