"""The campaign's hidden version: the count of changes only the GM's pages show (a GM-only
roll), kept apart from ``live_version`` so that no number a player's page sees moves for them
(issue 31, campaigns.versions). Every campaign starts at 0, so the GM's version (the sum of
both) is the one the GM's open pages already hold."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0006_campaign_live_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="hidden_version",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
    ]
