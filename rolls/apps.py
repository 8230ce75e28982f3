from django.apps import AppConfig


class RollsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rolls"
