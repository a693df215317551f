"""Every county gets a four-character association code (issue 22), and the time it was
last changed (an edited code or name must reach the pages: lookups.freshness).

Counties on record are given the code the rule of ``registry.associations`` makes from
their names, in the order they were recorded (by id), so that of two names making the
same code the older county keeps it and the newer takes the next free one.
"""

from typing import Any

import django.utils.timezone
from django.db import migrations, models
from django.db.models.functions import Length, Upper
from django.db.models.lookups import Exact

import ecfgrading.registry.associations
from ecfgrading.registry.associations import assoc_code_for


def give_codes(apps: Any, schema_editor: Any) -> None:
    county = apps.get_model("registry", "County")
    taken: set[str] = set()
    for row in county.objects.using(schema_editor.connection.alias).order_by("id"):
        row.code = assoc_code_for(row.name, taken)
        taken.add(row.code)
        row.save(update_fields=["code"])


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0011_version_rules_of_its_date"),
    ]

    operations = [
        migrations.AddField(
            model_name="county",
            name="code",
            field=models.CharField(blank=True, default="", max_length=4),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="county",
            name="updated_at",
            field=models.DateTimeField(auto_now=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="county",
            name="code",
            field=models.CharField(
                blank=True,
                help_text=(
                    "Four capital letters or digits, e.g. NORF: the county's assoc_code in "
                    "the federation's API. Left empty, it is made from the name (docs/api.md)."
                ),
                max_length=4,
                unique=True,
                validators=[ecfgrading.registry.associations.validate_assoc_code],
                verbose_name="association code",
            ),
        ),
        migrations.AddConstraint(
            model_name="county",
            constraint=models.CheckConstraint(
                condition=Exact(Length("code"), 4), name="county_code_length"
            ),
        ),
        migrations.AddConstraint(
            model_name="county",
            constraint=models.CheckConstraint(
                condition=Exact(models.F("code"), Upper("code")), name="county_code_upper_case"
            ),
        ),
    ]
