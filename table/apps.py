from django.apps import AppConfig


class TableConfig(AppConfig):
    """The GM's table: the campaign's dashboard, its sessions and their awards."""

    name = "table"
