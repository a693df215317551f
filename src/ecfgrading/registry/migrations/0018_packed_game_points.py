"""A computed version's stored game points packed in one row, which later lists' loads
read in place of its rows (G17, G34; issue 25)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0017_player_born_noted_at"),
    ]

    operations = [
        migrations.CreateModel(
            name="PackedGamePoints",
            fields=[
                (
                    "version",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="packed_points",
                        serialize=False,
                        to="registry.listversion",
                    ),
                ),
                ("rows", models.PositiveIntegerField()),
                (
                    "data",
                    models.BinaryField(
                        help_text="STORED_ROW's columns (registry.packed), one after another, zlib-compressed."
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "packed game points",
            },
        ),
    ]
