"""Export and import of characters and whole campaigns as JSON (docs/backup.md)."""

from django.apps import AppConfig


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = "Export and import"
