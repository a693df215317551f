"""Clubs edited in place noted, as players are (IdentityChange): running importers read
the club and its members again, and public pages are made anew."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0018_packed_game_points"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubChange",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("club_id", models.BigIntegerField()),
            ],
        ),
    ]
