# Rate-limit counters in the database (issue 24, case 14).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
    ]

    operations = [
        migrations.CreateModel(
            name="RateCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=200, unique=True)),
                ("count", models.PositiveIntegerField(default=0)),
                (
                    "ends_at",
                    models.DateTimeField(
                        db_index=True, help_text="The row is forgotten after this."
                    ),
                ),
            ],
        ),
    ]
