from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares and no app owns (docs/architecture.md, "The house"): the
    client's address, the abuse limits, the once-only form submissions, the answer when the
    database is out of reach."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
