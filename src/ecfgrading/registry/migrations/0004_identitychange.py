from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0003_fide_id_ten_digits"),
    ]

    operations = [
        migrations.CreateModel(
            name="IdentityChange",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("player_id", models.BigIntegerField()),
            ],
        ),
    ]
