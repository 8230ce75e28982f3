"""``manage.py import_campaign FILE --gm USERNAME [--keep-users]``: a Sheetkeeper JSON file
as a new campaign, for moving a campaign between installations (docs/backup.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from transfer.imports import import_campaign
from transfer.validate import TransferError, read_document


class Command(BaseCommand):
    """``manage.py import_campaign FILE --gm USERNAME [--keep-users]``: a new campaign from an
    export, through :func:`transfer.imports.import_campaign` (docs/backup.md); a refusal
    exits with its reason and writes nothing."""

    help = ("Import a campaign exported by Sheetkeeper as a new campaign with the --gm user "
            "as its GM, who owns every character; all or nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The .sheetkeeper.json file, or - for stdin.")
        parser.add_argument("--gm", required=True,
                            help="The username of the account that becomes the GM.")
        parser.add_argument(
            "--keep-users", action="store_true",
            help="Give characters, rolls and ledger entries back to the accounts with the "
                 "recorded usernames where they exist here, and seat the recorded players. "
                 "Only when those usernames are the same people (a move of a whole "
                 "installation, a restore on this one).")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        gm = User.objects.filter(**{User.USERNAME_FIELD: options["gm"]}).first()
        if gm is None:
            raise CommandError(f"There is no user {options['gm']!r}; create the account "
                               "first (manage.py createsuperuser, or sign up).")
        try:
            raw = (sys.stdin.buffer.read() if options["file"] == "-"
                   else Path(options["file"]).read_bytes())
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from None
        try:
            campaign = import_campaign(read_document(raw, max_bytes=None), gm,
                                       keep_users=options["keep_users"])
        except TransferError as exc:
            raise CommandError(f"Nothing was imported: {exc}") from None
        archived = (" It is archived, as the file says: its GM restores it to play on."
                    if campaign.is_archived else "")
        self.stdout.write(self.style.SUCCESS(
            f"Imported {campaign.name} as campaign {campaign.pk} with "
            f"{campaign.characters.count()} characters; {gm.get_username()} is its GM."
            f"{archived}"))
