"""``manage.py export_campaign <pk> [--output FILE]``: a campaign as a Sheetkeeper JSON file,
for moving it to another installation (docs/backup.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.models import Campaign
from transfer.export import document_json, export_campaign


class Command(BaseCommand):
    """``manage.py export_campaign PK [--output FILE]``: the campaign as the document of
    :func:`transfer.export.export_campaign` (docs/backup.md)."""

    help = ("Export a campaign (settings, sessions, characters, XP ledgers, rolls, roll "
            "requests) as JSON, to stdout or to --output FILE.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("pk", type=int, help="The campaign's id (in its page's URL).")
        parser.add_argument("--output", "-o", type=Path,
                            help="Write the file here instead of to stdout.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=options["pk"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {options['pk']}.")
        text = document_json(export_campaign(campaign))
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Cannot write {output}: {exc.strerror}.") from None
        self.stderr.write(f"Exported {campaign.name} to {output}.")
