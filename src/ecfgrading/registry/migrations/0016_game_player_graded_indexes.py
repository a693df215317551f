"""Each side's games indexed with ``graded`` and ``game_date`` (issue 25).

The rating API's player rows read each player's latest graded game; through the foreign
keys' own indexes that read every game's row (40-130 ms for 300 players on a national
registry), through these it reads the index alone (about 10 ms). They replace the
foreign keys' indexes, so an import writes no more indexes than before.

The foreign keys' indexes are dropped by name rather than by altering the fields: on
SQLite, altering a field copies the whole table of games.
"""

import django.db.models.deletion
from django.db import migrations, models

# Django's names for the foreign keys' indexes (the same on SQLite and PostgreSQL).
OLD_INDEXES = ("registry_game_player1_id_474185cb", "registry_game_player2_id_2ebe75db")


def _field(side: int) -> models.ForeignKey:
    return models.ForeignKey(
        blank=True,
        db_index=False,
        null=True,
        on_delete=django.db.models.deletion.PROTECT,
        related_name=f"games_as_player{side}",
        to="registry.player",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0015_grading_stored_points_version"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["player1", "graded", "game_date"], name="game_player1_graded_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["player2", "graded", "game_date"], name="game_player2_graded_idx"
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="game", name=f"player{side}", field=_field(side))
                for side in (1, 2)
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX "{name}" ON "registry_game" ("player{n}_id")',
                )
                for n, name in enumerate(OLD_INDEXES, start=1)
            ],
        ),
    ]
