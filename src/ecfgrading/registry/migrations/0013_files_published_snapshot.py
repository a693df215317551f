"""A published version's public player details, frozen when it is published (issue 24,
case 14): its list files are written from them, the same bytes for ever.

Versions published before this migration have no snapshot: their files are still written
from the registry as it is (``lookups.exports``) until they are frozen.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
    ]

    operations = [
        migrations.CreateModel(
            name="PublishedSnapshot",
            fields=[
                (
                    "version",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="snapshot",
                        serialize=False,
                        to="registry.listversion",
                    ),
                ),
                ("players", models.JSONField(default=list)),
                ("rule_set", models.CharField(blank=True, default="", max_length=40)),
                ("rule_words", models.TextField(blank=True, default="")),
                ("frozen_at", models.DateTimeField(auto_now_add=True)),
                (
                    "august",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="registry.listversion",
                    ),
                ),
                (
                    "previous",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="registry.listversion",
                    ),
                ),
            ],
        ),
    ]
