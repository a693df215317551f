"""Player lookups by name prefix: a folded key, compared byte-wise, with its index."""

from django.db import migrations, models

from ecfgrading.matching.names import search_key


def byte_order_on_postgresql(apps, schema_editor):
    """Prefix ranges ('smith,' <= key < 'smith-') need byte order, which a locale's
    collation does not give (it ignores punctuation); SQLite compares bytes already."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            'ALTER TABLE registry_player ALTER COLUMN name_key TYPE varchar(210) COLLATE "C"'
        )


def fill_keys(apps, schema_editor):
    Player = apps.get_model("registry", "Player")
    rows = Player.objects.only("id", "surname", "forenames").order_by("id")
    batch = []
    for player in rows.iterator(chunk_size=5000):
        player.name_key = search_key(player.surname, player.forenames)
        batch.append(player)
        if len(batch) == 5000:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0004_identitychange"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=210),
        ),
        migrations.RunPython(byte_order_on_postgresql, migrations.RunPython.noop),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name_key", "code"], name="player_name_key_idx"),
        ),
    ]
