"""Issue 24's migrations were written side by side from 0012; this joins them. A later
one depends on this, so the graph has one leaf again."""

from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0013_corrections_removed_reason"),
        ("registry", "0013_duplicates_decision"),
        ("registry", "0013_events_abroad_codes_withdrawal"),
        ("registry", "0013_files_published_snapshot"),
        ("registry", "0013_identification_remembered"),
        ("registry", "0013_mail_rate_counts"),
    ]

    operations: list[migrations.operations.base.Operation] = []
