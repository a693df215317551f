"""The stored points' version key without a database constraint (issue 25): PostgreSQL's
deferred check of a national run's 400,000 rows took 9 s at its commit. Django still
cascades a version's deletion to its points."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("registry", "0014_merge_issue_24")]

    operations = [
        migrations.AlterField(
            model_name="storedgamepoints",
            name="version",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="stored_points",
                to="registry.listversion",
            ),
        ),
    ]
