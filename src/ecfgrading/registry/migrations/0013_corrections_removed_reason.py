# Issue 24, case 2: a game removed by the grading team is kept on record, not graded,
# with the reason "removed". Only the choices change: no column, no data.

from django.db import migrations, models

REASONS = [
    ("default", "Default, bye or walkover"),
    ("lightning", "Lightning"),
    ("online", "Online"),
    ("correspondence", "Correspondence"),
    ("no-clock", "No clocks"),
    ("superseded", "Superseded by a later submission"),
    ("removed", "Removed by the grading team"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="not_graded_reason",
            field=models.CharField(blank=True, choices=REASONS, max_length=20),
        ),
        migrations.AlterField(
            model_name="game",
            name="not_graded_reason",
            field=models.CharField(blank=True, choices=REASONS, max_length=20),
        ),
    ]
