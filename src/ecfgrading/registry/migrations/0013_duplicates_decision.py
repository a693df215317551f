# Issue 24, case 1: a file holding games already on record under another event code is
# flagged when accepted, and the grading team's decision on it is kept.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="duplicates",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "None on record elsewhere"),
                    ("flagged", "On record elsewhere: the grading team decides"),
                    ("correction", "Accepted as a correction of that event"),
                    ("new-games", "Accepted for its new games only"),
                    ("rejected", "Rejected: its games were on record"),
                ],
                default="",
                max_length=20,
            ),
        ),
    ]
