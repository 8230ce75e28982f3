"""A campaign's description and archive date; a session's notes become its recap.

The rename keeps every note written so far (RenameField is an ALTER TABLE ... RENAME COLUMN):
the GM's session notes were always read by every member, as the recap is.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0004_campaign_starting_xp_help"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="description",
            field=models.CharField(
                blank=True, help_text="A line or two for the campaign list and the invite page.",
                max_length=500),
        ),
        migrations.AddField(
            model_name="campaign",
            name="archived_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RenameField(model_name="session", old_name="notes", new_name="recap"),
        migrations.AlterField(
            model_name="session",
            name="recap",
            field=models.TextField(
                blank=True, help_text="Markdown. Every member of the table can read it."),
        ),
    ]
