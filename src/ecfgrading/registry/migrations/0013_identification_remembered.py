"""Identification decisions remembered (issue 24, case 3): the spellings the team
identified (``NameAlias``), and cases that close themselves when their file is superseded.

Open cases of files already superseded are closed here, as an import now closes them.
"""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def close_superseded_cases(apps: Any, schema_editor: Any) -> None:
    case = apps.get_model("registry", "PendingIdentification")
    stale = case.objects.using(schema_editor.connection.alias).filter(
        status="open", submission__status="superseded"
    )
    stale.update(status="superseded", resolved_at=django.utils.timezone.now())


def reopen_superseded_cases(apps: Any, schema_editor: Any) -> None:
    """Backwards: the status no longer exists, and such a case has no player."""
    case = apps.get_model("registry", "PendingIdentification")
    closed = case.objects.using(schema_editor.connection.alias).filter(status="superseded")
    closed.update(status="open", resolved_at=None)


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0012_county_association_code"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="pendingidentification",
            name="pending_resolved_has_player",
        ),
        migrations.AlterField(
            model_name="pendingidentification",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Open"),
                    ("linked", "Linked to a player on record"),
                    ("created", "New player created"),
                    ("superseded", "Closed: its file was superseded"),
                ],
                default="open",
                max_length=10,
            ),
        ),
        migrations.RunPython(close_superseded_cases, reopen_superseded_cases, elidable=False),
        migrations.AddConstraint(
            model_name="pendingidentification",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status__in", ("open", "superseded")),
                    ("resolved_player__isnull", False),
                    _connector="OR",
                ),
                name="pending_resolved_has_player",
            ),
        ),
        migrations.CreateModel(
            name="NameAlias",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "spelling",
                    models.CharField(help_text="The name as the file wrote it.", max_length=200),
                ),
                ("spelling_key", models.CharField(max_length=200)),
                ("club_code", models.CharField(blank=True, max_length=10)),
                ("club_name", models.CharField(blank=True, max_length=100)),
                (
                    "decision",
                    models.CharField(
                        choices=[
                            ("link", "Linked to a player on record"),
                            ("new", "Put on record as a new player"),
                            ("merge", "Merged into another player"),
                        ],
                        max_length=5,
                    ),
                ),
                ("decided_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "case",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="registry.pendingidentification",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="name_aliases",
                        to="registry.event",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="name_aliases",
                        to="registry.player",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "name aliases",
                "ordering": ("-decided_at", "-id"),
                "indexes": [models.Index(fields=["spelling_key"], name="name_alias_spelling_idx")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("event", "spelling_key", "club_code", "club_name"),
                        name="name_alias_one_per_spelling",
                    )
                ],
            },
        ),
    ]
