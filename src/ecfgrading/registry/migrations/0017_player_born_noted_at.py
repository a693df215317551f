"""When a player's date of birth was learnt after his record was made: ``regrade
--as-published`` reads a date of birth only if it was known when the published version
was computed (G20), as it reads only the results received by then."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("registry", "0016_game_player_graded_indexes")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="born_noted_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the date of birth was learnt after the record was made (a "
                "later results file, a correction, a merge, the admin); empty: with the "
                "record.",
                null=True,
            ),
        ),
    ]
