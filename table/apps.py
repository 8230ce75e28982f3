from django.apps import AppConfig

from table import live


class TableConfig(AppConfig):
    """The GM's table: the campaign's dashboard, its sessions and their awards."""

    name = "table"

    def ready(self) -> None:
        # Here, not at import: the receiver draws with the rolls' model and templates.
        live.connect()
